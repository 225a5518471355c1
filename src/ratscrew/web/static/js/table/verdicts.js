// @ts-check
// Where an event the server sends turns into what the table says and does about it: its line for the eyes
// and for the ear, and how loud the table answers (a sound, a banner in a tone, a motion, an urgent alert).
// The words themselves are format.js's and the catalogs'; the rules were judged by the server.
import { t, tn } from "../i18n.js";
import { cardName, prettyCard } from "../cards.js";
import { describe, seatName, youKey } from "../format.js";
/** @import { Named } from "../format.js" */
/** @import { ChallengeOpened, GameEvent, PatternMatch, RulesDoc, Seat, SlapSeen } from "../types.js" */
/** @import { Tone } from "./status.js" */

/**
 * An event in words: `shown` with card glyphs (the feed, the banner), `spoken` with cards by name.
 * @typedef {{ shown: string, spoken: string }} EventWords
 */
/**
 * Who the words are for: the seats' names, the seat the page plays when it plays one (said "you"), and the
 * rules (what a wrong slap cost when no card moved).
 * @typedef {{ seats: Named, you: Seat | null, rules: RulesDoc | null }} Voice
 */
/**
 * How the table answers an event besides its line in the feed.
 * @typedef {object} Answer
 * @property {string | null} sound sound.js's name for it
 * @property {Tone | null} banner the banner's tone, or no banner
 * @property {"sweep" | null} motion the pile sweeps to the winner (a slap's own motion is motion.js's)
 * @property {boolean} said read out to screen readers
 * @property {boolean} urgent read out at once, in the alert region
 * @property {import("./buzz.js").Buzz | null} buzz a vibration: the player's own slap judged (buzz.js)
 */

/**
 * The voice of a table that plays `yours`: one seat is "you"; two on one screen are each called by name.
 * @param {{ seats: Named, yours: Seat[], rules: RulesDoc | null }} model
 * @returns {Voice}
 */
export function voiceOf({ seats, yours, rules }) {
  return { seats, you: yours.length === 1 ? yours[0] : null, rules };
}

/**
 * @param {GameEvent} event any but a card turned (table/events.js says those its own way)
 * @param {Voice} voice
 * @returns {EventWords}
 */
export function eventWords(event, voice) {
  return { shown: describe(event, voice.seats, voice), spoken: spokenText(event, voice) };
}

/**
 * What a verdict needs from the events before it: the patterns of the last won slap (its pile is taken
 * after them), and the challenge each seat opened last (who paid what when it is won).
 * @typedef {object} VerdictMemory
 * @property {Map<Seat, PatternMatch[]>} matches by the seat that slapped
 * @property {Map<Seat, ChallengeOpened>} challenges by the seat that opened it
 */

/** @returns {VerdictMemory} */
export function newMemory() {
  return { matches: new Map(), challenges: new Map() };
}

/**
 * Keep what a later verdict will need of this event.
 * @param {VerdictMemory} memory
 * @param {GameEvent} event
 */
export function remember(memory, event) {
  if (event.kind === "slap_correct") memory.matches.set(event.seat, event.matches);
  else if (event.kind === "challenge_opened") memory.challenges.set(event.seat, event);
  else if (event.kind === "pile_won") { memory.matches.clear(); memory.challenges.clear(); }
}

/**
 * A verdict in one line that says why: a won pile with the pattern that won it, a wrong slap with what it
 * landed on (and, when it came too late, the pattern its player saw and the card that covered it), a won
 * challenge with who paid what. Null for any other event (its usual words say enough).
 * @param {GameEvent} event
 * @param {SlapSeen | null} seen what a wrong slap reacted to (rooms send it; null elsewhere)
 * @param {VerdictMemory} memory
 * @param {Voice} voice
 * @returns {EventWords | null}
 */
export function verdictWords(event, seen, memory, voice) {
  /** @param {boolean} spoken */
  const line = (spoken) => verdictLine(event, seen, memory, voice, spoken);
  const shown = line(false);
  return shown === null ? null : { shown, spoken: line(true) ?? shown };
}

/**
 * @param {GameEvent} event
 * @param {SlapSeen | null} seen
 * @param {VerdictMemory} memory
 * @param {Voice} voice
 * @param {boolean} spoken cards by name (for the ear), else with their glyphs
 * @returns {string | null}
 */
function verdictLine(event, seen, memory, voice, spoken) {
  const { seats, you } = voice;
  if (event.kind === "pile_won" && event.how === "slap" && event.shares.length <= 1) {
    const matches = memory.matches.get(event.seat);
    if (!matches) return null;
    // The slap's own line, read out just before, named the pattern: the ear hears it once.
    if (spoken) return spokenText(event, voice);
    return tn(youKey("verdict.pile_won_slap", you, event.seat), event.cards.length,
      { name: seatName(seats, event.seat), why: patternsText(matches, false) });
  }
  if (event.kind === "wrong_slap" && seen) {
    const penalty = describe(event, seats, { ...voice, spoken });
    if (seen.covered_by && seen.missed.length) {
      return t("verdict.too_late", { card: cardText(seen.covered_by, spoken), why: patternsText(seen.missed, spoken), penalty });
    }
    if (!seen.pile.length) return t("verdict.empty_pile", { penalty });
    return t("verdict.no_pattern", { penalty, cards: cardsText(seen.pile, spoken) });
  }
  if (event.kind === "challenge_won" && event.how === "paid") {
    const opened = memory.challenges.get(event.seat);
    if (!opened) return null;
    return tn(youKey("verdict.challenge_paid", you, event.seat, opened.payer), opened.owed,
      { name: seatName(seats, event.seat), payer: seatName(seats, opened.payer), card: cardText(opened.card, spoken) });
  }
  return null;
}

/**
 * A card for the eye (its glyphs) or for the ear (its name).
 * @param {string} card
 * @param {boolean} spoken
 * @returns {string}
 */
function cardText(card, spoken) {
  return spoken ? cardName(card, t) : prettyCard(card);
}

/**
 * @param {string[]} cards
 * @param {boolean} spoken
 * @returns {string}
 */
function cardsText(cards, spoken) {
  return cards.map((card) => cardText(card, spoken)).join(spoken ? ", " : " ");
}

/**
 * The patterns a slap won with, each with its cards: the words a won slap's verdict and its spoken line share.
 * @param {PatternMatch[]} matches
 * @param {boolean} spoken
 * @returns {string}
 */
function patternsText(matches, spoken) {
  return matches.map((m) => t("game.pattern_with_cards", { pattern: t(`pattern.${m.pattern}`), cards: cardsText(m.cards, spoken) }))
    .join("; ");
}

/**
 * An event in words for the ear: cards by name, a challenge as what it asks of whom.
 * @param {GameEvent} event
 * @param {Voice} voice
 * @returns {string}
 */
function spokenText(event, voice) {
  const { seats, you } = voice;
  if (event.kind === "challenge_opened") {
    return tn(youKey("access.say.challenge", you, event.seat, event.payer), event.owed, { name: seatName(seats, event.seat),
      card: cardName(event.card, t), payer: seatName(seats, event.payer) });
  }
  if (event.kind === "slap_correct") {
    return t(youKey("event.slap_correct", you, event.seat), { name: seatName(seats, event.seat), why: patternsText(event.matches, true) });
  }
  if (event.kind === "pile_won" && event.shares.length <= 1) {
    return tn(youKey(`access.say.pile_won.${event.how}`, you, event.seat), event.cards.length, { name: seatName(seats, event.seat) });
  }
  return describe(event, seats, { ...voice, spoken: true });
}

/** @type {Answer} */
const QUIET = { sound: null, banner: null, motion: null, said: true, urgent: false, buzz: null };

/**
 * @param {GameEvent} event
 * @param {Seat[]} yours the seats this page plays
 * @returns {Answer}
 */
export function answerFor(event, yours) {
  const own = "seat" in event && yours.includes(event.seat);
  switch (event.kind) {
    case "pile_won":
      return { ...QUIET, sound: "won", banner: event.how === "slap" ? "good" : "info", motion: "sweep" };
    case "wrong_slap":
      return { ...QUIET, sound: "wrong", banner: "bad", buzz: own ? "wrong" : null };
    case "slap_correct":
      return { ...QUIET, sound: "slap", banner: "good", buzz: own ? "won" : null };
    case "challenge_won":
      return { ...QUIET, banner: "info" };
    case "player_out":
      return { ...QUIET, banner: "info" };
    case "game_over":
      return { ...QUIET, banner: "info", urgent: true };
    case "slap_dismissed":
      // Your slap did not count: say why (too late, locked out...). Another's is only in the feed.
      return own ? { ...QUIET, banner: "muted", buzz: "set_aside" } : { ...QUIET, said: false };
    default:
      return QUIET;
  }
}
