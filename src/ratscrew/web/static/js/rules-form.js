// @ts-check
// The house rules as a form, one fieldset per section, in the words of /api/meta. The setup page and a
// room's host edit it; everyone else in a room sees the same form read-only.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { dependency, forcedValue } from "./needs.js";
/** @import { Meta, OptionDoc, RulesDoc, RulesSection, RuleValue } from "./types.js" */

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
  const changed = (key, value) => { settleNeeds(dependents, values, onChange); onChange(key, value); };
  const form = sections.map((section) => {
    const fields = h("div", { class: "option-grid" });
    const options = meta.options.filter((o) => o.section === section);
    for (const opt of options) {
      const field = optionField(opt, values, { idPrefix, editable, onChange: changed });
      if (opt.needs) dependents.push({ opt, field, editable });
      fields.append(field);
    }
    return h("fieldset", { class: "option-section", disabled: !editable }, h("legend", {}, t(`rules.section.${section}`)), fields,
      optionKeys(options));
  });
  settleNeeds(dependents, values, () => {});
  return form;
}

/**
 * An option that only applies while another key has some values (a lockout's length, a ten around a gap) is
 * greyed out otherwise; one the rules refuse on its own goes back to its off value (meta.options[].needs).
 * @param {Dependent[]} dependents
 * @param {RulesDoc} values
 * @param {OnRuleChange} onChange
 */
function settleNeeds(dependents, values, onChange) {
  /** @param {string} key */
  const valueOf = (key) => getValue(values, key);
  for (const { opt, field, editable } of dependents) {
    const { met } = dependency(opt, valueOf);
    field.classList.toggle("option-inactive", !met);
    for (const input of field.querySelectorAll("input, select")) {
      /** @type {HTMLInputElement | HTMLSelectElement} */ (input).disabled = !editable || !met;
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
 * One option's label and control: a checkbox, a list of choices, or a number in its range.
 * @param {OptionDoc} opt
 * @param {RulesDoc} values
 * @param {{ idPrefix: string, editable: boolean, onChange: OnRuleChange }} options
 * @returns {HTMLDivElement}
 */
function optionField(opt, values, { idPrefix, editable, onChange }) {
  const id = `${idPrefix}-${opt.key.replace(".", "-")}`;
  const value = getValue(values, opt.key);
  /** @param {RuleValue} v */
  const changed = (v) => { setValue(values, opt.key, v); onChange(opt.key, v); };
  const common = { id, disabled: !editable };
  if (opt.kind === "bool") {
    const box = h("input", { ...common, type: "checkbox", checked: Boolean(value) });
    box.addEventListener("change", () => changed(box.checked));
    return h("div", { class: "option option-bool" }, box, h("label", { for: id, title: opt.key }, opt.summary));
  }
  /** @type {HTMLInputElement | HTMLSelectElement} */
  let input;
  if (opt.kind === "choice") {
    const select = h("select", common);
    select.addEventListener("change", () => {
      const picked = opt.choices.find((c) => String(c.value) === select.value);
      changed(picked ? picked.value : select.value);
    });
    for (const c of opt.choices) select.append(h("option", { value: String(c.value), selected: String(c.value) === String(value) }, c.label));
    input = select;
  } else {
    const number = h("input", { ...common, type: "number", min: opt.minimum, max: opt.maximum, value, step: 1 });
    number.addEventListener("change", () => {
      const n = Math.max(opt.minimum, Math.min(opt.maximum, Math.round(Number(number.value) || 0)));
      number.value = String(n);
      changed(n);
    });
    input = number;
  }
  return h("div", { class: "option" }, h("label", { for: id, title: opt.key }, opt.summary), input);
}

/**
 * The options' own names (as the command line and saved rules spell them), for those who want them: folded
 * away under each section, and as a tooltip on each label, instead of under every setting.
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
