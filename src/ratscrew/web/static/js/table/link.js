// @ts-check
// Whether the table reaches the room: with the connection lost it says so over the pile, stops looking live (no
// glowing Flip, no seat lit as due, no slap window, the status line says it reconnects), and refuses Flip and
// Slap with the reason in the same place; it comes back by itself when the room welcomes it again.
import { announce, h } from "../dom.js";
import { t } from "../i18n.js";
import { replay } from "./motion.js";
import { showBanner } from "./status.js";
/** @import { TableCore } from "./core.js" */

/** The notice over the pile, hidden while the table reaches the room. */
export function offlineFlag() {
  return h("div", { class: "offline-flag", id: "offline-flag", hidden: true },
    h("strong", {}, t("table.offline.title")),
    h("span", {}, t("table.offline.text")),
    h("span", { class: "offline-refused", hidden: true }, t("table.offline.refused")));
}

/**
 * The room's socket is up or down (the page's connection says which, the browser's network first).
 * @param {TableCore} core
 * @param {boolean} up
 * @param {() => void} redraw the table's lines that depend on it (the status line, Flip, the seats)
 */
export function setLink(core, up, redraw) {
  const { model, parts } = core;
  if (model.offline === !up) return;
  model.offline = !up;
  parts.element.classList.toggle("offline", !up);
  parts.offlineFlag.hidden = up;
  /** @type {HTMLElement} */ (parts.offlineFlag.querySelector(".offline-refused")).hidden = true;
  for (const pad of parts.controls.querySelectorAll(".flip-button, .slap-button")) pad.setAttribute("aria-disabled", String(!up));
  redraw();
  if (up) {
    showBanner(core, t("table.online_again"), "good");
    announce(t("table.online_again"));
  } else {
    announce(`${t("table.offline.title")}. ${t("table.offline.text")}`, { urgent: true });
  }
}

/**
 * A Flip or a Slap the table cannot send: the notice over the pile says why, and shakes.
 * @param {TableCore} core
 */
export function refuseOffline({ parts }) {
  const line = /** @type {HTMLElement} */ (parts.offlineFlag.querySelector(".offline-refused"));
  line.hidden = false;
  replay(parts.offlineFlag, "nudge");
  announce(t("table.offline.refused"), { urgent: true });
}
