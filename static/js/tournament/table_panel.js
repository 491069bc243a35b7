// A tournament table's own part of the table page: the bar with the level, antes, time left
// in the level, the next level and players left, and the add-on while the viewer may buy it
// (its chips and price, and a button that buys it through the API: POST
// /api/tournaments/<id>/add-on/); the break banner with its countdown (and, in the break
// before the add-on closes, that this is its last chance); the notices "You were moved to table 2, seat 5" (then the browser
// goes to the new table) and "You finished 9th" (also on coming back to the table of one's
// last hand after it: the standings' finished_table_id). Fed by the tournament's socket found by
// the table (ws/tournaments/tables/<table id>/, docs/protocol.md "Tournaments").
import { chipCount, dollars } from "../money.js";
import { TICK_MS, monotonicNow } from "../table/clock.js";
import {
  addOnOffer, anteText, clockNow, eliminatedText, levelBriefText, limitsText, movedText, tableBar,
  viewerEntry,
} from "./format.js";
import { TournamentState, connectTournament } from "./live.js";

// How long the "moved" notice shows before the browser goes to the new table.
export const MOVE_NOTICE_MS = 2500;

// Was the player moved away from this table? Seen seated here by this page, or the
// tournament's record of the tables they left names it (the page opened after the move).
export function movedAway(mine, tableId, seatedHere) {
  if (!mine || !mine.table_id || mine.table_id === tableId) return false;
  return seatedHere || (mine.tables_left || []).includes(tableId);
}

// say(text): the table's toast.
export function startTournamentPanel({ root, page, panels, onChange, say }) {
  const $ = (selector) => root.querySelector(selector);
  const bar = $("[data-tournament-bar]");
  const banner = $("[data-break-banner]");
  const notice = document.querySelector("[data-notice]");
  const addOn = $("[data-t-add-on]");
  const addOnBuy = $("[data-t-add-on-buy]");
  const csrfToken = $("[data-add-on-token] input[name=csrfmiddlewaretoken]")?.value || "";
  const state = new TournamentState();
  let seatedHere = false;
  let movingTo = null;
  let toldPlace = null;
  let offer = null;
  let buying = false;

  function show(title, text, href, linkText) {
    notice.querySelector("[data-notice-title]").textContent = title;
    notice.querySelector("[data-notice-text]").textContent = text;
    const link = notice.querySelector("[data-notice-link]");
    link.href = href;
    link.textContent = linkText;
    if (!notice.open) notice.showModal();
  }

  function moved(frame) {
    if (frame.table_id === page.table_id || movingTo === frame.table_id) return;
    movingTo = frame.table_id;
    const url = frame.url || `/tables/${frame.table_id}/`;
    const table = frame.table_number ? `table ${frame.table_number}` : "your new table";
    show("You were moved", movedText(frame), url, `Go to ${table}`);
    setTimeout(() => window.location.assign(url), MOVE_NOTICE_MS);
  }

  function eliminated(frame) {
    if (toldPlace === frame.place) return;
    toldPlace = frame.place;
    const results = `/tournaments/${frame.tournament_id || state.tournament?.id}/results/`;
    const title = frame.place === 1 ? "You won the tournament" : "You are out";
    show(title, eliminatedText(frame, dollars), results, "See the results");
  }

  function render() {
    const t = state.tournament;
    const name = $("[data-t-name]");
    name.textContent = t.name;
    name.href = `/tournaments/${t.id}/`;
    $("[data-t-players]").textContent = `${t.players_left} of ${t.entrants}`;
    $("[data-t-average]").textContent = t.average_stack === null ? "—" : chipCount(t.average_stack);
    drawAddOn();
    tick();
    // A move whose notice did not reach us (offline at the time, or this page opened after
    // it: moved here and on again before this page's socket joined): the standings tell.
    const mine = viewerEntry(t, page.player_id);
    if (mine && mine.table_id === page.table_id) seatedHere = true;
    if (mine && movedAway(mine, page.table_id, seatedHere)) {
      moved({ table_id: mine.table_id, table_number: mine.table, seat: mine.seat });
    }
    // The place: live at the table played at, or on coming back to the table of the last
    // hand (a reload, or a move's page arriving after the end: no notice reached that page).
    if (mine && mine.place && (seatedHere || mine.finished_table_id === page.table_id)) {
      eliminated({ tournament_id: t.id, place: mine.place, prize: mine.prize });
    }
  }

  function tick() {
    if (!state.tournament) return;
    const t = state.tournament;
    const shown = clockNow(t, state.deadlines, monotonicNow());
    // The table's own level, limits and antes (its hand in play or next hand is dealt at
    // them), not the clock's: they differ past an equal-deals level's timer (R-TOUR-6). While
    // this table waits for equal deals the words stand in place of the countdown.
    const mine = tableBar(t, page.table_id, shown);
    $("[data-t-level]").textContent = mine.level && t.level ? String(mine.level.number) : "—";
    $("[data-t-limits]").textContent = limitsText(mine.level);
    $("[data-t-ante]").textContent = anteText(mine.level);
    $("[data-t-next]").textContent = levelBriefText(mine.next) || "—";
    $("[data-t-time-label]").textContent = mine.label;
    const time = $("[data-t-time]");
    time.textContent = mine.time;
    time.hidden = !mine.time;
    bar.dataset.mode = shown.mode;
    banner.hidden = shown.mode !== "break" && shown.mode !== "paused";
    if (!banner.hidden) {
      const last = offer && offer.lastChance
        ? ` Last chance for the add-on (${offer.text}): it ${offer.until}.`
        : "";
      banner.textContent = shown.mode === "break"
        ? `Break: no hand is dealt. The next level starts in ${shown.time}.${last}`
        : mine.time
          ? `Paused by the tournament director (${mine.time} left in the level).${last}`
          : `Paused by the tournament director.${last}`;
    }
  }

  // R-TOUR-1: the offer in the bar while this player may buy it; gone once bought or closed.
  function drawAddOn() {
    offer = addOnOffer(state.tournament, page.player_id);
    addOn.hidden = !offer;
    if (!offer) return;
    $("[data-t-add-on-offer]").textContent = offer.text;
    $("[data-t-add-on-until]").textContent = offer.until;
    addOnBuy.disabled = buying;
  }

  // One request at a time (a double click buys once: the server refuses a second add-on
  // too). The answer is the tournament as it is now: drawn at once, before its frame.
  async function buyAddOn() {
    const t = state.tournament;
    if (!t || buying) return;
    buying = true;
    drawAddOn();
    try {
      const response = await fetch(`/api/tournaments/${t.id}/add-on/`, {
        method: "POST",
        headers: { Accept: "application/json", "X-CSRFToken": csrfToken },
        credentials: "same-origin",
      });
      const body = await response.json().catch(() => ({}));
      if (response.ok) {
        say(`Add-on bought: ${chipCount(t.add_on_chips)} chips.`);
        state.receive({ type: "tournament", seq: body.seq, tournament: body }, monotonicNow());
      } else {
        say(body.detail || "The add-on was not bought.");
      }
    } catch {
      say("Offline: the add-on was not bought.");
    } finally {
      buying = false;
      render();
      panels.tournament = state.tournament;
      onChange();
    }
  }
  addOnBuy.addEventListener("click", buyAddOn);

  connectTournament(`/ws/tournaments/tables/${page.table_id}/`, state, {
    changed: (t) => {
      panels.tournament = t;
      render();
      onChange();
    },
    moved,
    eliminated,
  });
  setInterval(tick, TICK_MS);
}
