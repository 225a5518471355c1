// @ts-check
// The question drills: count the debt (who owes how many cards, who wins the challenge), and is it
// slappable (pick every pattern on the pile, or none). Number keys answer, Enter checks and moves on.
import { h, clear, announce } from "../../dom.js";
import { t, lang } from "../../i18n.js";
import { errorText, getJSON } from "../../api.js";
import { cardBack, cardFace, cardName } from "../../cards.js";
import { drawnCard, savedPreset } from "../learn.js";
import { choiceButton, drillHeader, errorPanel, feedbackBox, newSeed, showFeedback, statStrip, typing } from "./parts.js";
import { recordAnswer } from "./progress.js";
/** @import { DebtQuestion, DrillQuestion, PageContext, SlapQuestion } from "../../types.js" */

/**
 * One question drill on the screen: the question shown, whether it was answered, the patterns picked.
 * @typedef {object} QuestionRun
 * @property {"debt" | "slap"} kind
 * @property {PageContext} ctx
 * @property {HTMLDivElement} stage where the question is drawn
 * @property {{ element: HTMLElement, refresh(): void }} strip
 * @property {DrillQuestion | null} question
 * @property {boolean} answered
 * @property {Set<string>} picked
 * @property {number} loading the newest request's number: an older answer is dropped
 */

/**
 * @param {HTMLElement} view
 * @param {PageContext} ctx
 * @param {"debt" | "slap"} kind
 */
export function questionDrill(view, ctx, kind) {
  /** @type {QuestionRun} */
  const run = { kind, ctx, stage: h("div", { class: "drill-stage" }), strip: statStrip(kind), question: null, answered: false,
    picked: new Set(), loading: 0 };
  view.append(h("div", { class: `drill-page drill-${kind}` },
    drillHeader(kind, ctx, () => next(run)),
    run.strip.element,
    run.stage));
  /** @param {KeyboardEvent} event */
  const keys = (event) => onKey(run, event);
  document.addEventListener("keydown", keys);
  next(run);
  return () => {
    run.loading += 1;
    document.removeEventListener("keydown", keys);
  };
}

/**
 * A new question, for a new seed, under the rules chosen.
 * @param {QuestionRun} run
 */
async function next(run) {
  const { stage, kind } = run;
  const ticket = ++run.loading;
  run.answered = false;
  run.picked = new Set();
  stage.setAttribute("aria-busy", "true");
  try {
    const preset = savedPreset(run.ctx.meta);
    /** @type {DrillQuestion} */
    const q = await getJSON(`/api/drills/${kind}?seed=${newSeed()}&lang=${encodeURIComponent(lang())}&preset=${encodeURIComponent(preset)}`);
    if (ticket !== run.loading) return;
    run.question = q;
    clear(stage);
    stage.append(q.kind === "debt" ? debtView(run, q) : slapView(run, q));
    stage.querySelector("h2")?.focus();
  } catch (error) {
    if (ticket !== run.loading) return;
    run.question = null;
    clear(stage);
    stage.append(errorPanel(errorText(error)));
  } finally {
    if (ticket === run.loading) stage.removeAttribute("aria-busy");
  }
}

/**
 * Count the debt: the players with their cards left, and the cards played so far.
 * @param {QuestionRun} run
 * @param {DebtQuestion} q
 */
function debtView(run, q) {
  const plays = h("ol", { class: "play-row", "aria-label": t("drill.debt.plays") }, q.plays.map((p, i) => h("li", { class: `play${p.demand ? " court" : ""}` },
    drawnCard(p.card, "md"),
    h("span", { class: `play-who who-${p.seat}` }, p.name),
    p.demand ? h("span", { class: "play-demand" }, t("drill.debt.asks", { n: p.demand })) : null,
    h("span", { class: "visually-hidden" }, `${i + 1}. ${p.name}: ${cardName(p.card, t)}`))));
  const seats = h("ul", { class: "dr-seats", role: "list", "aria-label": t("drill.debt.players") }, q.players.map((p) => h("li", { class: `dr-seat who-${p.seat}` },
    h("span", { class: "dr-seat-stack", "aria-hidden": "true" }, p.cards_left ? cardBack() : h("span", { class: "dr-seat-empty" })),
    h("span", { class: "dr-seat-name" }, p.name),
    h("span", { class: "dr-seat-count" }, t("drill.debt.left", { n: p.cards_left })))));
  return questionLayout(run, q, h("div", { class: "dr-felt" }, seats, h("p", { class: "dr-felt-caption" }, t("drill.debt.pile_caption")), plays),
    q.choices.map((c) => choiceButton(c, (value) => answer(run, [value]))));
}

/**
 * Is it slappable: the pile, bottom first, a button for each pattern in play (they toggle) and one for none.
 * @param {QuestionRun} run
 * @param {SlapQuestion} q
 */
function slapView(run, q) {
  const n = q.pile.length;
  const pile = h("ol", { class: "slap-pile", "aria-label": t("drill.slap.pile", { n }) }, q.pile.map((c, i) => h("li", { class: "slap-card", dataset: { index: i } },
    h("span", { class: "card-slot card-lg" }, cardFace(c, { label: cardName(c, t) })),
    h("span", { class: "slap-pos" }, i === 0 ? t("learn.ui.bottom") : i === n - 1 ? t("learn.ui.top") : ""))));
  const buttons = q.choices.map((c) => {
    if (c.value === "none") return choiceButton(c, () => answer(run, ["none"]));
    const b = choiceButton(c, (value) => toggle(run, value));
    b.setAttribute("aria-pressed", "false");
    return b;
  });
  const check = h("button", { type: "button", class: "check", onclick: () => answer(run, [...run.picked]) },
    t("drill.slap.check"), h("kbd", { "aria-hidden": "true" }, t("drill.ui.key_enter")));
  return questionLayout(run, q, h("div", { class: "dr-felt" }, pile), buttons, check);
}

/**
 * @param {QuestionRun} run
 * @param {string} value a pattern picked, or no longer
 */
function toggle(run, value) {
  if (run.answered) return;
  if (run.picked.has(value)) run.picked.delete(value);
  else run.picked.add(value);
  for (const b of run.stage.querySelectorAll(".choice[aria-pressed]")) {
    b.setAttribute("aria-pressed", run.picked.has(/** @type {HTMLElement} */ (b).dataset.value ?? "") ? "true" : "false");
  }
}

/**
 * @param {QuestionRun} run
 * @param {DrillQuestion} q
 * @param {HTMLElement} table what the question is about
 * @param {HTMLElement[]} buttons
 * @param {HTMLElement | null} [after] under the buttons
 */
function questionLayout(run, q, table, buttons, after = null) {
  return h("section", { class: "question panel", "aria-labelledby": "question-h" },
    table,
    h("h2", { id: "question-h", tabindex: "-1" }, q.question),
    h("div", { class: "choices", role: "group", "aria-labelledby": "question-h" }, buttons),
    after,
    h("p", { class: "hint keys-hint" }, t(run.kind === "slap" ? "drill.slap.keys" : "drill.debt.keys")),
    feedbackBox(),
    h("p", { class: "seed-note" }, t("drill.ui.seed", { seed: q.seed })));
}

/**
 * Check an answer: right or wrong with the server's reasons, the buttons marked, the tally counted.
 * @param {QuestionRun} run
 * @param {string[]} values
 */
function answer(run, values) {
  const q = run.question;
  if (run.answered || !q) return;
  const given = [...values].sort();
  if (run.kind === "slap" && !given.length) {
    announce(t("drill.slap.pick_first"));
    return;
  }
  run.answered = true;
  const expected = (Array.isArray(q.answer) ? q.answer : [q.answer]).slice().sort();
  const ok = given.length === expected.length && given.every((v, i) => v === expected[i]);
  const tally = recordAnswer(run.kind, ok);
  run.strip.refresh();
  for (const b of run.stage.querySelectorAll(".choice")) {
    const value = /** @type {HTMLElement} */ (b).dataset.value ?? "";
    /** @type {HTMLButtonElement} */ (b).disabled = true;
    if (expected.includes(value)) b.classList.add("is-answer");
    else if (given.includes(value)) b.classList.add("is-wrong");
  }
  run.stage.querySelector(".check")?.setAttribute("disabled", "");
  /** @param {string} v */
  const label = (v) => q.choices.find((c) => c.value === v)?.label ?? v;
  const title = ok ? t("drill.ui.right", { streak: tally.streak }) : t("drill.ui.wrong", { answer: expected.map(label).join(", ") });
  const lines = Array.isArray(q.why) ? q.why : [q.why];
  let extra = null;
  if (q.kind === "debt" && q.steps?.length) {
    extra = h("details", { class: "steps" }, h("summary", {}, t("drill.debt.step_by_step")),
      h("ol", {}, q.steps.map((s) => h("li", {}, s))));
  }
  if (q.kind === "slap") markMatches(run.stage, q);
  const box = /** @type {HTMLElement} */ (run.stage.querySelector(".feedback"));
  const nextButton = h("button", { type: "button", class: "next", onclick: () => next(run) },
    t("drill.ui.next"), h("kbd", { "aria-hidden": "true" }, t("drill.ui.key_enter")));
  showFeedback(box, ok, title, lines, [extra, nextButton]);
  announce(`${title} ${lines.join(" ")}`);
  nextButton.focus();
}

/**
 * The cards that make each pattern found, marked on the pile where the engine says they lie.
 * @param {HTMLElement} stage
 * @param {SlapQuestion} q
 */
function markMatches(stage, q) {
  const cards = stage.querySelectorAll(".slap-card");
  for (const m of q.matches) for (const p of m.positions) cards[p]?.classList.add("in-match");
}

/**
 * @param {QuestionRun} run
 * @param {KeyboardEvent} event
 */
function onKey(run, event) {
  if (typing(event) || event.ctrlKey || event.metaKey || event.altKey) return;
  if (!run.question) return;
  if (run.answered) {
    if (event.key === "Enter" || event.key.toLowerCase() === "n") {
      if (event.target instanceof HTMLButtonElement && event.key === "Enter" && !event.target.classList.contains("next")) return;
      event.preventDefault();
      next(run);
    }
    return;
  }
  /** @type {HTMLButtonElement[]} */
  const choices = [...run.stage.querySelectorAll(".choice")].filter((b) => b instanceof HTMLButtonElement);
  const button = choices.find((b) => b.dataset.key === event.key);
  if (button) {
    event.preventDefault();
    button.click();
    return;
  }
  // In the slap drill Enter always checks: the pattern buttons toggle with a click, Space or their number.
  if (event.key === "Enter" && run.kind === "slap" && !(event.target instanceof HTMLAnchorElement)) {
    event.preventDefault();
    answer(run, [...run.picked]);
  }
}
