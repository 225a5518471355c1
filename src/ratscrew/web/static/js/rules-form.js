// The house rules as a form, one fieldset per section, in the words of /api/meta. The setup page and a
// room's host edit it; everyone else in a room sees the same form read-only.
import { h } from "./dom.js";
import { t } from "./i18n.js";

export function presetValues(meta, name) {
  const preset = meta.presets.find((p) => p.name === name) || meta.presets[0];
  return structuredClone(preset.rules);
}

export function getValue(values, key) {
  const [section, name] = key.split(".");
  return values[section]?.[name];
}

export function setValue(values, key, value) {
  const [section, name] = key.split(".");
  values[section] = values[section] || {};
  values[section][name] = value;
}

// `values` is a full rules mapping ({preset, slaps: {...}, ...}), changed in place.
// `onChange(key, value)` after the value in `values` was changed; `editable: false` shows the values only.
export function rulesForm(meta, values, { idPrefix = "opt", editable = true, onChange = () => {} } = {}) {
  const sections = [...new Set(meta.options.map((o) => o.section))];
  const dependents = [];
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

// An option that only applies while another key has some values (a lockout's length, a ten around a gap) is
// greyed out otherwise; one the rules refuse on its own goes back to its off value (meta.options[].needs).
function settleNeeds(dependents, values, onChange) {
  for (const { opt, field, editable } of dependents) {
    const met = opt.needs.values.some((v) => String(v) === String(getValue(values, opt.needs.key)));
    field.classList.toggle("option-inactive", !met);
    for (const input of field.querySelectorAll("input, select")) input.disabled = !editable || !met;
    if (!met && opt.needs.off !== null && String(getValue(values, opt.key)) !== String(opt.needs.off)) {
      setValue(values, opt.key, opt.needs.off);
      showValue(field, opt.needs.off);
      onChange(opt.key, opt.needs.off);
    }
  }
}

function showValue(field, value) {
  const input = field.querySelector("input, select");
  if (input?.type === "checkbox") input.checked = Boolean(value);
  else if (input) input.value = String(value);
}

function optionField(opt, values, { idPrefix, editable, onChange }) {
  const id = `${idPrefix}-${opt.key.replace(".", "-")}`;
  const value = getValue(values, opt.key);
  const changed = (v) => { setValue(values, opt.key, v); onChange(opt.key, v); };
  const common = { id, disabled: !editable };
  let input;
  if (opt.kind === "bool") {
    input = h("input", { ...common, type: "checkbox", checked: Boolean(value), onchange: (e) => changed(e.target.checked) });
    return h("div", { class: "option option-bool" }, input, h("label", { for: id, title: opt.key }, opt.summary));
  }
  if (opt.kind === "choice") {
    input = h("select", { ...common, onchange: (e) => {
      const picked = opt.choices.find((c) => String(c.value) === e.target.value);
      changed(picked ? picked.value : e.target.value);
    } });
    for (const c of opt.choices) input.append(h("option", { value: String(c.value), selected: String(c.value) === String(value) }, c.label));
  } else {
    input = h("input", { ...common, type: "number", min: opt.minimum, max: opt.maximum, value, step: 1,
      onchange: (e) => {
        const n = Math.max(opt.minimum, Math.min(opt.maximum, Math.round(Number(e.target.value) || 0)));
        e.target.value = n;
        changed(n);
      } });
  }
  return h("div", { class: "option" }, h("label", { for: id, title: opt.key }, opt.summary), input);
}

// The options' own names (as the command line and saved rules spell them), for those who want them: folded
// away under each section, and as a tooltip on each label, instead of under every setting.
function optionKeys(options) {
  return h("details", { class: "option-keys" }, h("summary", {}, t("access.option_keys")),
    h("ul", {}, ...options.map((opt) => h("li", {}, h("code", { class: "option-key" }, opt.key), " ", opt.summary))));
}

export function presetSelect(meta, selected, { id = "preset", disabled = false, onChange = () => {} } = {}) {
  const select = h("select", { id, name: id, disabled, onchange: (e) => onChange(e.target.value) });
  for (const preset of meta.presets) select.append(h("option", { value: preset.name, selected: preset.name === selected }, preset.label));
  return select;
}
