// @ts-check
// #/scores/<id>: one match. Tap (or press 1-9 for) the winner of each round, undo, run the round timer, see the
// agreed rules in plain words and ask the referee whether a pile is slappable. Every change goes to the
// server, which answers with the whole match; the page draws it again and keeps polling for other phones.
import { h, clear, announce } from "../../dom.js";
import { t, tn } from "../../i18n.js";
import { RequestError, getJSON, sendJSON } from "../../api.js";
import { forgetKey, keyHeaders, shareLink } from "./keys.js";
import { clock, confirmButton, describeError, errorBox, handIcon, listText, matchTitle, presetLabel, withKeys } from "./parts.js";
import { nest, rulesHolderDrawer } from "./rules.js";
import { createBoard } from "./board.js";
import { createTimer } from "./timer.js";
import { createReferee } from "./referee.js";
/** @import { Meta, PageContext, ScoreMatch, ScoreRound } from "../../types.js" */
/** @import { ErrorBox } from "./parts.js" */

const POLL_MS = 10000;

/**
 * @param {HTMLElement} view
 * @param {PageContext} ctx
 * @param {string} id
 * @returns {Promise<(() => void) | null>} what undoes the page's timers and listeners
 */
export async function renderMatch(view, ctx, id) {
  /** @type {ScoreMatch} */
  let match;
  try {
    match = await getJSON(`/api/matches/${encodeURIComponent(id)}`, keyHeaders());
  } catch (error) {
    view.append(h("div", { class: "panel sk-missing" },
      h("h1", {}, t("scores.missing.title")),
      // Not found is all the page says (the server's words would say it again, in English); else why not.
      h("p", {}, error instanceof RequestError && error.status === 404 ? t("scores.missing.text") : describeError(error)),
      h("a", { class: "button", href: "#/scores" }, t("scores.back"))));
    return null;
  }
  return showMatch(view, ctx, match);
}

/**
 * @param {HTMLElement} view
 * @param {PageContext} ctx
 * @param {ScoreMatch} first the match as the server sent it
 */
function showMatch(view, ctx, first) {
  const { meta } = ctx;
  const state = { match: first, busy: false };
  const errors = errorBox();
  /** @type {ReturnType<typeof setInterval>[]} */
  const timers = [];

  const banner = h("div", { class: "sk-banner", hidden: true, role: "status" });
  const board = createBoard(first.players, (index) => writes.recordWinner(index));

  const undoButton = h("button", { type: "button", class: "secondary sk-undo", "aria-keyshortcuts": "U" });
  undoButton.addEventListener("click", () => writes.undo());
  const refereeButton = h("button", { type: "button", class: "sk-referee-open", "aria-keyshortcuts": "R", "aria-haspopup": "dialog" },
    handIcon(), t("scores.referee.open"), h("kbd", { "aria-hidden": "true" }, "R"));
  refereeButton.addEventListener("click", () => referee.open());
  const finishButton = h("button", { type: "button", class: "secondary sk-finish" });
  finishButton.addEventListener("click", () => writes.setFinished(!state.match.finished));
  const deleteButton = confirmButton(t("scores.delete"), t("scores.delete_confirm"), async () => {
    try {
      await sendJSON(`/api/matches/${state.match.id}`, {}, "DELETE", keyHeaders());
      forgetKey(state.match.id);
      announce(t("scores.deleted", { title: matchTitle(state.match) }));
      ctx.navigate("#/scores");
    } catch (error) {
      errors.show(describeError(error));
    }
  });
  const actions = h("div", { class: "sk-actions", role: "group", "aria-label": t("scores.actions") }, undoButton, refereeButton);

  const title = h("h1", { class: "sk-match-title", tabindex: "-1" });
  const chips = h("p", { class: "sk-match-chips" });
  const head = h("header", { class: "sk-match-head" },
    h("div", { class: "sk-head-row" },
      h("a", { class: "sk-back", href: "#/scores" }, h("span", { "aria-hidden": "true" }, "←"), t("scores.back")),
      deleteButton),
    title, chips);

  const timer = createTimer(first, {
    current: () => state.match, heading: title,
    onStart: () => writes.startTimer(), onStop: () => writes.stopTimer(), onCount: () => writes.recordCounts(),
  });

  const rulesHolder = h("div", { class: "panel sk-rules-panel" });
  const drawRules = rulesHolderDrawer(rulesHolder, { delay: 0 });
  const history = h("ol", { class: "sk-history", reversed: true });
  const historySection = h("section", { class: "panel sk-history-panel", "aria-labelledby": "sk-history-title" },
    h("h2", { id: "sk-history-title" }, t("scores.history.title")), history);
  const watchOnly = h("p", { class: "sk-watch-only hint", role: "note", hidden: true }, t("scores.watch_only"));
  const toast = createToast(() => writes.undo());

  view.append(head,
    h("div", { class: "sk-match-grid" },
      h("div", { class: "sk-match-main" }, banner, watchOnly, timer.element, board.element, errors.el, actions,
        h("div", { class: "sk-more" }, h("p", { class: "sk-keys hint" }, ...withKeys(t("scores.keys"))), finishButton)),
      h("aside", { class: "sk-match-side", "aria-label": t("scores.side") }, sharePanel(first.id), rulesHolder, historySection)),
    toast.element);

  const referee = createReferee(view, meta, () => state.match);
  const writes = matchWrites({ state, view, errors, timer, board, toast, finishButton, update });

  function update() {
    const m = state.match;
    document.title = `${matchTitle(m)} · ${t("scores.title")}`;
    title.textContent = matchTitle(m);
    drawChips(chips, m, meta);
    board.update(m);
    watchOnly.hidden = m.can_change;
    drawBanner(banner, m);
    drawUndo(undoButton, m);
    finishButton.textContent = m.finished ? t("scores.reopen") : t("scores.finish");
    // A phone without the match's key watches: only what it may do is offered.
    finishButton.hidden = !m.can_change;
    deleteButton.hidden = !m.can_change;
    refereeButton.disabled = false;
    drawRules(nest(m.rules.preset, m.rules_values), m.players.length);
    drawHistory(history, m);
    timer.update();
  }

  // ---------------------------------------------------------------- keyboard and refresh

  /** @param {KeyboardEvent} event */
  function onKey(event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (referee.isOpen()) return;
    const target = event.target;
    if (target instanceof HTMLElement && (target.closest("input, select, textarea, [contenteditable]"))) return;
    const key = event.key;
    if (/^[1-9]$/.test(key)) {
      const index = Number(key) - 1;
      if (index < state.match.players.length && !state.match.finished) {
        event.preventDefault();
        board.focus(index);
        writes.recordWinner(index);
      }
    } else if (key === "u" || key === "U") {
      event.preventDefault();
      writes.undo();
    } else if (key === "r" || key === "R") {
      event.preventDefault();
      referee.open();
    } else if ((key === "t" || key === "T") && state.match.timer_s) {
      event.preventDefault();
      writes.startTimer();
    }
  }
  const onVisible = () => { if (document.visibilityState === "visible" && !state.busy) writes.reload(); };
  document.addEventListener("keydown", onKey);
  document.addEventListener("visibilitychange", onVisible);
  timers.push(setInterval(() => { if (document.visibilityState === "visible" && !state.busy) writes.reload(); }, POLL_MS));
  timers.push(setInterval(() => { if (timer.ticking()) timer.update(); }, 250));

  timer.sync();
  // A reload after the time ran out shows the count form, but only a live countdown beeps.
  timer.opened();
  title.focus({ preventScroll: true });
  update();

  return () => {
    for (const interval of timers) clearInterval(interval);
    document.removeEventListener("keydown", onKey);
    document.removeEventListener("visibilitychange", onVisible);
    toast.stop();
    referee.close();
    document.title = t("app.title");
  };
}

// ---------------------------------------------------------------------------------------- writes

/**
 * What the writes work on: the page's state (the match as last drawn, and whether a write is under way),
 * its parts, and the function that draws the whole match again.
 * @typedef {{ state: { match: ScoreMatch, busy: boolean }, view: HTMLElement, errors: ErrorBox,
 *   timer: ReturnType<typeof createTimer>, board: ReturnType<typeof createBoard>,
 *   toast: ReturnType<typeof createToast>, finishButton: HTMLButtonElement, update: () => void }} MatchPage
 */

/**
 * The changes a page makes to its match, and the reload that fetches other phones' changes.
 * @param {MatchPage} page
 */
function matchWrites({ state, view, errors, timer, board, toast, finishButton, update }) {

  /**
   * Send a change; the server answers with the whole match, which is drawn, then `describe`d.
   * @param {string} path after the match's address
   * @param {unknown} body
   * @param {(match: ScoreMatch) => void} [describe]
   * @returns {Promise<boolean>} whether the server took it
   */
  async function act(path, body, describe) {
    if (state.busy || !state.match.can_change) return false; // keys pressed on a phone that only watches
    state.busy = true;
    errors.hide();
    view.setAttribute("aria-busy", "true");
    try {
      state.match = await sendJSON(`/api/matches/${state.match.id}${path}`, body, "POST", keyHeaders());
      timer.sync();
      update();
      if (describe) describe(state.match);
      return true;
    } catch (error) {
      errors.show(`${t("scores.error.save")} ${describeError(error)}`);
      announce(t("scores.error.save"), { urgent: true });
      await reload();
      return false;
    } finally {
      state.busy = false;
      view.removeAttribute("aria-busy");
    }
  }

  /** @param {number} index */
  async function recordWinner(index) {
    const m = state.match;
    if (m.finished || index >= m.players.length) return;
    const ok = await act("/rounds", { winner: index, rounds: m.rounds.length }, (after) => {
      const round = after.rounds[after.rounds.length - 1];
      tell(t("scores.recorded", { n: round.number, name: after.players[index] }) + " " + standing(after));
      board.bump(index);
    });
    if (ok) timer.closeCount();
  }

  async function recordCounts() {
    const m = state.match;
    const counts = timer.readCounts();
    if (!counts) return;
    const ok = await act("/rounds", { cards: counts, rounds: m.rounds.length }, (after) => {
      const round = after.rounds[after.rounds.length - 1];
      tell((round.winner === null
        ? t("scores.recorded_draw", { n: round.number })
        : t("scores.recorded_cards", { n: round.number, name: after.players[round.winner], cards: counts[round.winner] })) + " " + standing(after));
      if (round.winner !== null) board.bump(round.winner);
    });
    if (ok) {
      timer.counted();
      timer.update();
      if (state.match.finished) finishButton.focus();
      else board.focus(0);
    }
  }

  /**
   * A round recorded, said to screen readers and shown with a way to undo it.
   * @param {string} message
   */
  function tell(message) {
    announce(message);
    toast.show(message, !state.match.finished);
  }

  async function undo() {
    const m = state.match;
    const last = m.rounds[m.rounds.length - 1];
    if (!last || m.finished) return;
    await act("/undo", { rounds: m.rounds.length }, (after) => {
      const message = t("scores.undone", { n: last.number, who: roundWinner(m, last) }) + " " + standing(after);
      announce(message);
      toast.show(message, false);
    });
  }

  async function startTimer() {
    if (!state.match.timer_s || state.match.finished) return;
    timer.started();
    await act("/timer", {}, (after) => {
      timer.rearm();
      announce(t("scores.timer.started", { time: clock(after.timer_s) }));
    });
  }

  async function stopTimer() {
    if (state.match.finished) return;
    timer.closeCount();
    await act("/timer", { action: "stop" }, () => {
      timer.rearm();
      announce(t("scores.timer.stopped"));
      timer.focusStart();
    });
  }

  /** @param {boolean} finished */
  async function setFinished(finished) {
    await act("/finish", { finished }, (after) => {
      const message = finished ? t("scores.finished_announce", { standing: standing(after) || t("scores.banner.none") }) : t("scores.reopened");
      announce(message);
      if (!finished) board.focus(0);
      else finishButton.focus();
    });
  }

  // The match as the server has it now (another phone may have changed it); drawn again only if it changed.
  async function reload() {
    try {
      /** @type {ScoreMatch} */
      const fresh = await getJSON(`/api/matches/${state.match.id}`, keyHeaders());
      const changed = fresh.updated !== state.match.updated;
      state.match = fresh;
      timer.sync();
      if (changed) update();
    } catch (error) {
      if (!(error instanceof TypeError)) {
        errors.show(`${t("scores.missing.text")} (${describeError(error)})`);
      }
    }
  }

  return { recordWinner, recordCounts, undo, startTimer, stopTimer, setFinished, reload };
}

// ---------------------------------------------------------------------------------------- drawing

/**
 * The match's chips: its preset, its players, its timer, and whether it is finished.
 * @param {HTMLElement} chips
 * @param {ScoreMatch} m
 * @param {Meta} meta
 */
function drawChips(chips, m, meta) {
  clear(chips);
  chips.append(...[
    h("span", { class: "chip" }, presetLabel(meta, m.rules.preset)),
    h("span", { class: "chip" }, tn("scores.players_count", m.players.length)),
    m.timer_s ? h("span", { class: "chip" }, t("scores.list.timer", { time: clock(m.timer_s) })) : null,
    m.finished ? h("span", { class: "chip sk-chip-done" }, t("scores.status.finished")) : h("span", { class: "chip sk-chip-live" }, t("scores.status.live")),
  ].filter((chip) => chip !== null));
}

/**
 * Who won a finished match (shown only then).
 * @param {HTMLElement} banner
 * @param {ScoreMatch} m
 */
function drawBanner(banner, m) {
  banner.hidden = !m.finished;
  clear(banner);
  if (!m.finished) return;
  const names = m.leaders.map((i) => m.players[i]);
  const text = !names.length ? t("scores.banner.none")
    : names.length === 1 ? t("scores.banner.winner", { name: names[0], score: scoreLine(m) })
      : t("scores.banner.shared", { names: listText(names), score: scoreLine(m) });
  banner.append(h("span", { class: "sk-banner-crown", "aria-hidden": "true" }, "♛"), h("span", {}, text));
}

/**
 * The undo button, saying which round it would take back.
 * @param {HTMLButtonElement} undoButton
 * @param {ScoreMatch} m
 */
function drawUndo(undoButton, m) {
  const last = m.rounds[m.rounds.length - 1];
  clear(undoButton);
  undoButton.append(h("span", { class: "sk-undo-icon", "aria-hidden": "true" }, "↶"),
    h("span", { class: "sk-undo-text" }, h("span", {}, t("scores.undo")),
      last ? h("small", {}, t("scores.undo_detail", { n: last.number, who: roundWinner(m, last) })) : null),
    h("kbd", { "aria-hidden": "true" }, "U"));
  undoButton.disabled = !last || m.finished || !m.can_change;
}

/**
 * The rounds, newest first.
 * @param {HTMLOListElement} history
 * @param {ScoreMatch} m
 */
function drawHistory(history, m) {
  clear(history);
  if (!m.rounds.length) history.append(h("li", { class: "sk-history-empty" }, t("scores.history.empty")));
  for (const round of [...m.rounds].reverse()) {
    history.append(h("li", { class: round.winner === null ? "draw" : "", value: round.number },
      h("span", { class: "sk-h-num" }, t("scores.history.round", { n: round.number })),
      h("span", { class: "sk-h-who" }, roundWinner(m, round)),
      round.cards ? h("span", { class: "sk-h-cards" }, round.cards.map((c, i) => `${m.players[i]} ${c}`).join(" · ")) : null));
  }
}

/**
 * The wins, most first: "3–1–0".
 * @param {ScoreMatch} m
 */
function scoreLine(m) {
  return [...m.wins].sort((a, b) => b - a).join("–");
}

/**
 * @param {ScoreMatch} m
 * @param {ScoreRound} round
 */
function roundWinner(m, round) {
  return round.winner === null ? t("scores.history.draw") : m.players[round.winner];
}

/**
 * Who leads, and with how many wins ("" before any).
 * @param {ScoreMatch} m
 */
function standing(m) {
  if (!m.leaders.length) return "";
  const best = m.wins[m.leaders[0]];
  // "with 2 wins" as a whole: German's "mit" takes the dative ("mit 2 Siegen"), not the plain "2 Siege".
  if (m.leaders.length === 1) return t("scores.standing.leads", { name: m.players[m.leaders[0]], wins: tn("scores.with_wins_n", best) });
  return t("scores.standing.tied", { names: listText(m.leaders.map((i) => m.players[i])), wins: tn("scores.with_wins_n", best) });
}

/**
 * A message about the round just recorded, for a few seconds, with an undo button where it may be undone.
 * @param {() => void} onUndo
 */
function createToast(onUndo) {
  const element = h("div", { class: "sk-toast", hidden: true });
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  return {
    element,
    /**
     * @param {string} message
     * @param {boolean} withUndo
     */
    show(message, withUndo) {
      clear(element);
      element.append(h("span", {}, message));
      if (withUndo) {
        const button = h("button", { type: "button", class: "ghost" }, t("scores.undo"));
        button.addEventListener("click", () => { element.hidden = true; onUndo(); });
        element.append(button);
      }
      element.hidden = false;
      clearTimeout(timer);
      timer = setTimeout(() => { element.hidden = true; }, 5000);
    },
    stop: () => clearTimeout(timer),
  };
}

/**
 * The link that lets another phone at the table keep this score (it carries the match's key); nothing on a
 * phone without the key.
 * @param {string} id
 */
function sharePanel(id) {
  const link = shareLink(id);
  if (!link) return null;
  const field = h("input", { type: "text", readonly: true, value: link, class: "sk-share-link", "aria-label": t("scores.share.title") });
  field.addEventListener("focus", () => field.select());
  const status = h("span", { class: "sk-share-status", role: "status" });
  const copy = h("button", { type: "button", class: "secondary sk-share-copy" }, t("scores.share.copy"));
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(link);
      status.textContent = t("scores.share.copied");
    } catch {
      field.focus(); // no clipboard (plain http on a phone): the link is selected for a manual copy
    }
  });
  return h("details", { class: "panel sk-share" },
    h("summary", {}, t("scores.share.title")),
    h("p", { class: "hint" }, t("scores.share.text")),
    field, h("div", { class: "sk-share-actions" }, copy, status));
}
