// @ts-check
// The history page (#/history): the games this browser played to their end, newest first, with their result,
// length and reaction times, each with the replay viewer and its record; and a record file to watch, chosen or
// dropped on the page. The server knows the games; this browser knows which of them are its own.
import { h } from "../dom.js";
import { t, lang } from "../i18n.js";
import { errorText, getJSON } from "../api.js";
import { aheadText, clockText } from "../format.js";
import { forgetGames, playedGames } from "../played.js";
import { offerFile, ensureStyle } from "./replay.js";
/** @import { HistoryAnswer, HistoryGame, PageContext } from "../types.js" */

/**
 * @param {HistoryGame} game
 * @returns {string}
 */
export function resultText(game) {
  if (game.result === "win") {
    const winner = game.players.find((p) => p.seat === game.winner);
    return t("game.summary.wins", { name: winner?.name ?? t("game.seat", { n: (game.winner ?? 0) + 1 }) });
  }
  // Stopped at its card limit: who was ahead, as the game's own summary said.
  if (game.result === "limit" && game.how === "card_limit" && game.players.length) return aheadText(game.players);
  return t(`game.summary.${game.result}`);
}

/** @param {HistoryGame} game */
function lengthText(game) {
  return t("history.length_text", { cards: game.cards, piles: game.tricks, time: clockText(game.ms ?? 0) });
}

/** @param {number} seconds since 1970 */
function whenText(seconds) {
  return new Date(seconds * 1000).toLocaleString(lang(), { dateStyle: "medium", timeStyle: "short" });
}

/** @param {HistoryGame} game */
function gameItem(game) {
  const reactions = h("ul", { class: "history-reactions" },
    game.players.map((player) => h("li", {},
      player.median_reaction_ms === null || player.median_reaction_ms === undefined
        ? t("history.no_reaction", { name: player.name })
        : t("history.reaction", { name: player.name, ms: Math.round(player.median_reaction_ms) }))));
  return h("li", { class: "history-game panel", dataset: { game: game.id } },
    h("h2", { class: "history-result" }, resultText(game)),
    h("dl", { class: "history-facts" },
      h("dt", {}, t("history.when")), h("dd", {}, h("time", { datetime: new Date(game.played * 1000).toISOString() }, whenText(game.played))),
      h("dt", {}, t("history.length")), h("dd", { class: "history-length" }, lengthText(game)),
      h("dt", {}, t("history.reactions")), h("dd", {}, reactions)),
    h("p", { class: "history-actions" },
      h("a", { class: "button", href: `#/replay/${game.id}`, "aria-label": `${t("history.watch")}: ${resultText(game)}` }, t("history.watch")),
      h("a", { class: "button secondary", href: `/api/games/${game.id}/record`, download: `ratscrew-${game.id}.json` }, t("history.download"))));
}

/**
 * @param {HTMLElement} view
 * @param {PageContext} ctx
 */
export async function render(view, ctx) {
  await ensureStyle();
  const list = h("ol", { class: "history-list", id: "history-list", "aria-labelledby": "history-title" });
  const status = h("p", { class: "hint", id: "history-status", role: "status" }, t("history.loading"));
  const fileError = h("p", { class: "error-box", id: "file-error", role: "alert", hidden: true });
  const input = h("input", { type: "file", id: "record-file", accept: ".json,application/json" });
  input.addEventListener("change", () => {
    if (input.files?.[0]) offerFile(input.files[0], ctx, fileError);
  });
  const dropHint = h("div", { class: "drop-hint", hidden: true, "aria-hidden": "true" }, t("history.drop"));
  const page = h("section", { class: "history" },
    h("h1", { id: "history-title" }, t("history.title")),
    h("p", { class: "lead" }, t("history.lead")),
    status, list,
    h("section", { class: "panel history-file", "aria-labelledby": "file-title" },
      h("h2", { id: "file-title" }, t("history.file_title")),
      h("p", { class: "hint" }, t("history.file_hint")),
      h("label", { for: "record-file" }, t("history.choose_file")), " ", input, fileError),
    dropHint);
  view.append(page);

  // A record dropped anywhere on the page is watched like one chosen with the file input.
  /** @param {DragEvent} event */
  const over = (event) => {
    if (![...(event.dataTransfer?.types ?? [])].includes("Files")) return;
    event.preventDefault();
    dropHint.hidden = false;
  };
  /** @param {DragEvent} event */
  const leave = (event) => {
    if (event.target === dropHint || !view.contains(/** @type {Node | null} */ (event.relatedTarget))) dropHint.hidden = true;
  };
  /** @param {DragEvent} event */
  const drop = (event) => {
    event.preventDefault();
    dropHint.hidden = true;
    const file = event.dataTransfer?.files?.[0];
    if (file) offerFile(file, ctx, fileError);
  };
  view.addEventListener("dragover", over);
  view.addEventListener("dragleave", leave);
  view.addEventListener("drop", drop);

  const ids = playedGames();
  try {
    /** @type {HistoryAnswer} */
    const answer = ids.length
      ? await getJSON(`/api/history?ids=${encodeURIComponent(ids.join(","))}`)
      : { games: [], unknown: [], unchecked: [] };
    forgetGames(answer.unknown);
    for (const game of answer.games) list.append(gameItem(game));
    // Some ids were not looked up (too many unknown ids from this address lately): say so, rather than "none".
    const unchecked = answer.unchecked?.length ?? 0;
    status.textContent = unchecked ? t("history.unchecked", { n: unchecked }) : answer.games.length ? "" : t("history.empty");
    status.hidden = !unchecked && answer.games.length > 0;
  } catch (error) {
    status.className = "error-box";
    status.textContent = errorText(error);
  }
  return () => {
    view.removeEventListener("dragover", over);
    view.removeEventListener("dragleave", leave);
    view.removeEventListener("drop", drop);
  };
}
