// @ts-check
// The live table, shared by a game against the computer (#/game/...) and an online room (#/room/...): the
// felt, the seats with their names, connection and delay, the pile, the buttons, what happened, and the
// end-of-game summary. It never decides a rule: it sends flips and slaps and shows what the server says.
// Its parts are under table/, each a function of one shared value (table/core.js): the seats and where they
// sit, the pile and the slap window, the status line and banner, the events and the feed, the controls and
// keys, the words for screen readers, where a verdict becomes words, where things move, and the summary.
import { announce, clear } from "./dom.js";
import { has, t } from "./i18n.js";
import { seatName, youKey } from "./format.js";
import { rulesSummary } from "./summary.js";
import { fitChips, showChips } from "./table/chips.js";
import { buildControls, renderFlipReady } from "./table/controls.js";
import { buildParts, newModel, startGame } from "./table/core.js";
import { hideSummary, keepFocusIn } from "./table/overlay.js";
import { onKey, slap } from "./table/input.js";
import { buildSeats, placeSeats, renderSeats, showConnections } from "./table/seats.js";
import { applyEvents, renderTurn, showState } from "./table/show.js";
import { setLink } from "./table/link.js";
import { renderCentre } from "./table/pile.js";
import { placeBanner, renderClock, showBanner } from "./table/status.js";
import { voiceOf } from "./table/verdicts.js";
export { connectionClass, connectionText } from "./table/seats.js";
/** @import { GameSummary, RejectedMessage, RulesDoc, Seat, SeatDoc, Table, TableOptions } from "./types.js" */
/** @import { TableCore } from "./table/core.js" */

/**
 * @param {TableOptions} options
 * @returns {Table}
 */
export function createTable({ send, actions = () => [] }) {
  const model = newModel();
  const parts = buildParts(model);
  // A resize or a phone turned moves the seats and the pile: the seats are placed again, and a banner showing;
  // the rules' chips are fitted to their line again.
  const resized = new ResizeObserver(() => {
    placeSeats(core);
    if (!parts.toast.hidden) placeBanner(parts);
    fitChips(parts.chips);
  });
  /** @type {TableCore} */
  const core = { model, parts, send, actions, resized };
  core.resized.observe(parts.felt);
  if (parts.chips.parentElement) core.resized.observe(parts.chips.parentElement);

  /** @param {KeyboardEvent} event */
  const keys = (event) => onKey(core, event);
  document.addEventListener("keydown", keys);
  parts.pileBox.addEventListener("pointerdown", (e) => {
    if (model.yours.length === 1) { e.preventDefault(); slap(core, model.yours[0]); }
  });
  parts.overlay.addEventListener("keydown", (event) => keepFocusIn(parts.overlay, event));
  const tick = setInterval(() => renderClock(core), 250);

  return {
    element: parts.element,
    setup: (seats, yours, rules, game = null, tags = []) => setup(core, seats, yours, rules, game, tags),
    setSeats: (seats) => setSeats(core, seats),
    setPausable(pausable) {
      model.pausable = Boolean(pausable);
      if (model.seats.length) buildControls(core);
    },
    // Only the measured delays moved (a `latency` message): one number per seat.
    setLatencies: (latencies) => setSeats(core, model.seats.map((seat, index) => ({ ...seat, latency_ms: latencies[index] ?? null }))),
    update: (state, options) => showState(core, state, options),
    apply: (items, state) => applyEvents(core, items, state),
    rejected: (message) => rejected(core, message),
    showSummary: (summary) => showSummary(core, summary),
    hideSummary: () => hideSummary(core),
    toast: (text, tone) => showBanner(core, text, tone),
    setConnected: (up) => setLink(core, up, () => {
      if (model.state) { renderTurn(core, model.state); renderCentre(core, model.state, null); }
    }),
    get state() { return model.state; },
    get yours() { return model.yours; },
    destroy() {
      clearInterval(tick);
      clearTimeout(model.toastTimer);
      clearTimeout(model.toastNext);
      document.removeEventListener("keydown", keys);
      core.resized.disconnect();
    },
  };
}

/**
 * The seats, the seats this page plays, the rules, and which game of the room this is (a new one starts
 * from a clean table: card numbers restart).
 * @param {TableCore} core
 * @param {SeatDoc[]} seats
 * @param {Seat[]} yours
 * @param {RulesDoc} rules
 * @param {string | null} game
 * @param {string[]} tags chips before the rules' own, first so that they always fit on the line
 */
function setup(core, seats, yours, rules, game, tags) {
  const { model, parts } = core;
  if (game !== model.game) {
    startGame(model, game);
    clear(parts.feed);
    clear(parts.pileBox); // its cards are numbered from 1 again
    clear(parts.flight);
    hideSummary(core);
  }
  model.seats = seats;
  model.yours = yours;
  model.rules = rules;
  rulesSummary(rules, seats.length).then((summary) => {
    if (model.rules !== rules) return;
    showChips(parts.chips, { ...summary, chips: [...tags, ...summary.chips] });
    model.empty = summary.empty; // the seats of players without cards say what these rules let them do
    if (model.state) renderSeats(core, model.state);
  }).catch(() => {});
  buildSeats(core);
  setSeats(core, seats);
  buildControls(core);
  if (model.state) renderTurn(core, model.state);
  placeSeats(core);
}

/**
 * The end-of-game summary. Its module (table/end.js) comes when a game ends, not with the page; a summary that
 * arrives after the table moved on to another game (a rematch) is not shown, and one that cannot be loaded
 * leaves the status line to say how the game ended.
 * @param {TableCore} core
 * @param {GameSummary} summary
 */
function showSummary(core, summary) {
  const { game } = core.model;
  import("./table/end.js").then((end) => {
    if (core.model.game === game) end.showSummary(core, summary);
  }).catch(() => {});
}

/**
 * The lobby changed (connections, delays, stand-ins): the seats say so.
 * @param {TableCore} core
 * @param {SeatDoc[]} seats
 */
function setSeats(core, seats) {
  const { model } = core;
  if (seats.length !== model.seats.length) return;
  model.seats = seats;
  showConnections(core);
  if (model.state) {
    renderSeats(core, model.state);
    renderFlipReady(core, model.state);
  }
  if (!core.parts.toast.hidden) placeBanner(core.parts); // a seat that says more (a delay, a stand-in) is larger
}

/**
 * An input the room did not take: why, in the banner and to screen readers.
 * @param {TableCore} core
 * @param {RejectedMessage} message
 */
function rejected(core, message) {
  const seat = message.seat ?? null;
  const name = seat === null ? "" : seatName(core.model.seats, seat);
  const plain = `game.rejected.${message.code}`;
  // Said to the player when it is about their own seat (the pile they are about to collect, their seat out).
  const own = seat === null ? plain : youKey(plain, voiceOf(core.model).you, seat);
  const key = has(own) ? own : plain;
  const text = t(key, { name });
  const said = text === key ? message.reason || message.code : text;
  showBanner(core, said, "muted");
  announce(said);
}
