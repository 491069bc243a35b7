// @ts-check
// The live table page: wires the modules of static/js/table/ together. The server is the
// authority (docs/protocol.md): frames from the connection (connection.js) feed the store
// (store.js, pure: the hand, the seats, (hand_id, seq), the deadlines); the store answers with
// effects (ask for a snapshot, fly the chips, a message) carried out here; the views draw the
// store once per animation frame (felt.js: the seats, bets and pots, each redrawn only when it
// changed; panels.js: the buttons and lists around it); clock.js runs the countdowns between
// frames; dialogs.js holds the buy-in dialog and the toast. docs/browser.md tells the story.
import { amount, dollars, useChipUnits } from "./money.js";
import { ANTE_GRACE_MS, TICK_MS, drawAnteCountdown, drawCountdowns, monotonicNow } from "./table/clock.js";
import { TableConnection } from "./table/connection.js";
import { BuyInDialog, ConfirmDialog, Toast, followBalance, refreshBalance } from "./table/dialogs.js";
import { Announcer } from "./table/announcer.js";
import { FeltView } from "./table/felt.js";
import {
  clockWarning, narrateEvent, readMyCards, readPot, readSeat, readTime, timeBankLine, yourTurn,
} from "./table/narration.js";
import { Panels } from "./table/panels.js";
import { RealityCheckView } from "./table/reality_check.js";
import { Sounds } from "./table/sounds.js";
import { ACT_REPLY_WAIT_MS, TableStore } from "./table/store.js";
import { startTournamentPanel } from "./tournament/table_panel.js";

const CHAT_MAX_CHARS = 200;
const STATUS_TEXT = {
  connecting: "Connecting…",
  online: "Connected",
  offline: "Offline: reconnecting…",
  gone: "This table no longer exists.",
};

const page = JSON.parse(document.getElementById("table-page").textContent);
// A tournament table counts chips, not dollars (R-TOUR-1): set before anything is drawn.
useChipUnits(Boolean(page.is_tournament));
const root = /** @type {HTMLElement} */ (document.querySelector("[data-room]"));
const $ = (selector) => root.querySelector(selector);
const felt = $("[data-felt]");
const statusLine = $("[data-connection]");
const offlineBanner = $("[data-offline]");
const chatForm = $("[data-chat-form]");
const fourColour = $("[data-four-colour]");
const autoMuck = $("[data-auto-muck]");
const actionsBar = $("[data-actions]");
const balanceShown = $("[data-balance]");
const promptPanel = $("[data-prompt]");
const soundsSwitch = $("[data-sounds]");

// The screen reader's narration (issue #27): the dealer's lines from each event the store
// applies (never a snapshot: nothing is said twice on a reload or a reconnect).
const announcer = new Announcer({
  polite: $("[data-narration]"),
  urgent: $("[data-narration-urgent]"),
  detail: $("[data-narration-detail]"),
  clock: $("[data-narration-clock]"),
});
const MONEY = { money: amount };
function narrate(before, frame, after) {
  if (frame.kind === "hand_start") announcer.clear();
  const options = { viewerSeat: store.mySeat(), detail: announcer.detail, ...MONEY };
  for (const line of narrateEvent(before, frame, after, options)) announcer.say(line);
}
const store = new TableStore({ playerId: page.player_id, onApplied: narrate });
const toast = new Toast($("[data-toast]"));
// Issue #26: the player's session so far, at a hand's end (never during a turn).
const realityCheckPanel = $("[data-reality-check]");
const realityCheck = realityCheckPanel
  ? new RealityCheckView(realityCheckPanel, { say: (text) => announcer.say({ text }) })
  : null;
const sounds = new Sounds(root);
soundsSwitch.checked = sounds.on;
soundsSwitch.addEventListener("change", () => sounds.setOn(soundsSwitch.checked));
const scheme = window.location.protocol === "https:" ? "wss" : "ws";
const connection = new TableConnection({
  url: `${scheme}://${window.location.host}/ws/tables/${page.table_id}/`,
  onFrame: (frame) => {
    const turnBefore = myTurnKey();
    run(store.receive(frame, monotonicNow(), Date.now()));
    announceTurn(frame, turnBefore);
    queueRender();
  },
  onStatus: setConnection,
  onOpening: () => store.connecting(),
  position: () => store.position(),
});

// The player's own turn with its offers, or null: said once per turn.
function myTurnKey() {
  const hand = store.hand;
  const mine = hand && !hand.is_over && hand.to_act !== null && hand.to_act === store.mySeat() &&
    hand.legal_actions.length > 0;
  return mine ? `${store.handId}:${store.seq}` : null;
}

let focusBefore = null;
// The focus's move of a turn's start or end, made by the render that draws the action bar
// (never before it: the bar it moves to may not be drawn yet).
let focusWanted = null;
let turnSaid = null;
function announceTurn(frame, turnBefore) {
  const now = monotonicNow();
  const turn = myTurnKey();
  if (frame.type === "time_bank" && store.timeBankMs && store.hand && store.deadline !== null) {
    announcer.say(timeBankLine(store.deadline - now, store.hand.to_act === store.mySeat()));
  }
  if (turn && turn !== turnBefore && turn !== turnSaid) {
    turnSaid = turn;
    warnedSecond = null;
    announcer.say(yourTurn(store.hand, store.mySeat(), store.deadline === null ? null : store.deadline - now, MONEY));
    focusWanted = focusActions;
  } else if (!turn && turnBefore) {
    focusWanted = focusBack;
  }
}

// Focus goes to the action bar on the player's turn, and back after; never away from a
// field being typed in (the chat).
function typing() {
  return Boolean(document.activeElement && document.activeElement.closest("input, textarea, select"));
}
function focusActions() {
  if (typing()) return;
  const first = actionsBar.querySelector("button:not([disabled])");
  if (!first) return;
  if (!actionsBar.contains(document.activeElement)) focusBefore = document.activeElement;
  first.focus();
}
function focusBack() {
  const back = focusBefore;
  focusBefore = null;
  if (typing() || !actionsBar.contains(document.activeElement) && document.activeElement !== document.body) return;
  if (back && back.isConnected && back !== document.body) back.focus();
  else $("[data-felt]").focus();
}

/** @type {import("./table/connection.js").SendCommand} */
function send(message) {
  const ref = connection.send(message);
  if (ref === null) toast.show("Offline: that did not reach the table.");
  return ref;
}

const balance = () => refreshBalance(page, balanceShown);
const dialog = new BuyInDialog(document.querySelector("[data-buy-in]"), { send, balance });
const confirmDialog = new ConfirmDialog(document.querySelector("[data-confirm]"));
const buyIn = (options) => dialog.show(store.snap.table, options);
const feltView = new FeltView(felt, { page, onSit: (seat) => buyIn({ seat }) });
const panels = new Panels(
  {
    closed: $("[data-closed]"),
    stakes: $("[data-stakes]"),
    handNumber: $("[data-hand-number]"),
    actions: actionsBar,
    preActions: $("[data-pre-actions]"),
    prompt: promptPanel,
    seatControls: $("[data-seat-controls]"),
    autoMuck,
    lastHands: $("[data-last-hands]"),
    log: $("[data-log]"),
    chat: $("[data-chat-list]"),
  },
  { page, on: { act: choose, preAct, send, buyIn, leave } },
);
// A tournament table: the level clock, the add-on, the break banner, the moved and out notices.
if (page.is_tournament) {
  startTournamentPanel({ root, page, panels, onChange: () => queueRender(), say: (text) => toast.show(text) });
}

// The store's effects: what it cannot do itself (it has no socket, timer or DOM).
function run(effects) {
  for (const effect of effects) {
    switch (effect.type) {
      case "snapshot":
        if (connection.requestSnapshot(() => run(store.snapshotOverdue())) === null) {
          toast.show("Offline: that did not reach the table.");
        }
        break;
      case "snapshot_later":
        setTimeout(() => run(store.needSnapshot()), effect.delay);
        break;
      case "check_viewer":
        setTimeout(() => run(store.viewerOverdue()), effect.delay);
        break;
      case "check_offers":
        setTimeout(() => run(store.offersOverdue(effect.seq)), effect.delay);
        break;
      case "resend_act":
        setTimeout(() => sendAct(store.actResend(effect.ref)), effect.delay);
        break;
      case "pre_act":
        act(effect.offer);
        break;
      case "sound":
        sounds.play(effect.name);
        break;
      case "fly_chips":
        feltView.flyChips(effect.award);
        break;
      case "refresh_balance":
        balance();
        break;
      case "auto_muck_saved":
        store.setAutoMuck(autoMuck.checked);
        break;
      case "auto_muck_refused":
        autoMuck.checked = effect.on;
        break;
      case "chat":
        panels.addChat(effect.frame);
        break;
      case "reality_check":
        if (realityCheck) realityCheck.show(effect.frame);
        break;
      case "chat_history":
        panels.setChat(effect.messages, effect.muted);
        break;
      case "toast":
        toast.show(effect.text);
        break;
      default:
        break;
    }
  }
}

function act(offer) {
  const message = store.act(offer);
  if (message === null) return;
  if (!sendAct(message)) store.actNotSent();
  queueRender();
}

// An action sent (again, same seq, when `internal` or no answer came: actions are idempotent)
// until it is answered; false when the socket is not open.
/** @param {import("./table/commands.js").ActCommand | null} message */
function sendAct(message) {
  if (message === null) return true;
  const ref = send(message);
  if (ref === null) return false;
  store.actSent(message, ref);
  setTimeout(() => sendAct(store.actResend(ref)), ACT_REPLY_WAIT_MS);
  return true;
}

// A click on an offer. Folding when checking is free asks first (the player's setting).
async function choose(offer) {
  const hand = store.hand;
  const free = Boolean(hand && hand.legal_actions.some((o) => o.kind === "check"));
  if (offer.kind === "fold" && free && page.confirm_free_fold) {
    const seq = store.seq;
    const fold = await confirmDialog.ask("Nobody has bet: you can check for free. Fold anyway?", "Fold");
    if (!fold || store.seq !== seq) return;
  }
  act(offer);
}

// "Leave table": with chips on the table, asks first.
async function leave() {
  const viewer = store.snap ? store.snap.viewer : null;
  const seat = viewer ? store.snap.seats.find((s) => s.number === viewer.seat) : null;
  const inHand = store.mySeatInHand();
  const playing = Boolean(inHand && !store.hand.is_over && inHand.status !== "folded");
  const chips = inHand && !store.hand.is_over ? inHand.stack : seat ? seat.stack : 0;
  if (chips > 0 || playing) {
    const text = `Leave the table? Your ${dollars(chips)} in chips go back to your balance` +
      `${playing ? ", and your hand is folded" : ""}.`;
    if (!(await confirmDialog.ask(text, "Leave table"))) return;
  }
  send({ type: "leave" });
}

function preAct(kind) {
  store.setPreAction(kind);
  queueRender();
}

function setConnection(mode) {
  root.dataset.connection = mode;
  const text = STATUS_TEXT[mode];
  statusLine.textContent = text;
  offlineBanner.hidden = mode === "online" || mode === "connecting";
  offlineBanner.textContent = text;
}

let renderQueued = false;
function queueRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    render();
  });
}

function render() {
  if (!store.snap) return;
  feltView.render(store);
  panels.render(store);
  const move = focusWanted;
  focusWanted = null;
  if (move) move();
  tick();
}

// Between frames: the countdowns run, a passed ante prompt goes.
// The last 3 s of the viewer's own clock tick, once a second.
const TICK_SOUND_FROM_MS = 3_000;
let lastTickSecond = null;
let warnedSecond = null; // the last second of the player's clock warned about (narration)

function tick() {
  const now = monotonicNow();
  drawCountdowns(felt, store, now);
  drawAnteCountdown(promptPanel, store, now);
  const hand = store.hand;
  const mine = hand && !hand.is_over && store.deadline !== null && hand.to_act === store.mySeat();
  const left = mine ? store.deadline - now : null;
  if (left !== null && left > 0 && left <= TICK_SOUND_FROM_MS) {
    const second = Math.ceil(left / 1000);
    if (second !== lastTickSecond) {
      lastTickSecond = second;
      sounds.play("tick");
    }
  } else {
    lastTickSecond = null;
  }
  if (left !== null && left > 0) {
    const warning = clockWarning(Math.ceil(left / 1000), warnedSecond, announcer.clock);
    if (warning) {
      warnedSecond = Math.ceil(left / 1000);
      announcer.say(warning);
    }
  }
  if (store.expire(now, ANTE_GRACE_MS)) queueRender();
}
setInterval(tick, TICK_MS);

chatForm?.addEventListener("submit", (event) => {
  event.preventDefault();
  const input = chatForm.elements.text;
  const text = input.value.trim();
  if (!text) return;
  send({ type: "chat", text: text.slice(0, CHAT_MAX_CHARS) });
  input.value = "";
});

const keysHelp = /** @type {HTMLDialogElement} */ (document.querySelector("[data-keys-help]"));
$("[data-keys-help-open]").addEventListener("click", () => keysHelp.showModal());

// The reading keys (the help dialog lists them): the answer is spoken, politely.
function readKey(key) {
  const hand = store.hand;
  const me = store.mySeat();
  const options = { viewerSeat: me, ...MONEY };
  if (key === "H") return readMyCards(hand, me);
  if (/^[1-8]$/.test(key)) return readSeat(hand, store.snap ? store.snap.seats : [], Number(key), options);
  if (key === "P") return readPot(hand, me, MONEY);
  if (key === "L") {
    const left = store.deadline === null ? 0 : Math.max(0, store.deadline - monotonicNow());
    return readTime(hand, me, left, Boolean(store.timeBankMs));
  }
  return null;
}

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || dialog.open || confirmDialog.open) return;
  if (/** @type {Element} */ (event.target).closest("input, textarea, select")) return;
  if (keysHelp.open) return;
  if (event.key === "?") {
    event.preventDefault();
    keysHelp.showModal();
    return;
  }
  const key = event.key.toUpperCase();
  if (key === "A") {
    event.preventDefault();
    announcer.repeat();
    return;
  }
  const answer = readKey(key);
  if (answer !== null) {
    event.preventDefault();
    announcer.answer(answer);
    return;
  }
  const target = actionsBar.querySelector(`button[data-key="${key}"]:not([disabled])`);
  if (target) {
    event.preventDefault();
    target.click();
  }
});

function setFourColour(on) {
  root.classList.toggle("four-colour", on);
  fourColour.checked = on;
}
fourColour.addEventListener("change", () => setFourColour(fourColour.checked));
autoMuck.addEventListener("change", () => {
  if (send({ type: "auto_muck", on: autoMuck.checked }) === null && store.snap && store.snap.viewer) {
    autoMuck.checked = store.snap.viewer.auto_muck;
  }
});
setFourColour(page.four_colour_deck);

window.addEventListener("online", () => connection.reconnectNow());
window.addEventListener("offline", () => setConnection("offline"));
window.addEventListener("resize", queueRender);

if (page.player_id && balanceShown) {
  balanceShown.textContent = dollars(page.balance);
  // The wallet follows every change: this tab's (refresh_balance effects), the player's other
  // tabs' (followBalance), and the room's (a staff credit) whenever the tab is looked at again.
  followBalance(page, balanceShown);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") balance();
  });
  window.addEventListener("focus", () => balance());
}
connection.connect();
