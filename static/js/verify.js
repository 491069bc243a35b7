// "Verify" on a finished hand's page: recompute the deck commitment in the browser.
// The commitment is SHA-256 (hex) of the deck's cards as text joined by spaces, ":", and
// the salt, UTF-8 (docs/engine-contract.md, deck.py): the same bytes the room hashed.

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

export function mountVerify(root) {
  if (!root) return;
  const button = root.querySelector("[data-verify]");
  const out = root.querySelector("[data-verify-result]");
  if (!button || !out) return;
  button.addEventListener("click", async () => {
    const deck = root.querySelector("[data-deck]").textContent;
    const salt = root.querySelector("[data-salt]").textContent;
    const commitment = root.querySelector("[data-commitment]").textContent;
    if (!globalThis.crypto || !crypto.subtle) {
      out.textContent = "This browser cannot compute SHA-256 here (it needs HTTPS or localhost).";
      return;
    }
    const { ok, hash } = await verifyCommitment(deck, salt, commitment);
    out.textContent = ok
      ? "Verified: the deck and salt give the commitment shown before the deal."
      : `Mismatch: they give ${hash}`;
    out.dataset.verified = ok ? "yes" : "no";
  });
}
