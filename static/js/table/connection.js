// @ts-check
// The table's WebSocket (docs/protocol.md): connects, keeps alive, reconnects with a backoff,
// sends commands with a `ref`, and resyncs: the store's "snapshot" effects become snapshot
// requests, asked again when one does not come.

/** @typedef {import("./commands.js").TableCommand} TableCommand */
/**
 * Sends a table command (its declared type, tables/realtime/commands.py); its ref, or null
 * when the socket is not open.
 * @typedef {(message: TableCommand) => string | null} SendCommand
 */

// Each ping carries the last (hand_id, seq) the page holds; the server answers a page that is
// behind with a snapshot, so a frame lost on the way costs at most this long.
export const PING_INTERVAL_MS = 5_000;
export const RECONNECT_FIRST_MS = 500; // doubling each try ...
export const RECONNECT_MOST_MS = 5_000; // ... up to this
export const SNAPSHOT_RETRY_MS = 4_000; // a snapshot asked for and not come: ask again
export const CLOSE_TABLE_GONE = 4404; // the server's close code for a table that does not exist

export function reconnectDelay(tries) {
  return Math.min(RECONNECT_MOST_MS, RECONNECT_FIRST_MS * 2 ** tries);
}

export class TableConnection {
  // onFrame(frame): each parsed frame; onStatus(mode): connecting, online, offline, gone;
  // onOpening(): a socket is about to open (the store then waits for its snapshot);
  // position(): the {hand_id, seq} each ping carries.
  /**
   * @param {{
   *   url: string,
   *   onFrame: (frame: any) => void,
   *   onStatus: (mode: string) => void,
   *   onOpening: () => void,
   *   position?: () => {hand_id?: number, seq?: number},
   * }} options
   */
  constructor({ url, onFrame, onStatus, onOpening, position = () => ({}) }) {
    this.url = url;
    this.position = position;
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.onOpening = onOpening;
    this.socket = null;
    this.tries = 0;
    this.refs = 0;
    this.pingTimer = null;
    this.reconnectTimer = null;
  }

  connect() {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    this.onStatus("connecting");
    this.onOpening();
    socket.addEventListener("open", () => {
      this.tries = 0;
      this.onStatus("online");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(
        () => this.send({ type: "ping", ...this.position() }), PING_INTERVAL_MS,
      );
    });
    socket.addEventListener("message", (message) => {
      let frame;
      try {
        frame = JSON.parse(message.data);
      } catch {
        return;
      }
      this.onFrame(frame);
    });
    socket.addEventListener("close", (event) => {
      clearInterval(this.pingTimer);
      if (event.code === CLOSE_TABLE_GONE) {
        this.onStatus("gone");
        return;
      }
      this.onStatus("offline");
      const delay = reconnectDelay(this.tries);
      this.tries += 1;
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = setTimeout(() => this.connect(), delay);
    });
  }

  // The browser is back online: reconnect now instead of waiting for the backoff.
  reconnectNow() {
    if (this.socket && this.socket.readyState === WebSocket.CLOSED) {
      clearTimeout(this.reconnectTimer);
      this.connect();
    }
  }

  // Sends a command; returns its ref, or null when the socket is not open.
  /** @type {SendCommand} */
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return null;
    this.refs += 1;
    const ref = `r${this.refs}`;
    this.socket.send(JSON.stringify({ ...message, ref }));
    return ref;
  }

  // A snapshot the store asked for; onOverdue() SNAPSHOT_RETRY_MS later (the store then asks
  // again if it has not come). Returns the ref, or null when the socket is not open.
  requestSnapshot(onOverdue) {
    setTimeout(onOverdue, SNAPSHOT_RETRY_MS);
    return this.send({ type: "snapshot" });
  }
}
