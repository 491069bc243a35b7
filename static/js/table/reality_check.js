// @ts-check
// Issue #26's reality check at the table: the player's session so far (time played, net
// result, rake paid), from a `reality_check` frame (docs/protocol.md). The server sends it
// only at a hand's end or between hands, never during a turn; the notice is a status (never
// a dialog) and takes no focus, so the action buttons keep it when the next hand starts.
// Dismiss hides it; the next check (N minutes later) shows it again.
import { dollars } from "../money.js";

/** @typedef {import("./frames.js").RealityCheckNoticeFrame} RealityCheckFrame */

// 125 -> "2 h 05 min", 45 -> "45 min".
export function playedText(minutes) {
  const whole = Math.max(0, Math.floor(Number(minutes) || 0));
  const hours = Math.floor(whole / 60);
  const rest = whole % 60;
  if (hours === 0) return `${rest} min`;
  return `${hours} h ${String(rest).padStart(2, "0")} min`;
}

// Cents won or lost: "+$3.40", "-$1.20", "$0.00" (a sign always, but for nothing).
export function netText(cents) {
  const value = Number(cents) || 0;
  return value > 0 ? `+${dollars(value)}` : dollars(value);
}

// The whole notice as one sentence, for the screen reader's narration.
/** @param {RealityCheckFrame} frame */
export function realityCheckLine(frame) {
  const net = Number(frame.net) || 0;
  const result = net > 0 ? `up ${dollars(net)}` : net < 0 ? `down ${dollars(-net)}` : "even";
  return `Reality check: you have played ${playedText(frame.minutes_played)} this session, ` +
    `you are ${result}, and you paid ${dollars(frame.rake_paid)} in rake.`;
}

export class RealityCheckView {
  /**
   * @param {HTMLElement} element the notice ([data-reality-check])
   * @param {{ say?: (text: string) => void }} [options]
   */
  constructor(element, { say } = {}) {
    this.element = element;
    this.say = say || null;
    this.shownId = null;
    const dismiss = element.querySelector("[data-rc-dismiss]");
    if (dismiss) dismiss.addEventListener("click", () => this.dismiss());
  }

  /** @param {RealityCheckFrame} frame */
  show(frame) {
    if (frame.check_id === this.shownId) return; // the same check twice (a resend)
    this.shownId = frame.check_id;
    const put = (selector, text) => {
      const target = this.element.querySelector(selector);
      if (target) target.textContent = text;
    };
    put("[data-rc-every]", `every ${frame.every_minutes} minutes`);
    put("[data-rc-time]", playedText(frame.minutes_played));
    put("[data-rc-net]", netText(frame.net));
    put("[data-rc-rake]", dollars(frame.rake_paid));
    const net = this.element.querySelector("[data-rc-net]");
    if (net instanceof HTMLElement) {
      net.dataset.sign = frame.net > 0 ? "up" : frame.net < 0 ? "down" : "even";
    }
    this.element.hidden = false; // shown, never focused: the action buttons keep the focus
    if (this.say) this.say(realityCheckLine(frame));
  }

  dismiss() {
    const inside = this.element.contains(document.activeElement);
    this.element.hidden = true;
    // The Dismiss button had the focus: give it back to the table, not to the page's top.
    if (inside) {
      const felt = document.querySelector("[data-felt]");
      if (felt instanceof HTMLElement) felt.focus();
    }
  }
}
