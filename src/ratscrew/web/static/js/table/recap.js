// @ts-check
// What happened, for a finished game opened again (a reload, another language chosen): the page was not there
// when the events came, so its feed would be empty. The game's record is replayed by the server's engine, as
// the replay viewer does (POST /api/replay), and its last events go into the feed in the live table's words.
import { getJSON, sendJSON } from "../api.js";
import { addFeed } from "./show.js";
import { eventWords, newMemory, remember, verdictWords, voiceOf } from "./verdicts.js";
/** @import { GameOver, GameSummary, ReplayPage } from "../types.js" */
/** @import { TableCore } from "./core.js" */

// The last steps replayed: the feed's few lines are among them (a challenge or a slap every few cards), and
// the events before them give the verdicts what they need (the slap a won pile is explained by).
const STEPS = 400;

/**
 * Fill an empty feed once the game is over: at once with how it ended, then with its last events.
 * @param {TableCore} core
 * @param {GameSummary} summary
 */
export async function recallFeed(core, summary) {
  const { model, parts } = core;
  const { feed } = parts;
  if (feed.children.length) return; // the page watched the game: its feed is whole
  const game = model.game;
  const voice = voiceOf(model);
  // The ending first, so the box is never empty, even when the record cannot be had (a game not saved).
  const outcome = { result: summary.result, winner: summary.winner, how: summary.how, reason: summary.reason, loop: null };
  const ending = /** @type {GameOver} */ ({ kind: "game_over", outcome });
  addFeed(feed, ending, eventWords(ending, voice));
  const placeholder = feed.firstElementChild;
  /** @type {ReplayPage} */
  let replayed;
  try {
    /** @type {{ actions?: unknown[] }} */
    const record = await getJSON(`/api/games/${encodeURIComponent(summary.game)}/record`);
    const total = (Array.isArray(record.actions) ? record.actions.length : 0) + 1; // step 0 is the deal
    const start = Math.max(0, total - STEPS);
    replayed = await sendJSON(`/api/replay?start=${start}&count=${STEPS}`, record);
  } catch {
    return; // the ending stays: the feed says at least how the game ended
  }
  // Another game set up meanwhile (a rematch), or lines added since: this feed is no longer the one asked for.
  if (model.game !== game || feed.firstElementChild !== placeholder || feed.children.length !== 1) return;
  feed.replaceChildren();
  const memory = newMemory();
  for (const step of replayed.steps) {
    for (const event of step.events) {
      if (event.kind === "card_turned") continue; // the live feed leaves them to the pile too
      const words = verdictWords(event, step.seen ?? null, memory, voice) ?? eventWords(event, voice);
      remember(memory, event);
      addFeed(feed, event, words);
    }
  }
}
