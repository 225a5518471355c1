// @ts-check
// Which options apply under the rules chosen so far (meta.options[].needs, from rules/options.py): a form
// greys out an option whose other key does not hold one of its values, and sets it to its off value when
// the rules would refuse it on its own. The setup page's rules form and the score keeper's both ask here.
import { has, lang, t } from "./i18n.js";
/** @import { OptionDoc, RuleValue } from "./types.js" */

/**
 * Whether `opt` applies, and the value it must then hold when it does not (null: any value, unused). It applies
 * while one of the keys it needs holds one of its values, and (given `options`) that key applies in turn: the
 * table scope of one penalty per card needs one penalty per card, which needs a penalty that costs something.
 * @param {OptionDoc} opt
 * @param {(key: string) => RuleValue | undefined} valueOf the rules chosen so far, by "section.name"
 * @param {OptionDoc[]} [options] every option (meta.options), to follow what the needed key needs in turn
 * @returns {{ met: boolean, off: RuleValue | null }}
 */
export function dependency(opt, valueOf, options = []) {
  const needs = opt.needs;
  if (!needs) return { met: true, off: null };
  const met = needs.keys.some((key) => {
    if (!needs.values.some((v) => String(v) === String(valueOf(key)))) return false;
    const other = options.find((o) => o.key === key);
    return !other || dependency(other, valueOf, options).met;
  });
  return { met, off: met ? null : needs.off };
}

/**
 * The value an option must change to under the rules chosen so far, or undefined when it may stay.
 * @param {OptionDoc} opt
 * @param {(key: string) => RuleValue | undefined} valueOf
 * @returns {RuleValue | undefined}
 */
export function forcedValue(opt, valueOf) {
  const { off } = dependency(opt, valueOf);
  return off !== null && String(valueOf(opt.key)) !== String(off) ? off : undefined;
}

/**
 * Why an option does nothing under the rules chosen so far, in words: the setting it depends on and the
 * values that would make it count ("No effect unless “Wrong slap” is burn cards or give one to each.").
 * @param {OptionDoc} opt
 * @param {OptionDoc[]} options every option (meta.options), to name the one it depends on
 * @param {(other: OptionDoc) => string} [nameOf] the other option's name as the page labels its field (the
 *   setup form shows `summary`; the score keeper its short `scores.opt.*` label, the default)
 * @returns {string} empty for an option that depends on nothing
 */
export function needsReason(opt, options, nameOf = optionName) {
  const needs = opt.needs;
  const others = needs ? needs.keys.map((key) => options.find((o) => o.key === key)).filter((o) => o !== undefined) : [];
  if (!needs || !others.length) return "";
  const values = either(needs.values.map((v) => valueWords(others[0], v)));
  if (others.length === 1) return t("rules.needs", { setting: nameOf(others[0]), values });
  const [first, ...rest] = others.map(nameOf);
  return t("rules.needs_either", { first, second: rest.join(" / "), values });
}

/**
 * Words joined by "or" as the page's language writes a list of choices.
 * @param {string[]} words
 */
function either(words) {
  try {
    return new Intl.ListFormat(lang(), { type: "disjunction" }).format(words);
  } catch {
    return words.join(", "); // an old browser: commas will do
  }
}

/**
 * An option's short name (the score keeper's label), or its summary where it has none.
 * @param {OptionDoc} opt
 */
function optionName(opt) {
  const key = `scores.opt.${opt.key}`;
  return has(key) ? t(key) : opt.summary;
}

/**
 * @param {OptionDoc} opt
 * @param {RuleValue} value
 */
function valueWords(opt, value) {
  if (opt.kind === "bool") return t(value ? "scores.value.yes" : "scores.value.no");
  if (opt.kind === "choice") return opt.choices.find((c) => String(c.value) === String(value))?.label ?? String(value);
  return String(value);
}
