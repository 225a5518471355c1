// @ts-check
// The scoreboard of a match: one big button per player (press it, or its number key, for the winner of a
// round), built once so the focus stays where it is, and drawn again after every change.
import { h, reducedMotion } from "../../dom.js";
import { t, tn } from "../../i18n.js";
/** @import { ScoreMatch } from "../../types.js" */

/**
 * @param {readonly string[]} players
 * @param {(index: number) => void} onPick a player's tile was pressed
 */
export function createBoard(players, onPick) {
  const board = h("div", { class: "sk-board" });
  const tiles = players.map((name, i) => {
    const tile = h("button", { type: "button", class: "sk-tile", dataset: { index: i }, "aria-keyshortcuts": i < 9 ? String(i + 1) : null },
      h("span", { class: "sk-tile-top" },
        i < 9 ? h("kbd", { class: "sk-tile-key", "aria-hidden": "true" }, String(i + 1)) : h("span"),
        h("span", { class: "sk-tile-crown", "aria-hidden": "true" }, "♛")),
      h("span", { class: "sk-tile-name" }, name),
      h("span", { class: "sk-tile-wins" }, "0"),
      h("span", { class: "sk-tile-label" }),
      h("span", { class: "sk-tile-lead" }));
    tile.addEventListener("click", () => onPick(i));
    board.append(tile);
    return tile;
  });
  const roundBadge = h("span", { class: "sk-round-badge" });
  const boardHint = h("p", { class: "sk-board-hint" });
  const element = h("section", { class: "sk-board-wrap", "aria-labelledby": "sk-board-title" },
    h("div", { class: "sk-board-head" },
      h("h2", { id: "sk-board-title" }, t("scores.board.title")),
      roundBadge),
    boardHint, board);

  /** @param {ScoreMatch} m */
  function update(m) {
    const best = Math.max(0, ...m.wins);
    const tied = m.leaders.length > 1;
    tiles.forEach((tile, i) => {
      const wins = m.wins[i];
      const leading = m.leaders.includes(i);
      tile.classList.toggle("leader", leading);
      tile.classList.toggle("tied", leading && tied);
      part(tile, ".sk-tile-wins").textContent = String(wins);
      part(tile, ".sk-tile-label").textContent = tn("scores.wins_word", wins);
      part(tile, ".sk-tile-lead").textContent = leading ? t(tied ? "scores.board.tied" : "scores.board.leads") : "";
      const share = best ? wins / best : 0;
      tile.style.setProperty("--share", share.toFixed(3));
      tile.disabled = m.finished || !m.can_change;
      tile.setAttribute("aria-label", t(m.finished ? "scores.tile.final" : "scores.tile.label", {
        name: m.players[i], wins: tn("scores.wins_word_n", wins),
        lead: leading ? ` ${t(tied ? "scores.board.tied" : "scores.board.leads")}.` : "",
      }));
    });
    board.classList.toggle("many", m.players.length > 6);
    roundBadge.textContent = m.finished
      ? tn("scores.rounds_played", m.rounds.length)
      : t("scores.board.round", { n: m.rounds.length + 1 });
    boardHint.textContent = m.finished ? t("scores.board.finished_hint")
      : t(m.players.length > 9 ? "scores.board.hint_many" : "scores.board.hint", { max: Math.min(9, m.players.length) });
  }

  /**
   * A tile's short jump, for the round it just won.
   * @param {number} index
   */
  function bump(index) {
    const tile = tiles[index];
    if (reducedMotion()) return;
    tile.classList.remove("bump");
    void tile.offsetWidth;
    tile.classList.add("bump");
  }

  return {
    element,
    update,
    bump,
    /** @param {number} index */
    focus: (index) => tiles[index].focus(),
  };
}

/**
 * The part of a tile that a selector names (every tile has each of them).
 * @param {HTMLElement} tile
 * @param {string} selector
 * @returns {HTMLElement}
 */
function part(tile, selector) {
  return /** @type {HTMLElement} */ (tile.querySelector(selector));
}
