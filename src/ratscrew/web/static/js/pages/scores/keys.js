// @ts-check
// The owner keys of the score-keeper matches this browser may change, kept in localStorage. The server gives
// a match's key once, when the match is created; a share link (#/scores/<id>-<key>) carries it to the other
// phones at the table. Every request sends the keys held, and the server lists and lets change only those.
const STORE_KEY = "ratscrew.scores.keys.v1";
const MAX_SENT = 300; // the server reads at most this many keys per request
const ID = "[0-9a-f]{1,32}";
const KEY = "[0-9a-f]{32}";
const IS_ID = new RegExp(`^${ID}$`);
const IS_KEY = new RegExp(`^${KEY}$`);
const SHARED = new RegExp(`^(${ID})-(${KEY})$`);

/**
 * The [id, key] pairs kept, oldest first; anything else in the entry is dropped.
 * @returns {[string, string][]}
 */
function load() {
  try {
    const pairs = JSON.parse(localStorage.getItem(STORE_KEY) || "[]");
    return Array.isArray(pairs) ? pairs.filter((p) => Array.isArray(p) && IS_ID.test(p[0]) && IS_KEY.test(p[1])) : [];
  } catch {
    return [];
  }
}

/** @param {[string, string][]} pairs */
function save(pairs) {
  localStorage.setItem(STORE_KEY, JSON.stringify(pairs));
}

/**
 * @param {string} id
 * @param {string} key
 */
export function rememberKey(id, key) {
  if (!IS_ID.test(id) || !IS_KEY.test(key)) return;
  save([...load().filter(([known]) => known !== id), [id, key]]); // newest last
}

/** @param {string} id */
export function forgetKey(id) {
  save(load().filter(([known]) => known !== id));
}

/**
 * @param {string} id
 * @returns {string | null}
 */
function keyOf(id) {
  return load().find(([known]) => known === id)?.[1] ?? null;
}

/**
 * The header every score-keeper request carries: the newest keys first in line to be sent.
 * @returns {Record<string, string>}
 */
export function keyHeaders() {
  const keys = load().map(([, key]) => key).slice(-MAX_SENT);
  return keys.length ? { "X-Match-Keys": keys.join(",") } : {};
}

/**
 * The address that gives another phone this match's key, or null when this browser has none.
 * @param {string} id
 * @returns {string | null}
 */
export function shareLink(id) {
  const key = keyOf(id);
  return key ? `${location.origin}${location.pathname}#/scores/${id}-${key}` : null;
}

/**
 * "#/scores/<id>-<key>" from a share link, or "#/scores/<id>" (nothing: the list).
 * @param {string | undefined} param
 * @returns {{ id: string, key: string } | { id: string | undefined, key: null }}
 */
export function splitParam(param) {
  const found = SHARED.exec(param || "");
  return found ? { id: found[1], key: found[2] } : { id: param, key: null };
}
