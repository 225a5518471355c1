// @ts-check
// The table's words outside the felt's middle: the status line (whose turn, what is owed), the banner over
// the felt after a verdict, the paused flag, and the clock.
import { t, tn } from "../i18n.js";
import { aheadText, clockText, seatName, youKey } from "../format.js";
import { h } from "../dom.js";
/** @import { Named } from "../format.js" */
/** @import { Seat, TableState } from "../types.js" */
/** @import { Ending, TableCore, TableParts } from "./core.js" */

/** @typedef {"good" | "bad" | "info" | "muted"} Tone */
/**
 * A place the banner may take, in the felt's own coordinates: its centre's x and its top's y for its size
 * there, and the width it has there (null: the felt's).
 * @typedef {{ where: string, centre: (width: number) => number, top: (height: number) => number, room: number | null }} Place
 */

const BANNER_MS = 2200;
const HELD_MS = 1600; // the least a verdict on the player's own slap stays before a lesser line replaces it

/**
 * @param {TableCore} core
 * @param {TableState} state
 */
export function renderStatus({ model, parts }, state) {
  const text = model.offline && !state.over ? t("table.offline.status") : statusText(model.seats, model.yours, state, model.ending);
  if (parts.statusLine.textContent === text) return;
  parts.statusLine.textContent = text;
  if (!parts.toast.hidden) placeBanner(parts); // a longer line may now reach where the banner is
}

/**
 * The player's own seat is spoken to: "You owe 3 to Computer 2" on a page that plays one seat, "Ann, you owe
 * 3 to Bob" on a screen two share; a pile about to go to the player is said to be theirs, with no "slap now".
 * @param {Named} seats
 * @param {Seat[]} yours
 * @param {TableState} state
 * @param {Ending | null} ending how the game ended, once it has
 * @returns {string}
 */
function statusText(seats, yours, state, ending) {
  if (state.over) return overText(seats, yours, state, ending);
  if (state.paused) return t("access.status_paused");
  /** @param {string} key @param {Seat} seat */
  const toWhom = (key, seat) => (!yours.includes(seat) ? key : yours.length === 1 ? `${key}.you` : `${key}.named`);
  const due = seatName(seats, state.turn);
  if (state.collect_pending !== null) {
    return t(toWhom("game.status.waiting", state.collect_pending), { name: seatName(seats, state.collect_pending) });
  }
  if (state.owed > 0) {
    return tn(toWhom("game.status.owes_cards", state.turn), state.owed, { name: due, by: seatName(seats, state.challenger ?? state.turn) });
  }
  return yours.includes(state.turn) ? t("game.status.you", { name: due }) : t("game.status.turn", { name: due });
}

/**
 * Once the game is over: that it is, and who won or why nobody did ("you win" to the page's one seat).
 * @param {Named} seats
 * @param {Seat[]} yours
 * @param {TableState} state
 * @param {Ending | null} ending null until the page has heard how
 * @returns {string}
 */
function overText(seats, yours, state, ending) {
  const { result, winner, how } = ending ?? {};
  if (result === "win" && typeof winner === "number") {
    return t(youKey("game.over.win", yours.length === 1 ? yours[0] : null, winner), { name: seatName(seats, winner) });
  }
  if (result === "draw" || result === "loop") return t(`game.over.${result}`);
  if (how === "card_limit") return aheadText(state.stack_sizes.map((cards, seat) => ({ name: seatName(seats, seat), cards })));
  return t("game.over");
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
 * pile, its count, the burned cards, the slap window), else just over it, else beside it (on a wide, short
 * felt: a phone on its side), else over the felt's top edge (the rule chips' row). Each place is tried with
 * the banner's own size there; the first that lies inside the part of the window the player sees and keeps
 * clear of the middle column, the seats, the status line and the controls (Flip, Slap, Pause), in at most
 * two lines (three beside the pile), wins; else the first in sight and clear in more lines; else the last. The table places it again
 * when the felt's size changes (a resize, a phone turned) and when the pile's lines change under it.
 * @param {TableParts} parts
 */
export function placeBanner({ felt, toast, seatEls, statusLine, controls }) {
  const box = felt.getBoundingClientRect();
  const x0 = box.left + felt.clientLeft;
  const y0 = box.top + felt.clientTop;
  const centre = /** @type {HTMLElement} */ (felt.querySelector(".center"));
  // The middle column as it lies at rest: its lines in the column's flow, each where its layout puts it. What
  // moves over it for a moment (a wrong slap's shake of the pile, its burned card sliding in, the hands, a won
  // pile flying off) is left out: a banner placed from a shaken pile sat a shake's width off once it stopped.
  const origin = centre.getBoundingClientRect();
  const lines = [...centre.children].filter((el) => el instanceof HTMLElement && !el.hidden && el.getClientRects().length
    && !MOVING.some((name) => el.classList.contains(name)));
  const middle = lines.map((el) => restBox(/** @type {HTMLElement} */ (el), origin));
  if (!middle.length) return;
  // Each card on the pile is tilted and reaches out of the pile's box: where it lies once it has landed (a card
  // still landing is elsewhere now, and a lower card may reach out further than the top one).
  const pile = /** @type {HTMLElement | null} */ (centre.querySelector(".pile"));
  const pileBox = pile ? restBox(pile, origin) : null;
  if (pile && pileBox) for (const card of pile.querySelectorAll(":scope > .pile-card")) middle.push(restingBox(/** @type {HTMLElement} */ (card), pileBox));
  const column = {
    left: Math.min(...middle.map((r) => r.left)) - x0, right: Math.max(...middle.map((r) => r.right)) - x0,
    top: Math.min(...middle.map((r) => r.top)) - y0, bottom: Math.max(...middle.map((r) => r.bottom)) - y0,
  };
  // The controls one by one (the pads and the Pause button), not their row: it spans the page's width.
  const pads = [...controls.children].filter((el) => el instanceof HTMLElement && !el.hidden).map((el) => el.getBoundingClientRect());
  const obstacles = [...middle, ...seatEls.map((el) => el.getBoundingClientRect()), statusLine.getBoundingClientRect(), ...pads]
    .filter((r) => r.width > 0 && r.height > 0)
    .map((r) => ({ left: r.left - x0, top: r.top - y0, right: r.right - x0, bottom: r.bottom - y0 }));
  // The part of the window the player sees (a phone's zoomed-in view too), in the felt's coordinates.
  const view = window.visualViewport;
  const seen = {
    left: (view?.offsetLeft ?? 0) - x0, top: (view?.offsetTop ?? 0) - y0,
    right: (view?.offsetLeft ?? 0) + (view?.width ?? document.documentElement.clientWidth) - x0,
    bottom: (view?.offsetTop ?? 0) + (view?.height ?? document.documentElement.clientHeight) - y0,
  };
  const gap = 8; // more than a wrong slap's shake moves the pile (7 px) and the banner's rise as it shows (8 px)
  const width = felt.clientWidth;
  // Beside the pile, level with the pile itself: the lines under it (its count, the burned cards), often wider
  // than the pile, do not narrow the room beside it (the banner, a line or two, stays within the pile's height;
  // whatever it would still cover, the test below refuses). The room goes up to the felt's edge or to the first
  // seat level with the pile.
  const band = pileBox && pileBox.height > 0 ? { top: pileBox.top - y0, bottom: pileBox.bottom - y0 } : column;
  const beside = middle.map((r) => ({ left: r.left - x0, right: r.right - x0, top: r.top - y0, bottom: r.bottom - y0 }))
    .filter((r) => r.top < band.bottom && band.top < r.bottom);
  const sideLeft = beside.length ? Math.min(...beside.map((r) => r.left)) : column.left;
  const sideRight = beside.length ? Math.max(...beside.map((r) => r.right)) : column.right;
  const level = (band.top + band.bottom) / 2;
  const levelWith = obstacles.filter((o) => o.top < band.bottom && band.top < o.bottom);
  const rightEnd = Math.min(width, ...levelWith.filter((o) => o.left >= sideRight).map((o) => o.left));
  const leftEnd = Math.max(0, ...levelWith.filter((o) => o.right <= sideLeft).map((o) => o.right));
  /** @type {Place[]} */
  const places = [
    { where: "under", centre: () => width / 2, top: () => column.bottom + gap, room: null },
    { where: "over", centre: () => width / 2, top: (h) => column.top - gap - h, room: null },
    { where: "right", centre: (w) => sideRight + gap + w / 2, top: (h) => level - h / 2, room: rightEnd - sideRight - 2 * gap },
    { where: "left", centre: (w) => sideLeft - gap - w / 2, top: (h) => level - h / 2, room: sideLeft - leftEnd - 2 * gap },
    { where: "above", centre: () => width / 2, top: (h) => -felt.clientTop - gap - h, room: null },
  ];
  const style = getComputedStyle(toast);
  const lineHeight = parseFloat(style.lineHeight) || 20;
  const padding = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
  /** @type {Place | null} */
  let fallback = null;
  /** @param {Place} place @returns {"fits" | "long" | "no"} */
  const put = (place) => {
    toast.dataset.place = place.where;
    toast.style.maxWidth = place.room === null ? "" : `${place.room}px`;
    toast.style.top = "0px";
    const w = toast.offsetWidth;
    const h = toast.offsetHeight;
    const mid = place.centre(w);
    const x = mid - w / 2;
    const y = place.top(h);
    toast.style.left = `${mid}px`; // the style sheet's translateX(-50%) centres it there
    toast.style.top = `${y}px`;
    const inSight = seen.left <= x && x + w <= seen.right && seen.top <= y && y + h <= seen.bottom;
    const clear = obstacles.every((o) => y + h <= o.top || o.bottom <= y || x + w <= o.left || o.right <= x);
    if (!inSight || !clear) return "no";
    // Beside the pile (a phone on its side: a short felt, narrow on each side of the pile), three lines.
    const most = place.room === null ? 2.1 : 3.1;
    return toast.clientHeight - padding <= most * lineHeight ? "fits" : "long";
  };
  for (const place of places) {
    if (place.room !== null && place.room < 4 * lineHeight) continue; // no room beside the pile for a line of words
    const fit = put(place);
    if (fit === "fits") return;
    if (fit === "long") fallback ??= place;
  }
  if (fallback) put(fallback);
}

/**
 * The middle column's parts that only pass over it (table/motion.js's), and the ring round the pile, which
 * the lines under the pile already make room for.
 */
const MOVING = ["wait-ring", "burn-slide", "hand-marks", "pile-flight"];

/**
 * Where one of the middle column's lines lies by its layout alone, on the screen: its own passing movement (the
 * pile's shake or thump) left out. The column itself never moves but with the felt.
 * @param {HTMLElement} el a child of the column
 * @param {DOMRect} origin the column's box
 * @returns {DOMRect}
 */
function restBox(el, origin) {
  return new DOMRect(origin.left + el.offsetLeft, origin.top + el.offsetTop, el.offsetWidth, el.offsetHeight);
}

/**
 * Where a pile card lies once it has landed: the pile's box turned by the card's tilt and moved by its offset
 * (pile.js sets both), as the box that holds it on the screen.
 * @param {HTMLElement} card
 * @param {DOMRect} box the pile's, at rest
 * @returns {DOMRect}
 */
function restingBox(card, box) {
  const turn = (parseFloat(card.style.getPropertyValue("--rot")) || 0) * Math.PI / 180;
  const dx = parseFloat(card.style.getPropertyValue("--dx")) || 0;
  const dy = parseFloat(card.style.getPropertyValue("--dy")) || 0;
  const w = box.width;
  const h = box.height;
  const halfW = (w * Math.abs(Math.cos(turn)) + h * Math.abs(Math.sin(turn))) / 2;
  const halfH = (w * Math.abs(Math.sin(turn)) + h * Math.abs(Math.cos(turn))) / 2;
  const x = box.left + box.width / 2 + dx;
  const y = box.top + box.height / 2 + dy;
  return new DOMRect(x - halfW, y - halfH, 2 * halfW, 2 * halfH);
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
  for (const pad of parts.controls.querySelectorAll(".flip-button, .slap-button")) pad.setAttribute("aria-disabled", String(paused || model.offline));
}

/**
 * The game's time so far, or the time left under a time limit.
 * @param {TableCore} core
 */
export function renderClock({ model, parts }) {
  const { state, rules } = model;
  if (!state || state.over) return;
  // Paused, the clock shows the time it stopped at (a page reloaded while paused has no other).
  const ms = state.paused ? state.now || 0 : performance.now() - model.startedAt;
  const seconds = rules?.end?.time_limit_s;
  const limit = typeof seconds === "number" && seconds ? seconds * 1000 : 0;
  const shown = limit ? Math.max(0, limit - ms) : ms;
  // The word goes on a phone, where the rules' chips need the room (the clock's label says it to readers).
  parts.clock.replaceChildren(h("span", { class: "clock-word" }, `${limit ? t("game.time_left") : t("game.time")} `), clockText(shown));
}
