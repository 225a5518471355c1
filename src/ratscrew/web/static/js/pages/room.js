// @ts-check
// An online room (#/room/CODE): the lobby (seats, rules, ready, start), then the same table as a game against
// the computer, then the summary and a rematch. Everyone sees everything public; only the host changes the
// seats and the rules; a page without a seat watches. Its parts are under room/: the shared value and the
// page's elements, the seat list, the rest of the lobby, and what each message of the room does.
import { useStyles } from "../styles.js";
import { h } from "../dom.js";
import { t, translate } from "../i18n.js";
import { openRoom } from "../connection.js";
import { createTable } from "../table.js";
import { buildParts, newModel } from "./room/core.js";
import { rulesSummaryDrawer } from "./room/lobby.js";
import { ratingLines, renderRoom, roomHandlers } from "./room/messages.js";
import { buildReactions } from "./room/reactions.js";
import { playNowAgain } from "./setup/again.js";
/** @import { ClientMessage, GameSummary, PageContext, Seat } from "../types.js" */
/** @import { RoomCore } from "./room/core.js" */

/**
 * @param {HTMLElement} view
 * @param {PageContext} ctx
 */
export async function render(view, ctx) {
  await useStyles("table", "setup", "room");
  const code = (ctx.params[0] ?? "").toUpperCase(); // the route always has it
  const model = newModel();
  /** @param {ClientMessage} message */
  const send = (message) => core.connection?.send(message);
  // The summary's buttons need the whole page (core, below), and are built only once a game is over.
  const table = createTable({ send, actions: (summary, seated) => summaryActions(core, summary, seated) });
  const parts = buildParts(code, model, send, table.element);
  /** @type {RoomCore} */
  const core = { meta: ctx.meta, code, model, parts, table, send, connection: null, drawSummary: rulesSummaryDrawer(parts),
    reactions: buildReactions(send) };
  // The reactions open from the header, which stays in view in the lobby and at the table.
  parts.root.querySelector(".room-head")?.append(core.reactions.opener);
  parts.root.append(core.reactions.panel);
  view.append(parts.root);
  const handlers = roomHandlers(core, view);
  // The table says so too when the connection is lost, over its pile (the room's header may be scrolled away).
  const connection = openRoom(code, { ...handlers, status: (up) => { handlers.status?.(up); table.setConnected(up); } });
  core.connection = connection;
  translate(view);
  return () => {
    clearTimeout(model.overTimer);
    table.destroy();
    connection.close();
  };
}

/**
 * The buttons under a game's summary: a rematch for the players (or, once someone asked for it, "I'm in"),
 * the record, back to the lobby, and the way out. The summary stays until its player closes it, even when
 * someone else's rematch has taken the room back to its lobby.
 * @param {RoomCore} core
 * @param {GameSummary} summary
 * @param {Seat[]} seated the seats this page plays
 * @returns {(Node | null)[]}
 */
function summaryActions(core, summary, seated) {
  const { model, send } = core;
  if (model.room?.matched) return playNowActions(core, summary);
  const close = () => { model.summaryOpen = false; core.table.hideSummary(); renderRoom(core); };
  let rematch = null;
  if (seated.length) {
    const button = h("button", { type: "button", id: "rematch", class: "big" }, t("room.rematch"));
    button.addEventListener("click", () => {
      button.disabled = true;
      // Asked already (the room is in its lobby): this player agrees, as their Ready would.
      send(model.room?.phase === "lobby" ? { type: "ready", ready: true } : { type: "rematch" });
      close();
    });
    rematch = button;
  }
  const back = h("button", { type: "button", id: "summary-close", class: "secondary" }, t("room.summary_close"));
  back.addEventListener("click", close);
  return [
    h("p", { class: "rematch-note", id: "rematch-note", role: "status" }),
    rematch,
    back,
    summary.game ? h("a", { class: "button secondary", id: "download-record", href: `/api/games/${summary.game}/record`, download: `ratscrew-${summary.game}.json` },
      t("game.summary.download")) : null,
    h("a", { class: "button secondary", href: "#/" }, t("room.leave")),
  ];
}

/**
 * Under a Play-now table's summary: the rating changes of a rated game (they come a moment after the game's
 * end), another table, the record and the way out. Such a table plays one game: no rematch.
 * @param {RoomCore} core
 * @param {GameSummary} summary
 * @returns {(Node | null)[]}
 */
function playNowActions({ model }, summary) {
  const ratings = model.room?.rated
    ? h("div", { class: "rating-changes", id: "rating-changes", role: "status" }, ...ratingLines(model.rated, model.room))
    : null;
  const again = h("button", { type: "button", class: "big", id: "play-now-again" }, t("playnow.again"));
  again.addEventListener("click", () => playNowAgain((hash) => { location.hash = hash; }));
  return [
    ratings,
    again,
    summary.game ? h("a", { class: "button secondary", id: "download-record", href: `/api/games/${summary.game}/record`, download: `ratscrew-${summary.game}.json` },
      t("game.summary.download")) : null,
    h("a", { class: "button secondary", href: "#/" }, t("room.leave")),
  ];
}
