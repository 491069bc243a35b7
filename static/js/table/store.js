// @ts-check
// The live table's state, fed by the server's frames (docs/protocol.md). Pure: no DOM, no
// socket, no timers and no clock of its own. The time comes in as an argument (a monotonic
// `now` in milliseconds, performance.now() in the page), and each call returns the effects the
// page carries out: ask for a snapshot, check the turn's offers came, fly the chips, show a
// message. The browser tests (tests/js/) feed it recorded frames.
//
// The store keeps (hand_id, seq), applies events in order with handstate.applyEvent, queues
// frames and asks for a snapshot on any gap, and holds every deadline as a local monotonic
// time: `now + ms_left` at the frame's receipt, never the client's wall clock.
import { applyEvent, emptyHand, fromView } from "../handstate.js";
import { amount } from "../money.js";

/** @typedef {import("./frames.js").TableFrame} TableFrame */
/** @typedef {import("./commands.js").ActCommand} ActCommand */

// When the snapshot does not name the table's clock yet.
export const DEFAULT_ACTION_CLOCK_MS = 10_000;
// R-BET-7: a time bank is never more than this.
export const TIME_BANK_MAX_MS = 60_000;
// The player to act gets your_turn right after the batch's events; without it by then, ask.
export const TURN_OFFERS_WAIT_MS = 500;
// A seats frame seats the viewer: their own `viewer` frame comes with it; without it by
// then, ask for a snapshot.
export const VIEWER_WAIT_MS = 1_000;
// An action not answered in this long is sent again, with the same seq (actions are
// idempotent: one already applied is answered stale, never applied twice).
export const ACT_REPLY_WAIT_MS = 3_000;
// After `internal` (the room failed, nothing was applied), the action goes again this soon.
export const ACT_RESEND_MS = 500;

const MONEY = { money: amount };

// A deadline as a local monotonic time: from `ms_left`, or (an older server without it) from
// the ISO time against the wall clock `wallNow`; null when there is no deadline.
export function localDeadline(msLeft, iso, now, wallNow = null) {
  if (typeof msLeft === "number") return now + Math.max(0, msLeft);
  if (!iso || wallNow === null) return null;
  const at = Date.parse(iso);
  return Number.isNaN(at) ? null : now + Math.max(0, at - wallNow);
}

export class TableStore {
  // onApplied(before, frame, after): called for each event applied live, once (the page's
  // narration, narration.js); never for a snapshot itself. An event received live while a
  // snapshot was awaited is said when the snapshot comes, even when the snapshot holds it.
  constructor({ playerId = null, onApplied = null } = {}) {
    this.playerId = playerId;
    this.onApplied = onApplied;
    this.snap = null; // the last snapshot's table, seats, viewer, waiting list, last hands
    this.hand = null; // the hand drawn (handstate.js shape), the finished one until the next
    this.handId = null;
    this.handNumber = null;
    this.seq = 0;
    this.button = null;
    this.deadline = null; // the turn's deadline, local monotonic ms
    this.timeBankMs = null; // R-BET-7: on the time bank, the bank's length (ms); else null
    this.privateSeqs = new Set();
    this.awaiting = false; // a snapshot is asked for: events wait in the queue
    this.queue = [];
    this.acting = false;
    this.pendingAct = null; // {message, ref}: the action sent and not yet answered
    // R-ANTE-1: the table waits for this player's "I'm in" (anteAsked), until anteDeadline
    // (local monotonic ms; null: no deadline, too few others are in to deal without them).
    this.anteAsked = false;
    this.anteDeadline = null;
    this.offer = null; // a seat held for this player until (local monotonic ms)
    this.showOffer = null; // R-SHOW-3: {handId, until} while the uncalled winner may show
    this.finished = new Set(); // hands the last snapshot named finished (its last_hands)
    // A pre-action for the coming turn: {kind: "check_fold" | "check" | "call_any", handId,
    // street}. Played when the turn's offers come; dropped when the street or hand changes,
    // and "check" when a bet comes in before the turn (the action changed).
    this.preAction = null;
    this.strengthFrame = null; // a hand_strength frame waiting for its hand's events
    this.closedWithHand = false; // the table closed while a hand was in play
  }

  // What each ping tells the server: the last (hand_id, seq) held.
  position() {
    return this.handId === null ? { seq: this.seq } : { hand_id: this.handId, seq: this.seq };
  }

  // Staff closed the table (a table_closed frame, or the snapshot says so).
  isClosed() {
    return Boolean(this.snap && this.snap.table.is_open === false);
  }

  mySeat() {
    return this.snap && this.snap.viewer ? this.snap.viewer.seat : null;
  }

  actionClockMs() {
    return this.snap ? this.snap.table.action_clock * 1000 : DEFAULT_ACTION_CLOCK_MS;
  }

  // The socket (re)opens: the server sends a snapshot on connect; nothing before it counts.
  connecting() {
    this.awaiting = true;
    this.queue = [];
    this.pendingAct = null; // an action on the lost socket: the snapshot tells if it counted
  }

  // Ask for a snapshot unless one is on its way.
  needSnapshot() {
    if (this.awaiting) return [];
    this.awaiting = true;
    return [{ type: "snapshot" }];
  }

  // The snapshot asked for did not come: ask again.
  snapshotOverdue() {
    if (!this.awaiting) return [];
    this.awaiting = false;
    return this.needSnapshot();
  }

  // One frame from the server; `now` is the local monotonic time of its receipt.
  /**
   * @param {TableFrame} frame
   * @param {number} now
   * @param {number | null} [wallNow]
   */
  receive(frame, now, wallNow = null) {
    switch (frame.type) {
      case "snapshot":
        return this.applySnapshot(frame, now, wallNow);
      case "event":
        return this.onEvent(frame, now, wallNow);
      case "seats":
        return this.onSeats(frame);
      case "next_hand":
        if (this.snap) {
          this.snap.next_hand_at = frame.at;
          if (Array.isArray(frame.awaiting_ante)) {
            this.snap.awaiting_ante = frame.awaiting_ante;
            this.askAnte(frame.awaiting_ante, frame.ms_left, frame.at, now, wallNow);
          }
        }
        return [];
      case "your_turn":
        // The offers come to the player to act right after the batch's events.
        if (!this.awaiting && this.hand && frame.hand_id === this.handId &&
            frame.seq === this.seq && frame.seat === this.mySeat()) {
          this.hand.to_act = frame.seat;
          this.hand.legal_actions = frame.legal_actions;
          this.deadline = this.turnDeadline(frame, now, wallNow);
          this.acting = false;
          const pre = this.playPreAction();
          return pre.length ? pre : [{ type: "sound", name: "turn" }];
        }
        return [];
      case "turn_clock":
        // R-TIME-3: the room could not reach the player to act; the turn's clock starts again.
        if (!this.awaiting && this.hand && frame.hand_id === this.handId &&
            frame.seq === this.seq) {
          this.deadline = this.turnDeadline(frame, now, wallNow);
        }
        return [];
      case "time_bank":
        // R-BET-7: the clock ran out; the player to act is on their time bank, same turn.
        if (!this.awaiting && this.hand && frame.hand_id === this.handId &&
            frame.seq === this.seq) {
          this.deadline = this.turnDeadline(frame, now, wallNow, true);
        }
        return [];
      case "ante_confirm":
        this.anteAsked = true;
        this.anteDeadline = localDeadline(frame.ms_left, frame.deadline, now, wallNow);
        if (this.snap && this.snap.viewer) this.snap.viewer.ante_confirmed = false;
        return [];
      case "stakes":
        // R-TOUR-5: a tournament table's next hand is dealt at a new level; the hand in play
        // keeps its own stakes (its state holds them), the header shows the table's.
        if (this.snap) {
          for (const key of ["ante", "bring_in", "small_bet", "big_bet", "dealer_only_ante"]) {
            if (key in frame) this.snap.table[key] = frame[key];
          }
        }
        return [];
      case "table_game":
        // R-MIX-1: a Triple Stud table's hand was dealt or ended: the server's words for the
        // game now and next (the header draws `game_label`; nothing is worked out here).
        if (this.snap) {
          this.snap.table.game = frame.game;
          this.snap.table.game_label = frame.game_label;
          this.snap.table.rotation = frame.rotation;
        }
        return [];
      case "viewer":
        // The viewer's own part of the table (they sat down, said "I'm in", a setting).
        if (this.snap) this.snap.viewer = frame.viewer;
        return [];
      case "waiting_list":
        if (this.snap) this.snap.waiting_list = frame.entries;
        // Off the list (the offer lapsed, or they left it): no seat is held for them.
        if (!frame.entries.some((entry) => entry.player_id === this.playerId)) this.offer = null;
        return [];
      case "last_hands":
        // A hand ended: its summary comes with the hand's frames (no snapshot asked for).
        if (this.snap) this.snap.last_hands = frame.last_hands;
        return [];
      case "seat_offer":
        this.offer = localDeadline(frame.ms_left, frame.until, now, wallNow);
        return [];
      case "show_offer":
        this.showOffer = {
          handId: frame.hand_id,
          until: localDeadline(frame.ms_left, frame.until, now, wallNow),
        };
        return [];
      case "table_closed":
        // Staff closed the table: seats are cashed out (now, or when the hand in play ends).
        if (this.snap) this.snap.table.is_open = false;
        this.closedWithHand = Boolean(frame.hand_running);
        return [{ type: "refresh_balance" }];
      case "table_opened":
        // Staff opened the table again: the closed banner goes, the seats are offered again.
        if (this.snap) this.snap.table.is_open = true;
        this.closedWithHand = false;
        return [];
      case "hand_strength":
        // What the viewer's own cards make so far (the server's words, stud/strength.py).
        // It may come before the events of its hand (another group): kept until that hand.
        this.strengthFrame = frame;
        this.applyStrength();
        return [];
      case "chat":
        return [{ type: "chat", frame }];
      case "reality_check":
        // Issue #26: the player's session so far; the page shows it, the table is unchanged.
        return [{ type: "reality_check", frame }];
      case "result":
        return this.onResult(frame);
      case "error":
        if (frame.code === "internal" && this.pendingAct && frame.ref === this.pendingAct.ref) {
          // Nothing was applied: the same action goes again (same seq) until answered.
          return [{ type: "resend_act", delay: ACT_RESEND_MS, ref: frame.ref }];
        }
        return frame.code === "rate_limited" ? [] : [{ type: "toast", text: frame.message || frame.code }];
      default:
        return [];
    }
  }

  onSeats(frame) {
    if (!this.snap) return [];
    this.snap.seats = frame.seats;
    if (this.playerId && frame.seats.some((s) => s.player_id === this.playerId)) {
      // Seated: their own `viewer` frame says the rest (it may come before or after this
      // one, on their own group); a snapshot only when it does not come.
      if (!this.snap.viewer) return [{ type: "check_viewer", delay: VIEWER_WAIT_MS }];
    } else if (this.snap.viewer) {
      // The seat is gone (left, or cashed out when the table closed): the wallet changed,
      // and the hand in play is drawn as a watcher sees it (R-BUY-1: a player who left
      // mid-hand is folded out of it; their down cards are no longer theirs to see).
      this.snap.viewer = null;
      this.watchHand();
      return [{ type: "refresh_balance" }];
    }
    return [];
  }

  // The viewer has no seat any more: the hand drawn becomes the public one (a watcher's
  // view: no down card of theirs, no offers, no strength, no pre-action).
  watchHand() {
    const hand = this.hand;
    this.preAction = null;
    this.strengthFrame = null;
    if (!hand || hand.viewer === null) return;
    const seat = hand.seats.find((s) => s.seat === hand.viewer);
    if (seat) delete seat.down;
    hand.viewer = null;
    hand.legal_actions = [];
    hand.strength = null;
  }

  applySnapshot(snapshot, now, wallNow) {
    this.snap = snapshot;
    this.awaiting = false;
    this.finished = new Set((snapshot.last_hands || []).map((h) => h.id));
    // A seat held for this player (reconnecting during an offer keeps it).
    const mine = (snapshot.waiting_list || []).find((e) => e.player_id === this.playerId);
    this.offer = mine ? localDeadline(mine.offer_ms_left, mine.offered_until, now, wallNow) : null;
    // R-SHOW-3: the uncalled winner's offer to show, kept across a reload.
    const show = snapshot.show_offer;
    this.showOffer = show
      ? { handId: show.hand_id, until: localDeadline(show.ms_left, show.until, now, wallNow) }
      : null;
    if (snapshot.hand) {
      const sameHand = snapshot.hand.id === this.handId && this.hand;
      const hand = fromView(snapshot.hand.state);
      if (sameHand) {
        // Keep what the events taught us that a view does not carry, the events this
        // snapshot already holds (queued while it was awaited) included: their log lines.
        const known = this.caughtUp(snapshot.hand.seq);
        hand.notes = known.notes;
        hand.note_count = known.note_count;
        hand.log_street = known.log_street;
        if (!hand.strength) hand.strength = known.strength ?? null;
        hand.last_action = known.last_action;
        hand.words = { ...known.words, ...hand.words };
      }
      this.hand = hand;
      this.handId = snapshot.hand.id;
      this.handNumber = snapshot.hand.number;
      this.seq = snapshot.hand.seq;
      this.button = snapshot.hand.button;
      this.deadline = this.turnDeadline(
        snapshot.hand, now, wallNow, (snapshot.hand.time_bank_seat ?? null) !== null,
      );
      this.privateSeqs = new Set();
    } else if (!(this.hand && (this.hand.is_over || this.finished.has(this.handId)))) {
      // No hand in play. A hand drawn that the snapshot names finished is kept for now: the
      // queued frames may finish drawing it (a snapshot asked for near its end comes after).
      this.dropHand();
    }
    const viewer = snapshot.viewer;
    if (Array.isArray(snapshot.awaiting_ante)) {
      // R-ANTE-1: the snapshot names the seats the next hand waits for (a reload keeps the
      // prompt, with its countdown, or without one when the table waits for this player).
      this.askAnte(snapshot.awaiting_ante, snapshot.next_hand_ms_left, snapshot.next_hand_at, now, wallNow);
    } else if (viewer && !viewer.auto_ante && !viewer.ante_confirmed && snapshot.next_hand_at) {
      this.anteAsked = true;
      this.anteDeadline = localDeadline(
        snapshot.next_hand_ms_left, snapshot.next_hand_at, now, wallNow,
      );
    }
    this.acting = false;
    const queued = this.queue;
    const effects = [];
    // The table's last chat messages (kept by the room): a reload shows them again.
    // With them, whose chat the viewer muted (kept on their account).
    if (Array.isArray(snapshot.chat)) {
      effects.push({ type: "chat_history", messages: snapshot.chat, muted: snapshot.chat_muted || [] });
    }
    this.queue = [];
    for (const frame of queued) effects.push(...this.onEvent(frame, now, wallNow));
    if (!snapshot.hand && this.hand && !this.hand.is_over) this.dropHand(); // frames were lost
    this.keepPreAction();
    return effects;
  }

  // The hand drawn with the queued frames of its hand up to `seq` applied (those a snapshot
  // at `seq` holds, and drops): what they add that a view does not carry, the log's lines.
  caughtUp(seq) {
    let hand = this.hand;
    let at = this.seq;
    const context = { viewerSeat: this.mySeat(), ...MONEY };
    // In the order they came, as the live path takes them: a private copy (the viewer's own
    // down card) after the public frames of its batch, so the log and the narration say the
    // same lines in the same order whichever path a frame took.
    const frames = this.queue.filter((f) => f.hand_id === this.handId && f.seq <= seq);
    for (const frame of frames) {
      const before = hand;
      if (frame.seq === at + 1) {
        at = frame.seq;
        if (frame.kind === "private") continue;
        hand = applyEvent(hand, frame, context);
      } else if (frame.private && frame.seq <= at) {
        hand = applyEvent(hand, frame, context); // a down card is never added twice
      } else {
        continue;
      }
      // Received live and held while the snapshot was awaited: said now, once (issue #27),
      // since nothing said it yet; the snapshot itself says nothing.
      if (this.onApplied) this.onApplied(before, frame, hand);
    }
    return hand;
  }

  // R-ANTE-1: is this player among the seats awaited? Then the prompt, counting down to the
  // next hand's time when there is one.
  askAnte(awaited, msLeft, at, now, wallNow) {
    const me = this.mySeat();
    this.anteAsked = me !== null && awaited.includes(me);
    this.anteDeadline = this.anteAsked && at ? localDeadline(msLeft, at, now, wallNow) : null;
  }

  dropHand() {
    this.preAction = null;
    this.hand = null;
    this.handId = null;
    this.seq = 0;
    this.deadline = null;
    this.timeBankMs = null;
  }

  // A gap no snapshot can fill: the frame's hand is finished (a snapshot said so), so asking
  // again would bring the same snapshot, forever. The frame is dropped, and the hand drawn
  // with it when it cannot be finished.
  staleGap(frame) {
    if (!this.finished.has(frame.hand_id)) return false;
    if (frame.hand_id === this.handId && this.hand && !this.hand.is_over) this.dropHand();
    return true;
  }

  // The turn's deadline: never more than the table's clock (on the time bank, R-BET-7: the
  // largest bank), whatever the server sent.
  turnDeadline(carrier, now, wallNow, onTimeBank = false) {
    const at = localDeadline(carrier.ms_left, carrier.action_deadline, now, wallNow);
    const cap = onTimeBank ? TIME_BANK_MAX_MS : this.actionClockMs();
    this.timeBankMs = onTimeBank
      ? Math.min(cap, Math.max(1, carrier.time_bank_ms ?? carrier.ms_left ?? cap))
      : null;
    return at === null ? null : Math.min(at, now + cap);
  }

  onEvent(frame, now, wallNow) {
    // R-SHOW-3: shown (from this tab or another): the offer is used. A finished hand's
    // events go no further than this when the page no longer draws it.
    if (frame.kind === "show" && this.showOffer && frame.hand_id === this.showOffer.handId &&
        frame.payload.seat === this.mySeat()) {
      this.showOffer = null;
    }
    if (this.awaiting) {
      this.queue.push(frame);
      return [];
    }
    if (frame.hand_id !== this.handId) {
      if (frame.seq !== 1) {
        if (this.staleGap(frame)) return [];
        if (this.handId === null || frame.hand_id > this.handId) {
          this.queue.push(frame);
          return this.needSnapshot();
        }
        return [];
      }
      this.handId = frame.hand_id;
      this.handNumber = frame.hand_number;
      this.seq = 0;
      this.hand = emptyHand();
      this.deadline = null;
      this.privateSeqs = new Set();
      this.anteAsked = false; // dealt (or dealt out of this hand): asked again after it
      this.anteDeadline = null;
      // The hand the table waited for is dealt: nothing is scheduled, nobody awaited.
      if (this.snap) {
        this.snap.awaiting_ante = [];
        this.snap.next_hand_at = null;
      }
      this.showOffer = null;
      this.preAction = null;
    }
    const context = { viewerSeat: this.mySeat(), ...MONEY };
    if (frame.seq <= this.seq) {
      // A duplicate, or the private copy of a placeholder already counted: keep the private one.
      if (frame.private && !this.privateSeqs.has(frame.seq)) {
        this.privateSeqs.add(frame.seq);
        const before = this.hand;
        this.hand = applyEvent(this.hand, frame, context);
        this.applied(before, frame);
      }
      return this.takeTurn(frame, now, wallNow);
    }
    if (frame.seq > this.seq + 1) {
      if (this.staleGap(frame)) return [];
      this.queue.push(frame);
      return this.needSnapshot();
    }
    this.seq = frame.seq;
    const effects = [];
    if (frame.kind !== "private") {
      if (frame.private) this.privateSeqs.add(frame.seq);
      if (frame.kind === "hand_start") this.button = frame.payload.button;
      const before = this.hand;
      this.hand = applyEvent(this.hand, frame, context);
      this.applied(before, frame);
      this.liveStacks();
      if (frame.kind === "pot_awarded") effects.push({ type: "fly_chips", award: frame.payload, before });
      if (frame.kind === "pot_awarded" || (frame.kind === "action" && frame.payload.amount > 0) ||
          frame.kind === "antes") {
        effects.push({ type: "sound", name: "chips" });
      }
      if (["cards_dealt", "down_cards", "community_card"].includes(frame.kind)) {
        effects.push({ type: "sound", name: "card" });
      }
      if (frame.kind === "hand_end") this.deadline = null;
    }
    this.keepPreAction();
    this.applyStrength();
    effects.push(...this.takeTurn(frame, now, wallNow));
    return effects;
  }

  applied(before, frame) {
    if (this.onApplied) this.onApplied(before, frame, this.hand);
  }

  // The last hand_strength frame, on the hand drawn when it is that frame's hand.
  applyStrength() {
    const frame = this.strengthFrame;
    if (!frame || !this.hand || frame.hand_id !== this.handId) return;
    if (frame.seat === this.mySeat()) this.hand.strength = { high: frame.high, low: frame.low ?? null };
    this.strengthFrame = null;
  }

  // The viewer's own seat in the hand drawn, or null.
  mySeatInHand() {
    const me = this.mySeat();
    return this.hand && me !== null ? this.hand.seats.find((s) => s.seat === me) || null : null;
  }

  // What the viewer would have to put in to call now (0: nothing to call).
  toCall() {
    const seat = this.mySeatInHand();
    return seat ? Math.max(0, this.hand.current_bet - seat.bet) : 0;
  }

  // Nothing can be checked now: a bet to call, or 3rd street (the bring-in opens it).
  checkClosed() {
    return Boolean(this.hand && (this.hand.street === 3 || this.toCall() > 0));
  }

  // Pre-actions may be chosen: the viewer is in the hand, may still act, and it is not their turn.
  preActionsOpen() {
    const seat = this.mySeatInHand();
    return Boolean(seat && seat.status === "active" && !this.hand.is_over &&
      this.hand.to_act !== seat.seat && !this.awaiting);
  }

  // The player clicks a pre-action: chosen, or cleared when it was the one chosen.
  setPreAction(kind) {
    if (!this.preActionsOpen() || (this.preAction && this.preAction.kind === kind)) {
      this.preAction = null;
      return;
    }
    if (kind === "check" && this.checkClosed()) return;
    this.preAction = { kind, handId: this.handId, street: this.hand.street };
  }

  // After each event: a pre-action lives only for its street of its hand, while the viewer may
  // act; "check" goes when there is something to call (a bet came in: the action changed).
  keepPreAction() {
    const pre = this.preAction;
    if (!pre) return;
    const seat = this.mySeatInHand();
    if (!seat || seat.status !== "active" || this.hand.is_over || pre.handId !== this.handId ||
        pre.street !== this.hand.street || (pre.kind === "check" && this.checkClosed())) {
      this.preAction = null;
    }
  }

  // The turn's offers came: the pre-action chosen, if one of the offers fits it, is played.
  playPreAction() {
    this.keepPreAction();
    const pre = this.preAction;
    this.preAction = null;
    if (!pre) return [];
    const offers = this.hand.legal_actions;
    const offer = (kind) => offers.find((o) => o.kind === kind) || null;
    const chosen = {
      check_fold: offer("check") || offer("fold"),
      check: offer("check"),
      call_any: offer("check") || offer("call"),
    }[pre.kind] || null;
    return chosen ? [{ type: "pre_act", offer: chosen }] : [];
  }

  takeTurn(frame, now, wallNow) {
    if (frame.to_act !== null && frame.to_act !== undefined) {
      this.hand.to_act = frame.to_act;
      this.deadline = this.turnDeadline(frame, now, wallNow);
    }
    if (this.waitsForOffers() && frame.to_act === this.mySeat()) {
      // The your_turn frame should bring the offers; ask for a snapshot if it does not come.
      return [{ type: "check_offers", seq: this.seq, delay: TURN_OFFERS_WAIT_MS }];
    }
    return [];
  }

  // The table's seats show live stacks during a hand, as a snapshot's do.
  liveStacks() {
    if (!this.snap || !this.hand) return;
    for (const seat of this.snap.seats) {
      const played = seat.in_hand ? this.hand.seats.find((s) => s.seat === seat.number) : null;
      if (played) seat.stack = played.stack;
    }
  }

  // This player is to act and has no offers to click.
  waitsForOffers() {
    const hand = this.hand;
    return Boolean(hand && !hand.is_over && hand.to_act !== null && hand.to_act === this.mySeat() &&
      hand.legal_actions.length === 0);
  }

  // VIEWER_WAIT_MS after a seats frame that seats the viewer: still no `viewer`, ask.
  viewerOverdue() {
    const snap = this.snap;
    const seated = snap && this.playerId && snap.seats.some((s) => s.player_id === this.playerId);
    return seated && !snap.viewer ? this.needSnapshot() : [];
  }

  // TURN_OFFERS_WAIT_MS after a turn: still no offers at the same seq, ask for a snapshot.
  offersOverdue(seq) {
    return this.seq === seq && this.waitsForOffers() ? this.needSnapshot() : [];
  }

  onResult(frame) {
    if (frame.command === "act") {
      this.acting = false;
      this.pendingAct = null;
    }
    const viewer = this.snap ? this.snap.viewer : null;
    if (frame.ok) {
      const effects = [];
      // The seats and viewer frames of the change say what it did (issue #23 part 4: no
      // snapshot for it); the wallet is another page's, read again.
      if (["sit", "add_chips", "leave"].includes(frame.command)) {
        effects.push({ type: "refresh_balance" });
      }
      if (frame.command === "im_in") {
        this.anteAsked = false;
        this.anteDeadline = null;
        if (viewer) viewer.ante_confirmed = true;
      }
      if (frame.command === "sit") this.offer = null;
      if (frame.command === "show") this.showOffer = null;
      if (frame.command === "auto_muck") effects.push({ type: "auto_muck_saved" });
      return effects;
    }
    const effects = [];
    if (frame.command === "auto_muck" && viewer) effects.push({ type: "auto_muck_refused", on: viewer.auto_muck });
    if (frame.command === "show") this.showOffer = null;
    effects.push({ type: "toast", text: frame.message || frame.error || "Refused" });
    if (frame.status === "stale" || frame.command === "act") effects.push(...this.needSnapshot());
    return effects;
  }

  // The player clicks an offer: the act command to send, or null while one is on its way.
  /**
   * @param {{kind: ActCommand["kind"], amount?: number}} offer
   * @returns {ActCommand | null}
   */
  act(offer) {
    if (this.acting) return null;
    this.acting = true;
    if (this.hand) this.hand.legal_actions = [];
    return { type: "act", seq: this.seq, hand_id: this.handId, kind: offer.kind, amount: offer.amount };
  }

  // The act command did not leave (offline).
  actNotSent() {
    this.acting = false;
    this.pendingAct = null;
  }

  // The act command left with `ref`: it is sent again until answered (actResend).
  /**
   * @param {ActCommand} message
   * @param {string} ref
   */
  actSent(message, ref) {
    this.pendingAct = { message, ref };
  }

  // The action sent as `ref` was answered `internal`, or not answered in ACT_REPLY_WAIT_MS:
  // the same message to send again while the turn is still the one it was for, else null.
  /**
   * @param {string} ref
   * @returns {ActCommand | null}
   */
  actResend(ref) {
    const pending = this.pendingAct;
    if (!pending || pending.ref !== ref) return null;
    if (pending.message.hand_id !== this.handId || pending.message.seq !== this.seq) {
      this.pendingAct = null; // the hand moved on meanwhile
      this.acting = false;
      return null;
    }
    return pending.message;
  }

  setAutoMuck(on) {
    if (this.snap && this.snap.viewer) this.snap.viewer.auto_muck = on;
  }

  // Deadlines past by more than `graceMs` are dropped; true when something changed. The ante
  // prompt stays without its countdown: the deal takes it away, or the table waits for it.
  expire(now, graceMs) {
    if (this.anteDeadline !== null && this.anteDeadline < now - graceMs) {
      this.anteDeadline = null;
      return true;
    }
    return false;
  }
}
