// @ts-check
// Engine events and rules in words, in the chosen language (the browser never decides a rule, it tells).
import { t, tn } from "./i18n.js";
import { cardName, prettyCard } from "./cards.js";
/** @import { GameEvent, Outcome, PatternMatch, RulesDoc, Seat, WrongSlap } from "./types.js" */

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
 * Whose words an event's line takes: a seat's key as it is, or with `.you` when the seat is the player's own
 * (a page that plays one seat says "You slap wrong", not "Player 1 slaps wrong"), or `.you_pay` when the
 * player is the one who pays. Every language has every `.you` key (a test checks).
 * @param {string} key
 * @param {Seat | null} you the seat the page plays, when it plays one
 * @param {Seat} seat the seat the sentence is about
 * @param {Seat} [payer] the seat that pays, in a sentence about a challenge
 * @returns {string}
 */
export function youKey(key, you, seat, payer) {
  if (you === null) return key;
  if (seat === you) return `${key}.you`;
  if (payer !== undefined && payer === you) return `${key}.you_pay`;
  return key;
}

/**
 * One sentence per event; `spoken` says how to name a card (pretty glyphs on screen, words for readers);
 * `you` is the seat the page plays, if one (its sentences are in the second person); `rules` tell what a
 * wrong slap cost when no card moved (a lockout, or nothing).
 * @param {GameEvent} event
 * @param {Named} seats
 * @param {{ spoken?: boolean, you?: Seat | null, rules?: RulesDoc | null }} [options]
 * @returns {string}
 */
export function describe(event, seats, { spoken = false, you = null, rules = null } = {}) {
  /** @param {Seat} seat */
  const name = (seat) => seatName(seats, seat);
  /** @param {string} text */
  const card = (text) => (spoken ? cardName(text, t) : prettyCard(text));
  switch (event.kind) {
    case "card_turned":
      return t(youKey("event.card_turned", you, event.seat), { name: name(event.seat), card: card(event.card) });
    case "challenge_opened":
      return t(youKey(event.passed_on ? "event.challenge_passed" : "event.challenge_opened", you, event.seat, event.payer),
        { name: name(event.seat), payer: name(event.payer), owed: event.owed, card: card(event.card) });
    case "debt_passed":
      return t(youKey("event.debt_passed", you, event.from_seat, event.to_seat),
        { from: name(event.from_seat), to: name(event.to_seat), owed: event.owed });
    case "challenge_won":
      return t(youKey(`event.challenge_won.${event.how}`, you, event.seat), { name: name(event.seat) });
    case "challenge_stopped":
      return t(event.reason === "ten" ? "event.challenge_stopped.ten" : youKey(`event.challenge_stopped.${event.reason}`, you, event.seat),
        { name: name(event.seat) });
    case "slap_correct":
      return t(youKey("event.slap_correct", you, event.seat), { name: name(event.seat), why: event.matches.map(patternText).join("; ") });
    case "wrong_slap":
      return wrongSlapText(event, name(event.seat), you, rules);
    case "slap_dismissed":
      return t(youKey(`event.slap_dismissed.${event.reason}`, you, event.seat), { name: name(event.seat) });
    case "pile_won":
      if (event.shares.length > 1) {
        const parts = event.shares.map(([seat, n]) => t("event.share", { name: name(seat), n }));
        return t("event.pile_split", { parts: parts.join(", ") });
      }
      if (event.how === "slap" || event.how === "challenge") {
        return tn(youKey(`access.event.pile_won.${event.how}`, you, event.seat), event.cards.length, { name: name(event.seat) });
      }
      return t(youKey(`event.pile_won.${event.how}`, you, event.seat), { name: name(event.seat), n: event.cards.length });
    case "player_out":
      return t(youKey(`event.player_out.${event.reason}`, you, event.seat), { name: name(event.seat) });
    case "game_over":
      return gameOverText(event.outcome, seats, you);
    default: {
      /** @type {{ kind: string }} */
      const unknown = event; // a kind this page does not know yet: its name
      return unknown.kind;
    }
  }
}

/**
 * A wrong slap and what it cost: the cards burned or given, else what the rules did instead (a lockout for
 * some cards or until a pile is won, or nothing at all).
 * @param {WrongSlap} event
 * @param {string} name
 * @param {Seat | null} you
 * @param {RulesDoc | null} rules
 * @returns {string}
 */
function wrongSlapText(event, name, you, rules) {
  /** @param {string} key */
  const key = (key) => youKey(key, you, event.seat);
  if (event.given.length) return t(key("event.wrong_slap_given"), { name, n: event.given.length });
  if (event.burned.length) return t(key("event.wrong_slap_burned"), { name, n: event.burned.length });
  const penalty = rules?.slapping?.penalty;
  if (penalty === "lockout") return tn(key("event.wrong_slap_lockout"), Number(rules?.slapping?.lockout_cards ?? 0), { name });
  if (penalty === "lockout-pile") return t(key("event.wrong_slap_lockout_pile"), { name });
  if (penalty === "none") return t(key("event.wrong_slap_none"), { name });
  return t(key("event.wrong_slap_free"), { name });
}

/**
 * @param {Outcome} outcome
 * @param {Named} seats
 * @param {Seat | null} [you] the seat the page plays, if one
 * @returns {string}
 */
export function gameOverText(outcome, seats, you = null) {
  if (outcome.result === "win") return t(youKey("event.game_over.win", you, outcome.winner), { name: seatName(seats, outcome.winner) });
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
