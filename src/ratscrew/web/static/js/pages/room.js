// An online room (#/room/CODE): the lobby (seats, rules, ready, start), then the same table as a game against
// the computer, then the summary and a rematch. Everyone sees everything public; only the host changes the
// seats and the rules; a page without a seat watches.
import { useStyles } from "../styles.js";
import { h, clear, announce, reducedMotion } from "../dom.js";
import { t, translate } from "../i18n.js";
import { keepName, openRoom, savedName } from "../connection.js";
import { rememberGame } from "../played.js";
import { createTable, connectionText, connectionClass } from "../table.js";
import { presetSelect, presetValues, rulesForm } from "../rules-form.js";
import { fillChips, summaryDrawer } from "../summary.js";

const MAX_SEATS = 12;
const MIN_SEATS = 2;

export function roomLink(code) {
  return `${location.origin}${location.pathname}#/room/${code}`;
}

function sortedJSON(value) {
  const sort = (v) => (v && typeof v === "object" && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort(v[k])]))
    : v);
  return JSON.stringify(sort(value));
}

export async function render(view, ctx) {
  await useStyles("table", "setup", "room");
  const { meta } = ctx;
  const code = ctx.params[0].toUpperCase();
  let room = null;
  let yours = [];
  let host = false;
  let connection = null;
  let tableGame = null; // the game the table is set up for
  let overTimer = null;
  let shownRules = null;
  const rowKeys = [];

  const send = (message) => connection?.send(message);
  const table = createTable({
    send,
    actions: (summary, seated) => [
      seated.length ? h("button", { type: "button", id: "rematch", class: "big", onclick: (e) => { e.currentTarget.disabled = true; send({ type: "rematch" }); } },
        t("room.rematch")) : null,
      summary.game ? h("a", { class: "button secondary", id: "download-record", href: `/api/games/${summary.game}/record`, download: `ratscrew-${summary.game}.json` },
        t("game.summary.download")) : null,
      h("a", { class: "button secondary", href: "#/" }, t("room.leave")),
    ],
  });

  // ------------------------------------------------------------------ the page

  const link = roomLink(code);
  const phaseChip = h("span", { class: "chip", id: "room-phase" });
  const netChip = h("span", { class: "chip net-chip", id: "room-net", role: "status" }, t("room.net.connecting"));
  const linkInput = h("input", { type: "text", readonly: true, value: link, id: "room-link", "aria-label": t("room.link"),
    onfocus: (e) => e.target.select() });
  const copyButton = h("button", { type: "button", class: "secondary", id: "copy-link", onclick: copyLink }, t("room.copy"));
  const publicBox = h("input", { type: "checkbox", id: "room-public", onchange: (e) => send({ type: "visibility", public: e.target.checked }) });
  const nameInput = h("input", { type: "text", id: "room-name", maxlength: 24, value: savedName(), autocomplete: "nickname",
    placeholder: t("room.name_placeholder"), oninput: (e) => keepName(e.target.value.trim()) });
  const seatList = h("ol", { class: "room-seats", id: "room-seats", "aria-label": t("room.seats") });
  const seatCount = h("select", { id: "room-seat-count", onchange: (e) => send({ type: "seats", count: Number(e.target.value) }) });
  for (let n = MIN_SEATS; n <= MAX_SEATS; n++) seatCount.append(h("option", { value: n }, String(n)));
  const chipsBox = h("div", { class: "rule-chips", id: "room-rules", "aria-label": t("game.agreed_rules") });
  const presetBox = h("div", { class: "field-row" });
  const presetSummary = h("p", { class: "hint", id: "room-preset-summary" });
  const deckLine = h("p", { class: "hint", id: "room-deck-line" });
  const rulesBox = h("div", { class: "rules-options" });
  const rulesNote = h("p", { class: "hint", id: "room-rules-note" });
  const readyButton = h("button", { type: "button", id: "ready-button", class: "big", "aria-pressed": "false",
    onclick: () => send({ type: "ready", ready: !mineReady() }) });
  const startButton = h("button", { type: "button", id: "start-button", class: "big",
    onclick: () => send({ type: "start" }) }, t("room.start"));
  const startHint = h("p", { class: "hint", id: "start-hint" });
  const statusBox = h("p", { class: "room-status", id: "room-status", role: "status", "aria-live": "polite" });

  const lobby = h("div", { class: "room-lobby", id: "room-lobby" },
    h("section", { class: "panel room-seats-panel", "aria-labelledby": "room-seats-title" },
      h("h2", { id: "room-seats-title" }, t("room.seats")),
      h("div", { class: "field-row" }, h("label", { for: "room-name" }, t("room.your_name")), nameInput),
      seatList,
      h("p", { class: "hint", id: "room-standins" }),
      h("div", { class: "field-row host-only" }, h("label", { for: "room-seat-count" }, t("room.seat_count")), seatCount)),
    h("section", { class: "panel room-rules-panel", "aria-labelledby": "room-rules-title" },
      h("h2", { id: "room-rules-title" }, t("setup.rules")),
      rulesNote, presetBox, presetSummary, deckLine, chipsBox,
      h("details", { class: "house-rules", id: "room-house-rules" }, h("summary", {}, t("setup.house_rules")), rulesBox)),
    h("section", { class: "panel room-go" },
      h("div", { class: "start-row" }, readyButton, startButton), startHint, statusBox));
  // Said above the table while a slow link makes the room hold every move longer (the server names the seat).
  const waitNote = h("p", { class: "hint room-wait", id: "room-wait", role: "status", hidden: true });
  const tableBox = h("div", { class: "room-table", hidden: true }, waitNote, table.element);

  view.append(h("section", { class: "room", id: "room" },
    h("header", { class: "room-head panel" },
      h("div", { class: "room-title" },
        h("h1", {}, t("room.title"), " ", h("span", { class: "room-code", id: "room-code" }, code)),
        phaseChip, netChip),
      h("div", { class: "room-share" },
        h("label", { for: "room-link" }, t("room.share")),
        h("div", { class: "share-row" }, linkInput, copyButton)),
      h("label", { class: "room-public host-only" }, publicBox, " ", t("room.public"))),
    lobby, tableBox));

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      linkInput.select();
      document.execCommand?.("copy");
    }
    copyButton.textContent = t("room.copied");
    announce(t("room.copied"));
    setTimeout(() => { copyButton.textContent = t("room.copy"); }, 1800);
  }

  function mineReady() {
    return yours.some((seat) => room?.seats[seat]?.ready);
  }

  function say(text, tone = "info") {
    statusBox.textContent = text;
    statusBox.dataset.tone = tone;
  }

  // ------------------------------------------------------------------ the lobby

  function renderRoom() {
    if (!room) return;
    view.querySelector("#room").classList.toggle("is-host", host);
    phaseChip.textContent = t(`room.phase.${room.phase}`);
    publicBox.checked = room.public;
    publicBox.disabled = !host;
    seatCount.value = String(room.seats.length);
    seatCount.disabled = !host;
    renderSeatList();
    view.querySelector("#room-standins").textContent = room.standins === false ? t("room.standins.off") : t("room.standins.on");
    renderRules();
    renderGo();
    showPhase();
    renderWait();
  }

  function renderWait() {
    const seat = room.phase === "playing" ? room.waits_for : null;
    const who = seat === null || seat === undefined ? null : room.seats[seat];
    waitNote.hidden = !who;
    if (!who) return;
    waitNote.textContent = yours.includes(seat)
      ? t("room.slow_link.yours", { ms: room.window_ms })
      : t("room.slow_link.other", { name: who.name, ms: room.window_ms });
  }

  function renderSeatList() {
    while (seatList.children.length > room.seats.length) seatList.lastChild.remove();
    rowKeys.length = Math.min(rowKeys.length, room.seats.length);
    room.seats.forEach((seat, index) => {
      const mine = yours.includes(index);
      const key = sortedJSON({ kind: seat.kind, name: seat.name, level: seat.level, ready: seat.ready, mine, host, seated: yours.length > 0 });
      let row = seatList.children[index];
      if (!row || rowKeys[index] !== key) {
        const fresh = seatRow(seat, index, mine);
        if (row) {
          const focused = row.contains(document.activeElement) ? document.activeElement.id : null;
          row.replaceWith(fresh);
          if (focused) document.getElementById(focused)?.focus();
        } else {
          seatList.append(fresh);
        }
        row = fresh;
        rowKeys[index] = key;
      }
      const net = row.querySelector(".seat-net");
      net.textContent = connectionText(seat);
      net.className = `seat-net ${connectionClass(seat)}`;
    });
  }

  function seatRow(seat, index, mine) {
    const name = seat.kind === "empty" ? t("room.seat.empty") : seat.name;
    const kind = seat.kind === "bot" ? t(`level.${seat.level}`) : seat.kind === "human" ? (mine ? t("game.you") : t("game.person")) : "";
    const ready = seat.kind === "empty" ? "" : seat.ready ? t("room.ready_yes") : t("room.ready_no");
    const actions = h("div", { class: "seat-actions" });
    if (seat.kind === "empty") {
      actions.append(h("button", { type: "button", class: "secondary small", id: `sit-${index}`,
        "aria-label": t("room.sit_at", { n: index + 1 }), onclick: () => sit(index) }, t("room.sit")));
      if (host) actions.append(levelSelect(index, null));
    } else if (seat.kind === "bot" && host) {
      actions.append(levelSelect(index, seat.level),
        h("button", { type: "button", class: "ghost small", id: `remove-${index}`, "aria-label": t("room.remove_bot", { n: index + 1 }),
          onclick: () => send({ type: "bot", seat: index, level: null }) }, "✕"));
    } else if (mine) {
      actions.append(h("button", { type: "button", class: "ghost small", id: "stand", onclick: () => send({ type: "stand" }) }, t("room.stand")));
    }
    return h("li", { class: `room-seat kind-${seat.kind}${mine ? " mine" : ""}`, id: `room-seat-${index}`, dataset: { seat: index, kind: seat.kind } },
      h("span", { class: "seat-number", "aria-hidden": "true" }, String(index + 1)),
      h("span", { class: "room-seat-who" },
        h("span", { class: "room-seat-name" }, name),
        kind ? h("span", { class: "seat-badge" }, kind) : null),
      h("span", { class: "seat-net" }),
      h("span", { class: `room-seat-ready${seat.ready ? " yes" : ""}` }, ready),
      actions);
  }

  function levelSelect(index, level) {
    const select = h("select", { id: `bot-${index}`, "aria-label": t("setup.level_for", { n: index + 1 }),
      onchange: (e) => { if (e.target.value) send({ type: "bot", seat: index, level: e.target.value, name: t("setup.computer_n", { n: index + 1 }) }); } });
    if (level === null) select.append(h("option", { value: "", selected: true }, t("room.add_bot")));
    for (const l of meta.levels) select.append(h("option", { value: l.name, selected: level === l.name, title: l.summary }, l.label));
    select.append(h("option", { value: "match", selected: level === "match" }, t("level.match")));
    return select;
  }

  function sit(index) {
    const name = nameInput.value.trim() || t("setup.player_n", { n: index + 1 });
    keepName(nameInput.value.trim());
    send({ type: "sit", seat: index, name });
  }

  // The chips and the preset's summary are the server's words for the agreed rules and this many seats.
  const drawSummary = summaryDrawer((summary) => {
    fillChips(chipsBox, summary);
    presetSummary.textContent = summary.preset.text;
    deckLine.textContent = summary.deck.line;
  }, { delay: 50 });

  function renderRules() {
    const values = structuredClone(room.rules);
    const key = sortedJSON({ rules: values, host });
    drawSummary(values, room.seats.length);
    rulesNote.textContent = host ? t("room.rules_host") : t("room.rules_guest");
    if (key === shownRules) return;
    shownRules = key;
    clear(presetBox);
    presetBox.append(h("label", { for: "room-preset" }, t("setup.preset")),
      presetSelect(meta, values.preset, { id: "room-preset", disabled: !host, onChange: (name) => {
        const next = presetValues(meta, name);
        next.preset = name;
        sendRules(next);
      } }));
    clear(rulesBox);
    rulesBox.append(...rulesForm(meta, values, { idPrefix: "room-opt", editable: host, onChange: () => sendRules(values) }));
  }

  function sendRules(values) {
    shownRules = sortedJSON({ rules: values, host });
    send({ type: "rules", rules: values });
  }

  function renderGo() {
    const seated = yours.length > 0;
    readyButton.hidden = !seated || room.phase !== "lobby";
    const ready = mineReady();
    readyButton.textContent = ready ? t("room.unready") : t("room.ready");
    readyButton.setAttribute("aria-pressed", String(ready));
    readyButton.classList.toggle("secondary", ready);
    startButton.hidden = !host || room.phase !== "lobby";
    const empty = room.seats.findIndex((s) => s.kind === "empty");
    const waiting = room.seats.find((s) => s.kind === "human" && !s.ready);
    let hint = "";
    if (empty >= 0) hint = t("room.wait.empty", { n: empty + 1 });
    else if (waiting) hint = t("room.wait.ready", { name: waiting.name });
    else hint = host ? t("room.wait.host_go") : t("room.wait.host");
    startButton.disabled = empty >= 0 || Boolean(waiting);
    startHint.textContent = seated || host ? hint : `${t("room.watching")} ${hint}`;
  }

  // ------------------------------------------------------------------ lobby or table

  function showPhase() {
    const playing = room.phase !== "lobby";
    lobby.hidden = playing;
    tableBox.hidden = !playing;
    view.querySelector("#room").classList.toggle("at-table", playing);
    if (!playing) {
      clearTimeout(overTimer);
      table.hideSummary();
      tableGame = null;
      return;
    }
    if (tableGame !== room.game) {
      tableGame = room.game;
      table.hideSummary();
      table.setup(room.seats, yours, room.rules, room.game);
      connection.resync(); // the state of the table that was just dealt
    } else {
      table.setSeats(room.seats);
    }
  }

  // ------------------------------------------------------------------ the connection

  function rejected(message) {
    if (room && room.phase !== "lobby" && !["not_host", "not_seated", "seat_taken", "not_ready", "bad_value"].includes(message.code)) {
      table.rejected(message);
      return;
    }
    const key = `room.rejected.${message.code}`;
    const text = t(key, { n: message.seat === null || message.seat === undefined ? "" : message.seat + 1 });
    say(text === key ? message.reason : `${text} ${message.reason ? `(${message.reason})` : ""}`.trim(), "bad");
    renderRoom(); // a refused change shows the values the room still has
  }

  connection = openRoom(code, {
    welcome: (message) => {
      room = message.room;
      yours = message.yours;
      host = message.host;
      shownRules = null;
      rowKeys.length = 0;
      tableGame = room.phase === "lobby" ? null : room.game;
      if (tableGame !== null) {
        table.setup(room.seats, yours, room.rules, room.game);
        table.update(message.state, { animate: false });
      }
      renderRoom();
      if (message.summary && room.phase === "over") table.showSummary(message.summary);
    },
    events: (items, state) => table.apply(items, state),
    state: (message) => {
      room = message.room;
      renderRoom();
      table.setSeats(room.seats);
      table.update(message.state, { animate: false });
    },
    lobby: (next) => {
      const before = room?.phase;
      room = next;
      renderRoom();
      if (before && before !== room.phase) announce(t(`room.phase.${room.phase}`));
    },
    latency: (seats, message) => {
      if (!room) return;
      seats.forEach((ms, i) => { if (room.seats[i]) room.seats[i].latency_ms = ms; });
      room.window_ms = message.window_ms;
      room.waits_for = message.waits_for;
      renderSeatList();
      renderWait();
      if (room.phase !== "lobby") table.setSeats(room.seats);
    },
    seated: (message) => {
      yours = message.seats;
      rowKeys.length = 0;
      say(yours.length ? t("room.seated", { n: yours[0] + 1 }) : t("room.stood"));
      if (room) renderRoom();
    },
    over: (summary) => {
      if (yours.length && summary.game) rememberGame(summary.game); // a player's finished game is in their history
      clearTimeout(overTimer);
      overTimer = setTimeout(() => table.showSummary(summary), reducedMotion() ? 0 : 900);
    },
    rejected,
    error: (message) => say(message.message, "bad"),
    status: (connected) => {
      netChip.textContent = connected ? t("room.net.online") : t("room.net.reconnecting");
      netChip.classList.toggle("offline", !connected);
    },
    gone: () => {
      clear(view);
      view.append(h("section", { class: "panel missing" }, h("h1", {}, t("room.missing.title")),
        h("p", {}, t("room.missing.text", { code })), h("a", { class: "button", href: "#/" }, t("room.leave"))));
    },
  });

  translate(view);

  return () => {
    clearTimeout(overTimer);
    table.destroy();
    connection.close();
  };
}
