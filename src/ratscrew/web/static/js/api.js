// @ts-check
// JSON over HTTP; errors come back as {error} with a readable message. Bodies always go as application/json:
// the server refuses any other type, so a page on another site cannot post to it with a plain form.
// The checker takes an answer to be the type of the place it goes (`/** @type {Meta} */ const meta = await
// getJSON(...)`, the shapes of types.d.ts): JSON is not checked at run time, the server's tests hold its shapes.
// With the network gone, the browser's own words ("Failed to fetch") become the player's language's.
import { t } from "./i18n.js";

/**
 * @template [T=unknown]
 * @param {string} url
 * @param {Record<string, string>} [headers]
 * @returns {Promise<T>}
 */
export async function getJSON(url, headers = {}) {
  const response = await reach(url, { headers: { Accept: "application/json", ...headers } });
  return answer(response);
}

/**
 * @template [T=unknown]
 * @param {string} url
 * @param {unknown} data the body, as JSON (nothing: `{}`)
 * @param {string} [method]
 * @param {Record<string, string>} [headers]
 * @returns {Promise<T>}
 */
export async function sendJSON(url, data, method = "POST", headers = {}) {
  const response = await reach(url, {
    method,
    headers: { "Content-Type": "application/json", Accept: "application/json", ...headers },
    body: JSON.stringify(data ?? {}),
  });
  return answer(response);
}

/**
 * A request sent; a network that cannot carry it is an OfflineError (an abort stays what it is).
 * @param {string} url
 * @param {RequestInit} init
 */
async function reach(url, init) {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new OfflineError();
  }
}

/** No answer at all: the network is away. Its message says so in the player's language. */
export class OfflineError extends Error {
  constructor() {
    super(t("app.offline"));
    this.name = "OfflineError";
  }
}

/**
 * The body of an answer, or an Error with the server's message for a refusal.
 * @template T
 * @param {Response} response
 * @returns {Promise<T>}
 */
async function answer(response) {
  const body = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new RequestError(body.error || response.statusText, response.status, body);
  return body;
}

/**
 * A refused request: the server's message and its HTTP status, so a page can say it in the player's language;
 * `field` and `code` when the server named the field at fault and the rule it broke (the account routes).
 */
export class RequestError extends Error {
  /**
   * @param {string} message
   * @param {number} status
   * @param {{ field?: unknown, code?: unknown }} [body]
   */
  constructor(message, status, body = {}) {
    super(message);
    this.name = "RequestError";
    this.status = status;
    /** @type {string | null} */
    this.field = typeof body.field === "string" ? body.field : null;
    /** @type {string | null} */
    this.code = typeof body.code === "string" ? body.code : null;
  }
}

/**
 * What went wrong, in the error's own words (a failed request's are the server's); a thrown non-Error as
 * itself.
 * @param {unknown} error
 * @returns {string}
 */
export function errorText(error) {
  return error instanceof Error ? error.message : String(error);
}
