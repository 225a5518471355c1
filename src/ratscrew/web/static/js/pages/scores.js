// The score keeper for a real deck: #/scores lists the saved matches and starts a new one,
// #/scores/<id> keeps one match: tap (or press 1-9 for) the winner of each round, undo, run the
// round timer, show the agreed rules in plain words and ask the referee whether a pile is slappable.
// #/scores/<id>-<key> is a share link: it gives this browser the match's key, then shows the match.
import { useStyles } from "../styles.js";
import { h, clear, announce, reducedMotion } from "../dom.js";
import { t, tn, has, lang } from "../i18n.js";
import { summaryDrawer } from "../summary.js";
import { getJSON, sendJSON } from "../api.js";
import { forgetKey, keyHeaders, rememberKey, shareLink, splitParam } from "./scores-keys.js";
import { cardFace, cardName, rankLabel, suitGlyph } from "../cards.js";

const MIN_PLAYERS = 2;
const MAX_PLAYERS = 12;
const MAX_NAME = 24;
const TIMER_CHOICES = [0, 5, 10, 15, 20, 30, 45, 60]; // minutes
const REFEREE_MAX_CARDS = 20;
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];
const SUITS = ["S", "H", "D", "C"];
const POLL_MS = 10000;
const LIST_PAGE = 50;
// Rules people at a real table agree on, grouped as they are usually discussed. Timing details that only a
// computer can measure (collect delay, tie window) and the simulation guards (end.*) are left out.
const EDITABLE = [
  ["slaps", ["slaps.double", "slaps.sandwich", "slaps.top_bottom", "slaps.marriage", "slaps.divorce", "slaps.run",
    "slaps.run_wrap", "slaps.ten", "slaps.ten_gap", "slaps.joker", "slaps.burned_count"]],
  ["challenge", ["challenge.J", "challenge.Q", "challenge.K", "challenge.A", "challenge.empty_payer",
    "challenge.ten_stops", "challenge.joker"]],
  ["slapping", ["slapping.penalty", "slapping.penalty_cards", "slapping.tie"]],
  ["players", ["players.slap_in", "players.out_when", "players.leader"]],
  ["deck", ["deck.decks", "deck.jokers"]],
];
// Labels that already say everything; their long summaries would only repeat them.
const NO_HINT = new Set(["challenge.J", "challenge.Q", "challenge.K", "challenge.A", "challenge.joker", "deck.decks", "deck.jokers"]);

export async function render(view, ctx) {
  await useStyles("scores");
  view.classList.add("scores-page");
  const { id, key } = splitParam(ctx.params[0]);
  if (key) {
    rememberKey(id, key);
    history.replaceState(null, "", `#/scores/${id}`); // the key stays in this browser, not in its history
  }
  const cleanup = id ? await renderMatch(view, ctx, id) : await renderList(view, ctx);
  return () => {
    view.classList.remove("scores-page");
    if (typeof cleanup === "function") cleanup();
  };
}

// ---------------------------------------------------------------------------------------- small helpers

function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const secs = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
}

function when(timestamp) {
  try {
    return new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(timestamp * 1000));
  } catch {
    return new Date(timestamp * 1000).toLocaleString();
  }
}

function matchTitle(match) {
  return match.name || match.players.join(" · ");
}

function listText(items) {
  try {
    return new Intl.ListFormat(lang(), { style: "long", type: "conjunction" }).format(items);
  } catch {
    return items.join(", ");
  }
}

// This page names presets, patterns and values in its own catalog, so every label exists in every language;
// /api/meta's labels (which fall back to English on the server) are the fallback for names added later.
function ownOr(ownKey, label, metaKey) {
  const own = t(ownKey);
  if (own !== ownKey) return own;
  return label && label !== metaKey ? label : null;
}

// Preset and pattern names are the ones the whole app uses (rules.json), so they read the same everywhere.
function presetLabel(meta, name) {
  return meta.presets.find((p) => p.name === name)?.label || name;
}

function patternLabel(meta, key) {
  return meta.patterns.find((p) => p.key === key)?.label || key;
}

function optionDoc(meta, key) {
  return meta.options.find((o) => o.key === key);
}

function valueLabel(meta, key, value) {
  const opt = optionDoc(meta, key);
  if (opt?.kind === "bool") return t(value ? "scores.value.yes" : "scores.value.no");
  const choice = opt?.choices?.find((c) => String(c.value) === String(value));
  return ownOr(`scores.value.${key}.${value}`, choice?.label, `choice.${key}.${value}`) || String(value);
}

function flatten(doc) {
  const flat = {};
  for (const [section, table] of Object.entries(doc || {})) {
    if (section === "preset") continue;
    if (table && typeof table === "object") for (const [name, value] of Object.entries(table)) flat[`${section}.${name}`] = value;
  }
  return flat;
}

function nest(preset, changes) {
  const doc = { preset };
  for (const [key, value] of Object.entries(changes)) {
    const [section, name] = key.split(".");
    (doc[section] ||= {})[name] = value;
  }
  return doc;
}

function presetValues(meta, name) {
  return flatten(meta.presets.find((p) => p.name === name)?.rules);
}

// A small card drawn as its corner index (rank over suit), which stays readable at the size of a word;
// a bare rank (the referee's "any suit") shows the rank alone, "…" stands for cards in between.
function miniCard(text, { label } = {}) {
  if (text === "…") return h("span", { class: "sk-mini sk-mini-gap", "aria-hidden": "true" }, "…");
  const joker = text === "X";
  const suit = joker ? "" : SUITS.includes(text.slice(-1)) ? text.slice(-1) : "";
  const rank = joker ? "★" : (suit ? text.slice(0, -1) : text);
  const name = label || (joker ? t("card.joker") : suit ? cardName(text, t) : t(`card.rank.${rank}`));
  const colour = joker ? " joker" : suit === "H" || suit === "D" ? " red" : "";
  return h("span", { class: `sk-mini${colour}${suit ? "" : " bare"}`, role: "img", "aria-label": name, title: name },
    h("span", { class: "sk-mini-rank", "aria-hidden": "true" }, joker ? rank : rankLabel(rank)),
    suit ? h("span", { class: "sk-mini-suit", "aria-hidden": "true" }, suitGlyph(suit)) : null);
}

// A flat hand, the referee's mark (emoji fonts are not everywhere).
function handIcon() {
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "sk-hand");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(NS, "path");
  path.setAttribute("d", "M7.5 12V5.5a1.5 1.5 0 0 1 3 0V11 M10.5 10.5V4a1.5 1.5 0 0 1 3 0v7 M13.5 11V5a1.5 1.5 0 0 1 3 0v6.5 "
    + "M16.5 11.5V8a1.5 1.5 0 0 1 3 0v6a7 7 0 0 1-7 7h-.8a6 6 0 0 1-4.9-2.5L3.4 14.6a1.6 1.6 0 0 1 2.5-2L7.5 14");
  for (const [k, v] of Object.entries({ fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round", "stroke-linejoin": "round" })) {
    path.setAttribute(k, v);
  }
  svg.append(path);
  return svg;
}

function miniRow(cards, extraClass = "") {
  return h("span", { class: `sk-minis ${extraClass}` }, cards.map((c) => miniCard(c)));
}

function describeError(error) {
  if (error instanceof TypeError) return t("scores.error.offline");
  return error?.message || String(error);
}

function errorBox() {
  const box = h("p", { class: "error-box sk-error", role: "alert", hidden: true });
  return {
    el: box,
    show(message) { box.textContent = message; box.hidden = false; },
    hide() { box.hidden = true; box.textContent = ""; },
  };
}

// A delete button that asks once more on itself instead of a blocking browser dialog.
function confirmButton(label, confirmLabel, onConfirm, className = "secondary sk-danger") {
  let armed = false;
  let timer = null;
  const button = h("button", { type: "button", class: className }, label);
  const disarm = () => { armed = false; button.textContent = label; button.classList.remove("armed"); };
  button.addEventListener("click", async () => {
    if (!armed) {
      armed = true;
      button.textContent = confirmLabel;
      button.classList.add("armed");
      announce(confirmLabel);
      clearTimeout(timer);
      timer = setTimeout(disarm, 5000);
      return;
    }
    clearTimeout(timer);
    disarm();
    await onConfirm();
  });
  button.addEventListener("blur", () => { if (armed) { clearTimeout(timer); disarm(); } });
  return button;
}

// ---------------------------------------------------------------------------------------- the rules in plain words

// The agreed rules as a card everyone at the table can read: the slaps with example cards, then one line per
// rule. Every word and example is the server's summary of these rules for this many players (summary.js).
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

// A holder that shows the rules card for the newest rules it was given, once the server has answered.
function rulesHolderDrawer(holder, options = {}) {
  return summaryDrawer((summary) => {
    clear(holder);
    holder.append(rulesCard(summary, options));
  }, { delay: options.delay ?? 150, onError: (error) => { clear(holder); holder.append(h("p", { class: "error-box" }, describeError(error))); } });
}

// ---------------------------------------------------------------------------------------- the list and the new-match form

async function renderList(view, ctx) {
  const { meta } = ctx;
  const errors = errorBox();
  const listHolder = h("div", { class: "sk-saved-body", "aria-busy": "true" }, h("p", { class: "hint" }, t("app.loading")));
  const jump = h("button", { type: "button", class: "secondary sk-jump" }, h("span", { "aria-hidden": "true" }, "+"), t("scores.form.title"));
  jump.addEventListener("click", () => {
    form.scrollIntoView({ behavior: reducedMotion() ? "auto" : "smooth", block: "start" });
    form.querySelector(".sk-player-row input")?.focus({ preventScroll: true });
  });
  const savedSection = h("section", { class: "sk-saved", "aria-labelledby": "sk-saved-title" },
    h("div", { class: "sk-saved-head" }, h("h2", { id: "sk-saved-title", tabindex: "-1" }, t("scores.list.title")), jump), listHolder);
  // Option summaries are shown only where this language has its own words for them (no English mid-sentence).
  const form = newMatchForm(ctx, errors, has);
  const layout = h("div", { class: "sk-layout" }, savedSection, form);
  view.append(hero(), layout);

  // The list comes a page at a time; "more" fetches the next page and draws the whole list again.
  let matches = [];
  let next = null;
  const more = h("button", { type: "button", class: "secondary sk-list-more" }, t("scores.list.more"));
  more.addEventListener("click", () => load(next));

  async function load(before = null) {
    try {
      const query = `?limit=${LIST_PAGE}${before ? `&before=${encodeURIComponent(before)}` : ""}`;
      const page = await getJSON(`/api/matches${query}`, keyHeaders());
      matches = before ? [...matches, ...page.matches] : page.matches;
      next = page.next;
      clear(listHolder);
      listHolder.removeAttribute("aria-busy");
      layout.classList.toggle("sk-has-matches", matches.some((m) => !m.finished));
      const live = matches.filter((m) => !m.finished);
      const done = matches.filter((m) => m.finished);
      if (!matches.length) listHolder.append(emptyList());
      if (live.length) listHolder.append(matchList(live));
      if (done.length) {
        // Finished matches fold away under their own heading once there are a few, so resuming stays one tap.
        const folded = h("details", { class: "sk-done", open: live.length === 0 || done.length <= 2 },
          h("summary", {}, t("scores.list.finished", { n: done.length })), matchList(done));
        listHolder.append(folded);
      }
      if (next) listHolder.append(more);
    } catch (error) {
      clear(listHolder);
      listHolder.append(h("p", { class: "error-box" }, `${t("scores.error.load")} ${describeError(error)}`));
    }
  }

  function matchList(matches) {
    return h("ul", { class: "sk-match-list", role: "list" }, matches.map((m) => {
      const scores = h("ol", { class: "sk-mini-scores", "aria-label": t("scores.list.scores") }, m.players.map((name, i) =>
        h("li", { class: m.leaders.includes(i) ? "lead" : "" }, h("span", { class: "n" }, name), h("span", { class: "w" }, String(m.wins[i])))));
      const status = m.finished
        ? h("span", { class: "chip sk-chip-done" }, t("scores.status.finished"))
        : h("span", { class: "chip sk-chip-live" }, t("scores.status.live"));
      const details = [tn("scores.rounds_played", m.rounds), presetLabel(meta, m.preset)];
      if (m.timer_s) details.push(t("scores.list.timer", { time: clock(m.timer_s) }));
      const remove = confirmButton(t("scores.delete"), t("scores.delete_confirm"), async () => {
        try {
          await sendJSON(`/api/matches/${m.id}`, {}, "DELETE", keyHeaders());
          forgetKey(m.id);
          announce(t("scores.deleted", { title: matchTitle(m) }));
          await load();
          view.querySelector("#sk-saved-title")?.focus?.();
        } catch (error) {
          errors.show(describeError(error));
        }
      });
      return h("li", { class: `sk-match-item${m.finished ? " finished" : ""}` },
        h("div", { class: "sk-match-top" },
          h("a", { class: "sk-match-link", href: `#/scores/${m.id}` }, matchTitle(m)), status),
        scores,
        h("p", { class: "sk-match-meta" }, details.join(" · "), h("br"),
          h("span", { class: "sk-when" }, t("scores.list.updated", { when: when(m.updated) }))),
        h("div", { class: "sk-match-actions" },
          h("a", { class: "button", href: `#/scores/${m.id}` }, m.finished ? t("scores.list.open") : t("scores.list.resume")),
          remove));
    }));
  }

  function emptyList() {
    return h("div", { class: "sk-empty" },
      h("div", { class: "sk-empty-cards", "aria-hidden": "true" },
        ["AS", "KH", "7D"].map((c) => h("span", { class: "sk-empty-card" }, cardFace(c, { label: "" })))),
      h("p", {}, t("scores.list.empty")));
  }

  await load();
  return null;
}

// The link that lets another phone at the table keep this score (it carries the match's key).
function sharePanel(id) {
  const link = shareLink(id);
  if (!link) return null;
  const field = h("input", { type: "text", readonly: true, value: link, class: "sk-share-link", "aria-label": t("scores.share.title") });
  field.addEventListener("focus", () => field.select());
  const status = h("span", { class: "sk-share-status", role: "status" });
  const copy = h("button", { type: "button", class: "secondary sk-share-copy" }, t("scores.share.copy"));
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(link);
      status.textContent = t("scores.share.copied");
    } catch {
      field.focus(); // no clipboard (plain http on a phone): the link is selected for a manual copy
    }
  });
  return h("details", { class: "panel sk-share" },
    h("summary", {}, t("scores.share.title")),
    h("p", { class: "hint" }, t("scores.share.text")),
    field, h("div", { class: "sk-share-actions" }, copy, status));
}

function hero() {
  const fan = h("div", { class: "sk-fan", "aria-hidden": "true" },
    ["AS", "KH", "7D"].map((c) => h("span", { class: "sk-fan-card" }, cardFace(c, { label: "" }))));
  return h("header", { class: "sk-hero" },
    h("div", { class: "sk-hero-text" },
      h("h1", {}, t("scores.title")),
      h("p", { class: "sk-lede" }, t("scores.lede")),
      h("ol", { class: "sk-steps" },
        h("li", {}, t("scores.step.players")),
        h("li", {}, t("scores.step.rules")),
        h("li", {}, t("scores.step.rounds")))),
    fan);
}

function newMatchForm(ctx, errors, translated) {
  const { meta } = ctx;
  const state = { preset: "standard", changes: {}, timer: 0 };
  const playerList = h("ol", { class: "sk-player-rows" });
  const addButton = h("button", { type: "button", class: "secondary sk-add" }, h("span", { "aria-hidden": "true" }, "+"), t("scores.form.add_player"));
  const countHint = h("p", { class: "hint sk-count" });

  function rows() { return [...playerList.querySelectorAll("input")]; }

  function renumber() {
    const inputs = rows();
    inputs.forEach((input, i) => {
      input.placeholder = t("scores.form.player_default", { n: i + 1 });
      input.setAttribute("aria-label", t("scores.form.player_label", { n: i + 1 }));
      input.closest("li").querySelector(".sk-row-num").textContent = String(i + 1);
      const remove = input.closest("li").querySelector(".sk-remove");
      remove.disabled = inputs.length <= MIN_PLAYERS;
      remove.setAttribute("aria-label", t("scores.form.remove_player", { n: i + 1 }));
    });
    addButton.disabled = inputs.length >= MAX_PLAYERS;
    countHint.textContent = t("scores.form.count", { n: inputs.length, min: MIN_PLAYERS, max: MAX_PLAYERS });
  }

  function addRow(value = "", focus = false) {
    const input = h("input", { type: "text", maxlength: MAX_NAME, autocomplete: "off", autocapitalize: "words", spellcheck: "false", value });
    input.addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      const inputs = rows();
      const next = inputs[inputs.indexOf(input) + 1];
      if (next) { event.preventDefault(); next.focus(); }
    });
    const remove = h("button", { type: "button", class: "ghost sk-remove" }, h("span", { "aria-hidden": "true" }, "×"));
    const row = h("li", { class: "sk-player-row" }, h("span", { class: "sk-row-num", "aria-hidden": "true" }), input, remove);
    remove.addEventListener("click", () => {
      const inputs = rows();
      const index = inputs.indexOf(input);
      row.remove();
      renumber();
      const after = rows();
      (after[Math.min(index, after.length - 1)] || addButton).focus();
      announce(t("scores.form.removed", { n: after.length }));
    });
    playerList.append(row);
    renumber();
    if (focus) input.focus();
  }

  addButton.addEventListener("click", () => {
    if (rows().length >= MAX_PLAYERS) return;
    addRow("", true);
    announce(t("scores.form.added", { n: rows().length }));
  });
  addRow();
  addRow();

  // Presets as large radio cards; the changes below start from the chosen preset.
  const presetGroup = h("div", { class: "sk-presets", role: "radiogroup", "aria-label": t("scores.form.preset") });
  for (const preset of meta.presets) {
    const input = h("input", { type: "radio", name: "sk-preset", value: preset.name, checked: preset.name === state.preset, class: "visually-hidden" });
    input.addEventListener("change", () => {
      state.preset = preset.name;
      state.changes = {};
      fillControls();
      refreshPreview();
    });
    presetGroup.append(h("label", { class: "sk-preset" }, input,
      h("span", { class: "sk-preset-name" }, presetLabel(meta, preset.name)),
      h("span", { class: "sk-preset-summary" }, preset.summary)));
  }

  // Optional changes: one control per rule people agree on at a real table.
  const controls = new Map();
  const changeCount = h("span", { class: "chip sk-change-count" });
  const changesBox = h("details", { class: "sk-changes" },
    h("summary", {}, h("span", {}, t("scores.form.changes")), changeCount));
  const resetButton = h("button", { type: "button", class: "secondary sk-reset" }, t("scores.form.reset"));
  resetButton.addEventListener("click", () => {
    state.changes = {};
    fillControls();
    refreshPreview();
    announce(t("scores.form.reset_done"));
  });
  for (const [section, keys] of EDITABLE) {
    const grid = h("div", { class: "sk-opts" });
    const fieldset = h("fieldset", { class: "sk-section" }, h("legend", {}, t(`scores.section.${section}`)), grid);
    for (const key of keys) {
      const opt = optionDoc(meta, key);
      if (!opt) continue;
      const id = `sk-opt-${key.replace(/\W/g, "-")}`;
      const hintId = `${id}-hint`;
      const hint = opt.summary && !NO_HINT.has(key) && translated(`option.${key}`) ? h("small", { id: hintId, class: "sk-opt-hint" }, opt.summary) : null;
      let control;
      if (opt.kind === "bool") {
        control = h("input", { type: "checkbox", id, "aria-describedby": hint ? hintId : null });
        grid.append(h("div", { class: "sk-opt sk-opt-bool" }, control, h("label", { for: id }, t(`scores.opt.${key}`)), hint));
      } else {
        const values = opt.kind === "choice" ? opt.choices.map((c) => c.value) : range(opt.minimum, opt.maximum);
        control = h("select", { id, "aria-describedby": hint ? hintId : null },
          values.map((value) => h("option", { value: JSON.stringify(value) }, valueLabel(meta, key, value))));
        grid.append(h("div", { class: "sk-opt sk-opt-select" }, h("label", { for: id }, t(`scores.opt.${key}`)), control, hint));
      }
      control.addEventListener("change", () => {
        const value = opt.kind === "bool" ? control.checked : JSON.parse(control.value);
        const base = presetValues(meta, state.preset)[key];
        if (value === base) delete state.changes[key];
        else state.changes[key] = value;
        refreshPreview();
      });
      controls.set(key, { opt, control });
    }
    changesBox.append(fieldset);
  }
  changesBox.append(h("div", { class: "sk-changes-foot" }, resetButton));

  function fillControls() {
    const values = { ...presetValues(meta, state.preset), ...state.changes };
    for (const [key, { opt, control }] of controls) {
      if (opt.kind === "bool") control.checked = Boolean(values[key]);
      else control.value = JSON.stringify(values[key]);
    }
  }

  const preview = h("div", { class: "sk-preview" });
  const drawPreview = rulesHolderDrawer(preview, { headingLevel: "h3" });
  function refreshPreview() {
    const count = Object.keys(state.changes).length;
    changeCount.textContent = count ? tn("scores.rules.changes", count) : t("scores.form.no_changes");
    resetButton.disabled = count === 0;
    const values = { ...presetValues(meta, state.preset), ...state.changes };
    drawPreview(nest(state.preset, values), Math.min(MAX_PLAYERS, Math.max(MIN_PLAYERS, rows().length)));
  }
  fillControls();
  refreshPreview();

  // Timer length as chips: most tables play a fixed number of minutes, or no limit at all.
  const timerGroup = h("div", { class: "sk-timer-choices", role: "radiogroup", "aria-label": t("scores.form.timer") });
  for (const minutes of TIMER_CHOICES) {
    const input = h("input", { type: "radio", name: "sk-timer", value: minutes, checked: minutes === state.timer, class: "visually-hidden" });
    input.addEventListener("change", () => { state.timer = minutes; });
    timerGroup.append(h("label", { class: "sk-chip-radio" }, input,
      h("span", {}, minutes ? t("scores.form.minutes", { n: minutes }) : t("scores.form.no_timer"))));
  }

  const nameInput = h("input", { type: "text", id: "sk-match-name", maxlength: 60, autocomplete: "off" });
  nameInput.placeholder = t("scores.form.name_placeholder");
  const submit = h("button", { type: "submit", class: "sk-start" }, t("scores.form.start"));

  const form = h("form", { class: "panel sk-new", "aria-labelledby": "sk-new-title", novalidate: true },
    h("h2", { id: "sk-new-title" }, t("scores.form.title")),
    h("fieldset", { class: "sk-players" },
      h("legend", {}, t("scores.form.players")),
      playerList,
      h("div", { class: "sk-players-foot" }, addButton, countHint)),
    h("fieldset", { class: "sk-rules-field" },
      h("legend", {}, t("scores.form.rules")),
      h("p", { class: "hint" }, t("scores.form.rules_hint")),
      presetGroup,
      changesBox,
      preview),
    h("fieldset", { class: "sk-timer-field" },
      h("legend", {}, t("scores.form.timer")),
      h("p", { class: "hint" }, t("scores.form.timer_hint")),
      timerGroup),
    h("div", { class: "sk-name-field" },
      h("label", { for: "sk-match-name" }, t("scores.form.name")),
      nameInput),
    errors.el,
    submit);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    errors.hide();
    const inputs = rows();
    const players = inputs.map((input, i) => input.value.trim().replace(/\s+/g, " ") || t("scores.form.player_default", { n: i + 1 }));
    const seen = new Map();
    for (const [i, name] of players.entries()) {
      const folded = name.toLocaleLowerCase();
      if (seen.has(folded)) {
        errors.show(t("scores.form.duplicate", { name }));
        inputs[i].focus();
        return;
      }
      seen.set(folded, i);
    }
    submit.disabled = true;
    try {
      const match = await sendJSON("/api/matches", {
        name: nameInput.value.trim(), players, rules: nest(state.preset, state.changes), timer_s: state.timer * 60,
      });
      rememberKey(match.id, match.key);
      announce(t("scores.created", { title: matchTitle(match) }));
      ctx.navigate(`#/scores/${match.id}`);
    } catch (error) {
      errors.show(`${t("scores.error.create")} ${describeError(error)}`);
      submit.disabled = false;
    }
  });
  return form;
}

function range(low, high) {
  const values = [];
  for (let v = low; v <= high; v += 1) values.push(v);
  return values;
}

// ---------------------------------------------------------------------------------------- one match

async function renderMatch(view, ctx, id) {
  const { meta } = ctx;
  let match;
  try {
    match = await getJSON(`/api/matches/${encodeURIComponent(id)}`, keyHeaders());
  } catch (error) {
    view.append(h("div", { class: "panel sk-missing" },
      h("h1", {}, t("scores.missing.title")),
      h("p", {}, `${t("scores.missing.text")} (${describeError(error)})`),
      h("a", { class: "button", href: "#/scores" }, t("scores.back"))));
    return null;
  }

  const state = { match, busy: false, timerEndsAt: null, expiredShown: false, countOpen: false, lastRounds: match.rounds.length };
  const errors = errorBox();
  const timers = [];
  const listeners = [];
  const listen = (target, type, fn) => { target.addEventListener(type, fn); listeners.push([target, type, fn]); };

  // ---- banner for a finished match
  const banner = h("div", { class: "sk-banner", hidden: true, role: "status" });

  // ---- the scoreboard: one big button per player, built once so focus stays where it is
  const board = h("div", { class: "sk-board" });
  const tiles = match.players.map((name, i) => {
    const tile = h("button", { type: "button", class: "sk-tile", dataset: { index: i }, "aria-keyshortcuts": i < 9 ? String(i + 1) : null },
      h("span", { class: "sk-tile-top" },
        i < 9 ? h("kbd", { class: "sk-tile-key", "aria-hidden": "true" }, String(i + 1)) : h("span"),
        h("span", { class: "sk-tile-crown", "aria-hidden": "true" }, "♛")),
      h("span", { class: "sk-tile-name" }, name),
      h("span", { class: "sk-tile-wins" }, "0"),
      h("span", { class: "sk-tile-label" }),
      h("span", { class: "sk-tile-lead" }));
    tile.addEventListener("click", () => recordWinner(i));
    board.append(tile);
    return tile;
  });
  const boardHint = h("p", { class: "sk-board-hint" });
  const boardSection = h("section", { class: "sk-board-wrap", "aria-labelledby": "sk-board-title" },
    h("div", { class: "sk-board-head" },
      h("h2", { id: "sk-board-title" }, t("scores.board.title")),
      h("span", { class: "sk-round-badge" })),
    boardHint, board);

  // ---- actions: undo, referee, finish, delete
  const undoButton = h("button", { type: "button", class: "secondary sk-undo", "aria-keyshortcuts": "U" });
  undoButton.addEventListener("click", () => undo());
  const refereeButton = h("button", { type: "button", class: "sk-referee-open", "aria-keyshortcuts": "R", "aria-haspopup": "dialog" },
    handIcon(), t("scores.referee.open"), h("kbd", { "aria-hidden": "true" }, "R"));
  refereeButton.addEventListener("click", () => referee.open());
  const finishButton = h("button", { type: "button", class: "secondary sk-finish" });
  finishButton.addEventListener("click", () => setFinished(!state.match.finished));
  const deleteButton = confirmButton(t("scores.delete"), t("scores.delete_confirm"), async () => {
    try {
      await sendJSON(`/api/matches/${state.match.id}`, {}, "DELETE", keyHeaders());
      forgetKey(state.match.id);
      announce(t("scores.deleted", { title: matchTitle(state.match) }));
      ctx.navigate("#/scores");
    } catch (error) {
      errors.show(describeError(error));
    }
  });
  const actions = h("div", { class: "sk-actions", role: "group", "aria-label": t("scores.actions") }, undoButton, refereeButton);

  // ---- header
  const title = h("h1", { class: "sk-match-title", tabindex: "-1" });
  const chips = h("p", { class: "sk-match-chips" });
  const head = h("header", { class: "sk-match-head" },
    h("div", { class: "sk-head-row" },
      h("a", { class: "sk-back", href: "#/scores" }, h("span", { "aria-hidden": "true" }, "←"), t("scores.back")),
      deleteButton),
    title, chips);

  // ---- timer
  const timerClock = h("div", { class: "sk-clock", role: "timer", "aria-live": "off" });
  const timerBar = h("div", { class: "sk-clock-bar" }, h("span"));
  const timerStatus = h("p", { class: "sk-clock-status" });
  const timerStart = h("button", { type: "button", class: "sk-timer-start", "aria-keyshortcuts": "T" });
  timerStart.addEventListener("click", () => startTimer());
  const timerStop = h("button", { type: "button", class: "secondary sk-timer-stop" }, t("scores.timer.stop"));
  timerStop.addEventListener("click", () => stopTimer());
  const countToggle = h("button", { type: "button", class: "secondary sk-count-toggle", "aria-expanded": "false" }, t("scores.timer.count_now"));
  countToggle.addEventListener("click", () => { state.countOpen = !state.countOpen; updateTimer(); if (state.countOpen) countInputs[0]?.focus(); });
  const countInputs = match.players.map((name, i) => h("input", {
    type: "number", inputmode: "numeric", min: 0, max: match.deck_size, step: 1, id: `sk-count-${i}`, required: true,
  }));
  const countSummary = h("p", { class: "sk-count-summary" });
  const countErrors = errorBox();
  const countForm = h("form", { class: "sk-count-form", novalidate: true, hidden: true },
    h("h3", {}, t("scores.count.title")),
    h("p", { class: "hint" }, t("scores.count.hint")),
    h("div", { class: "sk-count-grid" }, match.players.map((name, i) =>
      h("div", { class: "sk-count-cell" }, h("label", { for: `sk-count-${i}` }, name), countInputs[i]))),
    countSummary, countErrors.el,
    h("button", { type: "submit", class: "sk-count-submit" }, t("scores.count.submit")));
  for (const input of countInputs) input.addEventListener("input", () => updateCountSummary());
  countForm.addEventListener("submit", (event) => { event.preventDefault(); recordCounts(); });
  const timerSection = h("section", { class: "sk-timer", "aria-labelledby": "sk-timer-title", hidden: true },
    h("div", { class: "sk-timer-main" },
      h("div", { class: "sk-timer-text" },
        h("h2", { id: "sk-timer-title" }, t("scores.timer.title")),
        timerStatus),
      timerClock,
      h("div", { class: "sk-timer-buttons" }, timerStart, timerStop, countToggle)),
    timerBar, countForm);

  // ---- side: rules and history
  const rulesHolder = h("div", { class: "panel sk-rules-panel" });
  const drawRules = rulesHolderDrawer(rulesHolder, { delay: 0 });
  const history = h("ol", { class: "sk-history", reversed: true });
  const historySection = h("section", { class: "panel sk-history-panel", "aria-labelledby": "sk-history-title" },
    h("h2", { id: "sk-history-title" }, t("scores.history.title")), history);

  const share = sharePanel(match.id);
  const watchOnly = h("p", { class: "sk-watch-only hint", role: "note", hidden: true }, t("scores.watch_only"));

  const toast = h("div", { class: "sk-toast", hidden: true });
  const keysHint = h("p", { class: "sk-keys hint" },
    ...t("scores.keys").split(/(\[[^\]]+\])/).map((part) => (part.startsWith("[") ? h("kbd", {}, part.slice(1, -1)) : part)));

  view.append(head,
    h("div", { class: "sk-match-grid" },
      h("div", { class: "sk-match-main" }, banner, watchOnly, timerSection, boardSection, errors.el, actions,
        h("div", { class: "sk-more" }, keysHint, finishButton)),
      h("aside", { class: "sk-match-side", "aria-label": t("scores.side") }, share, rulesHolder, historySection)),
    toast);

  const referee = createReferee(view, meta, () => state.match);

  // ---------------------------------------------------------------- drawing

  function update() {
    const m = state.match;
    document.title = `${matchTitle(m)} · ${t("scores.title")}`;
    title.textContent = matchTitle(m);
    clear(chips);
    chips.append(...[
      h("span", { class: "chip" }, presetLabel(meta, m.rules.preset)),
      h("span", { class: "chip" }, tn("scores.players_count", m.players.length)),
      m.timer_s ? h("span", { class: "chip" }, t("scores.list.timer", { time: clock(m.timer_s) })) : null,
      m.finished ? h("span", { class: "chip sk-chip-done" }, t("scores.status.finished")) : h("span", { class: "chip sk-chip-live" }, t("scores.status.live")),
    ].filter(Boolean));

    const best = Math.max(0, ...m.wins);
    const tied = m.leaders.length > 1;
    tiles.forEach((tile, i) => {
      const wins = m.wins[i];
      const leading = m.leaders.includes(i);
      tile.classList.toggle("leader", leading);
      tile.classList.toggle("tied", leading && tied);
      tile.querySelector(".sk-tile-wins").textContent = String(wins);
      tile.querySelector(".sk-tile-label").textContent = tn("scores.wins_word", wins);
      tile.querySelector(".sk-tile-lead").textContent = leading ? t(tied ? "scores.board.tied" : "scores.board.leads") : "";
      const share = best ? wins / best : 0;
      tile.style.setProperty("--share", share.toFixed(3));
      tile.disabled = m.finished || !m.can_change;
      tile.setAttribute("aria-label", t(m.finished ? "scores.tile.final" : "scores.tile.label", {
        name: m.players[i], wins: tn("scores.wins_word_n", wins),
        lead: leading ? ` ${t(tied ? "scores.board.tied" : "scores.board.leads")}.` : "",
      }));
    });
    board.classList.toggle("many", m.players.length > 6);
    boardSection.querySelector(".sk-round-badge").textContent = m.finished
      ? tn("scores.rounds_played", m.rounds.length)
      : t("scores.board.round", { n: m.rounds.length + 1 });
    boardHint.textContent = m.finished ? t("scores.board.finished_hint")
      : t(m.players.length > 9 ? "scores.board.hint_many" : "scores.board.hint", { max: Math.min(9, m.players.length) });

    watchOnly.hidden = m.can_change;
    banner.hidden = !m.finished;
    clear(banner);
    if (m.finished) {
      const names = m.leaders.map((i) => m.players[i]);
      const text = !names.length ? t("scores.banner.none")
        : names.length === 1 ? t("scores.banner.winner", { name: names[0], score: scoreLine(m) })
          : t("scores.banner.shared", { names: listText(names), score: scoreLine(m) });
      banner.append(h("span", { class: "sk-banner-crown", "aria-hidden": "true" }, "♛"), h("span", {}, text));
    }

    const last = m.rounds[m.rounds.length - 1];
    clear(undoButton);
    undoButton.append(h("span", { class: "sk-undo-icon", "aria-hidden": "true" }, "↶"),
      h("span", { class: "sk-undo-text" }, h("span", {}, t("scores.undo")),
        last ? h("small", {}, t("scores.undo_detail", { n: last.number, who: roundWinner(m, last) })) : null),
      h("kbd", { "aria-hidden": "true" }, "U"));
    undoButton.disabled = !last || m.finished || !m.can_change;
    finishButton.textContent = m.finished ? t("scores.reopen") : t("scores.finish");
    // A phone without the match's key watches: only what it may do is offered.
    finishButton.hidden = !m.can_change;
    deleteButton.hidden = !m.can_change;
    refereeButton.disabled = false;

    drawRules(nest(m.rules.preset, m.rules_values), m.players.length);

    clear(history);
    if (!m.rounds.length) history.append(h("li", { class: "sk-history-empty" }, t("scores.history.empty")));
    for (const round of [...m.rounds].reverse()) {
      history.append(h("li", { class: round.winner === null ? "draw" : "", value: round.number },
        h("span", { class: "sk-h-num" }, t("scores.history.round", { n: round.number })),
        h("span", { class: "sk-h-who" }, round.winner === null ? t("scores.history.draw") : m.players[round.winner]),
        round.cards ? h("span", { class: "sk-h-cards" }, round.cards.map((c, i) => `${m.players[i]} ${c}`).join(" · ")) : null));
    }
    updateTimer();
  }

  function scoreLine(m) {
    return [...m.wins].sort((a, b) => b - a).join("–");
  }

  function roundWinner(m, round) {
    return round.winner === null ? t("scores.history.draw") : m.players[round.winner];
  }

  // ---------------------------------------------------------------- the timer

  function syncTimer() {
    const m = state.match;
    state.timerEndsAt = m.timer_s && m.remaining_s !== null && m.remaining_s !== undefined
      ? performance.now() + m.remaining_s * 1000 : null;
    if (state.timerEndsAt === null) state.expiredShown = false;
  }

  function remaining() {
    return state.timerEndsAt === null ? null : Math.max(0, (state.timerEndsAt - performance.now()) / 1000);
  }

  function updateTimer() {
    const m = state.match;
    timerSection.hidden = !m.timer_s;
    if (!m.timer_s) return;
    const left = remaining();
    const running = left !== null && left > 0;
    const expired = left !== null && left <= 0;
    timerSection.classList.toggle("running", running);
    timerSection.classList.toggle("expired", expired);
    timerClock.textContent = clock(left === null ? m.timer_s : left);
    timerClock.setAttribute("aria-label", t("scores.timer.left", { time: clock(left === null ? m.timer_s : left) }));
    timerBar.firstChild.style.width = `${left === null ? 100 : (100 * left) / m.timer_s}%`;
    timerStatus.textContent = m.finished ? t("scores.timer.finished")
      : expired ? t("scores.timer.up") : running ? t("scores.timer.running") : t("scores.timer.idle", { time: clock(m.timer_s) });
    clear(timerStart);
    timerStart.append(running || expired ? t("scores.timer.restart") : t("scores.timer.start"), h("kbd", { "aria-hidden": "true" }, "T"));
    timerStart.classList.toggle("secondary", running || expired);
    timerStart.disabled = m.finished || !m.can_change;
    timerStop.hidden = m.finished || !(running || expired) || !m.can_change;
    const showCount = !m.finished && m.can_change && (expired || state.countOpen);
    countForm.hidden = !showCount;
    countToggle.hidden = m.finished || expired || !m.can_change;
    countToggle.setAttribute("aria-expanded", String(showCount));
    countToggle.textContent = state.countOpen ? t("scores.timer.count_hide") : t("scores.timer.count_now");
    if (expired && !state.expiredShown) {
      state.expiredShown = true;
      if (!m.finished) timeIsUp();
    }
  }

  function timeIsUp() {
    announce(t("scores.timer.up_announce"), { urgent: true });
    updateCountSummary();
    if (!state.timerWasLive) return;  // a page opened after the time ran out just shows the count form
    beep();
    const active = document.activeElement;
    if (!active || active === document.body || active === title || active === timerStart) countInputs[0]?.focus();
  }

  function updateCountSummary() {
    const m = state.match;
    const values = countInputs.map((input) => (input.value === "" ? null : Number(input.value)));
    const filled = values.filter((v) => v !== null && Number.isInteger(v) && v >= 0);
    clear(countSummary);
    const total = filled.reduce((a, b) => a + b, 0);
    countSummary.append(t("scores.count.total", { n: total, deck: m.deck_size }));
    if (filled.length === values.length && total > 0) {
      const best = Math.max(...values);
      const top = values.map((v, i) => (v === best ? i : -1)).filter((i) => i >= 0);
      countSummary.append(" · ", h("strong", {}, top.length === 1
        ? t("scores.count.would_win", { name: m.players[top[0]] }) : t("scores.count.would_draw")));
    }
  }

  function beep() {
    try {
      const AudioCtx = window.AudioContext || window.webkitAudioContext;
      if (!AudioCtx) return;
      const audio = new AudioCtx();
      [0, 0.25, 0.5].forEach((offset, i) => {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.frequency.value = i === 2 ? 988 : 784;
        gain.gain.setValueAtTime(0.0001, audio.currentTime + offset);
        gain.gain.exponentialRampToValueAtTime(0.25, audio.currentTime + offset + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + offset + 0.22);
        osc.connect(gain).connect(audio.destination);
        osc.start(audio.currentTime + offset);
        osc.stop(audio.currentTime + offset + 0.25);
      });
      setTimeout(() => audio.close(), 1200);
      navigator.vibrate?.([200, 100, 200]);
    } catch { /* sound is a nicety */ }
  }

  // ---------------------------------------------------------------- writes

  async function act(path, body, describe) {
    if (state.busy || !state.match.can_change) return false; // keys pressed on a phone that only watches
    state.busy = true;
    errors.hide();
    view.setAttribute("aria-busy", "true");
    try {
      state.match = await sendJSON(`/api/matches/${state.match.id}${path}`, body, "POST", keyHeaders());
      syncTimer();
      update();
      if (describe) describe(state.match);
      return true;
    } catch (error) {
      errors.show(`${t("scores.error.save")} ${describeError(error)}`);
      announce(t("scores.error.save"), { urgent: true });
      await reload();
      return false;
    } finally {
      state.busy = false;
      view.removeAttribute("aria-busy");
    }
  }

  async function recordWinner(index) {
    const m = state.match;
    if (m.finished || index >= m.players.length) return;
    const ok = await act("/rounds", { winner: index, rounds: m.rounds.length }, (after) => {
      const round = after.rounds[after.rounds.length - 1];
      const message = t("scores.recorded", { n: round.number, name: after.players[index] }) + " " + standing(after);
      announce(message);
      showToast(message);
      bump(tiles[index]);
    });
    if (ok) state.countOpen = false;
  }

  async function recordCounts() {
    const m = state.match;
    countErrors.hide();
    const counts = [];
    for (const [i, input] of countInputs.entries()) {
      const value = input.value.trim() === "" ? NaN : Number(input.value);
      if (!Number.isInteger(value) || value < 0 || value > m.deck_size) {
        countErrors.show(t("scores.count.invalid", { name: m.players[i], max: m.deck_size }));
        input.focus();
        return;
      }
      counts.push(value);
    }
    const total = counts.reduce((a, b) => a + b, 0);
    if (total === 0 || total > m.deck_size) {
      countErrors.show(t(total === 0 ? "scores.count.zero" : "scores.count.too_many", { n: total, deck: m.deck_size }));
      countInputs[0].focus();
      return;
    }
    const ok = await act("/rounds", { cards: counts, rounds: m.rounds.length }, (after) => {
      const round = after.rounds[after.rounds.length - 1];
      const message = (round.winner === null
        ? t("scores.recorded_draw", { n: round.number })
        : t("scores.recorded_cards", { n: round.number, name: after.players[round.winner], cards: counts[round.winner] })) + " " + standing(after);
      announce(message);
      showToast(message);
      if (round.winner !== null) bump(tiles[round.winner]);
    });
    if (ok) {
      for (const input of countInputs) input.value = "";
      state.countOpen = false;
      updateTimer();
      (state.match.finished ? finishButton : tiles[0]).focus();
    }
  }

  function standing(m) {
    if (!m.leaders.length) return "";
    const best = m.wins[m.leaders[0]];
    if (m.leaders.length === 1) return t("scores.standing.leads", { name: m.players[m.leaders[0]], wins: tn("scores.wins_word_n", best) });
    return t("scores.standing.tied", { names: listText(m.leaders.map((i) => m.players[i])), wins: tn("scores.wins_word_n", best) });
  }

  async function undo() {
    const m = state.match;
    const last = m.rounds[m.rounds.length - 1];
    if (!last || m.finished) return;
    await act("/undo", { rounds: m.rounds.length }, (after) => {
      const message = t("scores.undone", { n: last.number, who: roundWinner(m, last) }) + " " + standing(after);
      announce(message);
      showToast(message, false);
    });
  }

  async function startTimer() {
    if (!state.match.timer_s || state.match.finished) return;
    state.timerWasLive = true;
    state.countOpen = false;
    await act("/timer", {}, (after) => {
      state.expiredShown = false;
      announce(t("scores.timer.started", { time: clock(after.timer_s) }));
    });
  }

  async function stopTimer() {
    if (state.match.finished) return;
    state.countOpen = false;
    await act("/timer", { action: "stop" }, () => {
      state.expiredShown = false;
      announce(t("scores.timer.stopped"));
      timerStart.focus();
    });
  }

  async function setFinished(finished) {
    await act("/finish", { finished }, (after) => {
      const message = finished ? t("scores.finished_announce", { standing: standing(after) || t("scores.banner.none") }) : t("scores.reopened");
      announce(message);
      if (!finished) tiles[0].focus();
      else finishButton.focus();
    });
  }

  async function reload() {
    try {
      const fresh = await getJSON(`/api/matches/${state.match.id}`, keyHeaders());
      const changed = fresh.updated !== state.match.updated;
      state.match = fresh;
      syncTimer();
      if (changed) update();
    } catch (error) {
      if (!(error instanceof TypeError)) {
        errors.show(`${t("scores.missing.text")} (${describeError(error)})`);
      }
    }
  }

  let toastTimer = null;
  function showToast(message, withUndo = true) {
    clear(toast);
    toast.append(h("span", {}, message));
    if (withUndo && !state.match.finished) {
      const button = h("button", { type: "button", class: "ghost" }, t("scores.undo"));
      button.addEventListener("click", () => { toast.hidden = true; undo(); });
      toast.append(button);
    }
    toast.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { toast.hidden = true; }, 5000);
  }

  function bump(tile) {
    if (reducedMotion()) return;
    tile.classList.remove("bump");
    void tile.offsetWidth;
    tile.classList.add("bump");
  }

  // ---------------------------------------------------------------- keyboard and refresh

  listen(document, "keydown", (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (referee.isOpen()) return;
    const target = event.target;
    if (target instanceof HTMLElement && (target.closest("input, select, textarea, [contenteditable]"))) return;
    const key = event.key;
    if (/^[1-9]$/.test(key)) {
      const index = Number(key) - 1;
      if (index < state.match.players.length && !state.match.finished) {
        event.preventDefault();
        tiles[index].focus();
        recordWinner(index);
      }
    } else if (key === "u" || key === "U") {
      event.preventDefault();
      undo();
    } else if (key === "r" || key === "R") {
      event.preventDefault();
      referee.open();
    } else if ((key === "t" || key === "T") && state.match.timer_s) {
      event.preventDefault();
      startTimer();
    }
  });
  listen(document, "visibilitychange", () => { if (document.visibilityState === "visible" && !state.busy) reload(); });
  timers.push(setInterval(() => { if (document.visibilityState === "visible" && !state.busy) reload(); }, POLL_MS));
  timers.push(setInterval(() => { if (state.timerEndsAt !== null) updateTimer(); }, 250));

  syncTimer();
  // A reload after the time ran out shows the count form, but only a live countdown beeps.
  state.timerWasLive = remaining() !== null && remaining() > 0;
  title.focus({ preventScroll: true });
  update();

  return () => {
    for (const id of timers) clearInterval(id);
    for (const [target, type, fn] of listeners) target.removeEventListener(type, fn);
    clearTimeout(toastTimer);
    referee.close();
    document.title = t("app.title");
  };
}

// ---------------------------------------------------------------------------------------- the referee

// "Is this slappable?": pick the pile's cards (rank buttons, optional suit), and ask /api/check with the
// match's own rules. The answer comes back as the patterns found and the cards that make each one.
function createReferee(view, meta, currentMatch) {
  const pile = [];
  let suit = "";
  let requestId = 0;
  let debounce = null;
  let opener = null;

  const pileRow = h("div", { class: "sk-ref-pile", role: "list", "aria-label": t("scores.referee.pile") });
  const verdict = h("div", { class: "sk-verdict", "aria-live": "polite", "aria-atomic": "true" });
  const suitButtons = ["", ...SUITS].map((s) => {
    const button = h("button", { type: "button", class: `sk-suit${s === "H" || s === "D" ? " red" : ""}`, "aria-pressed": String(s === suit), dataset: { suit: s } },
      s ? h("span", { "aria-hidden": "true" }, suitGlyph(s)) : t("scores.referee.any_suit"),
      s ? h("span", { class: "visually-hidden" }, t(`card.suit.${s}`)) : null);
    button.addEventListener("click", () => chooseSuit(s));
    return button;
  });
  const rankButtons = new Map();
  const rankGrid = h("div", { class: "sk-ranks" });
  function buildRanks() {
    clear(rankGrid);
    rankButtons.clear();
    const m = currentMatch();
    const ranks = m.rules_values["deck.jokers"] > 0 ? [...RANKS, "X"] : RANKS;
    for (const rank of ranks) {
      const label = rank === "X" ? t("card.joker") : t(`card.rank.${rank}`);
      const button = h("button", { type: "button", class: `sk-rank${rank === "X" ? " joker" : ""}`, "aria-label": label },
        h("span", { "aria-hidden": "true" }, rank === "X" ? "★" : rankLabel(rank)));
      button.addEventListener("click", () => add(rank));
      rankButtons.set(rank, button);
      rankGrid.append(button);
    }
  }
  const removeButton = h("button", { type: "button", class: "secondary" }, h("span", { "aria-hidden": "true" }, "⌫ "), t("scores.referee.remove"));
  removeButton.addEventListener("click", () => removeLast());
  const clearButton = h("button", { type: "button", class: "secondary" }, t("scores.referee.clear"));
  clearButton.addEventListener("click", () => reset(true));
  const closeButton = h("button", { type: "button", class: "ghost sk-ref-close", "aria-label": t("scores.referee.close") }, h("span", { "aria-hidden": "true" }, "×"));

  const dialog = h("dialog", { class: "sk-referee", "aria-labelledby": "sk-ref-title" },
    h("div", { class: "sk-ref-head" },
      h("h2", { id: "sk-ref-title" }, handIcon(), t("scores.referee.title")),
      closeButton),
    h("p", { class: "hint" }, t("scores.referee.hint")),
    h("div", { class: "sk-ref-pile-wrap" },
      h("span", { class: "sk-ref-end" }, t("scores.referee.bottom")), pileRow, h("span", { class: "sk-ref-end" }, t("scores.referee.top"))),
    verdict,
    h("div", { class: "sk-ref-suits", role: "group", "aria-label": t("scores.referee.suit") },
      h("span", { class: "sk-ref-label", "aria-hidden": "true" }, t("scores.referee.suit")), ...suitButtons),
    rankGrid,
    h("div", { class: "sk-ref-tools" }, removeButton, clearButton),
    h("p", { class: "hint sk-ref-keys" }, ...t("scores.referee.keys").split(/(\[[^\]]+\])/).map((part) => (part.startsWith("[") ? h("kbd", {}, part.slice(1, -1)) : part))));
  closeButton.addEventListener("click", () => close());
  dialog.addEventListener("close", () => { opener?.focus?.(); opener = null; });
  dialog.addEventListener("click", (event) => { if (event.target === dialog) close(); });
  dialog.addEventListener("keydown", onKey);
  view.append(dialog);

  function chooseSuit(s) {
    suit = s;
    for (const button of suitButtons) button.setAttribute("aria-pressed", String(button.dataset.suit === s));
  }

  function limits() {
    const m = currentMatch();
    return { decks: m.decks, jokers: m.rules_values["deck.jokers"] * m.decks };
  }

  // A pile cannot hold more of a card than the deck does; the server would refuse it, so the buttons say so first.
  function canAdd(rank, s) {
    if (pile.length >= REFEREE_MAX_CARDS) return false;
    const { decks, jokers } = limits();
    if (rank === "X") return pile.filter((c) => c === "X").length < jokers;
    const sameRank = pile.filter((c) => c !== "X" && c.slice(0, 1) === rank);
    if (sameRank.length >= 4 * decks) return false;
    if (!s) return true;
    const suited = sameRank.filter((c) => c.length === 2);
    const bare = sameRank.length - suited.length;
    if (suited.filter((c) => c === rank + s).length >= decks) return false;
    // every bare rank needs some suit left for it
    return suited.length + 1 + bare <= 4 * decks;
  }

  function refreshButtons() {
    for (const [rank, button] of rankButtons) button.disabled = !canAdd(rank, rank === "X" ? "" : suit);
    removeButton.disabled = !pile.length;
    clearButton.disabled = !pile.length;
  }

  function add(rank) {
    const s = rank === "X" ? "" : suit;
    if (!canAdd(rank, s)) {
      announce(pile.length >= REFEREE_MAX_CARDS ? t("scores.referee.full", { n: REFEREE_MAX_CARDS }) : t("scores.referee.no_more"), { urgent: true });
      return;
    }
    const card = rank + s;
    pile.push(card);
    drawPile();
    announce(t("scores.referee.added", { card: spoken(card) }));
    check();
  }

  function removeLast() {
    if (!pile.length) return;
    const card = pile.pop();
    drawPile();
    announce(t("scores.referee.removed", { card: spoken(card) }));
    check();
  }

  function reset(say) {
    pile.length = 0;
    drawPile();
    if (say) announce(t("scores.referee.cleared"));
    check();
  }

  function spoken(card) {
    if (card === "X") return t("card.joker");
    return card.length === 2 ? cardName(card, t) : t(`card.rank.${card}`);
  }

  function drawPile() {
    clear(pileRow);
    if (!pile.length) pileRow.append(h("span", { class: "sk-ref-empty", role: "listitem" }, t("scores.referee.empty")));
    pile.forEach((card, i) => {
      const item = h("span", { class: `sk-ref-card${i === pile.length - 1 ? " top" : ""}`, role: "listitem" }, miniCard(card, { label: spoken(card) }));
      pileRow.append(item);
    });
    pileRow.scrollLeft = pileRow.scrollWidth;
    refreshButtons();
  }

  function check() {
    clearTimeout(debounce);
    const mine = ++requestId;
    if (!pile.length) {
      clear(verdict);
      verdict.className = "sk-verdict";
      verdict.append(h("p", { class: "sk-verdict-idle" }, t("scores.referee.idle")));
      return;
    }
    debounce = setTimeout(async () => {
      const m = currentMatch();
      // The referee counts cards against one deck unless told otherwise; a big table plays with two.
      const rules = { ...m.rules, deck: { ...(m.rules.deck || {}), decks: m.decks } };
      try {
        const answer = await sendJSON("/api/check", { cards: [...pile], rules });
        if (mine !== requestId) return;
        showAnswer(answer);
      } catch (error) {
        if (mine !== requestId) return;
        clear(verdict);
        verdict.className = "sk-verdict error";
        verdict.append(h("p", {}, `${t("scores.referee.error")} ${describeError(error)}`));
      }
    }, 120);
  }

  function showAnswer(answer) {
    clear(verdict);
    verdict.className = `sk-verdict ${answer.slappable ? "yes" : "no"}`;
    verdict.append(h("p", { class: "sk-verdict-word" }, answer.slappable ? t("scores.referee.yes") : t("scores.referee.no")));
    if (answer.slappable) {
      verdict.append(h("ul", { class: "sk-verdict-list", role: "list" }, answer.matches.map((found) =>
        h("li", {}, h("strong", {}, patternLabel(meta, found.pattern)), miniRow(found.cards)))));
    } else {
      verdict.append(h("p", { class: "sk-verdict-why" }, t("scores.referee.no_why")));
    }
  }

  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toUpperCase();
    let handled = true;
    if (/^[2-9]$/.test(key)) add(key);
    else if (key === "0" || key === "T" || key === "1") add("T");
    else if (["J", "Q", "K", "A"].includes(key)) add(key);
    else if (key === "X" && rankButtons.has("X")) add("X");
    else if (["S", "H", "D", "C"].includes(key)) chooseSuit(suit === key ? "" : key);
    else if (key === "N") chooseSuit("");
    else if (key === "BACKSPACE") removeLast();
    else if (key === "DELETE") reset(true);
    else handled = false;
    if (handled) event.preventDefault();
  }

  function open() {
    if (dialog.open) return;
    opener = document.activeElement;
    buildRanks();
    drawPile();
    check();
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
    (rankButtons.get("7") || rankGrid.querySelector("button"))?.focus();
  }

  function close() {
    clearTimeout(debounce);
    if (dialog.open) {
      if (typeof dialog.close === "function") dialog.close();
      else dialog.removeAttribute("open");
    }
  }

  return {
    open,
    close,
    isOpen: () => dialog.open,
  };
}
