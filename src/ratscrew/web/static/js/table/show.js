// @ts-check
// What the room sends, onto the table: numbered events one by one (the feed, the sounds, the banner, the
// motion, the words for screen readers), then the state after them (the pile, the seats, the status). The
// feed, below the table, keeps the last few events newest first, each shown with glyphs and small cards
// and read once in words by a screen reader.
import { h, announce } from "../dom.js";
import { t } from "../i18n.js";
import { miniCards } from "../cards.js";
import { playSound } from "../sound.js";
import { describe } from "../format.js";
import { renderFlipReady } from "./controls.js";
import { handMark, replay, sweepTo, wrongSlapMotion } from "./motion.js";
import { narrate } from "./narrate.js";
import { buzz } from "./buzz.js";
import { forgetBefore, renderCentre } from "./pile.js";
import { renderSeats } from "./seats.js";
import { placeBanner, renderPause, renderStatus, showBanner } from "./status.js";
import { answerFor, eventWords, remember, verdictWords, voiceOf } from "./verdicts.js";
/** @import { CardTurned, EventItem, GameEvent, RoomState, TableState } from "../types.js" */
/** @import { TableCore } from "./core.js" */
/** @import { EventWords } from "./verdicts.js" */

const FEED_LENGTH = 6;
const CATCHING_UP = 12; // more events than this at once: a page catching up, shown without a burst of animations

/**
 * A state with a game dealt (a room before its first game sends `{}`).
 * @param {RoomState | null} state
 * @returns {state is TableState}
 */
export function dealt(state) {
  return state !== null && state.cards !== undefined;
}

/**
 * A whole state. `animate`: false when it replaces the table (a reload, a page that fell behind);
 * `noteworthy`: something besides cards turned led to it (another player's turn is then said).
 * @param {TableCore} core
 * @param {RoomState | null} next
 * @param {{ animate?: boolean, noteworthy?: boolean }} [options]
 */
export function showState(core, next, { animate = true, noteworthy = true } = {}) {
  if (!dealt(next)) return;
  const { model } = core;
  const before = model.state;
  model.state = next;
  model.startedAt = performance.now() - (next.now || 0);
  renderCentre(core, next, animate ? before : null);
  renderTurn(core, next);
  if (!core.parts.toast.hidden) placeBanner(core.parts); // the pile's lines (burned cards, slap window) changed under it
  renderPause(core);
  narrate(model, before, next, noteworthy);
}

/**
 * Whose turn it is, on the seats, the Flip buttons and the status line.
 * @param {TableCore} core
 * @param {TableState} state
 */
export function renderTurn(core, state) {
  renderSeats(core, state);
  renderFlipReady(core, state);
  renderStatus(core, state);
}

/**
 * Numbered events, new ones only and in order, then the state after them.
 * @param {TableCore} core
 * @param {EventItem[]} items
 * @param {RoomState} next
 */
export function applyEvents(core, items, next) {
  const { model, parts } = core;
  const quiet = items.length > CATCHING_UP;
  for (const item of items) happened(core, item, quiet);
  const noteworthy = items.some((item) => item.event.kind !== "card_turned");
  model.applied += items.length;
  if (items.length) {
    parts.element.dataset.seq = String(items[items.length - 1].seq);
    parts.element.dataset.applied = String(model.applied);
  }
  if (next) showState(core, next, { animate: !quiet, noteworthy });
}

/**
 * One event: its line in the feed and, unless the page is catching up, how the table answers it. A verdict
 * says why (verdicts.js), in the feed, in the banner and to screen readers alike.
 * @param {TableCore} core
 * @param {EventItem} item
 * @param {boolean} quiet
 */
function happened(core, { event, seen }, quiet) {
  if (event.kind === "card_turned") {
    cardTurned(core, event, quiet);
    return;
  }
  const { model, parts } = core;
  const voice = voiceOf(model);
  const words = verdictWords(event, seen ?? null, model.memory, voice) ?? eventWords(event, voice);
  remember(model.memory, event);
  if (event.kind === "game_over") model.ending = event.outcome; // the status line says how (status.js)
  addFeed(parts.feed, event, words);
  if (quiet) return;
  const answer = answerFor(event, model.yours);
  if (event.kind === "slap_correct" || event.kind === "wrong_slap") handMark(parts.marks, event.seat, event.kind === "slap_correct");
  if (event.kind === "wrong_slap") {
    const seatEl = parts.seatEls[event.seat];
    if (seatEl) replay(seatEl, "penalty");
    wrongSlapMotion(parts.pileBox, seatEl, event.burned.length);
  }
  if (answer.sound) playSound(answer.sound);
  if (answer.buzz) buzz(answer.buzz);
  if (answer.motion === "sweep" && "seat" in event) sweepTo(parts.pileBox, parts.flight, parts.seatEls[event.seat]);
  // A verdict on the player's own slap (wrong, set aside, or a pile won by it) shows at once and stays
  // readable before a lesser line (a pile collected after a challenge) replaces it.
  const ownSlap = event.kind === "wrong_slap" || event.kind === "slap_dismissed" || (event.kind === "pile_won" && event.how === "slap");
  const own = ownSlap && model.yours.includes(event.seat);
  if (answer.banner) showBanner(core, words.shown, answer.banner, { held: own });
  if (answer.said) announce(words.spoken, answer.urgent ? { urgent: true } : {});
}

/**
 * A card turned is not in the feed: the pile shows it. Who turned it is kept (it lands from their seat);
 * it is read out only when the player asked for every card.
 * @param {TableCore} core
 * @param {CardTurned} event
 * @param {boolean} quiet
 */
function cardTurned({ model }, event, quiet) {
  model.flippers.set(event.number, event.seat);
  forgetBefore(model.flippers, event.number);
  if (quiet) return;
  playSound("card");
  if (model.announceCards) announce(describe(event, model.seats, { ...voiceOf(model), spoken: true }));
}

/**
 * @param {HTMLOListElement} feed
 * @param {GameEvent} event
 * @param {EventWords} words
 */
export function addFeed(feed, event, { shown, spoken }) {
  const line = h("span", { class: "feed-shown", "aria-hidden": "true" }, shown);
  if (event.kind === "slap_correct") line.append(" ", ...event.matches.map((m) => miniCards(m.cards, t)));
  const item = h("li", { class: `feed-item kind-${event.kind}` }, line, h("span", { class: "visually-hidden" }, spoken));
  feed.prepend(item);
  while (feed.children.length > FEED_LENGTH) feed.lastChild?.remove();
}
