// @ts-check
// Where an event the server sends turns into what the table says and does about it: its line for the eyes
// and for the ear, and how loud the table answers (a sound, a banner in a tone, a motion, an urgent alert).
// The words themselves are format.js's and the catalogs'; the rules were judged by the server.
import { t, tn } from "../i18n.js";
import { cardName } from "../cards.js";
import { describe, seatName } from "../format.js";
/** @import { Named } from "../format.js" */
/** @import { GameEvent, Seat } from "../types.js" */
/** @import { Tone } from "./status.js" */

/**
 * An event in words: `shown` with card glyphs (the feed, the banner), `spoken` with cards by name.
 * @typedef {{ shown: string, spoken: string }} EventWords
 */
/**
 * How the table answers an event besides its line in the feed.
 * @typedef {object} Answer
 * @property {string | null} sound sound.js's name for it
 * @property {Tone | null} banner the banner's tone, or no banner
 * @property {"sweep" | "shake" | null} motion the pile sweeps to the winner; the slapper's seat shakes
 * @property {boolean} said read out to screen readers
 * @property {boolean} urgent read out at once, in the alert region
 */

/**
 * @param {GameEvent} event any but a card turned (table/events.js says those its own way)
 * @param {Named} seats
 * @returns {EventWords}
 */
export function eventWords(event, seats) {
  return { shown: describe(event, seats), spoken: spokenText(event, seats) };
}

/**
 * An event in words for the ear: cards by name, a challenge as what it asks of whom.
 * @param {GameEvent} event
 * @param {Named} seats
 * @returns {string}
 */
function spokenText(event, seats) {
  if (event.kind === "challenge_opened") {
    return tn("access.say.challenge", event.owed, { name: seatName(seats, event.seat),
      card: cardName(event.card, t), payer: seatName(seats, event.payer) });
  }
  if (event.kind === "slap_correct") {
    const why = event.matches.map((m) => t("game.pattern_with_cards",
      { pattern: t(`pattern.${m.pattern}`), cards: m.cards.map((c) => cardName(c, t)).join(", ") }));
    return t("event.slap_correct", { name: seatName(seats, event.seat), why: why.join("; ") });
  }
  if (event.kind === "pile_won" && event.shares.length <= 1) {
    return tn(`access.say.pile_won.${event.how}`, event.cards.length, { name: seatName(seats, event.seat) });
  }
  return describe(event, seats, { spoken: true });
}

/** @type {Answer} */
const QUIET = { sound: null, banner: null, motion: null, said: true, urgent: false };

/**
 * @param {GameEvent} event
 * @param {Seat[]} yours the seats this page plays
 * @returns {Answer}
 */
export function answerFor(event, yours) {
  switch (event.kind) {
    case "pile_won":
      return { ...QUIET, sound: "won", banner: event.how === "slap" ? "good" : "info", motion: "sweep" };
    case "wrong_slap":
      return { ...QUIET, sound: "wrong", banner: "bad", motion: "shake" };
    case "slap_correct":
      return { ...QUIET, sound: "slap", banner: "good" };
    case "player_out":
      return { ...QUIET, banner: "info" };
    case "game_over":
      return { ...QUIET, banner: "info", urgent: true };
    case "slap_dismissed":
      // Your slap did not count: say why (too late, locked out...). Another's is only in the feed.
      return yours.includes(event.seat) ? { ...QUIET, banner: "muted" } : { ...QUIET, said: false };
    default:
      return QUIET;
  }
}
