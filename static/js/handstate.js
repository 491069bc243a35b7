// A hand as one viewer sees it, rebuilt from its events. The same shape as the engine's
// view() (the snapshot's hand.state), so the live table can start from a snapshot and go on
// with events, and the replayer can start from nothing and step through a history.
// No rule of poker is decided here: the events say what happened, this only records it.
//
// `notes` is the hand's log: the dealer's lines of an online room ("*** 4th STREET ***", who
// posts, who is dealt what face up, who brings in and completes, the showdown, who wins what),
// for the whole hand, written only from what this viewer was sent (R-HIST-2: their own down
// cards, everyone's up cards, shown hands; never anyone else's down card).
import { cardLabel } from "./cards.js";

export function emptyHand() {
  return {
    game: "stud", small_bet: 0, big_bet: 0, ante: 0, bring_in: 0, button: null, street: 3,
    to_act: null, bring_in_seat: null, current_bet: 0, pot: 0, community_card: null,
    seats: [], is_over: false, legal_actions: [], viewer: null,
    // What the room adds for display: shown hands' words, winners, awards, the last action.
    words: {}, winners: [], awards: [], mucked: [], last_action: {}, notes: [],
    note_count: 0, // lines written in all (the whole hand: `notes.length`)
    log_street: null, // the street whose "*** Nth STREET ***" line the log has written
    strength: null, // the viewer's own cards in words ({high, low}), from the server
  };
}

// Fills the display fields a snapshot's view() does not carry, from its result.
export function fromView(view) {
  const hand = { ...emptyHand(), ...structuredClone(view) };
  hand.words = hand.words || {};
  hand.winners = [];
  hand.awards = [];
  hand.last_action = {};
  hand.notes = [];
  hand.note_count = 0;
  hand.log_street = null;
  if (!view.is_over && (view.seats || []).length) joinedLog(hand);
  // The viewer's own strength is the hand's line, not a seat's (events never put it there).
  const own = (hand.seats || []).find((s) => s.seat === view.viewer && s.strength);
  hand.strength = own ? own.strength : null;
  for (const seat of hand.seats || []) {
    delete seat.strength;
    seat.down_dealt = seat.down_count;
  }
  const result = view.result;
  if (result) {
    for (const pot of result.pots || []) {
      for (const award of pot.awards || []) {
        hand.awards.push(award);
        if (!hand.winners.includes(award.seat)) hand.winners.push(award.seat);
        if (award.hand) {
          const key = award.half === "low" ? "low" : "high";
          hand.words[award.seat] = { ...(hand.words[award.seat] || {}), [key]: award.hand };
        }
      }
    }
    hand.mucked = result.mucked_seats || [];
  }
  return hand;
}

// How many down cards the table saw dealt to a seat (the sum of cards_dealt's counts; from a
// snapshot, its view's down_count).
function downDealt(seat) {
  return seat.down_dealt ?? seat.down_count;
}

function seatOf(hand, number) {
  return hand.seats.find((s) => s.seat === number);
}

function note(hand, text) {
  hand.notes = [...hand.notes, text];
  hand.note_count = hand.notes.length;
}

// The viewer's own down cards, where the dealer says them: first on their street, right
// after its marker (their private copy may come after the street's public frames).
function noteDown(hand, street, text) {
  const marker = hand.notes.lastIndexOf(STREET_LINES[street]);
  if (marker < 0) {
    note(hand, text);
    return;
  }
  let at = marker + 1;
  while (at < hand.notes.length && hand.notes[at].includes(" (down) ")) at += 1;
  hand.notes = [...hand.notes.slice(0, at), text, ...hand.notes.slice(at)];
  hand.note_count = hand.notes.length;
}

const STREET_LINES = {
  3: "*** 3rd STREET ***", 4: "*** 4th STREET ***", 5: "*** 5th STREET ***",
  6: "*** 6th STREET ***", 7: "*** 7th STREET (RIVER) ***",
};
export const SHOWDOWN_LINE = "*** SHOWDOWN ***";

// A line of the log that opens a part of the hand (drawn as a marker, not an action).
export function isMarkerLine(text) {
  return text.startsWith("*** ");
}

// The street's opening line, once.
function streetLine(hand, street) {
  if (!STREET_LINES[street] || hand.log_street === street) return;
  hand.log_street = street;
  note(hand, STREET_LINES[street]);
}

const cardsText = (cards) => cards.map(cardLabel).join(" ");

// A log begun from a snapshot mid-hand (a reload, a watcher arriving): the street, and what
// each seat still in shows, the viewer's own down cards with theirs.
function joinedLog(hand) {
  streetLine(hand, hand.street);
  for (const seat of hand.seats) {
    if (seat.status === "folded") continue;
    if (seat.down && seat.down.length) note(hand, `Dealt to ${seat.name} (down) ${cardsText(seat.down)}`);
    if (seat.up.length) note(hand, `${seat.name} shows ${cardsText(seat.up)}`);
  }
}

function who(hand, number) {
  const seat = seatOf(hand, number);
  return seat ? seat.name : `Seat ${number}`;
}

const ACTION_WORDS = {
  fold: "folds", check: "checks", call: "calls", bring_in: "brings in for",
  complete: "completes to", bet: "bets", raise: "raises to",
};

// Applies one event ({kind, payload}) and returns the new hand (the old one is untouched).
/**
 * @param {any} previous
 * @param {any} event
 * @param {{viewerSeat?: number | null, money?: (cents: number) => string}} [options]
 */
export function applyEvent(previous, event, { viewerSeat = null, money = String } = {}) {
  const hand = structuredClone(previous);
  const p = event.payload || {};
  switch (event.kind) {
    case "hand_start":
      Object.assign(hand, emptyHand(), {
        game: p.game, button: p.button, small_bet: p.small_bet, big_bet: p.big_bet,
        ante: p.ante, bring_in: p.bring_in, viewer: viewerSeat,
        seats: p.seats.map((s) => ({
          seat: s.seat, name: s.name, stack: s.stack, status: "active", bet: 0, in_pot: 0,
          up: [], down_count: 0, down_dealt: 0, ...(s.seat === viewerSeat ? { down: [] } : {}),
        })),
      });
      break;
    case "antes":
      for (const post of p.posts || []) {
        const seat = seatOf(hand, post.seat);
        if (!seat) continue;
        seat.stack -= post.amount;
        seat.in_pot += post.amount;
        hand.pot += post.amount;
        if (post.all_in) seat.status = "all_in";
        note(hand, `${seat.name} posts the ante ${money(post.amount)}${post.all_in ? " and is all-in" : ""}`);
      }
      break;
    case "street":
      hand.street = p.street;
      hand.current_bet = 0;
      hand.last_action = {};
      for (const seat of hand.seats) seat.bet = 0;
      streetLine(hand, p.street);
      break;
    case "down_cards": {
      const seat = seatOf(hand, p.seat);
      if (seat) {
        const down = seat.down || [];
        const fresh = p.cards.filter((card) => !down.includes(card));
        if (fresh.length) {
          const street = p.street ?? hand.street;
          streetLine(hand, street);
          noteDown(hand, street, `Dealt to ${seat.name} (down) ${cardsText(fresh)}`);
        }
        // A private copy may arrive after a snapshot that already held it: never twice.
        seat.down = [...down, ...p.cards.filter((card) => !down.includes(card))];
        seat.down_count = Math.max(downDealt(seat), seat.down.length);
      }
      break;
    }
    case "cards_dealt":
      streetLine(hand, p.street ?? hand.street);
      for (const dealt of p.seats || []) {
        const seat = seatOf(hand, dealt.seat);
        if (!seat) continue;
        seat.up = [...seat.up, ...dealt.up];
        if (dealt.up.length) {
          const showing = seat.up.length > dealt.up.length ? `, showing ${cardsText(seat.up)}` : "";
          note(hand, `Dealt to ${seat.name} ${cardsText(dealt.up)}${showing}`);
        }
        // The public count of down cards dealt; the viewer's own down cards (their private
        // event comes before or after this one) are among them, never counted on top.
        seat.down_dealt = downDealt(seat) + dealt.down_count;
        seat.down_count = Math.max(seat.down_dealt, (seat.down || []).length);
      }
      break;
    case "bring_in_due":
      hand.bring_in_seat = p.seat;
      hand.to_act = p.seat;
      break;
    case "action": {
      const seat = seatOf(hand, p.seat);
      if (!seat) break;
      seat.bet = p.to;
      seat.stack = p.stack;
      seat.in_pot += p.amount;
      hand.pot += p.amount;
      hand.current_bet = Math.max(hand.current_bet, p.to);
      if (p.action === "fold") seat.status = "folded";
      else if (p.all_in) seat.status = "all_in";
      hand.to_act = null;
      hand.legal_actions = []; // the offers were for the turn this action ends
      const amount = ["fold", "check"].includes(p.action)
        ? ""
        : ` ${money(p.action === "call" ? p.amount : p.to)}`;
      // The seat's tag: the same word as the "bring-in" tag of the seat it is due from.
      hand.last_action[p.seat] = `${p.action === "bring_in" ? "bring-in" : p.action}${amount}`;
      note(hand, `${seat.name} ${ACTION_WORDS[p.action] || p.action}${amount}${p.all_in ? " and is all-in" : ""}`);
      break;
    }
    case "timeout": {
      const seat = seatOf(hand, p.seat);
      const name = seat ? seat.name : `Seat ${p.seat}`;
      const what = {
        check: "checks", fold: "folds", bring_in: "posts the bring-in",
        all_in_protection: "is all-in (all-in protection)",
      }[p.result] || p.result;
      if (p.result === "all_in_protection" && seat) seat.status = "all_in";
      // The turn is over (all-in protection plays no action after it: nothing else ends it).
      hand.to_act = null;
      hand.legal_actions = [];
      note(hand, `${name} ran out of time and ${what}`);
      break;
    }
    case "abandon": {
      // The player left mid-hand: the action that follows folds their hand.
      const seat = seatOf(hand, p.seat);
      note(hand, `${seat ? seat.name : `Seat ${p.seat}`} leaves the table`);
      break;
    }
    case "uncalled_bet_returned": {
      const seat = seatOf(hand, p.seat);
      if (!seat) break;
      seat.bet = Math.max(0, seat.bet - p.amount);
      seat.stack += p.amount;
      seat.in_pot -= p.amount;
      hand.pot -= p.amount;
      note(hand, `Uncalled ${money(p.amount)} returned to ${seat.name}`);
      break;
    }
    case "reshuffle":
      note(hand, `Not enough cards: ${p.cards} reshuffled`);
      break;
    case "community_card":
      hand.community_card = p.card;
      note(hand, `A community card is turned for everyone: ${cardLabel(p.card)}`);
      break;
    case "showdown":
      hand.to_act = null;
      hand.showdown = true;
      note(hand, SHOWDOWN_LINE);
      break;
    case "show": {
      hand.showdown = true;
      const seat = seatOf(hand, p.seat);
      if (!seat) break;
      seat.shown = p.cards;
      // Razz names only the low (R-RAZZ-6): then there is no high to say.
      hand.words[p.seat] = { ...(p.high ? { high: p.high } : {}), ...(p.low ? { low: p.low } : {}) };
      const said = p.high ? `${p.high}${p.low ? `; low ${p.low}` : ""}` : p.low || "";
      note(hand, `${seat.name} shows ${cardsText(p.cards || [])} (${said})`);
      break;
    }
    case "muck": {
      hand.mucked = [...hand.mucked, p.seat];
      note(hand, `${who(hand, p.seat)} mucks`);
      break;
    }
    case "rake":
      note(hand, `Rake ${money(p.amount)}`);
      break;
    case "pot_awarded": {
      const seat = seatOf(hand, p.seat);
      hand.awards = [...hand.awards, p];
      if (!hand.winners.includes(p.seat)) hand.winners = [...hand.winners, p.seat];
      if (seat) {
        for (const s of hand.seats) { s.bet = 0; }
        const pots = p.pot === 0 ? "the pot" : `side pot ${p.pot}`;
        const half = p.half === "high" ? " (high)" : p.half === "low" ? " (low)" : "";
        note(hand, `${seat.name} wins ${money(p.amount)} from ${pots}${half}${p.hand ? ` with ${p.hand}` : ""}`);
      }
      break;
    }
    case "hand_end": {
      const stacks = p.stacks || {};
      const pairs = Array.isArray(stacks)
        ? stacks.map((s) => [s.seat, s.stack])
        : Object.entries(stacks).map(([k, v]) => [Number(k), v]);
      for (const [number, stack] of pairs) {
        const seat = seatOf(hand, number);
        if (seat) { seat.stack = stack; seat.bet = 0; }
      }
      if (!Array.isArray(stacks) || hand.awards.length) hand.pot = 0;
      if (p.void && !hand.is_over) note(hand, "The hand is void");
      hand.is_over = true;
      hand.to_act = null;
      hand.legal_actions = [];
      break;
    }
    default:
      break;
  }
  return hand;
}

// Side pots as they stand, from what each seat has put in: the main pot first. Only for
// display while the hand runs; the engine settles the real pots (and its result names them).
export function potsOf(hand) {
  const live = hand.seats.filter((s) => s.status !== "folded");
  const levels = [...new Set(live.filter((s) => s.status === "all_in").map((s) => s.in_pot))]
    .sort((a, b) => a - b);
  const pots = [];
  let floor = 0;
  for (const level of [...levels, Infinity]) {
    const amount = hand.seats.reduce(
      (sum, s) => sum + Math.max(0, Math.min(s.in_pot, level) - floor), 0,
    );
    if (amount > 0) pots.push(amount);
    if (level === Infinity) break;
    floor = level;
  }
  return pots.length ? pots : [hand.pot];
}
