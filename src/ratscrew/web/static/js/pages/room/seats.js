// @ts-check
// The lobby's seat list: who sits where, person or computer, ready or not, connected or away; a free seat
// to take, the host's computers to add or remove, your own seat to leave.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { keepName } from "../../connection.js";
import { connectionClass, connectionText } from "../../table.js";
import { sortedJSON } from "./core.js";
/** @import { RoomDoc, Seat, SeatDoc } from "../../types.js" */
/** @import { RoomCore } from "./core.js" */

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
      seated: model.yours.length > 0 });
    let row = seatList.children[index];
    if (!row || model.rowKeys[index] !== key) {
      const fresh = seatRow(core, seat, index, mine);
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
 * @param {RoomCore} core
 * @param {SeatDoc} seat
 * @param {Seat} index
 * @param {boolean} mine
 */
function seatRow(core, seat, index, mine) {
  const name = seat.kind === "empty" ? t("room.seat.empty") : seat.name;
  const kind = seat.kind === "bot" ? t(`level.${seat.level}`) : seat.kind === "human" ? (mine ? t("game.you") : t("game.person")) : "";
  const ready = seat.kind === "empty" ? "" : seat.ready ? t("room.ready_yes") : t("room.ready_no");
  return h("li", { class: `room-seat kind-${seat.kind}${mine ? " mine" : ""}`, id: `room-seat-${index}`, dataset: { seat: index, kind: seat.kind } },
    h("span", { class: "seat-number", "aria-hidden": "true" }, String(index + 1)),
    h("span", { class: "room-seat-who" },
      h("span", { class: "room-seat-name" }, name),
      kind ? h("span", { class: "seat-badge" }, kind) : null),
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
  if (mine) {
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
