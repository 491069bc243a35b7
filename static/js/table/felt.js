// The felt: the seats around the oval, their bets, the dealer button and the pots in the
// middle, drawn from the store. Each piece is rebuilt only when what it shows changes (a
// seat whose player did nothing keeps its element), so a frame redraws what it touched.
import { cardElement, handWords } from "../cards.js";
import { chipStack } from "../chips.js";
import { amount } from "../money.js";
import { potsOf } from "../handstate.js";

// Under this width (px) the felt stands up, as on a phone, and the seats keep inside it.
export const NARROW_FELT_PX = 520;
// The seats' ellipse, in % of the felt from its centre: [across, down].
const SEAT_RADII_WIDE = [42, 41];
// Standing up (a phone): the viewer's seat at the bottom, the others in two columns down the
// sides and, with an odd number of others, one at the top; so every seat's seven cards fit
// side by side and the middle keeps a lane for the pots and the result (issue #14). In % of
// the felt: the columns' centres across, the bottom and top seats and the band of the rows
// down (with a top seat, without).
const NARROW_COLUMN_X = 15;
const NARROW_BOTTOM_Y = 91;
const NARROW_TOP_Y = 8;
const NARROW_ROWS_WITH_TOP = [17, 82];
const NARROW_ROWS = [6, 82];
// How far out towards its seat a bet lies, as a share of the radius.
const BET_PULL_ACROSS = 0.58;
const BET_PULL_DOWN = 0.55;
const STREET_NAMES = { 3: "3rd street", 4: "4th street", 5: "5th street", 6: "6th street", 7: "7th street (river)" };
const CHIP_FLIGHT_MS = 700;

export function streetName(street) {
  return STREET_NAMES[street] || "";
}

export function waitingText(snap) {
  const seated = snap.seats.filter((s) => !s.sitting_out).length;
  if (snap.next_hand_at) return "Next hand shortly";
  if (seated < 2) return "Waiting for players";
  // R-ANTE-1 with R-GAME-3: too few others are in; the table waits for these to say "I'm in".
  const me = snap.viewer ? snap.viewer.seat : null;
  const awaited = snap.seats.filter((s) => (snap.awaiting_ante || []).includes(s.number) && !s.sitting_out)
    .map((s) => (s.number === me ? "you" : s.name));
  return awaited.length ? `Waiting for ${awaited.join(" and ")} to say “I'm in”` : "Waiting";
}

// Where seat `number` sits, in % of the felt: the viewer's own seat at the bottom, the others
// clockwise from it.
export function seatPosition(number, { total, anchor, narrow }) {
  const k = (number - anchor + total) % total;
  if (narrow) return narrowPosition(k, total);
  const angle = Math.PI / 2 + (k * 2 * Math.PI) / total;
  const [rx, ry] = SEAT_RADII_WIDE;
  return { x: 50 + rx * Math.cos(angle), y: 50 + ry * Math.sin(angle) };
}

// The k-th seat clockwise from the bottom on a standing felt: up the left column, the top,
// down the right column.
function narrowPosition(k, total) {
  if (k === 0) return { x: 50, y: NARROW_BOTTOM_Y };
  const others = total - 1;
  const top = others % 2 === 1;
  const side = Math.floor(others / 2);
  const [from, to] = top ? NARROW_ROWS_WITH_TOP : NARROW_ROWS;
  const row = (i) => to - ((to - from) * (i + 0.5)) / side; // i = 0: the lowest row
  if (k <= side) return { x: NARROW_COLUMN_X, y: row(k - 1) };
  if (top && k === side + 1) return { x: 50, y: NARROW_TOP_Y };
  const j = k - side - (top ? 1 : 0) - 1;
  return { x: 100 - NARROW_COLUMN_X, y: row(side - 1 - j) };
}

export class FeltView {
  // onSit(number): the viewer clicks "Sit at seat n".
  constructor(felt, { page, onSit }) {
    this.felt = felt;
    this.page = page;
    this.onSit = onSit;
    this.pieces = new Map(); // key -> {signature, element}
    this.cardCounts = new Map(); // seat -> (hand id, cards drawn), so new cards are marked
  }

  render(store) {
    const snap = store.snap;
    const hand = store.hand;
    const me = store.mySeat();
    const byNumber = new Map(snap.seats.map((s) => [s.number, s]));
    const inHand = new Map((hand ? hand.seats : []).map((s) => [s.seat, s]));
    this.felt.dataset.phase = !hand ? "idle" : hand.is_over || hand.showdown ? "showdown" : "play";
    const layout = {
      total: snap.table.seats, anchor: me || 1, narrow: this.felt.clientWidth < NARROW_FELT_PX,
    };
    const nodes = [];
    const used = new Set();
    const piece = (key, data, build) => {
      used.add(key);
      const signature = JSON.stringify(data);
      const known = this.pieces.get(key);
      if (known && known.signature === signature) {
        nodes.push(known.element);
        return;
      }
      const element = build();
      this.pieces.set(key, { signature, element });
      nodes.push(element);
    };
    for (let number = 1; number <= snap.table.seats; number += 1) {
      const pos = seatPosition(number, layout);
      const seat = byNumber.get(number) || null;
      const played = inHand.get(number) || null;
      const bet = played && played.bet > 0 && !hand.is_over ? played.bet : 0;
      // Standing up, a seat's bet is drawn in its name box: there is no room between the
      // columns and the pots (issue #14).
      const facts = { ...this.seatFacts(store, number, seat, played), bet: layout.narrow ? bet : 0 };
      piece(`seat-${number}`, { pos, facts }, () => this.seatElement(facts, pos));
      if (bet && !layout.narrow) {
        piece(`bet-${number}`, { pos, bet }, () => betElement(number, bet, pos));
      }
    }
    const centre = this.centreFacts(store);
    piece("centre", centre, () => centreElement(centre));
    for (const key of [...this.pieces.keys()]) if (!used.has(key)) this.pieces.delete(key);
    const current = [...this.felt.children];
    if (current.length !== nodes.length || current.some((node, i) => node !== nodes[i])) {
      this.felt.replaceChildren(...nodes);
    }
  }

  // Everything a seat's element shows, as plain data (its signature when compared).
  seatFacts(store, number, seat, played) {
    const hand = store.hand;
    const me = store.mySeat();
    const running = Boolean(hand && !hand.is_over);
    if (!seat) {
      // A tournament draws its seats (R-TOUR-2): nobody picks one; a closed table seats nobody.
      const canSit = Boolean(
        this.page.player_id && me === null && !store.snap.table.is_tournament && !store.isClosed(),
      );
      return { number, empty: true, canSit };
    }
    const status = played ? played.status : null;
    const tags = [];
    // R-SIT-1: sitting out counts from the next hand; a seat still in this one says so.
    if (seat.sitting_out) tags.push(played && running ? "sitting out next hand" : "sitting out");
    if (!seat.connected) tags.push("disconnected");
    if (status === "all_in") tags.push("all-in");
    if (status === "folded") tags.push("folded");
    if (running && hand.street === 3 && hand.bring_in_seat === number && !hand.last_action[number]) {
      tags.push("bring-in");
    }
    if (running && hand.last_action[number]) tags.push(hand.last_action[number]);
    if (hand && hand.mucked.includes(number)) tags.push("mucked");
    const words = hand ? hand.words[number] : null;
    return {
      number,
      name: seat.name,
      connected: seat.connected,
      mine: number === me,
      folded: status === "folded",
      toAct: running && hand.to_act === number,
      winner: Boolean(hand && hand.is_over && hand.winners.includes(number)),
      dealer: Boolean(hand && store.button === number),
      stack: played && running ? played.stack : seat.stack,
      tags,
      words: words ? handWords(words.high) + (words.low ? ` · low ${words.low}` : "") : null,
      // The line under the viewer's own cards while the hand runs (the server's words).
      strength: number === me && running && status !== "folded" && hand.strength
        ? [hand.strength.high, hand.strength.low].filter(Boolean).join(" · ")
        : null,
      cards: played ? cardsOf(hand, played, number === me) : [],
      handId: store.handId,
    };
  }

  seatElement(facts, pos) {
    const el = document.createElement("div");
    el.className = "seat";
    el.dataset.seat = facts.number;
    el.style.left = `${pos.x}%`;
    el.style.top = `${pos.y}%`;
    if (facts.empty) {
      el.classList.add("empty");
      if (facts.canSit) {
        const sit = document.createElement("button");
        sit.type = "button";
        sit.className = "sit-here";
        sit.textContent = `Sit at seat ${facts.number}`;
        sit.addEventListener("click", () => this.onSit(facts.number));
        el.append(sit);
      } else {
        const label = document.createElement("span");
        label.className = "empty-label";
        label.textContent = `Seat ${facts.number}`;
        el.append(label);
      }
      return el;
    }
    if (facts.mine) el.classList.add("mine");
    if (facts.folded) el.classList.add("folded");
    if (facts.toAct) el.classList.add("to-act");
    if (facts.winner) el.classList.add("winner");
    el.setAttribute("aria-label", `Seat ${facts.number}: ${facts.name}`);

    const cards = document.createElement("div");
    cards.className = "cards";
    // Cards new since the seat was last drawn in this hand are dealt (a short CSS animation:
    // they are on the felt at once, the animation never holds them back).
    const known = this.cardCounts.get(facts.number);
    const dealtFrom = !known ? facts.cards.length : known.hand === facts.handId ? known.count : 0;
    this.cardCounts.set(facts.number, { hand: facts.handId, count: facts.cards.length });
    cards.append(...facts.cards.map((card, i) => {
      const el = drawCard(card);
      if (i >= dealtFrom) el.classList.add("dealt");
      return el;
    }));
    const plate = document.createElement("div");
    plate.className = "plate";
    const name = document.createElement("span");
    name.className = "name";
    const nameText = document.createElement("span");
    nameText.className = "name-text";
    nameText.textContent = facts.name;
    name.append(nameText);
    const presence = document.createElement("span");
    const connected = facts.connected ? "connected" : "disconnected";
    presence.className = `presence ${facts.connected ? "on" : "off"}`;
    presence.title = connected;
    presence.setAttribute("role", "img");
    presence.setAttribute("aria-label", connected);
    name.prepend(presence);
    if (facts.dealer) name.append(buttonElement(facts.number)); // in the name box: never on one
    const stack = document.createElement("span");
    stack.className = "stack";
    stack.dataset.stack = facts.number;
    stack.textContent = amount(facts.stack);
    plate.append(name, stack);
    if (facts.strength) {
      const line = document.createElement("div");
      line.className = "strength";
      line.dataset.strength = facts.number;
      line.textContent = facts.strength;
      plate.append(line);
    }
    if (facts.words) {
      const named = document.createElement("div");
      named.className = "hand-name";
      named.dataset.handName = facts.number;
      named.textContent = facts.words;
      plate.append(named);
    }
    if (facts.tags.length || facts.bet) {
      const line = document.createElement("div");
      line.className = "tags";
      for (const tag of facts.tags) {
        const t = document.createElement("span");
        t.className = `tag tag-${tag.split(" ")[0].replace(/[^a-z-]/g, "")}`;
        t.textContent = tag;
        line.append(t);
      }
      if (facts.bet) {
        const chips = chipStack(facts.bet);
        chips.classList.add("seat-bet");
        chips.dataset.betSeat = facts.number;
        line.append(chips);
      }
      plate.append(line);
    }
    if (facts.toAct) plate.append(clockElement(facts.number));
    el.append(cards, plate);
    return el;
  }

  centreFacts(store) {
    const hand = store.hand;
    const facts = { name: store.snap.table.name };
    if (!hand) return { ...facts, waiting: waitingText(store.snap) };
    const result = hand.is_over && hand.result ? hand.result.pots.map((p) => p.amount) : null;
    const amounts = hand.is_over ? result || [] : potsOf(hand);
    return {
      ...facts,
      amounts,
      total: !hand.is_over && amounts.length > 1 ? hand.pot : null,
      community: hand.community_card ?? null,
      wins: hand.is_over && hand.notes.length ? hand.notes.filter((n) => n.includes(" wins ")) : null,
    };
  }

  // Winners' chips leave the middle for their seats (drawn before the frame's redraw).
  flyChips(award) {
    const felt = this.felt;
    const centre = felt.querySelector(".pots");
    const seat = felt.querySelector(`.seat[data-seat="${award.seat}"]`);
    if (!centre || !seat || window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const from = centre.getBoundingClientRect();
    const to = seat.getBoundingClientRect();
    const chips = chipStack(award.amount, { label: false });
    chips.classList.add("flying");
    chips.style.left = `${from.left + from.width / 2}px`;
    chips.style.top = `${from.top + from.height / 2}px`;
    document.body.append(chips);
    const dx = to.left + to.width / 2 - (from.left + from.width / 2);
    const dy = to.top + to.height / 2 - (from.top + from.height / 2);
    chips.animate(
      [{ transform: "translate(0, 0)", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px)`, opacity: 0.2 }],
      { duration: CHIP_FLIGHT_MS, easing: "ease-in" },
    ).finished.then(() => chips.remove(), () => chips.remove());
  }
}

// Down, down, up cards in the order dealt, then the river down: as they lie on the felt. As
// data ({card, face, hole, lit, dead}) so a seat's signature sees them.
export function cardsOf(hand, played, mine) {
  const five = new Set(
    hand.is_over ? hand.awards.filter((a) => a.seat === played.seat).flatMap((a) => a.five || []) : [],
  );
  if (played.shown) return played.shown.map((card) => ({ card, lit: five.has(card) }));
  if (played.status === "folded" && !mine) return [];
  const dead = played.status === "folded";
  const down = mine && played.down ? played.down : [];
  const count = Math.max(played.down_count, down.length);
  const downCard = (i) => (i < down.length
    ? { card: down[i], hole: true, lit: five.has(down[i]), dead }
    : { card: null, face: false, dead });
  const out = [];
  for (let i = 0; i < Math.min(2, count); i += 1) out.push(downCard(i));
  for (const card of played.up) out.push({ card, lit: five.has(card), dead });
  for (let i = 2; i < count; i += 1) out.push(downCard(i));
  return out;
}

function drawCard({ card, face = true, hole = false, lit = false, dead = false }) {
  const el = cardElement(card, { face, hole, lit });
  if (dead) el.classList.add("dead");
  return el;
}

function clockElement(number) {
  const clock = document.createElement("div");
  clock.className = "clock";
  clock.setAttribute("role", "timer");
  clock.setAttribute("aria-label", "time left to act");
  const bar = document.createElement("span");
  bar.className = "bar";
  const text = document.createElement("span");
  text.className = "seconds";
  text.dataset.countdown = number;
  clock.append(bar, text);
  return clock;
}

function betElement(number, amount, pos) {
  const bet = chipStack(amount);
  bet.classList.add("bet");
  bet.dataset.betSeat = number;
  bet.style.left = `${50 + BET_PULL_ACROSS * (pos.x - 50)}%`;
  bet.style.top = `${50 + BET_PULL_DOWN * (pos.y - 50)}%`;
  return bet;
}

function buttonElement(number) {
  const button = document.createElement("span");
  button.className = "dealer-button";
  button.textContent = "D";
  button.title = "Dealer button";
  button.setAttribute("role", "img");
  button.setAttribute("aria-label", `Dealer button at seat ${number}`);
  return button;
}

function centreElement(facts) {
  const centre = document.createElement("div");
  centre.className = "centre";
  const title = document.createElement("div");
  title.className = "felt-title";
  title.textContent = facts.name;
  centre.append(title);
  if (facts.waiting !== undefined) {
    const waiting = document.createElement("div");
    waiting.className = "felt-note";
    waiting.textContent = facts.waiting;
    centre.append(waiting);
    return centre;
  }
  const pots = document.createElement("div");
  pots.className = "pots";
  pots.dataset.pots = "";
  const amounts = facts.amounts;
  amounts.forEach((amount, i) => {
    if (!amount) return;
    const pot = document.createElement("div");
    pot.className = "pot";
    const label = document.createElement("span");
    label.className = "pot-label";
    label.textContent = i === 0 ? (amounts.length > 1 ? "Main pot" : "Pot") : `Side pot ${i}`;
    pot.append(label, chipStack(amount));
    pots.append(pot);
  });
  if (facts.total !== null) {
    const total = document.createElement("div");
    total.className = "pot-total";
    total.textContent = `Total ${amount(facts.total)}`;
    pots.append(total);
  }
  centre.append(pots);
  if (facts.community !== null) {
    const community = document.createElement("div");
    community.className = "community";
    const label = document.createElement("span");
    label.textContent = "Community card";
    community.append(label, cardElement(facts.community));
    centre.append(community);
  }
  if (facts.wins) {
    const summary = document.createElement("div");
    summary.className = "felt-note winners-note";
    summary.textContent = facts.wins.join(" · ");
    centre.append(summary);
  }
  return centre;
}
