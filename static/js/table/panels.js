// @ts-check
// Everything around the felt, drawn from the store: the header line, the action buttons, the
// prompt (ante, show, seat offer), the seat controls, the hand's log, the last hands, the chat.
import { isMarkerLine } from "../handstate.js";
import { GAME_NAMES, amount, stakesText } from "../money.js";
import { monotonicNow, wallTimeOf } from "./clock.js";
import { streetName, waitingText } from "./felt.js";

export const SHORTCUTS = { fold: "F", check: "C", call: "C", bring_in: "B" };
// The first aggressive offer (complete, bet or raise) is R, the second size of R-BET-2's pair T.
const AGGRESSIVE_KEYS = ["R", "T"];
// A show offer is still drawn this long after its deadline (the next deal takes it away).
const SHOW_OFFER_GRACE_MS = 500;
export const CHAT_LINES = 60;
// Where an earlier version kept this browser's mutes (ids); moved to the account once.
const LEGACY_MUTED_KEY = "stud-room-muted";

export function legacyMutedPlayers() {
  try {
    const ids = JSON.parse(window.localStorage.getItem(LEGACY_MUTED_KEY) || "[]");
    window.localStorage.removeItem(LEGACY_MUTED_KEY);
    return Array.isArray(ids) ? ids.filter((id) => Number.isInteger(id) && id > 0) : [];
  } catch {
    return [];
  }
}

export function headerText(store) {
  const table = store.snap.table;
  const stakes = `${table.game_label || GAME_NAMES[table.game] || table.game} · ${stakesText(table)} · ante ${amount(table.ante)}` +
    ` · bring-in ${amount(table.bring_in)}`;
  const hand = store.hand;
  // The hand's id: the number its history, download and PokerStars text give it.
  const number = hand && store.handId
    ? `Hand #${store.handId}${hand.is_over ? " (over)" : ` · ${streetName(hand.street)}`}`
    : waitingText(store.snap);
  return { stakes, number };
}

export function actionLabel(offer, offers) {
  const sameKind = offers.filter((o) => o.kind === offer.kind);
  const size = sameKind.length > 1
    ? (offer.amount === Math.min(...sameKind.map((o) => o.amount)) ? " (small)" : " (big)")
    : "";
  switch (offer.kind) {
    case "fold": return "Fold";
    case "check": return "Check";
    case "call": return `Call ${amount(offer.adds)}`;
    case "bring_in": return `Bring in ${amount(offer.amount)}`;
    case "complete": return `Complete to ${amount(offer.amount)}`;
    case "bet": return `Bet ${amount(offer.amount)}${size}`;
    case "raise": return `Raise to ${amount(offer.amount)}${size}`;
    default: return offer.kind;
  }
}

// The offers the viewer may click now, each with its label and key.
export function offerButtons(store) {
  const hand = store.hand;
  const me = store.mySeat();
  const offers = hand && !hand.is_over && hand.to_act === me && me !== null ? hand.legal_actions : [];
  let aggressive = 0;
  return offers.map((offer) => {
    let key = SHORTCUTS[offer.kind];
    if (!key) {
      key = AGGRESSIVE_KEYS[Math.min(aggressive, AGGRESSIVE_KEYS.length - 1)];
      aggressive += 1;
    }
    return { offer, key, label: actionLabel(offer, offers) };
  });
}

// Pre-actions for the coming turn, in the order drawn: [kind, label].
export const PRE_ACTIONS = [["check_fold", "Check/Fold"], ["check", "Check"], ["call_any", "Call any"]];

// The closed banner of a tournament table (merged into the final table, or the tournament
// is over): tournament chips never go to a balance; it says where the player was moved.
export function tournamentClosedText(tournament, playerId) {
  const mine = tournament && playerId
    ? tournament.standings.find((s) => s.player_id === playerId) : null;
  if (mine && mine.table_id) {
    return `This table is closed. You were moved to table ${mine.table}, seat ${mine.seat}.`;
  }
  if (tournament && tournament.over) return "This table is closed: the tournament is over.";
  return "This table is closed. Its players were moved to another table of the tournament.";
}

export function button(text, onClick, className) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (className) b.className = className;
  b.addEventListener("click", onClick);
  return b;
}

// What each panel was last drawn from.
const drawn = new WeakMap();

// Redraws `element` with build() only when `data` differs from the last time's.
function drawIfChanged(element, data, build) {
  const signature = JSON.stringify(data);
  if (drawn.get(element) === signature) return;
  drawn.set(element, signature);
  build();
}

// The hand's log, the whole hand (docs/browser.md "This hand"): the dealer's lines, the
// street and showdown markers drawn as such. It scrolls; a new line brings it to the bottom
// unless the player scrolled up to read.
export function renderLog(log, hand) {
  const notes = hand ? hand.notes : [];
  drawIfChanged(log, { notes }, () => {
    const following = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
    log.replaceChildren(...logLines(notes));
    if (following) log.scrollTop = log.scrollHeight;
  });
}

// The log's lines as list items (the table's and the replayer's).
export function logLines(notes) {
  return notes.map((text) => {
    const li = document.createElement("li");
    li.textContent = text;
    if (isMarkerLine(text)) li.className = "marker";
    return li;
  });
}

export class Panels {
  // elements: {closed, stakes, handNumber, actions, preActions, prompt, seatControls, autoMuck, lastHands, log, chat};
  // on: {act(offer), preAct(kind), send(message), buyIn({seat, add}), leave()}.
  /**
   * @param {any} elements
   * @param {{page: any, on: {
   *   act: (offer: any) => void,
   *   preAct: (kind: string) => void,
   *   send: import("./connection.js").SendCommand,
   *   buyIn: (options: {seat?: number, add?: boolean}) => void,
   *   leave: () => void,
   * }}} options
   */
  constructor(elements, { page, on }) {
    this.el = elements;
    this.page = page;
    this.on = on;
    this.tournament = null; // a tournament table's tournament, its last snapshot
    this.muted = new Set(); // whose chat the player muted: the account's, from the snapshot
  }

  render(store) {
    this.renderClosed(store);
    const header = headerText(store);
    this.el.stakes.textContent = header.stakes;
    this.el.handNumber.textContent = header.number;
    this.renderActions(store);
    this.renderPreActions(store);
    this.renderPrompt(store);
    this.renderSeatControls(store);
    this.renderSide(store);
  }

  renderActions(store) {
    const bar = this.el.actions;
    const offers = offerButtons(store);
    drawIfChanged(bar, { offers, acting: store.acting }, () => {
      // A redraw during the turn (the offers of a later frame) keeps the keyboard's place:
      // the focus goes to the same action again, not to the page's body.
      const focused = bar.contains(document.activeElement) ? /** @type {HTMLElement} */ (document.activeElement).dataset.key : null;
      bar.replaceChildren();
      bar.hidden = offers.length === 0;
      for (const { offer, key, label } of offers) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = `act act-${offer.kind}`;
        b.dataset.key = key;
        b.setAttribute("aria-keyshortcuts", key);
        b.append(label);
        const kbd = document.createElement("kbd");
        kbd.textContent = key;
        kbd.setAttribute("aria-hidden", "true");
        b.append(kbd);
        b.disabled = store.acting;
        b.addEventListener("click", () => this.on.act(offer));
        bar.append(b);
      }
      if (focused) {
        const again = bar.querySelector(`button[data-key="${focused}"]:not([disabled])`)
          || bar.querySelector("button:not([disabled])");
        if (again) again.focus();
      }
    });
  }

  // The banner of a closed table: what became of the seats, and the way back to the lobby.
  renderClosed(store) {
    const banner = this.el.closed;
    const closed = store.isClosed();
    const playing = closed && store.mySeat() !== null;
    const text = closed && store.snap.table.is_tournament
      ? tournamentClosedText(this.tournament, this.page.player_id)
      : playing
        ? "This table is closed. The hand in play finishes, then your chips go back to your balance."
        : "This table is closed. Every seat was cashed out: chips went back to their players' balances.";
    drawIfChanged(banner, { closed, text }, () => {
      banner.hidden = !closed;
      banner.querySelector("[data-closed-text]").textContent = text;
    });
  }

  // The pre-action toggles while another player is to act; the chosen one is pressed.
  renderPreActions(store) {
    const bar = this.el.preActions;
    const open = store.preActionsOpen();
    const chosen = open && store.preAction ? store.preAction.kind : null;
    const noCheck = open && store.checkClosed();
    drawIfChanged(bar, { open, chosen, noCheck }, () => {
      bar.hidden = !open;
      bar.replaceChildren(...(open ? PRE_ACTIONS : []).map(([kind, label]) => {
        const b = button(label, () => this.on.preAct(kind), `pre pre-${kind}`);
        b.setAttribute("aria-pressed", String(kind === chosen));
        if (kind === "check" && noCheck) {
          b.disabled = true;
          b.title = "Nothing to check: there is a bet to call";
        }
        return b;
      }));
    });
  }

  renderPrompt(store, now = monotonicNow()) {
    const viewer = store.snap.viewer;
    const hand = store.hand;
    // R-ANTE-1: asked for "I'm in", between hands; counting down to the next hand, or (no
    // deadline) the table waits for this player. A tournament deals in everyone with chips:
    // no ante to confirm.
    const anteDue = Boolean(viewer && !store.snap.table.is_tournament && store.anteAsked &&
      !(hand && !hand.is_over));
    const anteTimed = anteDue && store.anteDeadline !== null;
    const show = store.showOffer;
    const showDue = Boolean(show && show.handId === store.handId &&
      (show.until === null || show.until > now - SHOW_OFFER_GRACE_MS));
    const offerDue = Boolean(store.offer !== null && store.offer > now && !viewer);
    const offerUntil = offerDue ? wallTimeOf(store.offer, now).toLocaleTimeString() : null;
    const prompt = this.el.prompt;
    drawIfChanged(prompt, { anteDue, anteTimed, showDue, offerUntil, hand: show && show.handId }, () => {
      const parts = [];
      if (anteDue) {
        const text = document.createElement("span");
        text.className = "ante-question";
        text.textContent = anteTimed
          ? "Post the ante for the next hand?"
          : "The table is waiting for you: post the ante to deal the next hand.";
        parts.push(text);
        if (anteTimed) {
          // clock.js counts it down between frames
          const countdown = document.createElement("span");
          countdown.className = "ante-countdown";
          countdown.dataset.anteCountdown = "";
          countdown.setAttribute("aria-label", "seconds left to say I'm in");
          parts.push(countdown);
        }
        parts.push(button("I'm in", () => this.on.send({ type: "im_in" }), "im-in"));
      }
      if (showDue) {
        // R-SHOW-3: nobody called; the winner may show until the next hand is dealt.
        const text = document.createElement("span");
        text.textContent = "You won without a call: show your cards?";
        const handId = show.handId;
        parts.push(text, button("Show cards", () => this.on.send({ type: "show", hand_id: handId }), "show-cards"));
      }
      if (offerDue) {
        const text = document.createElement("span");
        text.className = "seat-offer";
        text.textContent = `A seat is free for you, held until ${offerUntil}.`;
        parts.push(text, button("Take the seat", () => this.on.buyIn({ seat: null })));
      }
      prompt.replaceChildren(...parts);
      prompt.hidden = parts.length === 0;
    });
  }

  renderSeatControls(store, now = monotonicNow()) {
    const viewer = store.snap.viewer;
    const autoMuck = this.el.autoMuck;
    // R-SHOW-3's "muck losing hands", for a seated player; read when the next hand is dealt.
    autoMuck.closest("label").hidden = !viewer;
    if (viewer && document.activeElement !== autoMuck) autoMuck.checked = viewer.auto_muck !== false;
    const controls = this.el.seatControls;
    const snap = store.snap;
    const send = (/** @type {import("./commands.js").TableCommand} */ message) => () => this.on.send(message);
    if (!this.page.player_id) {
      drawIfChanged(controls, { visitor: true }, () => {
        const link = document.createElement("a");
        link.href = `/accounts/login/?next=${encodeURIComponent(window.location.pathname)}`;
        link.textContent = "Log in to play";
        controls.replaceChildren(link);
      });
      return;
    }
    if (snap.table.is_tournament) {
      this.renderTournamentControls(store);
      return;
    }
    if (!viewer && store.isClosed()) {
      drawIfChanged(controls, { closed: true }, () => controls.replaceChildren());
      return;
    }
    if (!viewer) {
      const free = snap.seats.length < snap.table.seats;
      const offered = store.offer !== null && store.offer > now;
      const list = snap.waiting_list || [];
      const waiting = list.find((e) => e.player_id === this.page.player_id);
      const place = waiting ? list.indexOf(waiting) + 1 : null;
      drawIfChanged(controls, { free, offered, place, of: list.length }, () => {
        const sit = button("Sit down", () => this.on.buyIn({ seat: null }), "sit-down");
        sit.disabled = !free && !offered;
        if (sit.disabled) sit.title = "The table is full";
        controls.replaceChildren(sit);
        // A full table keeps a waiting list; a freed seat is offered to the first in line.
        if (waiting) {
          const note = document.createElement("span");
          note.className = "waiting-note";
          note.textContent = `On the waiting list (${place} of ${list.length})`;
          controls.append(note, button("Leave the waiting list", send({ type: "leave_waiting_list" }), "leave-waiting-list"));
        } else if (!free) {
          controls.append(button("Join the waiting list", send({ type: "join_waiting_list" }), "join-waiting-list"));
        }
      });
      return;
    }
    const seat = snap.seats.find((s) => s.number === viewer.seat);
    const dealtIn = Boolean(store.hand && !store.hand.is_over &&
      store.hand.seats.some((s) => s.seat === viewer.seat));
    const sitting = Boolean(seat && seat.sitting_out);
    drawIfChanged(controls, { dealtIn, sitting }, () => {
      const add = button("Add chips", () => this.on.buyIn({ add: true }), "add-chips");
      add.disabled = dealtIn;
      if (dealtIn) add.title = "Between hands only";
      // R-SIT-1: sitting out (or in) counts from the next hand; the button says which.
      const [label, title] = sitting
        ? (dealtIn
          ? ["Play next hand", "You are dealt in again from the next hand"]
          : ["Sit in", "You are dealt in from the next hand"])
        : (dealtIn
          ? ["Sit out next hand", "You play this hand to its end and are not dealt the next"]
          : ["Sit out", "You are not dealt in until you sit in"]);
      const toggle = button(label, send({ type: sitting ? "sit_in" : "sit_out" }), "sit-toggle");
      toggle.title = title;
      const leave = button("Leave table", () => this.on.leave(), "leave");
      controls.replaceChildren(add, toggle, leave);
    });
  }

  // At a tournament table the seat is the tournament's: no sitting down, adding chips or
  // leaving (the player is dealt in until out). The add-on is offered in the tournament's
  // bar (static/js/tournament/table_panel.js). `this.tournament`: its last snapshot.
  renderTournamentControls(store) {
    const viewer = store.snap.viewer;
    const t = this.tournament;
    const controls = this.el.seatControls;
    const id = t ? t.id : null;
    const name = t ? t.name : "";
    drawIfChanged(controls, { tournament: true, seated: Boolean(viewer), id, name }, () => {
      const parts = [];
      const note = document.createElement("span");
      note.className = "waiting-note";
      note.textContent = viewer
        ? "Tournament seat: you are dealt in every hand until you are out."
        : "A tournament table: seats are drawn by the tournament.";
      parts.push(note);
      if (id) {
        const link = document.createElement("a");
        link.href = `/tournaments/${id}/`;
        link.textContent = `${name}: lobby`;
        parts.push(link);
      }
      controls.replaceChildren(...parts);
    });
  }

  renderSide(store) {
    const snap = store.snap;
    const names = new Map(snap.seats.map((s) => [s.number, s.name]));
    const lastHands = snap.last_hands.map((h) => ({
      id: h.id, pot: h.pot,
      winners: (h.winner_names || h.winners.map((w) => names.get(w) || `seat ${w}`)).join(", "),
    }));
    const list = this.el.lastHands;
    drawIfChanged(list, lastHands, () => {
      list.replaceChildren(...lastHands.map((h) => {
        const li = document.createElement("li");
        const link = document.createElement("a");
        link.href = `/hands/${h.id}/`;
        link.textContent = `Hand #${h.id}`;
        li.append(link, ` · pot ${amount(h.pot)}${h.winners ? ` · ${h.winners}` : ""}`);
        return li;
      }));
      if (!lastHands.length) {
        const li = document.createElement("li");
        li.className = "muted";
        li.textContent = "No hand finished yet.";
        list.append(li);
      }
    });
    renderLog(this.el.log, store.hand);
  }

  // The chat's lines again (a snapshot's kept messages), muted players' left out. `muted`:
  // the account's mutes; any this browser kept itself before are moved to the account.
  setChat(messages, muted = []) {
    this.muted = new Set(muted);
    if (this.page.player_id) {
      for (const id of legacyMutedPlayers()) {
        if (id !== this.page.player_id && !this.muted.has(id)) {
          this.muted.add(id);
          this.on.send({ type: "mute", player_id: id, on: true });
        }
      }
    }
    this.el.chat.replaceChildren();
    for (const frame of messages) this.addChat(frame, { scroll: false });
    this.el.chat.scrollTop = this.el.chat.scrollHeight;
  }

  addChat(frame, { scroll = true } = {}) {
    const chat = this.el.chat;
    const li = document.createElement("li");
    li.dataset.player = frame.player_id;
    li.hidden = this.muted.has(frame.player_id);
    if (frame.at) {
      const at = new Date(frame.at);
      const time = document.createElement("time");
      time.dateTime = frame.at;
      time.className = "chat-time";
      time.textContent = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      li.append(time, " ");
    }
    const who = document.createElement("strong");
    who.textContent = `${frame.name}: `;
    // The server escaped the text for HTML; decode it for a text node (never innerHTML).
    const text = new DOMParser().parseFromString(frame.text, "text/html").documentElement.textContent;
    li.append(who, text);
    if (this.page.player_id && frame.player_id !== this.page.player_id) {
      const mute = button("Mute", () => this.mute(frame.player_id, frame.name, true), "chat-mute link");
      mute.setAttribute("aria-label", `Mute ${frame.name}`);
      li.append(" ", mute);
    }
    chat.append(li);
    while (chat.children.length > CHAT_LINES) chat.firstElementChild.remove();
    if (scroll) chat.scrollTop = chat.scrollHeight;
  }

  // Mute (or unmute) a player's chat, on the account (every table and device): their lines
  // are hidden at once, and one line says so with the way back.
  mute(playerId, name, on) {
    if (this.on.send({ type: "mute", player_id: playerId, on }) === null) return; // offline
    if (on) this.muted.add(playerId);
    else this.muted.delete(playerId);
    const chat = this.el.chat;
    for (const li of chat.querySelectorAll(`li[data-player="${playerId}"]`)) li.hidden = on;
    chat.querySelector(`li.chat-muted[data-muted="${playerId}"]`)?.remove();
    if (on) {
      const note = document.createElement("li");
      note.className = "chat-muted muted";
      note.dataset.muted = playerId;
      note.append(`You muted ${name}. `, button("Unmute", () => this.mute(playerId, name, false), "chat-unmute link"));
      chat.append(note);
    }
  }
}
