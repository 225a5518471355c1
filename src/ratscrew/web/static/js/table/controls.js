// @ts-check
// The buttons under the felt: Flip and Slap for each seat this page plays (two pads when two share the
// screen), with their keys, and Pause where the room may stop its clock.
import { h, clear } from "../dom.js";
import { t } from "../i18n.js";
import { seatName } from "../format.js";
import { flip, keyLabel, keysFor, slap, togglePause } from "./input.js";
import { renderPause } from "./status.js";
/** @import { Seat, TableState } from "../types.js" */
/** @import { TableCore } from "./core.js" */

/** @param {TableCore} core */
export function buildControls(core) {
  const { model, parts } = core;
  const { controls } = parts;
  const { yours } = model;
  clear(controls);
  controls.classList.toggle("local", yours.length > 1);
  parts.element.classList.toggle("local", yours.length > 1);
  if (!yours.length) {
    controls.append(h("p", { class: "hint" }, t("game.watching")));
    return;
  }
  yours.forEach((seat, index) => {
    const label = yours.length > 1 ? seatName(model.seats, seat) : t("game.your_moves");
    controls.append(h("div", { class: `pad pad-${index}`, role: "group", "aria-label": label },
      h("span", { class: "pad-name", title: label }, label), ...padButtons(core, seat, index)));
  });
  if (model.pausable) {
    const pause = h("button", { type: "button", class: "secondary pause-button", id: "pause-button", "aria-keyshortcuts": "P" },
      h("span", { class: "pause-label" }, t("access.pause")), h("kbd", {}, "P"));
    pause.addEventListener("click", () => togglePause(core));
    controls.append(pause);
    renderPause(core);
  }
  // What a player left without cards may still do (seats.js fills it): under the buttons, on a line of its own.
  if (yours.length === 1) controls.append(h("p", { class: "seat-note", id: "seat-note", role: "status", hidden: true }));
}

/**
 * One seat's Flip and Slap buttons, pressed the moment a finger or the mouse goes down.
 * @param {TableCore} core
 * @param {Seat} seat
 * @param {number} index among the seats this page plays
 */
function padButtons(core, seat, index) {
  const keys = keysFor(core.model.yours, index);
  const flipButton = h("button", { type: "button", class: "flip-button", dataset: { seat }, id: `flip-${seat}` },
    t("game.flip"), h("kbd", {}, keyLabel(keys.flip[0])));
  const slapButton = h("button", { type: "button", class: "slap-button", dataset: { seat }, id: `slap-${seat}` },
    t("game.slap"), h("kbd", {}, keyLabel(keys.slap[0])));
  flipButton.addEventListener("pointerdown", (e) => { e.preventDefault(); flip(core, seat); });
  slapButton.addEventListener("pointerdown", (e) => { e.preventDefault(); slap(core, seat); });
  // Keyboard users activating the focused button (Enter) also count.
  flipButton.addEventListener("click", (e) => { if (e.detail === 0) flip(core, seat); });
  slapButton.addEventListener("click", (e) => { if (e.detail === 0) slap(core, seat); });
  return [flipButton, slapButton];
}

/**
 * Each Flip button glows while its seat is the one to play (and the table reaches the room).
 * @param {TableCore} core
 * @param {TableState} state
 */
export function renderFlipReady({ model, parts }, state) {
  for (const button of parts.controls.querySelectorAll(".flip-button")) {
    const seat = Number(/** @type {HTMLElement} */ (button).dataset.seat);
    button.classList.toggle("ready", !model.offline && !state.over && state.turn === seat && state.collect_pending === null);
  }
}
