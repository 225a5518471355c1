// @ts-check
// What every drill page shares: its head (title, summary, rules picker), the answer buttons, the feedback
// box, the tally strip, and the words for a pattern.
import { h, clear } from "../../dom.js";
import { t } from "../../i18n.js";
import { presetPicker, savedPreset, savePreset } from "../learn.js";
import { loadProgress } from "./progress.js";
/** @import { DrillChoice, Meta, PageContext } from "../../types.js" */

/** @returns {number} a seed for a new question or run */
export function newSeed() {
  return Math.floor(Math.random() * 2 ** 31);
}

/**
 * A pattern's name, as the server says it in this language.
 * @param {string} key
 * @param {Meta} meta
 */
export function patternName(key, meta) {
  return meta.patterns.find((p) => p.key === key)?.label ?? t(`pattern.${key}`);
}

/**
 * True when a key press belongs to a text field or a control that handles keys itself.
 * @param {KeyboardEvent} event
 */
export function typing(event) {
  const el = event.target;
  return el instanceof HTMLElement && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));
}

/**
 * A question drill's tally (streak, right answers, best streak), drawn again by `refresh`.
 * @param {"debt" | "slap"} kind
 * @returns {{ element: HTMLDListElement, refresh(): void }}
 */
export function statStrip(kind) {
  const element = h("dl", { class: "stat-strip" });
  const refresh = () => {
    const now = loadProgress()[kind];
    clear(element);
    /** @type {[string, string | number][]} */
    const items = [
      ["drill.ui.streak", now.streak],
      ["drill.ui.correct", `${now.correct}/${now.answered}`],
      ["drill.ui.best_streak", now.best],
    ];
    for (const [key, value] of items) element.append(h("div", {}, h("dt", {}, t(key)), h("dd", {}, String(value))));
  };
  refresh();
  return { element, refresh };
}

/**
 * The drill's title and summary, the way back, and the rules it is drilled under.
 * @param {string} kind
 * @param {PageContext} ctx
 * @param {(preset: string) => void} onPreset
 */
export function drillHeader(kind, ctx, onPreset) {
  const picker = presetPicker(ctx.meta, savedPreset(ctx.meta), (name) => { savePreset(name); onPreset(name); },
    { id: "drill-preset", labelKey: "drill.ui.rules" });
  return h("header", { class: "drill-head" },
    h("div", {},
      h("a", { class: "back-link", href: "#/drills" }, h("span", { "aria-hidden": "true" }, "← "), t("drill.ui.all")),
      h("h1", {}, t(`drill.${kind}.title`)),
      h("p", { class: "lede" }, t(`drill.${kind}.summary`))),
    h("div", { class: "drill-tools" }, picker.element));
}

/**
 * @param {DrillChoice} choice
 * @param {(value: string) => void} onPick
 */
export function choiceButton(choice, onPick) {
  return h("button", { type: "button", class: "choice", dataset: { value: choice.value, key: choice.key },
    onclick: () => onPick(choice.value) },
  h("kbd", { "aria-hidden": "true" }, choice.key), h("span", {}, choice.label));
}

export function feedbackBox() {
  return h("div", { class: "feedback", hidden: true, tabindex: "-1" });
}

/**
 * Right or wrong, and why.
 * @param {HTMLElement} box
 * @param {boolean} ok
 * @param {string} title
 * @param {string[]} lines
 * @param {(Node | null)[]} [extra] after the lines: the steps, the next button
 */
export function showFeedback(box, ok, title, lines, extra = []) {
  clear(box);
  box.hidden = false;
  box.className = `feedback ${ok ? "good" : "bad"}`;
  box.append(
    h("p", { class: "feedback-title" }, h("span", { class: "feedback-icon", "aria-hidden": "true" }, ok ? "✓" : "✕"), title),
    ...lines.map((l) => h("p", {}, l)),
    ...extra.filter((node) => node !== null),
  );
}

/** @param {string} message */
export function errorPanel(message) {
  return h("div", { class: "error-box drill-error", role: "alert" }, message);
}
