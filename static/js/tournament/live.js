// @ts-check
// A tournament's live feed (docs/protocol.md "Tournaments"): the socket (the table page's
// TableConnection: ping, reconnect with a backoff, snapshot requests), full snapshots kept
// by seq (an older one is dropped), and the player's own notices (moved, eliminated).
import { TableConnection } from "../table/connection.js";
import { monotonicNow } from "../table/clock.js";
import { clockDeadlines } from "./format.js";

/** @typedef {import("./frames.js").TournamentFrame} TournamentFrame */

export class TournamentState {
  constructor(tournament = null, now = 0) {
    this.tournament = null;
    this.seq = -1;
    this.deadlines = { level: null, break: null, starts: null };
    if (tournament) this.receive({ type: "tournament", seq: tournament.seq, tournament }, now);
  }

  // A frame; returns true when the tournament shown changed. (The page's first state, from
  // its HTML, comes as a frame of the snapshot's shape without the socket's fields.)
  /**
   * @param {TournamentFrame | {type: "tournament", seq: number, tournament: Object<string, any>}} frame
   * @param {number} now
   */
  receive(frame, now) {
    if (frame.type !== "tournament") return false;
    if (frame.seq < this.seq) return false; // an older state overtaken on the way
    this.seq = frame.seq;
    this.tournament = frame.tournament;
    this.deadlines = clockDeadlines(frame.tournament, now);
    return true;
  }
}

export function socketUrl(path) {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${window.location.host}${path}`;
}

// path: "/ws/tournaments/<id>/" or "/ws/tournaments/tables/<table id>/".
// on: {changed(tournament), moved(frame), eliminated(frame), status(mode), rows(frame)}.
export function connectTournament(path, state, on) {
  const connection = new TableConnection({
    url: socketUrl(path),
    onFrame: (/** @type {TournamentFrame} */ frame) => {
      if (frame.type === "tournament") {
        if (state.receive(frame, monotonicNow())) on.changed?.(state.tournament);
      } else if (frame.type === "tournament_moved") {
        on.moved?.(frame);
      } else if (frame.type === "tournament_eliminated") {
        on.eliminated?.(frame);
      } else if (frame.type === "tournament_rows" || frame.type === "tournament_row") {
        on.rows?.(frame);
      }
    },
    onStatus: (mode) => on.status?.(mode),
    onOpening: () => {},
  });
  connection.connect();
  return connection;
}
