// @ts-check
// The lobby: its seat list (who sits where, person or computer, ready or not, connected or away; a free
// seat to take, the host's computers to add or remove, your own seat to leave), the agreed rules (the host
// edits them, everyone else reads them), the ready and start buttons with what the room still waits for,
// and the line above the table while a slow link makes the room hold every move longer.
import { h, clear } from "../../dom.js";
import { t } from "../../i18n.js";
import { keepName } from "../../connection.js";
import { presetSelect, presetValues, rulesForm } from "../../rules-form.js";
import { learnLink } from "../../learn-link.js";
import { fillChips, summaryDrawer } from "../../summary.js";
import { connectionClass, connectionText } from "../../table.js";
import { mineReady, sortedJSON } from "./core.js";
/** @import { RoomDoc, RulesDoc, Seat, SeatDoc } from "../../types.js" */
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
  parts.root.classList.toggle("matched", Boolean(room.matched)); // Play now's: no name to type, no seat to change
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
  parts.rulesNote.textContent = room.matched ? t("playnow.room.rules") : model.host ? t("room.rules_host") : t("room.rules_guest");
  if (key === model.shownRules) return;
  model.shownRules = key;
  clear(parts.presetBox);
  parts.presetBox.append(h("label", { for: "room-preset" }, t("setup.preset")),
    presetSelect(meta, values.preset, { id: "room-preset", disabled: !model.host, onChange: (name) => {
      const next = presetValues(meta, name);
      next.preset = name;
      sendRules(core, next);
    } }), learnLink(() => values, { newTab: true }));
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
 * Whether the lobby is a rematch's: someone asked for one after a game, and every person is asked whether
 * they are in (the summary's button and the lobby's say the same words, and so do the lines about them).
 * @param {RoomDoc} room
 */
export function rematchAsked(room) {
  return room.phase === "lobby" && room.rematch_by !== null && room.rematch_by !== undefined;
}

/**
 * Ready and start, and what the room still waits for before the host may start.
 * @param {RoomCore} core
 * @param {RoomDoc} room
 */
function renderGo({ model, parts }, room) {
  const { readyButton, startButton } = parts;
  if (room.matched) { // a Play-now table: nothing to press, it starts once everyone is here
    readyButton.hidden = true;
    startButton.hidden = true;
    parts.startHint.textContent = `${t("playnow.room.starting")} ${t(room.rated ? "playnow.room.rated" : "playnow.room.unrated")}`;
    return;
  }
  const seated = model.yours.length > 0;
  const rematch = rematchAsked(room);
  readyButton.hidden = !seated || room.phase !== "lobby";
  const ready = mineReady(model);
  readyButton.textContent = rematch ? t(ready ? "room.rematch_out" : "room.rematch_in") : t(ready ? "room.unready" : "room.ready");
  readyButton.setAttribute("aria-pressed", String(ready));
  readyButton.classList.toggle("secondary", ready);
  startButton.hidden = !model.host || room.phase !== "lobby";
  const empty = room.seats.findIndex((s) => s.kind === "empty");
  const waiting = room.seats.find((s) => s.kind === "human" && !s.ready);
  startButton.disabled = empty >= 0 || Boolean(waiting);
  const rules = sortedJSON(room.rules);
  // Ready to these rules; not ready any more although this player did not take it back: the host changed them.
  const cleared = seated && !ready && model.readyRules !== null && model.readyRules !== rules;
  if (ready) model.readyRules = rules;
  else if (!cleared) model.readyRules = null;
  const mine = seated && !ready ? (cleared ? "rules_changed" : "you") : null;
  const hint = [rematch ? rematchLine(model.yours, room) : "", waitingFor(empty, mine, waiting, model.host, rematch)].filter(Boolean).join(" ");
  parts.startHint.textContent = seated || model.host ? hint : `${t("room.watching")} ${hint}`;
}

/**
 * Who asked for the rematch the lobby is in: "you" to the player who did.
 * @param {Seat[]} yours
 * @param {RoomDoc} room
 */
export function rematchLine(yours, room) {
  const by = room.rematch_by;
  if (by === null || by === undefined) return "";
  return yours.includes(by) ? t("room.rematch_asked_you") : t("room.rematch_asked", { name: room.seats[by]?.name ?? "" });
}

/**
 * What the room waits for before it can start: a free seat, this player's ready (again, after the host
 * changed the rules), someone else's ready, the host. In a rematch's lobby, "ready" is the "I'm in" that
 * every person is asked for, on the summary and in the lobby alike.
 * @param {number} empty the first free seat, or -1
 * @param {"you" | "rules_changed" | null} mine what this player must do themselves, if anything
 * @param {SeatDoc | undefined} waiting the first person not ready
 * @param {boolean} host
 * @param {boolean} rematch
 */
function waitingFor(empty, mine, waiting, host, rematch) {
  if (mine === "rules_changed") return t(rematch ? "room.wait.rematch_rules" : "room.wait.rules_changed");
  if (empty >= 0) return t("room.wait.empty", { n: empty + 1 });
  if (mine === "you") return t(rematch ? "room.wait.rematch_you" : "room.wait.you_ready");
  if (waiting) return t(rematch ? "room.wait.rematch_other" : "room.wait.ready", { name: waiting.name });
  if (rematch) return host ? t("room.wait.rematch_host_go") : t("room.wait.rematch_host");
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
  parts.waitText.textContent = model.yours.includes(seat)
    ? t("room.slow_link.yours", { ms: room.window_ms ?? "" })
    : t("room.slow_link.other", { name: who.name, ms: room.window_ms ?? "" });
}

// ------------------------------------------------------------------ the seat list

/**
 * A row is built again only when what it shows changed (a focused control keeps the focus); the connection
 * words of every row are brought up to date.
 * @param {RoomCore} core
 * @param {RoomDoc} room
 */
export function renderSeatList(core, room) {
  const { model, parts } = core;
  const { seatList } = parts;
  while (seatList.children.length > room.seats.length) seatList.lastChild?.remove();
  model.rowKeys.length = Math.min(model.rowKeys.length, room.seats.length);
  room.seats.forEach((seat, index) => {
    const mine = model.yours.includes(index);
    const key = sortedJSON({ kind: seat.kind, name: seat.name, level: seat.level, ready: seat.ready, mine, host: model.host,
      seated: model.yours.length > 0, hosts: room.host_seat === index, rematch: rematchAsked(room) });
    let row = seatList.children[index];
    if (!row || model.rowKeys[index] !== key) {
      const fresh = seatRow(core, seat, index, mine, room);
      if (row) replaceKeepingFocus(row, fresh);
      else seatList.append(fresh);
      row = fresh;
      model.rowKeys[index] = key;
    }
    const net = /** @type {HTMLElement} */ (row.querySelector(".seat-net"));
    net.textContent = connectionText(seat);
    net.className = `seat-net ${connectionClass(seat)}`;
  });
}

/**
 * @param {Element} row
 * @param {Element} fresh
 */
function replaceKeepingFocus(row, fresh) {
  const focused = row.contains(document.activeElement) ? document.activeElement?.id : null;
  row.replaceWith(fresh);
  if (focused) document.getElementById(focused)?.focus();
}

/**
 * A seat's row: its number, who sits there (and whether they host the room: a word, read out with the name),
 * their connection, ready or not (in a rematch's lobby, in or not), and what this page may do with it.
 * @param {RoomCore} core
 * @param {SeatDoc} seat
 * @param {Seat} index
 * @param {boolean} mine
 * @param {RoomDoc} room
 */
function seatRow(core, seat, index, mine, room) {
  const name = seat.kind === "empty" ? t("room.seat.empty") : seat.name;
  const kind = seat.kind === "bot" ? t(`level.${seat.level}`) : seat.kind === "human" ? (mine ? t("game.you") : t("game.person")) : "";
  const rematch = rematchAsked(room);
  const ready = seat.kind === "empty" ? "" : t(seat.ready ? (rematch ? "room.in_yes" : "room.ready_yes") : (rematch ? "room.in_no" : "room.ready_no"));
  const hosts = room.host_seat === index && seat.kind === "human";
  return h("li", { class: `room-seat kind-${seat.kind}${mine ? " mine" : ""}${hosts ? " host" : ""}`, id: `room-seat-${index}`,
    dataset: { seat: index, kind: seat.kind } },
    h("span", { class: "seat-number", "aria-hidden": "true" }, String(index + 1)),
    h("span", { class: "room-seat-who" },
      h("span", { class: "room-seat-name" }, name),
      kind ? h("span", { class: "seat-badge" }, kind) : null,
      hosts ? h("span", { class: "seat-badge host-badge" }, t("room.host_badge")) : null),
    h("span", { class: "seat-net" }),
    h("span", { class: `room-seat-ready${seat.ready ? " yes" : ""}` }, ready),
    h("div", { class: "seat-actions" }, ...seatActions(core, seat, index, mine)));
}

/**
 * What this page may do with a seat: take a free one (the host may also seat a computer there), change or
 * remove the host's computers, leave its own.
 * @param {RoomCore} core
 * @param {SeatDoc} seat
 * @param {Seat} index
 * @param {boolean} mine
 * @returns {HTMLElement[]}
 */
function seatActions(core, seat, index, mine) {
  const { host } = core.model;
  if (seat.kind === "empty") {
    const sitButton = h("button", { type: "button", class: "secondary small", id: `sit-${index}`, "aria-label": t("room.sit_at", { n: index + 1 }) },
      t("room.sit"));
    sitButton.addEventListener("click", () => sit(core, index));
    return host ? [sitButton, levelSelect(core, index, null)] : [sitButton];
  }
  if (seat.kind === "bot" && host) {
    const remove = h("button", { type: "button", class: "ghost small", id: `remove-${index}`, "aria-label": t("room.remove_bot", { n: index + 1 }) }, "✕");
    remove.addEventListener("click", () => core.send({ type: "bot", seat: index, level: null }));
    return [levelSelect(core, index, seat.level), remove];
  }
  if (mine && !core.model.room?.matched) {
    const stand = h("button", { type: "button", class: "ghost small", id: "stand" }, t("room.stand"));
    stand.addEventListener("click", () => core.send({ type: "stand" }));
    return [stand];
  }
  return [];
}

/**
 * The host's choice of computer for a seat (an empty seat offers to add one).
 * @param {RoomCore} core
 * @param {Seat} index
 * @param {string | null} level
 */
function levelSelect(core, index, level) {
  const select = h("select", { id: `bot-${index}`, "aria-label": t("setup.level_for", { n: index + 1 }) });
  select.addEventListener("change", () => {
    if (select.value) core.send({ type: "bot", seat: index, level: select.value, name: t("setup.computer_n", { n: index + 1 }) });
  });
  if (level === null) select.append(h("option", { value: "", selected: true }, t("room.add_bot")));
  for (const l of core.meta.levels) select.append(h("option", { value: l.name, selected: level === l.name, title: l.summary }, l.label));
  select.append(h("option", { value: "match", selected: level === "match" }, t("level.match")));
  return select;
}

/**
 * Take a free seat, under the name typed above the list (or "Player N").
 * @param {RoomCore} core
 * @param {Seat} index
 */
function sit({ parts, send }, index) {
  const typed = parts.nameInput.value.trim();
  keepName(typed);
  send({ type: "sit", seat: index, name: typed || t("setup.player_n", { n: index + 1 }) });
}
