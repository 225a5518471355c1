// The live table, shared by a game against the computer (#/game/...) and an online room (#/room/...): the
// felt, the seats with their names, connection and delay, the pile, the buttons, what happened, and the
// end-of-game summary. It never decides a rule: it sends flips and slaps and shows what the server says.
import { h, clear, announce, reducedMotion } from "./dom.js";
import { t, tn } from "./i18n.js";
import { pref, setPref } from "./prefs.js";
import { playSound, soundControls } from "./sound.js";
import { cardBack, cardFace, cardName, miniCards } from "./cards.js";
import { describe, seatName } from "./format.js";
import { fillChips, rulesSummary } from "./summary.js";

const SOLO_KEYS = { flip: ["f", " "], slap: ["j"] };
const LOCAL_KEYS = [{ flip: ["a"], slap: ["s"] }, { flip: ["l"], slap: ["k"] }];
const PILE_SHOWN = 7;
const FEED_LENGTH = 6;
const PAINTS_KEPT = 64;

function keysFor(yours, index) {
  return yours.length === 1 ? SOLO_KEYS : LOCAL_KEYS[index];
}

function keyLabel(key) {
  return key === " " ? t("game.key.space") : key.toUpperCase();
}

// Where each seat sits, in % of the felt: spread at equal distances (not equal angles, which bunch the seats
// at the ends of a long table) along a rounded-rectangle track just inside the rim, with room for the seats'
// own size, starting with the first person at the bottom middle.
function seatPositions(count, first, width, height, seatWidth, seatHeight) {
  const a = Math.max(0, width / 2 - seatWidth / 2 - 4);
  const b = Math.max(0, height / 2 - seatHeight / 2 - 4);
  const power = 2 / 2.8; // 1: an ellipse; smaller: squarer corners
  const point = (turn) => {
    const angle = Math.PI / 2 + turn * 2 * Math.PI;
    const c = Math.cos(angle);
    const s = Math.sin(angle);
    return [a * Math.sign(c) * Math.abs(c) ** power, b * Math.sign(s) * Math.abs(s) ** power];
  };
  const STEPS = 720;
  const lengths = [0];
  let previous = point(0);
  for (let i = 1; i <= STEPS; i++) {
    const next = point(i / STEPS);
    lengths.push(lengths[i - 1] + Math.hypot(next[0] - previous[0], next[1] - previous[1]));
    previous = next;
  }
  const total = lengths[STEPS] || 1;
  const positions = [];
  let j = 0;
  for (let step = 0; step < count; step++) {
    const wanted = (step * total) / count;
    while (j < STEPS && lengths[j] < wanted) j++;
    // Between two samples, by the share of the distance (the samples are far apart near the sides).
    const part = j > 0 ? (wanted - lengths[j - 1]) / Math.max(1e-9, lengths[j] - lengths[j - 1]) : 0;
    const [x, y] = point((Math.max(0, j - 1) + Math.min(1, Math.max(0, part))) / STEPS);
    positions[(first + step) % count] = { x: width ? 50 + (100 * x) / width : 50, y: height ? 50 + (100 * y) / height : 50 };
  }
  return positions;
}

// Each card lies at its own slight angle (fixed by its number, so it never jumps), fanned enough that
// the cards under the top one still show their corners.
function tilt(number) {
  return { rot: ((number * 47) % 29) - 14, dx: ((number * 13) % 19) - 9, dy: ((number * 7) % 11) - 5 };
}

// A seat's connection in words: its measured delay, or that it is away (and who holds it meanwhile).
export function connectionText(seat) {
  if (!seat || seat.kind !== "human") return "";
  if (!seat.connected) return seat.standin ? t("room.net.standin") : t("room.net.away");
  if (seat.latency_ms === null || seat.latency_ms === undefined) return t("room.net.connected");
  return t("room.net.latency", { n: Math.round(seat.latency_ms) });
}

export function connectionClass(seat) {
  if (!seat || seat.kind !== "human") return "";
  if (!seat.connected) return "net-away";
  return seat.latency_ms > 150 ? "net-slow" : "net-ok";
}

// options: send(message), actions(summary, yours) -> elements for the summary's buttons.
export function createTable({ send, actions = () => [] }) {
  let seats = [];
  let yours = [];
  let rules = null;
  let state = null;
  let shownCards = 0;
  let startedAt = performance.now();
  let currentGame = null;
  let applied = 0; // events applied (the tests compare pages by it)
  const paintedAt = new Map(); // card number -> performance.now() at its first paint
  const flippers = new Map();
  let announceCards = Boolean(pref("announceCards", false)); // every card turned, read out (off: the pace is kept)
  let pausable = false; // a game against the computer (or two on one screen): the server stops its clock on request

  const felt = h("div", { class: "felt", role: "group", "aria-label": t("game.table") });
  const pileBox = h("div", { class: "pile", id: "pile", role: "button", tabindex: "-1", "aria-label": t("game.pile") });
  const pileCount = h("div", { class: "pile-count" });
  const burnedBox = h("div", { class: "burned", hidden: true });
  // The slap window after a won challenge, in words: the ring around the pile is only an animation.
  const windowFlag = h("p", { class: "slap-window", id: "slap-window", hidden: true });
  const statusLine = h("p", { class: "status-line", id: "status-line", role: "status" });
  const waitRing = h("div", { class: "wait-ring", hidden: true, "aria-hidden": "true" });
  const center = h("div", { class: "center" }, waitRing, pileBox, pileCount, burnedBox, windowFlag);
  const seatList = h("div", { class: "table-seats", id: "table-seats", role: "list", "aria-label": t("access.seats") });
  // One line of chips that scrolls sideways on a narrow screen: it takes the keyboard's focus so it can be scrolled.
  const chips = h("div", { class: "rule-chips table-chips", id: "table-rules", role: "group", tabindex: "0", "aria-label": t("game.agreed_rules") });
  const feed = h("ol", { class: "feed", id: "feed", "aria-label": t("game.feed") });
  const controls = h("div", { class: "controls", id: "controls" });
  const clock = h("span", { class: "clock", role: "timer", "aria-label": t("game.clock") });
  const toast = h("div", { class: "toast", hidden: true, "aria-hidden": "true" });
  const pausedFlag = h("div", { class: "paused-flag", id: "paused-flag", hidden: true },
    h("strong", {}, t("access.paused_title")), h("span", {}, t("access.paused_hint")));
  const overlay = h("div", { class: "overlay", hidden: true, role: "dialog", "aria-modal": "true", "aria-labelledby": "over-title" });
  const seatEls = [];
  felt.append(seatList, center, toast, pausedFlag);

  const announceBox = h("input", { type: "checkbox", id: "announce-cards", checked: announceCards });
  announceBox.addEventListener("change", () => { announceCards = announceBox.checked; setPref("announceCards", announceCards); });
  const settings = h("details", { class: "table-settings", id: "table-settings" },
    h("summary", {}, t("access.settings")),
    h("div", { class: "table-settings-body" },
      ...soundControls(),
      h("label", { class: "check" }, announceBox, " ", t("access.announce_cards")),
      h("p", { class: "hint" }, t("access.announce_hint"))));

  const element = h("section", { class: "game" },
    h("div", { class: "game-head" }, h("h1", { class: "visually-hidden" }, t("game.title")), chips, clock),
    felt, statusLine, controls,
    // Below the fold, so the table keeps the whole screen: the settings, then what happened.
    h("div", { class: "below-table" }, settings,
      h("details", { class: "feed-wrap", open: true }, h("summary", {}, t("game.feed")), feed)),
    overlay);

  // ------------------------------------------------------------------ building the table

  // seats: the room's seats ({kind, name, level, connected, latency_ms, standin}); yours: the seats this page
  // plays; game: which game of the room this is (a new one starts from a clean table: card numbers restart).
  function setup(nextSeats, nextYours, nextRules, game = null) {
    if (game !== currentGame) {
      currentGame = game;
      state = null;
      shownCards = 0;
      applied = 0;
      paintedAt.clear();
      flippers.clear();
      clear(feed);
      hideSummary();
    }
    seats = nextSeats;
    yours = nextYours;
    rules = nextRules;
    rulesSummary(rules, seats.length).then((summary) => { if (rules === nextRules) fillChips(chips, summary); }).catch(() => {});
    for (const el of seatEls) el.remove();
    seatEls.length = 0;
    felt.dataset.crowd = seats.length > 8 ? "many" : seats.length > 4 ? "some" : "few";
    seats.forEach((seat, index) => {
      const mine = yours.includes(index);
      const stack = h("div", { class: "stack", "aria-hidden": "true" }, cardBack());
      const badge = seat.kind === "bot"
        ? t(`level.${seat.level}`)
        : (yours.length > 1 && mine ? t("game.player_n", { n: yours.indexOf(index) + 1 }) : (mine ? t("game.you") : t("game.person")));
      const el = h("div", { class: `seat${mine ? " mine" : ""}`, id: `seat-${index}`, role: "listitem", dataset: { seat: index } },
      stack,
      h("div", { class: "seat-info" },
        h("span", { class: "seat-name", title: seat.name }, seat.name),
        h("span", { class: "seat-badge" }, badge),
        h("span", { class: "seat-net" }),
        h("span", { class: "seat-count" }),
        h("span", { class: "seat-state" })));
      if (mine && yours.length === 1) stack.addEventListener("click", () => flip(index));
      seatList.append(el);
      seatEls[index] = el;
      resized.observe(el);
    });
    setSeats(seats);
    buildControls();
    if (state) { renderSeats(); renderStatus(); }
    placeSeats();
  }

  // The lobby changed (connections, delays, stand-ins): the seats say so.
  function setSeats(nextSeats) {
    if (nextSeats.length !== seats.length) return;
    seats = nextSeats;
    seats.forEach((seat, index) => {
      const el = seatEls[index];
      if (!el) return;
      const net = el.querySelector(".seat-net");
      net.textContent = connectionText(seat);
      net.className = `seat-net ${connectionClass(seat)}`;
      el.classList.toggle("away", seat.kind === "human" && !seat.connected);
    });
    if (state) renderSeats();
  }

  // Only the measured delays moved (a `latency` message): one number per seat.
  function setLatencies(latencies) {
    setSeats(seats.map((seat, index) => ({ ...seat, latency_ms: latencies[index] ?? null })));
  }

  // The seats' room depends on the felt's size and on the widest and tallest seat. Each seat may first take
  // its share of the way round the table; while two seats still overlap, all get a little narrower. The width
  // that worked is kept for this felt, so a seat whose words change starts from it (no back and forth).
  let seatRoom = { key: "", px: 0 };
  function placeSeats() {
    const width = felt.clientWidth;
    const height = felt.clientHeight;
    const key = `${width}x${height}x${seats.length}`;
    let room = seatRoom.key === key ? seatRoom.px : Math.max(56, (3.3 * Math.max(0, (width + height) / 2 - 75)) / Math.max(1, seats.length) - 14);
    for (let attempt = 0; attempt < 6; attempt++) {
      felt.style.setProperty("--seat-room", `${room}px`);
      const sizes = seatEls.map((el) => [el.offsetWidth, el.offsetHeight]);
      const seatWidth = Math.max(0, ...sizes.map(([w]) => w));
      const seatHeight = Math.max(0, ...sizes.map(([, h]) => h));
      felt.style.setProperty("--seat-h", `${seatHeight}px`);
      const positions = seatPositions(seats.length, yours[0] ?? 0, width, height, seatWidth, seatHeight);
      seatEls.forEach((el, index) => { el.style.left = `${positions[index].x}%`; el.style.top = `${positions[index].y}%`; });
      const boxes = positions.map(({ x, y }, i) => {
        const [w, h] = sizes[i];
        return [(x * width) / 100 - w / 2, (y * height) / 100 - h / 2, (x * width) / 100 + w / 2, (y * height) / 100 + h / 2];
      });
      const crowded = boxes.some((a, i) => boxes.some((b, j) => j > i && a[0] < b[2] - 1 && b[0] < a[2] - 1 && a[1] < b[3] - 1 && b[1] < a[3] - 1));
      if (!crowded || room <= 48) break;
      room = Math.max(48, room * 0.88);
    }
    seatRoom = { key, px: room };
  }
  const resized = new ResizeObserver(() => placeSeats());
  resized.observe(felt);

  function setPausable(flag) {
    pausable = Boolean(flag);
    if (seats.length) buildControls();
  }

  function buildControls() {
    clear(controls);
    controls.classList.toggle("local", yours.length > 1);
    element.classList.toggle("local", yours.length > 1);
    if (!yours.length) {
      controls.append(h("p", { class: "hint" }, t("game.watching")));
      return;
    }
    yours.forEach((seat, index) => {
      const keys = keysFor(yours, index);
      const flipButton = h("button", { type: "button", class: "flip-button", dataset: { seat }, id: `flip-${seat}` },
        t("game.flip"), h("kbd", {}, keyLabel(keys.flip[0])));
      const slapButton = h("button", { type: "button", class: "slap-button", dataset: { seat }, id: `slap-${seat}` },
        t("game.slap"), h("kbd", {}, keyLabel(keys.slap[0])));
      flipButton.addEventListener("pointerdown", (e) => { e.preventDefault(); flip(seat); });
      slapButton.addEventListener("pointerdown", (e) => { e.preventDefault(); slap(seat); });
      // Keyboard users activating the focused button (Enter) also count.
      flipButton.addEventListener("click", (e) => { if (e.detail === 0) flip(seat); });
      slapButton.addEventListener("click", (e) => { if (e.detail === 0) slap(seat); });
      const label = yours.length > 1 ? seatName(seats, seat) : t("game.your_moves");
      controls.append(h("div", { class: `pad pad-${index}`, role: "group", "aria-label": label },
        h("span", { class: "pad-name", title: label }, label), flipButton, slapButton));
    });
    if (pausable) {
      const pause = h("button", { type: "button", class: "secondary pause-button", id: "pause-button", "aria-keyshortcuts": "P" },
        h("span", { class: "pause-label" }, t("access.pause")), h("kbd", {}, "P"));
      pause.addEventListener("click", togglePause);
      controls.append(pause);
      renderPause();
    }
  }

  // ------------------------------------------------------------------ pausing (games against the computer)

  function togglePause() {
    if (!pausable || !state || state.over || !yours.length) return;
    send({ type: "pause", paused: !state.paused });
  }

  function renderPause() {
    const paused = Boolean(state?.paused) && !state.over;
    element.classList.toggle("paused", paused);
    pausedFlag.hidden = !paused;
    const button = controls.querySelector("#pause-button");
    if (button) {
      button.querySelector(".pause-label").textContent = paused ? t("access.resume") : t("access.pause");
      button.hidden = !state || state.over;
    }
    for (const pad of controls.querySelectorAll(".flip-button, .slap-button")) pad.setAttribute("aria-disabled", String(paused));
  }

  // ------------------------------------------------------------------ inputs

  function flip(seat) {
    if (!state || state.over || !yours.includes(seat)) return;
    if (state.paused) { announce(t("access.paused_hint")); return; }
    send({ type: "flip", seat });
  }

  // A slap names the top card this player saw and how long after its first paint they reacted.
  function slap(seat) {
    if (!state || state.over || !yours.includes(seat)) return;
    if (state.paused) { announce(t("access.paused_hint")); return; }
    const card = state.pile.length ? state.cards : null;
    const painted = card === null ? undefined : paintedAt.get(card);
    const rt = painted === undefined ? null : Math.max(0, Math.min(600000, Math.round(performance.now() - painted)));
    send({ type: "slap", seat, card, rt });
    const pad = controls.querySelector(`#slap-${seat}`);
    if (pad) { pad.classList.remove("pressed"); void pad.offsetWidth; pad.classList.add("pressed"); }
    pileBox.classList.remove("slapped"); void pileBox.offsetWidth; pileBox.classList.add("slapped");
  }

  // Whether the focused control needs this key itself: typing in a field, Space on a checkbox, a button or a
  // summary (the table's own Flip and Slap buttons excepted), arrows on a slider. Letters still play.
  function ownsKey(target, key) {
    if (!target || !target.tagName) return false;
    if (["SELECT", "TEXTAREA"].includes(target.tagName) || target.isContentEditable) return true;
    if (target.tagName === "INPUT") {
      if (!["checkbox", "radio", "range", "button"].includes(target.type)) return true;
      return key === " " || key.startsWith("arrow");
    }
    if (key === " " && ["BUTTON", "SUMMARY", "A"].includes(target.tagName)) {
      return !target.classList.contains("flip-button") && !target.classList.contains("slap-button");
    }
    return false;
  }

  function onKey(event) {
    if (event.repeat || event.ctrlKey || event.metaKey || event.altKey) return;
    if (!element.isConnected || element.closest("[hidden]")) return;
    const key = event.key.toLowerCase();
    if (ownsKey(event.target, key)) return;
    if (!overlay.hidden) return;
    if (key === "p" && pausable) { event.preventDefault(); togglePause(); return; }
    yours.forEach((seat, index) => {
      const keys = keysFor(yours, index);
      if (keys.flip.includes(key)) { event.preventDefault(); flip(seat); }
      if (keys.slap.includes(key)) { event.preventDefault(); slap(seat); }
    });
  }
  document.addEventListener("keydown", onKey);
  pileBox.addEventListener("pointerdown", (e) => { if (yours.length === 1) { e.preventDefault(); slap(yours[0]); } });

  // ------------------------------------------------------------------ showing the state

  // `animate`: false when a whole state replaces the table (a reload, a page that fell behind).
  function update(next, { animate = true, noteworthy = true } = {}) {
    if (!next || next.cards === undefined) return;
    const before = state;
    const previous = animate ? state : null;
    state = next;
    startedAt = performance.now() - (next.now || 0);
    renderPile(previous);
    renderSeats();
    renderStatus();
    renderPause();
    narrate(before, next, noteworthy);
  }

  // What the table now asks of whom, for the live region: a slap window that opens, and whose turn it is.
  // Your own turn is always said; another player's only after something worth saying (or with every card
  // read out), so a quick game is not read as a stream of names.
  function narrate(before, next, noteworthy) {
    if (next.over) return;
    if (before !== null && Boolean(before.paused) !== Boolean(next.paused)) {
      announce(t(next.paused ? "access.say.paused" : "access.say.resumed"));
      return;
    }
    if (next.paused) return;
    const wasWaiting = before !== null && before.collect_pending !== null && !before.over;
    if (next.collect_pending !== null) {
      if (!wasWaiting) announce(t("access.say.window", { name: seatName(seats, next.collect_pending) }));
      return;
    }
    const changed = before === null || wasWaiting || before.turn !== next.turn || before.cards > next.cards;
    if (!changed) return;
    const name = seatName(seats, next.turn);
    if (yours.includes(next.turn)) {
      playSound("turn");
      const named = yours.length > 1;
      if (next.owed > 0) announce(tn(named ? "access.say.your_turn_owed_named" : "access.say.your_turn_owed", next.owed, { name }));
      else announce(t(named ? "access.say.your_turn_named" : "access.say.your_turn", { name }));
    } else if (noteworthy || announceCards) {
      announce(t("access.say.turn", { name }));
    }
  }

  function renderPile(previous) {
    const pile = state.pile;
    const firstShown = Math.max(0, pile.length - PILE_SHOWN);
    const base = state.cards - pile.length; // number of the card below the pile's first face-up card
    const fresh = previous && state.cards > shownCards && pile.length > 0;
    clear(pileBox);
    pile.slice(firstShown).forEach((card, i) => {
      const number = base + firstShown + i + 1;
      const { rot, dx, dy } = tilt(number);
      const el = h("div", { class: "pile-card", dataset: { card, number }, style: `--rot:${rot}deg;--dx:${dx}px;--dy:${dy}px;z-index:${i + 1}` },
        cardFace(card, { label: cardName(card, t) }));
      if (fresh && number > shownCards && !reducedMotion()) {
        const from = seatEls[flippers.get(number) ?? state.turn];
        if (from) {
          const f = from.getBoundingClientRect();
          const c = pileBox.getBoundingClientRect();
          el.style.setProperty("--from-x", `${f.left + f.width / 2 - (c.left + c.width / 2)}px`);
          el.style.setProperty("--from-y", `${f.top + f.height / 2 - (c.top + c.height / 2)}px`);
          el.classList.add("landing");
        }
      }
      pileBox.append(el);
    });
    if (!pile.length) pileBox.append(h("div", { class: "pile-empty" }, t("game.pile_empty")));
    if (pile.length && !paintedAt.has(state.cards)) {
      // The frame this callback runs in is the one that first shows the new top card: reaction times count from it.
      const number = state.cards;
      paintedAt.set(number, performance.now());
      requestAnimationFrame(() => paintedAt.set(number, performance.now()));
      for (const key of paintedAt.keys()) if (key < number - PAINTS_KEPT) paintedAt.delete(key);
    }
    shownCards = state.cards;
    pileCount.textContent = pile.length ? t("game.pile_count", { n: pile.length }) : "";
    burnedBox.hidden = !state.burned_count;
    clear(burnedBox);
    if (state.burned_count) {
      burnedBox.append(h("span", { class: "burned-card", "aria-hidden": "true" }, cardBack()),
        t("game.burned", { n: state.burned_count }));
    }
    pileBox.setAttribute("aria-label", pile.length
      ? t("game.pile_top", { card: cardName(pile[pile.length - 1], t), n: pile.length })
      : t("game.pile_empty"));
    const waiting = state.collect_pending !== null && !state.over;
    waitRing.hidden = !waiting;
    windowFlag.hidden = !waiting;
    windowFlag.textContent = waiting ? t("access.window_open", { name: seatName(seats, state.collect_pending) }) : "";
    if (waiting) {
      waitRing.style.setProperty("--wait", `${state.collect_delay_ms}ms`);
      waitRing.classList.remove("run"); void waitRing.offsetWidth; waitRing.classList.add("run");
    }
  }

  function renderSeats() {
    seats.forEach((seat, index) => {
      const el = seatEls[index];
      if (!el) return;
      const count = state.stack_sizes[index] ?? 0;
      const out = Boolean(state.out[index]);
      const due = !state.over && state.turn === index && state.collect_pending === null;
      el.classList.toggle("due", due);
      el.classList.toggle("out", out);
      el.classList.toggle("empty", !out && count === 0);
      el.classList.toggle("owes", due && state.owed > 0);
      const cards = tn("access.cards", count);
      el.querySelector(".seat-count").textContent = cards;
      let words = "";
      if (out) words = t("game.out");
      else if (due && state.owed > 0) words = t("game.owes", { n: state.owed });
      else if (due) words = yours.includes(index) ? t("game.your_turn") : t("game.to_play");
      else if (count === 0) words = t("game.empty");
      // After a wrong slap under a lockout penalty: how long this seat's slaps are still set aside.
      const locked = out ? null : state.locked?.[index];
      el.classList.toggle("locked", locked !== null && locked !== undefined);
      if (typeof locked === "number") words = [words, tn("access.locked_cards", locked)].filter(Boolean).join(" · ");
      else if (locked === "pile") words = [words, t("game.locked_pile")].filter(Boolean).join(" · ");
      el.querySelector(".seat-state").textContent = words;
      const net = connectionText(seat);
      const badge = el.querySelector(".seat-badge").textContent;
      el.setAttribute("aria-label", [`${seat.name} (${badge}): ${cards}`, words, net].filter(Boolean).join(", "));
      el.querySelector(".stack").classList.toggle("thin", count < 6);
      el.querySelector(".stack").hidden = count === 0;
    });
    for (const button of controls.querySelectorAll(".flip-button")) {
      const seat = Number(button.dataset.seat);
      button.classList.toggle("ready", !state.over && state.turn === seat && state.collect_pending === null);
    }
  }

  function renderStatus() {
    if (state.over) {
      statusLine.textContent = t("game.over");
      return;
    }
    if (state.paused) {
      statusLine.textContent = t("access.status_paused");
      return;
    }
    const due = seatName(seats, state.turn);
    if (state.collect_pending !== null) statusLine.textContent = t("game.status.waiting", { name: seatName(seats, state.collect_pending) });
    else if (state.owed > 0) statusLine.textContent = t("game.status.owes", { name: due, n: state.owed, by: seatName(seats, state.challenger) });
    else statusLine.textContent = yours.includes(state.turn) ? t("game.status.you", { name: due }) : t("game.status.turn", { name: due });
  }

  // ------------------------------------------------------------------ events, one by one

  // Numbered events, new ones only and in order, then the state after them.
  function apply(items, next) {
    const quiet = items.length > 12; // catching up after a long gap: the feed, without a burst of animations
    for (const item of items) happened(item.event, quiet);
    const noteworthy = items.some((item) => item.event.kind !== "card_turned");
    applied += items.length;
    if (items.length) {
      element.dataset.seq = String(items[items.length - 1].seq);
      element.dataset.applied = String(applied);
    }
    if (next) update(next, { animate: !quiet, noteworthy });
  }

  function happened(event, quiet) {
    const text = describe(event, seats);
    if (event.kind === "card_turned") {
      flippers.set(event.number, event.seat);
      for (const key of flippers.keys()) if (key < event.number - PAINTS_KEPT) flippers.delete(key);
      if (quiet) return;
      playSound("card");
      if (announceCards) announce(describe(event, seats, { spoken: true }));
      return;
    }
    const spoken = spokenText(event);
    addFeed(event, text, spoken);
    if (quiet) return;
    if (event.kind === "pile_won") {
      playSound("won");
      sweepTo(event.seat);
      flashToast(text, event.how === "slap" ? "good" : "info");
      announce(spoken);
    } else if (event.kind === "wrong_slap") {
      const seatEl = seatEls[event.seat];
      if (seatEl) { seatEl.classList.remove("penalty"); void seatEl.offsetWidth; seatEl.classList.add("penalty"); }
      playSound("wrong");
      flashToast(text, "bad");
      announce(spoken);
    } else if (event.kind === "slap_correct") {
      playSound("slap");
      flashToast(text, "good");
      announce(spoken);
    } else if (event.kind === "player_out" || event.kind === "game_over") {
      flashToast(text, "info");
      announce(spoken, { urgent: event.kind === "game_over" });
    } else if (event.kind === "slap_dismissed" && yours.includes(event.seat)) {
      flashToast(text, "muted"); // your slap did not count: say why (too late, locked out...)
      announce(spoken);
    } else if (event.kind !== "slap_dismissed") {
      announce(spoken);
    }
  }

  // An event in words for the ear: cards by name, a challenge as what it asks of whom.
  function spokenText(event) {
    if (event.kind === "challenge_opened") {
      return tn("access.say.challenge", event.owed, { name: seatName(seats, event.seat),
        card: cardName(event.card, t), payer: seatName(seats, event.payer) });
    }
    if (event.kind === "slap_correct") {
      const why = event.matches.map((m) => t("game.pattern_with_cards",
        { pattern: t(`pattern.${m.pattern}`), cards: m.cards.map((c) => cardName(c, t)).join(", ") }));
      return t("event.slap_correct", { name: seatName(seats, event.seat), why: why.join("; ") });
    }
    if (event.kind === "pile_won" && event.shares.length <= 1) {
      return tn(`access.say.pile_won.${event.how}`, event.cards.length, { name: seatName(seats, event.seat) });
    }
    return describe(event, seats, { spoken: true });
  }

  // The feed shows glyphs and small cards; a screen reader gets the same line once, in words.
  function addFeed(event, text, spoken) {
    const shown = h("span", { class: "feed-shown", "aria-hidden": "true" }, text);
    if (event.kind === "slap_correct") shown.append(" ", ...event.matches.map((m) => miniCards(m.cards, t)));
    const item = h("li", { class: `feed-item kind-${event.kind}` }, shown, h("span", { class: "visually-hidden" }, spoken));
    feed.prepend(item);
    while (feed.children.length > FEED_LENGTH) feed.lastChild.remove();
  }

  function sweepTo(seat) {
    const target = seatEls[seat];
    if (!target || reducedMotion()) return;
    const f = target.getBoundingClientRect();
    const c = pileBox.getBoundingClientRect();
    for (const card of pileBox.querySelectorAll(".pile-card")) {
      card.style.setProperty("--to-x", `${f.left + f.width / 2 - (c.left + c.width / 2)}px`);
      card.style.setProperty("--to-y", `${f.top + f.height / 2 - (c.top + c.height / 2)}px`);
      card.classList.add("sweep");
    }
    target.classList.remove("won"); void target.offsetWidth; target.classList.add("won");
  }

  let toastTimer = null;
  function flashToast(text, tone) {
    toast.textContent = text;
    toast.className = `toast tone-${tone}`;
    toast.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { toast.hidden = true; }, 2200);
  }

  function rejected(message) {
    const name = message.seat === null || message.seat === undefined ? "" : seatName(seats, message.seat);
    const key = `game.rejected.${message.code}`;
    const text = t(key, { name });
    flashToast(text === key ? message.reason || message.code : text, "muted");
    announce(text === key ? message.reason || message.code : text);
  }

  // ------------------------------------------------------------------ the end

  function showSummary(summary) {
    clear(overlay);
    const winner = summary.winner !== null ? summary.players[summary.winner].name : null;
    const headline = summary.result === "win"
      ? (yours.includes(summary.winner) ? t("game.summary.you_win", { name: winner }) : t("game.summary.wins", { name: winner }))
      : t(`game.summary.${summary.result}`);
    const minutes = Math.floor(summary.ms / 60000);
    const seconds = Math.round((summary.ms % 60000) / 1000);
    const rows = summary.players.map((p) => h("tr", { class: p.seat === summary.winner ? "winner" : "", "aria-current": p.seat === summary.winner ? "true" : null },
      h("th", { scope: "row" }, p.name, p.bot ? h("span", { class: "seat-badge" }, t(`level.${p.bot}`)) : null),
      h("td", {}, String(p.cards)), h("td", {}, String(p.piles_by_slap)), h("td", {}, String(p.piles_by_challenge)),
      h("td", {}, String(p.wrong_slaps)),
      h("td", {}, p.median_reaction_ms === null ? "–" : t("game.summary.ms", { n: Math.round(p.median_reaction_ms) }),
        p.reaction_ms.length ? h("span", { class: "hint" }, ` (${p.reaction_ms.length})`) : null)));
    const buttons = actions(summary, yours);
    overlay.append(h("div", { class: "overlay-card panel" },
      h("h2", { id: "over-title" }, headline),
      h("p", { class: "lead" }, t("access.summary.length", { cards: tn("access.summary.cards", summary.cards),
        piles: tn("access.summary.piles", summary.tricks), m: minutes, s: String(seconds).padStart(2, "0") })),
      summary.how ? h("p", { class: "hint" }, t(`game.summary.how.${summary.how}`)) : null,
      // On a phone the table scrolls sideways: its box takes the keyboard's focus so it can be scrolled.
      h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-labelledby": "over-title" }, h("table", { class: "summary-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("game.summary.player")), h("th", { scope: "col" }, t("game.summary.cards")),
          h("th", { scope: "col" }, t("game.summary.by_slap")), h("th", { scope: "col" }, t("game.summary.by_challenge")),
          h("th", { scope: "col" }, t("game.summary.wrong")), h("th", { scope: "col" }, t("game.summary.reaction")))),
        h("tbody", {}, ...rows))),
      racesBlock(summary.races || [], summary.players),
      h("div", { class: "overlay-actions" }, ...buttons)));
    overlay.hidden = false;
    (overlay.querySelector(".overlay-actions button") || overlay.querySelector(".overlay-actions a"))?.focus();
  }

  // The summary is a modal dialog: Tab and Shift+Tab go round its own buttons and links, not the table behind.
  overlay.addEventListener("keydown", (event) => {
    if (event.key !== "Tab") return;
    const items = [...overlay.querySelectorAll("button, a[href], summary")].filter((el) => !el.disabled && el.getClientRects().length);
    if (!items.length) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (event.shiftKey && document.activeElement === first) { event.preventDefault(); last.focus(); }
    else if (!event.shiftKey && document.activeElement === last) { event.preventDefault(); first.focus(); }
  });

  function hideSummary() {
    overlay.hidden = true;
    clear(overlay);
  }

  const tick = setInterval(() => {
    if (!state || state.over || state.paused) return;
    const ms = performance.now() - startedAt;
    const limit = rules?.end?.time_limit_s ? rules.end.time_limit_s * 1000 : 0;
    const shown = limit ? Math.max(0, limit - ms) : ms;
    const m = Math.floor(shown / 60000);
    const s = Math.floor((shown % 60000) / 1000);
    clock.textContent = `${limit ? t("game.time_left") : t("game.time")} ${m}:${String(s).padStart(2, "0")}`;
  }, 250);

  return {
    element,
    setup,
    setSeats,
    setPausable,
    setLatencies,
    update,
    apply,
    rejected,
    showSummary,
    hideSummary,
    toast: flashToast,
    get state() { return state; },
    get yours() { return yours; },
    destroy() {
      clearInterval(tick);
      clearTimeout(toastTimer);
      document.removeEventListener("keydown", onKey);
      resized.disconnect();
    },
  };
}

// Cards several people slapped, and why the race went the way it did: each slap's reaction, the delay it
// was credited, and the time the server counted it as landing.
export function racesBlock(races, players) {
  if (!races.length) return null;
  const name = (seat) => players[seat]?.name ?? t("game.seat", { n: seat + 1 });
  const ms = (value) => (value === null || value === undefined ? "–" : t("game.summary.ms", { n: Math.round(value) }));
  const list = h("ol", { class: "races" });
  for (const race of races) {
    const first = race.slaps[0];
    const rows = race.slaps.map((slap) => h("tr", { class: slap === first ? "first" : "" },
      h("th", { scope: "row" }, name(slap.seat)),
      h("td", {}, slap.verdict ? t(`room.verdict.${slap.verdict}`) : "–"),
      h("td", {}, ms(slap.reaction)),
      h("td", {}, ms(slap.rtt)),
      h("td", {}, ms(slap.compensation)),
      h("td", {}, ms(slap.received)),
      h("td", {}, ms(slap.landed))));
    list.append(h("li", { class: "race" },
      h("p", {}, raceLead(race, name)),
      h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": raceLead(race, name) }, h("table", { class: "summary-table race-table" },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, t("game.summary.player")),
          h("th", { scope: "col" }, t("room.race.verdict")),
          h("th", { scope: "col" }, t("room.race.reaction")),
          h("th", { scope: "col" }, t("room.race.rtt")),
          h("th", { scope: "col" }, t("room.race.compensation")),
          h("th", { scope: "col" }, t("room.race.received")),
          h("th", { scope: "col" }, t("room.race.landed")))),
        h("tbody", {}, ...rows)))));
  }
  return h("details", { class: "races-wrap", id: "races" },
    h("summary", {}, t("room.races.title", { n: races.length })),
    h("p", { class: "hint" }, t("room.races.hint")),
    list);
}

// One sentence on a race: who won it, and whether the delay credited to a slower link is why.
function raceLead(race, name) {
  const winner = race.slaps.find((slap) => slap.verdict === "slap_correct");
  const first = race.slaps[0];
  if (!winner) return t("room.race.first", { card: race.card, name: name(first.seat) });
  const overtaken = race.slaps.find((slap) => slap !== winner && slap.received < winner.received);
  if (overtaken) {
    return t("room.race.overtook", { card: race.card, name: name(winner.seat), other: name(overtaken.seat),
      n: Math.round(winner.compensation ?? 0) });
  }
  return t("room.race.won", { card: race.card, name: name(winner.seat) });
}
