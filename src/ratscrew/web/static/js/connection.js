// @ts-check
// One room's websocket (protocol version 6): says hello with this browser's seat token and the last event it
// saw, answers the server's probes at once, applies numbered events exactly once and in order, and
// reconnects on its own. Games against the computer are rooms too (their page uses the same connection).
/** @import { ClientMessage, RoomConnection, RoomHandlers, ServerMessage } from "./types.js" */

export const PROTOCOL = 6;
const NAME_KEY = "ratscrew.name";
const RETRY_MS = [500, 1000, 2000, 4000];

/** @param {string} code */
function seatKey(code) {
  return `ratscrew.seat.${code}`;
}

// The seat token this browser holds for a room (kept across reloads). The token of a game started before
// tokens moved to localStorage is read once from sessionStorage and moved.
/**
 * @param {string} code a room's code or a game's id
 * @returns {string | null}
 */
export function loadToken(code) {
  let token = null;
  try {
    token = localStorage.getItem(seatKey(code));
    const old = sessionStorage.getItem(`ratscrew.token.${code}`);
    if (!token && old) {
      token = old;
      localStorage.setItem(seatKey(code), old);
    }
    if (old) sessionStorage.removeItem(`ratscrew.token.${code}`);
  } catch { /* storage refused (private mode): this page watches, or keeps its token in memory */ }
  return token || null;
}

/**
 * @param {string} code
 * @param {string | null} token null forgets it
 */
export function saveToken(code, token) {
  try {
    if (token) localStorage.setItem(seatKey(code), token);
    else localStorage.removeItem(seatKey(code));
  } catch { /* storage refused: the seat lasts as long as this page */ }
}

// The name this browser plays under in online rooms.
/** @returns {string} */
export function savedName() {
  try { return localStorage.getItem(NAME_KEY) || ""; } catch { return ""; }
}

/** @param {string} name */
export function keepName(name) {
  try { localStorage.setItem(NAME_KEY, name); } catch { /* storage refused: the name lasts this page */ }
}

/**
 * The room's socket, open until `close()`; each of `handlers` is called with what the room says (types.d.ts).
 * @param {string} code
 * @param {RoomHandlers} handlers
 * @returns {RoomConnection}
 */
export function openRoom(code, handlers) {
  let token = loadToken(code);
  let lastSeq = -1;
  /** @type {WebSocket | null} */
  let socket = null;
  let closed = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let retry;
  let attempts = 0;
  let pingId = 0;
  let welcomed = false;

  /**
   * A socket closed before any welcome: is there such a room at all?
   * @returns {Promise<boolean>}
   */
  async function missing() {
    try {
      const response = await fetch(`/api/rooms/${encodeURIComponent(code)}`, { headers: { Accept: "application/json" } });
      return response.status === 404;
    } catch {
      return false;
    }
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    welcomed = false;
    const ws = new WebSocket(`${scheme}://${location.host}/ws/rooms/${encodeURIComponent(code)}`);
    socket = ws;
    ws.addEventListener("open", () => {
      attempts = 0;
      ws.send(JSON.stringify({ type: "hello", v: PROTOCOL, token, since: lastSeq }));
    });
    ws.addEventListener("message", (event) => {
      if (ws !== socket) return;
      /** @type {unknown} */
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      // The server's own messages (rooms/wire/): wire.d.ts declares them, generated from its classes.
      if (message && typeof message === "object") receive(/** @type {ServerMessage} */ (message));
    });
    ws.addEventListener("close", async () => {
      if (ws !== socket) return;
      handlers.status?.(false);
      if (closed) return;
      if (!welcomed && await missing()) {
        closed = true;
        handlers.gone?.();
        return;
      }
      const wait = RETRY_MS[Math.min(attempts, RETRY_MS.length - 1)];
      attempts += 1;
      retry = setTimeout(connect, wait);
    });
  }

  /**
   * @param {ClientMessage} message
   * @returns {boolean} false: the socket is not open, and the message is dropped
   */
  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  /** @param {ServerMessage} message */
  function receive(message) {
    switch (message.type) {
      case "probe":
        send({ type: "echo", id: message.id }); // at once: it keeps the socket open (the link is timed by pings)
        break;
      case "welcome":
        welcomed = true;
        handlers.status?.(true);
        // With `missed` a number the events this page missed follow in one `events` message: keep lastSeq so
        // they are applied. With null (a new page, or one too far behind) start again from this state.
        if (message.missed === null || message.missed === undefined || lastSeq < 0) lastSeq = message.seq;
        handlers.welcome?.(message);
        break;
      case "events": {
        const items = message.items.filter((item) => item.seq > lastSeq).sort((a, b) => a.seq - b.seq);
        if (items.length && items[0].seq > lastSeq + 1 && lastSeq >= 0) {
          // A hole in the numbering: ask for what is missing rather than show a table that skipped events.
          send({ type: "resync", since: lastSeq });
          return;
        }
        for (const item of items) lastSeq = item.seq;
        handlers.events?.(items, message.state);
        break;
      }
      case "state":
        lastSeq = message.seq;
        handlers.state?.(message);
        break;
      case "lobby":
        handlers.lobby?.(message.room);
        break;
      case "latency":
        handlers.latency?.(message.seats, message); // the message also says the window and whom it waits for
        break;
      case "seated":
        token = message.token || null;
        saveToken(code, token);
        handlers.seated?.(message);
        break;
      case "rejected":
        handlers.rejected?.(message);
        break;
      case "error":
        handlers.error?.(message);
        break;
      case "over":
        handlers.over?.(message.summary);
        break;
      case "reaction":
        handlers.reaction?.(message);
        break;
      case "rated":
        handlers.rated?.(message);
        break;
      default:
        break;
    }
  }

  // The browser knows first when the network goes: the socket is dropped at once (its page says so and takes no
  // more input), not whenever TCP notices; and it is opened again the moment the network is back.
  const offline = () => { if (socket && !closed) socket.close(); };
  const online = () => {
    if (closed || (socket && socket.readyState <= WebSocket.OPEN)) return;
    clearTimeout(retry);
    attempts = 0;
    connect();
  };
  window.addEventListener("offline", offline);
  window.addEventListener("online", online);

  connect();

  return {
    send,
    // Ask for everything after the last event this page applied (and so the current state).
    resync: () => send({ type: "resync", since: lastSeq }),
    ping: () => send({ type: "ping", id: ++pingId }),
    get lastSeq() { return lastSeq; },
    get token() { return token; },
    close() {
      closed = true;
      window.removeEventListener("offline", offline);
      window.removeEventListener("online", online);
      clearTimeout(retry);
      if (socket) socket.close();
      socket = null;
    },
  };
}
