// @ts-check
// The end of a timed run: what it caught pattern by pattern, the records it set (saved with the progress),
// and the buttons for another run.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { patternName } from "./parts.js";
import { loadProgress, percent, saveProgress } from "./progress.js";
/** @import { Meta } from "../../types.js" */

/**
 * One slappable card of a run: its patterns, whether it was slapped in time, and how fast (ms).
 * @typedef {{ patterns: string[], hit: boolean, ms: number | null }} Chance
 */
/**
 * A pattern's figures in one run.
 * @typedef {{ key: string, shown: number, hits: number, times: number[], mean: number | null, best: number | null }} PatternRow
 */
/** @typedef {{ rows: PatternRow[], hits: number, chances: number }} RunSummary */

/**
 * @param {Chance[]} results
 * @returns {RunSummary}
 */
export function summarise(results) {
  /** @type {Map<string, { key: string, shown: number, hits: number, times: number[] }>} */
  const byPattern = new Map();
  for (const r of results) {
    for (const p of r.patterns) {
      const row = byPattern.get(p) || { key: p, shown: 0, hits: 0, times: [] };
      row.shown += 1;
      if (r.hit && r.ms !== null) { row.hits += 1; row.times.push(r.ms); }
      byPattern.set(p, row);
    }
  }
  const rows = [...byPattern.values()].map((row) => ({
    ...row,
    mean: row.times.length ? row.times.reduce((a, b) => a + b, 0) / row.times.length : null,
    best: row.times.length ? Math.min(...row.times) : null,
  }));
  return { rows, hits: results.filter((r) => r.hit).length, chances: results.length };
}

/**
 * A run into the saved progress: a finished one counts, and any run may set a pattern's best time.
 * @param {RunSummary} summary
 * @param {number} wrong the run's wrong slaps
 * @param {boolean} stopped stopped before its end
 * @returns {string[]} the patterns whose record it set
 */
export function recordRun(summary, wrong, stopped) {
  const progress = loadProgress();
  const s = progress.stream;
  /** @type {string[]} */
  const records = [];
  if (!stopped) {
    s.runs += 1;
    s.hits += summary.hits;
    s.chances += summary.chances;
    s.wrong += wrong;
    s.lastAccuracy = percent(summary.hits, summary.chances);
  }
  for (const row of summary.rows) {
    if (row.best !== null && (s.best[row.key] === undefined || row.best < s.best[row.key])) {
      s.best[row.key] = Math.round(row.best);
      records.push(row.key);
    }
  }
  saveProgress(progress);
  return records;
}

/**
 * @param {Meta} meta
 * @param {{ summary: RunSummary, records: string[], wrong: number, stopped: boolean }} run
 * @param {{ again(): void, same(): void }} actions a new run; the same cards again
 * @returns {{ element: HTMLElement, headline: string }}
 */
export function resultsView(meta, { summary, records, wrong, stopped }, actions) {
  const accuracy = percent(summary.hits, summary.chances);
  const headline = t("drill.stream.result", { hits: summary.hits, chances: summary.chances, wrong });
  const again = h("button", { type: "button", class: "big", onclick: actions.again }, t("drill.stream.again"),
    h("kbd", { "aria-hidden": "true" }, t("drill.ui.key_enter")));
  const element = h("section", { class: "panel stream-results", "aria-labelledby": "results-h" },
    h("h2", { id: "results-h", tabindex: "-1" }, stopped ? t("drill.stream.stopped") : t("drill.stream.done")),
    h("div", { class: "big-numbers" },
      h("p", { class: "big-number" }, h("span", {}, `${summary.hits}/${summary.chances}`), h("span", { class: "hint" }, t("drill.stream.caught"))),
      h("p", { class: "big-number" }, h("span", {}, `${accuracy}%`), h("span", { class: "hint" }, t("drill.stream.col.hits"))),
      h("p", { class: `big-number${wrong ? " bad" : ""}` }, h("span", {}, String(wrong)), h("span", { class: "hint" }, t("drill.ui.wrong_slaps")))),
    h("p", {}, headline),
    patternTable(meta, summary, records),
    h("div", { class: "result-actions" }, again,
      h("button", { type: "button", class: "secondary", onclick: actions.same }, t("drill.stream.same")),
      h("a", { class: "button secondary", href: "#/drills" }, t("drill.ui.all"))));
  return { element, headline };
}

/**
 * @param {Meta} meta
 * @param {RunSummary} summary
 * @param {string[]} records
 */
function patternTable(meta, summary, records) {
  if (!summary.rows.length) return h("p", {}, t("drill.stream.no_chances"));
  /** @param {number | null} ms */
  const time = (ms) => (ms === null ? "–" : t("drill.ui.ms", { n: Math.round(ms) }));
  const columns = ["drill.ui.pattern", "drill.stream.col.shown", "drill.stream.col.hits", "drill.stream.col.mean", "drill.stream.col.best"];
  return h("div", { class: "table-wrap" }, h("table", { class: "results-table" },
    h("caption", {}, t("drill.stream.per_pattern")),
    h("thead", {}, h("tr", {}, columns.map((k) => h("th", { scope: "col" }, t(k))))),
    h("tbody", {}, summary.rows.map((row) => h("tr", {},
      h("th", { scope: "row" }, patternName(row.key, meta)),
      h("td", {}, `${row.hits}/${row.shown}`),
      h("td", {}, h("span", { class: "meter", style: `--pct:${percent(row.hits, row.shown)}%` }, `${percent(row.hits, row.shown)}%`)),
      h("td", {}, time(row.mean)),
      h("td", {}, time(row.best),
        records.includes(row.key) ? h("span", { class: "record-badge" }, t("drill.stream.record")) : null))))));
}
