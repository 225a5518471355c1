// @ts-check
// Engine events and rules in words, in the chosen language (the browser never decides a rule, it tells).
import { t, tn } from "./i18n.js";
import { cardName, prettyCard } from "./cards.js";
/** @import { GameEvent, Outcome, PatternMatch, Seat } from "./types.js" */

/**
 * The names the seats go by: a room's seats, a summary's players, the replay's names.
 * @typedef {readonly ({ name?: string | null } | undefined)[]} Named
 */

/**
 * A seat's name, or "Seat N" for one without.
 * @param {Named} seats
 * @param {Seat} seat
 * @returns {string}
 */
export function seatName(seats, seat) {
  return seats[seat]?.name ?? t("game.seat", { n: seat + 1 });
}

/**
 * A length of time as a clock shows it, minutes and seconds ("0:37", "12:05"): the one way the pages write
 * how long a game took or has left.
 * @param {number} ms
 * @returns {string}
 */
export function clockText(ms) {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/**
 * @param {PatternMatch} match
 * @returns {string}
 */
export function patternText(match) {
  return t("game.pattern_with_cards", {
    pattern: t(`pattern.${match.pattern}`),
    cards: match.cards.map(prettyCard).join(" "),
  });
}

/**
 * One sentence per event; `spoken` says how to name a card (pretty glyphs on screen, words for readers).
 * @param {GameEvent} event
 * @param {Named} seats
 * @param {{ spoken?: boolean }} [options]
 * @returns {string}
 */
export function describe(event, seats, { spoken = false } = {}) {
  /** @param {Seat} seat */
  const name = (seat) => seatName(seats, seat);
  /** @param {string} text */
  const card = (text) => (spoken ? cardName(text, t) : prettyCard(text));
  switch (event.kind) {
    case "card_turned":
      return t("event.card_turned", { name: name(event.seat), card: card(event.card) });
    case "challenge_opened":
      return t(event.passed_on ? "event.challenge_passed" : "event.challenge_opened",
        { name: name(event.seat), payer: name(event.payer), owed: event.owed, card: card(event.card) });
    case "debt_passed":
      return t("event.debt_passed", { from: name(event.from_seat), to: name(event.to_seat), owed: event.owed });
    case "challenge_won":
      return t(`event.challenge_won.${event.how}`, { name: name(event.seat) });
    case "challenge_stopped":
      return t(`event.challenge_stopped.${event.reason}`, { name: name(event.seat) });
    case "slap_correct":
      return t("event.slap_correct", { name: name(event.seat), why: event.matches.map(patternText).join("; ") });
    case "wrong_slap":
      if (event.given.length) return t("event.wrong_slap_given", { name: name(event.seat), n: event.given.length });
      if (event.burned.length) return t("event.wrong_slap_burned", { name: name(event.seat), n: event.burned.length });
      return t("event.wrong_slap_free", { name: name(event.seat) });
    case "slap_dismissed":
      return t(`event.slap_dismissed.${event.reason}`, { name: name(event.seat) });
    case "pile_won":
      if (event.shares.length > 1) {
        const parts = event.shares.map(([seat, n]) => t("event.share", { name: name(seat), n }));
        return t("event.pile_split", { parts: parts.join(", ") });
      }
      if (event.how === "slap" || event.how === "challenge") {
        return tn(`access.event.pile_won.${event.how}`, event.cards.length, { name: name(event.seat) });
      }
      return t(`event.pile_won.${event.how}`, { name: name(event.seat), n: event.cards.length });
    case "player_out":
      return t(`event.player_out.${event.reason}`, { name: name(event.seat) });
    case "game_over":
      return gameOverText(event.outcome, seats);
    default: {
      /** @type {{ kind: string }} */
      const unknown = event; // a kind this page does not know yet: its name
      return unknown.kind;
    }
  }
}

/**
 * @param {Outcome} outcome
 * @param {Named} seats
 * @returns {string}
 */
export function gameOverText(outcome, seats) {
  if (outcome.result === "win") return t("event.game_over.win", { name: seatName(seats, outcome.winner) });
  return t(`event.game_over.${outcome.result}`);
}

/**
 * A game stopped at its card limit: who held the most cards (or who were level). The summary and History
 * both say it so.
 * @param {{ name: string, cards: number }[]} players
 * @returns {string}
 */
export function aheadText(players) {
  const most = Math.max(...players.map((p) => p.cards));
  const ahead = players.filter((p) => p.cards === most);
  if (ahead.length === 1) return t("game.summary.limit_ahead", { name: ahead[0].name, n: most });
  return t("game.summary.limit_tied", { names: ahead.map((p) => p.name).join(", "), n: most });
}
