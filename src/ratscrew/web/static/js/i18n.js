// @ts-check
// Message catalogs from the server; t() fills {name} placeholders. The choice is kept in this browser. Only the
// chosen language's catalog is fetched: every language has every key (a test checks), so there is no English
// to fall back on here.
const STORE_KEY = "ratscrew.lang";
const SUPPORTED = ["en", "fr", "de"];
/** @type {Record<string, string>} */
let messages = {};
let current = "en";
// The parts of the catalog a page fetched as it opened (the Learn pages' words): a language chosen later
// fetches them again with the rest.
/** @type {Set<string>} */
const parts = new Set();

/**
 * @param {string} url
 * @returns {Promise<Record<string, string>>}
 */
async function fetchWords(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.json();
}

/**
 * The values a message's {name} placeholders are filled with.
 * @typedef {Record<string, string | number>} Vars
 */

/** @returns {string} the language kept in this browser, else the browser's own, else English */
export function preferredLanguage() {
  const saved = localStorage.getItem(STORE_KEY);
  if (saved !== null && SUPPORTED.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = String(tag).toLowerCase().split("-")[0];
    if (SUPPORTED.includes(code)) return code;
  }
  return "en";
}

/**
 * Fetch a language's catalog and make it the page's language.
 * @param {string} lang
 * @returns {Promise<string>} the language chosen (English for one not offered)
 */
export async function loadLanguage(lang) {
  current = SUPPORTED.includes(lang) ? lang : "en";
  const [main, ...more] = await Promise.all([`/api/i18n/${current}`, ...[...parts].map((part) => `/api/i18n/${current}/${part}`)].map(fetchWords));
  messages = Object.assign(main, ...more);
  localStorage.setItem(STORE_KEY, current);
  document.documentElement.lang = current;
  return current;
}

/**
 * Fetch a part of the catalog some pages need (once), before such a page shows.
 * @param {string} part
 */
export async function loadPart(part) {
  if (parts.has(part)) return;
  Object.assign(messages, await fetchWords(`/api/i18n/${current}/${part}`));
  parts.add(part);
}

/** @returns {string} */
export function lang() {
  return current;
}

/**
 * A message in the page's language; the key itself when the catalog has none.
 * @param {string} key
 * @param {Vars} [vars]
 * @returns {string}
 */
export function t(key, vars = {}) {
  const template = messages[key] ?? key;
  const elided = current === "fr" ? template.replace(ELIDES, (whole, word, name) => {
    const value = vars[name];
    return value !== undefined && VOWEL.test(String(value)) ? `${word.slice(0, -1)}'{${name}}` : whole;
  }) : template;
  return elided.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

// French elides "de", "que", "le"... before a vowel: "Au tour d'Ordinateur 2", never "de Ordinateur 2". The
// catalogs write "de {name}"; the name is known only here.
const ELIDES = /(?<![\p{L}'])([DdQqLlJj]e|[Qq]ue) \{(\w+)\}/gu;
const VOWEL = /^[aeiouyàâäéèêëîïôöûüAEIOUYÀÂÄÉÈÊËÎÏÔÖÛÜ]/;

/**
 * Whether this language has its own words for a key.
 * @param {string} key
 * @returns {boolean}
 */
export function has(key) {
  return key in messages;
}

/**
 * Fill every [data-i18n] element under root (text), and [data-i18n-attr="attr:key;attr:key"].
 * @param {ParentNode} [root]
 */
export function translate(root = document) {
  for (const el of marked(root, "[data-i18n]")) el.textContent = t(el.dataset.i18n ?? "");
  for (const el of marked(root, "[data-i18n-attr]")) {
    for (const pair of (el.dataset.i18nAttr ?? "").split(";")) {
      const [attr, key] = pair.split(":");
      if (attr && key) el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}

/**
 * The elements a selector finds, as elements with a dataset (the page marks HTML and SVG elements only).
 * @param {ParentNode} root
 * @param {string} selector
 * @returns {NodeListOf<HTMLElement | SVGElement>}
 */
function marked(root, selector) {
  return root.querySelectorAll(selector);
}

// A message that depends on a count: the catalog holds one text per plural category of the language
// (`key.one`, `key.other`, as Intl.PluralRules names them); a missing category falls back to `key.other`.
/** @type {Map<string, Intl.PluralRules>} */
const pluralRules = new Map();
/**
 * @param {string} key
 * @param {number} n
 * @param {Vars} [vars]
 * @returns {string}
 */
export function tn(key, n, vars = {}) {
  let rules = pluralRules.get(current);
  if (!rules) {
    rules = new Intl.PluralRules(current);
    pluralRules.set(current, rules);
  }
  const category = rules.select(Number(n));
  const exact = `${key}.${category}`;
  return t(has(exact) ? exact : `${key}.other`, { n, ...vars });
}
