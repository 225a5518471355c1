// @ts-check
// A match's round timer: the clock counting down (from the server's remaining time, on this page's own clock),
// its buttons, and the form where each player's cards are counted when the time is up (or earlier, on demand).
import { h, clear, announce } from "../../dom.js";
import { t } from "../../i18n.js";
import { clock, errorBox } from "./parts.js";
/** @import { ScoreMatch } from "../../types.js" */

/**
 * What the timer asks of its page: the match as it is now, the page's heading (a focus that may be taken
 * when the time is up), and what its buttons do.
 * @typedef {{ current: () => ScoreMatch, heading: HTMLElement, onStart: () => void, onStop: () => void,
 *   onCount: () => void }} TimerHooks
 */

/**
 * @param {ScoreMatch} first the match as the page opened it: its players and deck make the count form
 * @param {TimerHooks} hooks
 */
export function createTimer(first, { current, heading, onStart, onStop, onCount }) {
  /** @type {number | null} */
  let endsAt = null; // performance.now() when the round's time runs out; null: no countdown
  let expiredShown = false;
  let countOpen = false;
  let wasLive = false; // the countdown ran on this page (only then does its end beep)

  const timerClock = h("div", { class: "sk-clock", role: "timer", "aria-live": "off" });
  const timerBarFill = h("span");
  const timerBar = h("div", { class: "sk-clock-bar" }, timerBarFill);
  const timerStatus = h("p", { class: "sk-clock-status" });
  const timerStart = h("button", { type: "button", class: "sk-timer-start", "aria-keyshortcuts": "T" });
  timerStart.addEventListener("click", () => onStart());
  const timerStop = h("button", { type: "button", class: "secondary sk-timer-stop" }, t("scores.timer.stop"));
  timerStop.addEventListener("click", () => onStop());
  const countToggle = h("button", { type: "button", class: "secondary sk-count-toggle", "aria-expanded": "false" }, t("scores.timer.count_now"));
  countToggle.addEventListener("click", () => { countOpen = !countOpen; update(); if (countOpen) count.focus(); });
  const count = createCountForm(first, current, onCount);
  const countForm = count.element;
  const element = h("section", { class: "sk-timer", "aria-labelledby": "sk-timer-title", hidden: true },
    h("div", { class: "sk-timer-main" },
      h("div", { class: "sk-timer-text" },
        h("h2", { id: "sk-timer-title" }, t("scores.timer.title")),
        timerStatus),
      timerClock,
      h("div", { class: "sk-timer-buttons" }, timerStart, timerStop, countToggle)),
    timerBar, countForm);

  // The countdown again from the match the server sent.
  function sync() {
    const m = current();
    endsAt = m.timer_s && m.remaining_s !== null && m.remaining_s !== undefined
      ? performance.now() + m.remaining_s * 1000 : null;
    if (endsAt === null) expiredShown = false;
  }

  /** @returns {number | null} seconds left, null without a countdown */
  function remaining() {
    return endsAt === null ? null : Math.max(0, (endsAt - performance.now()) / 1000);
  }

  function update() {
    const m = current();
    element.hidden = !m.timer_s;
    if (!m.timer_s) return;
    const left = remaining();
    const running = left !== null && left > 0;
    const expired = left !== null && left <= 0;
    element.classList.toggle("running", running);
    element.classList.toggle("expired", expired);
    timerClock.textContent = clock(left === null ? m.timer_s : left);
    timerClock.setAttribute("aria-label", t("scores.timer.left", { time: clock(left === null ? m.timer_s : left) }));
    timerBarFill.style.width = `${left === null ? 100 : (100 * left) / m.timer_s}%`;
    timerStatus.textContent = m.finished ? t("scores.timer.finished")
      : expired ? t("scores.timer.up") : running ? t("scores.timer.running") : t("scores.timer.idle", { time: clock(m.timer_s) });
    clear(timerStart);
    timerStart.append(running || expired ? t("scores.timer.restart") : t("scores.timer.start"), h("kbd", { "aria-hidden": "true" }, "T"));
    timerStart.classList.toggle("secondary", running || expired);
    timerStart.disabled = m.finished || !m.can_change;
    timerStop.hidden = m.finished || !(running || expired) || !m.can_change;
    const showCount = !m.finished && m.can_change && (expired || countOpen);
    countForm.hidden = !showCount;
    countToggle.hidden = m.finished || expired || !m.can_change;
    countToggle.setAttribute("aria-expanded", String(showCount));
    countToggle.textContent = countOpen ? t("scores.timer.count_hide") : t("scores.timer.count_now");
    if (expired && !expiredShown) {
      expiredShown = true;
      if (!m.finished) timeIsUp();
    }
  }

  function timeIsUp() {
    announce(t("scores.timer.up_announce"), { urgent: true });
    count.summarize();
    if (!wasLive) return; // a page opened after the time ran out just shows the count form
    beep();
    const active = document.activeElement;
    if (!active || active === document.body || active === heading || active === timerStart) count.focus();
  }

  return {
    element,
    sync,
    update,
    /** Whether a countdown is on (the page redraws the clock while it is). */
    ticking: () => endsAt !== null,
    /** Once the page opened: a countdown already running beeps at its end, one that already ran out does not. */
    opened() {
      const left = remaining();
      wasLive = left !== null && left > 0;
    },
    /** A countdown started from this page. */
    started() {
      wasLive = true;
      countOpen = false;
    },
    closeCount() {
      countOpen = false;
    },
    /** The end of the next countdown is said again. */
    rearm() {
      expiredShown = false;
    },
    readCounts: count.read,
    /** The counts were recorded: the form is emptied and closed. */
    counted() {
      count.empty();
      countOpen = false;
    },
    focusStart: () => timerStart.focus(),
  };
}

/**
 * The form where each player's cards are counted: the total so far and who would win, and the counts read
 * and checked when it is sent.
 * @param {ScoreMatch} first
 * @param {() => ScoreMatch} current
 * @param {() => void} onCount the form was sent
 */
function createCountForm(first, current, onCount) {
  const countInputs = first.players.map((name, i) => h("input", {
    type: "number", inputmode: "numeric", min: 0, max: first.deck_size, step: 1, id: `sk-count-${i}`, required: true,
  }));
  const countSummary = h("p", { class: "sk-count-summary" });
  const countErrors = errorBox();
  const element = h("form", { class: "sk-count-form", novalidate: true, hidden: true },
    h("h3", {}, t("scores.count.title")),
    h("p", { class: "hint" }, t("scores.count.hint")),
    h("div", { class: "sk-count-grid" }, first.players.map((name, i) =>
      h("div", { class: "sk-count-cell" }, h("label", { for: `sk-count-${i}` }, name), countInputs[i]))),
    countSummary, countErrors.el,
    h("button", { type: "submit", class: "sk-count-submit" }, t("scores.count.submit")));
  for (const input of countInputs) input.addEventListener("input", () => updateCountSummary());
  element.addEventListener("submit", (event) => { event.preventDefault(); onCount(); });

  function updateCountSummary() {
    const m = current();
    const values = countInputs.map((input) => (input.value === "" ? null : Number(input.value)));
    const filled = values.filter(isCount);
    clear(countSummary);
    const total = filled.reduce((a, b) => a + b, 0);
    countSummary.append(t("scores.count.total", { n: total, deck: m.deck_size }));
    if (filled.length === values.length && total > 0) {
      const best = Math.max(...filled); // every value is filled in
      const top = values.map((v, i) => (v === best ? i : -1)).filter((i) => i >= 0);
      countSummary.append(" · ", h("strong", {}, top.length === 1
        ? t("scores.count.would_win", { name: m.players[top[0]] }) : t("scores.count.would_draw")));
    }
  }

  /**
   * The counts typed in, each a whole number of the match's cards; null (and the form says which is wrong,
   * with the focus there) when one is not, or when they add up to none or to more than the deck.
   * @returns {number[] | null}
   */
  function readCounts() {
    const m = current();
    countErrors.hide();
    const counts = [];
    for (const [i, input] of countInputs.entries()) {
      const value = input.value.trim() === "" ? NaN : Number(input.value);
      if (!Number.isInteger(value) || value < 0 || value > m.deck_size) {
        countErrors.show(t("scores.count.invalid", { name: m.players[i], max: m.deck_size }));
        input.focus();
        return null;
      }
      counts.push(value);
    }
    const total = counts.reduce((a, b) => a + b, 0);
    if (total === 0 || total > m.deck_size) {
      countErrors.show(t(total === 0 ? "scores.count.zero" : "scores.count.too_many", { n: total, deck: m.deck_size }));
      countInputs[0].focus();
      return null;
    }
    return counts;
  }

  return {
    element,
    summarize: updateCountSummary,
    read: readCounts,
    empty() {
      for (const input of countInputs) input.value = "";
    },
    focus: () => countInputs[0]?.focus(),
  };
}

/**
 * @param {number | null} value
 * @returns {value is number}
 */
function isCount(value) {
  return value !== null && Number.isInteger(value) && value >= 0;
}

// Three short tones and a buzz where the phone can: the round's time is up.
function beep() {
  try {
    const AudioCtx = window.AudioContext || window.webkitAudioContext;
    if (!AudioCtx) return;
    const audio = new AudioCtx();
    [0, 0.25, 0.5].forEach((offset, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = i === 2 ? 988 : 784;
      gain.gain.setValueAtTime(0.0001, audio.currentTime + offset);
      gain.gain.exponentialRampToValueAtTime(0.25, audio.currentTime + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + offset + 0.22);
      osc.connect(gain).connect(audio.destination);
      osc.start(audio.currentTime + offset);
      osc.stop(audio.currentTime + offset + 0.25);
    });
    setTimeout(() => audio.close(), 1200);
    navigator.vibrate?.([200, 100, 200]);
  } catch { /* sound is a nicety */ }
}
