// @ts-check
// The table's words outside the felt's middle: the status line (whose turn, what is owed), the banner over
// the felt after a verdict, the paused flag, and the clock.
import { t } from "../i18n.js";
import { clockText, seatName } from "../format.js";
/** @import { Named } from "../format.js" */
/** @import { Seat, TableState } from "../types.js" */
/** @import { TableCore } from "./core.js" */

/** @typedef {"good" | "bad" | "info" | "muted"} Tone */

const BANNER_MS = 2200;

/**
 * @param {TableCore} core
 * @param {TableState} state
 */
export function renderStatus({ model, parts }, state) {
  parts.statusLine.textContent = statusText(model.seats, model.yours, state);
}

/**
 * @param {Named} seats
 * @param {Seat[]} yours
 * @param {TableState} state
 * @returns {string}
 */
function statusText(seats, yours, state) {
  if (state.over) return t("game.over");
  if (state.paused) return t("access.status_paused");
  const due = seatName(seats, state.turn);
  if (state.collect_pending !== null) return t("game.status.waiting", { name: seatName(seats, state.collect_pending) });
  if (state.owed > 0) return t("game.status.owes", { name: due, n: state.owed, by: seatName(seats, state.challenger ?? state.turn) });
  return yours.includes(state.turn) ? t("game.status.you", { name: due }) : t("game.status.turn", { name: due });
}

/**
 * A verdict or a refusal in a few words over the felt, for a moment.
 * @param {TableCore} core
 * @param {string} text
 * @param {Tone} tone
 */
export function showBanner({ model, parts }, text, tone) {
  const { toast } = parts;
  toast.textContent = text;
  toast.className = `toast tone-${tone}`;
  toast.hidden = false;
  clearTimeout(model.toastTimer);
  model.toastTimer = setTimeout(() => { toast.hidden = true; }, BANNER_MS);
}

/**
 * Whether the table's clock is stopped, on the table, its flag and its buttons.
 * @param {TableCore} core
 */
export function renderPause({ model, parts }) {
  const { state } = model;
  const paused = Boolean(state?.paused) && !state?.over;
  parts.element.classList.toggle("paused", paused);
  parts.pausedFlag.hidden = !paused;
  const button = parts.controls.querySelector("#pause-button");
  if (button) {
    /** @type {HTMLElement} */ (button.querySelector(".pause-label")).textContent = paused ? t("access.resume") : t("access.pause");
    /** @type {HTMLElement} */ (button).hidden = !state || state.over;
  }
  for (const pad of parts.controls.querySelectorAll(".flip-button, .slap-button")) pad.setAttribute("aria-disabled", String(paused));
}

/**
 * The game's time so far, or the time left under a time limit.
 * @param {TableCore} core
 */
export function renderClock({ model, parts }) {
  const { state, rules } = model;
  if (!state || state.over || state.paused) return;
  const ms = performance.now() - model.startedAt;
  const seconds = rules?.end?.time_limit_s;
  const limit = typeof seconds === "number" && seconds ? seconds * 1000 : 0;
  const shown = limit ? Math.max(0, limit - ms) : ms;
  parts.clock.textContent = `${limit ? t("game.time_left") : t("game.time")} ${clockText(shown)}`;
}
