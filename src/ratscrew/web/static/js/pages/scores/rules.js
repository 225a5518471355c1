// @ts-check
// The agreed rules: as the changes a match keeps on top of its preset, and as a card everyone at the table
// can read, drawn from the server's summary of them (summary.js).
import { h, clear } from "../../dom.js";
import { t } from "../../i18n.js";
import { summaryDrawer } from "../../summary.js";
import { describeError, miniRow } from "./parts.js";
/** @import { FlatRules, Meta, RulesDoc, RulesSummary, RulesSection } from "../../types.js" */

/**
 * A rules document as flat "section.name" keys (the preset's name left out).
 * @param {RulesDoc | undefined} doc
 * @returns {FlatRules}
 */
function flatten(doc) {
  /** @type {FlatRules} */
  const flat = {};
  for (const [section, table] of Object.entries(doc || {})) {
    if (section === "preset") continue;
    if (table && typeof table === "object") for (const [name, value] of Object.entries(table)) flat[`${section}.${name}`] = value;
  }
  return flat;
}

/**
 * The rules document for a preset and flat "section.name" values on top of it.
 * @param {string} preset
 * @param {FlatRules} changes
 * @returns {RulesDoc}
 */
export function nest(preset, changes) {
  /** @type {Record<string, RulesSection>} */
  const sections = {};
  for (const [key, value] of Object.entries(changes)) {
    const [section, name] = key.split(".");
    (sections[section] ||= {})[name] = value;
  }
  return { preset, ...sections };
}

/**
 * A preset's every value, as flat keys.
 * @param {Meta} meta
 * @param {string} name
 * @returns {FlatRules}
 */
export function presetValues(meta, name) {
  return flatten(meta.presets.find((p) => p.name === name)?.rules);
}

/**
 * The agreed rules as a card everyone at the table can read: the slaps with example cards, then one line per
 * rule. Every word and example is the server's summary of these rules for this many players (summary.js).
 * @param {RulesSummary} summary
 * @param {{ headingLevel?: "h2" | "h3" }} [options]
 */
function rulesCard(summary, { headingLevel = "h2" } = {}) {
  const changed = summary.changes.filter((c) => c.table);
  const heading = h(headingLevel, { class: "sk-rules-title" }, t("scores.rules.title"));
  const presetLine = h("p", { class: "sk-rules-preset" },
    h("span", { class: "chip sk-preset-chip" }, summary.preset.label),
    changed.length ? h("span", { class: "sk-rules-changes" }, summary.preset.changes_text) : null);
  const slapList = summary.slaps.length
    ? h("ul", { class: "sk-slaps", role: "list" }, summary.slaps.map((slap) => h("li", { class: "sk-slap" },
      miniRow(slap.example),
      h("span", { class: "sk-slap-text" }, h("strong", {}, slap.name), h("span", { class: "sk-slap-note" }, slap.sentence)))))
    : h("p", { class: "sk-noslaps" }, summary.no_slaps);
  const more = h("ul", { class: "sk-rule-lines" }, summary.lines.map((line) => h("li", {}, line)));
  const changeList = changed.length
    ? h("details", { class: "sk-rule-changes" }, h("summary", {}, t("scores.rules.changes_from", { preset: summary.preset.label })),
      h("ul", {}, changed.map((c) => h("li", {}, h("span", {}, c.label), " ", h("strong", {}, c.value_label)))))
    : null;
  return h("section", { class: "sk-rules", "aria-label": t("scores.rules.title") }, heading, presetLine,
    h("h3", { class: "sk-subhead" }, t("scores.rules.slap_on")), slapList, more, changeList);
}

/**
 * A holder that shows the rules card for the newest rules it was given, once the server has answered.
 * @param {HTMLElement} holder
 * @param {{ headingLevel?: "h2" | "h3", delay?: number }} [options] delay: ms of quiet before asking
 * @returns {(rules: RulesDoc, players?: number) => void}
 */
export function rulesHolderDrawer(holder, options = {}) {
  return summaryDrawer((summary) => {
    clear(holder);
    holder.append(rulesCard(summary, options));
  }, { delay: options.delay ?? 150, onError: (error) => { clear(holder); holder.append(h("p", { class: "error-box" }, describeError(error))); } });
}
