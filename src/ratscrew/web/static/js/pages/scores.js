// @ts-check
// The score keeper for a real deck: #/scores lists the saved matches and starts a new one,
// #/scores/<id> keeps one match: tap (or press 1-9 for) the winner of each round, undo, run the
// round timer, show the agreed rules in plain words and ask the referee whether a pile is slappable.
// #/scores/<id>-<key> is a share link: it gives this browser the match's key, then shows the match.
// Its parts are under scores/: the list and the new-match form, one match (its board, timer and referee),
// the rules card, the owner keys, and what they share.
import { useStyles } from "../styles.js";
import { rememberKey, splitParam } from "./scores/keys.js";
import { renderList } from "./scores/list.js";
import { renderMatch } from "./scores/match.js";
/** @import { PageContext } from "../types.js" */

/**
 * @param {HTMLElement} view
 * @param {PageContext} ctx
 */
export async function render(view, ctx) {
  await useStyles("scores");
  view.classList.add("scores-page");
  const { id, key } = splitParam(ctx.params[0]);
  if (key) {
    rememberKey(id, key);
    history.replaceState(null, "", `#/scores/${id}`); // the key stays in this browser, not in its history
  }
  const cleanup = id ? await renderMatch(view, ctx, id) : await renderList(view, ctx);
  return () => {
    view.classList.remove("scores-page");
    if (typeof cleanup === "function") cleanup();
  };
}
