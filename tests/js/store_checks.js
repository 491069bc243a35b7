// What the Python tests (tests/js/test_store.py) call in Chromium: feed frames to a
// TableStore and read back what it keeps, as plain data.
import { TableStore } from "/static/js/table/store.js";

// The view()'s fields of a hand, which a snapshot and the events must agree on.
const HAND_KEYS = [
  "game", "small_bet", "big_bet", "ante", "bring_in", "button", "street", "to_act",
  "bring_in_seat", "current_bet", "pot", "community_card", "seats", "is_over",
  "legal_actions", "viewer",
];

// What the store keeps that a snapshot also says (deadlines as "running or not": the
// milliseconds differ by the time between two frames).
export function tableFacts(store) {
  const hand = store.hand;
  const snap = store.snap;
  return {
    handId: store.handId,
    handNumber: store.handNumber,
    seq: store.seq,
    button: store.button,
    turnClock: store.deadline !== null,
    table: snap ? snap.table : null,
    seats: snap ? snap.seats : null,
    viewer: snap ? snap.viewer : null,
    waitingList: snap ? (snap.waiting_list || []).map(({ offer_ms_left: _left, ...entry }) => entry) : null,
    hand: hand ? Object.fromEntries(HAND_KEYS.map((key) => [key, hand[key] ?? null])) : null,
  };
}

// Feeds `frames` in order, at local times `now`, `now + 1`, ...; the facts, the effects of
// each frame and the store's other fields. A pseudo-frame {type: "ask"} is the page asking
// for a snapshot (as it does when the turn's offers are late, or after hand_end). The
// effects leave out sounds and the chat history (what the page plays and lists, not the
// table's state); `sounds` lists the sounds of each frame.
const COSMETIC = ["sound", "chat_history"];

export function feed(frames, { playerId = null, now = 1000, wallNow = null } = {}) {
  const store = new TableStore({ playerId });
  const all = frames.map((frame, i) => (frame.type === "ask"
    ? store.needSnapshot()
    : store.receive(frame, now + i, wallNow)));
  return {
    facts: tableFacts(store),
    effects: all.map((list) => list.filter((e) => !COSMETIC.includes(e.type))),
    sounds: all.map((list) => list.filter((e) => e.type === "sound").map((e) => e.name)),
    awaiting: store.awaiting,
    queued: store.queue.map((frame) => frame.seq),
    deadline: store.deadline,
    timeBankMs: store.timeBankMs,
    anteAsked: store.anteAsked,
    anteDeadline: store.anteDeadline,
    offer: store.offer,
    showOffer: store.showOffer,
    notes: store.hand ? store.hand.notes : [],
    isOver: store.hand ? store.hand.is_over : null,
    winners: store.hand ? store.hand.winners : null,
  };
}

// lichess's and Zulip's check: a snapshot plus the frames sent after it, through the store,
// leaves what the next snapshot alone leaves.
export function snapshotThenFrames(before, frames, after, { playerId = null } = {}) {
  return {
    viaFrames: feed([before, ...frames], { playerId }).facts,
    viaSnapshot: feed([after], { playerId }).facts,
  };
}

// Acting: the command sent, and whether a second click sends another.
export function actTwice(frames, offer, { playerId = null } = {}) {
  const store = new TableStore({ playerId });
  frames.forEach((frame, i) => store.receive(frame, 1000 + i));
  const first = store.act(offer);
  const second = store.act(offer);
  return { first, second, offersLeft: store.hand.legal_actions };
}

// The header line the table page draws after `frames` (panels.js headerText).
// `chips`: a tournament table, amounts in chips (money.js useChipUnits, as the page sets).
export async function headerAfter(frames, options = {}) {
  const { headerText } = await import("/static/js/table/panels.js");
  const { useChipUnits } = await import("/static/js/money.js");
  useChipUnits(Boolean(options.chips));
  const store = new TableStore({ playerId: options.playerId ?? null });
  frames.forEach((frame, i) => store.receive(frame, 1000 + i, null));
  return headerText(store);
}

// The "This hand" log the table page draws after `frames` (a pseudo-frame {type: "ask"}: the
// page asks for a snapshot): its lines, and those drawn as markers (streets, showdown).
export async function logAfter(frames, options = {}) {
  const { renderLog } = await import("/static/js/table/panels.js");
  const store = new TableStore({ playerId: options.playerId ?? null });
  frames.forEach((frame, i) => (frame.type === "ask"
    ? store.needSnapshot()
    : store.receive(frame, 1000 + i, null)));
  const log = document.createElement("ol");
  renderLog(log, store.hand);
  const items = [...log.children];
  return {
    lines: items.map((li) => li.textContent),
    markers: items.filter((li) => li.classList.contains("marker")).map((li) => li.textContent),
  };
}

// The tags a seat's name box draws after each of `frames` (felt.js): [{text, kind}] per frame.
export async function seatTagsAfter(frames, seatNumber, options = {}) {
  const { FeltView } = await import("/static/js/table/felt.js");
  const store = new TableStore({ playerId: options.playerId ?? null });
  const view = new FeltView(document.createElement("div"), {
    page: { player_id: options.playerId ?? null }, onSit: () => {},
  });
  return frames.map((frame, i) => {
    store.receive(frame, 1000 + i, null);
    const seat = { connected: true, ...store.snap.seats.find((s) => s.number === seatNumber) };
    const played = store.hand ? store.hand.seats.find((s) => s.seat === seatNumber) : null;
    const facts = view.seatFacts(store, seatNumber, seat, played);
    const element = view.seatElement({ ...facts, bet: 0 }, { x: 50, y: 50 });
    return [...element.querySelectorAll(".tag")].map((tag) => ({
      text: tag.textContent, kind: tag.className,
    }));
  });
}

// Issue #22: an action sent as `ref` and answered by `reply` (an error or result frame, or
// null: no answer); what the store then sends again, and the ping's position.
export function actAnswered(frames, offer, reply, { playerId = null } = {}) {
  const store = new TableStore({ playerId });
  frames.forEach((frame, i) => store.receive(frame, 1000 + i));
  const message = store.act(offer);
  store.actSent(message, "r1");
  const effects = reply ? store.receive({ ...reply, ref: "r1" }, 2000) : [];
  return {
    message,
    effects: effects.filter((e) => !COSMETIC.includes(e.type)),
    resend: store.actResend("r1"),
    position: store.position(),
  };
}
