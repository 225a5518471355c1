// @ts-check
// The games this browser played, newest first, kept in localStorage so the history page can ask the server for
// exactly these (and not everyone's games on a shared server).
const STORE_KEY = "ratscrew.games";
export const KEEP = 100; // the server answers at most 100 ids at once

/** @returns {string[]} */
export function playedGames() {
  try {
    const ids = JSON.parse(localStorage.getItem(STORE_KEY) || "[]");
    // Only ids the server takes (web/history.py GAME_ID): one odd entry must not cost the whole list.
    return Array.isArray(ids) ? ids.filter((id) => typeof id === "string" && /^[A-Za-z0-9]{1,12}(?:-[0-9]{1,6})?$/.test(id)) : [];
  } catch {
    return []; // a damaged entry is forgotten rather than breaking the page
  }
}

/** @param {unknown} id a game's id; anything else is not kept */
export function rememberGame(id) {
  if (typeof id !== "string" || !id) return;
  try {
    const ids = [id, ...playedGames().filter((other) => other !== id)].slice(0, KEEP);
    localStorage.setItem(STORE_KEY, JSON.stringify(ids));
  } catch {
    // storage full or disabled: the game plays on, it just will not be listed
  }
}
