// @ts-check
// What the table now asks of whom, for screen readers: a slap window that opens, whose turn it is, the
// table paused or going again. Your own turn is always said; another player's only after something worth
// saying (or with every card read out), so a quick game is not read as a stream of names.
import { announce } from "../dom.js";
import { t, tn } from "../i18n.js";
import { playSound } from "../sound.js";
import { seatName, youKey } from "../format.js";
import { voiceOf } from "./verdicts.js";
/** @import { TableState } from "../types.js" */

// Whose turn it is, said once a batch: a later turn replaces one not yet read ("Your turn", then another's).
const TURN = { topic: "turn" };
/** @import { TableModel } from "./core.js" */

/**
 * @param {TableModel} model
 * @param {TableState | null} before the state shown until now
 * @param {TableState} next
 * @param {boolean} noteworthy something besides cards turned happened on the way
 */
export function narrate(model, before, next, noteworthy) {
  const { seats, yours } = model;
  if (next.over) return;
  if (before !== null && Boolean(before.paused) !== Boolean(next.paused)) {
    announce(t(next.paused ? "access.say.paused" : "access.say.resumed"));
    return;
  }
  if (next.paused) return;
  const wasWaiting = before !== null && before.collect_pending !== null && !before.over;
  if (next.collect_pending !== null) {
    const key = youKey("access.say.window", voiceOf(model).you, next.collect_pending);
    if (!wasWaiting) announce(t(key, { name: seatName(seats, next.collect_pending) }));
    return;
  }
  const changed = before === null || wasWaiting || before.turn !== next.turn || before.cards > next.cards;
  if (!changed) return;
  const name = seatName(seats, next.turn);
  if (yours.includes(next.turn)) {
    playSound("turn");
    const named = yours.length > 1;
    if (next.owed > 0) announce(tn(named ? "access.say.your_turn_owed_named" : "access.say.your_turn_owed", next.owed, { name }), TURN);
    else announce(t(named ? "access.say.your_turn_named" : "access.say.your_turn", { name }), TURN);
  } else if (noteworthy || model.announceCards) {
    announce(t("access.say.turn", { name }), TURN);
  }
}
