// @ts-check
// #/scores: the matches this browser keeps (live ones first, finished ones folded away), and the form that
// starts a new one.
import { h, clear, announce, reducedMotion } from "../../dom.js";
import { t, tn, has, lang } from "../../i18n.js";
import { getJSON, sendJSON } from "../../api.js";
import { cardFace } from "../../cards.js";
import { forgetKey, keyHeaders } from "./keys.js";
import { clock, confirmButton, describeError, errorBox, matchTitle, presetLabel } from "./parts.js";
import { newMatchForm } from "./new-match.js";
/** @import { MatchListItem, MatchPage, Meta, PageContext } from "../../types.js" */

const LIST_PAGE = 50;

/**
 * @param {HTMLElement} view
 * @param {PageContext} ctx
 * @returns {Promise<null>}
 */
export async function renderList(view, ctx) {
  const { meta } = ctx;
  const errors = errorBox();
  const listHolder = h("div", { class: "sk-saved-body", "aria-busy": "true" }, h("p", { class: "hint" }, t("app.loading")));
  const jump = h("button", { type: "button", class: "secondary sk-jump" }, h("span", { "aria-hidden": "true" }, "+"), t("scores.form.title"));
  jump.addEventListener("click", () => {
    form.scrollIntoView({ behavior: reducedMotion() ? "auto" : "smooth", block: "start" });
    /** @type {HTMLInputElement | null} */ (form.querySelector(".sk-player-row input"))?.focus({ preventScroll: true });
  });
  const savedSection = h("section", { class: "sk-saved", "aria-labelledby": "sk-saved-title" },
    h("div", { class: "sk-saved-head" }, h("h2", { id: "sk-saved-title", tabindex: "-1" }, t("scores.list.title")), jump), listHolder);
  // Option summaries are shown only where this language has its own words for them (no English mid-sentence).
  const form = newMatchForm(ctx, errors, has);
  const layout = h("div", { class: "sk-layout" }, savedSection, form);
  view.append(hero(), layout);

  // The list comes a page at a time; "more" fetches the next page and draws the whole list again.
  /** @type {MatchListItem[]} */
  let matches = [];
  /** @type {string | null} */
  let next = null;
  const more = h("button", { type: "button", class: "secondary sk-list-more" }, t("scores.list.more"));
  more.addEventListener("click", () => load(next));

  /** @param {MatchListItem} m */
  async function remove(m) {
    try {
      await sendJSON(`/api/matches/${m.id}`, {}, "DELETE", keyHeaders());
      forgetKey(m.id);
      announce(t("scores.deleted", { title: matchTitle(m) }));
      await load();
      /** @type {HTMLElement | null} */ (view.querySelector("#sk-saved-title"))?.focus?.();
    } catch (error) {
      errors.show(describeError(error));
    }
  }

  /** @param {string | null} [before] the cursor of the page to add (none: the first page, anew) */
  async function load(before = null) {
    try {
      const query = `?limit=${LIST_PAGE}${before ? `&before=${encodeURIComponent(before)}` : ""}`;
      /** @type {MatchPage} */
      const page = await getJSON(`/api/matches${query}`, keyHeaders());
      matches = before ? [...matches, ...page.matches] : page.matches;
      next = page.next;
      clear(listHolder);
      listHolder.removeAttribute("aria-busy");
      layout.classList.toggle("sk-has-matches", matches.some((m) => !m.finished));
      const live = matches.filter((m) => !m.finished);
      const done = matches.filter((m) => m.finished);
      if (!matches.length) listHolder.append(emptyList());
      if (live.length) listHolder.append(matchList(live, meta, remove));
      if (done.length) {
        // Finished matches fold away under their own heading once there are a few, so resuming stays one tap.
        const folded = h("details", { class: "sk-done", open: live.length === 0 || done.length <= 2 },
          h("summary", {}, t("scores.list.finished", { n: done.length })), matchList(done, meta, remove));
        listHolder.append(folded);
      }
      if (next) listHolder.append(more);
    } catch (error) {
      clear(listHolder);
      listHolder.append(h("p", { class: "error-box" }, `${t("scores.error.load")} ${describeError(error)}`));
    }
  }

  await load();
  return null;
}

/**
 * When, in the page's language ("12 Mar 2026, 20:15").
 * @param {number} timestamp seconds since 1970
 */
function when(timestamp) {
  try {
    return new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(timestamp * 1000));
  } catch {
    return new Date(timestamp * 1000).toLocaleString();
  }
}

/**
 * The matches as a list: each with its scores, details, and the buttons to open and to delete it.
 * @param {MatchListItem[]} matches
 * @param {Meta} meta
 * @param {(match: MatchListItem) => Promise<void>} remove
 */
function matchList(matches, meta, remove) {
  return h("ul", { class: "sk-match-list", role: "list" }, matches.map((m) => {
    const scores = h("ol", { class: "sk-mini-scores", "aria-label": t("scores.list.scores") }, m.players.map((name, i) =>
      h("li", { class: m.leaders.includes(i) ? "lead" : "" }, h("span", { class: "n" }, name), h("span", { class: "w" }, String(m.wins[i])))));
    const status = m.finished
      ? h("span", { class: "chip sk-chip-done" }, t("scores.status.finished"))
      : h("span", { class: "chip sk-chip-live" }, t("scores.status.live"));
    const details = [tn("scores.rounds_played", m.rounds), presetLabel(meta, m.preset)];
    if (m.timer_s) details.push(t("scores.list.timer", { time: clock(m.timer_s) }));
    const deleteButton = confirmButton(t("scores.delete"), t("scores.delete_confirm"), () => remove(m));
    return h("li", { class: `sk-match-item${m.finished ? " finished" : ""}` },
      h("div", { class: "sk-match-top" },
        h("a", { class: "sk-match-link", href: `#/scores/${m.id}` }, matchTitle(m)), status),
      scores,
      h("p", { class: "sk-match-meta" }, details.join(" · "), h("br"),
        h("span", { class: "sk-when" }, t("scores.list.updated", { when: when(m.updated) }))),
      h("div", { class: "sk-match-actions" },
        h("a", { class: "button", href: `#/scores/${m.id}` }, m.finished ? t("scores.list.open") : t("scores.list.resume")),
        deleteButton));
  }));
}

function emptyList() {
  return h("div", { class: "sk-empty" },
    h("div", { class: "sk-empty-cards", "aria-hidden": "true" },
      ["AS", "KH", "7D"].map((c) => h("span", { class: "sk-empty-card" }, cardFace(c, { label: "" })))),
    h("p", {}, t("scores.list.empty")));
}

function hero() {
  const fan = h("div", { class: "sk-fan", "aria-hidden": "true" },
    ["AS", "KH", "7D"].map((c) => h("span", { class: "sk-fan-card" }, cardFace(c, { label: "" }))));
  return h("header", { class: "sk-hero" },
    h("div", { class: "sk-hero-text" },
      h("h1", {}, t("scores.title")),
      h("p", { class: "sk-lede" }, t("scores.lede")),
      h("ol", { class: "sk-steps" },
        h("li", {}, t("scores.step.players")),
        h("li", {}, t("scores.step.rules")),
        h("li", {}, t("scores.step.rounds")))),
    fan);
}
