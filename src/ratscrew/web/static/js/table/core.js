// @ts-check
// The one value the live table's parts share: what the table knows between two messages (the model), the
// elements it draws on (the parts), and how it talks to the room. Each part of table/ is a function of it.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { pref, setPref } from "../prefs.js";
import { soundControls } from "../sound.js";
import { newMemory } from "./verdicts.js";
import { offlineFlag } from "./link.js";
import { vibrateControl } from "./buzz.js";
/** @import { EmptyWords, GameSummary, RulesDoc, Seat, SeatDoc, TableOptions, TableState } from "../types.js" */

/**
 * What the table knows between two messages.
 * @typedef {object} TableModel
 * @property {SeatDoc[]} seats the room's seats
 * @property {Seat[]} yours the seats this page plays
 * @property {RulesDoc | null} rules
 * @property {EmptyWords | null} empty what these rules say of a player without cards (the rules summary's)
 * @property {TableState | null} state the last state shown
 * @property {Ending | null} ending how the game ended: its game_over event, or the summary of a game opened again
 * @property {string | null} game which game of the room the table is set up for
 * @property {number} shownCards the cards turned when the pile was last drawn (a higher number lands)
 * @property {number} emptiedAt performance.now() when the pile was last drawn empty after it held cards
 * @property {number} startedAt performance.now() at the table's clock zero
 * @property {number} applied events applied (the tests compare pages by it)
 * @property {Map<number, number>} paintedAt card number -> performance.now() at its first paint
 * @property {Map<number, Seat>} flippers card number -> the seat that turned it
 * @property {import("./verdicts.js").VerdictMemory} memory what the next verdicts need of the events so far
 * @property {boolean} announceCards every card turned is read out (off: the pace is kept)
 * @property {boolean} pausable a game against the computer (or two on one screen): its clock stops on request
 * @property {boolean} offline the room's socket is down (link.js): nothing played is sent
 * @property {{ key: string, px: number, way?: string, h?: number }} seatRoom the seats' width, way round and tallest
 *   seat on this felt (table/seats.js)
 * @property {ReturnType<typeof setTimeout> | undefined} toastTimer
 * @property {number} toastHeldUntil performance.now() until which the banner says a verdict on the player's own slap
 * @property {ReturnType<typeof setTimeout> | undefined} toastNext a lesser banner waiting for that one to be read
 */

/**
 * How a game ended, as its game_over event and its summary both say it.
 * @typedef {{ result: GameSummary["result"], winner: Seat | null, how: GameSummary["how"] }} Ending
 */

/**
 * The table's elements, built once; the seats are rebuilt for each set of seats.
 * @typedef {object} TableParts
 * @property {HTMLElement} element the whole table
 * @property {HTMLDivElement} felt
 * @property {HTMLDivElement} seatList
 * @property {HTMLElement[]} seatEls one per seat, by index
 * @property {HTMLDivElement} pileBox
 * @property {HTMLDivElement} marks the hand marks slaps leave over the pile (motion.js)
 * @property {HTMLDivElement} flight a won pile's cards on their way to the winner, over the pile (motion.js)
 * @property {HTMLDivElement} pileCount
 * @property {HTMLDivElement} burnedBox
 * @property {HTMLDivElement} waitRing the slap window after a won challenge, as a ring that drains
 * @property {HTMLParagraphElement} windowFlag the same window in words
 * @property {HTMLParagraphElement} statusLine
 * @property {HTMLDivElement} chips
 * @property {HTMLOListElement} feed
 * @property {HTMLDivElement} controls
 * @property {HTMLSpanElement} clock
 * @property {HTMLDivElement} toast the banner over the felt
 * @property {HTMLDivElement} pausedFlag
 * @property {HTMLDivElement} offlineFlag the connection lost, in words over the pile (link.js)
 * @property {HTMLDivElement} overlay the end-of-game summary
 */

/**
 * @typedef {object} TableCore
 * @property {TableModel} model
 * @property {TableParts} parts
 * @property {TableOptions["send"]} send
 * @property {(summary: GameSummary, yours: Seat[]) => (Node | null)[]} actions the summary's buttons
 * @property {ResizeObserver} resized watches the felt and each seat (the seats, and a banner showing, are placed again)
 */

/** @returns {TableModel} */
export function newModel() {
  return {
    seats: [],
    yours: [],
    rules: null,
    empty: null,
    state: null,
    ending: null,
    game: null,
    shownCards: 0,
    emptiedAt: -Infinity,
    startedAt: performance.now(),
    applied: 0,
    paintedAt: new Map(),
    flippers: new Map(),
    memory: newMemory(),
    announceCards: Boolean(pref("announceCards", false)),
    pausable: false,
    offline: false,
    seatRoom: { key: "", px: 0 },
    toastTimer: undefined,
    toastHeldUntil: 0,
    toastNext: undefined,
  };
}

/**
 * A new game of the room starts from a clean table: its cards are numbered from 1 again.
 * @param {TableModel} model
 * @param {string | null} game
 */
export function startGame(model, game) {
  model.game = game;
  model.state = null;
  model.ending = null;
  model.shownCards = 0;
  model.emptiedAt = -Infinity;
  model.applied = 0;
  model.paintedAt.clear();
  model.flippers.clear();
  model.memory = newMemory();
}

/**
 * @param {TableModel} model its `announceCards` follows the setting
 * @returns {TableParts}
 */
export function buildParts(model) {
  const felt = h("div", { class: "felt", role: "group", "aria-label": t("game.table") });
  const pileBox = h("div", { class: "pile", id: "pile", role: "button", tabindex: "-1", "aria-label": t("game.pile") });
  const pileCount = h("div", { class: "pile-count" });
  const marks = h("div", { class: "hand-marks", "aria-hidden": "true" });
  const flight = h("div", { class: "pile-flight", "aria-hidden": "true" });
  const burnedBox = h("div", { class: "burned", hidden: true });
  // The slap window after a won challenge, in words: the ring around the pile is only an animation.
  const windowFlag = h("p", { class: "slap-window", id: "slap-window", hidden: true });
  const statusLine = h("p", { class: "status-line", id: "status-line", role: "status" });
  const waitRing = h("div", { class: "wait-ring", hidden: true, "aria-hidden": "true" });
  const center = h("div", { class: "center" }, waitRing, pileBox, flight, marks, pileCount, burnedBox, windowFlag);
  const seatList = h("div", { class: "table-seats", id: "table-seats", role: "list", "aria-label": t("access.seats") });
  // One line of chips, as many as fit whole, and a button for the rest (chips.js).
  const chips = h("div", { class: "rule-chips table-chips", id: "table-rules", role: "group", "aria-label": t("game.agreed_rules") });
  const feed = h("ol", { class: "feed", id: "feed", "aria-label": t("game.feed") });
  const controls = h("div", { class: "controls", id: "controls" });
  const clock = h("span", { class: "clock", role: "timer", "aria-label": t("game.clock") });
  const toast = h("div", { class: "toast", hidden: true, "aria-hidden": "true" });
  const pausedFlag = h("div", { class: "paused-flag", id: "paused-flag", hidden: true },
    h("strong", {}, t("access.paused_title")), h("span", {}, t(touchOnly() ? "access.paused_hint_touch" : "access.paused_hint")));
  const overlay = h("div", { class: "overlay", hidden: true, role: "dialog", "aria-modal": "true", "aria-labelledby": "over-title" });
  const offline = offlineFlag();
  felt.append(seatList, center, toast, pausedFlag, offline);
  const element = h("section", { class: "game" },
    h("div", { class: "game-head" }, h("h1", { class: "visually-hidden" }, t("game.title")), chips, clock),
    felt, statusLine, controls,
    // Below the fold, so the table keeps the whole screen: the settings, then what happened.
    h("div", { class: "below-table" }, settings(model),
      h("details", { class: "feed-wrap", open: true }, h("summary", {}, t("game.feed")), feed)),
    overlay);
  return { element, felt, seatList, seatEls: [], pileBox, marks, flight, pileCount, burnedBox, waitRing, windowFlag, statusLine,
    chips, feed, controls, clock, toast, pausedFlag, offlineFlag: offline, overlay };
}

/**
 * The table's settings: the sounds, vibration (where the device has it), and whether every card turned is read out.
 * @param {TableModel} model
 */
function settings(model) {
  const announceBox = h("input", { type: "checkbox", id: "announce-cards", checked: model.announceCards });
  announceBox.addEventListener("change", () => { model.announceCards = announceBox.checked; setPref("announceCards", model.announceCards); });
  return h("details", { class: "table-settings", id: "table-settings" },
    h("summary", {}, t("access.settings")),
    h("div", { class: "table-settings-body" },
      ...soundControls(),
      vibrateControl(),
      h("label", { class: "check" }, announceBox, " ", t("access.announce_cards")),
      h("p", { class: "hint" }, t("access.announce_hint"))));
}

/** A screen touched with no mouse nor keyboard to hand (a phone): its hints name no key. */
function touchOnly() {
  return matchMedia("(pointer: coarse)").matches && !matchMedia("(any-pointer: fine)").matches;
}
