// @ts-check
// The house rules as a form, one fieldset per section, in the words of /api/meta. The setup page and a
// room's host edit it; everyone else in a room sees the same form read-only.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { dependency, forcedValue, needsReason } from "./needs.js";
/** @import { IntOption, Meta, OptionDoc, RulesDoc, RulesSection, RuleValue } from "./types.js" */

/**
 * What a change of one option is told: its key and its new value.
 * @typedef {(key: string, value: RuleValue) => void} OnRuleChange
 */
/**
 * An option that depends on another, with its field in the form.
 * @typedef {{ opt: OptionDoc, field: HTMLElement, editable: boolean }} Dependent
 */

/**
 * A preset's whole rules (the first preset's for an unknown name), as a copy the caller may change.
 * @param {Meta} meta
 * @param {string} name
 * @returns {RulesDoc}
 */
export function presetValues(meta, name) {
  const preset = meta.presets.find((p) => p.name === name) || meta.presets[0];
  return structuredClone(preset.rules);
}

/**
 * @param {RulesDoc} values
 * @param {string} key "section.name"
 * @returns {RuleValue | undefined}
 */
export function getValue(values, key) {
  const [section, name] = splitKey(key);
  return sectionOf(values, section)?.[name];
}

/**
 * @param {RulesDoc} values changed in place
 * @param {string} key "section.name"
 * @param {RuleValue} value
 */
export function setValue(values, key, value) {
  const [section, name] = splitKey(key);
  const table = sectionOf(values, section) || {};
  values[section] = table;
  table[name] = value;
}

/**
 * @param {string} key
 * @returns {[string, string]}
 */
function splitKey(key) {
  const [section = "", name = ""] = key.split(".");
  return [section, name];
}

/**
 * One section of a rules document by its name (`preset` is not a section).
 * @param {RulesDoc} values
 * @param {string} section
 * @returns {RulesSection | undefined}
 */
function sectionOf(values, section) {
  const table = values[section];
  return typeof table === "object" ? table : undefined;
}

/**
 * The form, one fieldset per section. `values` is a full rules mapping ({preset, slaps: {...}, ...}), changed
 * in place; `onChange(key, value)` is told after the value in `values` was changed; `editable: false` shows
 * the values only.
 * @param {Meta} meta
 * @param {RulesDoc} values
 * @param {{ idPrefix?: string, editable?: boolean, onChange?: OnRuleChange }} [options]
 * @returns {HTMLFieldSetElement[]}
 */
export function rulesForm(meta, values, { idPrefix = "opt", editable = true, onChange = () => {} } = {}) {
  const sections = [...new Set(meta.options.map((o) => o.section))];
  /** @type {Dependent[]} */
  const dependents = [];
  /** @type {OnRuleChange} */
  const changed = (key, value) => { settleNeeds(dependents, values, meta.options, onChange); onChange(key, value); };
  const form = sections.map((section) => {
    const fields = h("div", { class: "option-grid" });
    const options = meta.options.filter((o) => o.section === section);
    for (const opt of options) {
      const field = optionField(opt, values, { idPrefix, editable, onChange: changed });
      if (opt.needs) {
        dependents.push({ opt, field, editable });
        field.append(h("small", { class: "option-why", id: `${fieldId(idPrefix, opt)}-why`, hidden: true }, needsReason(opt, meta.options, fieldLabel)));
      }
      fields.append(field);
    }
    return h("fieldset", { class: "option-section", disabled: !editable }, h("legend", {}, t(`rules.section.${section}`)), fields,
      optionKeys(options));
  });
  settleNeeds(dependents, values, meta.options, () => {});
  return form;
}

/**
 * An option that only applies while another key has some values (a lockout's length, a ten around a gap) is
 * greyed out otherwise, with the reason beside it; one the rules refuse on its own goes back to its off value
 * (meta.options[].needs).
 * @param {Dependent[]} dependents
 * @param {RulesDoc} values
 * @param {OptionDoc[]} options every option (meta.options)
 * @param {OnRuleChange} onChange
 */
function settleNeeds(dependents, values, options, onChange) {
  /** @param {string} key */
  const valueOf = (key) => getValue(values, key);
  for (const { opt, field, editable } of dependents) {
    const { met } = dependency(opt, valueOf, options);
    field.classList.toggle("option-inactive", !met);
    const why = /** @type {HTMLElement} */ (field.querySelector(".option-why"));
    why.hidden = met;
    /** @type {HTMLInputElement | HTMLSelectElement} */
    const input = /** @type {HTMLInputElement | HTMLSelectElement} */ (field.querySelector("input, select"));
    input.disabled = !editable || !met;
    describe(input, why.id, !met);
    // A tick on a greyed box would read as "on": it shows unticked while it does nothing, its value kept.
    if (input instanceof HTMLInputElement && input.type === "checkbox") {
      input.checked = met && Boolean(getValue(values, opt.key) ?? opt.default);
    }
    // A number typed wrong in a field that no longer counts is dropped: the field shows the value in force.
    if (!met && input.getAttribute("aria-invalid") === "true") {
      showValue(field, getValue(values, opt.key) ?? opt.default);
      showProblem(field, "");
    }
    const forced = forcedValue(opt, valueOf);
    if (forced !== undefined) {
      setValue(values, opt.key, forced);
      showValue(field, forced);
      onChange(opt.key, forced);
    }
  }
}

/**
 * @param {HTMLElement} field
 * @param {RuleValue} value
 */
function showValue(field, value) {
  /** @type {HTMLInputElement | HTMLSelectElement | null} */
  const input = field.querySelector("input, select");
  if (input instanceof HTMLInputElement && input.type === "checkbox") input.checked = Boolean(value);
  else if (input) input.value = String(value);
}

/**
 * The id of an option's control ("opt-slaps-run"); its reason and its complaint add "-why" and "-problem".
 * @param {string} idPrefix
 * @param {OptionDoc} opt
 */
function fieldId(idPrefix, opt) {
  return `${idPrefix}-${opt.key.replace(".", "-")}`;
}

/**
 * The label this form shows on an option's field (a greyed option's reason names the other one by it).
 * @param {OptionDoc} opt
 */
function fieldLabel(opt) {
  return opt.summary;
}

/**
 * One option's label and control: a checkbox, a list of choices, or a number in its range.
 * @param {OptionDoc} opt
 * @param {RulesDoc} values
 * @param {{ idPrefix: string, editable: boolean, onChange: OnRuleChange }} options
 * @returns {HTMLDivElement}
 */
function optionField(opt, values, { idPrefix, editable, onChange }) {
  const id = fieldId(idPrefix, opt);
  const value = getValue(values, opt.key);
  /** @param {RuleValue} v */
  const changed = (v) => { setValue(values, opt.key, v); onChange(opt.key, v); };
  const common = { id, disabled: !editable };
  if (opt.kind === "bool") {
    const box = h("input", { ...common, type: "checkbox", checked: Boolean(value) });
    box.addEventListener("change", () => changed(box.checked));
    return h("div", { class: "option option-bool" }, box, h("label", { for: id }, fieldLabel(opt)));
  }
  if (opt.kind === "int") return numberField(opt, id, value, common, changed);
  const select = h("select", common);
  select.addEventListener("change", () => {
    const picked = opt.choices.find((c) => String(c.value) === select.value);
    changed(picked ? picked.value : select.value);
  });
  for (const c of opt.choices) select.append(h("option", { value: String(c.value), selected: String(c.value) === String(value) }, c.label));
  return h("div", { class: "option" }, h("label", { for: id }, fieldLabel(opt)), select);
}

/**
 * A whole number in the option's range. What the player types stays in the field: a value outside the range
 * (or no number at all) is not taken, and the field says beside it what is wrong and what is allowed, until
 * it is fixed; the rules keep their last good value meanwhile.
 * @param {IntOption} opt
 * @param {string} id
 * @param {RuleValue | undefined} value
 * @param {{ id: string, disabled: boolean }} common
 * @param {(v: RuleValue) => void} changed
 * @returns {HTMLDivElement}
 */
function numberField(opt, id, value, common, changed) {
  const number = h("input", { ...common, type: "number", inputmode: "numeric", min: opt.minimum, max: opt.maximum, value, step: 1 });
  const problem = h("small", { class: "option-problem", id: `${id}-problem`, hidden: true, "aria-live": "polite" });
  // A time's unit, as the declaration's name gives it (collect_delay_ms, time_limit_s), beside the number.
  const unit = /_(ms|s)$/.exec(opt.key)?.[1];
  const shown = unit ? h("span", { class: "option-number" }, number, h("span", { class: "option-unit" }, t(`rules.form.unit.${unit}`))) : number;
  const field = h("div", { class: "option" }, h("label", { for: id }, fieldLabel(opt)), shown, problem);
  const check = () => numberProblem(opt, number.value.trim(), number.validity.badInput);
  // While typing, a fixed value takes the complaint away at once; a new complaint waits for the change.
  number.addEventListener("input", () => { if (!check()) showProblem(field, ""); });
  number.addEventListener("change", () => {
    const wrong = check();
    showProblem(field, wrong);
    if (!wrong) changed(Number(number.value));
  });
  return field;
}

/**
 * What is wrong with a typed number, in words with the allowed range, or "" when it may be taken.
 * @param {{ minimum: number, maximum: number }} range
 * @param {string} typed
 * @param {boolean} unreadable the browser could not read a number at all ("abc", "1e")
 */
function numberProblem({ minimum: min, maximum: max }, typed, unreadable) {
  if (unreadable || typed === "") return t("rules.form.number_empty", { min, max });
  const n = Number(typed);
  return Number.isInteger(n) && n >= min && n <= max ? "" : t("rules.form.number_bad", { value: typed, min, max });
}

/**
 * Show (or, with "", take away) what is wrong with a number field, beside it and to screen readers.
 * @param {HTMLElement} field
 * @param {string} text
 */
function showProblem(field, text) {
  const problem = field.querySelector(".option-problem");
  const input = field.querySelector("input");
  if (!(problem instanceof HTMLElement) || !input) return;
  problem.textContent = text;
  problem.hidden = !text;
  if (text) input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
  describe(input, problem.id, Boolean(text));
}

/**
 * Add or take away one id in an element's aria-describedby.
 * @param {Element} element
 * @param {string} id
 * @param {boolean} on
 */
function describe(element, id, on) {
  const ids = new Set((element.getAttribute("aria-describedby") || "").split(" ").filter(Boolean));
  if (on) ids.add(id);
  else ids.delete(id);
  if (ids.size) element.setAttribute("aria-describedby", [...ids].join(" "));
  else element.removeAttribute("aria-describedby");
}

/**
 * The first field of a rules form holding a value that was not taken (its complaint beside it), or null.
 * @param {ParentNode} form
 * @returns {HTMLInputElement | null}
 */
export function invalidRule(form) {
  return form.querySelector("input[aria-invalid='true']:not(:disabled)");
}

/**
 * The options' own names (as the command line and saved rules spell them), for those who want them: folded
 * away under each section, never under every setting nor as a label's tooltip (a key says nothing to a player;
 * the label already is the option's own sentence).
 * @param {OptionDoc[]} options
 */
function optionKeys(options) {
  return h("details", { class: "option-keys" }, h("summary", {}, t("access.option_keys")),
    h("ul", {}, ...options.map((opt) => h("li", {}, h("code", { class: "option-key" }, opt.key), " ", opt.summary))));
}

/**
 * A <select> of the presets.
 * @param {Meta} meta
 * @param {string} selected
 * @param {{ id?: string, disabled?: boolean, onChange?: (name: string) => void }} [options]
 * @returns {HTMLSelectElement}
 */
export function presetSelect(meta, selected, { id = "preset", disabled = false, onChange = () => {} } = {}) {
  const select = h("select", { id, name: id, disabled });
  select.addEventListener("change", () => onChange(select.value));
  for (const preset of meta.presets) select.append(h("option", { value: preset.name, selected: preset.name === selected }, preset.label));
  return select;
}
