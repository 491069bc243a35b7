// The hand replayer: a finished hand's events, street by street and action by action.
//
//   import { mountReplayer } from "/static/js/replayer.js";
//   mountReplayer(element, JSON.parse(document.getElementById("hand-history").textContent));
//
// `history` = {hand_id, number, table: {name, game, seats?}, viewer_seat: int|null,
//              events: [{seq, kind, payload}, ...]} — the events as this viewer may see them
// (R-HIST-2: their own down cards, shown cards; never a mucked card). See docs/browser.md.
import { cardElement, handWords } from "./cards.js";
import { chipStack } from "./chips.js";
import { applyEvent, emptyHand } from "./handstate.js";
import { GAME_NAMES, amount, stakesText, useChipUnits } from "./money.js";
import { NARROW_FELT_PX, seatPosition } from "./table/felt.js";
import { logLines } from "./table/panels.js";

// Events that end a step: what a viewer would notice happen at the table.
const STEP_ENDS = new Set([
  "cards_dealt", "action", "timeout", "uncalled_bet_returned", "community_card", "show",
  "muck", "pot_awarded", "hand_end",
]);

function buildSteps(history) {
  const events = [...history.events].sort((a, b) => a.seq - b.seq);
  const viewerSeat = history.viewer_seat ?? null;
  let hand = emptyHand();
  const steps = [];
  let pending = [];
  for (const event of events) {
    hand = applyEvent(hand, event, { viewerSeat, money: amount });
    pending.push(event);
    if (STEP_ENDS.has(event.kind)) {
      // Two hand_end frames (the engine's and the room's) make one step.
      if (event.kind === "hand_end" && steps.length && steps[steps.length - 1].kind === "hand_end") {
        steps[steps.length - 1].hand = hand;
      } else {
        steps.push({ kind: event.kind, hand, events: pending, street: hand.street });
      }
      pending = [];
    }
  }
  if (pending.length) steps.push({ kind: "end", hand, events: pending, street: hand.street });
  return steps;
}

// The controls' icons as inline SVG paths (24x24): no font on Debian's Chromium draws the
// media symbols U+23EE, U+23EA, U+23E9, U+23ED, so as text they were empty boxes.
const ICONS = {
  first: "M5 5h2.5v14H5zM19 5v14L8.5 12z",
  previousStreet: "M12 5v14L2 12zM22 5v14L12 12z",
  previous: "M17 5v14L6 12z",
  play: "M7 5v14l12-7z",
  pause: "M6 5h4v14H6zM14 5h4v14h-4z",
  next: "M7 5v14l11-7z",
  nextStreet: "M2 5v14l10-7zM12 5v14l10-7z",
  last: "M5 5v14l10.5-7zM16.5 5H19v14h-2.5z",
};
const SVG = "http://www.w3.org/2000/svg";

function icon(name) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "18");
  svg.setAttribute("height", "18");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", ICONS[name]);
  path.setAttribute("fill", "currentColor");
  svg.append(path);
  return svg;
}

// A control: its icon, an optional visible word, and its name for screen readers.
function button(iconName, label, onClick, text = "") {
  const b = document.createElement("button");
  b.type = "button";
  setButton(b, iconName, label, text);
  b.addEventListener("click", onClick);
  return b;
}

function setButton(b, iconName, label, text = "") {
  b.replaceChildren(icon(iconName));
  if (text) {
    const word = document.createElement("span");
    word.textContent = text;
    b.append(word);
  }
  b.setAttribute("aria-label", label);
  b.title = label;
}

export function mountReplayer(element, history) {
  // A tournament's hand is played in tournament chips, not cents (R-TOUR-1).
  useChipUnits(Boolean(history.table && history.table.is_tournament));
  const steps = buildSteps(history);
  const seatsTotal = history.table?.seats || Math.max(2, ...steps.at(-1)?.hand.seats.map((s) => s.seat) || [2]);
  let index = 0;
  let timer = null;

  element.classList.add("replayer");
  element.replaceChildren();
  const head = document.createElement("div");
  head.className = "replayer-head";
  const table = history.table || {};
  head.textContent = [
    // The hand's id: its number in the lists, the downloads and at the table.
    history.hand_id ? `Hand #${history.hand_id}` : "Hand",
    table.name, GAME_NAMES[table.game] || table.game,
    table.small_bet ? stakesText(table) : null,
  ].filter(Boolean).join(" · ");
  const felt = document.createElement("div");
  felt.className = "felt replayer-felt";
  felt.setAttribute("aria-label", "The hand at this step");
  const caption = document.createElement("p");
  caption.className = "replayer-caption";
  caption.setAttribute("aria-live", "polite");
  const controls = document.createElement("div");
  controls.className = "replayer-controls";
  controls.setAttribute("role", "group");
  controls.setAttribute("aria-label", "Replay controls");
  const position = document.createElement("span");
  position.className = "replayer-position";
  const play = button("play", "Play", () => (timer ? stop() : start()), "Play");
  controls.append(
    button("first", "First step", () => go(0)),
    button("previousStreet", "Previous street", () => go(streetStart(-1))),
    button("previous", "Previous action", () => go(index - 1)),
    play,
    button("next", "Next action", () => go(index + 1)),
    button("nextStreet", "Next street", () => go(streetStart(1))),
    button("last", "Last step", () => go(steps.length - 1)),
    position,
  );
  const log = document.createElement("ol");
  log.className = "log replayer-log";
  log.tabIndex = 0; // scrollable: reachable by the keyboard (axe scrollable-region-focusable)
  log.setAttribute("aria-label", "The hand's log");
  element.append(head, felt, caption, controls, log);

  function streetStart(direction) {
    const street = steps[index]?.street;
    if (direction > 0) {
      const next = steps.findIndex((s, i) => i > index && s.street !== street);
      return next < 0 ? steps.length - 1 : next;
    }
    let i = index;
    while (i > 0 && steps[i - 1].street === street) i -= 1;
    if (i === index && i > 0) {
      const previous = steps[i - 1].street;
      while (i > 0 && steps[i - 1].street === previous) i -= 1;
    }
    return i;
  }

  function start() {
    if (index >= steps.length - 1) go(0);
    setButton(play, "pause", "Pause", "Pause");
    timer = setInterval(() => (index >= steps.length - 1 ? stop() : go(index + 1)), 1200);
  }

  function stop() {
    clearInterval(timer);
    timer = null;
    setButton(play, "play", "Play", "Play");
  }

  function go(to) {
    index = Math.max(0, Math.min(steps.length - 1, to));
    draw();
  }

  function draw() {
    const step = steps[index];
    if (!step) {
      caption.textContent = "This hand has no events to replay.";
      return;
    }
    const hand = step.hand;
    position.textContent = `Step ${index + 1} of ${steps.length}`;
    // A new street's cards: the caption names the street (its last line would be the
    // action before it again).
    caption.textContent = step.kind === "cards_dealt" ? streetShort(hand.street) : hand.notes.at(-1) || "";
    felt.replaceChildren(...hand.seats.map((seat) => seatNode(hand, seat)), centre(hand));
    log.replaceChildren(...logLines(hand.notes));
    log.scrollTop = log.scrollHeight;
  }

  function seatNode(hand, seat) {
    // Placed as the live table places them (on a phone, in two columns: issue #14).
    const narrow = Boolean(felt.clientWidth && felt.clientWidth < NARROW_FELT_PX);
    const pos = seatPosition(seat.seat, { total: seatsTotal, anchor: history.viewer_seat || 1, narrow });
    const node = document.createElement("div");
    node.className = "seat";
    node.dataset.seat = seat.seat;
    if (seat.seat === history.viewer_seat) node.classList.add("mine");
    if (seat.status === "folded") node.classList.add("folded");
    if (hand.is_over && hand.winners.includes(seat.seat)) node.classList.add("winner");
    node.style.left = `${pos.x}%`;
    node.style.top = `${pos.y}%`;
    const cards = document.createElement("div");
    cards.className = "cards";
    if (seat.shown) {
      cards.append(...seat.shown.map((c) => cardElement(c)));
    } else if (seat.status !== "folded" || seat.down) {
      const down = seat.down || [];
      const count = Math.max(seat.down_count, down.length);
      const d = (i) => (i < down.length ? cardElement(down[i], { hole: true }) : cardElement(null, { face: false }));
      for (let i = 0; i < Math.min(2, count); i += 1) cards.append(d(i));
      for (const c of seat.up) cards.append(cardElement(c));
      for (let i = 2; i < count; i += 1) cards.append(d(i));
    }
    const plate = document.createElement("div");
    plate.className = "plate";
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = seat.name;
    const stack = document.createElement("span");
    stack.className = "stack";
    stack.textContent = amount(seat.stack);
    plate.append(name, stack);
    const words = hand.words[seat.seat];
    if (words) {
      const named = document.createElement("div");
      named.className = "hand-name";
      named.textContent = words.high
        ? handWords(words.high) + (words.low ? ` · low ${words.low}` : "")
        : words.low || "";
      plate.append(named);
    }
    if (seat.bet > 0) {
      const bet = document.createElement("div");
      bet.append(chipStack(seat.bet));
      plate.append(bet);
    }
    node.append(cards, plate);
    return node;
  }

  function centre(hand) {
    const node = document.createElement("div");
    node.className = "centre";
    const street = document.createElement("div");
    street.className = "felt-title";
    street.textContent = streetLabel(hand.street);
    node.append(street);
    if (hand.pot > 0) node.append(chipStack(hand.pot));
    if (hand.community_card !== null && hand.community_card !== undefined) {
      node.append(cardElement(hand.community_card));
    }
    return node;
  }

  element.addEventListener("keydown", (event) => {
    if (event.key === "ArrowRight") go(index + 1);
    else if (event.key === "ArrowLeft") go(index - 1);
    else return;
    event.preventDefault();
  });
  element.tabIndex = element.tabIndex >= 0 ? element.tabIndex : 0;
  go(0);
  return { go, steps: steps.length, destroy: () => { stop(); element.replaceChildren(); } };
}

function streetLabel(street) {
  return { 3: "Third street", 4: "Fourth street", 5: "Fifth street", 6: "Sixth street", 7: "Seventh street" }[street] || "";
}

function streetShort(street) {
  return { 3: "3rd street", 4: "4th street", 5: "5th street", 6: "6th street", 7: "7th street" }[street] || "";
}
