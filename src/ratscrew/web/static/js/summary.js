// @ts-check
// The rules in brief, as the server explains them (POST /api/rules/summary): the enabled slaps with their
// sentences and example piles, the chips, the challenge and penalty sentences, the changes from the preset
// and the deck dealt for that many players. The pages only draw it; none of it is worked out here.
import { h, clear } from "./dom.js";
import { sendJSON } from "./api.js";
import { lang } from "./i18n.js";
/** @import { RulesDoc, RulesSummary } from "./types.js" */

const KEEP = 40; // summaries kept per page: a few presets and edits, in each language tried
/** @type {Map<string, Promise<RulesSummary>>} */
const cache = new Map();

/**
 * One summary per rules + players + language, asked for once and kept (a failed answer is forgotten).
 * @param {RulesDoc | string} rules a rule set, or a preset's name
 * @param {number} [players]
 * @returns {Promise<RulesSummary>}
 */
export function rulesSummary(rules, players = 4) {
  const key = JSON.stringify({ rules, players, lang: lang() });
  let pending = cache.get(key);
  if (!pending) {
    pending = sendJSON("/api/rules/summary", JSON.parse(key));
    pending.catch(() => cache.delete(key));
    cache.set(key, pending);
    const oldest = cache.keys().next(); // a Map keeps its keys in the order they came
    if (cache.size > KEEP && !oldest.done) cache.delete(oldest.value);
  }
  return pending;
}

/**
 * A drawer for pages whose rules change as people edit them: it waits until the edits pause (`delay` ms),
 * takes a copy of the rules at the time of the call, and draws only the newest answer.
 * @param {(summary: RulesSummary) => void} draw
 * @param {{ delay?: number, onError?: (error: unknown) => void }} [options]
 * @returns {(rules: RulesDoc, players?: number) => void}
 */
export function summaryDrawer(draw, { delay = 200, onError = () => {} } = {}) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let latest = 0;
  return (rules, players = 4) => {
    const snapshot = JSON.parse(JSON.stringify(rules));
    const ticket = ++latest;
    clearTimeout(timer);
    timer = setTimeout(async () => {
      try {
        const summary = await rulesSummary(snapshot, players);
        if (ticket === latest) draw(summary);
      } catch (error) {
        if (ticket === latest) onError(error);
      }
    }, delay);
  };
}

/**
 * The summary's chips as <span class="chip">, replacing what `box` held.
 * @param {HTMLElement} box
 * @param {RulesSummary} summary
 */
export function fillChips(box, summary) {
  clear(box);
  for (const chip of summary.chips) box.append(h("span", { class: "chip" }, chip));
}
