// @ts-check
// The form that starts a match: the players' names, a preset with the changes people agree on at a real
// table (and the rules card they make), a timer, and a name for the match.
import { h, announce } from "../../dom.js";
import { t, tn } from "../../i18n.js";
import { sendJSON } from "../../api.js";
import { rememberKey } from "./keys.js";
import { MAX_PLAYERS, MIN_PLAYERS, describeError, matchTitle, presetLabel } from "./parts.js";
import { dependency, forcedValue, needsReason } from "../../needs.js";
import { limitNote } from "../../name-limit.js";
import { nest, presetValues, rulesHolderDrawer } from "./rules.js";
/** @import { CreatedMatch, FlatRules, Meta, OptionDoc, PageContext, RuleValue } from "../../types.js" */
/** @import { ErrorBox } from "./parts.js" */

const MAX_NAME = 24;
const TIMER_CHOICES = [0, 5, 10, 15, 20, 30, 45, 60]; // minutes
/**
 * What the form has chosen so far: the preset, the options changed from it, the timer in minutes.
 * @typedef {{ preset: string, changes: FlatRules, timer: number }} Choices
 */

/**
 * @param {PageContext} ctx
 * @param {ErrorBox} errors
 * @param {(key: string) => boolean} translated whether this language has its own words for a key
 * @returns {HTMLFormElement}
 */
export function newMatchForm(ctx, errors, translated) {
  const { meta } = ctx;
  /** @type {Choices} */
  const state = { preset: "standard", changes: {}, timer: 0 };
  const players = playerRows();
  const rules = ruleChoices(meta, state, translated, () => players.rows().length);

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
      players.list,
      h("div", { class: "sk-players-foot" }, players.addButton, players.countHint)),
    h("fieldset", { class: "sk-rules-field" },
      h("legend", {}, t("scores.form.rules")),
      h("p", { class: "hint" }, t("scores.form.rules_hint")),
      rules.presetGroup,
      rules.changesBox,
      rules.preview),
    h("fieldset", { class: "sk-timer-field" },
      h("legend", {}, t("scores.form.timer")),
      h("p", { class: "hint" }, t("scores.form.timer_hint")),
      timerGroup),
    h("div", { class: "sk-name-field" },
      h("label", { for: "sk-match-name" }, t("scores.form.name")),
      nameInput, limitNote(nameInput)),
    errors.el,
    submit);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    errors.hide();
    const inputs = players.rows();
    const names = inputs.map((input, i) => input.value.trim().replace(/\s+/g, " ") || t("scores.form.player_default", { n: i + 1 }));
    const seen = new Map();
    for (const [i, name] of names.entries()) {
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
      /** @type {CreatedMatch} */
      const match = await sendJSON("/api/matches", {
        name: nameInput.value.trim(), players: names, rules: nest(state.preset, state.changes), timer_s: state.timer * 60,
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

// The players' names, one row each (two to start with), numbered, with a button to add one and to remove each;
// a name at its limit says so on a line of its own under the field.
function playerRows() {
  let made = 0; // each field's id stays its own when rows are removed and added
  const list = h("ol", { class: "sk-player-rows" });
  const addButton = h("button", { type: "button", class: "secondary sk-add" }, h("span", { "aria-hidden": "true" }, "+"), t("scores.form.add_player"));
  const countHint = h("p", { class: "hint sk-count" });

  /** @returns {HTMLInputElement[]} */
  function rows() { return [...list.querySelectorAll("input")]; }

  function renumber() {
    const inputs = rows();
    inputs.forEach((input, i) => {
      const row = /** @type {HTMLLIElement} */ (input.closest("li"));
      input.placeholder = t("scores.form.player_default", { n: i + 1 });
      input.setAttribute("aria-label", t("scores.form.player_label", { n: i + 1 }));
      /** @type {HTMLElement} */ (row.querySelector(".sk-row-num")).textContent = String(i + 1);
      const remove = /** @type {HTMLButtonElement} */ (row.querySelector(".sk-remove"));
      remove.disabled = inputs.length <= MIN_PLAYERS;
      remove.setAttribute("aria-label", t("scores.form.remove_player", { n: i + 1 }));
    });
    addButton.disabled = inputs.length >= MAX_PLAYERS;
    countHint.textContent = t("scores.form.count", { n: inputs.length, min: MIN_PLAYERS, max: MAX_PLAYERS });
  }

  function addRow(value = "", focus = false) {
    const input = h("input", { type: "text", id: `sk-player-${made++}`, maxlength: MAX_NAME, autocomplete: "off", autocapitalize: "words",
      spellcheck: "false", value });
    input.addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      const inputs = rows();
      const next = inputs[inputs.indexOf(input) + 1];
      if (next) { event.preventDefault(); next.focus(); }
    });
    const remove = h("button", { type: "button", class: "ghost sk-remove" }, h("span", { "aria-hidden": "true" }, "×"));
    const row = h("li", { class: "sk-player-row" }, h("span", { class: "sk-row-num", "aria-hidden": "true" }), input, remove,
      limitNote(input));
    remove.addEventListener("click", () => {
      const inputs = rows();
      const index = inputs.indexOf(input);
      row.remove();
      renumber();
      const after = rows();
      (after[Math.min(index, after.length - 1)] || addButton).focus();
      announce(t("scores.form.removed", { n: after.length }));
    });
    list.append(row);
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
  return { list, addButton, countHint, rows };
}

/**
 * The rules part of the form: presets as large radio cards, the changes from the chosen preset (one control
 * per rule people agree on at a real table), and the rules card they make together.
 * @param {Meta} meta
 * @param {Choices} state changed in place
 * @param {(key: string) => boolean} translated
 * @param {() => number} playerCount
 */
function ruleChoices(meta, state, translated, playerCount) {
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

  /** @type {Map<string, { opt: OptionDoc, control: OptionControl }>} */
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
  // The rules people at a real table agree on (meta says which: not the timings only a computer measures, nor
  // the simulation guards), section by section in the order people usually talk them through.
  for (const section of meta.table_sections) {
    const grid = h("div", { class: "sk-opts" });
    const fieldset = h("fieldset", { class: "sk-section" }, h("legend", {}, t(`scores.section.${section}`)), grid);
    for (const opt of meta.options.filter((o) => o.section === section && o.table)) {
      const { key } = opt;
      const control = optionControl(opt, translated, needsReason(opt, meta.options));
      grid.append(control.field);
      control.onChange(() => {
        choose(key, control.read());
        settleNeeds();
        refreshPreview();
      });
      controls.set(key, { opt, control });
    }
    changesBox.append(fieldset);
  }
  changesBox.append(h("div", { class: "sk-changes-foot" }, resetButton));

  /**
   * A value chosen for a rule, kept as a change only where it differs from the preset.
   * @param {string} key
   * @param {RuleValue} value
   */
  function choose(key, value) {
    if (value === presetValues(meta, state.preset)[key]) delete state.changes[key];
    else state.changes[key] = value;
  }

  function fillControls() {
    const values = { ...presetValues(meta, state.preset), ...state.changes };
    for (const [key, { control }] of controls) control.write(values[key]);
    settleNeeds();
  }

  // A rule that depends on another (a lockout's length on the lockout penalty, a ten with a gap on adding
  // to ten) is greyed out while that one does not call for it, and goes back to its off value where it has one.
  function settleNeeds() {
    const values = { ...presetValues(meta, state.preset), ...state.changes };
    /** @param {string} key */
    const valueOf = (key) => values[key];
    for (const [key, { opt, control }] of controls) {
      control.setActive(dependency(opt, valueOf, meta.options).met);
      const forced = forcedValue(opt, valueOf);
      if (forced === undefined) continue;
      choose(key, forced);
      values[key] = forced;
      control.write(forced);
    }
  }

  const preview = h("div", { class: "sk-preview" });
  const drawPreview = rulesHolderDrawer(preview, { headingLevel: "h3" });
  function refreshPreview() {
    const count = Object.keys(state.changes).length;
    changeCount.textContent = count ? tn("scores.rules.changes", count) : t("scores.form.no_changes");
    resetButton.disabled = count === 0;
    const values = { ...presetValues(meta, state.preset), ...state.changes };
    drawPreview(nest(state.preset, values), Math.min(MAX_PLAYERS, Math.max(MIN_PLAYERS, playerCount())));
  }
  fillControls();
  refreshPreview();
  return { presetGroup, changesBox, preview };
}

/**
 * One rule's control in the form: its field (label, control, hint), how to read, set and watch its value,
 * and whether it may be changed now (a rule that depends on another is greyed out until that one calls for it).
 * @typedef {{ field: HTMLElement, read(): RuleValue, write(value: RuleValue | undefined): void,
 *   onChange(listener: () => void): void, setActive(active: boolean): void }} OptionControl
 */

/**
 * A switch for a yes-or-no rule, a list of values for the others. While the rule has no effect (it depends
 * on another that does not call for it), it is greyed out and says why.
 * @param {OptionDoc} opt
 * @param {(key: string) => boolean} translated
 * @param {string} reason why it would have no effect ("" for a rule that depends on no other)
 * @returns {OptionControl}
 */
function optionControl(opt, translated, reason) {
  const { key } = opt;
  const id = `sk-opt-${key.replace(/\W/g, "-")}`;
  const hintId = `${id}-hint`;
  const hint = opt.summary && opt.hint && translated(`option.${key}`) ? h("small", { id: hintId, class: "sk-opt-hint" }, opt.summary) : null;
  const why = reason ? h("small", { id: `${id}-why`, class: "sk-opt-hint sk-opt-why", hidden: true }, reason) : null;
  const label = h("label", { for: id }, t(`scores.opt.${key}`));
  /** @type {HTMLInputElement | HTMLSelectElement} */
  let control;
  /** @type {OptionControl["read"]} */
  let read;
  /** @type {OptionControl["write"]} */
  let write;
  let field;
  if (opt.kind === "bool") {
    const box = h("input", { type: "checkbox", id });
    control = box;
    read = () => box.checked;
    write = (value) => { box.checked = Boolean(value); };
    field = h("div", { class: "sk-opt sk-opt-bool" }, box, label, hint, why);
  } else {
    /** @type {RuleValue[]} */
    const values = opt.kind === "choice" ? opt.choices.map((c) => c.value) : range(opt.minimum, opt.maximum);
    const select = h("select", { id }, values.map((value) => h("option", { value: JSON.stringify(value) }, valueLabel(opt, value))));
    control = select;
    read = () => JSON.parse(select.value);
    write = (value) => { select.value = JSON.stringify(value); };
    field = h("div", { class: "sk-opt sk-opt-select" }, label, select, hint, why);
  }
  /** @param {boolean} active */
  const describe = (active) => {
    const ids = [hint && hintId, why && !active && why.id].filter(Boolean).join(" ");
    if (ids) control.setAttribute("aria-describedby", ids);
    else control.removeAttribute("aria-describedby");
  };
  describe(true);
  return {
    field,
    read,
    write,
    onChange: (listener) => control.addEventListener("change", listener),
    setActive: (active) => {
      control.disabled = !active;
      field.classList.toggle("sk-opt-inactive", !active);
      if (why) why.hidden = active;
      describe(active);
    },
  };
}

/**
 * @param {number} low
 * @param {number} high
 * @returns {number[]} low, low + 1, ... high
 */
function range(low, high) {
  const values = [];
  for (let v = low; v <= high; v += 1) values.push(v);
  return values;
}

/**
 * A value of a rule in words. This page names values in its own catalog, so every label exists in every
 * language; /api/meta's labels (which fall back to English on the server) are the fallback for values added
 * later.
 * @param {OptionDoc} opt
 * @param {RuleValue} value
 * @returns {string}
 */
function valueLabel(opt, value) {
  if (opt.kind === "bool") return t(value ? "scores.value.yes" : "scores.value.no");
  const choice = opt.kind === "choice" ? opt.choices.find((c) => String(c.value) === String(value)) : undefined;
  return ownOr(`scores.value.${opt.key}.${value}`, choice?.label, `choice.${opt.key}.${value}`) || String(value);
}

/**
 * This page's own words for a key, else the server's label unless that is only the key it stands for.
 * @param {string} ownKey
 * @param {string | undefined} label
 * @param {string} metaKey
 * @returns {string | null}
 */
function ownOr(ownKey, label, metaKey) {
  const own = t(ownKey);
  if (own !== ownKey) return own;
  return label && label !== metaKey ? label : null;
}
