// @ts-check
// Which options apply under the rules chosen so far (meta.options[].needs, from rules/options.py): a form
// greys out an option whose other key does not hold one of its values, and sets it to its off value when
// the rules would refuse it on its own. The setup page's rules form and the score keeper's both ask here.
/** @import { OptionDoc, RuleValue } from "./types.js" */

/**
 * Whether `opt` applies, and the value it must then hold when it does not (null: any value, unused).
 * @param {OptionDoc} opt
 * @param {(key: string) => RuleValue | undefined} valueOf the rules chosen so far, by "section.name"
 * @returns {{ met: boolean, off: RuleValue | null }}
 */
export function dependency(opt, valueOf) {
  const needs = opt.needs;
  if (!needs) return { met: true, off: null };
  const met = needs.values.some((v) => String(v) === String(valueOf(needs.key)));
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
