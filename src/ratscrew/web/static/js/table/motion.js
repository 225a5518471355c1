// @ts-check
// Where something on the table moves: a card lands on the pile from the seat that turned it, the pile
// sweeps to whoever won it, a seat shakes after a wrong slap or glows after a win, a button or the pile
// thumps when slapped, a slap leaves a hand in the slapper's colour on the pile, a wrong slap shakes the
// pile and its burned card slides under it. The motion is the style sheets' (table.css) or the Web
// Animations API's; nothing here waits for it, and none of it plays under prefers-reduced-motion (the
// words say it all the same).
import { h, reducedMotion } from "../dom.js";

/**
 * Play an element's animation class again from its start, even while it still runs.
 * @param {Element} el
 * @param {string} name
 */
export function replay(el, name) {
  el.classList.remove(name);
  void (/** @type {HTMLElement} */ (el)).offsetWidth; // a reflow, so the class coming back restarts the animation
  el.classList.add(name);
}

/**
 * The distance from the middle of `to` to the middle of `from`, in px.
 * @param {Element} from
 * @param {Element} to
 */
function offset(from, to) {
  const f = from.getBoundingClientRect();
  const c = to.getBoundingClientRect();
  return { x: f.left + f.width / 2 - (c.left + c.width / 2), y: f.top + f.height / 2 - (c.top + c.height / 2) };
}

/**
 * A card just turned lands on the pile from the seat that turned it.
 * @param {HTMLElement} card a pile card, in the pile
 * @param {Element} seat
 * @param {Element} pile
 */
export function landFrom(card, seat, pile) {
  const { x, y } = offset(seat, pile);
  card.style.setProperty("--from-x", `${x}px`);
  card.style.setProperty("--from-y", `${y}px`);
  card.classList.add("landing");
}

const SWEEP_MS = 480;

/**
 * The pile's cards fly to the seat that won them, and the seat glows. The cards leave the pile for the layer
 * over it (`flight`), so the pile drawn next, empty, does not take them away mid-flight; each starts from
 * where it is (a card still landing too), the top card first, and is gone when it arrives.
 * @param {Element} pile
 * @param {HTMLElement} flight the layer over the pile, of the pile's size and place
 * @param {Element | undefined} seat
 */
export function sweepTo(pile, flight, seat) {
  if (!seat || reducedMotion()) return;
  const { x, y } = offset(seat, pile);
  const cards = /** @type {HTMLElement[]} */ ([...pile.querySelectorAll(":scope > .pile-card")]);
  const starts = cards.map((card) => getComputedStyle(card).transform);
  cards.forEach((card, i) => {
    card.classList.remove("landing");
    flight.append(card);
    const from = starts[i] === "none" ? "translate(0, 0)" : starts[i];
    const fly = card.animate([{ transform: from, opacity: 1 },
      { transform: `translate(${x}px, ${y}px) rotate(0deg) scale(0.45)`, opacity: 0.35 }],
    { duration: SWEEP_MS, delay: Math.min(cards.length - 1 - i, 6) * 18, easing: "cubic-bezier(0.35, 0, 0.25, 1)", fill: "both" });
    fly.finished.then(() => card.remove(), () => card.remove());
  });
  replay(seat, "won");
}

const MARK_MS = 900;

/**
 * A slapper's colour: seats go round the colour wheel, far apart for neighbours.
 * @param {number} seat
 */
export function seatHue(seat) {
  return (seat * 137 + 20) % 360;
}

/**
 * A hand mark on the pile in the slapper's colour; a won slap's lies over the others' (two slaps together
 * leave two marks, the winner's on top). It fades by itself.
 * @param {HTMLElement} marks the layer over the pile
 * @param {number} seat
 * @param {boolean} won
 */
export function handMark(marks, seat, won) {
  if (reducedMotion()) return;
  const tilt = ((seat * 53) % 41) - 20;
  const mark = h("span", { class: `hand-mark${won ? " won" : ""}`, style: `--hue:${seatHue(seat)};--tilt:${tilt}deg` }, handShape());
  marks.append(mark);
  const fade = mark.animate(
    [{ opacity: 0, transform: `rotate(${tilt}deg) scale(1.5)` }, { opacity: 0.92, transform: `rotate(${tilt}deg) scale(1)`, offset: 0.2 },
      { opacity: 0.92, offset: 0.7 }, { opacity: 0, transform: `rotate(${tilt}deg) scale(1)` }],
    { duration: MARK_MS, easing: "ease-out" });
  fade.finished.then(() => mark.remove(), () => mark.remove());
}

/** An open hand, drawn in the current colour. */
function handShape() {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 40 44");
  svg.setAttribute("aria-hidden", "true");
  const parts = [[9, 18, 24, 22, 9], [9, 4, 5, 20, 2.5], [15, 1, 5, 21, 2.5], [21, 2, 5, 20, 2.5], [27, 6, 5, 17, 2.5]];
  for (const [x, y, width, height, r] of parts) {
    const rect = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    for (const [name, value] of Object.entries({ x, y, width, height, rx: r })) rect.setAttribute(name, String(value));
    svg.append(rect);
  }
  const thumb = document.createElementNS("http://www.w3.org/2000/svg", "rect");
  for (const [name, value] of Object.entries({ x: 0, y: 20, width: 14, height: 6, rx: 3, transform: "rotate(35 7 23)" })) thumb.setAttribute(name, String(value));
  svg.append(thumb);
  return svg;
}

/**
 * A wrong slap: the pile shakes, and the burned card slides from the slapper's seat in under it.
 * @param {Element} pile
 * @param {Element | undefined} seat
 * @param {number} burned how many cards went under
 */
export function wrongSlapMotion(pile, seat, burned) {
  if (reducedMotion()) return;
  pile.animate([{ transform: "translateX(0)" }, { transform: "translateX(-7px)" }, { transform: "translateX(6px)" },
    { transform: "translateX(-4px)" }, { transform: "translateX(0)" }], { duration: 320, easing: "ease-in-out" });
  if (!seat || !burned || !pile.parentElement) return;
  const { x, y } = offset(seat, pile);
  const card = h("span", { class: "burn-slide", "aria-hidden": "true" });
  pile.parentElement.prepend(card); // first in the middle: it passes under the pile
  const slide = card.animate([{ transform: `translate(${x}px, ${y}px) scale(0.6)`, opacity: 0.9 },
    { transform: "translate(0, 0) scale(1)", opacity: 0.9, offset: 0.8 }, { transform: "translate(0, 6px) scale(1)", opacity: 0 }],
    { duration: 520, easing: "ease-out" });
  slide.finished.then(() => card.remove(), () => card.remove());
}
