// @ts-check
// A rating's history as a small line chart, drawn here as SVG: the number shown before the first game shown,
// then after each rated game, oldest on the left (so one game is a line from where it started to where it went). The highest and lowest numbers stand beside it as text; a sentence says the same to a screen
// reader (it names the chart), and a table beside it holds the last games' numbers.
import { h } from "../../dom.js";
import { t, tn, lang } from "../../i18n.js";
/** @import { RatingPoint } from "../../types.js" */

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 1000; // the drawing's own units: it is stretched to the width it is given
const HEIGHT = 300;
const ROWS = 20; // games the table shows, the latest first
/** @type {Intl.DateTimeFormatOptions} */
const DATE = { day: "numeric", month: "short" }; // "Dec 2": short enough for a phone, and read one way only (2/12 was not)
/** @type {Intl.DateTimeFormatOptions} */
const DATE_YEAR = { ...DATE, year: "numeric" }; // a game of another year says which

/**
 * A game's day, in the page's language.
 * @param {number} seconds since 1970
 */
function day(seconds) {
  const when = new Date(seconds * 1000);
  return when.toLocaleDateString(lang(), when.getFullYear() === new Date().getFullYear() ? DATE : DATE_YEAR);
}

/**
 * An SVG element with its attributes.
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @returns {SVGElement}
 */
function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  return el;
}

/**
 * Where each point lies in the drawing: x across the games, y between the lowest and highest numbers (with a
 * margin, and a span of at least 40 points so a flat history is not drawn as a cliff).
 * @param {number[]} values
 * @returns {[number, number][]}
 */
export function chartPoints(values) {
  const high = Math.max(...values);
  const low = Math.min(...values);
  const span = Math.max(high - low, 40);
  const bottom = (high + low) / 2 - span * 0.6;
  /** @param {number} value */
  const y = (value) => HEIGHT - ((value - bottom) / (span * 1.2)) * HEIGHT;
  if (values.length === 1) return [[0, y(values[0])], [WIDTH, y(values[0])]];  // not drawn by the page: kept safe
  return values.map((value, i) => [(i / (values.length - 1)) * WIDTH, y(value)]);
}

/**
 * The numbers the chart draws: the one before the first game, then the one after each game.
 * @param {RatingPoint[]} history oldest first
 * @returns {number[]}
 */
export function chartValues(history) {
  return [history[0].before, ...history.map((p) => p.shown)];
}

/**
 * The sentence that says what the chart shows.
 * @param {number[]} values the start, then one per game
 */
export function chartSummary(values) {
  const last = values[values.length - 1];
  return tn("profile.chart.summary", values.length - 1, {
    first: values[0], last, high: Math.max(...values), low: Math.min(...values),
  });
}

/**
 * @param {RatingPoint[]} history oldest first
 * @param {{ id: string, size: string }} options the chart's id, and the size class's words
 */
export function ratingChart(history, { id, size }) {
  const values = chartValues(history);
  const points = chartPoints(values).map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
  const captionId = `${id}-caption`;
  const drawing = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`, preserveAspectRatio: "none", class: "chart-drawing", role: "img",
    "aria-labelledby": captionId,
  });
  drawing.append(
    svg("polygon", { class: "chart-area", points: `0,${HEIGHT} ${points} ${WIDTH},${HEIGHT}` }),
    svg("polyline", { class: "chart-line", points, "vector-effect": "non-scaling-stroke" }));
  return h("figure", { class: "rating-chart", id },
    h("div", { class: "chart-frame" },
      h("span", { class: "chart-high", "aria-hidden": "true" }, String(Math.max(...values))),
      drawing,
      h("span", { class: "chart-low", "aria-hidden": "true" }, String(Math.min(...values))),
      h("span", { class: "chart-first", "aria-hidden": "true" }, t("profile.chart.first")),
      h("span", { class: "chart-last", "aria-hidden": "true" }, t("profile.chart.last"))),
    h("figcaption", { id: captionId, class: "chart-caption" }, t("profile.chart.label", { size }), " ", chartSummary(values)),
    ratingTable(history));
}

/**
 * The last games' numbers, newest first, folded away until asked for.
 * @param {RatingPoint[]} history oldest first
 */
function ratingTable(history) {
  const shown = history.slice(-ROWS).reverse();
  const first = history.length - shown.length; // games before those shown
  const title = tn("profile.chart.table", shown.length);
  // The table fits a phone's width (short headings that may wrap, a short date) rather than scroll sideways:
  // a table cut at the edge hid its last column. The figures' headings stand right, over their figures.
  const headings = [["profile.chart.game", ""], ["profile.chart.when", ""], ["profile.chart.place", ""],
    ["profile.chart.change", "number"], ["profile.chart.rating", "number"]];
  return h("details", { class: "chart-numbers" },
    h("summary", {}, title),
    h("table", { "aria-label": title },
      h("thead", {}, h("tr", {}, headings.map(([key, cls]) => h("th", { scope: "col", class: cls }, t(key))))),
      h("tbody", {}, shown.map((point, i) => h("tr", {},
        h("th", { scope: "row" }, String(first + shown.length - i)),
        h("td", {}, day(point.when)),
        h("td", {}, t("profile.chart.place_of", { place: point.place, players: point.players })),
        h("td", { class: "number" }, signed(point.change)),
        h("td", { class: "number" }, String(point.shown)))))));
}

/**
 * A change with its sign, the minus as typeset (−12, +8, 0).
 * @param {number} change
 */
export function signed(change) {
  return change > 0 ? `+${change}` : change < 0 ? `\u2212${-change}` : "0";
}
