// @ts-check
// Learn for a table's own rules. The setup page and a room's lobby keep the rules they show in this browser
// when the player asks to read them; Learn then explains exactly those rules (every rule in force and the
// patterns that are on, as /api/learn writes them from the engine's definitions), not only a preset's.
import { h } from "./dom.js";
import { t } from "./i18n.js";
/** @import { Meta, RulesDoc } from "./types.js" */

export const TABLE_RULES_KEY = "ratscrew.learn.table";

/**
 * The table's rules kept for Learn, and whether Learn shows them (rather than a preset) now.
 * @typedef {{ rules: RulesDoc, chosen: boolean }} TableRules
 */

/**
 * A link to Learn that first keeps the rules the page shows at the moment it is followed; `newTab` opens
 * Learn beside the page (a room's lobby, which the player must not leave to read them).
 * @param {() => RulesDoc} currentRules
 * @param {{ newTab?: boolean }} [options]
 * @returns {HTMLAnchorElement}
 */
export function learnLink(currentRules, { newTab = false } = {}) {
  const link = h("a", { href: "#/learn", class: "learn-link", target: newTab ? "_blank" : null, rel: newTab ? "noopener" : null },
    t("setup.learn_rules"));
  link.addEventListener("click", () => keepTableRules({ rules: currentRules(), chosen: true }));
  return link;
}

/** @param {TableRules} kept */
export function keepTableRules(kept) {
  localStorage.setItem(TABLE_RULES_KEY, JSON.stringify(kept));
}

/**
 * The table's rules kept in this browser, or null (none yet, or a value another version of the page wrote).
 * @returns {TableRules | null}
 */
export function tableRules() {
  try {
    const kept = JSON.parse(localStorage.getItem(TABLE_RULES_KEY) ?? "null");
    if (kept && typeof kept.rules === "object" && kept.rules && typeof kept.rules.preset === "string") {
      return { rules: kept.rules, chosen: Boolean(kept.chosen) };
    }
  } catch { /* unreadable: as if none were kept */ }
  return null;
}

/**
 * The query /api/learn takes for these rules: their preset and every key that differs from it.
 * @param {Meta} meta
 * @param {RulesDoc} rules
 * @returns {string}
 */
export function learnQuery(meta, rules) {
  const preset = String(rules.preset);
  const base = meta.presets.find((p) => p.name === preset)?.rules;
  const query = new URLSearchParams({ preset });
  for (const [section, table] of Object.entries(rules)) {
    if (!table || typeof table !== "object") continue;
    const from = base?.[section];
    for (const [name, value] of Object.entries(table)) {
      if (typeof from !== "object" || from[name] !== value) query.append(`${section}.${name}`, String(value));
    }
  }
  return query.toString();
}

/**
 * How many keys of these rules differ from their preset.
 * @param {Meta} meta
 * @param {RulesDoc} rules
 */
export function changeCount(meta, rules) {
  return [...new URLSearchParams(learnQuery(meta, rules)).keys()].length - 1;
}
