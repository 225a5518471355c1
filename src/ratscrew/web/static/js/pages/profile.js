// @ts-check
// A player's profile (#/players/NAME), as GET /api/players/NAME says it: their rating at each table size with
// its history (a chart, and the numbers), their games and wins, how they slap, and the patterns they let go
// most, each with the drill that trains it. Everything it counts the server counted from the games' records.
import { h } from "../dom.js";
import { t, tn } from "../i18n.js";
import { RequestError, errorText, getJSON } from "../api.js";
import { useStyles } from "../styles.js";
import { loadAccount } from "../account.js";
import { ratingChart } from "./profile/chart.js";
import { sizeName } from "./profile/sizes.js";
/** @import { MissedPattern, PageContext, PlayerAnswer, PlayerRating, SizeGames } from "../types.js" */

/**
 * @param {PlayerRating} rating
 */
function ratingPart(rating) {
  const id = `rating-${rating.size_class === "2" ? "2" : "more"}`;
  return h("section", { class: "profile-rating", id, "aria-labelledby": `${id}-title` },
    h("h3", { id: `${id}-title` }, sizeName(rating.size_class)),
    h("p", { class: "rating-now" },
      h("span", { class: "rating-number" }, String(rating.shown)),
      rating.provisional ? h("span", { class: "chip provisional" }, t("profile.rating.provisional")) : null,
      h("span", { class: "rating-games" }, tn("profile.rating.games", rating.games))),
    rating.history.length ? ratingChart(rating.history, { id: `${id}-chart`, size: sizeName(rating.size_class) }) : null);
}

/** @param {PlayerAnswer} doc */
function ratingsSection(doc) {
  return h("section", { class: "panel profile-part", id: "profile-ratings", "aria-labelledby": "ratings-title" },
    h("h2", { id: "ratings-title" }, t("profile.ratings.title")),
    doc.ratings.length
      ? h("div", { class: "profile-ratings" }, doc.ratings.map(ratingPart))
      : h("p", { class: "hint" }, t("profile.ratings.none")),
    h("p", { class: "hint" }, t("profile.ratings.hint")));
}

/** @param {SizeGames[]} games */
function gamesTable(games) {
  return h("table", { class: "profile-table", id: "profile-games" },
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("profile.games.size")),
      h("th", { scope: "col", class: "number" }, t("profile.games.played")),
      h("th", { scope: "col", class: "number" }, t("profile.games.won")),
      h("th", { scope: "col", class: "number" }, t("profile.games.rated")))),
    h("tbody", {}, games.map((size) => h("tr", {},
      h("th", { scope: "row" }, sizeName(size.size_class)),
      h("td", { class: "number" }, String(size.games)),
      h("td", { class: "number" }, String(size.wins)),
      h("td", { class: "number" }, String(size.rated))))));
}

/**
 * A figure and what it is.
 * @param {string} label
 * @param {string} value
 * @param {string} id
 */
function fact(label, value, id) {
  return h("div", { class: "profile-fact" }, h("dt", {}, label), h("dd", { id }, value));
}

/** @param {PlayerAnswer} doc */
function playSection(doc) {
  const median = doc.median_reaction_ms;
  return h("section", { class: "panel profile-part", id: "profile-play", "aria-labelledby": "play-title" },
    h("h2", { id: "play-title" }, t("profile.games.title")),
    doc.games.length ? gamesTable(doc.games) : h("p", { class: "hint" }, t("profile.games.none")),
    h("dl", { class: "profile-facts" },
      fact(t("profile.slaps.median"), median === null ? t("profile.slaps.not_measured")
        : t("profile.slaps.ms", { ms: Math.round(median) }), "profile-median"),
      fact(t("profile.slaps.won"), String(doc.slaps_won), "profile-slaps-won"),
      fact(t("profile.slaps.wrong"), String(doc.wrong_slaps), "profile-wrong-slaps"),
      fact(t("profile.slaps.missed"), t("profile.slaps.missed_of", { missed: doc.missed, chances: doc.chances }), "profile-missed")));
}

/**
 * The way to the drill that trains a pattern, under the preset whose drills deal it; or a line saying no drill
 * does.
 * @param {MissedPattern} pattern
 * @param {PageContext} ctx
 */
function drillLink(pattern, ctx) {
  const drill = pattern.drill;
  if (!drill) return h("span", { class: "hint no-drill" }, t("profile.missed.no_drill"));
  const preset = ctx.meta.presets.find((p) => p.name === drill.preset)?.label ?? drill.preset;
  const hash = `#/drills/${drill.kind}`;
  const link = h("a", { href: hash, class: "drill-link" },
    t("profile.missed.train", { drill: t(`drill.${drill.kind}.title`), preset }));
  // The drill deals the patterns of the preset it is set to: this one's, which deal the pattern. The Learn
  // module keeps that choice; the drill page loads it anyway, so it is fetched only when the link is followed.
  link.addEventListener("click", async (event) => {
    event.preventDefault();
    try {
      (await import("./learn.js")).savePreset(drill.preset);
    } catch { /* the module did not come (offline): the drill page will say so itself */ }
    ctx.navigate(hash);
  });
  return link;
}

/**
 * The share of the chances let go, as a bar (the words beside it say the numbers).
 * @param {MissedPattern} pattern
 */
function missedBar(pattern) {
  const bar = h("span", { class: "missed-bar", "aria-hidden": "true" }, h("span", {}));
  bar.style.setProperty("--share", String(pattern.missed / pattern.chances));
  return bar;
}

/**
 * @param {PlayerAnswer} doc
 * @param {PageContext} ctx
 */
function missedSection(doc, ctx) {
  const name = (/** @type {string} */ key) => ctx.meta.patterns.find((p) => p.key === key)?.label ?? t(`pattern.${key}`);
  const missed = doc.patterns.filter((p) => p.missed > 0);
  let body;
  if (!doc.chances) body = h("p", { class: "hint" }, t("profile.missed.no_chances"));
  else if (!missed.length) body = h("p", { class: "hint" }, t("profile.missed.none"));
  else {
    body = h("ol", { class: "missed-list", id: "profile-patterns" }, missed.map((p) => h("li", { dataset: { pattern: p.pattern } },
      h("span", { class: "missed-name" }, name(p.pattern)),
      h("span", { class: "missed-count" }, t("profile.missed.count", { missed: p.missed, chances: p.chances })),
      missedBar(p),
      drillLink(p, ctx))));
  }
  return h("section", { class: "panel profile-part", id: "profile-missed-part", "aria-labelledby": "missed-title" },
    h("h2", { id: "missed-title" }, t("profile.missed.title")),
    h("p", { class: "hint" }, t("profile.missed.lead")),
    body);
}

/**
 * @param {PlayerAnswer} doc
 * @param {PageContext} ctx
 * @param {boolean} mine
 */
function profilePage(doc, ctx, mine) {
  return h("div", { class: "profile" },
    h("header", { class: "profile-head" },
      h("p", { class: "eyebrow" }, t("profile.eyebrow")),
      h("h1", { id: "profile-name" }, doc.name),
      mine ? h("p", { id: "profile-you" }, t("profile.you"), " ", h("a", { href: "#/account" }, t("profile.your_account"))) : null,
      h("p", {}, h("a", { href: "#/leaderboard", id: "to-leaderboard" }, t("profile.to_leaderboard")))),
    ratingsSection(doc),
    h("div", { class: "profile-columns" }, playSection(doc), missedSection(doc, ctx)));
}

/**
 * What stands instead of a profile: nobody by that name, too many unknown names asked for, or another error.
 * @param {unknown} error
 * @param {string} name
 */
function missingPage(error, name) {
  const status = error instanceof RequestError ? error.status : 0;
  if (status === 404 || status === 400) {
    return h("section", { class: "panel missing", id: "profile-not-found" },
      h("h1", {}, t("profile.not_found.title")),
      h("p", {}, t("profile.not_found.text", { name })),
      h("a", { class: "button", href: "#/leaderboard" }, t("profile.to_leaderboard")));
  }
  const text = status === 429 ? t("profile.error.too_many") : errorText(error);
  return h("p", { class: "error-box", id: "profile-error", role: "alert" }, text);
}

/**
 * @param {HTMLElement} view
 * @param {PageContext} ctx
 */
export async function render(view, ctx) {
  const name = decodeURIComponent(ctx.params[0] ?? "");
  const styles = useStyles("profile");
  const signedIn = loadAccount();
  /** @type {PlayerAnswer} */
  let answer;
  try {
    answer = await getJSON(`/api/players/${encodeURIComponent(name)}`);
  } catch (error) {
    await styles;
    view.append(missingPage(error, name));
    return null;
  }
  const [, account] = await Promise.all([styles, signedIn]);
  const mine = account.account?.name.toLowerCase() === answer.name.toLowerCase();
  document.title = `${answer.name} · ${t("app.title")}`;
  view.append(profilePage(answer, ctx, mine));
  return () => { document.title = t("app.title"); };
}
