// A tournament's page: its facts, clock, payouts, players and tables, redrawn from each
// snapshot the socket brings (live.js); the player's register / unregister / add-on forms;
// when the tournament starts and the player is seated, the browser goes to their table.
import { dollars, chipCount } from "../money.js";
import { TICK_MS, monotonicNow } from "../table/clock.js";
import { IN_PLAY, anteText, clockNow, limitsText, nextLevelText, ordinal, viewerEntry } from "./format.js";
import { TournamentState, connectTournament } from "./live.js";

const page = JSON.parse(document.getElementById("tournament-page").textContent);
const root = document.querySelector("[data-tournament]");
const $ = (selector) => root.querySelector(selector);
const state = new TournamentState(page.tournament, monotonicNow());
const csrf = document.querySelector("[data-csrf] input[name=csrfmiddlewaretoken]");
let seatedAt = seatOf(state.tournament);

const STATUS_TEXT = { connecting: "Connecting…", online: "Live", offline: "Offline: reconnecting…", gone: "No such tournament." };

function seatOf(tournament) {
  const mine = viewerEntry(tournament, page.player_id);
  return mine && IN_PLAY.has(tournament.status) ? mine.table_id : null;
}

function cell(text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function rowOf(...cells) {
  const tr = document.createElement("tr");
  tr.append(...cells);
  return tr;
}

function emptyRow(text, span) {
  const td = cell(text, "muted");
  td.colSpan = span;
  return rowOf(td);
}

function link(href, text) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  return a;
}

function postButton(action, text, dataName, className) {
  const form = document.createElement("form");
  form.method = "post";
  form.action = action;
  form.className = "inline";
  const token = document.createElement("input");
  token.type = "hidden";
  token.name = "csrfmiddlewaretoken";
  token.value = csrf ? csrf.value : "";
  const b = document.createElement("button");
  b.type = "submit";
  b.textContent = text;
  b.dataset[dataName] = "";
  if (className) b.className = className;
  form.append(token, b);
  return form;
}

function renderEntry(t) {
  const box = $("[data-entry]");
  const mine = viewerEntry(t, page.player_id);
  const parts = [];
  const note = (text) => {
    const p = document.createElement("p");
    p.className = "entry-note";
    p.textContent = text;
    return p;
  };
  const base = `/tournaments/${t.id}/`;
  if (mine) {
    if (mine.place) {
      parts.push(note(`You finished ${ordinal(mine.place)}${mine.prize ? `, prize ${dollars(mine.prize)}` : ""}.`));
    } else if (mine.table_id && IN_PLAY.has(t.status)) {
      const p = note("You play at ");
      p.append(link(`/tables/${mine.table_id}/`, `table ${mine.table}, seat ${mine.seat}`), ".");
      parts.push(p);
    } else {
      parts.push(note("You are registered."));
    }
    if (t.registration_open) parts.push(postButton(`${base}unregister/`, "Unregister", "unregister", "secondary"));
    if (t.add_on_open && !mine.add_on && !mine.place) {
      parts.push(postButton(`${base}add-on/`, `Add-on: ${chipCount(t.add_on_chips)} chips for ${dollars(t.add_on_price)}`, "addOn"));
    } else if (mine.add_on) {
      const s = document.createElement("span");
      s.className = "muted";
      s.textContent = "Add-on bought.";
      parts.push(s);
    }
  } else if (t.registration_open) {
    if (page.player_id) {
      const fee = t.fee ? `+${dollars(t.fee)}` : "";
      parts.push(postButton(`${base}register/`, `Register: ${dollars(t.buy_in)}${fee}`, "register"));
    } else {
      parts.push(link(`/accounts/login/?next=${encodeURIComponent(window.location.pathname)}`, "Log in to register"));
    }
  } else if (t.over) {
    const p = note(`${t.status_label}. `);
    p.append(link(`${base}results/`, "Results"));
    parts.push(p);
  } else {
    parts.push(note("Registration is closed."));
  }
  box.replaceChildren(...parts);
}

function renderFigures(t) {
  const level = t.level || t.next_level;
  const status = $("[data-status]");
  status.textContent = t.status_label;
  status.className = `status status-${t.status}`;
  $("[data-level]").textContent = t.level ? String(t.level.number) : "—";
  $("[data-limits]").textContent = limitsText(level);
  $("[data-ante]").textContent = anteText(level);
  $("[data-next-level]").textContent = nextLevelText(t);
  $("[data-players]").textContent = `${t.players_left} of ${t.entrants}`;
  $("[data-average]").textContent = t.average_stack === null ? "—" : chipCount(t.average_stack);
  $("[data-largest]").textContent = t.largest_stack === null ? "—" : chipCount(t.largest_stack);
  $("[data-pool]").textContent = dollars(t.prize_pool);
}

function renderLists(t) {
  const payouts = t.payouts.map((p) => rowOf(cell(ordinal(p.place)), cell(dollars(p.prize), "money")));
  $("[data-payouts]").replaceChildren(...(payouts.length ? payouts : [emptyRow("Set when players register.", 2)]));
  const standings = t.standings.map((s) => {
    const where = document.createElement("td");
    if (s.table_id) where.append(link(`/tables/${s.table_id}/`, `Table ${s.table}, seat ${s.seat}`));
    // Chips are chips (R-TOUR-1); a prize is money, in its own column (issue #21).
    let chips = s.chips === null ? "" : chipCount(s.chips);
    if (s.place) chips = s.place === 1 ? "won" : "out";
    const prize = s.prize ? dollars(s.prize) : "";
    const tr = rowOf(
      cell(s.rank === null ? "" : String(s.rank), "num"), cell(s.name), cell(chips, "num"),
      cell(prize, "money"), where,
    );
    if (s.place) tr.className = "out";
    if (s.player_id === page.player_id) tr.classList.add("mine");
    return tr;
  });
  $("[data-standings]").replaceChildren(...(standings.length ? standings : [emptyRow("Nobody has registered yet.", 5)]));
  const tables = t.tables.map((table) => {
    const div = document.createElement("div");
    div.className = "t-table";
    const h = document.createElement("h3");
    h.append(link(`/tables/${table.table_id}/`, `Table ${table.number}`));
    const ul = document.createElement("ul");
    for (const seat of table.seats) {
      const li = document.createElement("li");
      li.textContent = `Seat ${seat.seat} · ${seat.name} · ${chipCount(seat.stack)}`;
      ul.append(li);
    }
    div.append(h);
    if (t.triple_stud) {
      // R-MIX-1: where this table's rotation stands, in the server's words.
      const game = document.createElement("p");
      game.className = "t-game";
      game.textContent = table.game_label;
      div.append(game);
    }
    div.append(ul);
    return div;
  });
  if (!tables.length) {
    const p = document.createElement("p");
    p.className = "muted";
    p.textContent = t.over ? "No table is playing." : "Seats are drawn when it starts.";
    tables.push(p);
  }
  $("[data-tables]").replaceChildren(...tables);
  const structure = t.levels.map((l) => {
    const notes = `${l.equal_deals ? "Ends when every player has dealt equally. " : ""}${l.break_minutes ? `Then a ${l.break_minutes}-minute break.` : ""}`;
    const tr = rowOf(
      cell(String(l.number), "num"),
      cell(`${chipCount(l.ante)}${l.dealer_only_ante ? " dealer only" : ""}`, "num"),
      cell(chipCount(l.bring_in), "num"),
      cell(limitsText(l), "num"),
      cell(String(l.minutes), "num"),
      cell(notes),
    );
    if (t.level && l.number === t.level.number) tr.className = "current";
    return tr;
  });
  $("[data-structure]").replaceChildren(...structure);
}

function tick() {
  const t = state.tournament;
  const shown = clockNow(t, state.deadlines, monotonicNow());
  $("[data-time-label]").textContent = shown.label;
  $("[data-time-left]").textContent = shown.time || "—";
  const banner = $("[data-break-banner]");
  banner.hidden = shown.mode !== "break" && shown.mode !== "paused";
  if (!banner.hidden) banner.textContent = `${shown.label} ${shown.time}`;
}

function render() {
  const t = state.tournament;
  renderFigures(t);
  renderEntry(t);
  renderLists(t);
  tick();
}

// Go to the player's table once: the draw's "moved" notice and the snapshot that follows
// it name the same table, and a second assign would abort the first page load.
let goingTo = null;
function goToTable(tableId, url) {
  if (goingTo === tableId) return;
  goingTo = tableId;
  window.location.assign(url || `/tables/${tableId}/`);
}

connectTournament(`/ws/tournaments/${page.tournament_id}/`, state, {
  changed: (t) => {
    render();
    // It started (or a seat was drawn again) and the player has a seat: take them there.
    const seat = seatOf(t);
    if (seat && seat !== seatedAt) goToTable(seat);
    seatedAt = seat;
  },
  // The draw seated the player (R-TOUR-2), or a move: their table is where they play.
  moved: (frame) => goToTable(frame.table_id, frame.url),
  status: (mode) => {
    root.dataset.connection = mode;
    $("[data-connection]").textContent = STATUS_TEXT[mode];
  },
});
render();
setInterval(tick, TICK_MS);
