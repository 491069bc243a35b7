// "Verify" on a finished hand's page: check the deck commitment in the browser
// (DESIGN.md "Fairness", docs/histories-and-rake.md "Checking a deal").
//
// Card by card (scheme 2): the commitment is SHA-256 (hex) of the 52 leaves' hex written one
// after the other; the leaf of deck position i is SHA-256 of "i:card:salt" (UTF-8, the card as
// text such as "As"). The page gives all 52 leaves, the public facts of the deal, and the card
// and salt of each card this player saw. Verify checks the leaves give the commitment, that
// each card seen gives its leaf, and that its position is the one the order of the deal gives
// it: so the cards were fixed before the deal, and nothing tells the cards not shown.
//
// Hands dealt before (scheme 1): SHA-256 of the deck's cards as text joined by spaces, ":",
// and the one salt.

export function commitmentInput(deckText, salt) {
  return `${deckText.trim()}:${salt.trim()}`;
}

export async function sha256Hex(text) {
  const bytes = new TextEncoder().encode(text);
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function verifyCommitment(deckText, salt, commitment) {
  const hash = await sha256Hex(commitmentInput(deckText, salt));
  return { ok: hash === commitment.trim().toLowerCase(), hash };
}

// --- R-DEAL-5's reshuffle: Python's random.Random(seed).shuffle, exactly ---------------------

// The Mersenne Twister as CPython seeds it from an integer (init_by_array of its 32-bit words).
function pythonRandom(seed) {
  const N = 624;
  const mt = new Uint32Array(N);
  let index = N + 1;
  const initGenrand = (s) => {
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
  };
  const key = [];
  let rest = Math.abs(seed);
  do {
    key.push(rest % 0x100000000);
    rest = Math.floor(rest / 0x100000000);
  } while (rest > 0);
  initGenrand(19650218);
  let i = 1;
  let j = 0;
  for (let k = Math.max(N, key.length); k > 0; k--) {
    const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
    mt[i] = ((mt[i] ^ Math.imul(prev, 1664525)) + key[j] + j) >>> 0;
    i++;
    j++;
    if (i >= N) {
      mt[0] = mt[N - 1];
      i = 1;
    }
    if (j >= key.length) j = 0;
  }
  for (let k = N - 1; k > 0; k--) {
    const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
    mt[i] = ((mt[i] ^ Math.imul(prev, 1566083941)) - i) >>> 0;
    i++;
    if (i >= N) {
      mt[0] = mt[N - 1];
      i = 1;
    }
  }
  mt[0] = 0x80000000;
  index = N;
  const next32 = () => {
    if (index >= N) {
      for (let kk = 0; kk < N; kk++) {
        const y = (mt[kk] & 0x80000000) | (mt[(kk + 1) % N] & 0x7fffffff);
        mt[kk] = mt[(kk + 397) % N] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      index = 0;
    }
    let y = mt[index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  };
  const randbelow = (n) => {
    const bits = n.toString(2).length;
    let r = next32() >>> (32 - bits);
    while (r >= n) r = next32() >>> (32 - bits);
    return r;
  };
  return { randbelow };
}

export function pythonShuffle(items, seed) {
  const out = items.slice();
  const random = pythonRandom(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = random.randbelow(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// --- the order of the deal (tables/engine/dealing.py deal_positions) ------------------------

const DECK_SIZE = 52;

// Where each card sits in the committed deck: "seat:index" (index 0..6 among the seat's cards
// as dealt) or "community" -> position.
export function dealPositions(deal) {
  const positions = new Map();
  const n = deal.order.length;
  deal.order.forEach((seat, i) => {
    positions.set(`${seat}:0`, i);
    positions.set(`${seat}:1`, n + i);
    positions.set(`${seat}:2`, 2 * n + i);
  });
  let position = 3 * n;
  const burns = [];
  for (const [street, seats] of deal.streets) {
    burns.push(position);
    position += 1;
    if (street < 7 || deal.river === "down") {
      for (const seat of seats) {
        positions.set(`${seat}:${street - 1}`, position);
        position += 1;
      }
      continue;
    }
    const stub = [];
    for (let p = position; p < DECK_SIZE; p++) stub.push(p);
    const pile = pythonShuffle([...burns, ...stub], deal.reshuffle_seed);
    if (deal.river === "community") positions.set("community", pile[0]);
    else seats.forEach((seat, k) => positions.set(`${seat}:6`, pile[k]));
  }
  return positions;
}

export function reshuffleSeedFor(commitment) {
  return Math.floor(parseInt(commitment.slice(0, 8), 16) / 2);
}

export async function verifyCards(fairness) {
  const commitment = fairness.commitment.trim().toLowerCase();
  const problems = [];
  const leaves = fairness.leaves;
  if (leaves.length !== DECK_SIZE) problems.push(`${leaves.length} leaves, not ${DECK_SIZE}`);
  const hash = await sha256Hex(leaves.join(""));
  if (hash !== commitment) problems.push(`the leaves give ${hash}, not the commitment`);
  const deal = fairness.deal;
  if (deal.reshuffle_seed !== null && deal.reshuffle_seed !== reshuffleSeedFor(commitment)) {
    problems.push("the reshuffle seed is not the one the commitment fixes");
  }
  const positions = dealPositions(deal);
  for (const card of fairness.revealed) {
    const where = card.face === "community" ? "community" : `${card.seat}:${card.index}`;
    if (positions.get(where) !== card.position) {
      problems.push(`${card.card_text} is not at the place the deal gives it`);
      continue;
    }
    const leaf = await sha256Hex(`${card.position}:${card.card_text}:${card.salt}`);
    if (leaf !== leaves[card.position]) problems.push(`${card.card_text} does not give its leaf`);
  }
  return { ok: problems.length === 0, hash, problems, checked: fairness.revealed.length };
}

export function mountVerify(root) {
  if (!root) return;
  const button = root.querySelector("[data-verify]");
  const out = root.querySelector("[data-verify-result]");
  if (!button || !out) return;
  button.addEventListener("click", async () => {
    if (!globalThis.crypto || !crypto.subtle) {
      out.textContent = "This browser cannot compute SHA-256 here (it needs HTTPS or localhost).";
      return;
    }
    const data = root.querySelector("#hand-fairness");
    let ok;
    if (data) {
      const result = await verifyCards(JSON.parse(data.textContent));
      ok = result.ok;
      out.textContent = ok
        ? `Verified: the 52 leaves give the commitment shown before the deal, and each of the ${result.checked} cards you saw is the card committed at its place in the deal.`
        : `Mismatch: ${result.problems.join("; ")}.`;
    } else {
      const deck = root.querySelector("[data-deck]").textContent;
      const salt = root.querySelector("[data-salt]").textContent;
      const commitment = root.querySelector("[data-commitment]").textContent;
      const result = await verifyCommitment(deck, salt, commitment);
      ok = result.ok;
      out.textContent = ok
        ? "Verified: the deck and salt give the commitment shown before the deal."
        : `Mismatch: they give ${result.hash}`;
    }
    out.dataset.verified = ok ? "yes" : "no";
  });
}
