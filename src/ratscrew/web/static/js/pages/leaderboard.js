// @ts-check
// The leaderboards (#/leaderboard for two players, #/leaderboard/3 for tables of 3 or 4), as GET /api/leaderboard
// says them: the players whose rating has settled, ranked, and those still provisional apart. A switch of two
// links picks the table size; every name leads to its player's profile; the signed-in player's row is marked.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { errorText, getJSON } from "../api.js";
import { useStyles } from "../styles.js";
import { loadAccount } from "../account.js";
import { sizeName } from "./profile/sizes.js";
/** @import { LeaderboardAnswer, PageContext, Ranked } from "../types.js" */

const SIZES = [
  { param: "2", size: "2", hash: "#/leaderboard" },
  { param: "3", size: "3+", hash: "#/leaderboard/3" },
];

// Set when a size was picked from the switch: the next page puts the focus back on the picked link, which
// the page's redrawing would otherwise drop on the body.
let picked = false;

/**
 * A table of players; ranked ones have their place in the first column.
 * @param {Ranked[]} players
 * @param {{ id: string, caption: string, ranked: boolean, me: string }} options me: the signed-in name, lower case
 */
function board(players, { id, caption, ranked, me }) {
  return h("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-label": caption },
    h("table", { class: "leaderboard-table", id },
      h("caption", { class: "visually-hidden" }, caption),
      h("thead", {}, h("tr", {},
        ranked ? h("th", { scope: "col", class: "number" }, t("leaderboard.rank")) : null,
        h("th", { scope: "col" }, t("leaderboard.player")),
        h("th", { scope: "col", class: "number" }, t("leaderboard.rating")),
        h("th", { scope: "col", class: "number" }, t("leaderboard.games")))),
      h("tbody", {}, players.map((player, i) => {
        const mine = player.name.toLowerCase() === me;
        return h("tr", mine ? { class: "you", "aria-current": "true" } : {},
          ranked ? h("td", { class: "number rank" }, String(i + 1)) : null,
          h("th", { scope: "row", class: "leaderboard-name" },
            h("a", { href: `#/players/${encodeURIComponent(player.name)}` }, player.name),
            mine ? h("span", { class: "chip you-mark" }, t("leaderboard.you")) : null),
          h("td", { class: "number" }, String(player.shown)),
          h("td", { class: "number" }, String(player.games)));
      }))));
}

/**
 * @param {LeaderboardAnswer} answer
 * @param {string} size the size class's words
 * @param {string} me the signed-in player's name, lower case ("" when nobody is)
 */
function boards(answer, size, me) {
  return [
    h("section", { class: "panel leaderboard-part", "aria-labelledby": "established-title" },
      h("h2", { id: "established-title" }, t("leaderboard.established")),
      answer.established.length
        ? board(answer.established, { id: "leaderboard-established", caption: t("leaderboard.caption", { list: t("leaderboard.established"), size }), ranked: true, me })
        : h("p", { class: "hint", id: "leaderboard-empty" }, t("leaderboard.empty"))),
    h("section", { class: "panel leaderboard-part", "aria-labelledby": "provisional-title" },
      h("h2", { id: "provisional-title" }, t("leaderboard.provisional")),
      h("p", { class: "hint" }, t("leaderboard.provisional_hint")),
      answer.provisional.length
        ? board(answer.provisional, { id: "leaderboard-provisional", caption: t("leaderboard.caption", { list: t("leaderboard.provisional"), size }), ranked: false, me })
        : h("p", { class: "hint" }, t("leaderboard.provisional_empty"))),
  ];
}

/**
 * @param {HTMLElement} view
 * @param {PageContext} ctx
 */
export async function render(view, ctx) {
  const chosen = SIZES.find((s) => s.param === ctx.params[0]) ?? SIZES[0];
  const styles = useStyles("profile");
  const switcher = h("nav", { class: "size-switch", "aria-label": t("leaderboard.sizes") },
    SIZES.map((s) => {
      const link = h("a", { href: s.hash, id: `size-${s.param}`, "aria-current": s === chosen ? "page" : null }, sizeName(s.size));
      link.addEventListener("click", () => { picked = true; });
      return link;
    }));
  const page = h("div", { class: "leaderboard" },
    h("h1", { id: "leaderboard-title" }, t("leaderboard.title")),
    h("p", { class: "lead" }, t("leaderboard.lead")),
    switcher);
  try {
    /** @type {Promise<LeaderboardAnswer>} */
    const asked = getJSON(`/api/leaderboard?size=${encodeURIComponent(chosen.size)}`);
    const [answer, account] = await Promise.all([asked, loadAccount()]);
    page.append(...boards(answer, sizeName(chosen.size), account.account?.name.toLowerCase() ?? ""));
  } catch (error) {
    page.append(h("p", { class: "error-box", role: "alert" }, errorText(error)));
  }
  await styles;
  view.append(page);
  if (picked) document.getElementById(`size-${chosen.param}`)?.focus();
  picked = false;
  return null;
}
