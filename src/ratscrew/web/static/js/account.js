// @ts-check
// Who is signed in on this browser, as the server says (GET /api/account), and the one way a page sends a
// change for that account: with the session's CSRF token in its X-CSRF-Token header (web/session.py). The
// session itself is an HttpOnly cookie no script reads. The header's account link follows the state.
import { getJSON, sendJSON } from "./api.js";
import { t } from "./i18n.js";
/** @import { AccountAnswer } from "./types.js" */

/** @type {AccountAnswer} */
let state = { account: null, csrf: null };
/** @type {Promise<AccountAnswer> | null} */
let loading = null;

/** @returns {AccountAnswer} what the server last said (nobody, until it has answered) */
export function accountState() {
  return state;
}

/**
 * Ask the server who is signed in (once; again with `fresh`).
 * @param {boolean} [fresh]
 * @returns {Promise<AccountAnswer>}
 */
export function loadAccount(fresh = false) {
  if (!loading || fresh) {
    /** @type {Promise<AccountAnswer>} */
    const asked = getJSON("/api/account");
    loading = asked.then(settle, () => state);
  }
  return loading;
}

/**
 * Send an account route its body (with the CSRF token when signed in) and keep the state it answers.
 * @param {string} route after /api/account/
 * @param {Record<string, string>} body
 * @returns {Promise<AccountAnswer>}
 */
export async function accountRequest(route, body) {
  /** @type {Record<string, string>} */
  const headers = state.csrf ? { "X-CSRF-Token": state.csrf } : {};
  /** @type {AccountAnswer} */
  const answer = await sendJSON(`/api/account/${route}`, body, "POST", headers);
  return settle(answer);
}

/**
 * @param {AccountAnswer} answer
 * @returns {AccountAnswer}
 */
function settle(answer) {
  state = answer;
  loading = Promise.resolve(answer);
  showAccountLink();
  return answer;
}

/** The header's link: "Sign in", or the signed-in name leading to the account page (a figure on a tablet). */
export function showAccountLink() {
  const link = document.getElementById("account-link");
  if (!link) return;
  const name = state.account?.name;
  const words = name ?? t("nav.sign_in");
  const shown = document.getElementById("account-text");
  if (shown) shown.textContent = words;
  link.setAttribute("href", name ? "#/account" : "#/sign-in");
  // A long name is cut on a phone, and a tablet shows only a figure: the whole words on hover, and read out.
  link.title = words;
  link.setAttribute("aria-label", name ? t("account.link_label", { name }) : words);
}
