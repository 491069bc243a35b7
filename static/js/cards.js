// Cards as the engine numbers them: card = rank * 4 + suit; rank 0..12 is 2..A, suit 0..3 is
// clubs, diamonds, hearts, spades (docs/engine-contract.md).
const RANKS = "23456789TJQKA";
const RANK_FACES = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const RANK_NAMES = [
  "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
  "jack", "queen", "king", "ace",
];
const SUIT_SYMBOLS = ["♣", "♦", "♥", "♠"];
const SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"];
const SUIT_CLASSES = ["clubs", "diamonds", "hearts", "spades"];

export function cardText(card) {
  return RANKS[card >> 2] + "cdhs"[card & 3];
}

export function cardName(card) {
  return `${RANK_NAMES[card >> 2]} of ${SUIT_NAMES[card & 3]}`;
}

// A card as text, as the log writes it: "Q♣", "10♥".
export function cardLabel(card) {
  return RANK_FACES[card >> 2] + SUIT_SYMBOLS[card & 3];
}

// One card element. `face`: true (face up), false (a back). `hole`: a down card shown to its
// owner (drawn face up, marked as hidden from the others). `lit`: part of the winning five.
export function cardElement(card, { face = true, hole = false, lit = false } = {}) {
  const el = document.createElement("span");
  el.setAttribute("role", "img");
  if (!face || card === null || card === undefined) {
    el.className = "card back";
    el.setAttribute("aria-label", "face-down card");
    return el;
  }
  const suit = card & 3;
  el.className = `card face ${SUIT_CLASSES[suit]}`;
  if (hole) el.classList.add("hole");
  if (lit) el.classList.add("lit");
  el.dataset.card = cardText(card);
  el.setAttribute("aria-label", cardName(card) + (hole ? " (down)" : ""));
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = RANK_FACES[card >> 2];
  const pip = document.createElement("span");
  pip.className = "suit";
  pip.textContent = SUIT_SYMBOLS[suit];
  el.append(rank, pip);
  return el;
}

// The engine's words ("two pair, Kings and Nines", "a straight, Deuce to Six") as the room
// shows them: "Two pair, kings and nines", "Straight, deuce to six".
export function handWords(text) {
  if (!text) return "";
  const words = String(text).replace(/^an? /i, "").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
