// A hand as one viewer sees it, rebuilt from its events. The same shape as the engine's
// view() (the snapshot's hand.state), so the live table can start from a snapshot and go on
// with events, and the replayer can start from nothing and step through a history.
// No rule of poker is decided here: the events say what happened, this only records it.

export function emptyHand() {
  return {
    game: "stud", small_bet: 0, big_bet: 0, ante: 0, bring_in: 0, button: null, street: 3,
    to_act: null, bring_in_seat: null, current_bet: 0, pot: 0, community_card: null,
    seats: [], is_over: false, legal_actions: [], viewer: null,
    // What the room adds for display: shown hands' words, winners, awards, the last action.
    words: {}, winners: [], awards: [], mucked: [], last_action: {}, notes: [],
    note_count: 0, // notes written in all, the first ones dropped from `notes` included
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
  // The viewer's own strength is the hand's line, not a seat's (events never put it there).
  const own = (hand.seats || []).find((s) => s.seat === view.viewer && s.strength);
  hand.strength = own ? own.strength : null;
  for (const seat of hand.seats || []) delete seat.strength;
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

function seatOf(hand, number) {
  return hand.seats.find((s) => s.seat === number);
}

function note(hand, text) {
  hand.notes = [...hand.notes, text].slice(-40);
  hand.note_count = (hand.note_count || 0) + 1;
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
          up: [], down_count: 0, ...(s.seat === viewerSeat ? { down: [] } : {}),
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
      }
      break;
    case "street":
      hand.street = p.street;
      hand.current_bet = 0;
      hand.last_action = {};
      for (const seat of hand.seats) seat.bet = 0;
      break;
    case "down_cards": {
      const seat = seatOf(hand, p.seat);
      if (seat) {
        const down = seat.down || [];
        // A private copy may arrive after a snapshot that already held it: never twice.
        seat.down = [...down, ...p.cards.filter((card) => !down.includes(card))];
        seat.down_count = Math.max(seat.down_count, seat.down.length);
      }
      break;
    }
    case "cards_dealt":
      for (const dealt of p.seats || []) {
        const seat = seatOf(hand, dealt.seat);
        if (!seat) continue;
        seat.up = [...seat.up, ...dealt.up];
        seat.down_count = Math.max(seat.down_count + dealt.down_count, (seat.down || []).length);
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
      hand.last_action[p.seat] = `${p.action.replace("_", " ")}${amount}`;
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
      note(hand, "A community card is turned for everyone");
      break;
    case "showdown":
      hand.to_act = null;
      hand.showdown = true;
      note(hand, "Showdown");
      break;
    case "show": {
      hand.showdown = true;
      const seat = seatOf(hand, p.seat);
      if (!seat) break;
      seat.shown = p.cards;
      hand.words[p.seat] = { high: p.high, ...(p.low ? { low: p.low } : {}) };
      note(hand, `${seat.name} shows ${p.high}${p.low ? ` / low ${p.low}` : ""}`);
      break;
    }
    case "muck": {
      const seat = seatOf(hand, p.seat);
      hand.mucked = [...hand.mucked, p.seat];
      note(hand, `${seat ? seat.name : `Seat ${p.seat}`} mucks`);
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
