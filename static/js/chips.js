// Chips in the tournament colours (R-TOUR-1): white 5, red 10, green 25, blue 50, black 100.
// Cash tables count them in cents, so a white chip is 5c and a black one $1; tournament
// tables count chips, so a black chip is 100 chips.
import { amount as amountText } from "./money.js";

const DENOMINATIONS = [
  [100, "black"],
  [50, "blue"],
  [25, "green"],
  [10, "red"],
  [5, "white"],
  [1, "white"],
];
const MOST_SHOWN = 12;

export function chipColours(amount) {
  let left = Math.max(0, Number(amount) || 0);
  const chips = [];
  for (const [value, colour] of DENOMINATIONS) {
    while (left >= value && chips.length < 200) {
      chips.push(colour);
      left -= value;
    }
  }
  return chips;
}

// A stack of chips with its amount written beside it.
export function chipStack(amount, { label = true } = {}) {
  const wrap = document.createElement("span");
  wrap.className = "chips";
  const pile = document.createElement("span");
  pile.className = "pile";
  pile.setAttribute("aria-hidden", "true");
  const colours = chipColours(amount);
  // Big stacks: show the top of the pile (its colours in order), not hundreds of chips.
  for (const colour of colours.slice(-MOST_SHOWN)) {
    const chip = document.createElement("span");
    chip.className = `chip ${colour}`;
    pile.append(chip);
  }
  wrap.append(pile);
  if (label) {
    const text = document.createElement("span");
    text.className = "amount";
    text.textContent = amountText(amount);
    wrap.append(text);
  }
  return wrap;
}
