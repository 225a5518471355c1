// @ts-check
// The middle of the felt: the pile's top cards, its count, the cards burned underneath, and the slap window
// that stays open after a won challenge (a ring that drains around the pile, and the same in words); and
// when each card was first painted, so that a slap can say how long after it the player reacted (the
// server credits a slow link by it; rooms/fairness.py).
import { h, clear, reducedMotion } from "../dom.js";
import { t } from "../i18n.js";
import { cardBack, cardFace, cardName } from "../cards.js";
import { seatName, youKey } from "../format.js";
import { landFrom, replay } from "./motion.js";
import { voiceOf } from "./verdicts.js";
/** @import { TableState } from "../types.js" */
/** @import { TableCore, TableModel } from "./core.js" */

const PILE_SHOWN = 7;
const PAINTS_KEPT = 64;

/**
 * Each card lies at its own slight angle (fixed by its number, so it never jumps), fanned enough that
 * the cards under the top one still show their corners.
 * @param {number} number
 */
function tilt(number) {
  return { rot: ((number * 47) % 29) - 14, dx: ((number * 13) % 19) - 9, dy: ((number * 7) % 11) - 5 };
}

/**
 * The whole middle of the felt for the state the model holds.
 * @param {TableCore} core
 * @param {TableState} state
 * @param {TableState | null} previous the state shown before, when new cards should land (null: they appear)
 */
export function renderCentre(core, state, previous) {
  renderPile(core, state, previous);
  renderBurned(core, state);
  renderSlapWindow(core, state);
}

/**
 * The pile's top cards, a card just turned landing from its seat; its count and its name for readers. The
 * cards already drawn stay as they are (a card still landing goes on landing): only the cards that left the
 * pile go, and only the new ones are drawn.
 * @param {TableCore} core
 * @param {TableState} state
 * @param {TableState | null} previous
 */
function renderPile({ model, parts }, state, previous) {
  const { pileBox } = parts;
  const pile = state.pile;
  const firstShown = Math.max(0, pile.length - PILE_SHOWN);
  const base = state.cards - pile.length; // number of the card below the pile's first face-up card
  const fresh = previous && state.cards > model.shownCards && pile.length > 0;
  /** @type {Map<string, HTMLElement>} */
  const drawn = new Map();
  for (const el of pileBox.querySelectorAll(":scope > .pile-card")) {
    const card = /** @type {HTMLElement} */ (el);
    drawn.set(`${card.dataset.number}:${card.dataset.card}`, card);
  }
  /** @type {HTMLElement[]} */
  const shown = pile.slice(firstShown).map((card, i) => {
    const number = base + firstShown + i + 1;
    const key = `${number}:${card}`;
    const kept = drawn.get(key);
    drawn.delete(key);
    if (kept) return kept;
    const { rot, dx, dy } = tilt(number);
    const el = h("div", { class: "pile-card", dataset: { card, number }, style: `--rot:${rot}deg;--dx:${dx}px;--dy:${dy}px` },
      cardFace(card, { label: cardName(card, t) }));
    if (fresh && number > model.shownCards && !reducedMotion()) {
      const from = parts.seatEls[model.flippers.get(number) ?? state.turn];
      if (from) landFrom(el, from, pileBox);
    }
    return el;
  });
  for (const gone of drawn.values()) gone.remove();
  pileBox.querySelector(":scope > .pile-empty")?.remove();
  // In order, each over the one before; a card already in its place is not moved (that would restart its landing).
  shown.forEach((el, i) => {
    el.style.zIndex = String(i + 1);
    if (pileBox.children[i] !== el) pileBox.insertBefore(el, pileBox.children[i] ?? null);
  });
  const empty = state.cards ? t("game.pile_taken") : t("game.pile_empty");
  if (!pile.length) pileBox.append(h("div", { class: "pile-empty" }, empty));
  if (pile.length) notePainted(model, state.cards);
  else if (pileBox.dataset.size !== "0") model.emptiedAt = performance.now();
  pileBox.dataset.size = String(pile.length);
  model.shownCards = state.cards;
  parts.pileCount.textContent = pile.length ? t("game.pile_count", { n: pile.length }) : "";
  pileBox.setAttribute("aria-label", pile.length
    ? t("game.pile_top", { card: cardName(pile[pile.length - 1], t), n: pile.length })
    : empty);
}

/**
 * The cards burned under the pile by wrong slaps: how many.
 * @param {TableCore} core
 * @param {TableState} state
 */
function renderBurned({ parts }, state) {
  const { burnedBox } = parts;
  burnedBox.hidden = !state.burned_count;
  clear(burnedBox);
  if (state.burned_count) {
    burnedBox.append(h("span", { class: "burned-card", "aria-hidden": "true" }, cardBack()),
      t("game.burned", { n: state.burned_count }));
  }
}

/**
 * The slap window after a won challenge: the ring drains for as long as the pile waits to be collected.
 * @param {TableCore} core
 * @param {TableState} state
 */
function renderSlapWindow({ model, parts }, state) {
  const { waitRing, windowFlag } = parts;
  const waiting = state.collect_pending !== null && !state.over;
  waitRing.hidden = !waiting;
  windowFlag.hidden = !waiting;
  const collector = state.collect_pending;
  windowFlag.textContent = collector !== null && waiting
    ? t(youKey("access.window_open", voiceOf(model).you, collector), { name: seatName(model.seats, collector) })
    : "";
  if (waiting) {
    waitRing.style.setProperty("--wait", `${state.collect_delay_ms}ms`);
    replay(waitRing, "run");
  }
}

// ------------------------------------------------------------------ when each card was first painted

/**
 * The pile now shows card `number` on top: note when it is first painted. The frame the callback runs in is
 * the one that first shows it, so reaction times count from there.
 * @param {TableModel} model
 * @param {number} number
 */
export function notePainted(model, number) {
  if (model.paintedAt.has(number)) return;
  model.paintedAt.set(number, performance.now());
  requestAnimationFrame(() => model.paintedAt.set(number, performance.now()));
  forgetBefore(model.paintedAt, number);
}

/**
 * How long after its first paint a slap on card `card` came, in whole ms; null when it never showed here.
 * @param {TableModel} model
 * @param {number | null} card
 * @returns {number | null}
 */
export function reactionMs(model, card) {
  const painted = card === null ? undefined : model.paintedAt.get(card);
  return painted === undefined ? null : Math.max(0, Math.min(600000, Math.round(performance.now() - painted)));
}

/**
 * Only the last cards' entries are kept.
 * @param {Map<number, unknown>} map by card number
 * @param {number} number the newest card
 */
export function forgetBefore(map, number) {
  for (const key of map.keys()) if (key < number - PAINTS_KEPT) map.delete(key);
}
