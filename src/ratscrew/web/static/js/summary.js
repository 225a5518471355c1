// The rules in brief, as the server explains them (POST /api/rules/summary): the enabled slaps with their
// sentences and example piles, the chips, the challenge and penalty sentences, the changes from the preset
// and the deck dealt for that many players. The pages only draw it; none of it is worked out here.
import { h, clear } from "./dom.js";
import { sendJSON } from "./api.js";
import { lang } from "./i18n.js";

const KEEP = 40; // summaries kept per page: a few presets and edits, in each language tried
const cache = new Map();

// One summary per rules + players + language, asked for once and kept (a failed answer is forgotten).
export function rulesSummary(rules, players = 4) {
  const key = JSON.stringify({ rules, players, lang: lang() });
  let pending = cache.get(key);
  if (!pending) {
    pending = sendJSON("/api/rules/summary", JSON.parse(key));
    pending.catch(() => cache.delete(key));
    cache.set(key, pending);
    if (cache.size > KEEP) cache.delete(cache.keys().next().value);
  }
  return pending;
}

// A drawer for pages whose rules change as people edit them: it waits until the edits pause (`delay` ms),
// takes a copy of the rules at the time of the call, and draws only the newest answer.
export function summaryDrawer(draw, { delay = 200, onError = () => {} } = {}) {
  let timer = null;
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

// The summary's chips as <span class="chip">, replacing what `box` held.
export function fillChips(box, summary) {
  clear(box);
  for (const chip of summary.chips) box.append(h("span", { class: "chip" }, chip));
}
