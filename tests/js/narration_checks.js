// Runs a list of events through handstate.applyEvent and narration.narrateEvent, as the
// store and the page do, and returns the lines said (for tests/js/test_narration.py).
import { applyEvent, emptyHand } from "/static/js/handstate.js";
import { narrateEvent } from "/static/js/table/narration.js";

export function narrate(events, options) {
  let hand = emptyHand();
  const lines = [];
  for (const event of events) {
    const after = applyEvent(hand, event, { viewerSeat: options.viewerSeat ?? null, money: options.money ?? String });
    lines.push(...narrateEvent(hand, event, after, options).map((l) => (l.urgent ? `! ${l.text}` : l.text)));
    hand = after;
  }
  return lines;
}
