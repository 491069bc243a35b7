// The lobby's Tournaments tab: the rows as the server rendered them, then live over the
// lobby's tournament socket (docs/protocol.md "Tournaments": `tournament_rows` on connect,
// a `tournament_row` per change, the newest seq kept).
import { dollars, chipCount } from "../money.js";
import { connectTournament } from "./live.js";

const root = document.querySelector("[data-tournament-lobby]");
const body = root.querySelector("[data-rows]");
const status = root.querySelector("[data-lobby-status]");
let rows = JSON.parse(document.getElementById("tournament-rows").textContent);
// The player looking: logged in or not, the tournaments they are registered in.
const viewer = JSON.parse(document.getElementById("tournament-viewer").textContent);
const csrfToken = document.querySelector("[data-entry-token] input[name=csrfmiddlewaretoken]")?.value || "";
const registered = new Set(viewer.registered);

function cell(text, className, label) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  if (label) td.dataset.label = label;
  return td;
}

const WHEN = { weekday: "short", hour: "2-digit", minute: "2-digit" };

export function startsText(row) {
  if (row.started_at) return `Started ${new Date(row.started_at).toLocaleString([], WHEN)}`;
  if (row.starts_at) return new Date(row.starts_at).toLocaleString([], WHEN);
  if (row.start_when_registered) return `When ${row.start_when_registered} registered`;
  return "";
}

// One of the forms the tournament's page has (POST, back to this list with its message).
function entryForm(t, action, label, className = "") {
  const form = document.createElement("form");
  form.method = "post";
  form.action = `/tournaments/${t.id}/${action}/`;
  form.className = "inline";
  for (const [name, value] of [["csrfmiddlewaretoken", csrfToken], ["next", viewer.back]]) {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.append(input);
  }
  const button = document.createElement("button");
  button.type = "submit";
  button.textContent = label;
  if (className) button.className = className;
  button.setAttribute("aria-label", `${label}: ${t.name}`);
  form.append(button);
  return form;
}

// The Entry cell: Register (or log in to), Registered with Unregister, Full, or nothing.
function entryCell(t) {
  const td = document.createElement("td");
  td.className = "entry";
  if (registered.has(t.id)) {
    const note = document.createElement("span");
    note.className = "registered";
    note.textContent = "Registered";
    td.append(note);
    if (t.registration_open) td.append(" ", entryForm(t, "unregister", "Unregister", "secondary"));
  } else if (t.registration_open && t.entrants >= t.max_players) {
    td.append("Full");
  } else if (t.registration_open && viewer.logged_in) {
    td.append(entryForm(t, "register", `Register ${dollars(t.buy_in)}+${dollars(t.fee)}`));
  } else if (t.registration_open) {
    const login = document.createElement("a");
    login.href = viewer.login_url;
    login.textContent = "Log in to register";
    td.append(login);
  }
  return td;
}

function rowOf(t) {
  const tr = document.createElement("tr");
  tr.className = "lobby-row";
  tr.dataset.tournamentId = t.id;
  const name = document.createElement("td");
  name.className = "name";
  const link = document.createElement("a");
  link.href = t.url;
  link.textContent = t.name;
  link.setAttribute("aria-label", `Open tournament ${t.name}`);
  name.append(link);
  const state = document.createElement("td");
  state.dataset.label = "Status";
  const badge = document.createElement("span");
  badge.className = `status status-${t.status}`;
  badge.textContent = t.level ? `${t.status_label} · level ${t.level}` : t.status_label;
  state.append(badge);
  const players = t.players_left === null ? `${t.entrants}/${t.max_players}` : `${t.players_left} of ${t.entrants}`;
  tr.append(
    name,
    cell(t.game_label, "game", "Game"),
    cell(startsText(t), "", "Starts"),
    cell(`${dollars(t.buy_in)}+${dollars(t.fee)}`, "money", "Buy-in"),
    cell(chipCount(t.starting_chips), "num", "Chips"),
    state,
    cell(players, "num", "Players"),
    cell(dollars(t.prize_pool), "money", "Prize pool"),
    entryCell(t),
  );
  tr.addEventListener("click", (event) => {
    if (event.target.closest("a, form, button")) return;
    window.location.href = link.href;
  });
  return tr;
}

function render() {
  const drawn = rows.map(rowOf);
  if (!drawn.length) {
    const td = cell("No tournament is announced right now.", "empty");
    td.colSpan = 9;
    const tr = document.createElement("tr");
    tr.append(td);
    drawn.push(tr);
  }
  body.replaceChildren(...drawn);
}

connectTournament("/ws/tournaments/", null, {
  rows: (frame) => {
    if (frame.type === "tournament_rows") {
      rows = frame.rows;
    } else {
      const at = rows.findIndex((r) => r.id === frame.tournament_id);
      if (at === -1) rows.unshift(frame.row);
      else if (rows[at].seq <= frame.seq) rows[at] = frame.row;
    }
    render();
  },
  status: (mode) => {
    status.textContent = mode === "online" ? "Live" : mode === "offline" ? "Offline: reconnecting…" : "";
    status.classList.toggle("offline", mode === "offline");
  },
});
render();
