// @ts-check
// A short vibration when the player's own slap is judged, where the device has both a touch screen and a
// vibration motor (a phone, a tablet); never on a desktop, and never once the player turns it off in the table's
// settings (the switch shows only where it would do something).
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { pref, setPref } from "../prefs.js";

/** @typedef {"won" | "wrong" | "set_aside"} Buzz */

/** @type {Record<Buzz, number[]>} a short tap for a slap won, a double knock for a wrong one, a brush for one set aside */
const PATTERNS = { won: [40], wrong: [70, 60, 70], set_aside: [20] };
const PREF = "vibrate";

/** Whether this device can vibrate and is held in the hand (a touch screen), not a desktop's. */
export function canVibrate() {
  return typeof navigator.vibrate === "function" && (navigator.maxTouchPoints > 0 || matchMedia("(pointer: coarse)").matches);
}

/** @param {Buzz} kind */
export function buzz(kind) {
  if (canVibrate() && pref(PREF, true) !== false) navigator.vibrate(PATTERNS[kind]);
}

/** The settings' switch, where the device can vibrate; else nothing (no option that does nothing). */
export function vibrateControl() {
  if (!canVibrate()) return null;
  const box = h("input", { type: "checkbox", id: "vibrate", checked: pref(PREF, true) !== false });
  box.addEventListener("change", () => setPref(PREF, box.checked));
  return h("label", { class: "check" }, box, " ", t("table.vibrate"));
}
