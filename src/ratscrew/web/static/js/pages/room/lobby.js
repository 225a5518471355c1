// @ts-check
// The lobby around its seat list: the agreed rules (the host edits them, everyone else reads them), the
// ready and start buttons with what the room still waits for, and the line above the table while a slow
// link makes the room hold every move longer.
import { h, clear } from "../../dom.js";
import { t } from "../../i18n.js";
import { presetSelect, presetValues, rulesForm } from "../../rules-form.js";
import { fillChips, summaryDrawer } from "../../summary.js";
import { mineReady, sortedJSON } from "./core.js";
import { renderSeatList } from "./seats.js";
/** @import { RoomDoc, RulesDoc, SeatDoc } from "../../types.js" */
/** @import { RoomCore, RoomParts } from "./core.js" */

/**
 * The room's status line: what it refused, who sat down or stood up.
 * @param {RoomParts} parts
 * @param {string} text
 * @param {"info" | "bad"} [tone]
 */
export function say(parts, text, tone = "info") {
  parts.statusBox.textContent = text;
  parts.statusBox.dataset.tone = tone;
}

/**
 * The whole lobby for the room the model holds (the table is the page's: room.js shows one or the other).
 * @param {RoomCore} core
 * @param {RoomDoc} room
 */
export function renderLobby(core, room) {
  const { model, parts } = core;
  parts.root.classList.toggle("is-host", model.host);
  parts.phaseChip.textContent = t(`room.phase.${room.phase}`);
  parts.publicBox.checked = room.public;
  parts.publicBox.disabled = !model.host;
  parts.seatCount.value = String(room.seats.length);
  parts.seatCount.disabled = !model.host;
  renderSeatList(core, room);
  parts.standinsNote.textContent = room.standins === false ? t("room.standins.off") : t("room.standins.on");
  renderRules(core, room);
  renderGo(core, room);
}

/**
 * The chips and the preset's summary are the server's words for the agreed rules and this many seats.
 * @param {RoomParts} parts
 */
export function rulesSummaryDrawer(parts) {
  return summaryDrawer((summary) => {
    fillChips(parts.chipsBox, summary);
    parts.presetSummary.textContent = summary.preset.text;
    parts.deckLine.textContent = summary.deck.line;
  }, { delay: 50 });
}

/**
 * The rules: the preset and the form, built again only when the rules or the host changed.
 * @param {RoomCore} core
 * @param {RoomDoc} room
 */
function renderRules(core, room) {
  const { model, parts, meta } = core;
  const values = structuredClone(room.rules);
  const key = sortedJSON({ rules: values, host: model.host });
  core.drawSummary(values, room.seats.length);
  parts.rulesNote.textContent = model.host ? t("room.rules_host") : t("room.rules_guest");
  if (key === model.shownRules) return;
  model.shownRules = key;
  clear(parts.presetBox);
  parts.presetBox.append(h("label", { for: "room-preset" }, t("setup.preset")),
    presetSelect(meta, values.preset, { id: "room-preset", disabled: !model.host, onChange: (name) => {
      const next = presetValues(meta, name);
      next.preset = name;
      sendRules(core, next);
    } }));
  clear(parts.rulesBox);
  parts.rulesBox.append(...rulesForm(meta, values, { idPrefix: "room-opt", editable: model.host, onChange: () => sendRules(core, values) }));
}

/**
 * The host's new rules, to the room (the form already shows them).
 * @param {RoomCore} core
 * @param {RulesDoc} values
 */
function sendRules({ model, send }, values) {
  model.shownRules = sortedJSON({ rules: values, host: model.host });
  send({ type: "rules", rules: values });
}

/**
 * Ready and start, and what the room still waits for before the host may start.
 * @param {RoomCore} core
 * @param {RoomDoc} room
 */
function renderGo({ model, parts }, room) {
  const { readyButton, startButton } = parts;
  const seated = model.yours.length > 0;
  readyButton.hidden = !seated || room.phase !== "lobby";
  const ready = mineReady(model);
  readyButton.textContent = ready ? t("room.unready") : t("room.ready");
  readyButton.setAttribute("aria-pressed", String(ready));
  readyButton.classList.toggle("secondary", ready);
  startButton.hidden = !model.host || room.phase !== "lobby";
  const empty = room.seats.findIndex((s) => s.kind === "empty");
  const waiting = room.seats.find((s) => s.kind === "human" && !s.ready);
  startButton.disabled = empty >= 0 || Boolean(waiting);
  const hint = waitingFor(empty, waiting, model.host);
  parts.startHint.textContent = seated || model.host ? hint : `${t("room.watching")} ${hint}`;
}

/**
 * What the room waits for before it can start: a free seat, someone's ready, the host.
 * @param {number} empty the first free seat, or -1
 * @param {SeatDoc | undefined} waiting the first person not ready
 * @param {boolean} host
 */
function waitingFor(empty, waiting, host) {
  if (empty >= 0) return t("room.wait.empty", { n: empty + 1 });
  if (waiting) return t("room.wait.ready", { name: waiting.name });
  return host ? t("room.wait.host_go") : t("room.wait.host");
}

/**
 * Above the table, while a slow link makes the room hold every move longer: whose link it is.
 * @param {RoomCore} core
 * @param {RoomDoc} room
 */
export function renderWait({ model, parts }, room) {
  const seat = room.phase === "playing" ? room.waits_for : null;
  const who = seat === null || seat === undefined ? null : room.seats[seat];
  parts.waitNote.hidden = !who;
  if (!who || seat === null) return;
  parts.waitNote.textContent = model.yours.includes(seat)
    ? t("room.slow_link.yours", { ms: room.window_ms ?? "" })
    : t("room.slow_link.other", { name: who.name, ms: room.window_ms ?? "" });
}
