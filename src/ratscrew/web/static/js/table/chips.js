// @ts-check
// The agreed rules over the table, as chips on one line beside the clock: as many as fit whole (the first, what may
// be slapped, may take two lines of its own rather than go), then a button that says how many more there are and shows them all, and
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
  // The room: the line's width, and one line's height (the button's, or a chip's); only when not even the first
  // chip fits so beside the button, the height of that chip on two lines.
  const oneLine = Math.max(toggle.offsetHeight, lines(chips[0], 1)) + 1;
  const twoLines = Math.max(toggle.offsetHeight, lines(chips[0], 2)) + 1;
  /** @param {number} room */
  const fits = (room) => box.scrollWidth <= box.clientWidth && inner(box) <= room;
  toggle.hidden = true;
  if (fits(oneLine)) return;
  toggle.hidden = false;
  for (const room of [oneLine, twoLines]) {
    // From the end, one chip at a time, until what is left and the button fit.
    for (let shown = chips.length; shown >= 0; shown--) {
      chips.forEach((chip, i) => { chip.hidden = i >= shown; });
      label(toggle, false, chips.length, chips.length - shown);
      if (fits(room) && (shown > 0 || room === twoLines)) return;
    }
  }
}

/**
 * The height of a chip whose words take `count` lines.
 * @param {HTMLElement | undefined} chip
 * @param {number} count
 */
function lines(chip, count) {
  if (!chip) return 0;
  const style = getComputedStyle(chip);
  const edges = [style.paddingTop, style.paddingBottom, style.borderTopWidth, style.borderBottomWidth];
  return count * (parseFloat(style.lineHeight) || 0) + edges.reduce((sum, edge) => sum + (parseFloat(edge) || 0), 0);
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
