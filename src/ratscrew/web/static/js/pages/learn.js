// @ts-check
// Learn: the rules, a printable cheat sheet, a card reference and the common questions. Every word about a
// rule comes from /api/learn, which builds it from the engine's own rule definitions; this module only lays
// it out. Sub-pages: #/learn, #/learn/cheatsheet, #/learn/cards, #/learn/faq.
import { useStyles } from "../styles.js";
import { h, clear, announce } from "../dom.js";
import { t, tn, lang } from "../i18n.js";
import { errorText, getJSON } from "../api.js";
import { cardFace, cardName } from "../cards.js";
import { changeCount, keepTableRules, learnQuery, tableRules } from "../learn-link.js";
/** @import { CardEntry, CheatBlock, DemandRow, ExampleDoc, FaqVariant, KeyDoc, LearnBlock, LearnDoc, LearnSection, Meta, PageContext, RulesDoc } from "../types.js" */

/**
 * A preset picker: its element, and how to show another preset in it.
 * @typedef {{ element: HTMLDivElement, update(name: string): void }} Picker
 */

export const PRESET_KEY = "ratscrew.learn.preset";
const SUBPAGES = [
  { id: "rules", hash: "#/learn", label: "learn.nav.rules" },
  { id: "cheatsheet", hash: "#/learn/cheatsheet", label: "learn.nav.cheatsheet" },
  { id: "cards", hash: "#/learn/cards", label: "learn.nav.cards" },
  { id: "faq", hash: "#/learn/faq", label: "learn.nav.faq" },
];

/**
 * The preset this browser learns and drills under (the standard one until another is chosen).
 * @param {Meta} meta
 * @returns {string}
 */
export function savedPreset(meta) {
  const saved = localStorage.getItem(PRESET_KEY);
  return saved !== null && meta.presets.some((p) => p.name === saved) ? saved : "standard";
}

/** @param {string} name */
export function savePreset(name) {
  localStorage.setItem(PRESET_KEY, name);
}

// The picker's choice for the rules a table set up (learn-link.js), beside the presets' names.
const TABLE_CHOICE = "*table*";

/**
 * A <select> of the named rule sets with the chosen one's summary; calls onChange(name) when the choice changes.
 * With `table`, the rules a table set up come first, as TABLE_CHOICE, with their own summary line.
 * @param {Meta} meta
 * @param {string} current
 * @param {(name: string) => void} onChange
 * @param {{ id?: string, labelKey?: string, table?: { label: string, summary: string } | null }} [options]
 * @returns {Picker}
 */
export function presetPicker(meta, current, onChange, { id = "learn-preset", labelKey = "learn.ui.preset", table = null } = {}) {
  const select = h("select", { id },
    table ? h("option", { value: TABLE_CHOICE, selected: current === TABLE_CHOICE }, table.label) : null,
    meta.presets.map((p) => h("option", { value: p.name, selected: p.name === current }, p.label)));
  select.addEventListener("change", () => onChange(select.value));
  /** @param {string} name */
  const summaryOf = (name) => (name === TABLE_CHOICE ? table?.summary : meta.presets.find((p) => p.name === name)?.summary) ?? "";
  const summary = h("p", { class: "preset-summary", id: `${id}-summary` }, summaryOf(current));
  select.setAttribute("aria-describedby", summary.id);
  const element = h("div", { class: "preset-picker" },
    h("label", { for: id }, t(labelKey)), select, summary);
  /** @param {string} name */
  const update = (name) => {
    select.value = name;
    summary.textContent = summaryOf(name);
  };
  return { element, update };
}

/**
 * The picker's entry for a table's own rules: its name and a line saying what they are made of.
 * @param {Meta} meta
 * @param {RulesDoc} rules
 */
function tableEntry(meta, rules) {
  const preset = meta.presets.find((p) => p.name === rules.preset)?.label ?? String(rules.preset);
  const n = changeCount(meta, rules);
  return { label: t("learn.ui.table_rules"), summary: n ? tn("learn.ui.table_summary", n, { preset }) : t("learn.ui.table_same", { preset }) };
}

/**
 * One card drawn by cards.js, in a box of the given size class.
 * @param {string} text
 * @param {"xs" | "sm" | "md" | "lg"} [size]
 */
export function drawnCard(text, size = "sm") {
  return h("span", { class: `card-slot card-${size}` }, cardFace(text, { label: cardName(text, t) }));
}

/**
 * Rules keys with their values, e.g. "slaps.run = 4 cards": the settings an explanation depends on.
 * @param {KeyDoc[] | undefined} keys
 * @param {{ title?: string }} [options]
 */
export function keyChips(keys, { title = t("learn.ui.set_by") } = {}) {
  if (!keys || !keys.length) return null;
  return h("div", { class: "key-chips" },
    h("span", { class: "key-chips-title" }, title),
    // Players read the setting's name, never its rules key: keys belong to the command line (the setup page's
    // "names for the command line" disclosure lists them).
    h("ul", { role: "list" }, keys.map((k) => h("li", { class: `key-chip${k.changed ? " changed" : ""}`,
      title: k.changed ? t("learn.ui.changed_from", { value: k.default_label }) : null },
    h("span", {}, k.name), h("span", { class: "key-eq", "aria-hidden": "true" }, ":"), h("strong", {}, k.label)))));
}

/**
 * A pile of cards, bottom first, on a small felt mat, with the engine's verdict.
 * @param {ExampleDoc} example
 */
export function examplePile(example) {
  /** @type {Set<number>} */
  const inMatch = new Set();
  // Mark the cards that make each pattern, where the engine says they lie in the pile.
  for (const m of example.matches) for (const p of m.positions) inMatch.add(p);
  const names = example.cards.map((c) => cardName(c, t)).join(", ");
  const pile = h("div", { class: "ex-pile", role: "img", "aria-label": t("learn.ui.pile_label", { cards: names }) },
    example.cards.map((c, i) => h("span", { class: `ex-card${inMatch.has(i) ? " in-match" : ""}`, "aria-hidden": "true" },
      cardFace(c, { label: "" }))));
  const ok = example.slappable;
  return h("figure", { class: `example ${ok ? "is-slap" : "is-miss"}` },
    h("div", { class: "felt-mat" }, pile,
      h("div", { class: "ex-ends", "aria-hidden": "true" }, h("span", {}, t("learn.ui.bottom")), h("span", {}, t("learn.ui.top")))),
    h("figcaption", {},
      h("span", { class: `verdict ${ok ? "yes" : "no"}` }, h("span", { class: "verdict-icon", "aria-hidden": "true" }, ok ? "✓" : "✕"),
        example.verdict),
      example.caption ? h("span", { class: "example-caption" }, example.caption) : null,
      example.matches.length ? h("ul", { class: "why-list" }, example.matches.map((m) => h("li", {}, m.why))) : null));
}

// ------------------------------------------------------------------------------------------ rules page

/** @param {LearnBlock} block */
function renderBlock(block) {
  switch (block.type) {
    case "p":
      return h("p", {}, block.text);
    case "note":
      return h("p", { class: "learn-note" }, h("span", { class: "note-mark", "aria-hidden": "true" }, "!"), block.text);
    case "list":
      return h("ul", {}, block.items.map((i) => h("li", {}, i)));
    case "demands":
      return demandsBlock(block.rows, block.caption);
    case "walkthrough":
      return walkthroughBlock(block);
    case "pattern":
      return patternBlock(block);
    case "example":
      return examplePile(block);
    case "off":
      return h("div", { class: "patterns-off" }, h("p", {}, block.text),
        h("ul", { role: "list" }, block.items.map((i) => h("li", {}, h("strong", {}, i.name), " · ", i.summary))));
    default:
      return null;
  }
}

/**
 * @param {DemandRow[]} rows
 * @param {string} caption
 */
export function demandsBlock(rows, caption) {
  return h("figure", { class: "demands" },
    caption ? h("figcaption", {}, caption) : null,
    h("ul", { role: "list", class: "demand-row" }, rows.map((r) => h("li", { class: "demand" },
      drawnCard(r.card, "md"),
      h("span", { class: "demand-number", "aria-hidden": "true" }, String(r.demand)),
      h("span", { class: "demand-text" }, h("strong", {}, r.name), " ", r.text)))));
}

/** @param {Extract<LearnBlock, { type: "walkthrough" }>} block */
function walkthroughBlock(block) {
  return h("figure", { class: "walk" },
    h("figcaption", {}, h("h3", {}, block.title)),
    h("div", { class: "walk-table", "aria-hidden": "true" }, block.steps.map((s) => h("div", { class: "walk-play" },
      drawnCard(s.card, "sm"), h("span", { class: `walk-name who-${s.seat}` }, s.name)))),
    h("ol", { class: "walk-steps" }, block.steps.map((s) => h("li", { class: `who-${s.seat}` }, s.text))));
}

/** @param {Extract<LearnBlock, { type: "pattern" }>} block */
function patternBlock(block) {
  return h("article", { class: "pattern-card", id: `pattern-${block.key}`, "aria-labelledby": `pattern-${block.key}-h` },
    h("h3", { id: `pattern-${block.key}-h` }, block.name),
    h("p", {}, block.rule),
    h("div", { class: "examples" }, block.examples.map((e) => examplePile(e))),
    keyChips(block.keys));
}

/** @param {LearnSection} section */
function sectionView(section) {
  const headingId = `learn-${section.id}`;
  return h("section", { class: `learn-section panel section-${section.id}`, "aria-labelledby": headingId },
    h("h2", { id: headingId, tabindex: "-1" }, section.title),
    section.blocks.map(renderBlock),
    keyChips(section.keys));
}

/** @param {[string, string][]} items the id of each section, and its title */
function tocView(items) {
  /** @param {string} id */
  const jump = (id) => (/** @type {Event} */ event) => {
    event.preventDefault();
    const target = document.getElementById(id);
    if (!target) return;
    target.scrollIntoView({ behavior: "smooth", block: "start" });
    target.focus({ preventScroll: true });
  };
  return h("nav", { class: "learn-toc", "aria-label": t("learn.ui.on_this_page") },
    h("h2", { class: "toc-title" }, t("learn.ui.on_this_page")),
    h("ol", {}, items.map(([id, title]) => h("li", {}, h("a", { href: `#/learn`, onclick: jump(id) }, title)))));
}

/** @param {LearnDoc["rules"]["house"]} house */
function houseView(house) {
  return h("section", { class: "learn-section panel house", "aria-labelledby": "learn-house" },
    h("h2", { id: "learn-house", tabindex: "-1" }, house.title),
    h("p", {}, house.intro),
    house.groups.map((g) => h("div", { class: "house-group" },
      h("h3", {}, g.title),
      h("table", { class: "house-table" },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, t("learn.ui.setting")),
          h("th", { scope: "col" }, t("learn.ui.value")),
          h("th", { scope: "col" }, t("learn.ui.standard")))),
        h("tbody", {}, g.options.map((o) => h("tr", { class: o.changed ? "changed" : "" },
          h("th", { scope: "row" }, h("span", { class: "house-summary" }, o.summary)),
          h("td", { "data-label": t("learn.ui.value") }, h("span", { class: "value-badge" }, o.label)),
          h("td", { "data-label": t("learn.ui.standard") }, o.default_label))))))));
}

/** @param {LearnDoc} doc */
function rulesPage(doc) {
  const r = doc.rules;
  /** @type {[string, string][]} */
  const toc = r.sections.map((s) => /** @type {[string, string]} */ ([`learn-${s.id}`, s.title]));
  toc.push(["learn-house", r.house.title]);
  return h("div", { class: "learn-rules" },
    h("header", { class: "learn-intro" }, h("h1", {}, r.title), h("p", { class: "lede" }, r.lede)),
    h("div", { class: "learn-columns" },
      tocView(toc),
      h("div", { class: "learn-main" }, r.sections.map(sectionView), houseView(r.house))));
}

// ------------------------------------------------------------------------------------------ cheat sheet

/** @param {LearnDoc} doc */
function cheatsheetPage(doc) {
  const cs = doc.cheatsheet;
  /** @param {CheatBlock} b */
  const block = (b) => h("section", { class: `cs-block cs-${b.id}`, "aria-labelledby": `cs-${b.id}` },
    h("h2", { id: `cs-${b.id}` }, b.title),
    b.demands?.length ? h("ul", { class: "cs-demands", role: "list" }, b.demands.map((d) => h("li", {},
      drawnCard(d.card, "xs"), h("span", {}, h("strong", {}, d.name), " ", d.text)))) : null,
    b.patterns ? h("ul", { class: "cs-patterns", role: "list" }, b.patterns.map((p) => h("li", {},
      h("span", { class: "cs-pattern-name" }, p.name),
      p.example ? h("span", { class: "cs-mini", role: "img",
        "aria-label": p.example.cards.map((c) => cardName(c, t)).join(", ") },
      p.example.cards.map((c) => h("span", { class: "mini-card", "aria-hidden": "true" }, cardFace(c, { label: "" })))) : null,
      h("span", { class: "cs-short" }, p.short)))) : null,
    b.items.length ? h("ul", { class: "cs-items" }, b.items.map((i) => h("li", {}, i))) : null);
  const changed = cs.changed.length
    ? h("section", { class: "cs-block cs-changed", "aria-labelledby": "cs-changed" },
      h("h2", { id: "cs-changed" }, t("learn.ui.cs_changed")),
      h("ul", { class: "cs-items" }, cs.changed.map((c) => h("li", {},
        h("strong", {}, t("learn.ui.cs_changed_item", { name: c.name, value: c.label })), " · ", c.summary))))
    : h("section", { class: "cs-block cs-changed" }, h("h2", {}, t("learn.ui.cs_changed")), h("p", {}, t("learn.ui.cs_none_changed")));
  return h("div", { class: "learn-cheatsheet" },
    h("div", { class: "cs-actions no-print" },
      h("button", { type: "button", class: "secondary", onclick: () => window.print() },
        h("span", { class: "print-icon", "aria-hidden": "true" }), t("learn.ui.print"))),
    h("article", { class: "cheatsheet", "aria-labelledby": "cs-title" },
      h("header", { class: "cs-head" },
        h("div", { class: "cs-fan", "aria-hidden": "true" }, ["AS", "KH", "QC"].map((c) => drawnCard(c, "xs"))),
        h("div", {}, h("h1", { id: "cs-title" }, cs.title), h("p", { class: "cs-sub" }, cs.subtitle))),
      h("div", { class: "cs-grid" }, cs.blocks.map(block), changed)));
}

// ------------------------------------------------------------------------------------------ card reference

/** @param {LearnDoc} doc */
function cardsPage(doc) {
  const ref = doc.cards;
  const status = h("p", { class: "hint filter-status", "aria-live": "polite" });
  const empty = h("p", { class: "empty-filter", hidden: true });
  const tiles = ref.cards.map((c) => ({ tile: cardTile(c), search: c.search }));
  const input = h("input", { type: "search", id: "card-filter", autocomplete: "off", spellcheck: "false",
    placeholder: t("learn.ui.filter_placeholder"), "aria-describedby": "card-filter-hint" });
  const apply = () => {
    const q = input.value.trim().toLowerCase();
    let shown = 0;
    for (const { tile, search } of tiles) {
      // A symbol must match whole ("K", "10"); longer text matches the start of any word of a name, so
      // "roi" finds the King but not "trois", and "court" finds every court card.
      const match = !q || search.some((s) => s === q || (q.length >= 2 && s.split(/[\s-]+/).some((w) => w.startsWith(q))));
      tile.hidden = !match;
      if (match) shown += 1;
    }
    empty.hidden = shown > 0;
    empty.textContent = shown ? "" : t("learn.ui.filter_none", { query: input.value.trim() });
    status.textContent = q ? t("learn.ui.filter_count", { n: shown }) : "";
  };
  input.addEventListener("input", apply);
  return h("div", { class: "learn-cards" },
    h("header", { class: "learn-intro" }, h("h1", {}, ref.title), h("p", { class: "lede" }, ref.intro)),
    h("div", { class: "card-filter panel" },
      h("label", { for: "card-filter" }, t("learn.ui.filter")),
      input,
      h("p", { class: "hint", id: "card-filter-hint" }, t("learn.ui.filter_hint")),
      status),
    empty,
    h("div", { class: "card-grid" }, tiles.map(({ tile }) => tile)));
}

/**
 * One card of the reference: its face, what it demands, its kind, and the facts about it with examples.
 * @param {CardEntry} c
 */
function cardTile(c) {
  return h("article", { class: `card-tile kind-${c.kind}`, "aria-labelledby": `card-${c.rank}` },
    h("div", { class: "card-tile-face" }, drawnCard(c.card, "lg"),
      c.demand ? h("span", { class: "demand-badge", title: t("learn.ui.demand_title") }, String(c.demand)) : null),
    h("div", { class: "card-tile-body" },
      h("h2", { id: `card-${c.rank}` }, c.name, " ", h("span", { class: "card-symbol" }, c.symbol)),
      h("span", { class: `kind-chip ${c.kind}` }, c.kind_label),
      h("ul", { class: "card-facts" }, c.facts.map((f) => h("li", {},
        h("span", {}, f.text),
        f.example ? h("span", { class: `fact-example ${f.example.slappable ? "yes" : "no"}`, role: "img",
          "aria-label": `${f.example.cards.map((x) => cardName(x, t)).join(", ")}: ${f.example.verdict}` },
        f.example.cards.map((x) => h("span", { class: "mini-card", "aria-hidden": "true" }, cardFace(x, { label: "" })))) : null)))));
}

// ------------------------------------------------------------------------------------------ questions

/**
 * @param {LearnDoc} doc
 * @param {(preset: string) => void} choosePreset
 */
function faqPage(doc, choosePreset) {
  const f = doc.faq;
  return h("div", { class: "learn-faq" },
    h("header", { class: "learn-intro" }, h("h1", {}, f.title), h("p", { class: "lede" }, f.intro)),
    h("section", { class: "faq-list", "aria-labelledby": "faq-questions" },
      h("h2", { id: "faq-questions", class: "visually-hidden" }, t("learn.ui.questions")),
      f.questions.map((q, i) => h("details", { class: "faq-item panel", open: i === 0 },
        h("summary", {}, h("span", { class: "faq-q" }, q.q)),
        h("div", { class: "faq-a" },
          q.a.map((p) => h("p", {}, p)),
          q.now ? h("p", { class: "faq-now" }, h("span", { class: "now-badge" }, t("learn.ui.under_rules", { preset: doc.preset_label })), " ", q.now) : null,
          keyChips(q.keys))))),
    h("section", { class: "variants", "aria-labelledby": "faq-variants" },
      h("h2", { id: "faq-variants" }, f.variants_title),
      h("p", {}, f.variants_intro),
      h("div", { class: "variant-grid" }, f.variants.map((v) => variantCard(v, choosePreset)))));
}

/**
 * A variant people play, the rules keys it comes to now, and a button to learn under its preset.
 * @param {FaqVariant} v
 * @param {(preset: string) => void} choosePreset
 */
function variantCard(v, choosePreset) {
  const { preset } = v;
  return h("article", { class: "variant panel", "aria-labelledby": `variant-${v.id}` },
    h("h3", { id: `variant-${v.id}` }, v.title),
    h("p", {}, v.text),
    keyChips(v.keys, { title: t("learn.ui.now") }),
    preset ? h("button", { type: "button", class: "secondary", onclick: () => choosePreset(preset) },
      t("learn.ui.try_preset", { preset: v.preset_label ?? preset })) : null);
}

// ------------------------------------------------------------------------------------------ the page

/** @type {Record<string, (doc: LearnDoc, choosePreset: (preset: string) => void) => HTMLElement>} */
const PAGES = { rules: rulesPage, cheatsheet: cheatsheetPage, cards: cardsPage, faq: faqPage };

/**
 * @param {HTMLElement} view
 * @param {PageContext} ctx
 */
export async function render(view, ctx) {
  await useStyles("learn");
  const subId = ctx.params[0] || "rules";
  const sub = SUBPAGES.find((s) => s.id === subId);
  let preset = savedPreset(ctx.meta);
  const table = tableRules();
  const content = h("div", { class: "learn-content", "aria-live": "off" });
  const picker = presetPicker(ctx.meta, table?.chosen ? TABLE_CHOICE : preset, (name) => choosePreset(name, { stay: true }),
    { table: table && tableEntry(ctx.meta, table.rules) });
  const nav = h("nav", { class: "subnav", "aria-label": t("learn.ui.subnav") },
    h("ul", { role: "list" }, SUBPAGES.map((s) => h("li", {}, h("a", { href: s.hash, "aria-current": s.id === subId ? "page" : null },
      h("span", { class: `subnav-icon icon-${s.id}`, "aria-hidden": "true" }), t(s.label))))));
  view.append(h("div", { class: "learn-page" },
    h("div", { class: "learn-hero no-print" },
      h("div", { class: "hero-text" }, h("p", { class: "eyebrow" }, t("learn.ui.eyebrow")),
        h("p", { class: "hero-lede" }, t("learn.ui.hero_lede")), nav),
      h("div", { class: "hero-tools" }, picker.element)),
    content));

  if (!sub) {
    content.append(h("div", { class: "panel" }, h("h1", {}, t("learn.ui.not_found")),
      h("p", {}, t("learn.ui.not_found_text", { page: subId })),
      h("ul", {}, SUBPAGES.map((s) => h("li", {}, h("a", { href: s.hash }, t(s.label)))))));
    return null;
  }
  const page = PAGES[sub.id];

  let loading = 0;
  async function load({ announceIt = false } = {}) {
    const ticket = ++loading;
    content.setAttribute("aria-busy", "true");
    try {
      const rules = table?.chosen ? learnQuery(ctx.meta, table.rules) : `preset=${encodeURIComponent(preset)}`;
      /** @type {LearnDoc} */
      const doc = await getJSON(`/api/learn?lang=${encodeURIComponent(lang())}&${rules}`);
      if (ticket !== loading) return;
      if (table?.chosen) doc.preset_label = t("learn.ui.table_badge"); // the questions' "under these rules" badge
      clear(content);
      content.append(page(doc, (p) => choosePreset(p)));
      if (announceIt) announce(table?.chosen ? t("learn.ui.table_now") : t("learn.ui.preset_now", { preset: doc.preset_label }));
    } catch (error) {
      clear(content);
      content.append(h("p", { class: "error-box", role: "alert" }, `${t("app.error")} ${errorText(error)}`));
    } finally {
      if (ticket === loading) content.removeAttribute("aria-busy");
    }
  }

  /**
   * Learn under another preset: the page again (the questions page goes to the rules, which it changes).
   * @param {string} name
   * @param {{ stay?: boolean }} [options] stay: on this page whatever it is
   */
  async function choosePreset(name, { stay = false } = {}) {
    if (table) {
      table.chosen = name === TABLE_CHOICE;
      keepTableRules(table);
    }
    if (name !== TABLE_CHOICE) {
      preset = name;
      savePreset(name);
    }
    picker.update(name);
    if (!stay && sub?.id === "faq") {
      ctx.navigate("#/learn");
      return;
    }
    await load({ announceIt: true });
  }

  await load();
  return null;
}
