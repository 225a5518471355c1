// @ts-check
// What the score keeper's parts share: the table's limits, a few words (times, titles, lists), small cards
// that stay readable at the size of a word, error boxes, and a delete button that asks twice.
import { h, announce } from "../../dom.js";
import { t, lang } from "../../i18n.js";
import { cardName, rankLabel, suitGlyph } from "../../cards.js";
import { OfflineError } from "../../api.js";
/** @import { CardText, Meta } from "../../types.js" */

export const MIN_PLAYERS = 2;
export const MAX_PLAYERS = 12;
export const SUITS = ["S", "H", "D", "C"];

/**
 * A duration as a clock shows it: "4:05", "1:02:03".
 * @param {number} seconds
 * @returns {string}
 */
export function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const secs = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
}

/**
 * A match's name, or its players' names when it has none.
 * @param {{ name: string, players: readonly string[] }} match
 * @returns {string}
 */
export function matchTitle(match) {
  return match.name || match.players.join(" · ");
}

/**
 * "Ann, Bob, and Cy" in the page's language.
 * @param {string[]} items
 * @returns {string}
 */
export function listText(items) {
  try {
    return new Intl.ListFormat(lang(), { style: "long", type: "conjunction" }).format(items);
  } catch {
    return items.join(", ");
  }
}

/**
 * A preset's name as the whole app writes it (rules.json), so it reads the same everywhere.
 * @param {Meta} meta
 * @param {string} name
 * @returns {string}
 */
export function presetLabel(meta, name) {
  return meta.presets.find((p) => p.name === name)?.label || name;
}

/**
 * A small card drawn as its corner index (rank over suit), which stays readable at the size of a word;
 * a bare rank (the referee's "any suit") shows the rank alone, "…" stands for cards in between.
 * @param {CardText} text
 * @param {{ label?: string }} [options] its name for readers (by default the card's name)
 * @returns {HTMLSpanElement}
 */
export function miniCard(text, { label } = {}) {
  if (text === "…") return h("span", { class: "sk-mini sk-mini-gap", "aria-hidden": "true" }, "…");
  const joker = text === "X";
  const suit = joker ? "" : SUITS.includes(text.slice(-1)) ? text.slice(-1) : "";
  const rank = joker ? "★" : (suit ? text.slice(0, -1) : text);
  const name = label || (joker ? t("card.joker") : suit ? cardName(text, t) : t(`card.rank.${rank}`));
  const colour = joker ? " joker" : suit === "H" || suit === "D" ? " red" : "";
  return h("span", { class: `sk-mini${colour}${suit ? "" : " bare"}`, role: "img", "aria-label": name, title: name },
    h("span", { class: "sk-mini-rank", "aria-hidden": "true" }, joker ? rank : rankLabel(rank)),
    suit ? h("span", { class: "sk-mini-suit", "aria-hidden": "true" }, suitGlyph(suit)) : null);
}

/**
 * @param {readonly CardText[]} cards
 * @param {string} [extraClass]
 */
export function miniRow(cards, extraClass = "") {
  return h("span", { class: `sk-minis ${extraClass}` }, cards.map((c) => miniCard(c)));
}

/** A flat hand, the referee's mark (emoji fonts are not everywhere). */
export function handIcon() {
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "sk-hand");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(NS, "path");
  path.setAttribute("d", "M7.5 12V5.5a1.5 1.5 0 0 1 3 0V11 M10.5 10.5V4a1.5 1.5 0 0 1 3 0v7 M13.5 11V5a1.5 1.5 0 0 1 3 0v6.5 "
    + "M16.5 11.5V8a1.5 1.5 0 0 1 3 0v6a7 7 0 0 1-7 7h-.8a6 6 0 0 1-4.9-2.5L3.4 14.6a1.6 1.6 0 0 1 2.5-2L7.5 14");
  for (const [k, v] of Object.entries({ fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round", "stroke-linejoin": "round" })) {
    path.setAttribute(k, v);
  }
  svg.append(path);
  return svg;
}

/**
 * A text with keys in square brackets ("press [U] to undo"), the keys shown as <kbd>.
 * @param {string} text
 * @returns {(HTMLElement | string)[]}
 */
export function withKeys(text) {
  return text.split(/(\[[^\]]+\])/).map((part) => (part.startsWith("[") ? h("kbd", {}, part.slice(1, -1)) : part));
}

/**
 * What went wrong, for the person: no connection, or the server's words.
 * @param {unknown} error
 * @returns {string}
 */
export function describeError(error) {
  if (error instanceof TypeError || error instanceof OfflineError) return t("scores.error.offline");
  return (error instanceof Error && error.message) || String(error);
}

/**
 * A box for one error at a time, hidden while there is none.
 * @typedef {{ el: HTMLParagraphElement, show(message: string): void, hide(): void }} ErrorBox
 */

/** @returns {ErrorBox} */
export function errorBox() {
  const box = h("p", { class: "error-box sk-error", role: "alert", hidden: true });
  return {
    el: box,
    show(message) { box.textContent = message; box.hidden = false; },
    hide() { box.hidden = true; box.textContent = ""; },
  };
}

/**
 * A delete button that asks once more on itself instead of a blocking browser dialog.
 * @param {string} label
 * @param {string} confirmLabel what it says while it waits for the second tap
 * @param {() => Promise<void>} onConfirm
 * @param {string} [className]
 * @returns {HTMLButtonElement}
 */
export function confirmButton(label, confirmLabel, onConfirm, className = "secondary sk-danger") {
  let armed = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const button = h("button", { type: "button", class: className }, label);
  const disarm = () => { armed = false; button.textContent = label; button.classList.remove("armed"); };
  button.addEventListener("click", async () => {
    if (!armed) {
      armed = true;
      button.textContent = confirmLabel;
      button.classList.add("armed");
      announce(confirmLabel);
      clearTimeout(timer);
      timer = setTimeout(disarm, 5000);
      return;
    }
    clearTimeout(timer);
    disarm();
    await onConfirm();
  });
  button.addEventListener("blur", () => { if (armed) { clearTimeout(timer); disarm(); } });
  return button;
}
