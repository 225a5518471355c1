// @ts-check
// Small choices this browser remembers (announcements, sound): one localStorage entry each, as JSON.
const PREFIX = "ratscrew.pref.";

/**
 * The kept value, or `fallback` when there is none or storage refuses. What was kept may be anything JSON
 * holds (another version of the page wrote it), so the caller makes it the type it needs.
 * @param {string} name
 * @param {unknown} fallback
 * @returns {unknown}
 */
export function pref(name, fallback) {
  try {
    const kept = localStorage.getItem(PREFIX + name);
    return kept === null ? fallback : JSON.parse(kept);
  } catch {
    return fallback; // storage refused or spoiled: the default
  }
}

/**
 * @param {string} name
 * @param {unknown} value anything JSON can write
 */
export function setPref(name, value) {
  try { localStorage.setItem(PREFIX + name, JSON.stringify(value)); } catch { /* storage refused: this page only */ }
}
