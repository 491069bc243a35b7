// The page's own store (static/js/table/store.js) under Node, for the proof of issue #23
// (tests/tables/frame_proof.py): reads cases from stdin as JSON, [{before, frames, after,
// playerId}], and writes for each what the store keeps after the snapshot `before` and the
// frames, and after the snapshot `after` alone. Everything a page draws from the store is
// compared: the hand, the seats, the table (its stakes, open or not), the viewer, the waiting
// list, the last hands, the next hand's schedule, and whether the store had to ask for a
// snapshot to know it.
/* global process, Buffer */
import { TableStore } from "../../static/js/table/store.js";

const HAND_KEYS = [
  "game", "small_bet", "big_bet", "ante", "bring_in", "button", "street", "to_act",
  "bring_in_seat", "current_bet", "pot", "community_card", "seats", "is_over",
  "legal_actions", "viewer",
];

function facts(store) {
  const hand = store.hand;
  const snap = store.snap;
  // A finished hand the page still draws is no hand in play (the snapshot's hand is null).
  const live = hand && !hand.is_over;
  return {
    handId: live ? store.handId : null,
    seq: live ? store.seq : 0,
    turnClock: store.deadline !== null,
    table: snap ? snap.table : null,
    seats: snap ? snap.seats : null,
    viewer: snap ? snap.viewer : null,
    // The time left on an offer differs by the moments the two were built: not compared.
    waitingList: snap ? (snap.waiting_list || []).map((entry) => {
      const kept = { ...entry };
      delete kept.offer_ms_left;
      return kept;
    }) : null,
    lastHands: snap ? snap.last_hands : null,
    // The next hand's schedule (the time itself differs by the moments the two were built
    // only through ms_left, not compared) and the seats whose "I'm in" it waits for.
    nextHandAt: snap ? snap.next_hand_at : null,
    awaitingAnte: snap ? snap.awaiting_ante : null,
    anteAsked: store.anteAsked,
    seatOffered: store.offer !== null, // a seat held for this viewer (waiting list)
    showOffer: store.showOffer ? store.showOffer.handId : null, // R-SHOW-3's offer to show
    hand: live ? Object.fromEntries(HAND_KEYS.map((key) => [key, hand[key] ?? null])) : null,
  };
}

function feed(frames, playerId) {
  const store = new TableStore({ playerId });
  const effects = frames.map((frame, i) => store.receive(frame, 1000 + i, null)).flat();
  // The checks the page runs a moment later (the turn's offers, the viewer's own frame), run
  // once every frame is in: a snapshot they ask for is a snapshot asked.
  for (const effect of [...effects]) {
    if (effect.type === "check_offers") effects.push(...store.offersOverdue(effect.seq));
    if (effect.type === "check_viewer") effects.push(...store.viewerOverdue());
  }
  const asked = effects.some((effect) => effect.type === "snapshot" || effect.type === "snapshot_later");
  return { facts: facts(store), asked };
}

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const cases = JSON.parse(Buffer.concat(chunks).toString("utf8"));
const answers = cases.map(({ before, frames, after, playerId }) => ({
  viaFrames: feed([before, ...frames], playerId),
  viaSnapshot: feed([after], playerId),
}));
process.stdout.write(JSON.stringify(answers));
