// @ts-check
// A game against the computer (or two on one screen): a room that starts playing at once. The server runs
// the game; this page says hello with its seat token, sends flips and slaps, and shows what happened.
import { useStyles } from "../styles.js";
import { h, clear, reducedMotion } from "../dom.js";
import { t, translate } from "../i18n.js";
import { errorText, sendJSON } from "../api.js";
import { openRoom, saveToken } from "../connection.js";
import { createTable } from "../table.js";
import { rememberGame } from "../played.js";
/** @import { NextGame, PageContext, RoomConnection, RoomDoc, RoomState, Seat } from "../types.js" */

/**
 * @param {HTMLElement} view
 * @param {PageContext} ctx
 */
export async function render(view, ctx) {
  await useStyles("table", "room");
  const gameId = ctx.params[0] ?? ""; // the route always has it
  rememberGame(gameId); // the history page lists the games this browser played
  /** @type {RoomConnection | null} */
  let connection = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let overTimer;

  const table = createTable({
    send: (message) => connection?.send(message),
    actions: (summary, yours) => {
      const again = h("button", { type: "button", id: "play-again", class: "big" }, t("game.summary.again"));
      again.addEventListener("click", async () => {
        again.disabled = true;
        try {
          /** @type {NextGame} */
          const next = await sendJSON(`/api/games/${gameId}/again`, { token: connection?.token ?? "" });
          saveToken(next.id, next.token);
          ctx.navigate(`#/game/${next.id}`);
        } catch (error) {
          again.disabled = false;
          table.toast(errorText(error), "bad");
        }
      });
      return [
        yours.length ? again : null,
        h("a", { class: "button secondary", id: "download-record", href: `/api/games/${summary.game ?? gameId}/record`, download: `ratscrew-${summary.game ?? gameId}.json` }, t("game.summary.download")),
        h("a", { class: "button secondary", href: "#/" }, t("game.summary.new")),
      ];
    },
  });
  view.append(table.element);

  function showMissing() {
    connection?.close();
    clear(view);
    view.append(h("section", { class: "panel missing" }, h("h1", {}, t("game.missing.title")), h("p", {}, t("game.missing.text")),
      h("a", { class: "button", href: "#/" }, t("game.summary.new"))));
  }

  /**
   * The whole table again: a page that (re)connects, or fell behind.
   * @param {RoomDoc} room
   * @param {Seat[]} yours
   * @param {RoomState} state
   */
  function whole(room, yours, state) {
    table.setPausable(room.pausable);
    table.setup(room.seats, yours, room.rules, room.game);
    table.update(state, { animate: false });
  }

  connection = openRoom(gameId, {
    welcome: (message) => {
      whole(message.room, message.yours, message.state);
      if (message.summary) table.showSummary(message.summary);
    },
    events: (items, state) => table.apply(items, state),
    state: (message) => {
      table.setSeats(message.room.seats);
      table.update(message.state, { animate: false });
    },
    lobby: (room) => table.setSeats(room.seats),
    latency: (latencies) => table.setLatencies(latencies),
    over: (summary) => {
      clearTimeout(overTimer);
      overTimer = setTimeout(() => table.showSummary(summary), reducedMotion() ? 0 : 900);
    },
    rejected: (message) => table.rejected(message),
    error: (message) => table.toast(message.message, "muted"),
    status: (up) => table.setConnected(up),
    gone: showMissing,
  });

  translate(view);

  return () => {
    clearTimeout(overTimer);
    table.destroy();
    connection.close();
  };
}
