// @ts-check
// The page shell: loads the language and the rules metadata, then shows one page per address (#/...).
import { loadLanguage, loadPart, preferredLanguage, t, translate } from "./i18n.js";
import { OfflineError, errorText, getJSON } from "./api.js";
import { clear, h, shellElement } from "./dom.js";
import { loadAccount, showAccountLink } from "./account.js";
/** @import { Cleanup, Meta, PageModule } from "./types.js" */

/**
 * A route: the addresses it answers, the navigation link it marks, its page's module (under js/), and the
 * parts of the catalog its page needs besides the words every page has.
 * @typedef {{ pattern: RegExp, nav: string | null, module: string | null, parts?: string[] }} Route
 */

// Each page module exports render(view, context) and may return a cleanup function.
/** @type {Route[]} */
const PAGES = [
  { pattern: /^#?\/?$/, nav: "play", module: "pages/setup.js" },
  { pattern: /^#\/game\/([\w-]+)$/, nav: "play", module: "pages/game.js" },
  { pattern: /^#\/room\/([\w-]+)$/, nav: "play", module: "pages/room.js" },
  { pattern: /^#\/learn(?:\/([\w-]+))?$/, nav: "learn", module: "pages/learn.js", parts: ["learn"] },
  { pattern: /^#\/drills(?:\/([\w-]+))?$/, nav: "drills", module: "pages/drills.js", parts: ["learn"] },
  { pattern: /^#\/scores(?:\/([\w-]+))?$/, nav: "scores", module: "pages/scores.js" },
  { pattern: /^#\/history$/, nav: "history", module: "pages/history.js" },
  { pattern: /^#\/replay\/([\w-]+)$/, nav: "history", module: "pages/replay.js" },
  { pattern: /^#\/(sign-in|sign-up|account)$/, nav: "account", module: "pages/account.js" },
  { pattern: /^#\/players\/([\w.-]+)$/, nav: "players", module: "pages/profile.js", parts: ["learn"] }, // names drills
  { pattern: /^#\/leaderboard(?:\/(3))?$/, nav: "players", module: "pages/leaderboard.js" },
];

// Every module's static imports, as the server read them from the files (web/modules.py); none when the
// shell page came without them, and the page then loads as the imports lead it, one level at a time.
/** @type {Record<string, string[]>} */
const GRAPH = JSON.parse(document.getElementById("module-graph")?.textContent || "{}");
/** @type {Set<string>} */
const preloaded = new Set(["app.js"]);

/**
 * Ask for a module and everything it imports at once, before it is imported: the browser would otherwise
 * learn of each level of imports only once it had fetched the one above.
 * @param {string} root a module's path under js/
 */
function preloadModule(root) {
  const stack = [root];
  while (stack.length) {
    const name = /** @type {string} */ (stack.pop());
    const href = `/static/js/${name}`;
    if (preloaded.has(name) || document.querySelector(`link[rel=modulepreload][href="${href}"]`)) continue;
    preloaded.add(name);
    document.head.append(Object.assign(document.createElement("link"), { rel: "modulepreload", href }));
    stack.push(...(GRAPH[name] ?? []).toReversed()); // the first import is asked for first
  }
}

/**
 * @param {Route} route
 * @returns {Promise<PageModule>}
 */
async function loadPage(route) {
  if (!route.module) return NOT_FOUND_PAGE;
  preloadModule(route.module);
  // A part's words that could not come (no network) are said as the module's would be: offline, try again.
  const words = (route.parts ?? []).map((part) => loadPart(part).catch((error) => {
    throw error instanceof TypeError ? new OfflineError() : error;
  }));
  const [module] = await Promise.all([import(`./${route.module}`), ...words]);
  return module;
}

/**
 * The route of an address; one that is not a route (#view) shows the first page.
 * @param {string} hash
 * @returns {Route}
 */
function routeOf(hash) {
  const shown = isRoute(hash) ? hash || "#/" : "#/";
  return PAGES.find((p) => p.pattern.test(shown)) ?? NOT_FOUND;
}

/** @type {{ meta: Meta | null, lang: string, navigate: (hash: string) => void, refresh: () => void }} */
const context = { meta: null, lang: "en", navigate, refresh: () => show() };
/** @type {Cleanup} */
let cleanup = null;

/** @param {string} hash */
export function navigate(hash) {
  if (location.hash === hash) show();
  else location.hash = hash;
}

/**
 * A language's catalog and the rules' metadata in that language, fetched together.
 * @param {string} code one of the languages offered
 * @returns {Promise<Meta>}
 */
async function loadWords(code) {
  /** @type {Promise<Meta>} */
  const fetched = getJSON(`/api/meta?lang=${code}`);
  const [chosen, meta] = await Promise.all([loadLanguage(code), fetched]);
  context.meta = meta;
  context.lang = chosen;
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
const NOT_FOUND = { nav: null, pattern: /^/, module: null };
/** @type {PageModule} */
const NOT_FOUND_PAGE = {
  /** @param {HTMLElement} view */
  render(view) {
    view.append(h("section", { class: "panel not-found", id: "not-found" },
      h("h1", {}, t("app.not_found.title")),
      h("p", {}, t("app.not_found.text", { address: location.hash })),
      h("a", { class: "button", href: "#/", id: "not-found-play" }, t("app.not_found.play"))));
  },
};

// Addresses that are not routes (#view, #something) are places on the current page: the router leaves them alone.
/** @type {string | null} */
let shownHash = null;
/** @param {string} hash */
function isRoute(hash) {
  return hash === "" || hash === "#" || hash.startsWith("#/");
}

// One page shown at a time: a second call (a hashchange beside a navigate to the same address) waits for the
// first to finish, then cleans it up and shows its own. Two at once both filled the view: two tables on screen.
/** @type {Promise<void>} */
let showing = Promise.resolve();
function show() {
  showing = showing.then(showNow, showNow);
  return showing;
}

async function showNow() {
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
  const page = routeOf(hash);
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
    const module = await loadPage(page);
    cleanup = await module.render(view, { ...context, meta, params });
  } catch (error) {
    console.error(error);
    view.append(failedPage(error));
  }
  translate(view);
}

/**
 * What a page that could not be shown says instead. A module that did not come (the network is away) is
 * said in words, with a button that tries again (the same link works once the network is back).
 * @param {unknown} error
 */
function failedPage(error) {
  const offline = error instanceof OfflineError || /dynamically imported module|importing a module script/i.test(errorText(error));
  if (!offline) {
    return h("p", { class: "error-box" }, `${t("app.error")} ${errorText(error)}`);
  }
  const retry = h("button", { type: "button", id: "retry-page" }, t("app.retry"));
  retry.addEventListener("click", () => { show(); });
  return h("section", { class: "panel not-found", id: "offline-page", role: "alert" },
    h("h1", {}, t("app.offline_page")), h("p", {}, t("app.offline")), retry);
}

async function start() {
  loadAccount(); // who is signed in: the header's link shows it once the server has said
  const meta = await loadWords(preferredLanguage());
  translate(document);
  showAccountLink();
  document.title = t("app.title");
  fillLanguages(meta);
  const languages = /** @type {HTMLSelectElement} */ (shellElement("lang-select"));
  languages.addEventListener("change", async () => {
    const chosen = await loadWords(languages.value);
    translate(document);
    showAccountLink();
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

// The first page's modules come while the language and the metadata do, asked for after them: a server on
// HTTP/1.1 answers six requests at a time, and the page can do nothing before those two.
start();
const first = routeOf(location.hash);
if (first.module) preloadModule(first.module);
