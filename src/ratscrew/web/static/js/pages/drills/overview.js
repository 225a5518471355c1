// @ts-check
// #/drills: a tile for each drill with its progress, the best times of the timed drill, and a reset.
import { h, announce } from "../../dom.js";
import { t } from "../../i18n.js";
import { cardFace } from "../../cards.js";
import { presetPicker, savedPreset, savePreset } from "../learn.js";
import { patternName } from "./parts.js";
import { forgetProgress, loadProgress, percent } from "./progress.js";
/** @import { PageContext } from "../../types.js" */
/** @import { Progress } from "./progress.js" */

/** @type {{ id: "debt" | "slap" | "stream", icon: string[] }[]} */
const KINDS = [
  { id: "debt", icon: ["KH", "4C", "9D"] },
  { id: "slap", icon: ["7S", "KD", "7C"] },
  { id: "stream", icon: ["5H", "5S"] },
];

/**
 * @param {HTMLElement} view
 * @param {PageContext} ctx
 */
export function drillIndex(view, ctx) {
  const progress = loadProgress();
  view.append(h("div", { class: "drills-page" },
    h("header", { class: "drills-hero" },
      h("div", {}, h("p", { class: "eyebrow" }, t("drill.ui.eyebrow")), h("h1", {}, t("drill.ui.title")), h("p", { class: "lede" }, t("drill.ui.lede"))),
      presetPicker(ctx.meta, savedPreset(ctx.meta), (name) => savePreset(name), { id: "drill-preset", labelKey: "drill.ui.rules" }).element),
    h("div", { class: "drill-grid" }, KINDS.map((kind) => drillTile(kind, progress))),
    records(ctx, progress)));
  return null;
}

/**
 * @param {(typeof KINDS)[number]} kind
 * @param {Progress} progress
 */
function drillTile(kind, progress) {
  const { id } = kind;
  /** @type {[string, string | number][]} */
  let stats;
  if (id === "stream") {
    const p = progress.stream;
    stats = [[t("drill.ui.runs"), p.runs], [t("drill.stream.col.hits"), p.chances ? `${percent(p.hits, p.chances)}%` : "–"],
      [t("drill.ui.wrong_slaps"), p.wrong]];
  } else {
    const p = progress[id];
    stats = [[t("drill.ui.answered"), p.answered], [t("drill.ui.accuracy"), p.answered ? `${percent(p.correct, p.answered)}%` : "–"],
      [t("drill.ui.streak"), p.streak], [t("drill.ui.best_streak"), p.best]];
  }
  return h("article", { class: `drill-tile tile-${id}`, "aria-labelledby": `tile-${id}` },
    h("div", { class: "tile-fan", "aria-hidden": "true" }, kind.icon.map((c) => h("span", { class: "fan-card" }, cardFace(c, { label: "" })))),
    h("div", { class: "tile-body" },
      h("h2", { id: `tile-${id}` }, t(`drill.${id}.title`)),
      h("p", {}, t(`drill.${id}.summary`)),
      h("dl", { class: "tile-stats" }, stats.map(([label, value]) => h("div", {}, h("dt", {}, label), h("dd", {}, String(value))))),
      h("a", { class: "button", href: `#/drills/${id}` }, t("drill.ui.start"),
        h("span", { class: "visually-hidden" }, `: ${t(`drill.${id}.title`)}`))));
}

/**
 * The timed drill's best time for each pattern, and a reset of all progress (pressed twice).
 * @param {PageContext} ctx
 * @param {Progress} progress
 */
function records(ctx, progress) {
  const best = Object.entries(progress.stream.best);
  const reset = h("button", { type: "button", class: "secondary reset-progress" }, t("drill.ui.reset"));
  reset.addEventListener("click", () => {
    if (reset.dataset.armed !== "yes") {
      reset.dataset.armed = "yes";
      reset.textContent = t("drill.ui.reset_confirm");
      return;
    }
    forgetProgress();
    announce(t("drill.ui.reset_done"));
    ctx.refresh();
  });
  return h("section", { class: "panel records", "aria-labelledby": "records-h" },
    h("h2", { id: "records-h" }, t("drill.ui.records")),
    best.length
      ? h("table", { class: "records-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("drill.ui.pattern")), h("th", { scope: "col" }, t("drill.ui.best_time")))),
        h("tbody", {}, best.sort((a, b) => a[1] - b[1]).map(([key, ms]) => h("tr", {},
          h("th", { scope: "row" }, patternName(key, ctx.meta)), h("td", {}, t("drill.ui.ms", { n: Math.round(ms) }))))))
      : h("p", { class: "hint" }, t("drill.ui.no_records")),
    reset);
}
