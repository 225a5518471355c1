// @ts-check
// What a player does at the table: flip, slap, pause, by button, key or tap. Each is sent the moment it is
// pressed; the server decides what it was worth.
import { announce } from "../dom.js";
import { t } from "../i18n.js";
import { replay } from "./motion.js";
import { reactionMs } from "./pile.js";
import { refuseOffline } from "./link.js";
import { showBanner } from "./status.js";
/** @import { Seat } from "../types.js" */
/** @import { TableCore } from "./core.js" */

const SOLO_KEYS = { flip: ["f", " "], slap: ["j"] };
const LOCAL_KEYS = [{ flip: ["a"], slap: ["s"] }, { flip: ["l"], slap: ["k"] }];

/**
 * The keys of the `index`-th seat this page plays: one player's, or each of two on one screen.
 * @param {Seat[]} yours
 * @param {number} index
 * @returns {{ flip: string[], slap: string[] }}
 */
export function keysFor(yours, index) {
  return yours.length === 1 ? SOLO_KEYS : LOCAL_KEYS[index];
}

/** @param {string} key */
export function keyLabel(key) {
  return key === " " ? t("game.key.space") : key.toUpperCase();
}

/**
 * The play is not this page's to make, or the table is paused (which it says).
 * @param {TableCore} core
 * @param {Seat} seat
 */
function refused({ model }, seat) {
  const { state } = model;
  if (!state || state.over || !model.yours.includes(seat)) return true;
  if (state.paused) { announce(t("access.paused_hint")); return true; }
  return false;
}

/**
 * Send a play, unless the connection is lost: then say so where the eyes are, and send nothing.
 * @param {TableCore} core
 * @param {import("../types.js").ClientMessage} message
 * @returns {boolean} whether it went
 */
function sent(core, message) {
  if (core.model.offline) {
    refuseOffline(core);
    return false;
  }
  if (core.send(message) === false) { // the socket closed a moment ago: its page hears of it next
    showBanner(core, t("table.offline.refused"), "bad");
    return false;
  }
  return true;
}

/**
 * @param {TableCore} core
 * @param {Seat} seat
 */
export function flip(core, seat) {
  if (refused(core, seat)) return;
  sent(core, { type: "flip", seat });
}

// A slap this soon after the pile was taken reacted to that pile, not to the empty felt: it names the pile's
// last card, and the server sets it aside as too late. Later, a slap on the empty pile is a slap on nothing.
const TAKEN_GRACE_MS = 600;

/**
 * A slap names the top card this player saw and how long after its first paint they reacted; no card for
 * an empty pile.
 * @param {TableCore} core
 * @param {Seat} seat
 */
export function slap(core, seat) {
  const { state } = core.model;
  if (!state || refused(core, seat)) return;
  const justTaken = state.cards > 0 && performance.now() - core.model.emptiedAt < TAKEN_GRACE_MS;
  const card = state.pile.length || justTaken ? state.cards : null;
  if (!sent(core, { type: "slap", seat, card, rt: reactionMs(core.model, card) })) return;
  const pad = core.parts.controls.querySelector(`#slap-${seat}`);
  if (pad) replay(pad, "pressed");
  replay(core.parts.pileBox, "slapped");
}

/** @param {TableCore} core */
export function togglePause(core) {
  const { state } = core.model;
  if (!core.model.pausable || !state || state.over || !core.model.yours.length) return;
  sent(core, { type: "pause", paused: !state.paused });
}

/**
 * Whether the focused control needs this key itself: typing in a field, Space on a checkbox, a button or a
 * summary (the table's own Flip and Slap buttons excepted), arrows on a slider. Letters still play.
 * @param {EventTarget | null} target
 * @param {string} key lower case
 */
function ownsKey(target, key) {
  if (!(target instanceof HTMLElement)) return false;
  if (["SELECT", "TEXTAREA"].includes(target.tagName) || target.isContentEditable) return true;
  if (target instanceof HTMLInputElement) {
    if (!["checkbox", "radio", "range", "button"].includes(target.type)) return true;
    return key === " " || key.startsWith("arrow");
  }
  if (key === " " && ["BUTTON", "SUMMARY", "A"].includes(target.tagName)) {
    return !target.classList.contains("flip-button") && !target.classList.contains("slap-button");
  }
  return false;
}

/**
 * The table's keys, while it is on the screen and its summary is not.
 * @param {TableCore} core
 * @param {KeyboardEvent} event
 */
export function onKey(core, event) {
  const { model, parts } = core;
  if (event.repeat || event.ctrlKey || event.metaKey || event.altKey) return;
  if (!parts.element.isConnected || parts.element.closest("[hidden]")) return;
  const key = event.key.toLowerCase();
  if (ownsKey(event.target, key)) return;
  if (!parts.overlay.hidden) return;
  if (key === "p" && model.pausable) { event.preventDefault(); togglePause(core); return; }
  model.yours.forEach((seat, index) => {
    const keys = keysFor(model.yours, index);
    if (keys.flip.includes(key)) { event.preventDefault(); flip(core, seat); }
    if (keys.slap.includes(key)) { event.preventDefault(); slap(core, seat); }
  });
}
