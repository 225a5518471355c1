// @ts-check
// The table's words outside the felt's middle: the status line (whose turn, what is owed), the banner over
// the felt after a verdict, the paused flag, and the clock.
import { t } from "../i18n.js";
import { clockText, seatName } from "../format.js";
/** @import { Named } from "../format.js" */
/** @import { Seat, TableState } from "../types.js" */
/** @import { TableCore, TableParts } from "./core.js" */

/** @typedef {"good" | "bad" | "info" | "muted"} Tone */

const BANNER_MS = 2200;
const HELD_MS = 1600; // the least a verdict on the player's own slap stays before a lesser line replaces it

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
 * A verdict or a refusal in a few words near the pile, for a moment. A verdict on the player's own slap
 * (`held`) stays readable for HELD_MS: a lesser line arriving meanwhile (a pile collected) waits for it.
 * @param {TableCore} core
 * @param {string} text
 * @param {Tone} tone
 * @param {{ held?: boolean }} [options]
 */
export function showBanner(core, text, tone, { held = false } = {}) {
  const { model, parts } = core;
  const now = performance.now();
  clearTimeout(model.toastNext);
  if (!held && model.toastHeldUntil > now) {
    model.toastNext = setTimeout(() => showBanner(core, text, tone), model.toastHeldUntil - now);
    return;
  }
  model.toastHeldUntil = held ? now + HELD_MS : 0;
  const { toast } = parts;
  toast.textContent = text;
  toast.className = `toast tone-${tone}`;
  toast.hidden = false;
  placeBanner(parts);
  clearTimeout(model.toastTimer);
  model.toastTimer = setTimeout(() => { toast.hidden = true; }, BANNER_MS);
}

/**
 * Put the banner near the pile where it covers nothing of the table's: just under the middle column (the
 * pile, its count, the burned cards, the slap window), else just over it, else over the felt's top edge
 * (the rule chips' row). Each place is tried with the banner's own size there; the first that keeps clear of
 * the middle column, the seats and the status line wins (the last one otherwise).
 * @param {TableParts} parts
 */
export function placeBanner({ felt, toast, seatEls, statusLine }) {
  const box = felt.getBoundingClientRect();
  const x0 = box.left + felt.clientLeft;
  const y0 = box.top + felt.clientTop;
  const centre = /** @type {HTMLElement} */ (felt.querySelector(".center"));
  const middle = [...centre.children].filter((el) => el instanceof HTMLElement && !el.hidden && !el.classList.contains("wait-ring")
    && el.getClientRects().length).map((el) => el.getBoundingClientRect());
  if (!middle.length) return;
  const top = Math.min(...middle.map((r) => r.top)) - y0;
  const bottom = Math.max(...middle.map((r) => r.bottom)) - y0;
  const obstacles = [...middle, ...seatEls.map((el) => el.getBoundingClientRect()), statusLine.getBoundingClientRect()]
    .filter((r) => r.width > 0 && r.height > 0)
    .map((r) => ({ left: r.left - x0, top: r.top - y0, right: r.right - x0, bottom: r.bottom - y0 }));
  const gap = 6;
  /** @type {[string, (height: number) => number][]} */
  const places = [
    ["under", () => bottom + gap],
    ["over", (height) => top - gap - height],
    ["above", (height) => -felt.clientTop - gap - height],
  ];
  for (const [where, topFor] of places) {
    toast.dataset.place = where;
    toast.style.top = "0px";
    const width = toast.offsetWidth;
    const height = toast.offsetHeight;
    const y = topFor(height);
    const left = (felt.clientWidth - width) / 2;
    const clear = obstacles.every((o) => y + height <= o.top || o.bottom <= y || left + width <= o.left || o.right <= left);
    toast.style.top = `${y}px`;
    if (clear) return;
  }
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
