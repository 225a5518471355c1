// @ts-check
// The page shell: loads the language and the rules metadata, then shows one page per address (#/...).
import { loadLanguage, preferredLanguage, t, translate, lang } from "./i18n.js";
import { errorText, getJSON } from "./api.js";
import { clear, h, shellElement } from "./dom.js";
/** @import { Cleanup, Meta, PageModule } from "./types.js" */

/**
 * A route: the addresses it answers, the navigation link it marks, and its page's module.
 * @typedef {{ pattern: RegExp, nav: string | null, load: () => Promise<PageModule> }} Route
 */

// Each page module exports render(view, context) and may return a cleanup function.
/** @type {Route[]} */
const PAGES = [
  { pattern: /^#?\/?$/, nav: "play", load: () => import("./pages/setup.js") },
  { pattern: /^#\/game\/([\w-]+)$/, nav: "play", load: () => import("./pages/game.js") },
  { pattern: /^#\/room\/([\w-]+)$/, nav: "play", load: () => import("./pages/room.js") },
  { pattern: /^#\/learn(?:\/([\w-]+))?$/, nav: "learn", load: () => import("./pages/learn.js") },
  { pattern: /^#\/drills(?:\/([\w-]+))?$/, nav: "drills", load: () => import("./pages/drills.js") },
  { pattern: /^#\/scores(?:\/([\w-]+))?$/, nav: "scores", load: () => import("./pages/scores.js") },
  { pattern: /^#\/history$/, nav: "history", load: () => import("./pages/history.js") },
  { pattern: /^#\/replay\/([\w-]+)$/, nav: "history", load: () => import("./pages/replay.js") },
];

/** @type {{ meta: Meta | null, lang: string, navigate: (hash: string) => void, refresh: () => void }} */
const context = { meta: null, lang: "en", navigate, refresh: () => show() };
/** @type {Cleanup} */
let cleanup = null;

/** @param {string} hash */
export function navigate(hash) {
  if (location.hash === hash) show();
  else location.hash = hash;
}

/** @returns {Promise<Meta>} */
async function loadMeta() {
  /** @type {Meta} */
  const meta = await getJSON(`/api/meta?lang=${lang()}`);
  context.meta = meta;
  context.lang = lang();
  return meta;
}

/** @param {Meta} meta */
function fillLanguages(meta) {
  const select = shellElement("lang-select");
  clear(select);
  for (const { code, name } of meta.languages) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    option.selected = code === context.lang;
    select.append(option);
  }
  select.setAttribute("aria-label", t("app.language"));
}

// An address no page answers: say so, and offer the way back to Play.
/** @type {Route} */
const NOT_FOUND = {
  nav: null,
  pattern: /^/,
  load: async () => ({
    /** @param {HTMLElement} view */
    render(view) {
      view.append(h("section", { class: "panel not-found", id: "not-found" },
        h("h1", {}, t("app.not_found.title")),
        h("p", {}, t("app.not_found.text", { address: location.hash })),
        h("a", { class: "button", href: "#/", id: "not-found-play" }, t("app.not_found.play"))));
    },
  }),
};

// Addresses that are not routes (#view, #something) are places on the current page: the router leaves them alone.
/** @type {string | null} */
let shownHash = null;
/** @param {string} hash */
function isRoute(hash) {
  return hash === "" || hash === "#" || hash.startsWith("#/");
}

async function show() {
  const view = shellElement("view");
  const meta = context.meta;
  if (!meta) return; // not before the metadata came: start() shows the first page once it has
  let hash = location.hash || "#/";
  if (!isRoute(location.hash)) {
    const anchor = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (shownHash !== null) {
      // An in-page link was followed: the address goes back to the page shown, which stays as it is.
      history.replaceState(history.state, "", shownHash);
      anchor?.focus();
      return;
    }
    hash = "#/"; // opened at such an address: the first page
  }
  shownHash = hash;
  const page = PAGES.find((p) => p.pattern.test(hash)) || NOT_FOUND;
  const params = hash.match(page.pattern)?.slice(1) ?? [];
  for (const link of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-nav]"))) {
    if (link.dataset.nav === page.nav) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  if (typeof cleanup === "function") cleanup();
  cleanup = null;
  clear(view);
  if (page.nav) view.dataset.page = page.nav;
  else view.dataset.page = "not-found";
  try {
    const module = await page.load();
    cleanup = await module.render(view, { ...context, meta, params });
  } catch (error) {
    console.error(error);
    view.append(Object.assign(document.createElement("p"), { className: "error-box", textContent: `${t("app.error")} ${errorText(error)}` }));
  }
  translate(view);
}

async function start() {
  await loadLanguage(preferredLanguage());
  const meta = await loadMeta();
  translate(document);
  document.title = t("app.title");
  fillLanguages(meta);
  const languages = /** @type {HTMLSelectElement} */ (shellElement("lang-select"));
  languages.addEventListener("change", async () => {
    await loadLanguage(languages.value);
    const chosen = await loadMeta();
    translate(document);
    document.title = t("app.title");
    fillLanguages(chosen);
    await show();
    document.body.dataset.lang = context.lang;
  });
  // "Skip to content" moves the focus to the page, and leaves the address (and so the page shown) as it is.
  document.querySelector(".skip-link")?.addEventListener("click", (event) => {
    event.preventDefault();
    shellElement("view").focus();
  });
  window.addEventListener("hashchange", show);
  await show();
  document.body.dataset.lang = context.lang;
  document.body.dataset.ready = "true";
}

start();
