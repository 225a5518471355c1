// @ts-check
// What the room page does with each message of its socket: the lobby and the phase change the page, the
// game's events and states go to the table, refusals are said where the player is looking.
import { h, clear, announce, reducedMotion } from "../../dom.js";
import { t } from "../../i18n.js";
import { rememberGame } from "../../played.js";
import { rematchAsked, rematchLine, renderLobby, renderSeatList, renderWait, say } from "./lobby.js";
/** @import { RatingChange, RejectedMessage, RoomDoc, RoomHandlers, Seat } from "../../types.js" */
/** @import { RoomCore } from "./core.js" */

// Refusals about the lobby: said in the lobby's status line even while a game is played.
const LOBBY_REFUSALS = ["not_host", "not_seated", "seat_taken", "not_ready", "bad_value"];

/**
 * The lobby or the table, as the room's phase says, and everything the lobby shows.
 * @param {RoomCore} core
 */
export function renderRoom(core) {
  const { room } = core.model;
  if (!room) return;
  renderLobby(core, room);
  showPhase(core, room);
  renderWait(core, room);
  core.reactions.seated(core.model.yours);
}

/**
 * The chips a room says before its rules' own at the table: whether a Play-now game is rated.
 * @param {RoomDoc} room
 * @returns {string[]}
 */
function roomTags(room) {
  return room.matched ? [t(room.rated ? "playnow.chip.rated" : "playnow.chip.unrated")] : [];
}

/**
 * The lobby while the room is in it, else the table (set up again for a new game of the room).
 * @param {RoomCore} core
 * @param {RoomDoc} room
 */
function showPhase({ model, parts, table, connection }, room) {
  // Someone's rematch took the room back to its lobby: this player's summary stays until they close it.
  const kept = room.phase === "lobby" && model.summaryOpen;
  const playing = room.phase !== "lobby" || kept;
  parts.lobby.hidden = playing;
  parts.tableBox.hidden = !playing;
  parts.root.classList.toggle("at-table", playing);
  renderRematchNote(parts.root, room, model.yours);
  if (kept) return;
  if (!playing) {
    clearTimeout(model.overTimer);
    table.hideSummary();
    model.tableGame = null;
    return;
  }
  if (model.tableGame !== room.game) {
    model.tableGame = room.game;
    model.summaryOpen = false;
    table.hideSummary();
    table.setup(room.seats, model.yours, room.rules, room.game, roomTags(room));
    connection?.resync(); // the state of the table that was just dealt
  } else {
    table.setSeats(room.seats);
  }
}

/**
 * In a summary still open, who asked for the rematch and what this player does to join it: its button then
 * says "I'm in", the words the lobby's button and everyone's lines use while the room waits for them.
 * @param {HTMLElement} root
 * @param {RoomDoc} room
 * @param {Seat[]} yours
 */
function renderRematchNote(root, room, yours) {
  const note = root.querySelector("#rematch-note");
  if (!note) return;
  const asked = rematchAsked(room);
  const button = root.querySelector("#rematch");
  const by = room.seats[room.rematch_by ?? -1];
  const answering = asked && button !== null && !yours.some((seat) => room.seats[seat]?.ready);
  note.textContent = answering ? t("room.rematch_join", { name: by?.name ?? "" }) : asked ? rematchLine(yours, room) : "";
  if (button) button.textContent = asked ? t("room.rematch_in") : t("room.rematch");
}

/**
 * A rated game's rating changes, in the summary if it is open (it may open before they come, or after).
 * @param {RoomCore} core
 */
export function showRatings({ model, parts }) {
  const box = parts.root.querySelector("#rating-changes");
  if (!box) return;
  clear(box);
  box.append(...ratingLines(model.rated, model.room));
}

/**
 * Each player's rating before and after the game ("ann: 1100 → 1137 (+37), provisional"), or a line saying
 * they are being updated.
 * @param {RatingChange[] | null} rated
 * @param {RoomDoc | null} room
 * @returns {HTMLElement[]}
 */
export function ratingLines(rated, room) {
  const heading = h("h3", {}, t("playnow.rating.title"));
  if (!rated) return [heading, h("p", { class: "hint" }, t("playnow.rating.waiting"))];
  if (rated.length === 0) return [heading, h("p", { class: "hint" }, t("playnow.rating.none"))];
  // A provisional rating moves by tens or a hundred points a game: said beside it, so it reads as expected, not as a fault.
  const why = rated.some((change) => change.provisional)
    ? h("p", { class: "hint", id: "rating-provisional-hint" }, t("playnow.rating.provisional_hint")) : null;
  /** @param {number} seat */
  const nameOf = (seat) => room?.seats[seat]?.name ?? t("game.seat", { n: seat + 1 });
  // A player a computer stood in for ranks last even after coming back: said, or the line reads as a fault.
  const left = rated.filter((change) => change.left).map((change) => nameOf(change.seat));
  const leftHint = left.length
    ? h("p", { class: "hint", id: "rating-left-hint" }, t("playnow.rating.left_hint", { names: left.join(", ") })) : null;
  return [heading, h("ul", { class: "rating-lines" }, ...rated.map((change) => {
    const diff = change.after - change.before;
    const shown = diff > 0 ? `+${diff}` : diff < 0 ? `−${-diff}` : "±0";
    const key = change.provisional ? "playnow.rating.line_provisional" : "playnow.rating.line";
    return h("li", { class: diff >= 0 ? "up" : "down", dataset: { seat: change.seat } },
      t(key, { name: nameOf(change.seat), before: change.before, after: change.after, change: shown }));
  })), ...(leftHint ? [leftHint] : []), ...(why ? [why] : [])];
}

/**
 * @param {RoomCore} core
 * @param {RejectedMessage} message
 */
function rejected(core, message) {
  const { room } = core.model;
  if (message.code === "too_fast") {
    core.reactions.refused(); // said in the reactions' panel, where the player pressed
    return;
  }
  if (room && room.phase !== "lobby" && !LOBBY_REFUSALS.includes(message.code)) {
    core.table.rejected(message);
    return;
  }
  const key = `room.rejected.${message.code}`;
  const text = t(key, { n: message.seat === null || message.seat === undefined ? "" : message.seat + 1 });
  say(core.parts, text === key ? message.reason : `${text} ${message.reason ? `(${message.reason})` : ""}`.trim(), "bad");
  renderRoom(core); // a refused change shows the values the room still has
}

/**
 * @param {RoomCore} core
 * @param {HTMLElement} view
 * @returns {RoomHandlers}
 */
export function roomHandlers(core, view) {
  const { model, parts, table } = core;
  return {
    welcome: (message) => {
      const room = message.room;
      model.room = room;
      model.yours = message.yours;
      model.host = message.host;
      model.shownRules = null;
      model.rowKeys.length = 0;
      model.tableGame = room.phase === "lobby" ? null : room.game;
      model.rated = message.rated ?? null;
      if (model.tableGame !== null) {
        table.setup(room.seats, model.yours, room.rules, room.game, roomTags(room));
        table.update(message.state, { animate: false });
      }
      renderRoom(core);
      if (message.summary && room.phase === "over") {
        model.summaryOpen = true;
        table.showSummary(message.summary);
      }
    },
    events: (items, state) => table.apply(items, state),
    state: (message) => {
      model.room = message.room;
      renderRoom(core);
      table.setSeats(message.room.seats);
      table.update(message.state, { animate: false });
    },
    lobby: (next) => {
      const before = model.room?.phase;
      model.room = next;
      renderRoom(core);
      if (before && before !== next.phase) announce(t(`room.phase.${next.phase}`));
    },
    latency: (seats, message) => {
      const { room } = model;
      if (!room) return;
      seats.forEach((ms, i) => { if (room.seats[i]) room.seats[i].latency_ms = ms; });
      room.window_ms = message.window_ms;
      room.waits_for = message.waits_for;
      renderSeatList(core, room);
      renderWait(core, room);
      if (room.phase !== "lobby") table.setSeats(room.seats);
    },
    seated: (message) => {
      model.yours = message.seats;
      model.rowKeys.length = 0;
      say(parts, model.yours.length ? t("room.seated", { n: model.yours[0] + 1 }) : t("room.stood"));
      if (model.room) renderRoom(core);
    },
    over: (summary) => {
      if (model.yours.length && summary.game) rememberGame(summary.game); // a player's finished game is in their history
      clearTimeout(model.overTimer);
      model.summaryOpen = true;
      model.overTimer = setTimeout(() => {
        if (!model.summaryOpen) return;
        table.showSummary(summary);
        if (model.room) renderRematchNote(parts.root, model.room, model.yours);
      }, reducedMotion() ? 0 : 900);
    },
    rejected: (message) => rejected(core, message),
    rated: (message) => {
      model.rated = message.changes;
      showRatings(core);
    },
    reaction: (message) => {
      if (model.room) core.reactions.show(message, model.room, !parts.tableBox.hidden);
    },
    error: (message) => say(parts, message.message, "bad"),
    status: (connected) => {
      parts.netChip.textContent = connected ? t("room.net.online") : t("room.net.reconnecting");
      parts.netChip.classList.toggle("offline", !connected);
    },
    gone: () => {
      clear(view);
      view.append(h("section", { class: "panel missing" }, h("h1", {}, t("room.missing.title")),
        h("p", {}, t("room.missing.text", { code: core.code })), h("a", { class: "button", href: "#/" }, t("room.leave"))));
    },
  };
}
