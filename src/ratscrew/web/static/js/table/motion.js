// @ts-check
// Where something on the table moves: a card lands on the pile from the seat that turned it, the pile
// sweeps to whoever won it, a seat shakes after a wrong slap or glows after a win, a button or the pile
// thumps when slapped. The motion itself is the style sheets' (table.css); nothing here waits for it.
import { reducedMotion } from "../dom.js";

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

/**
 * The pile's cards fly to the seat that won them, and the seat glows.
 * @param {Element} pile
 * @param {Element | undefined} seat
 */
export function sweepTo(pile, seat) {
  if (!seat || reducedMotion()) return;
  const { x, y } = offset(seat, pile);
  for (const card of pile.querySelectorAll(".pile-card")) {
    const style = /** @type {HTMLElement} */ (card).style;
    style.setProperty("--to-x", `${x}px`);
    style.setProperty("--to-y", `${y}px`);
    card.classList.add("sweep");
  }
  replay(seat, "won");
}
