// @ts-check
// The end of a game: a modal summary over the table with each player's figures, the races several people
// slapped (and why each went the way it did), and the page's own buttons (play again, rematch, download).
// Loaded when a game ends (table.js), so a first visit does not carry it; the box it fills is overlay.js's.
import { h, clear } from "../dom.js";
import { t, tn } from "../i18n.js";
import { aheadText, clockText } from "../format.js";
import { recallFeed } from "./recap.js";
import { renderStatus } from "./status.js";
/** @import { GameSummary, Race, Seat, SummaryPlayer } from "../types.js" */
/** @import { TableCore } from "./core.js" */

/**
 * @param {TableCore} core
 * @param {GameSummary} summary
 */
export function showSummary(core, summary) {
  const { model, parts, actions } = core;
  const { overlay } = parts;
  // A game opened again once over heard no game_over event: the status line learns how it ended from here.
  model.ending ??= { result: summary.result, winner: summary.winner, how: summary.how };
  if (model.state) renderStatus(core, model.state);
  recallFeed(core, summary);
  clear(overlay);
  const buttons = actions(summary, model.yours);
  overlay.append(h("div", { class: "overlay-card panel" },
    h("h2", { id: "over-title" }, headline(summary, model.yours)),
    h("p", { class: "lead" }, lengthText(summary)),
    summary.how ? h("p", { class: "hint" }, t(`game.summary.how.${summary.how}`)) : null,
    // On a phone the table scrolls sideways: its box takes the keyboard's focus so it can be scrolled.
    h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-labelledby": "over-title" }, playersTable(summary)),
    timed(summary) ? h("p", { class: "hint", id: "reaction-note" }, t("game.summary.reaction_note")) : null,
    racesBlock(summary.races || [], summary.players),
    h("div", { class: "overlay-actions" }, ...buttons)));
  overlay.hidden = false;
  /** @type {HTMLElement | null} */
  const first = overlay.querySelector(".overlay-actions button") || overlay.querySelector(".overlay-actions a");
  first?.focus();
}

/**
 * @param {GameSummary} summary
 * @param {Seat[]} yours
 */
function headline(summary, yours) {
  if (summary.result === "limit" && summary.how === "card_limit") return aheadText(summary.players);
  if (summary.result !== "win" || summary.winner === null) return t(`game.summary.${summary.result}`);
  const name = summary.players[summary.winner].name;
  return yours.includes(summary.winner) ? t("game.summary.you_win", { name }) : t("game.summary.wins", { name });
}

/** @param {GameSummary} summary */
function lengthText(summary) {
  const [m, s] = clockText(summary.ms).split(":");
  return t("access.summary.length", { cards: tn("access.summary.cards", summary.cards),
    piles: tn("access.summary.piles", summary.tricks), m, s });
}

/**
 * Each player's cards, piles won by slap and by challenge, wrong slaps and median reaction.
 * @param {GameSummary} summary
 */
function playersTable(summary) {
  const columns = ["game.summary.player", "game.summary.cards", "game.summary.by_slap", "game.summary.by_challenge",
    "game.summary.wrong", "game.summary.reaction"];
  // The reaction's heading points to the note under the table that says what it is and what its count is.
  const note = (/** @type {string} */ key) => (key === "game.summary.reaction" && timed(summary) ? "reaction-note" : null);
  return h("table", { class: "summary-table players-table" },
    h("thead", {}, h("tr", {}, ...columns.map((key) => h("th", { scope: "col", "aria-describedby": note(key) }, t(key))))),
    h("tbody", {}, ...summary.players.map((p) => playerRow(p, summary.winner, columns.slice(1).map((key) => t(key))))));
}

/**
 * A player's row; each figure carries its column's heading, which a phone shows beside it (the row as a card).
 * @param {SummaryPlayer} p
 * @param {Seat | null} winner
 * @param {string[]} headings the figures' columns
 */
function playerRow(p, winner, headings) {
  /** @param {number} i @param {...import("../dom.js").Child} value */
  const cell = (i, ...value) => h("td", { dataset: { label: headings[i] } }, ...value);
  return h("tr", { class: p.seat === winner ? "winner" : "", "aria-current": p.seat === winner ? "true" : null },
    h("th", { scope: "row" }, h("span", { class: "player-name" }, p.name), p.bot ? h("span", { class: "seat-badge" }, t(`level.${p.bot}`)) : null),
    cell(0, String(p.cards)), cell(1, String(p.piles_by_slap)), cell(2, String(p.piles_by_challenge)),
    cell(3, String(p.wrong_slaps)),
    cell(4, p.median_reaction_ms === null ? "–" : t("game.summary.ms", { n: Math.round(p.median_reaction_ms) }),
      // How many correct slaps the typical reaction is taken from, said as slaps ("(10 slaps)"), not a bare number.
      p.reaction_ms.length ? h("span", { class: "hint slaps-timed" }, " ", tn("game.summary.slaps_timed", p.reaction_ms.length)) : null));
}

/**
 * Whether any player's reactions were timed (the note on the reaction column is then wanted).
 * @param {GameSummary} summary
 */
function timed(summary) {
  return summary.players.some((p) => p.reaction_ms.length > 0);
}

/**
 * Cards several people slapped, and why the race went the way it did: each slap's reaction, the delay it
 * was credited, and the time the server counted it as landing.
 * @param {Race[]} races
 * @param {SummaryPlayer[]} players
 */
export function racesBlock(races, players) {
  if (!races.length) return null;
  /** @param {Seat} seat */
  const name = (seat) => players[seat]?.name ?? t("game.seat", { n: seat + 1 });
  /** @param {number | null | undefined} value */
  const ms = (value) => (value === null || value === undefined ? "–" : t("game.summary.ms", { n: Math.round(value) }));
  const columns = ["game.summary.player", "room.race.verdict", "room.race.reaction", "room.race.rtt", "room.race.compensation",
    "room.race.received", "room.race.landed"];
  const list = h("ol", { class: "races" });
  for (const race of races) {
    const first = race.slaps[0];
    const rows = race.slaps.map((slap) => h("tr", { class: slap === first ? "first" : "" },
      h("th", { scope: "row" }, name(slap.seat)),
      h("td", {}, slap.verdict ? t(`room.verdict.${slap.verdict}`) : "–"),
      h("td", {}, ms(slap.reaction)),
      h("td", {}, ms(slap.rtt)),
      h("td", {}, ms(slap.compensation)),
      h("td", {}, ms(slap.received)),
      h("td", {}, ms(slap.landed))));
    list.append(h("li", { class: "race" },
      h("p", {}, raceLead(race, name)),
      h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": raceLead(race, name) }, h("table", { class: "summary-table race-table" },
        h("thead", {}, h("tr", {}, ...columns.map((key) => h("th", { scope: "col" }, t(key))))),
        h("tbody", {}, ...rows)))));
  }
  return h("details", { class: "races-wrap", id: "races" },
    h("summary", {}, t("room.races.title", { n: races.length })),
    h("p", { class: "hint" }, t("room.races.hint")),
    list);
}

/**
 * One sentence on a race: who won it, and whether the delay credited to a slower link is why.
 * @param {Race} race
 * @param {(seat: Seat) => string} name
 */
function raceLead(race, name) {
  const winner = race.slaps.find((slap) => slap.verdict === "slap_correct");
  const first = race.slaps[0];
  if (!winner) return t("room.race.first", { card: race.card, name: name(first.seat) });
  const overtaken = race.slaps.find((slap) => slap !== winner && slap.received < winner.received);
  if (overtaken) {
    return t("room.race.overtook", { card: race.card, name: name(winner.seat), other: name(overtaken.seat),
      n: Math.round(winner.compensation ?? 0) });
  }
  return t("room.race.won", { card: race.card, name: name(winner.seat) });
}
