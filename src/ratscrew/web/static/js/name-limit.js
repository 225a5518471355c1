// @ts-check
// A name field says its limit when a name reaches it. The field's maxlength (the server's own limit, names.py)
// makes the browser refuse the next letter and cut a pasted name without a word; this line under the field says
// so instead, tied to the field (aria-describedby) and read out by screen readers (a polite live region, always
// in the page and empty until there is something to say).
import { h } from "./dom.js";
import { t } from "./i18n.js";

/**
 * The line that tells `input`'s limit, to put beside it (it takes a line of its own in a wrapping flex row).
 * @param {HTMLInputElement} input a text field with its maxlength and an id
 * @returns {HTMLParagraphElement}
 */
export function limitNote(input) {
  const max = input.maxLength;
  const note = h("p", { class: "hint limit-note", id: `${input.id}-limit`, "aria-live": "polite" });
  const described = input.getAttribute("aria-describedby");
  input.setAttribute("aria-describedby", described ? `${described} ${note.id}` : note.id);
  let cut = false; // the text being typed or pasted does not all fit
  const say = () => {
    const text = cut ? t("app.name_cut", { n: max }) : input.value.length >= max ? t("app.name_full", { n: max }) : "";
    if (note.textContent !== text) note.textContent = text;
  };
  input.addEventListener("beforeinput", (event) => {
    const added = event.data ?? event.dataTransfer?.getData("text/plain") ?? "";
    const replaced = (input.selectionEnd ?? 0) - (input.selectionStart ?? 0);
    cut = added.length > 0 && input.value.length - replaced + added.length > max;
    // At the limit the browser changes nothing, so no input event follows: say it now.
    if (cut) say();
  });
  input.addEventListener("input", () => {
    say();
    cut = false;
  });
  say();
  return note;
}
