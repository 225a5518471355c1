// @ts-check
// What happened, newest first, below the table: the last few events, each shown with glyphs and small
// cards, and read once in words by a screen reader.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { miniCards } from "../cards.js";
/** @import { GameEvent } from "../types.js" */
/** @import { EventWords } from "./verdicts.js" */

const FEED_LENGTH = 6;

/**
 * @param {HTMLOListElement} feed
 * @param {GameEvent} event
 * @param {EventWords} words
 */
export function addFeed(feed, event, { shown, spoken }) {
  const line = h("span", { class: "feed-shown", "aria-hidden": "true" }, shown);
  if (event.kind === "slap_correct") line.append(" ", ...event.matches.map((m) => miniCards(m.cards, t)));
  const item = h("li", { class: `feed-item kind-${event.kind}` }, line, h("span", { class: "visually-hidden" }, spoken));
  feed.prepend(item);
  while (feed.children.length > FEED_LENGTH) feed.lastChild?.remove();
}
