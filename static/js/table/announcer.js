// The screen reader's voice at the table (issue #27): two live regions, a polite one for the
// dealer's lines (narration.js writes them) and an assertive one for the player's own turn;
// the player's settings for them (kept in the browser, as the sounds switch is); the last line
// kept to say again.
import { CLOCK_WARNINGS, DETAILS } from "./narration.js";

const DETAIL_KEY = "stud-room-narration-detail";
const CLOCK_KEY = "stud-room-narration-clock";
// The lines a region keeps (a hand's worth; older ones go, unannounced).
const KEPT_LINES = 120;

function saved(key, choices) {
  try {
    const value = window.localStorage.getItem(key);
    return choices.includes(value) ? value : choices[0];
  } catch {
    return choices[0];
  }
}

function keep(key, value) {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Storage refused: the choice lasts as long as the page.
  }
}

export class Announcer {
  constructor({ polite, urgent, detail, clock }) {
    this.polite = polite;
    this.urgent = urgent;
    this.last = "";
    this.detail = saved(DETAIL_KEY, DETAILS);
    this.clock = saved(CLOCK_KEY, CLOCK_WARNINGS);
    if (detail) {
      detail.value = this.detail;
      detail.addEventListener("change", () => { this.detail = detail.value; keep(DETAIL_KEY, detail.value); });
    }
    if (clock) {
      clock.value = this.clock;
      clock.addEventListener("change", () => { this.clock = clock.value; keep(CLOCK_KEY, clock.value); });
    }
  }

  // A new hand: the regions start empty (removing lines is never announced).
  clear() {
    this.polite.replaceChildren();
    this.urgent.replaceChildren();
  }

  say({ text, urgent = false }) {
    const region = urgent ? this.urgent : this.polite;
    const item = document.createElement("p");
    item.textContent = text;
    region.append(item);
    while (region.childElementCount > KEPT_LINES) region.firstElementChild.remove();
    this.last = text;
  }

  // An answer to a key: said once, politely, and kept to repeat.
  answer(text) {
    this.say({ text });
  }

  repeat() {
    if (this.last) this.say({ text: this.last });
  }
}
