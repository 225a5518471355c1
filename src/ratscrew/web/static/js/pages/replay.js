// @ts-check
// The replay viewer (#/replay/ID for a finished game, #/replay/file for a record file): steps through a game
// action by action, by hand or playing on its own at a chosen speed. The server's engine replays the record and
// sends every step (the events and the table as a spectator sees it); this page only shows them, so it never
// re-implements a rule, and it says each event in the live table's words (table/verdicts.js: a wrong slap's
// "no pattern in..." or "too late: ... covered ...").
import { useStyles } from "../styles.js";
import { h, clear, announce } from "../dom.js";
import { lang, t } from "../i18n.js";
import { OfflineError, RequestError, getJSON, sendJSON } from "../api.js";
import { cardFace, cardName } from "../cards.js";
import { pref, setPref } from "../prefs.js";
import { eventWords, newMemory, remember, verdictWords } from "../table/verdicts.js";
/** @import { GameView, PageContext, ReplayPage, ReplayStep } from "../types.js" */
/** @import { EventWords, Voice } from "../table/verdicts.js" */

/**
 * The facts of the whole game that come with every page of steps.
 * @typedef {Omit<ReplayPage, "steps">} ReplayInfo
 */

const PAGE = 1000; // steps per answer, the server's largest page
const PILE_SHOWN = 7;
const SPEEDS = [0.5, 1, 2, 4];
const STEP_MS = 900; // between two steps while the replay plays at 1x
// What a record file says it is (record.py's FORMAT): a file that says otherwise is no game record at all.
const RECORD_FORMAT = "ratscrew-record/1";
/** @type {{ name: string, doc: unknown } | null} */
let pendingFile = null; // a record chosen on the history page, shown at #/replay/file

export function ensureStyle() {
  return useStyles("history");
}

/**
 * Read a chosen or dropped file; a record goes to the viewer, anything else is explained in `errorBox`.
 * @param {File} file
 * @param {PageContext} ctx
 * @param {HTMLElement} errorBox
 */
export async function offerFile(file, ctx, errorBox) {
  errorBox.hidden = true;
  let doc;
  try {
    doc = JSON.parse(await file.text());
  } catch {
    errorBox.textContent = t("replay.unreadable");
    errorBox.hidden = false;
    return;
  }
  if (typeof doc !== "object" || doc === null || doc.format !== RECORD_FORMAT) {
    errorBox.textContent = t("replay.not_record", { format: RECORD_FORMAT });
    errorBox.hidden = false;
    return;
  }
  pendingFile = { name: file.name, doc };
  ctx.navigate("#/replay/file");
}

/** @param {number} number the card's number in the game */
function tilt(number) {
  return { rot: ((number * 47) % 29) - 14, dx: ((number * 13) % 19) - 9, dy: ((number * 7) % 11) - 5 };
}

/** @typedef {"landed" | "after"} Half which half of a slap's step that took the pile is shown */

/**
 * Where the pile is taken among a slap's events (the events from there on are the collection), or null when
 * the step is no slap that took the pile.
 * @param {ReplayStep} step
 * @returns {number | null}
 */
function taken(step) {
  if (!step.landed) return null;
  const at = step.events.findIndex((event) => event.kind === "pile_won");
  return at > 0 ? at : null;
}

/**
 * Each event of a step in the words the live table uses for it (one source: table/verdicts.js), a verdict
 * with its reason: a wrong slap on what it landed on, or too late on the card that covered its pattern.
 * A replay speaks of every seat by its name: whoever watches, nobody is "you" in it.
 * @param {ReplayStep} step
 * @param {Voice} voice
 * @returns {EventWords[]}
 */
function stepWords(step, voice) {
  const memory = newMemory(); // what a verdict needs of the events before it in this step (a won slap's patterns)
  return step.events.map((event) => {
    const words = verdictWords(event, step.seen ?? null, memory, voice) ?? eventWords(event, voice);
    remember(memory, event);
    return words;
  });
}

/** The speed the replay plays at, as this browser last chose it (1x at first). */
function keptSpeed() {
  const kept = Number(pref("replay_speed", 1));
  return SPEEDS.includes(kept) ? kept : 1;
}

/**
 * The viewer of one record: the table at a step, the buttons, the slider and the keys that move it.
 * @param {unknown} doc the record, as the server reads it
 * @param {string} title
 * @param {{ download?: { href: string, name: string } | null, gameId?: string | null }} [options] `gameId`: the
 *   game's code on this server (its problems are told by it), none for a record file
 */
function createViewer(doc, title, { download = null, gameId = null } = {}) {
  /** @type {ReplayInfo | null} */
  let info = null;
  const source = stepSource(doc, (facts) => { info = facts; });
  /** @type {{ name: string }[]} */
  let seats = [];
  let current = 0;
  // At a slap that took the pile, the step is shown in two: the pile as the slap landed on it ("landed"),
  // then the pile taken ("after").
  /** @type {Half} */
  let half = "after";
  /** @type {object | null} */
  let busy = null;
  let started = false;

  let speed = keptSpeed();
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let playTimer;
  let playing = false;

  const { element, playerLine, status, stepText, turnLine, seatList, pileBox, pileCount, events, finalList, slider,
    buttons: { first, prevSlap, prev, next, nextSlap, last }, playButton, speedSelect, board, controls, after } = viewerParts(title, download);
  speedSelect.value = String(speed);
  // A move by hand stops the replay playing on its own: the player has taken over.
  first.addEventListener("click", () => { pause(); go(0); });
  prevSlap.addEventListener("click", () => { pause(); go(slapBefore(current)); });
  prev.addEventListener("click", () => { pause(); goBack(); });
  next.addEventListener("click", () => { pause(); goOn(); });
  nextSlap.addEventListener("click", () => { pause(); go(slapAfter(current)); });
  last.addEventListener("click", () => { pause(); go(loaded().total - 1, "after"); });
  slider.addEventListener("input", () => { pause(); go(Number(slider.value)); });
  playButton.addEventListener("click", () => (playing ? pause() : play()));
  speedSelect.addEventListener("change", () => setSpeed(Number(speedSelect.value)));

  /** Whether the last step is shown, and its pile taken if a slap took it. */
  function atEnd() {
    return current === loaded().total - 1 && half === "after";
  }

  /** Play on from the step shown (from the deal again when the end is shown), a step at a time. */
  async function play() {
    if (!info) return;
    if (atEnd()) await go(0);
    playing = true;
    showPlaying();
    announce(t("replay.playing", { speed: speedText(speed) }));
    later();
  }

  function pause() {
    if (!playing) return;
    playing = false;
    clearTimeout(playTimer);
    showPlaying();
    announce(t("replay.paused"));
  }

  /** The next step after a wait as long as the speed says; the replay stops by itself at the end. */
  function later() {
    clearTimeout(playTimer);
    playTimer = setTimeout(async () => {
      if (!playing) return;
      if (!atEnd()) await goOn();
      if (!playing) return;
      if (atEnd()) pause();
      else later();
    }, STEP_MS / speed);
  }

  /** @param {number} wanted one of SPEEDS */
  function setSpeed(wanted) {
    speed = SPEEDS.includes(wanted) ? wanted : 1;
    speedSelect.value = String(speed);
    setPref("replay_speed", speed);
    if (playing) later(); // the next step comes at the new speed
  }

  function showPlaying() {
    clear(playButton).append(h("span", { "aria-hidden": "true" }, playing ? "⏸" : "▶"), " ", t(playing ? "replay.pause" : "replay.play"));
    element.dataset.playing = String(playing);
  }

  // The game's facts, once the first page came (nothing that asks for them is shown before).
  function loaded() {
    if (!info) throw new Error("the replay has not loaded yet");
    return info;
  }

  /**
   * The step of the last slap before `step` (itself when there is none).
   * @param {number} step
   */
  function slapBefore(step) {
    const earlier = loaded().slaps.filter((s) => s < step);
    return earlier.length ? earlier[earlier.length - 1] : step;
  }

  /**
   * The step of the next slap after `step` (itself when there is none).
   * @param {number} step
   */
  function slapAfter(step) {
    return loaded().slaps.find((s) => s > step) ?? step;
  }

  /** One step on: the pile taken after a slap's pile, else the next step (at a slap, its pile first). */
  function goOn() {
    if (half === "landed") go(current, "after");
    else go(current + 1);
  }

  /** One step back: a taken pile's slap before it, else the step before (a slap's with the pile taken). */
  async function goBack() {
    if (half === "after" && taken(await source.stepAt(current))) go(current, "landed");
    else go(current - 1, "after");
  }

  /**
   * Show step `index` (kept inside the game), a slap that took the pile first as it landed unless `wanted`
   * says otherwise; when several are asked for at once, the last asked wins.
   * @param {number} index
   * @param {Half} [wanted]
   */
  async function go(index, wanted = "landed") {
    if (!info) return;
    const target = Math.max(0, Math.min(info.total - 1, index));
    const ticket = {};
    busy = ticket;
    try {
      const step = await source.stepAt(target);
      if (busy !== ticket) return; // a later request wins
      current = target;
      half = taken(step) ? wanted : "after";
      status.hidden = true; // a step that failed before and came now takes its complaint away
      show(step, started); // the first step is on screen as the page opens: not read out
      started = true;
    } catch (error) {
      status.className = "error-box";
      status.textContent = replayProblem(error, gameId);
      status.hidden = false;
    }
  }

  /**
   * @param {ReplayStep} step
   * @param {boolean} [spoken] whether screen readers hear it
   */
  function show(step, spoken = true) {
    const view = step.view;
    const { total } = loaded();
    slider.value = String(current);
    slider.setAttribute("aria-valuetext", t("replay.step", { n: current, total: total - 1 }));
    stepText.textContent = t("replay.step", { n: current, total: total - 1 });
    first.disabled = prev.disabled = current === 0;
    last.disabled = next.disabled = current === total - 1 && half === "after";
    prevSlap.disabled = slapBefore(current) === current;
    nextSlap.disabled = slapAfter(current) === current;
    // A button that just became disabled (Last, at the last step) would drop the focus to the page: keep it here.
    if (document.activeElement instanceof HTMLButtonElement && document.activeElement.disabled) slider.focus();

    const split = taken(step);
    const landed = half === "landed" && split !== null && step.landed !== null;
    drawPile(pileBox, pileCount, landed && step.landed ? { ...view, pile: step.landed } : view);
    drawSeats(seatList, turnLine, view, seats);
    element.dataset.half = split === null ? "" : half;
    const shownEvents = split === null ? step.events : landed ? step.events.slice(0, split) : step.events.slice(split);

    const allWords = stepWords(step, { seats, you: null, rules: loaded().rules });
    const words = split === null ? allWords : landed ? allWords.slice(0, split) : allWords.slice(split);

    clear(events);
    if (current === 0) events.append(h("li", {}, t("replay.dealt")));
    else if (!shownEvents.length) events.append(h("li", {}, t("replay.nothing")));
    shownEvents.forEach((event, i) => events.append(h("li", { dataset: { kind: event.kind } }, words[i].shown)));
    if (spoken && !playing) { // while it plays, a step is not read out: pausing it reads the step it stopped at
      const said = words.map((w) => w.spoken); // card names in words
      announce([stepText.textContent, ...(said.length ? said : [...events.children].map((li) => li.textContent))].join(". "));
    }
  }

  function showFinal() {
    const { final } = loaded();
    clear(finalList);
    final.hands.forEach((hand, seat) => {
      finalList.append(h("li", { dataset: { seat, cards: hand.length } }, t("replay.final_cards", { name: seats[seat].name, n: hand.length })));
    });
    if (final.pile.length) finalList.append(h("li", { dataset: { pile: final.pile.length } }, t("replay.pile_count", { n: final.pile.length })));
  }

  /** @param {KeyboardEvent} event */
  function onKey(event) {
    if (!info || event.altKey || event.ctrlKey || event.metaKey) return;
    const { total } = info;
    const target = event.target;
    if (target === slider && ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown"].includes(event.key)) return;
    if (target instanceof HTMLElement && target.matches("select, textarea, input:not([type=range])")) return;
    // P (or Space, away from a button, which Space presses) plays and pauses; + and - change the speed.
    if (event.key === "p" || event.key === "P" || (event.key === " " && !(target instanceof HTMLButtonElement))) {
      event.preventDefault();
      if (playing) pause();
      else play();
      return;
    }
    if (event.key === "+" || event.key === "-") {
      event.preventDefault();
      const at = SPEEDS.indexOf(speed) + (event.key === "+" ? 1 : -1);
      setSpeed(SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, at))]);
      return;
    }
    /** @type {Record<string, () => number>} */
    const moves = {
      PageDown: () => slapAfter(current), PageUp: () => slapBefore(current),
      Home: () => 0, End: () => total - 1,
    };
    if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
      event.preventDefault();
      pause();
      if (event.key === "ArrowRight") goOn();
      else goBack();
      return;
    }
    if (!(event.key in moves)) return;
    event.preventDefault();
    pause();
    go(moves[event.key](), event.key === "End" ? "after" : "landed");
  }

  async function start() {
    try {
      await source.page(0);
    } catch (error) {
      status.className = "error-box";
      status.textContent = replayProblem(error, gameId);
      return;
    }
    const { players, total } = loaded();
    seats = players.map((name) => ({ name }));
    playerLine.textContent = players.join(" · ");
    slider.max = String(total - 1);
    status.hidden = true;
    board.hidden = controls.hidden = after.hidden = false;
    showFinal();
    showPlaying();
    await go(0);
    element.dataset.ready = "true";
  }

  document.addEventListener("keydown", onKey);
  return { element, start, destroy: () => { playing = false; clearTimeout(playTimer); document.removeEventListener("keydown", onKey); } };
}

/**
 * @param {HTMLElement} view
 * @param {PageContext} ctx
 */
/**
 * The viewer's elements: title, players, status, the table at a step, the controls, and what happened.
 * @param {string} title
 * @param {{ href: string, name: string } | null} download the record's address, when it has one
 */
function viewerParts(title, download) {
  const heading = h("h1", { id: "replay-title" }, title);
  const playerLine = h("p", { class: "replay-players", id: "replay-players" });
  const status = h("p", { class: "hint", id: "replay-status", role: "status" }, t("replay.loading"));
  const stepText = h("p", { class: "replay-step", id: "replay-step" });
  const turnLine = h("p", { class: "replay-turn", id: "replay-turn" });
  const seatList = h("ol", { class: "replay-seats", id: "replay-seats", "aria-label": t("replay.seats") });
  const pileBox = h("div", { class: "replay-pile", id: "replay-pile", role: "img", "aria-label": t("replay.pile_empty") });
  const pileCount = h("p", { class: "replay-pile-count", id: "replay-pile-count" });
  const events = h("ol", { class: "replay-events", id: "replay-events", "aria-label": t("replay.events") });
  const finalList = h("ol", { class: "replay-final", id: "replay-final" });
  const slider = h("input", { type: "range", id: "replay-slider", min: "0", max: "0", value: "0", step: "1" });
  /**
   * @param {string} id
   * @param {string} key the label's message
   */
  const button = (id, key) => h("button", { type: "button", id, class: "secondary" }, t(key));
  const playButton = h("button", { type: "button", id: "replay-play", class: "replay-play" }, t("replay.play"));
  const speedSelect = h("select", { id: "replay-speed" },
    ...SPEEDS.map((value) => h("option", { value: String(value) }, speedText(value))));
  const buttons = {
    first: button("replay-first", "replay.first"),
    prevSlap: button("replay-prev-slap", "replay.prev_slap"),
    prev: button("replay-prev", "replay.prev"),
    next: button("replay-next", "replay.next"),
    nextSlap: button("replay-next-slap", "replay.next_slap"),
    last: button("replay-last", "replay.last"),
  };

  // What happened at the step is beside the pile on a wide screen, under it on a narrow one (replay CSS).
  const board = h("div", { class: "replay-board", hidden: true },
    h("section", { class: "replay-table", "aria-label": t("replay.pile") }, pileBox, pileCount, turnLine),
    h("section", { class: "replay-happened", "aria-labelledby": "replay-events-title" },
      h("h2", { id: "replay-events-title" }, t("replay.events")), events),
    h("section", { class: "replay-side" }, h("h2", {}, t("replay.seats")), seatList));
  const controls = h("div", { class: "replay-controls", role: "group", "aria-label": t("replay.controls"), hidden: true },
    h("div", { class: "replay-buttons" }, ...Object.values(buttons)),
    h("div", { class: "replay-play-row" },
      h("label", { class: "replay-slider-label", for: "replay-slider" }, t("replay.slider")),
      playButton,
      h("label", { class: "replay-speed-label", for: "replay-speed" }, t("replay.speed")), speedSelect),
    slider,
    h("p", { class: "hint replay-keys" }, t("replay.keys"), " ", t("replay.play_keys")));
  const after = h("section", { class: "replay-after", hidden: true },
    h("h2", {}, t("replay.final")), finalList);
  const element = h("section", { class: "replay", id: "replay" },
    h("p", { class: "replay-nav" }, h("a", { href: "#/history" }, t("replay.back")),
      download ? h("a", { class: "button secondary", id: "replay-download", href: download.href, download: download.name }, t("history.download")) : null),
    heading, playerLine, status, stepText, board, controls, after);
  return { element, playerLine, status, stepText, turnLine, seatList, pileBox, pileCount, events, finalList, slider, buttons,
    playButton, speedSelect, board, controls, after };
}

/**
 * A speed as the viewer shows it ("0.5×", "2×").
 * @param {number} speed
 */
function speedText(speed) {
  return t("replay.speed_x", { n: speed.toLocaleString(lang()) });
}

/**
 * The steps of a record, from the server's engine a page at a time; each page is asked for once, even when
 * several of its steps are wanted before it arrives, and a failed page may be asked for again.
 * @param {unknown} doc the record
 * @param {(info: ReplayInfo) => void} onInfo the game's facts, with every page
 */
function stepSource(doc, onInfo) {
  /** @type {Map<number, Promise<ReplayStep[]>>} */
  const pages = new Map(); // first step of a page -> the promise of its steps

  /**
   * @param {number} start
   * @returns {Promise<ReplayStep[]>}
   */
  function page(start) {
    let request = pages.get(start);
    if (!request) {
      /** @type {Promise<ReplayPage>} */
      const answer = sendJSON(`/api/replay?start=${start}&count=${PAGE}`, doc);
      request = answer.then(({ steps, ...rest }) => {
        onInfo(rest);
        return steps;
      });
      request.catch(() => pages.delete(start)); // a failed page may be asked for again
      pages.set(start, request);
    }
    return request;
  }

  return {
    page,
    /** @param {number} index */
    async stepAt(index) {
      const start = Math.floor(index / PAGE) * PAGE;
      return (await page(start))[index - start];
    },
  };
}

/**
 * The pile's top cards, each at its own slight angle, and how many lie there (and burned).
 * @param {HTMLElement} pileBox
 * @param {HTMLElement} pileCount
 * @param {GameView} view
 */
function drawPile(pileBox, pileCount, view) {
  clear(pileBox);
  const shown = view.pile.slice(-PILE_SHOWN);
  const firstNumber = view.cards - shown.length + 1;
  shown.forEach((text, i) => {
    const { rot, dx, dy } = tilt(firstNumber + i);
    pileBox.append(h("div", { class: "replay-card", dataset: { card: text }, style: `--rot:${rot}deg;--dx:${dx}px;--dy:${dy}px` },
      cardFace(text, { label: cardName(text, t) })));
  });
  const top = view.pile[view.pile.length - 1];
  pileBox.setAttribute("aria-label", top ? `${t("replay.pile")}: ${cardName(top, t)}` : t("replay.pile_empty"));
  pileCount.textContent = [t("replay.pile_count", { n: view.pile.length }),
    view.burned_count ? t("replay.burned", { n: view.burned_count }) : ""].filter(Boolean).join(" · ");
}

/**
 * Whose turn it is (and what they owe), and each seat with its cards and whether it is out or to play.
 * @param {HTMLElement} seatList
 * @param {HTMLElement} turnLine
 * @param {GameView} view
 * @param {{ name: string }[]} seats
 */
function drawSeats(seatList, turnLine, view, seats) {
  const due = seats[view.turn]?.name ?? "";
  turnLine.textContent = view.over ? "" : [t("replay.turn", { name: due }),
    view.owed ? t("replay.owes", { name: due, n: view.owed }) : ""].filter(Boolean).join(" · ");

  clear(seatList);
  view.stack_sizes.forEach((count, seat) => {
    const states = [];
    if (view.out[seat]) states.push(t("replay.out"));
    else if (!view.over && view.turn === seat) states.push(t("replay.to_play"));
    const classes = ["replay-seat", view.turn === seat && !view.over ? "due" : "", view.out[seat] ? "out" : ""].filter(Boolean).join(" ");
    seatList.append(h("li", { class: classes, id: `replay-seat-${seat}`, dataset: { seat } },
      h("span", { class: "replay-name" }, seats[seat].name),
      h("span", { class: "replay-count" }, t("replay.seat_count", { n: count })),
      h("span", { class: "replay-state" }, states.join(" · "))));
  });
}

/**
 * @param {HTMLElement} view
 * @param {PageContext} ctx
 */
export async function render(view, ctx) {
  await ensureStyle();
  const id = ctx.params[0] ?? ""; // the route always has it
  /** @type {ReturnType<typeof createViewer> | null} */
  let viewer = null;
  const errorBox = h("p", { class: "error-box", id: "file-error", role: "alert", hidden: true });

  // A record dropped on the viewer replaces the game shown.
  /** @param {DragEvent} event */
  const over = (event) => {
    if ([...(event.dataTransfer?.types ?? [])].includes("Files")) event.preventDefault();
  };
  /** @param {DragEvent} event */
  const drop = (event) => {
    event.preventDefault();
    const file = event.dataTransfer?.files?.[0];
    if (file) offerFile(file, ctx, errorBox);
  };
  view.addEventListener("dragover", over);
  view.addEventListener("drop", drop);
  const cleanup = () => {
    viewer?.destroy();
    view.removeEventListener("dragover", over);
    view.removeEventListener("drop", drop);
  };

  if (id === "file") {
    if (!pendingFile) {
      // Reloaded, or opened from a bookmark: the file is gone, so ask for it again.
      const input = h("input", { type: "file", id: "record-file", accept: ".json,application/json" });
      input.addEventListener("change", () => {
        if (input.files?.[0]) offerFile(input.files[0], ctx, errorBox);
      });
      view.append(h("section", { class: "replay panel" }, h("h1", {}, t("replay.title")), h("p", { class: "hint" }, t("history.file_hint")),
        h("label", { for: "record-file" }, t("history.choose_file")), " ", input, errorBox));
      return cleanup;
    }
    const { name, doc } = pendingFile;
    viewer = createViewer(doc, t("replay.of_file", { name }));
  } else {
    let doc;
    try {
      doc = await getJSON(`/api/games/${encodeURIComponent(id)}/record`);
    } catch (error) {
      view.append(h("section", { class: "replay panel" }, h("h1", {}, t("replay.title")),
        h("p", { class: "error-box", id: "replay-missing" }, replayProblem(error, id)),
        h("a", { href: "#/history" }, t("replay.back"))));
      return cleanup;
    }
    viewer = createViewer(doc, t("replay.of", { id }), { download: { href: `/api/games/${id}/record`, name: `ratscrew-${id}.json` }, gameId: id });
  }
  view.append(viewer.element, errorBox);
  await viewer.start();
  return cleanup;
}

/**
 * What went wrong fetching or replaying a game, in the player's words, with what to do about it. The server's
 * own line is English: only the check of a record file is quoted (the player chose the file and can mend it);
 * for a game of this server the sentence names the game instead.
 * @param {unknown} error
 * @param {string | null} id the game's code, or null for a record file
 * @returns {string}
 */
export function replayProblem(error, id) {
  if (error instanceof OfflineError) return t("app.offline");
  if (!(error instanceof RequestError)) return t("replay.error.unreadable");
  const { status } = error;
  if (status === 404 && id !== null) return t("replay.missing", { id });
  if (status === 409 && id !== null) return t("replay.error.live", { id });
  if (status === 429) return t("replay.error.too_many");
  if (status === 503) return t("replay.error.busy");
  if (status === 400 && id === null) return t("replay.bad_record", { error: error.message });
  if (status === 400 && id !== null) return t("replay.error.refused", { id });
  return t("replay.error.server", { status });
}
