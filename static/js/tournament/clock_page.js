// The "tournament clock" for a television: the game (at Triple Stud, where each table's
// rotation stands), level, limits, antes, the time left in large type, the next level,
// players left, average stack; live over the tournament's socket.
import { dollars, chipCount } from "../money.js";
import { TICK_MS, monotonicNow } from "../table/clock.js";
import { clockNow, limitsText } from "./format.js";
import { TournamentState, connectTournament } from "./live.js";

const page = JSON.parse(document.getElementById("tournament-page").textContent);
const root = document.querySelector("[data-tv-clock]");
const $ = (selector) => root.querySelector(selector);
const state = new TournamentState(page.tournament, monotonicNow());

function render() {
  const t = state.tournament;
  const level = t.level || t.next_level;
  $("[data-status]").textContent = t.status_label;
  // Triple Stud (R-MIX-1): each table's rotation, in the server's words.
  const rotation = $("[data-rotation]");
  rotation.hidden = !t.triple_stud || !t.tables.length;
  rotation.replaceChildren(...(t.triple_stud ? t.tables : []).map((table) => {
    const li = document.createElement("li");
    li.textContent = `Table ${table.number}: ${table.game_label}`;
    return li;
  }));
  $("[data-level]").textContent = t.level ? String(t.level.number) : "—";
  $("[data-limits]").textContent = limitsText(level);
  $("[data-ante]").textContent = level ? `${chipCount(level.ante)}${level.dealer_only_ante ? " dealer" : ""}` : "";
  $("[data-bring-in]").textContent = level ? chipCount(level.bring_in) : "";
  $("[data-next-level]").textContent = limitsText(t.next_level);
  $("[data-players]").textContent = String(t.players_left);
  $("[data-average]").textContent = t.average_stack === null ? "—" : chipCount(t.average_stack);
  $("[data-pool]").textContent = dollars(t.prize_pool);
  tick();
}

function tick() {
  const shown = clockNow(state.tournament, state.deadlines, monotonicNow());
  $("[data-time-left]").textContent = shown.time || "—";
  $("[data-time-label]").textContent = shown.label;
  root.dataset.mode = shown.mode;
}

connectTournament(`/ws/tournaments/${page.tournament_id}/`, state, {
  changed: render,
  status: (mode) => {
    root.dataset.connection = mode;
    $("[data-connection]").textContent = mode === "online" ? "Live" : "Reconnecting…";
  },
});
// For the card room's television: the clock alone on the screen (a click is needed).
const fullScreen = $("[data-full-screen]");
fullScreen.hidden = !document.fullscreenEnabled;
fullScreen.addEventListener("click", () => root.requestFullscreen().catch(() => {}));
document.addEventListener("fullscreenchange", () => {
  fullScreen.hidden = Boolean(document.fullscreenElement);
});

render();
setInterval(tick, TICK_MS);
