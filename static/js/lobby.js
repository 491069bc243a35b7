// The lobby: filters and a self-refreshing list of open tables (polls /lobby.json).
import { GAME_NAMES, dollars, stakesText } from "./money.js";

const root = document.querySelector("[data-lobby]");
const body = root.querySelector("tbody");
const filters = root.querySelector("form.filters");
const stakesSelect = filters.elements.stakes;
const status = root.querySelector("[data-lobby-status]");
const refreshMs = Number(root.dataset.refreshMs) || 3000;
let tables = JSON.parse(document.getElementById("lobby-tables").textContent);

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
  if (form.hide_empty.checked && table.seated === 0) return false;
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
  tr.addEventListener("click", (event) => {
    if (event.target.closest("a")) return;
    window.location.href = link.href;
  });
  return tr;
}

function render() {
  const rows = tables.filter(visible).map(row);
  if (rows.length === 0) {
    const tr = document.createElement("tr");
    const td = cell("No table matches these filters.", "empty");
    td.colSpan = 7;
    tr.append(td);
    rows.push(tr);
  }
  body.replaceChildren(...rows);
}

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
