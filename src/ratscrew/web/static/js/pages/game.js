// The live table. The server runs the game; this page sends flips and slaps and shows what happened.
import { h, clear, announce, reducedMotion } from "../dom.js";
import { t, translate } from "../i18n.js";
import { sendJSON } from "../api.js";
import { cardBack, cardFace, cardName, miniCards } from "../cards.js";
import { describe, ruleChips, seatName } from "../format.js";

const SOLO_KEYS = { flip: ["f", " "], slap: ["j"] };
const LOCAL_KEYS = [{ flip: ["a"], slap: ["s"] }, { flip: ["l"], slap: ["k"] }];
const PILE_SHOWN = 7;
const FEED_LENGTH = 6;

function keysFor(yours, index) {
  return yours.length === 1 ? SOLO_KEYS : LOCAL_KEYS[index];
}

function keyLabel(key) {
  return key === " " ? t("game.key.space") : key.toUpperCase();
}

// Where each seat sits on the oval table, starting with the first person at the bottom; narrow tables
// pull the seats in so the side ones stay on the felt.
function seatPositions(count, first, narrow) {
  const [rx, ry] = narrow ? [31, 40] : [41, 38];
  const positions = [];
  for (let i = 0; i < count; i++) {
    const step = (i - first + count) % count;
    const angle = Math.PI / 2 + (step * 2 * Math.PI) / count;
    positions[i] = { x: 50 + rx * Math.cos(angle), y: 50 + ry * Math.sin(angle) };
  }
  return positions;
}

// Each card lies at its own slight angle (fixed by its number, so it never jumps), fanned enough that
// the cards under the top one still show their corners.
function tilt(number) {
  return { rot: ((number * 47) % 29) - 14, dx: ((number * 13) % 19) - 9, dy: ((number * 7) % 11) - 5 };
}

export async function render(view, ctx) {
  const gameId = ctx.params[0];
  const token = sessionStorage.getItem(`ratscrew.token.${gameId}`) || "";
  let seats = [];
  let yours = [];
  let rules = null;
  let state = null;
  let lastSeq = -1;
  let socket = null;
  let closed = false;
  let retry = null;
  let shownCards = 0;
  let startedAt = performance.now();
  let serverNow = 0;

  const felt = h("div", { class: "felt", role: "group", "aria-label": t("game.table") });
  const pileBox = h("div", { class: "pile", id: "pile", role: "button", tabindex: "-1", "aria-label": t("game.pile") });
  const pileCount = h("div", { class: "pile-count" });
  const burnedBox = h("div", { class: "burned", hidden: true });
  const statusLine = h("p", { class: "status-line", id: "status-line" });
  const waitRing = h("div", { class: "wait-ring", hidden: true, "aria-hidden": "true" });
  const center = h("div", { class: "center" }, waitRing, pileBox, pileCount, burnedBox);
  const chips = h("div", { class: "rule-chips table-chips", id: "table-rules", "aria-label": t("game.agreed_rules") });
  const feed = h("ol", { class: "feed", id: "feed", "aria-label": t("game.feed") });
  const controls = h("div", { class: "controls", id: "controls" });
  const clock = h("span", { class: "clock", "aria-label": t("game.clock") });
  const toast = h("div", { class: "toast", hidden: true, "aria-hidden": "true" });
  const overlay = h("div", { class: "overlay", hidden: true, role: "dialog", "aria-modal": "true", "aria-labelledby": "over-title" });
  const seatEls = [];
  felt.append(center, toast);

  view.append(h("section", { class: "game" },
    h("div", { class: "game-head" }, h("h1", { class: "visually-hidden" }, t("game.title")), chips, clock),
    felt, statusLine, controls,
    h("details", { class: "feed-wrap", open: true }, h("summary", {}, t("game.feed")), feed),
    overlay));

  // ------------------------------------------------------------------ connection

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}?token=${encodeURIComponent(token)}`);
    socket.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      receive(message);
    });
    socket.addEventListener("open", () => {
      if (lastSeq >= 0) send({ type: "resync", since: lastSeq });
    });
    socket.addEventListener("close", () => {
      if (!closed) retry = setTimeout(connect, 1000);
    });
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function receive(message) {
    switch (message.type) {
      case "welcome":
        seats = message.seats;
        yours = message.yours;
        rules = message.rules;
        setup();
        lastSeq = Math.max(lastSeq, message.seq);
        update(message.state);
        if (message.summary) showSummary(message.summary);
        break;
      case "events":
        for (const item of message.items) {
          if (item.seq <= lastSeq) continue;
          lastSeq = item.seq;
          happened(item.event);
        }
        update(message.state);
        break;
      case "over":
        setTimeout(() => showSummary(message.summary), reducedMotion() ? 0 : 900);
        break;
      case "rejected":
        flashToast(t(`game.rejected.${message.code}`, { name: message.seat === null ? "" : seatName(seats, message.seat) }), "muted");
        break;
      case "error":
        if (message.message === "no such game") showMissing();
        break;
      default:
        break;
    }
  }

  // ------------------------------------------------------------------ building the table

  function setup() {
    clear(chips);
    for (const chip of ruleChips(rules)) chips.append(h("span", { class: "chip" }, chip));
    for (const el of seatEls) el.remove();
    seatEls.length = 0;
    const positions = seatPositions(seats.length, yours[0] ?? 0, felt.clientWidth < 560);
    seats.forEach((seat, index) => {
      const mine = yours.includes(index);
      const stack = h("div", { class: "stack", "aria-hidden": "true" }, cardBack());
      const el = h("div", { class: `seat${mine ? " mine" : ""}`, id: `seat-${index}`, dataset: { seat: index },
        style: `left:${positions[index].x}%;top:${positions[index].y}%` },
      stack,
      h("div", { class: "seat-info" },
        h("span", { class: "seat-name" }, seat.name),
        h("span", { class: "seat-badge" }, seat.bot ? t(`level.${seat.bot}`) : (yours.length > 1 && mine ? t("game.player_n", { n: yours.indexOf(index) + 1 }) : (mine ? t("game.you") : t("game.person")))),
        h("span", { class: "seat-count" }),
        h("span", { class: "seat-state" })));
      if (mine && yours.length === 1) stack.addEventListener("click", () => flip(index));
      felt.append(el);
      seatEls[index] = el;
    });
    buildControls();
  }

  function placeSeats() {
    const positions = seatPositions(seats.length, yours[0] ?? 0, felt.clientWidth < 560);
    seatEls.forEach((el, index) => { el.style.left = `${positions[index].x}%`; el.style.top = `${positions[index].y}%`; });
  }
  window.addEventListener("resize", placeSeats);

  function buildControls() {
    clear(controls);
    controls.classList.toggle("local", yours.length > 1);
    view.querySelector(".game")?.classList.toggle("local", yours.length > 1);
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
        h("span", { class: "pad-name" }, label), flipButton, slapButton));
    });
  }

  // ------------------------------------------------------------------ inputs

  function flip(seat) {
    if (!state || state.over) return;
    send({ type: "flip", seat });
  }

  function slap(seat) {
    if (!state || state.over) return;
    send({ type: "slap", seat, card: state.cards });
    const pad = controls.querySelector(`#slap-${seat}`);
    if (pad) { pad.classList.remove("pressed"); void pad.offsetWidth; pad.classList.add("pressed"); }
    pileBox.classList.remove("slapped"); void pileBox.offsetWidth; pileBox.classList.add("slapped");
  }

  function onKey(event) {
    if (event.repeat || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
    if (!overlay.hidden) return;
    const key = event.key.toLowerCase();
    yours.forEach((seat, index) => {
      const keys = keysFor(yours, index);
      if (keys.flip.includes(key)) { event.preventDefault(); flip(seat); }
      if (keys.slap.includes(key)) { event.preventDefault(); slap(seat); }
    });
  }
  document.addEventListener("keydown", onKey);
  pileBox.addEventListener("pointerdown", (e) => { if (yours.length === 1) { e.preventDefault(); slap(yours[0]); } });

  // ------------------------------------------------------------------ showing the state

  function update(next) {
    const previous = state;
    state = next;
    serverNow = next.now;
    startedAt = performance.now() - serverNow;
    renderPile(previous);
    renderSeats();
    renderStatus();
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
        const from = seatEls[lastFlipper(number)];
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
    if (waiting) {
      waitRing.style.setProperty("--wait", `${state.collect_delay_ms}ms`);
      waitRing.classList.remove("run"); void waitRing.offsetWidth; waitRing.classList.add("run");
    }
  }

  const flippers = new Map();
  function lastFlipper(number) {
    return flippers.get(number) ?? state.turn;
  }

  function renderSeats() {
    seats.forEach((seat, index) => {
      const el = seatEls[index];
      if (!el) return;
      const count = state.stack_sizes[index];
      const out = state.out[index];
      const due = !state.over && state.turn === index && state.collect_pending === null;
      el.classList.toggle("due", due);
      el.classList.toggle("out", out);
      el.classList.toggle("empty", !out && count === 0);
      el.classList.toggle("owes", due && state.owed > 0);
      el.querySelector(".seat-count").textContent = t("game.cards_n", { n: count });
      let words = "";
      if (out) words = t("game.out");
      else if (due && state.owed > 0) words = t("game.owes", { n: state.owed });
      else if (due) words = yours.includes(index) ? t("game.your_turn") : t("game.to_play");
      else if (count === 0) words = t("game.empty");
      el.querySelector(".seat-state").textContent = words;
      el.setAttribute("aria-label", `${seat.name}: ${t("game.cards_n", { n: count })}${words ? `, ${words}` : ""}`);
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
    const due = seatName(seats, state.turn);
    if (state.collect_pending !== null) statusLine.textContent = t("game.status.waiting", { name: seatName(seats, state.collect_pending) });
    else if (state.owed > 0) statusLine.textContent = t("game.status.owes", { name: due, n: state.owed, by: seatName(seats, state.challenger) });
    else statusLine.textContent = yours.includes(state.turn) ? t("game.status.you", { name: due }) : t("game.status.turn", { name: due });
  }

  // ------------------------------------------------------------------ events, one by one

  function happened(event) {
    const text = describe(event, seats);
    const spoken = describe(event, seats, { spoken: true });
    if (event.kind === "card_turned") {
      flippers.set(event.number, event.seat);
      announce(spoken);
      return;
    }
    addFeed(event, text);
    if (event.kind === "pile_won") {
      sweepTo(event.seat);
      flashToast(text, event.how === "slap" ? "good" : "info");
      announce(spoken);
    } else if (event.kind === "wrong_slap") {
      const seatEl = seatEls[event.seat];
      if (seatEl) { seatEl.classList.remove("penalty"); void seatEl.offsetWidth; seatEl.classList.add("penalty"); }
      flashToast(text, "bad");
      announce(spoken);
    } else if (event.kind === "slap_correct") {
      flashToast(text, "good");
      announce(spoken);
    } else if (event.kind === "player_out" || event.kind === "game_over") {
      flashToast(text, "info");
      announce(spoken, { urgent: event.kind === "game_over" });
    } else if (event.kind !== "slap_dismissed") {
      announce(spoken);
    }
  }

  function addFeed(event, text) {
    const item = h("li", { class: `feed-item kind-${event.kind}` }, text);
    if (event.kind === "slap_correct") item.append(" ", ...event.matches.map((m) => miniCards(m.cards, t)));
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
    const again = h("button", { type: "button", id: "play-again", class: "big" }, t("game.summary.again"));
    again.addEventListener("click", async () => {
      again.disabled = true;
      try {
        const next = await sendJSON(`/api/games/${gameId}/again`, { token });
        sessionStorage.setItem(`ratscrew.token.${next.id}`, next.token);
        ctx.navigate(`#/game/${next.id}`);
      } catch (error) {
        again.disabled = false;
        flashToast(error.message, "bad");
      }
    });
    overlay.append(h("div", { class: "overlay-card panel" },
      h("h2", { id: "over-title" }, headline),
      h("p", { class: "lead" }, t("game.summary.length", { cards: summary.cards, piles: summary.tricks, m: minutes, s: String(seconds).padStart(2, "0") })),
      h("p", { class: "hint" }, t(`game.summary.how.${summary.how}`)),
      h("div", { class: "table-scroll" }, h("table", { class: "summary-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("game.summary.player")), h("th", { scope: "col" }, t("game.summary.cards")),
          h("th", { scope: "col" }, t("game.summary.by_slap")), h("th", { scope: "col" }, t("game.summary.by_challenge")),
          h("th", { scope: "col" }, t("game.summary.wrong")), h("th", { scope: "col" }, t("game.summary.reaction")))),
        h("tbody", {}, ...rows))),
      h("div", { class: "overlay-actions" }, yours.length ? again : null,
        h("a", { class: "button secondary", id: "download-record", href: `/api/games/${gameId}/record`, download: `ratscrew-${gameId}.json` }, t("game.summary.download")),
        h("a", { class: "button secondary", href: "#/" }, t("game.summary.new")))));
    overlay.hidden = false;
    (yours.length ? again : overlay.querySelector("a")).focus();
  }

  function showMissing() {
    closed = true;
    clear(view);
    view.append(h("section", { class: "panel missing" }, h("h1", {}, t("game.missing.title")), h("p", {}, t("game.missing.text")),
      h("a", { class: "button", href: "#/" }, t("game.summary.new"))));
  }

  const tick = setInterval(() => {
    if (!state || state.over) return;
    const ms = performance.now() - startedAt;
    const limit = rules?.end?.time_limit_s ? rules.end.time_limit_s * 1000 : 0;
    const shown = limit ? Math.max(0, limit - ms) : ms;
    const m = Math.floor(shown / 60000);
    const s = Math.floor((shown % 60000) / 1000);
    clock.textContent = `${limit ? t("game.time_left") : t("game.time")} ${m}:${String(s).padStart(2, "0")}`;
  }, 250);

  translate(view);
  connect();
  view.querySelector(".game")?.focus?.();

  return () => {
    closed = true;
    clearTimeout(retry);
    clearInterval(tick);
    clearTimeout(toastTimer);
    document.removeEventListener("keydown", onKey);
    window.removeEventListener("resize", placeSeats);
    if (socket) socket.close();
  };
}
