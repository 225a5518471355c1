// Small choices this browser remembers (announcements, sound): one localStorage entry each, as JSON.
const PREFIX = "ratscrew.pref.";

export function pref(name, fallback) {
  try {
    const kept = localStorage.getItem(PREFIX + name);
    return kept === null ? fallback : JSON.parse(kept);
  } catch {
    return fallback; // storage refused or spoiled: the default
  }
}

export function setPref(name, value) {
  try { localStorage.setItem(PREFIX + name, JSON.stringify(value)); } catch { /* storage refused: this page only */ }
}
