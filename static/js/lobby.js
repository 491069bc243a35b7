// The lobby: filters and a self-refreshing list of open tables (polls /lobby.json). Tables
// nobody sits at are folded under a "Show N empty tables" button; a table is previewed (its
// seats, names, stacks and the up cards of the hand in play, from /tables/<id>/preview.json)
// on hover, on keyboard focus, or on a tap (phones: a tap previews, the name opens).
import { cardElement } from "./cards.js";
import { GAME_NAMES, dollars, stakesText } from "./money.js";

const root = document.querySelector("[data-lobby]");
const body = root.querySelector("tbody");
const filters = root.querySelector("form.filters");
const stakesSelect = filters.elements.stakes;
const status = root.querySelector("[data-lobby-status]");
const refreshMs = Number(root.dataset.refreshMs) || 3000;
let tables = JSON.parse(document.getElementById("lobby-tables").textContent);
let showEmpty = false; // the empty tables unfolded
const COLUMNS = 7;

function stakesKey(table) {
  return `${table.small_bet}/${table.big_bet}`;
}

function fillStakes() {
  const chosen = stakesSelect.value;
  const seen = new Map();
  for (const table of tables) seen.set(stakesKey(table), stakesText(table));
  const options = [["", "All stakes"], ...seen.entries()];
  stakesSelect.replaceChildren(
    ...options.map(([value, label]) => new Option(label, value, false, value === chosen)),
  );
}

function visible(table) {
  const form = filters.elements;
  if (form.game.value === "triple_stud") {
    if (!table.triple_stud) return false;
  } else if (form.game.value && table.game !== form.game.value) return false;
  if (form.stakes.value && stakesKey(table) !== form.stakes.value) return false;
  if (form.hide_full.checked && table.seated >= table.seats) return false;
  return true;
}

function cell(text, className, label) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  if (label) td.dataset.label = label;
  return td;
}

function row(table) {
  const tr = document.createElement("tr");
  tr.dataset.tableId = table.id;
  tr.className = "lobby-row";
  const name = document.createElement("td");
  name.className = "name";
  const link = document.createElement("a");
  link.href = `/tables/${table.id}/`;
  link.textContent = table.name;
  link.setAttribute("aria-label", `Open table ${table.name}`);
  name.append(link);
  tr.append(
    name,
    cell(table.game_label || GAME_NAMES[table.game] || table.game, "game", "Game"),
    cell(stakesText(table), "stakes", "Stakes"),
    cell(`${table.seated}/${table.seats}`, "num seats-taken", "Seats"),
    cell(dollars(table.average_pot), "money", "Avg pot"),
    cell(String(table.hands_per_hour), "num", "Hands/h"),
    cell(String(table.waiting), "num", "Waiting"),
  );
  if (table.seated >= table.seats) tr.classList.add("full");
  if (table.seated === 0) tr.classList.add("empty-table");
  tr.addEventListener("pointerenter", (event) => {
    if (event.pointerType === "mouse") preview.soon(table, tr);
  });
  tr.addEventListener("pointerleave", (event) => {
    if (event.pointerType === "mouse") preview.later();
  });
  link.addEventListener("focus", () => preview.show(table, tr));
  tr.addEventListener("click", (event) => {
    if (event.target.closest("a")) return;
    // A tap previews the table (there is no hover on a phone); a second tap, or a click
    // with a mouse, opens it.
    if (lastPointer !== "mouse" && preview.tableId !== table.id) {
      preview.show(table, tr);
      return;
    }
    window.location.href = link.href;
  });
  return tr;
}

function lineRow(content, className) {
  const tr = document.createElement("tr");
  tr.className = className;
  const td = document.createElement("td");
  td.colSpan = COLUMNS;
  td.className = "empty";
  td.append(content);
  tr.append(td);
  return tr;
}

// The "Show N empty tables" control, and the empty tables under it when unfolded.
function foldRow(count) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "secondary fold-empty";
  button.setAttribute("aria-expanded", String(showEmpty));
  const tables = count === 1 ? "1 empty table" : `${count} empty tables`;
  button.textContent = showEmpty ? `Hide ${tables}` : `Show ${tables}`;
  button.addEventListener("click", () => {
    showEmpty = !showEmpty;
    render();
    body.querySelector("button.fold-empty")?.focus();
  });
  return lineRow(button, "fold-row");
}

function render() {
  const shown = tables.filter(visible);
  const playing = shown.filter((table) => table.seated > 0).map(row);
  const empty = shown.filter((table) => table.seated === 0);
  const rows = [...playing];
  if (!shown.length) rows.push(lineRow("No table matches these filters.", "none-row"));
  else if (!playing.length) rows.push(lineRow("Nobody is playing at these tables yet.", "none-row"));
  if (empty.length) {
    rows.push(foldRow(empty.length));
    if (showEmpty) rows.push(...empty.map(row));
  }
  body.replaceChildren(...rows);
  if (preview.tableId !== null && !shown.some((t) => t.id === preview.tableId)) preview.hide();
}

// The pointer of the last press: a tap ("touch", "pen") previews, a mouse click opens.
let lastPointer = "mouse";
document.addEventListener("pointerdown", (event) => { lastPointer = event.pointerType; }, true);

const HOVER_MS = 150; // the pointer rests on a row this long before its preview shows
const LEAVE_MS = 250; // and may cross to the preview in this long

// The preview panel: one for the page, filled from the table's public preview.
class Preview {
  constructor(panel) {
    this.panel = panel;
    this.tableId = null;
    this.timer = null;
    this.asked = 0; // the last fetch, so a late answer for another table is dropped
    panel.addEventListener("pointerenter", () => clearTimeout(this.timer));
    panel.addEventListener("pointerleave", (event) => {
      if (event.pointerType === "mouse") this.later();
    });
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape") this.hide();
    });
    document.addEventListener("pointerdown", (event) => {
      if (this.tableId !== null && !event.target.closest(".table-preview, tr.lobby-row")) this.hide();
    });
  }

  soon(table, tr) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.show(table, tr), HOVER_MS);
  }

  later() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.hide(), LEAVE_MS);
  }

  hide() {
    clearTimeout(this.timer);
    this.tableId = null;
    this.panel.hidden = true;
    for (const tr of body.querySelectorAll("tr.previewed")) tr.classList.remove("previewed");
  }

  async show(table, tr) {
    clearTimeout(this.timer);
    this.tableId = table.id;
    for (const other of body.querySelectorAll("tr.previewed")) other.classList.remove("previewed");
    tr.classList.add("previewed");
    const asked = ++this.asked;
    this.draw(table, null);
    this.place(tr);
    try {
      const response = await fetch(`/tables/${table.id}/preview.json`, { headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const facts = await response.json();
      if (asked !== this.asked || this.tableId !== table.id) return;
      this.draw(table, facts);
      this.place(tr);
    } catch {
      if (asked === this.asked && this.tableId === table.id) this.draw(table, null, "The preview did not load.");
    }
  }

  // Beside the row on a wide screen; a sheet at the bottom of a phone's screen (room.css).
  place(tr) {
    this.panel.hidden = false;
    const rect = tr.getBoundingClientRect();
    const width = this.panel.offsetWidth;
    const left = Math.max(8, Math.min(rect.left + 48, document.documentElement.clientWidth - width - 8));
    this.panel.style.left = `${left + window.scrollX}px`;
    this.panel.style.top = `${rect.bottom + window.scrollY + 4}px`;
  }

  draw(table, facts, failed = "") {
    const title = document.createElement("h2");
    title.textContent = table.name;
    const line = document.createElement("p");
    line.className = "muted";
    const street = facts && facts.street ? ` · ${STREETS[facts.street] || ""}` : "";
    line.textContent = `${GAME_NAMES[table.game] || table.game} · ${stakesText(table)}${street}`;
    const list = document.createElement("ul");
    list.className = "preview-seats";
    const players = facts ? facts.players : [];
    for (const player of players) {
      const li = document.createElement("li");
      li.dataset.previewSeat = player.seat;
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = `${player.seat}. ${player.name}`;
      const stack = document.createElement("span");
      stack.className = "stack";
      stack.textContent = dollars(player.stack);
      const cards = document.createElement("span");
      cards.className = "cards";
      for (const card of player.up) cards.append(cardElement(card));
      if (player.folded) cards.append(note("folded"));
      else if (player.sitting_out) cards.append(note("sitting out"));
      li.append(who, stack, cards);
      list.append(li);
    }
    const open = facts ? table.seats - players.length : null;
    const seatsLine = document.createElement("p");
    seatsLine.className = "muted";
    seatsLine.textContent = failed || (facts === null ? "Loading…"
      : `${players.length ? "" : "Nobody is seated. "}${open === 1 ? "1 seat open" : `${open} seats open`}`);
    const go = document.createElement("a");
    go.className = "button";
    go.href = `/tables/${table.id}/`;
    go.textContent = "Open table";
    const close = document.createElement("button");
    close.type = "button";
    close.className = "secondary close";
    close.textContent = "Close";
    close.addEventListener("click", () => this.hide());
    const buttons = document.createElement("p");
    buttons.className = "preview-buttons";
    buttons.append(go, close);
    this.panel.setAttribute("aria-label", `Preview of table ${table.name}`);
    this.panel.replaceChildren(title, line, list, seatsLine, buttons);
  }
}

const STREETS = { 3: "3rd street", 4: "4th street", 5: "5th street", 6: "6th street", 7: "7th street" };

function note(text) {
  const span = document.createElement("span");
  span.className = "muted";
  span.textContent = text;
  return span;
}

const panel = document.createElement("section");
panel.className = "table-preview";
panel.dataset.tablePreview = "";
panel.hidden = true;
document.body.append(panel);
const preview = new Preview(panel);

async function refresh() {
  try {
    const response = await fetch("/lobby.json", { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    tables = (await response.json()).tables;
    status.textContent = `Updated ${new Date().toLocaleTimeString()}`;
    status.classList.remove("offline");
    fillStakes();
    render();
  } catch {
    status.textContent = "Offline: retrying…";
    status.classList.add("offline");
  }
}

filters.addEventListener("change", render);
filters.addEventListener("submit", (event) => event.preventDefault());
fillStakes();
render();
setInterval(refresh, refreshMs);
