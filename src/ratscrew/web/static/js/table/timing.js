// @ts-check
// When each card was first painted, so that a slap can say how long after it the player reacted (the
// server credits a slow link by it; rooms/fairness.py).
/** @import { TableModel } from "./core.js" */

const PAINTS_KEPT = 64;

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
