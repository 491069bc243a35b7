// The live table: draws what the server says over the WebSocket (docs/protocol.md) and sends
// the player's commands. The server is the authority: the page keeps (hand_id, seq), applies
// events in order, and asks for a snapshot on any gap, on (re)connect, and when it is the
// player's turn (the snapshot carries the legal actions).
import { cardElement, handWords } from "./cards.js";
import { chipStack } from "./chips.js";
import { applyEvent, emptyHand, fromView, potsOf } from "./handstate.js";
import { GAME_NAMES, dollars, parseDollars, stakesText } from "./money.js";

const page = JSON.parse(document.getElementById("table-page").textContent);
const root = document.querySelector("[data-room]");
const $ = (selector) => root.querySelector(selector);
const felt = $("[data-felt]");
const actionsBar = $("[data-actions]");
const statusLine = $("[data-connection]");
const offlineBanner = $("[data-offline]");
const toast = $("[data-toast]");
const chatList = $("[data-chat-list]");
const chatForm = $("[data-chat-form]");
const lastHandsList = $("[data-last-hands]");
const logList = $("[data-log]");
const prompt = $("[data-prompt]");
const seatControls = $("[data-seat-controls]");
const dialog = document.querySelector("[data-buy-in]");
const fourColour = $("[data-four-colour]");
const autoMuck = $("[data-auto-muck]");

const state = {
  snap: null, // the last snapshot's table, seats, viewer, waiting list, last hands
  hand: null, // the hand drawn (handstate.js shape), the finished one until the next deals
  handId: null,
  seq: 0,
  deadline: null, // ms since epoch, adjusted to this clock
  privateSeqs: new Set(),
  awaiting: false,
  queue: [],
  acting: false,
  anteDeadline: null,
  offer: null,
  showOffer: null, // R-SHOW-3: {handId, until} while the uncalled winner may show
};
let socket = null;
let retry = 0;
let refs = 0;
let pingTimer = null;
let reconnectTimer = null;
let renderQueued = false;

// --- the connection -------------------------------------------------------------------------

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${window.location.host}/ws/tables/${page.table_id}/`);
  setConnection("connecting");
  state.awaiting = true; // the server sends a snapshot on connect
  state.queue = [];
  socket.addEventListener("open", () => {
    retry = 0;
    setConnection("online");
    clearInterval(pingTimer);
    pingTimer = setInterval(() => send({ type: "ping" }), 20000);
  });
  socket.addEventListener("message", (message) => {
    let frame;
    try {
      frame = JSON.parse(message.data);
    } catch {
      return;
    }
    onFrame(frame);
  });
  socket.addEventListener("close", (event) => {
    clearInterval(pingTimer);
    if (event.code === 4404) {
      setConnection("gone");
      return;
    }
    setConnection("offline");
    const delay = Math.min(5000, 500 * 2 ** retry);
    retry += 1;
    clearTimeout(reconnectTimer);
    reconnectTimer = setTimeout(connect, delay);
  });
}

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    showToast("Offline: that did not reach the table.");
    return null;
  }
  refs += 1;
  const ref = `r${refs}`;
  socket.send(JSON.stringify({ ...message, ref }));
  return ref;
}

function setConnection(mode) {
  root.dataset.connection = mode;
  const text = {
    connecting: "Connecting…",
    online: "Connected",
    offline: "Offline: reconnecting…",
    gone: "This table no longer exists.",
  }[mode];
  statusLine.textContent = text;
  offlineBanner.hidden = mode === "online" || mode === "connecting";
  offlineBanner.textContent = text;
}

function requestSnapshot() {
  if (state.awaiting) return;
  state.awaiting = true;
  send({ type: "snapshot" });
  setTimeout(() => {
    if (state.awaiting) {
      state.awaiting = false;
      requestSnapshot();
    }
  }, 4000);
}

// --- frames from the server -----------------------------------------------------------------

function onFrame(frame) {
  switch (frame.type) {
    case "snapshot":
      applySnapshot(frame);
      break;
    case "event":
      onEvent(frame);
      break;
    case "seats":
      if (!state.snap) break;
      state.snap.seats = frame.seats;
      if (page.player_id && frame.seats.some((s) => s.player_id === page.player_id)) {
        if (!state.snap.viewer) requestSnapshot();
      } else if (state.snap.viewer) {
        state.snap.viewer = null;
      }
      break;
    case "next_hand":
      if (state.snap) state.snap.next_hand_at = frame.at;
      break;
    case "your_turn":
      // The offers come to the player to act right after the batch's events.
      if (!state.awaiting && state.hand && frame.hand_id === state.handId &&
          frame.seq === state.seq && frame.seat === mySeat()) {
        state.hand.to_act = frame.seat;
        state.hand.legal_actions = frame.legal_actions;
        state.deadline = deadlineOf(frame.action_deadline);
        state.acting = false;
      }
      break;
    case "ante_confirm":
      state.anteDeadline = Date.parse(frame.deadline);
      if (state.snap && state.snap.viewer) state.snap.viewer.ante_confirmed = false;
      break;
    case "waiting_list":
      if (state.snap) state.snap.waiting_list = frame.entries;
      break;
    case "seat_offer":
      state.offer = Date.parse(frame.until);
      break;
    case "show_offer":
      state.showOffer = { handId: frame.hand_id, until: frame.until ? Date.parse(frame.until) : null };
      break;
    case "chat":
      addChat(frame);
      break;
    case "result":
      onResult(frame);
      break;
    case "error":
      if (frame.code !== "rate_limited") showToast(frame.message || frame.code);
      break;
    default:
      break;
  }
  queueRender();
}

function applySnapshot(snapshot) {
  state.snap = snapshot;
  state.awaiting = false;
  // A seat held for this player (reconnecting during an offer keeps it).
  const mine = (snapshot.waiting_list || []).find((e) => e.player_id === page.player_id);
  state.offer = mine && mine.offered_until ? Date.parse(mine.offered_until) : null;
  if (snapshot.hand) {
    const sameHand = snapshot.hand.id === state.handId && state.hand;
    const hand = fromView(snapshot.hand.state);
    if (sameHand) {
      // Keep what the events taught us that a view does not carry.
      hand.notes = state.hand.notes;
      hand.last_action = state.hand.last_action;
      hand.words = { ...state.hand.words, ...hand.words };
    }
    state.hand = hand;
    state.handId = snapshot.hand.id;
    state.handNumber = snapshot.hand.number;
    state.seq = snapshot.hand.seq;
    state.button = snapshot.hand.button;
    state.deadline = deadlineOf(snapshot.hand.action_deadline);
    state.privateSeqs = new Set();
  } else if (!(state.hand && state.hand.is_over)) {
    state.hand = null;
    state.handId = null;
    state.seq = 0;
    state.deadline = null;
  }
  if (snapshot.viewer && !snapshot.viewer.auto_ante && !snapshot.viewer.ante_confirmed &&
      snapshot.next_hand_at) {
    state.anteDeadline = Date.parse(snapshot.next_hand_at);
  }
  state.acting = false;
  const queued = state.queue;
  state.queue = [];
  for (const frame of queued) onEvent(frame);
}

function mySeat() {
  return state.snap && state.snap.viewer ? state.snap.viewer.seat : null;
}

function onEvent(frame) {
  if (state.awaiting) {
    state.queue.push(frame);
    return;
  }
  if (frame.hand_id !== state.handId) {
    if (frame.seq !== 1) {
      if (state.handId === null || frame.hand_id > state.handId) {
        state.queue.push(frame);
        requestSnapshot();
      }
      return;
    }
    state.handId = frame.hand_id;
    state.handNumber = frame.hand_number;
    state.seq = 0;
    state.hand = emptyHand();
    state.deadline = null;
    state.privateSeqs = new Set();
    state.anteDeadline = null;
    state.showOffer = null;
  }
  if (frame.seq <= state.seq) {
    // A duplicate, or the private copy of a placeholder already counted: keep the private one.
    if (frame.private && !state.privateSeqs.has(frame.seq)) {
      state.privateSeqs.add(frame.seq);
      state.hand = applyEvent(state.hand, frame, { viewerSeat: mySeat(), money: dollars });
    }
    takeTurn(frame);
    return;
  }
  if (frame.seq > state.seq + 1) {
    state.queue.push(frame);
    requestSnapshot();
    return;
  }
  state.seq = frame.seq;
  if (frame.kind !== "private") {
    if (frame.private) state.privateSeqs.add(frame.seq);
    if (frame.kind === "hand_start") state.button = frame.payload.button;
    const before = state.hand;
    state.hand = applyEvent(state.hand, frame, { viewerSeat: mySeat(), money: dollars });
    if (frame.kind === "pot_awarded") flyChips(frame.payload, before);
    if (frame.kind === "hand_end") {
      state.deadline = null;
      setTimeout(requestSnapshot, 300); // fresh seats and the last hands list
    }
  }
  takeTurn(frame);
}

function deadlineOf(iso) {
  if (!iso) return null;
  const at = Date.parse(iso);
  const clock = (state.snap ? state.snap.table.action_clock : 10) * 1000;
  // Never show more than the table's clock, whatever the two machines' clocks say.
  return Math.min(at, Date.now() + clock);
}

function takeTurn(frame) {
  if (frame.to_act !== null && frame.to_act !== undefined) {
    state.hand.to_act = frame.to_act;
    state.deadline = deadlineOf(frame.action_deadline);
  }
  const hand = state.hand;
  if (hand && !hand.is_over && hand.to_act !== null && hand.to_act === mySeat() &&
      hand.legal_actions.length === 0 && frame.to_act === mySeat()) {
    // The your_turn frame should bring the offers; ask for a snapshot if it does not come.
    const seq = state.seq;
    setTimeout(() => {
      const now = state.hand;
      if (now && state.seq === seq && !now.is_over && now.to_act === mySeat() &&
          now.legal_actions.length === 0) {
        requestSnapshot();
      }
    }, 500);
  }
}

function onResult(frame) {
  if (frame.command === "act") state.acting = false;
  if (frame.ok) {
    if (frame.command === "sit" || frame.command === "add_chips" || frame.command === "leave") {
      refreshBalance();
      requestSnapshot();
    }
    if (frame.command === "im_in") {
      state.anteDeadline = null;
      if (state.snap && state.snap.viewer) state.snap.viewer.ante_confirmed = true;
    }
    if (frame.command === "sit") state.offer = null;
    if (frame.command === "show") state.showOffer = null;
    if (frame.command === "auto_muck" && state.snap && state.snap.viewer) {
      state.snap.viewer.auto_muck = autoMuck.checked;
    }
    return;
  }
  if (frame.command === "auto_muck" && state.snap && state.snap.viewer) {
    autoMuck.checked = state.snap.viewer.auto_muck;
  }
  if (frame.command === "show") state.showOffer = null;
  showToast(frame.message || frame.error || "Refused");
  if (frame.status === "stale" || frame.command === "act") requestSnapshot();
}

// --- drawing --------------------------------------------------------------------------------

function queueRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    render();
  });
}

function seatPosition(number) {
  const total = state.snap.table.seats;
  const anchor = mySeat() || 1;
  const k = (number - anchor + total) % total;
  const angle = Math.PI / 2 + (k * 2 * Math.PI) / total;
  // A phone's oval stands up: seats keep inside its width.
  const narrow = felt.clientWidth < 520;
  const [rx, ry] = narrow ? [33, 43] : [42, 41];
  return { x: 50 + rx * Math.cos(angle), y: 50 + ry * Math.sin(angle) };
}

function render() {
  if (!state.snap) return;
  renderHeader();
  renderFelt();
  renderActions();
  renderPrompt();
  renderSeatControls();
  renderSide();
  tick();
}

function renderHeader() {
  const table = state.snap.table;
  $("[data-stakes]").textContent =
    `${GAME_NAMES[table.game] || table.game} · ${stakesText(table)} · ante ${dollars(table.ante)}` +
    ` · bring-in ${dollars(table.bring_in)}`;
  $("[data-hand-number]").textContent = state.hand && state.handNumber
    ? `Hand #${state.handNumber}${state.hand.is_over ? " (over)" : ` · ${streetName(state.hand.street)}`}`
    : waitingText();
}

function waitingText() {
  const seated = state.snap.seats.filter((s) => !s.sitting_out).length;
  if (state.snap.next_hand_at) return "Next hand shortly";
  return seated < 2 ? "Waiting for players" : "Waiting";
}

function streetName(street) {
  return { 3: "3rd street", 4: "4th street", 5: "5th street", 6: "6th street", 7: "7th street (river)" }[street] || "";
}

function renderFelt() {
  const snap = state.snap;
  const hand = state.hand;
  const me = mySeat();
  const byNumber = new Map(snap.seats.map((s) => [s.number, s]));
  const inHand = new Map((hand ? hand.seats : []).map((s) => [s.seat, s]));
  felt.dataset.phase = !hand ? "idle" : hand.is_over || hand.showdown ? "showdown" : "play";
  const nodes = [];
  for (let number = 1; number <= snap.table.seats; number += 1) {
    const pos = seatPosition(number);
    const seat = byNumber.get(number);
    const played = inHand.get(number);
    nodes.push(seatElement(number, seat, played, pos, me));
    if (played && played.bet > 0 && !hand.is_over) {
      const bet = chipStack(played.bet);
      bet.classList.add("bet");
      bet.dataset.betSeat = number;
      bet.style.left = `${50 + 0.52 * (pos.x - 50)}%`;
      bet.style.top = `${50 + 0.5 * (pos.y - 50)}%`;
      nodes.push(bet);
    }
    if (hand && state.button === number) {
      const button = document.createElement("span");
      button.className = "dealer-button";
      button.textContent = "D";
      button.title = "Dealer button";
      button.setAttribute("aria-label", `Dealer button at seat ${number}`);
      button.style.left = `${50 + 0.7 * (pos.x - 50) + 6}%`;
      button.style.top = `${50 + 0.7 * (pos.y - 50)}%`;
      nodes.push(button);
    }
  }
  nodes.push(centreElement());
  felt.replaceChildren(...nodes);
}

function seatElement(number, seat, played, pos, me) {
  const hand = state.hand;
  const el = document.createElement("div");
  el.className = "seat";
  el.dataset.seat = number;
  el.style.left = `${pos.x}%`;
  el.style.top = `${pos.y}%`;
  if (!seat) {
    el.classList.add("empty");
    if (page.player_id && me === null) {
      const sit = document.createElement("button");
      sit.type = "button";
      sit.className = "sit-here";
      sit.textContent = `Sit at seat ${number}`;
      sit.addEventListener("click", () => openBuyIn({ seat: number }));
      el.append(sit);
    } else {
      const label = document.createElement("span");
      label.className = "empty-label";
      label.textContent = `Seat ${number}`;
      el.append(label);
    }
    return el;
  }
  if (number === me) el.classList.add("mine");
  const status = played ? played.status : null;
  if (status === "folded") el.classList.add("folded");
  if (hand && hand.to_act === number && !hand.is_over) el.classList.add("to-act");
  if (hand && hand.winners.includes(number) && hand.is_over) el.classList.add("winner");
  el.setAttribute("aria-label", `Seat ${number}: ${seat.name}`);

  const cards = document.createElement("div");
  cards.className = "cards";
  if (played) cards.append(...cardsOf(played, number === me));
  const plate = document.createElement("div");
  plate.className = "plate";
  const name = document.createElement("span");
  name.className = "name";
  name.textContent = seat.name;
  const presence = document.createElement("span");
  presence.className = `presence ${seat.connected ? "on" : "off"}`;
  presence.title = seat.connected ? "connected" : "disconnected";
  presence.setAttribute("role", "img");
  presence.setAttribute("aria-label", seat.connected ? "connected" : "disconnected");
  name.prepend(presence);
  const stack = document.createElement("span");
  stack.className = "stack";
  stack.dataset.stack = number;
  stack.textContent = dollars(played && hand && !hand.is_over ? played.stack : seat.stack);
  plate.append(name, stack);
  const tags = [];
  if (seat.sitting_out) tags.push("sitting out");
  if (!seat.connected) tags.push("disconnected");
  if (status === "all_in") tags.push("all-in");
  if (status === "folded") tags.push("folded");
  if (hand && !hand.is_over && hand.street === 3 && hand.bring_in_seat === number &&
      !hand.last_action[number]) {
    tags.push("bring-in");
  }
  if (hand && hand.last_action[number] && !hand.is_over) tags.push(hand.last_action[number]);
  const words = hand && hand.words[number];
  if (words) {
    const named = document.createElement("div");
    named.className = "hand-name";
    named.dataset.handName = number;
    named.textContent = handWords(words.high) + (words.low ? ` · low ${words.low}` : "");
    plate.append(named);
  }
  if (hand && hand.mucked.includes(number)) tags.push("mucked");
  if (tags.length) {
    const line = document.createElement("div");
    line.className = "tags";
    for (const tag of tags) {
      const t = document.createElement("span");
      t.className = `tag tag-${tag.split(" ")[0].replace(/[^a-z-]/g, "")}`;
      t.textContent = tag;
      line.append(t);
    }
    plate.append(line);
  }
  if (hand && hand.to_act === number && !hand.is_over) {
    const clock = document.createElement("div");
    clock.className = "clock";
    clock.setAttribute("role", "timer");
    clock.setAttribute("aria-label", "time left to act");
    const bar = document.createElement("span");
    bar.className = "bar";
    const text = document.createElement("span");
    text.className = "seconds";
    text.dataset.countdown = number;
    clock.append(bar, text);
    plate.append(clock);
  }
  el.append(cards, plate);
  return el;
}

// Down, down, up cards in the order dealt, then the river down: as they lie on the felt.
function cardsOf(played, mine) {
  const hand = state.hand;
  const five = new Set(
    hand.is_over ? hand.awards.filter((a) => a.seat === played.seat).flatMap((a) => a.five || []) : [],
  );
  if (played.shown) {
    return played.shown.map((card) => cardElement(card, { lit: five.has(card) }));
  }
  if (played.status === "folded" && !mine) return [];
  const down = mine && played.down ? played.down : [];
  const count = Math.max(played.down_count, down.length);
  const downCard = (i) => (i < down.length
    ? cardElement(down[i], { hole: true, lit: five.has(down[i]) })
    : cardElement(null, { face: false }));
  const out = [];
  for (let i = 0; i < Math.min(2, count); i += 1) out.push(downCard(i));
  for (const card of played.up) out.push(cardElement(card, { lit: five.has(card) }));
  for (let i = 2; i < count; i += 1) out.push(downCard(i));
  if (played.status === "folded") out.forEach((c) => c.classList.add("dead"));
  return out;
}

function centreElement() {
  const hand = state.hand;
  const centre = document.createElement("div");
  centre.className = "centre";
  const title = document.createElement("div");
  title.className = "felt-title";
  title.textContent = state.snap.table.name;
  centre.append(title);
  if (!hand) {
    const waiting = document.createElement("div");
    waiting.className = "felt-note";
    waiting.textContent = waitingText();
    centre.append(waiting);
    return centre;
  }
  const pots = document.createElement("div");
  pots.className = "pots";
  pots.dataset.pots = "";
  const result = hand.is_over && hand.result ? hand.result.pots.map((p) => p.amount) : null;
  const amounts = hand.is_over ? result || [] : potsOf(hand);
  amounts.forEach((amount, i) => {
    if (!amount) return;
    const pot = document.createElement("div");
    pot.className = "pot";
    const label = document.createElement("span");
    label.className = "pot-label";
    label.textContent = i === 0 ? (amounts.length > 1 ? "Main pot" : "Pot") : `Side pot ${i}`;
    pot.append(label, chipStack(amount));
    pots.append(pot);
  });
  if (!hand.is_over && amounts.length > 1) {
    const total = document.createElement("div");
    total.className = "pot-total";
    total.textContent = `Total ${dollars(hand.pot)}`;
    pots.append(total);
  }
  centre.append(pots);
  if (hand.community_card !== null && hand.community_card !== undefined) {
    const community = document.createElement("div");
    community.className = "community";
    const label = document.createElement("span");
    label.textContent = "Community card";
    community.append(label, cardElement(hand.community_card));
    centre.append(community);
  }
  if (hand.is_over && hand.notes.length) {
    const wins = hand.notes.filter((n) => n.includes(" wins "));
    const summary = document.createElement("div");
    summary.className = "felt-note winners-note";
    summary.textContent = wins.join(" · ");
    centre.append(summary);
  }
  return centre;
}

const SHORTCUTS = { fold: "F", check: "C", call: "C", bring_in: "B" };

function actionLabel(offer, offers) {
  const sameKind = offers.filter((o) => o.kind === offer.kind);
  const size = sameKind.length > 1
    ? (offer.amount === Math.min(...sameKind.map((o) => o.amount)) ? " (small)" : " (big)")
    : "";
  switch (offer.kind) {
    case "fold": return "Fold";
    case "check": return "Check";
    case "call": return `Call ${dollars(offer.adds)}`;
    case "bring_in": return `Bring in ${dollars(offer.amount)}`;
    case "complete": return `Complete to ${dollars(offer.amount)}`;
    case "bet": return `Bet ${dollars(offer.amount)}${size}`;
    case "raise": return `Raise to ${dollars(offer.amount)}${size}`;
    default: return offer.kind;
  }
}

function renderActions() {
  const hand = state.hand;
  const me = mySeat();
  const offers = hand && !hand.is_over && hand.to_act === me && me !== null ? hand.legal_actions : [];
  actionsBar.replaceChildren();
  actionsBar.hidden = offers.length === 0;
  let aggressive = 0;
  for (const offer of offers) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `act act-${offer.kind}`;
    let key = SHORTCUTS[offer.kind];
    if (!key) {
      key = aggressive === 0 ? "R" : "T";
      aggressive += 1;
    }
    button.dataset.key = key;
    button.setAttribute("aria-keyshortcuts", key);
    button.append(actionLabel(offer, offers));
    const kbd = document.createElement("kbd");
    kbd.textContent = key;
    kbd.setAttribute("aria-hidden", "true");
    button.append(kbd);
    button.disabled = state.acting;
    button.addEventListener("click", () => act(offer));
    actionsBar.append(button);
  }
}

function act(offer) {
  if (state.acting) return;
  state.acting = true;
  const ref = send({
    type: "act", seq: state.seq, hand_id: state.handId, kind: offer.kind, amount: offer.amount,
  });
  if (ref === null) state.acting = false;
  state.hand.legal_actions = [];
  queueRender();
}

function renderPrompt() {
  const viewer = state.snap.viewer;
  const parts = [];
  prompt.replaceChildren();
  const due = viewer && !viewer.auto_ante && !viewer.ante_confirmed && state.anteDeadline &&
    !(state.hand && !state.hand.is_over);
  if (due) {
    const text = document.createElement("span");
    text.textContent = "Post the ante for the next hand?";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "im-in";
    button.textContent = "I'm in";
    button.addEventListener("click", () => send({ type: "im_in" }));
    parts.push(text, button);
  }
  const show = state.showOffer;
  if (show && show.handId === state.handId && (!show.until || show.until > Date.now() - 500)) {
    // R-SHOW-3: nobody called; the winner may show until the next hand is dealt.
    const text = document.createElement("span");
    text.textContent = "You won without a call: show your cards?";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "show-cards";
    button.textContent = "Show cards";
    button.addEventListener("click", () => send({ type: "show", hand_id: show.handId }));
    parts.push(text, button);
  }
  if (state.offer && state.offer > Date.now() && !viewer) {
    const text = document.createElement("span");
    text.className = "seat-offer";
    const until = new Date(state.offer).toLocaleTimeString();
    text.textContent = `A seat is free for you, held until ${until}.`;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Take the seat";
    button.addEventListener("click", () => openBuyIn({ seat: null }));
    parts.push(text, button);
  }
  prompt.append(...parts);
  prompt.hidden = parts.length === 0;
}

function renderSeatControls() {
  const viewer = state.snap.viewer;
  // R-SHOW-3's "muck losing hands", for a seated player; read when the next hand is dealt.
  autoMuck.closest("label").hidden = !viewer;
  if (viewer && document.activeElement !== autoMuck) autoMuck.checked = viewer.auto_muck !== false;
  seatControls.replaceChildren();
  if (!page.player_id) {
    const link = document.createElement("a");
    link.href = `/accounts/login/?next=${encodeURIComponent(window.location.pathname)}`;
    link.textContent = "Log in to play";
    seatControls.append(link);
    return;
  }
  if (!viewer) {
    const sit = button("Sit down", () => openBuyIn({ seat: null }), "sit-down");
    const free = state.snap.seats.length < state.snap.table.seats;
    const offered = state.offer && state.offer > Date.now();
    sit.disabled = !free && !offered;
    if (sit.disabled) sit.title = "The table is full";
    seatControls.append(sit);
    // A full table keeps a waiting list; a freed seat is offered to the first in line.
    const waiting = (state.snap.waiting_list || []).find((e) => e.player_id === page.player_id);
    if (waiting) {
      const note = document.createElement("span");
      note.className = "waiting-note";
      const place = state.snap.waiting_list.indexOf(waiting) + 1;
      note.textContent = `On the waiting list (${place} of ${state.snap.waiting_list.length})`;
      seatControls.append(note, button("Leave the waiting list", () => send({ type: "leave_waiting_list" }), "leave-waiting-list"));
    } else if (!free) {
      seatControls.append(button("Join the waiting list", () => send({ type: "join_waiting_list" }), "join-waiting-list"));
    }
    return;
  }
  const seat = state.snap.seats.find((s) => s.number === viewer.seat);
  const dealtIn = state.hand && !state.hand.is_over &&
    state.hand.seats.some((s) => s.seat === viewer.seat);
  const add = button("Add chips", () => openBuyIn({ add: true }), "add-chips");
  add.disabled = Boolean(dealtIn);
  if (dealtIn) add.title = "Between hands only";
  const sitting = seat && seat.sitting_out;
  const toggle = button(sitting ? "Sit in" : "Sit out", () => send({ type: sitting ? "sit_in" : "sit_out" }), "sit-toggle");
  const leave = button("Leave table", () => send({ type: "leave" }), "leave");
  seatControls.append(add, toggle, leave);
}

function button(text, onClick, className) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (className) b.className = className;
  b.addEventListener("click", onClick);
  return b;
}

function renderSide() {
  const snap = state.snap;
  const names = new Map(snap.seats.map((s) => [s.number, s.name]));
  lastHandsList.replaceChildren(
    ...snap.last_hands.map((h) => {
      const li = document.createElement("li");
      const link = document.createElement("a");
      link.href = `/hands/${h.id}/`;
      link.textContent = `Hand #${h.number}`;
      const winners = h.winners.map((w) => names.get(w) || `seat ${w}`).join(", ");
      li.append(link, ` · pot ${dollars(h.pot)}${winners ? ` · ${winners}` : ""}`);
      return li;
    }),
  );
  if (!snap.last_hands.length) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = "No hand finished yet.";
    lastHandsList.append(li);
  }
  const notes = state.hand ? state.hand.notes : [];
  logList.replaceChildren(...notes.slice(-12).map((text) => {
    const li = document.createElement("li");
    li.textContent = text;
    return li;
  }));
}

// The countdown runs between frames.
function tick() {
  const hand = state.hand;
  const clock = (state.snap ? state.snap.table.action_clock : 10) * 1000;
  for (const text of felt.querySelectorAll("[data-countdown]")) {
    const left = state.deadline ? Math.max(0, state.deadline - Date.now()) : 0;
    text.textContent = state.deadline ? `${Math.ceil(left / 1000)}s` : "";
    const bar = text.parentElement.querySelector(".bar");
    bar.style.width = `${state.deadline ? (100 * left) / clock : 0}%`;
    text.parentElement.classList.toggle("low", left < 3000);
  }
  if (hand && state.anteDeadline && state.anteDeadline < Date.now() - 1000) {
    state.anteDeadline = null;
    queueRender();
  }
}
setInterval(tick, 200);

// Winners' chips leave the middle for their seats.
function flyChips(award, before) {
  const centre = felt.querySelector(".pots");
  const seat = felt.querySelector(`.seat[data-seat="${award.seat}"]`);
  if (!centre || !seat || !before || window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const from = centre.getBoundingClientRect();
  const to = seat.getBoundingClientRect();
  const chips = chipStack(award.amount, { label: false });
  chips.classList.add("flying");
  chips.style.left = `${from.left + from.width / 2}px`;
  chips.style.top = `${from.top + from.height / 2}px`;
  document.body.append(chips);
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  chips.animate(
    [{ transform: "translate(0, 0)", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px)`, opacity: 0.2 }],
    { duration: 700, easing: "ease-in" },
  ).finished.then(() => chips.remove(), () => chips.remove());
}

// --- the player's other controls ------------------------------------------------------------

async function refreshBalance() {
  if (!page.player_id) return page.balance;
  try {
    const response = await fetch("/tables/balance.json", { headers: { Accept: "application/json" } });
    if (response.ok) page.balance = (await response.json()).balance;
  } catch {
    // Offline: keep the last known balance.
  }
  $("[data-balance]").textContent = dollars(page.balance);
  return page.balance;
}

async function openBuyIn({ seat = null, add = false }) {
  const table = state.snap.table;
  const balance = await refreshBalance();
  const form = dialog.querySelector("form");
  const amount = form.elements.amount;
  const min = add ? 1 : table.buy_in;
  dialog.querySelector("[data-dialog-title]").textContent = add ? "Add chips" : `Buy in${seat ? ` at seat ${seat}` : ""}`;
  dialog.querySelector("[data-dialog-help]").textContent = add
    ? `Your balance is ${dollars(balance)}.`
    : `At least ${dollars(table.buy_in)}, at most your balance of ${dollars(balance)}.`;
  dialog.querySelector("[data-dialog-error]").textContent = "";
  form.elements.submit.textContent = add ? "Add chips" : "Sit down";
  amount.value = (Math.min(Math.max(min, add ? table.buy_in : table.buy_in), balance) / 100).toFixed(2);
  form.onsubmit = (event) => {
    event.preventDefault();
    const cents = parseDollars(amount.value);
    let error = "";
    if (cents === null) error = "Type an amount such as 20.00";
    else if (cents < min) error = `At least ${dollars(min)}.`;
    else if (cents > balance) error = `Your balance is ${dollars(balance)}.`;
    if (error) {
      dialog.querySelector("[data-dialog-error]").textContent = error;
      return;
    }
    if (add) send({ type: "add_chips", amount: cents });
    else send({ type: "sit", buy_in: cents, ...(seat ? { seat } : {}) });
    dialog.close();
  };
  dialog.showModal();
  amount.select();
}

dialog.querySelector("[data-dialog-cancel]").addEventListener("click", () => dialog.close());

function addChat(frame) {
  const li = document.createElement("li");
  const who = document.createElement("strong");
  who.textContent = `${frame.name}: `;
  // The server escaped the text for HTML; decode it for a text node (never innerHTML).
  const text = new DOMParser().parseFromString(frame.text, "text/html").documentElement.textContent;
  li.append(who, text);
  chatList.append(li);
  while (chatList.children.length > 60) chatList.firstElementChild.remove();
  chatList.scrollTop = chatList.scrollHeight;
}

chatForm?.addEventListener("submit", (event) => {
  event.preventDefault();
  const input = chatForm.elements.text;
  const text = input.value.trim();
  if (!text) return;
  send({ type: "chat", text: text.slice(0, 200) });
  input.value = "";
});

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || dialog.open) return;
  if (event.target.closest("input, textarea, select")) return;
  const key = event.key.toUpperCase();
  const target = actionsBar.querySelector(`button[data-key="${key}"]:not([disabled])`);
  if (target) {
    event.preventDefault();
    target.click();
  }
});

let toastTimer = null;
function showToast(text) {
  toast.textContent = text;
  toast.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { toast.hidden = true; }, 5000);
}

function setFourColour(on) {
  root.classList.toggle("four-colour", on);
  fourColour.checked = on;
}
fourColour.addEventListener("change", () => setFourColour(fourColour.checked));
autoMuck.addEventListener("change", () => {
  if (send({ type: "auto_muck", on: autoMuck.checked }) === null && state.snap && state.snap.viewer) {
    autoMuck.checked = state.snap.viewer.auto_muck;
  }
});
setFourColour(page.four_colour_deck);

window.addEventListener("online", () => {
  if (socket && socket.readyState === WebSocket.CLOSED) {
    clearTimeout(reconnectTimer);
    connect();
  }
});
window.addEventListener("offline", () => setConnection("offline"));
window.addEventListener("resize", queueRender);

if (page.player_id) $("[data-balance]").textContent = dollars(page.balance);
connect();
