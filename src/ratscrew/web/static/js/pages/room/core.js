// @ts-check
// The one value the room page's parts share: what it knows of the room (the model), its elements (the
// parts), the table it plays on, and how it sends. The elements are built here; room/*.js draw on them.
import { h, announce } from "../../dom.js";
import { t } from "../../i18n.js";
import { keepName, savedName } from "../../connection.js";
import { limitNote } from "../../name-limit.js";
/** @import { ClientMessage, Meta, RatingChange, RoomConnection, RoomDoc, RulesDoc, Seat, Table } from "../../types.js" */
/** @import { Reactions } from "./reactions.js" */

export const MAX_SEATS = 12;
export const MIN_SEATS = 2;

/**
 * What the page knows of the room between two messages.
 * @typedef {object} RoomModel
 * @property {RoomDoc | null} room as the last lobby, welcome or state said it (null before the welcome)
 * @property {Seat[]} yours the seats this page's token holds
 * @property {boolean} host
 * @property {string | null} tableGame the game the table is set up for (null: the lobby)
 * @property {string | null} shownRules the rules the form shows, so it is built again only when they change
 * @property {string[]} rowKeys what each row of the seat list shows, so only changed rows are built again
 * @property {ReturnType<typeof setTimeout> | undefined} overTimer the summary waits for the last card to land
 * @property {boolean} summaryOpen the game's summary is shown, until this player closes it
 * @property {string | null} readyRules the rules this player said ready to (null: not ready, or took it back)
 * @property {RatingChange[] | null} rated a Play-now table's rated game: each player's rating change, once recorded
 */

/**
 * @typedef {object} RoomParts
 * @property {HTMLElement} root
 * @property {HTMLSpanElement} phaseChip
 * @property {HTMLSpanElement} netChip
 * @property {HTMLInputElement} publicBox
 * @property {HTMLInputElement} nameInput
 * @property {HTMLOListElement} seatList
 * @property {HTMLParagraphElement} standinsNote
 * @property {HTMLSelectElement} seatCount
 * @property {HTMLDivElement} chipsBox
 * @property {HTMLDivElement} presetBox
 * @property {HTMLParagraphElement} presetSummary
 * @property {HTMLParagraphElement} deckLine
 * @property {HTMLDivElement} rulesBox
 * @property {HTMLParagraphElement} rulesNote
 * @property {HTMLButtonElement} readyButton
 * @property {HTMLButtonElement} startButton
 * @property {HTMLParagraphElement} startHint
 * @property {HTMLParagraphElement} statusBox
 * @property {HTMLDivElement} lobby
 * @property {HTMLDivElement} waitNote
 * @property {HTMLSpanElement} waitText the note's sentence (who is waited for, and how long)
 * @property {HTMLDivElement} tableBox
 */

/**
 * @typedef {object} RoomCore
 * @property {Meta} meta
 * @property {string} code
 * @property {RoomModel} model
 * @property {RoomParts} parts
 * @property {Table} table
 * @property {(message: ClientMessage) => unknown} send
 * @property {RoomConnection | null} connection
 * @property {(rules: RulesDoc, players?: number) => void} drawSummary the chips and lines for these rules
 * @property {Reactions} reactions the quick reactions: sent from the header's panel, shown by each seat
 */

/** @returns {RoomModel} */
export function newModel() {
  return { room: null, yours: [], host: false, tableGame: null, shownRules: null, rowKeys: [], overTimer: undefined, summaryOpen: false,
    readyRules: null, rated: null };
}

/**
 * The address that opens this room.
 * @param {string} code
 */
export function roomLink(code) {
  return `${location.origin}${location.pathname}#/room/${code}`;
}

/**
 * Any value as JSON with its keys in order, so that two equal values give the same text.
 * @param {unknown} value
 */
export function sortedJSON(value) {
  /** @type {(v: unknown) => unknown} */
  const sort = (v) => (v && typeof v === "object" && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort(/** @type {Record<string, unknown>} */ (v)[k])]))
    : v);
  return JSON.stringify(sort(value));
}

/**
 * Whether a seat this page holds has pressed ready.
 * @param {RoomModel} model
 */
export function mineReady({ room, yours }) {
  return yours.some((seat) => room?.seats[seat]?.ready);
}

/**
 * The page's elements: the head (code, phase, connection, link, visibility), the lobby's three panels, and
 * the box the table goes in.
 * @param {string} code
 * @param {RoomModel} model
 * @param {(message: ClientMessage) => unknown} send
 * @param {HTMLElement} tableElement
 * @returns {RoomParts}
 */
export function buildParts(code, model, send, tableElement) {
  const link = roomLink(code);
  const phaseChip = h("span", { class: "chip", id: "room-phase" });
  const netChip = h("span", { class: "chip net-chip", id: "room-net", role: "status" }, t("room.net.connecting"));
  const linkInput = h("input", { type: "text", readonly: true, value: link, id: "room-link", "aria-label": t("room.link") });
  linkInput.addEventListener("focus", () => linkInput.select());
  const copyButton = h("button", { type: "button", class: "secondary", id: "copy-link" }, t("room.copy"));
  copyButton.addEventListener("click", () => copyLink(link, linkInput, copyButton));
  const publicBox = h("input", { type: "checkbox", id: "room-public" });
  publicBox.addEventListener("change", () => send({ type: "visibility", public: publicBox.checked }));
  const nameInput = h("input", { type: "text", id: "room-name", maxlength: 24, value: savedName(), autocomplete: "nickname",
    placeholder: t("room.name_placeholder") });
  nameInput.addEventListener("input", () => keepName(nameInput.value.trim()));
  const seatList = h("ol", { class: "room-seats", id: "room-seats", "aria-label": t("room.seats") });
  const standinsNote = h("p", { class: "hint", id: "room-standins" });
  const seatCount = h("select", { id: "room-seat-count" });
  seatCount.addEventListener("change", () => send({ type: "seats", count: Number(seatCount.value) }));
  for (let n = MIN_SEATS; n <= MAX_SEATS; n++) seatCount.append(h("option", { value: n }, String(n)));
  const chipsBox = h("div", { class: "rule-chips", id: "room-rules", "aria-label": t("game.agreed_rules") });
  const presetBox = h("div", { class: "field-row" });
  const presetSummary = h("p", { class: "hint", id: "room-preset-summary" });
  const deckLine = h("p", { class: "hint", id: "room-deck-line" });
  const rulesBox = h("div", { class: "rules-options" });
  const rulesNote = h("p", { class: "hint", id: "room-rules-note" });
  const readyButton = h("button", { type: "button", id: "ready-button", class: "big", "aria-pressed": "false" });
  readyButton.addEventListener("click", () => {
    const ready = !mineReady(model);
    if (!ready) model.readyRules = null; // taken back by this player, not cleared by the host's new rules
    send({ type: "ready", ready });
  });
  const startButton = h("button", { type: "button", id: "start-button", class: "big" }, t("room.start"));
  startButton.addEventListener("click", () => send({ type: "start" }));
  const startHint = h("p", { class: "hint", id: "start-hint" });
  const statusBox = h("p", { class: "room-status", id: "room-status", role: "status", "aria-live": "polite" });

  const lobby = h("div", { class: "room-lobby", id: "room-lobby" },
    h("section", { class: "panel room-seats-panel", "aria-labelledby": "room-seats-title" },
      h("h2", { id: "room-seats-title" }, t("room.seats")),
      h("div", { class: "field-row name-row" }, h("label", { for: "room-name" }, t("room.your_name")), nameInput, limitNote(nameInput)),
      seatList,
      standinsNote,
      h("div", { class: "field-row host-only" }, h("label", { for: "room-seat-count" }, t("room.seat_count")), seatCount)),
    h("section", { class: "panel room-rules-panel", "aria-labelledby": "room-rules-title" },
      h("h2", { id: "room-rules-title" }, t("setup.rules")),
      rulesNote, presetBox, presetSummary, deckLine, chipsBox,
      h("details", { class: "house-rules", id: "room-house-rules" }, h("summary", {}, t("setup.house_rules")), rulesBox)),
    h("section", { class: "panel room-go" },
      h("div", { class: "start-row" }, readyButton, startButton), startHint, statusBox));
  // Said above the table while a slow link makes the room hold every move longer (the server names the seat),
  // with why, in plain words, for whoever asks: a number of milliseconds alone means nothing to a player.
  const waitText = h("span", { class: "room-wait-text", role: "status" });
  const waitNote = h("div", { class: "hint room-wait", id: "room-wait", hidden: true }, waitText, " ",
    h("details", { class: "room-wait-why", id: "room-wait-why" }, h("summary", {}, t("room.slow_link.why")),
      h("p", {}, t("room.slow_link.explain"))));
  const tableBox = h("div", { class: "room-table", hidden: true }, waitNote, tableElement);

  const root = h("section", { class: "room", id: "room" },
    h("header", { class: "room-head panel" },
      h("div", { class: "room-title" },
        h("h1", {}, t("room.title"), " ", h("span", { class: "room-code", id: "room-code" }, code)),
        phaseChip, netChip),
      h("div", { class: "room-share" },
        h("label", { for: "room-link" }, t("room.share")),
        h("div", { class: "share-row" }, linkInput, copyButton)),
      h("label", { class: "room-public host-only" }, publicBox, " ", t("room.public"))),
    lobby, tableBox);
  return { root, phaseChip, netChip, publicBox, nameInput, seatList, standinsNote, seatCount, chipsBox, presetBox,
    presetSummary, deckLine, rulesBox, rulesNote, readyButton, startButton, startHint, statusBox, lobby, waitNote, waitText, tableBox };
}

/**
 * @param {string} link
 * @param {HTMLInputElement} linkInput selected for a copy by hand where the clipboard is refused
 * @param {HTMLButtonElement} button says it was copied, for a moment
 */
async function copyLink(link, linkInput, button) {
  try {
    await navigator.clipboard.writeText(link);
  } catch {
    linkInput.select();
    document.execCommand?.("copy");
  }
  button.textContent = t("room.copied");
  announce(t("room.copied"));
  setTimeout(() => { button.textContent = t("room.copy"); }, 1800);
}
