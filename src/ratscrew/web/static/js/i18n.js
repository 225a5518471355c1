// Message catalogs from the server; t() fills {name} placeholders. The choice is kept in this browser. Only the
// chosen language's catalog is fetched: every language has every key (a test checks), so there is no English
// to fall back on here.
const STORE_KEY = "ratscrew.lang";
const SUPPORTED = ["en", "fr", "de"];
let messages = {};
let current = "en";

export function preferredLanguage() {
  const saved = localStorage.getItem(STORE_KEY);
  if (SUPPORTED.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = String(tag).toLowerCase().split("-")[0];
    if (SUPPORTED.includes(code)) return code;
  }
  return "en";
}

export async function loadLanguage(lang) {
  current = SUPPORTED.includes(lang) ? lang : "en";
  messages = await (await fetch(`/api/i18n/${current}`)).json();
  localStorage.setItem(STORE_KEY, current);
  document.documentElement.lang = current;
  return current;
}

export function lang() {
  return current;
}

export function t(key, vars = {}) {
  const template = messages[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

// Whether this language has its own words for a key.
export function has(key) {
  return key in messages;
}

// Fill every [data-i18n] element under root (text), and [data-i18n-attr="attr:key;attr:key"].
export function translate(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      if (attr && key) el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}

// A message that depends on a count: the catalog holds one text per plural category of the language
// (`key.one`, `key.other`, as Intl.PluralRules names them); a missing category falls back to `key.other`.
const pluralRules = new Map();
export function tn(key, n, vars = {}) {
  if (!pluralRules.has(current)) pluralRules.set(current, new Intl.PluralRules(current));
  const category = pluralRules.get(current).select(Number(n));
  const exact = `${key}.${category}`;
  return t(has(exact) ? exact : `${key}.other`, { n, ...vars });
}
