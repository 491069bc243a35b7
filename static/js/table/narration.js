// What a dealer would say, for a screen reader (issue #27). Pure: no DOM, no clock. Built from
// the same frames the felt draws: the store hands each applied event over with the hand before
// and after it (handstate.js), and this writes the lines a live region speaks. A snapshot (a
// reload, a reconnect) is never narrated: only events the store applies after it, each once.
//
// R-HIST-2: nothing here reads another player's down card. Down cards are said only from the
// viewer's own seat (`down`, which handstate keeps for the viewer alone), and only the new ones.
import { cardName, handWords } from "../cards.js";

// Detail: "all" (every deal and action) or "mine" (my cards, my turn, the showdown and results).
export const DETAILS = ["all", "mine"];
// Clock warnings: "off", "five" (once, at 5 seconds left) or "each" (each of the last 5 seconds).
export const CLOCK_WARNINGS = ["off", "five", "each"];
export const WARN_FROM_SECONDS = 5;

const STREET_NAMES = { 3: "3rd street", 4: "4th street", 5: "5th street", 6: "6th street", 7: "7th street" };
const RANK_NAMES = [
  "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
  "jack", "queen", "king", "ace",
];
const RANK_PLURALS = [
  "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
  "jacks", "queens", "kings", "aces",
];

const cardsSaid = (cards) => cards.map(cardName).join(", ");

// What up cards show, in words ("a pair of kings", "king high"): a description of the felt
// for the ear, not a ruling (the engine's words are used for shown hands and awards).
export function showing(cards) {
  if (!cards || !cards.length) return "";
  const counts = new Map();
  for (const card of cards) counts.set(card >> 2, (counts.get(card >> 2) || 0) + 1);
  const groups = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const [[top, topCount]] = groups;
  if (topCount === 4) return `four ${RANK_PLURALS[top]}`;
  if (topCount === 3) return `three ${RANK_PLURALS[top]}`;
  const pairs = groups.filter(([, n]) => n === 2).map(([rank]) => rank);
  if (pairs.length >= 2) return `two pair, ${RANK_PLURALS[pairs[0]]} and ${RANK_PLURALS[pairs[1]]}`;
  if (pairs.length === 1) return `a pair of ${RANK_PLURALS[pairs[0]]}`;
  return `${RANK_NAMES[top]} high`;
}

function seatOf(hand, number) {
  return hand && hand.seats ? hand.seats.find((s) => s.seat === number) || null : null;
}

// "You", or "Seat 3, Ann".
function who(hand, number, viewerSeat) {
  if (number === viewerSeat) return "You";
  const seat = seatOf(hand, number);
  return seat ? `Seat ${number}, ${seat.name},` : `Seat ${number}`;
}

// Subject and verb agreeing: "You call" / "Seat 2, Bob, calls".
function says(hand, number, viewerSeat, third, second = null) {
  if (number === viewerSeat) return `You ${second || third.replace(/s\b/, "")}`;
  return `${who(hand, number, viewerSeat)} ${third}`;
}

const ACTION_VERBS = {
  fold: ["folds", "fold"], check: ["checks", "check"], call: ["calls", "call"],
  bring_in: ["brings in for", "bring in for"], complete: ["completes to", "complete to"],
  bet: ["bets", "bet"], raise: ["raises to", "raise to"],
};

// A line: {text, urgent}. Urgent lines (the player's own turn) go to the assertive region.
const line = (text, urgent = false) => ({ text, urgent });

// The lines for one applied event: `before` and `after` are the hand around it.
export function narrateEvent(before, event, after, { viewerSeat = null, detail = "all", money = /** @type {(cents: number) => string} */ (String) } = {}) {
  const p = event.payload || {};
  const all = detail !== "mine";
  const lines = [];
  switch (event.kind) {
    case "hand_start":
      if (all) lines.push(line(`New hand${event.hand_number ? ` #${event.hand_number}` : ""}, ${(p.seats || []).length} players.`));
      break;
    case "antes": {
      const total = (p.posts || []).reduce((sum, post) => sum + post.amount, 0);
      if (all && total) lines.push(line(`Antes in: ${money(total)} in the pot.`));
      for (const post of p.posts || []) {
        if (post.all_in) lines.push(line(`${says(after, post.seat, viewerSeat, "is all-in with the ante", "are all-in with the ante")}.`));
      }
      break;
    }
    case "down_cards": {
      // Only the viewer's own seat carries `down`; only its new cards are said.
      if (p.seat !== viewerSeat) break;
      const was = (seatOf(before, p.seat) || {}).down || [];
      const fresh = ((seatOf(after, p.seat) || {}).down || []).filter((c) => !was.includes(c));
      if (fresh.length) {
        lines.push(line(`Your down card${fresh.length > 1 ? "s" : ""}: ${cardsSaid(fresh)}.`));
      }
      break;
    }
    case "cards_dealt": {
      const street = STREET_NAMES[p.street ?? after.street] || "";
      let first = true;
      for (const dealt of p.seats || []) {
        if (!dealt.up.length) continue;
        const mine = dealt.seat === viewerSeat;
        if (!all && !mine) continue;
        const seat = seatOf(after, dealt.seat);
        const shows = seat && seat.up.length > 1 ? `: ${showing(seat.up)} showing` : "";
        const verb = mine ? "get" : "gets";
        const text = `${mine ? "You" : who(after, dealt.seat, viewerSeat)} ${verb} the ${cardsSaid(dealt.up)}${shows}.`;
        lines.push(line(first && street ? `${street[0].toUpperCase()}${street.slice(1)}. ${text}` : text));
        first = false;
      }
      // The river dealt face down: the street is said all the same, as a dealer says it.
      if (first && all && street && (p.seats || []).length) {
        lines.push(line(`${street[0].toUpperCase()}${street.slice(1)}: a card face down to each player.`));
      }
      break;
    }
    case "community_card":
      lines.push(line(`A community card for everyone: the ${cardName(p.card)}.`));
      break;
    case "action": {
      const mine = p.seat === viewerSeat;
      if (!all && !mine) break;
      const [third, second] = ACTION_VERBS[p.action] || [p.action, p.action];
      const amount = ["fold", "check"].includes(p.action) ? "" : ` ${money(p.action === "call" ? p.amount : p.to)}`;
      lines.push(line(`${says(after, p.seat, viewerSeat, third, second)}${amount}${p.all_in ? ", all-in" : ""}.`));
      break;
    }
    case "timeout": {
      const what = {
        check: ["checks", "check"], fold: ["folds", "fold"], bring_in: ["posts the bring-in", "post the bring-in"],
        all_in_protection: ["is all-in (all-in protection)", "are all-in (all-in protection)"],
      }[p.result] || [p.result, p.result];
      const mine = p.seat === viewerSeat;
      lines.push(line(mine ? `Your time ran out: you ${what[1]}.` : `${who(after, p.seat, viewerSeat)} ran out of time and ${what[0]}.`));
      break;
    }
    case "uncalled_bet_returned":
      if (all || p.seat === viewerSeat) lines.push(line(`Uncalled ${money(p.amount)} returned to ${p.seat === viewerSeat ? "you" : who(after, p.seat, viewerSeat).replace(/,$/, "")}.`));
      break;
    case "showdown":
      lines.push(line("Showdown."));
      break;
    case "show": {
      const words = `${handWords(p.high)}${p.low ? `; low ${p.low}` : ""}`;
      lines.push(line(`${says(after, p.seat, viewerSeat, "shows", "show")} ${cardsSaid(p.cards || [])}: ${words}.`));
      break;
    }
    case "muck":
      lines.push(line(`${says(after, p.seat, viewerSeat, "mucks", "muck")}.`));
      break;
    case "pot_awarded": {
      const pot = p.pot === 0 ? "the main pot" : `side pot ${p.pot}`;
      const half = p.half === "high" ? " (high)" : p.half === "low" ? " (low)" : "";
      const name = p.seat === viewerSeat ? "You win" : `${who(after, p.seat, viewerSeat)} wins`;
      lines.push(line(`${name} ${money(p.amount)} from ${pot}${half}${p.hand ? ` with ${handWords(p.hand)}` : ""}.`));
      break;
    }
    case "hand_end":
      if (p.void) lines.push(line("The hand is void."));
      break;
    default:
      break;
  }
  // Whose turn it is, at the end of the batch (the viewer's own comes with its offers).
  const toAct = event.to_act;
  if (all && toAct !== null && toAct !== undefined && toAct !== viewerSeat && !after.is_over) {
    const facing = toCallOf(after, toAct);
    lines.push(line(`${who(after, toAct, viewerSeat)} to act${facing ? `, facing ${money(facing)}` : ""}.`));
  }
  return lines;
}

// What a seat would have to put in to call now.
export function toCallOf(hand, number) {
  const seat = seatOf(hand, number);
  return seat ? Math.max(0, hand.current_bet - seat.bet) : 0;
}

// The player's own turn: "Your turn: $2 to call, 10 seconds." (the assertive region).
export function yourTurn(hand, viewerSeat, msLeft, { money = /** @type {(cents: number) => string} */ (String) } = {}) {
  const offers = hand.legal_actions || [];
  const call = offers.find((o) => o.kind === "call");
  const bringIn = offers.find((o) => o.kind === "bring_in");
  let facing = "nothing to call";
  if (call) facing = `${money(call.amount)} to call`;
  else if (bringIn) facing = `bring in for ${money(bringIn.amount)}`;
  const seconds = msLeft === null || msLeft === undefined ? "" : `, ${Math.ceil(msLeft / 1000)} seconds`;
  return line(`Your turn: ${facing}${seconds}.`, true);
}

// The time bank starts (R-BET-7).
export function timeBankLine(msLeft, mine) {
  const seconds = Math.ceil(msLeft / 1000);
  return line(mine ? `Your time bank: ${seconds} seconds.` : `Time bank: ${seconds} seconds.`, mine);
}

// The clock's last seconds on the viewer's own turn: the line to say as `second` (seconds
// left, rounded up) is reached, or null. `said`: the last second warned about this turn.
export function clockWarning(second, said, setting) {
  if (setting === "off" || second <= 0 || second > WARN_FROM_SECONDS || second === said) return null;
  if (setting === "five" && said !== null && said <= WARN_FROM_SECONDS) return null;
  return line(`${second} second${second === 1 ? "" : "s"}.`, false);
}

// The keys' answers.
export function readMyCards(hand, viewerSeat) {
  const seat = seatOf(hand, viewerSeat);
  if (!seat) return "You are not in this hand.";
  const down = seat.down || [];
  const parts = [];
  if (down.length) parts.push(`Down: ${cardsSaid(down)}`);
  if (seat.up.length) parts.push(`Up: ${cardsSaid(seat.up)}`);
  if (!parts.length) return "You have no cards yet.";
  const strength = hand.strength
    ? `. ${handWords(hand.strength.high)}${hand.strength.low ? `; low ${hand.strength.low}` : ""}`
    : "";
  return `${parts.join(". ")}${strength}.`;
}

export function readSeat(hand, tableSeats, number, { viewerSeat = null, money = /** @type {(cents: number) => string} */ (String) } = {}) {
  const played = seatOf(hand, number);
  const sitting = (tableSeats || []).find((s) => s.number === number);
  if (!played && !(sitting && sitting.player_id)) return `Seat ${number} is empty.`;
  const name = played ? played.name : sitting.name;
  const stack = played && hand && !hand.is_over ? played.stack : sitting ? sitting.stack : played.stack;
  const head = `Seat ${number}, ${name}${number === viewerSeat ? " (you)" : ""}`;
  if (!played || (hand && hand.is_over && !played.up.length)) return `${head}: ${money(stack)}, not in a hand.`;
  const status = played.status === "folded" ? ", folded" : played.status === "all_in" ? ", all-in" : "";
  const board = played.up.length ? `shows ${cardsSaid(played.up)}: ${showing(played.up)}` : "no up cards";
  return `${head}${status}: ${board}. Stack ${money(stack)}${played.bet ? `, ${money(played.bet)} bet this street` : ""}.`;
}

export function readPot(hand, viewerSeat, { money = /** @type {(cents: number) => string} */ (String) } = {}) {
  if (!hand || !hand.seats.length) return "No hand in play.";
  const facing = toCallOf(hand, viewerSeat);
  const pot = hand.pot;
  const seat = seatOf(hand, viewerSeat);
  const call = seat && seat.status === "active" && !hand.is_over
    ? (facing ? `, ${money(facing)} to call` : ", nothing to call")
    : "";
  return `Pot ${money(pot)}${call}.`;
}

export function readTime(hand, viewerSeat, msLeft, onBank) {
  if (!hand || hand.is_over || hand.to_act === null || hand.to_act === undefined) return "Nobody is to act.";
  const whose = hand.to_act === viewerSeat ? "You have" : `${who(hand, hand.to_act, viewerSeat).replace(/,$/, "")} has`;
  return `${whose} ${Math.ceil(msLeft / 1000)} seconds${onBank ? " on the time bank" : ""}.`;
}
