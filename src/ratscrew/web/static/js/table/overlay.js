// @ts-check
// The box the end-of-game summary shows in, over the table (end.js fills it): hidden again for a new game, and
// while it shows, a modal dialog that keeps the keyboard's focus in itself.
import { clear } from "../dom.js";
/** @import { TableCore } from "./core.js" */

/** @param {TableCore} core */
export function hideSummary({ parts }) {
  parts.overlay.hidden = true;
  clear(parts.overlay);
}

/**
 * The summary is a modal dialog: Tab and Shift+Tab go round its own buttons and links, not the table behind.
 * @param {HTMLElement} overlay
 * @param {KeyboardEvent} event
 */
export function keepFocusIn(overlay, event) {
  if (event.key !== "Tab") return;
  /** @type {NodeListOf<HTMLElement>} */
  const found = overlay.querySelectorAll("button, a[href], summary");
  const items = [...found].filter((el) => !(/** @type {HTMLButtonElement} */ (el)).disabled && el.getClientRects().length > 0);
  if (!items.length) return;
  const first = items[0];
  const last = items[items.length - 1];
  if (event.shiftKey && document.activeElement === first) { event.preventDefault(); last.focus(); }
  else if (!event.shiftKey && document.activeElement === last) { event.preventDefault(); first.focus(); }
}
