// @ts-check
// Slap or not, timed: cards come one at a time at the chosen speed; slap (Space, J or a tap) when the pile
// shows a pattern, let it go otherwise. Each slappable card is a chance, caught or missed; a slap on
// nothing is a wrong slap. Escape (or leaving the page) stops the run.
import { h, clear, announce, reducedMotion } from "../../dom.js";
import { t, lang } from "../../i18n.js";
import { errorText, getJSON } from "../../api.js";
import { cardFace, cardName } from "../../cards.js";
import { drawnCard, savedPreset } from "../learn.js";
import { drillHeader, errorPanel, newSeed, patternName, typing } from "./parts.js";
import { recordRun, resultsView, summarise } from "./stream-results.js";
/** @import { PageContext, StreamDrill } from "../../types.js" */
/** @import { Chance } from "./stream-results.js" */

const SPEED_KEY = "ratscrew.drills.speed";
const SPEEDS = [
  { id: "relaxed", ms: 1700 },
  { id: "normal", ms: 1250 },
  { id: "quick", ms: 900 },
];

/**
 * One run: its cards, the card on show, the pile it makes, and what was caught so far.
 * @typedef {object} Run
 * @property {StreamDrill} q
 * @property {number} interval ms between two cards
 * @property {number} index the card on show (-1 while counting down)
 * @property {number} shownAt performance.now() at its first paint
 * @property {boolean} slapped the card on show was slapped
 * @property {Chance[]} results
 * @property {number} wrong
 * @property {string[]} pile
 * @property {boolean} done
 * @property {{ pileButton: HTMLButtonElement, bar: HTMLElement, flash: HTMLElement, score: HTMLElement }} nodes
 */
/**
 * The drill's page: its stage, the timers it set, the run in progress, the seed and the speed.
 * @typedef {object} Stream
 * @property {PageContext} ctx
 * @property {HTMLDivElement} stage
 * @property {ReturnType<typeof setTimeout>[]} timers
 * @property {Run | null} run
 * @property {number} seed
 * @property {string} speed
 */

/**
 * @param {HTMLElement} view
 * @param {PageContext} ctx
 */
export function streamDrill(view, ctx) {
  /** @type {Stream} */
  const d = { ctx, stage: h("div", { class: "drill-stage" }), timers: [], run: null, seed: newSeed(),
    speed: localStorage.getItem(SPEED_KEY) || "normal" };
  view.append(h("div", { class: "drill-page drill-stream" }, drillHeader("stream", ctx, () => intro(d)), d.stage));
  /** @param {KeyboardEvent} event */
  const keys = (event) => onKey(d, event);
  const hidden = () => { if (document.hidden && d.run && !d.run.done) finish(d, true); };
  document.addEventListener("keydown", keys);
  document.addEventListener("visibilitychange", hidden);
  intro(d);
  return () => {
    stopTimers(d);
    if (d.run) d.run.done = true;
    document.removeEventListener("keydown", keys);
    document.removeEventListener("visibilitychange", hidden);
  };
}

/**
 * @param {Stream} d
 * @param {() => void} fn
 * @param {number} ms
 */
function later(d, fn, ms) {
  d.timers.push(setTimeout(fn, ms));
}

/** @param {Stream} d */
function stopTimers(d) {
  for (const id of d.timers) clearTimeout(id);
  d.timers = [];
}

/**
 * @param {Stream} d
 * @param {number} [seed]
 */
function streamUrl(d, seed = d.seed) {
  return `/api/drills/stream?seed=${seed}&lang=${encodeURIComponent(lang())}&preset=${encodeURIComponent(savedPreset(d.ctx.meta))}`;
}

/**
 * How the drill goes, the patterns to watch under these rules, the speed, and Start.
 * @param {Stream} d
 */
async function intro(d) {
  const { stage } = d;
  stopTimers(d);
  d.run = null;
  clear(stage);
  const speedGroup = h("fieldset", { class: "speed" }, h("legend", {}, t("drill.stream.speed")),
    SPEEDS.map((s) => h("label", { class: "speed-option" },
      h("input", { type: "radio", name: "speed", value: s.id, checked: s.id === d.speed,
        onchange: () => { d.speed = s.id; localStorage.setItem(SPEED_KEY, s.id); } }),
      h("span", {}, t(`drill.stream.speed.${s.id}`)))));
  /** @type {StreamDrill["patterns"]} */
  let patterns;
  try {
    /** @type {StreamDrill} */
    const q = await getJSON(streamUrl(d));
    patterns = q.patterns;
  } catch (error) {
    clear(stage);
    stage.append(errorPanel(errorText(error)));
    return;
  }
  clear(stage);
  const start = h("button", { type: "button", class: "start big", onclick: () => begin(d, newSeed()) },
    t("drill.stream.start"), h("kbd", { "aria-hidden": "true" }, t("drill.ui.key_enter")));
  stage.append(h("section", { class: "panel stream-intro", "aria-labelledby": "stream-h" },
    h("div", { class: "intro-art", "aria-hidden": "true" }, drawnCard("9C", "lg"), drawnCard("9H", "lg"),
      h("span", { class: "slap-mark" }, patternName("double", d.ctx.meta))),
    h("h2", { id: "stream-h" }, t("drill.stream.how")),
    h("p", {}, t("drill.stream.q")),
    h("p", {}, t("drill.stream.explain")),
    h("p", { class: "stream-patterns" }, h("strong", {}, t("drill.stream.watch")), " ",
      patterns.map((p) => h("span", { class: "chip" }, p.name))),
    speedGroup,
    start));
  start.focus();
}

/**
 * A run of the cards for `seed`, after a count of three.
 * @param {Stream} d
 * @param {number} seed
 */
async function begin(d, seed) {
  const { stage } = d;
  stopTimers(d);
  d.seed = seed;
  /** @type {StreamDrill} */
  let q;
  try {
    q = await getJSON(streamUrl(d, seed));
  } catch (error) {
    clear(stage);
    stage.append(errorPanel(errorText(error)));
    return;
  }
  const interval = SPEEDS.find((s) => s.id === d.speed)?.ms ?? 1250;
  clear(stage);
  const pileButton = h("button", { type: "button", class: "stream-pile", "aria-label": t("drill.stream.slap_button"),
    onclick: () => slap(d) });
  const bar = h("div", { class: "stream-progress", role: "progressbar", "aria-valuemin": "0",
    "aria-valuemax": String(q.cards.length), "aria-valuenow": "0", "aria-label": t("drill.stream.progress") },
  h("span", { class: "bar-fill" }));
  const flash = h("p", { class: "stream-flash", "aria-hidden": "true" });
  const score = h("p", { class: "stream-score" });
  d.run = { q, interval, index: -1, shownAt: 0, slapped: false, results: [], wrong: 0, pile: [], done: false,
    nodes: { pileButton, bar, flash, score } };
  stage.append(h("section", { class: "stream-run", "aria-labelledby": "stream-run-h" },
    h("h2", { id: "stream-run-h", class: "visually-hidden" }, t("drill.stream.title")),
    h("div", { class: "dr-felt stream-table" }, pileButton, flash),
    bar, score,
    h("p", { class: "hint keys-hint" }, t("drill.stream.keys")),
    h("button", { type: "button", class: "secondary stop", onclick: () => finish(d, true) }, t("drill.stream.stop"),
      h("kbd", { "aria-hidden": "true" }, t("drill.ui.key_esc")))));
  pileButton.focus();
  countdown(d, d.run, 3);
}

/**
 * @param {Stream} d
 * @param {Run} run
 * @param {number} n
 */
function countdown(d, run, n) {
  const { pileButton } = run.nodes;
  clear(pileButton);
  pileButton.append(h("span", { class: "countdown" }, String(n)));
  if (n === 3) announce(t("drill.stream.get_ready"));
  later(d, () => (n > 1 ? countdown(d, run, n - 1) : showNext(d)), 650);
}

/**
 * The card on show is leaving: a slappable card nobody slapped is a miss.
 * @param {Stream} d
 * @param {Run} run
 */
function settleCurrent(d, run) {
  const item = run.q.cards[run.index];
  if (item && item.patterns.length && !run.slapped) {
    run.results.push({ patterns: item.patterns, hit: false, ms: null });
    flashMessage(run, t("drill.stream.missed", { pattern: item.patterns.map((p) => patternName(p, d.ctx.meta)).join(", ") }), "miss");
  }
}

/**
 * The next card (a slappable one before it ends its pile), or the end of the run.
 * @param {Stream} d
 */
function showNext(d) {
  const { run } = d;
  if (!run || run.done) return;
  if (run.index >= 0) settleCurrent(d, run);
  const prev = run.q.cards[run.index];
  if (prev && prev.reset) run.pile = [];
  run.index += 1;
  updateScore(run);
  if (run.index >= run.q.cards.length) {
    finish(d, false);
    return;
  }
  const item = run.q.cards[run.index];
  run.pile.push(item.card);
  run.slapped = false;
  drawPile(run);
  const { bar } = run.nodes;
  bar.setAttribute("aria-valuenow", String(run.index + 1));
  /** @type {HTMLElement} */ (bar.firstChild).style.width = `${(100 * (run.index + 1)) / run.q.cards.length}%`;
  requestAnimationFrame(() => { if (d.run) d.run.shownAt = performance.now(); });
  later(d, () => showNext(d), run.interval);
}

/**
 * The pile's top cards (as many as the patterns in play look at), and its bottom card where a pattern
 * joins the ends.
 * @param {Run} run
 */
function drawPile(run) {
  const { pileButton } = run.nodes;
  clear(pileButton);
  const visible = run.pile.slice(-(run.q.shown ?? 3));
  const offset = run.pile.length - visible.length;
  const showsBottom = offset > 0 && run.q.patterns.some((p) => p.bottom);
  if (showsBottom) {
    pileButton.append(h("span", { class: "stream-bottom", "aria-hidden": "true" },
      h("span", { class: "card-slot card-xs" }, cardFace(run.pile[0], { label: "" })), h("span", {}, t("learn.ui.bottom"))));
  }
  visible.forEach((card, i) => {
    const top = i === visible.length - 1;
    pileButton.append(h("span", { class: `stream-card depth-${visible.length - 1 - i}${top && !reducedMotion() ? " arrive" : ""}`, "aria-hidden": "true" },
      cardFace(card, { label: "" })));
  });
  pileButton.setAttribute("aria-label", `${t("drill.stream.slap_button")}. ${t("drill.stream.top_is", { card: cardName(run.pile[run.pile.length - 1], t) })}`);
}

/**
 * @param {Run} run
 * @param {string} text
 * @param {"hit" | "miss" | "wrong"} tone
 */
function flashMessage(run, text, tone) {
  const { flash } = run.nodes;
  flash.textContent = text;
  flash.className = `stream-flash ${tone}`;
  announce(text);
}

/** @param {Run} run */
function updateScore(run) {
  const hits = run.results.filter((r) => r.hit).length;
  const misses = run.results.filter((r) => !r.hit).length;
  run.nodes.score.textContent = t("drill.stream.score", { hits, misses, wrong: run.wrong });
}

/**
 * A slap on the card on show: caught, or a wrong slap.
 * @param {Stream} d
 */
function slap(d) {
  const { run } = d;
  if (!run || run.done || run.index < 0 || run.index >= run.q.cards.length || run.slapped) return;
  const item = run.q.cards[run.index];
  const ms = Math.max(0, performance.now() - run.shownAt);
  run.slapped = true;
  const { pileButton } = run.nodes;
  if (item.patterns.length) {
    run.results.push({ patterns: item.patterns, hit: true, ms });
    flashMessage(run, t("drill.stream.hit", { ms: Math.round(ms), pattern: item.patterns.map((p) => patternName(p, d.ctx.meta)).join(", ") }), "hit");
    pileButton.classList.add("slapped");
    later(d, () => { if (d.run) d.run.nodes.pileButton.classList.remove("slapped"); }, 250);
  } else {
    run.wrong += 1;
    flashMessage(run, t("drill.stream.wrong"), "wrong");
    pileButton.classList.add("wrong");
    later(d, () => { if (d.run) d.run.nodes.pileButton.classList.remove("wrong"); }, 300);
  }
  updateScore(run);
}

/**
 * The run ends (at its last card, or stopped): its results, saved and shown.
 * @param {Stream} d
 * @param {boolean} stopped
 */
function finish(d, stopped) {
  const { run, stage } = d;
  if (!run || run.done) return;
  if (!stopped && run.index > 0) settleCurrent(d, run);
  run.done = true;
  stopTimers(d);
  const summary = summarise(run.results);
  const records = recordRun(summary, run.wrong, stopped);
  clear(stage);
  const { element, headline } = resultsView(d.ctx.meta, { summary, records, wrong: run.wrong, stopped },
    { again: () => begin(d, newSeed()), same: () => begin(d, d.seed) });
  stage.append(element);
  announce(`${stopped ? t("drill.stream.stopped") : t("drill.stream.done")} ${headline}`);
  /** @type {HTMLElement} */ (stage.querySelector("#results-h")).focus();
}

/**
 * @param {Stream} d
 * @param {KeyboardEvent} event
 */
function onKey(d, event) {
  if (typing(event) || event.ctrlKey || event.metaKey || event.altKey) return;
  const running = d.run && !d.run.done;
  if (running && (event.code === "Space" || event.key === " " || event.key.toLowerCase() === "j")) {
    event.preventDefault();
    if (!event.repeat) slap(d);
    return;
  }
  if (running && event.key === "Escape") {
    event.preventDefault();
    finish(d, true);
    return;
  }
  if (!running && event.key === "Enter" && !(event.target instanceof HTMLButtonElement) && !(event.target instanceof HTMLAnchorElement)) {
    event.preventDefault();
    begin(d, newSeed());
  }
}
