// @ts-check
// The quick reactions' pictures, drawn here as small line drawings (24 units square, in the text's colour), as
// the cards are: an emoji needs a colour-emoji font, which many computers lack (they draw an empty box).
import { h } from "../../dom.js";

const EYES = "<circle cx='9' cy='10' r='1.3' fill='currentColor' stroke='none'/><circle cx='15' cy='10' r='1.3' fill='currentColor' stroke='none'/>";
const FACE = `<circle cx='12' cy='12' r='9.5'/>${EYES}`;

/** @type {Record<string, string>} each drawing's shapes, by name */
const DRAWINGS = {
  // An open hand, raised to greet.
  wave: "<path d='M8 13V6a1.5 1.5 0 0 1 3 0v5M11 10.5V4.5a1.5 1.5 0 0 1 3 0v6M14 10.5V6a1.5 1.5 0 0 1 3 0v6.5"
    + "M17 9.5a1.5 1.5 0 0 1 3 0V15a7 7 0 0 1-7 7h-.8a6.5 6.5 0 0 1-5.2-2.6l-3.3-4.3a1.6 1.6 0 0 1 2.4-2.1L8 15.5'/>",
  // A star, for a fine slap.
  star: "<path d='M12 2.5l2.8 6 6.6.8-4.9 4.5 1.3 6.5L12 17l-5.8 3.3 1.3-6.5-4.9-4.5 6.6-.8z'/>",
  // Round eyes and an open mouth.
  wow: `${FACE}<circle cx='12' cy='16' r='2.3'/>`,
  // A lopsided smile and a drop of sweat.
  oops: `${FACE}<path d='M8 15.5c2.5 1.8 5.5 1.8 8-.5'/><path d='M19.5 2.5c-1 1.6-1.6 2.6-1.6 3.4a1.6 1.6 0 0 0 3.2 0c0-.8-.6-1.8-1.6-3.4z' fill='currentColor'/>`,
  // Clenched teeth.
  grimace: `${FACE}<rect x='7' y='14' width='10' height='4' rx='1.5'/><path d='M10.3 14v4M13.7 14v4'/>`,
  // A stopwatch.
  watch: "<circle cx='12' cy='13.5' r='8'/><path d='M12 13.5V9M9.5 2.5h5M12 2.5v3M18.5 6l1.5-1.5'/>",
  // A heart: no hard feelings.
  heart: "<path d='M12 20.5s-8-4.8-8-10.6A4.4 4.4 0 0 1 12 7.3a4.4 4.4 0 0 1 8 2.6c0 5.8-8 10.6-8 10.6z'/>",
  // A smile: the reactions' own button.
  smile: `${FACE}<path d='M7.8 14.5a5 5 0 0 0 8.4 0'/>`,
};

/**
 * One drawing as an inline picture the size of its text (hidden from readers: its words are beside it).
 * @param {string} name
 * @returns {HTMLSpanElement}
 */
export function icon(name) {
  return h("span", { class: "react-icon", "aria-hidden": "true", dataset: { icon: name },
    html: `<svg viewBox='0 0 24 24' fill='none' stroke='currentColor' stroke-width='1.8' stroke-linecap='round' stroke-linejoin='round'>${DRAWINGS[name] ?? ""}</svg>` });
}
