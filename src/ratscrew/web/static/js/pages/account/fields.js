// @ts-check
// A form's fields, each with its label, its hint and its mistake said beside it: the mistake is part of the
// field's description (aria-describedby), the field is marked invalid, and the first field at fault takes the
// focus, so a screen reader reads the label and the mistake together.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { RequestError, errorText } from "../../api.js";

/**
 * @typedef {{ wrap: HTMLElement, input: HTMLInputElement, say: (text: string) => void, clear: () => void }} Field
 */

/**
 * @param {string} id
 * @param {string} label the label's text
 * @param {Record<string, string | number | boolean>} attrs the input's own (type, autocomplete...)
 * @param {string} [hint]
 * @returns {Field}
 */
export function field(id, label, attrs, hint) {
  const hintEl = hint ? h("small", { id: `${id}-hint`, class: "hint account-hint" }, hint) : null;
  const error = h("p", { id: `${id}-error`, class: "field-error", hidden: true });
  const input = h("input", { id, name: id, ...attrs });
  const describe = () => {
    const ids = [hintEl && hintEl.id, !error.hidden && error.id].filter(Boolean).join(" ");
    if (ids) input.setAttribute("aria-describedby", ids);
    else input.removeAttribute("aria-describedby");
  };
  describe();
  const wrap = h("div", { class: "account-field" }, h("label", { for: id }, label), input, hintEl, error);
  return {
    wrap,
    input,
    say(text) {
      error.textContent = text;
      error.hidden = false;
      input.setAttribute("aria-invalid", "true");
      describe();
    },
    clear() {
      error.textContent = "";
      error.hidden = true;
      input.removeAttribute("aria-invalid");
      describe();
    },
  };
}

/** The limits the server's rules use, for the words that name them. */
export const LIMITS = { min_name: 3, max_name: 20, min_password: 8, max_password: 128 };

/**
 * A refusal in the player's language: by its code where the server gave one, else its own words.
 * @param {unknown} error
 * @returns {string}
 */
export function refusalText(error) {
  if (error instanceof RequestError && error.code) {
    const key = `account.error.${error.code}`;
    const said = t(key, LIMITS);
    if (said !== key) return said;
  }
  return errorText(error);
}

/**
 * Say a refusal beside the field it is about (or in the form's own box), and move the focus there.
 * @param {unknown} error
 * @param {Record<string, Field>} fields by the server's field names
 * @param {HTMLElement} box the form's error box, for a refusal about no field
 */
export function showRefusal(error, fields, box) {
  const text = refusalText(error);
  const about = error instanceof RequestError && error.field ? fields[error.field] : undefined;
  if (about) {
    about.say(text);
    about.input.focus();
    return;
  }
  box.textContent = text;
  box.hidden = false;
  box.focus();
}

/**
 * Clear every mistake shown.
 * @param {Record<string, Field>} fields
 * @param {HTMLElement} box
 */
export function clearAll(fields, box) {
  for (const one of Object.values(fields)) one.clear();
  box.textContent = "";
  box.hidden = true;
}

/**
 * The form's box for a refusal about no field in particular.
 * @param {string} id
 */
export function formError(id) {
  return h("p", { id, class: "error-box", hidden: true, tabindex: "-1", role: "alert" });
}

/**
 * The name field (sign up and sign in).
 * @param {string} id
 * @param {boolean} withRules whether to say the rules below it (sign up)
 */
export function nameField(id, withRules) {
  return field(id, t("account.name"), {
    type: "text", autocomplete: "username", autocapitalize: "none", spellcheck: "false", maxlength: LIMITS.max_name,
    required: true,
  }, withRules ? t("account.name_rules", LIMITS) : undefined);
}

/**
 * A password field.
 * @param {string} id
 * @param {string} label
 * @param {"current-password" | "new-password"} autocomplete
 * @param {string} [hint]
 */
export function passwordField(id, label, autocomplete, hint) {
  return field(id, label, { type: "password", autocomplete, maxlength: LIMITS.max_password, required: true }, hint);
}

/**
 * What is wrong with a new name, by the server's own rules (it checks them again, and the ones only it can:
 * a name taken, a computer's name), as the code of the words that say it; null when nothing is.
 * @param {string} name trimmed
 * @returns {string | null}
 */
function nameMistake(name) {
  if (!name) return "name_missing";
  if (name.length < LIMITS.min_name || name.length > LIMITS.max_name) return "name_length";
  if (/[^A-Za-z0-9._-]/.test(name)) return "name_chars";
  return null;
}

/**
 * What is wrong with a new password (its length counted in characters, as the server counts them).
 * @param {string} password
 * @returns {string | null}
 */
function passwordMistake(password) {
  if (!password) return "password_missing";
  const length = [...password.normalize("NFC")].length;
  return length < LIMITS.min_password || length > LIMITS.max_password ? "password_length" : null;
}

/**
 * Check a new account's fields (or a new password's, typed twice: there is no way back to an account whose
 * password was mistyped) before sending them, and say every mistake at once, each beside its field, the
 * focus on the first in the form's order: one try shows all there is to mend.
 * @param {{ name?: Field, password: Field, repeat: Field }} fields
 * @returns {boolean} whether nothing was wrong
 */
export function checkNew(fields) {
  /** @type {[Field | undefined, string | null][]} */
  const found = [
    [fields.name, fields.name ? nameMistake(fields.name.input.value.trim()) : null],
    [fields.password, passwordMistake(fields.password.input.value)],
    [fields.repeat, fields.password.input.value === fields.repeat.input.value ? null : "repeat_differs"],
  ];
  let first = null;
  for (const [one, code] of found) {
    if (!one || !code) continue;
    one.say(t(`account.error.${code}`, LIMITS));
    first ??= one;
  }
  first?.input.focus();
  return first === null;
}
