// The page shell: loads the language and the rules metadata, then shows one page per address (#/...).
import { loadLanguage, preferredLanguage, t, translate, lang } from "./i18n.js";
import { getJSON } from "./api.js";
import { clear, h } from "./dom.js";

// Each page module exports render(view, context) and may return a cleanup function.
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

const context = { meta: null, lang: "en", navigate, refresh: () => show() };
let cleanup = null;

export function navigate(hash) {
  if (location.hash === hash) show();
  else location.hash = hash;
}

async function loadMeta() {
  context.meta = await getJSON(`/api/meta?lang=${lang()}`);
  context.lang = lang();
}

function fillLanguages() {
  const select = document.getElementById("lang-select");
  clear(select);
  for (const { code, name } of context.meta.languages) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    option.selected = code === context.lang;
    select.append(option);
  }
  select.setAttribute("aria-label", t("app.language"));
}

// An address no page answers: say so, and offer the way back to Play.
const NOT_FOUND = {
  nav: null,
  pattern: /^/,
  load: async () => ({
    render(view) {
      view.append(h("section", { class: "panel not-found", id: "not-found" },
        h("h1", {}, t("app.not_found.title")),
        h("p", {}, t("app.not_found.text", { address: location.hash })),
        h("a", { class: "button", href: "#/", id: "not-found-play" }, t("app.not_found.play"))));
    },
  }),
};

// Addresses that are not routes (#view, #something) are places on the current page: the router leaves them alone.
let shownHash = null;
function isRoute(hash) {
  return hash === "" || hash === "#" || hash.startsWith("#/");
}

async function show() {
  const view = document.getElementById("view");
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
  for (const link of document.querySelectorAll("[data-nav]")) {
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
    cleanup = await module.render(view, { ...context, params });
  } catch (error) {
    console.error(error);
    view.append(Object.assign(document.createElement("p"), { className: "error-box", textContent: `${t("app.error")} ${error.message}` }));
  }
  translate(view);
}

async function start() {
  await loadLanguage(preferredLanguage());
  await loadMeta();
  translate(document);
  document.title = t("app.title");
  fillLanguages();
  document.getElementById("lang-select").addEventListener("change", async (event) => {
    await loadLanguage(event.target.value);
    await loadMeta();
    translate(document);
    document.title = t("app.title");
    fillLanguages();
    await show();
    document.body.dataset.lang = context.lang;
  });
  // "Skip to content" moves the focus to the page, and leaves the address (and so the page shown) as it is.
  document.querySelector(".skip-link")?.addEventListener("click", (event) => {
    event.preventDefault();
    document.getElementById("view").focus();
  });
  window.addEventListener("hashchange", show);
  await show();
  document.body.dataset.lang = context.lang;
  document.body.dataset.ready = "true";
}

start();
