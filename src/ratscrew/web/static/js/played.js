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

/**
 * Forgets games the server no longer knows (this browser remembers a game once it is over and saved, so an
 * id the server answers unknown is gone from it): asking for them again would only spend the lookups the
 * server allows an address for unknown ids.
 * @param {string[]} ids
 */
export function forgetGames(ids) {
  if (!ids.length) return;
  try {
    const gone = new Set(ids);
    localStorage.setItem(STORE_KEY, JSON.stringify(playedGames().filter((id) => !gone.has(id))));
  } catch {
    // storage disabled: nothing was kept either
  }
}
