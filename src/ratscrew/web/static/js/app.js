// The page shell: loads the language and the rules metadata, then shows one page per address (#/...).
import { loadLanguage, preferredLanguage, t, translate, lang } from "./i18n.js";
import { getJSON } from "./api.js";
import { clear } from "./dom.js";

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

async function show() {
  const view = document.getElementById("view");
  const hash = location.hash || "#/";
  const page = PAGES.find((p) => p.pattern.test(hash)) || PAGES[0];
  const params = hash.match(page.pattern)?.slice(1) ?? [];
  for (const link of document.querySelectorAll("[data-nav]")) {
    if (link.dataset.nav === page.nav) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  if (typeof cleanup === "function") cleanup();
  cleanup = null;
  clear(view);
  view.dataset.page = page.nav;
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
  window.addEventListener("hashchange", show);
  await show();
  document.body.dataset.lang = context.lang;
  document.body.dataset.ready = "true";
}

start();
