// @ts-check
// The agreed rules over the table, as chips beside the clock on one line (two on a tall phone, where the felt has
// height to spare): as many as fit whole, then a button that says how many more there are and shows them all, and
// folds them again. No chip is ever cut at the edge or slides under the clock; the table fits them again when its
// size changes.
import { h } from "../dom.js";
import { t } from "../i18n.js";
/** @import { RulesSummary } from "../types.js" */

/**
 * The chips of a summary, in place of the ones before, fitted to the line.
 * @param {HTMLElement} box the table's chip line
 * @param {RulesSummary} summary
 */
export function showChips(box, summary) {
  const toggle = h("button", { type: "button", class: "chips-more", "aria-expanded": "false", hidden: true });
  toggle.addEventListener("click", () => {
    box.classList.toggle("open");
    fitChips(box);
    toggle.focus();
  });
  box.replaceChildren(...summary.chips.map((chip) => h("span", { class: "chip" }, chip)), toggle);
  fitChips(box);
}

// A line narrower than this, on a screen at least this tall (an upright phone, not a small one), may take two lines
// of chips: the felt under them has height to spare there.
const NARROW_PX = 560;
const TALL_PX = 720;

/**
 * Show every chip that fits whole in the line's room, the button counting the rest; or every chip, open.
 * @param {HTMLElement} box
 */
export function fitChips(box) {
  const chips = /** @type {HTMLElement[]} */ ([...box.querySelectorAll(":scope > .chip")]);
  const toggle = /** @type {HTMLButtonElement | null} */ (box.querySelector(":scope > .chips-more"));
  if (!toggle || !box.isConnected) return;
  const open = box.classList.contains("open");
  for (const chip of chips) chip.hidden = false;
  toggle.hidden = false;
  label(toggle, open, chips.length, chips.length);
  if (open) return;
  // The room: one line of the button's height (two on a narrow line), and no wider than the line.
  const gap = parseFloat(getComputedStyle(box).rowGap) || 0;
  const lines = box.clientWidth < NARROW_PX && window.innerHeight >= TALL_PX ? 2 : 1;
  const room = lines * toggle.offsetHeight + (lines - 1) * gap + 1;
  const fits = () => box.scrollWidth <= box.clientWidth && inner(box) <= room;
  toggle.hidden = true;
  if (fits()) return;
  // From the end, one chip at a time, until what is left and the button fit.
  toggle.hidden = false;
  for (let shown = chips.length - 1; shown >= 0; shown--) {
    chips[shown].hidden = true;
    label(toggle, false, chips.length, chips.length - shown);
    if (fits()) break;
  }
}

/**
 * The height of the line's content, its padding left out.
 * @param {HTMLElement} box
 */
function inner(box) {
  const style = getComputedStyle(box);
  return box.scrollHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
}

/**
 * @param {HTMLButtonElement} toggle
 * @param {boolean} open
 * @param {number} all how many chips there are
 * @param {number} [more] how many are hidden
 */
function label(toggle, open, all, more = 0) {
  toggle.textContent = open ? t("table.chips.fewer") : t("table.chips.more", { n: more });
  toggle.setAttribute("aria-label", open ? t("table.chips.fewer_label") : t("table.chips.more_label", { n: all }));
  toggle.setAttribute("aria-expanded", String(open));
}
