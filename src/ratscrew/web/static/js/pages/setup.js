// New game: who sits where (people or computers at a level), the house rules, the computers' pace.
import { useStyles } from "../styles.js";
import { h, clear, announce } from "../dom.js";
import { t, translate } from "../i18n.js";
import { getJSON, sendJSON } from "../api.js";
import { cardBack, cardFace } from "../cards.js";
import { presetValues, rulesForm } from "../rules-form.js";
import { fillChips, summaryDrawer } from "../summary.js";
import { keepName, saveToken, savedName } from "../connection.js";

const SETTINGS_KEY = "ratscrew.setup";
const PERSON_ICON = '<svg viewBox="0 0 24 24"><circle cx="12" cy="8" r="4.2" fill="currentColor"/><path d="M3.5 21c1-4.6 4.4-7 8.5-7s7.5 2.4 8.5 7z" fill="currentColor"/></svg>';
const COMPUTER_ICON = '<svg viewBox="0 0 24 24"><rect x="4" y="6" width="16" height="12" rx="3" fill="currentColor"/><circle cx="9" cy="12" r="1.8" fill="#fff"/><circle cx="15" cy="12" r="1.8" fill="#fff"/><path d="M12 2v4M8 21h8" stroke="currentColor" stroke-width="2"/></svg>';
const PACES = [["leisurely", 1.5], ["normal", 1.0], ["brisk", 0.6]];

function defaultSettings() {
  return {
    mode: "solo",
    seats: [
      { name: "", kind: "human" },
      { name: "", kind: "bot", level: "medium" },
      { name: "", kind: "bot", level: "medium" },
      { name: "", kind: "bot", level: "medium" },
    ],
    preset: "standard",
    values: null,
    pace: "normal",
  };
}

function loadSettings() {
  try {
    const saved = JSON.parse(localStorage.getItem(SETTINGS_KEY));
    if (saved && Array.isArray(saved.seats)) return { ...defaultSettings(), ...saved };
  } catch { /* a broken saved value falls back to the defaults */ }
  return defaultSettings();
}

function defaultName(seat, index) {
  return seat.kind === "human" ? t("setup.player_n", { n: index + 1 }) : t("setup.computer_n", { n: index + 1 });
}

export async function render(view, ctx) {
  await useStyles("setup", "room");
  const { meta } = ctx;
  const settings = loadSettings();
  if (!settings.values) settings.values = presetValues(meta, settings.preset);
  const save = () => localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));

  const seatsBox = h("div", { class: "seat-list" });
  const rulesBox = h("div", { class: "rules-options" });
  const chipsBox = h("div", { class: "rule-chips", "aria-live": "polite" });
  const errorBox = h("p", { class: "error-box", hidden: true, role: "alert" });
  const presetSelect = h("select", { id: "preset", name: "preset" });
  const presetSummary = h("p", { class: "hint", id: "preset-summary" });
  const deckLine = h("p", { class: "hint", id: "deck-line" });
  // Chips, the deck line and the preset's summary come from the server, for these rules and this many seats.
  let summaryFailed = false;
  const drawSummary = summaryDrawer((summary) => {
    if (summaryFailed) errorBox.hidden = true;
    summaryFailed = false;
    fillChips(chipsBox, summary);
    presetSummary.textContent = summary.preset.text;
    deckLine.textContent = summary.deck.line;
  }, { onError: (error) => {
    summaryFailed = true;
    errorBox.textContent = error.message;
    errorBox.hidden = false;
  } });
  const refreshSummary = () => drawSummary({ preset: settings.preset, ...settings.values }, settings.seats.length);

  function applyMode(mode) {
    settings.mode = mode;
    const humans = mode === "local" ? 2 : 1;
    settings.seats = settings.seats.map((s, i) => (i < humans ? { ...s, kind: "human" } : { ...s, kind: "bot", level: s.level || "medium" }));
    while (settings.seats.length < 2) settings.seats.push({ name: "", kind: "bot", level: "medium" });
    renderSeats();
    save();
  }

  function renderSeats() {
    clear(seatsBox);
    settings.seats.forEach((seat, index) => {
      const nameInput = h("input", { type: "text", maxlength: 24, value: seat.name, id: `seat-name-${index}`,
        placeholder: defaultName(seat, index), "aria-label": t("setup.seat_name", { n: index + 1 }),
        oninput: (e) => { seat.name = e.target.value; save(); } });
      const kind = seat.kind === "human"
        ? h("span", { class: "chip seat-kind" }, settings.mode === "local" ? t("setup.person") : t("setup.you"))
        : levelSelect(seat, index);
      const remove = seat.kind === "bot" && settings.seats.length > 2
        ? h("button", { type: "button", class: "ghost small", "aria-label": t("setup.remove_seat", { n: index + 1 }),
          onclick: () => { settings.seats.splice(index, 1); renderSeats(); save(); } }, "✕")
        : null;
      const mini = h("span", { class: `seat-avatar ${seat.kind}`, "aria-hidden": "true", html: seat.kind === "human" ? PERSON_ICON : COMPUTER_ICON });
      seatsBox.append(h("div", { class: "seat-row" }, mini, h("span", { class: "seat-number" }, `${index + 1}`), nameInput, kind, remove));
    });
    const maxSeats = 12;
    if (settings.seats.length < maxSeats) {
      seatsBox.append(h("button", { type: "button", class: "secondary add-seat", id: "add-seat",
        onclick: () => { settings.seats.push({ name: "", kind: "bot", level: "medium" }); renderSeats(); save(); } },
      t("setup.add_computer")));
    }
    seatsBox.append(deckLine);
    refreshSummary();
  }

  function levelSelect(seat, index) {
    const select = h("select", { "aria-label": t("setup.level_for", { n: index + 1 }), id: `seat-level-${index}`,
      onchange: (e) => { seat.level = e.target.value; save(); } });
    for (const level of meta.levels) select.append(h("option", { value: level.name, selected: seat.level === level.name, title: level.summary }, level.label));
    select.append(h("option", { value: "match", selected: seat.level === "match" }, t("level.match")));
    return select;
  }

  function renderRules() {
    clear(rulesBox);
    rulesBox.append(...rulesForm(meta, settings.values, { onChange: () => { refreshSummary(); save(); } }));
    refreshSummary();
  }

  for (const preset of meta.presets) presetSelect.append(h("option", { value: preset.name, selected: preset.name === settings.preset }, preset.label));
  presetSelect.addEventListener("change", (e) => {
    settings.preset = e.target.value;
    settings.values = presetValues(meta, settings.preset);
    renderRules();
    save();
    announce(t("setup.preset_chosen", { name: presetSelect.selectedOptions[0].textContent }));
  });

  async function start(event) {
    event.preventDefault();
    errorBox.hidden = true;
    const seats = settings.seats.map((seat, i) => ({
      name: (seat.name || "").trim() || defaultName(seat, i),
      kind: seat.kind,
      level: seat.kind === "bot" ? seat.level : undefined,
    }));
    const pace = (PACES.find(([name]) => name === settings.pace) || PACES[1])[1];
    try {
      const created = await sendJSON("/api/games", { seats, rules: { preset: settings.preset, ...settings.values }, bot_pace: pace });
      saveToken(created.id, created.token);
      ctx.navigate(`#/game/${created.id}`);
    } catch (error) {
      errorBox.textContent = error.message;
      errorBox.hidden = false;
    }
  }

  const modeSwitch = h("div", { class: "mode-switch", role: "radiogroup", "aria-label": t("setup.mode") },
    ...[["solo", "setup.mode.solo", "setup.mode.solo_hint"], ["local", "setup.mode.local", "setup.mode.local_hint"]].map(([mode, label, hint]) =>
      h("label", { class: "mode-option" },
        h("input", { type: "radio", name: "mode", value: mode, checked: settings.mode === mode, onchange: () => applyMode(mode) }),
        h("span", { class: "mode-title" }, t(label)), h("span", { class: "mode-hint" }, t(hint)))));

  const paceSelect = h("select", { id: "pace", onchange: (e) => { settings.pace = e.target.value; save(); } },
    ...PACES.map(([name]) => h("option", { value: name, selected: settings.pace === name }, t(`setup.pace.${name}`))));

  const hero = h("div", { class: "hero-cards", "aria-hidden": "true" },
    h("div", { class: "hero-card c1" }, cardBack()), h("div", { class: "hero-card c2" }, cardFace("7S")),
    h("div", { class: "hero-card c3" }, cardFace("KH")), h("div", { class: "hero-card c4" }, cardFace("7D")));

  const online = onlinePanel(ctx, () => ({ preset: settings.preset, ...settings.values }));
  view.append(
    h("section", { class: "setup-hero" },
      h("div", {}, h("h1", { "data-i18n": "setup.title" }), h("p", { class: "lead", "data-i18n": "setup.lead" })), hero),
    // A game against the computer first: it is one button away (kept on the screen while the form is).
    h("form", { class: "setup panel", onsubmit: start },
      h("h2", { "data-i18n": "setup.who" }), modeSwitch, seatsBox,
      h("div", { class: "field-row" }, h("label", { for: "pace", "data-i18n": "setup.pace" }), paceSelect),
      h("h2", { "data-i18n": "setup.rules" }),
      h("p", { class: "hint", "data-i18n": "setup.agree" }),
      h("div", { class: "field-row" }, h("label", { for: "preset", "data-i18n": "setup.preset" }), presetSelect),
      presetSummary, chipsBox,
      h("details", { class: "house-rules" }, h("summary", { "data-i18n": "setup.house_rules" }), rulesBox),
      errorBox,
      h("div", { class: "start-row" }, h("button", { type: "submit", id: "start-game", class: "big" }, t("setup.start")),
        h("span", { class: "hint keys-hint" }, t("setup.keys_hint")))),
    online.element);
  renderSeats();
  renderRules();
  translate(view);
  return online.stop;
}

// Play online with friends: create a room (private, with a code and a link; or listed in the open lobby),
// join one by its code, or pick one of the open rooms waiting for players (the list refreshes itself).
function onlinePanel(ctx, currentRules) {
  const errorBox = h("p", { class: "error-box", id: "online-error", hidden: true, role: "alert" });
  const nameInput = h("input", { type: "text", id: "online-name", maxlength: 24, value: savedName(), autocomplete: "nickname",
    placeholder: t("room.name_placeholder"), oninput: (e) => keepName(e.target.value.trim()) });
  const seatsSelect = h("select", { id: "online-seats" });
  for (let n = 2; n <= 12; n++) seatsSelect.append(h("option", { value: n, selected: n === 4 }, String(n)));
  const visibility = h("div", { class: "mode-switch online-visibility", role: "radiogroup", "aria-label": t("online.visibility") },
    ...[["private", false], ["public", true]].map(([name, pub]) =>
      h("label", { class: "mode-option" },
        h("input", { type: "radio", name: "online-visibility", value: name, checked: !pub }),
        h("span", { class: "mode-title" }, t(`online.${name}`)), h("span", { class: "mode-hint" }, t(`online.${name}_hint`)))));
  const standins = h("input", { type: "checkbox", id: "online-standins", checked: true });
  const codeInput = h("input", { type: "text", id: "join-code", maxlength: 12, autocomplete: "off", autocapitalize: "characters",
    spellcheck: "false", placeholder: "ABC234", "aria-describedby": "join-hint" });
  const openList = h("ul", { class: "open-rooms", id: "open-rooms", "aria-live": "polite" });

  function fail(error) {
    errorBox.textContent = error.message || String(error);
    errorBox.hidden = false;
  }

  async function create(event) {
    event.preventDefault();
    errorBox.hidden = true;
    const name = nameInput.value.trim() || t("setup.player_n", { n: 1 });
    keepName(nameInput.value.trim());
    const pub = event.currentTarget.querySelector("input[name=online-visibility]:checked")?.value === "public";
    try {
      const created = await sendJSON("/api/rooms", { public: pub, seats: Number(seatsSelect.value), name, standins: standins.checked, rules: currentRules() });
      saveToken(created.code, created.token);
      ctx.navigate(`#/room/${created.code}`);
    } catch (error) {
      fail(error);
    }
  }

  async function join(event) {
    event.preventDefault();
    errorBox.hidden = true;
    const code = codeInput.value.replace(/[^0-9a-z]/gi, "").toUpperCase();
    if (!code) {
      fail(new Error(t("online.code_missing")));
      codeInput.focus();
      return;
    }
    try {
      await getJSON(`/api/rooms/${encodeURIComponent(code)}`);
      ctx.navigate(`#/room/${code}`);
    } catch (error) {
      fail(error);
    }
  }

  async function refresh() {
    let rooms = [];
    try {
      rooms = (await getJSON("/api/rooms")).rooms;
    } catch (error) {
      fail(error);
      return;
    }
    clear(openList);
    if (!rooms.length) openList.append(h("li", { class: "hint" }, t("online.none_open")));
    for (const room of rooms) {
      const preset = ctx.meta.presets.find((p) => p.name === room.preset);
      openList.append(h("li", { class: "open-room" },
        h("span", { class: "open-room-text" },
          h("strong", {}, t("online.room_of", { name: room.host || room.code })), " ",
          h("span", { class: "hint" }, t("online.room_line", { free: room.free, seats: room.seats, preset: preset ? preset.label : room.preset }))),
        h("a", { class: "button secondary small", href: `#/room/${room.code}`, "aria-label": t("online.join_room", { name: room.host || room.code }) },
          t("online.join"))));
    }
  }
  refresh();
  const timer = setInterval(() => { if (!document.hidden) refresh(); }, 15000); // rooms open and fill meanwhile

  const element = h("section", { class: "online panel", id: "online", "aria-labelledby": "online-title" },
    h("h2", { id: "online-title" }, t("online.title")),
    h("p", { class: "hint" }, t("online.lead")),
    h("div", { class: "field-row" }, h("label", { for: "online-name" }, t("room.your_name")), nameInput),
    h("div", { class: "online-grid" },
      h("form", { class: "online-create", onsubmit: create, "aria-labelledby": "online-create-title" },
        h("h3", { id: "online-create-title" }, t("online.create_title")),
        visibility,
        h("div", { class: "field-row" }, h("label", { for: "online-seats" }, t("room.seat_count")), seatsSelect),
        h("div", { class: "option option-bool" }, standins, h("label", { for: "online-standins" }, t("online.standins"))),
        h("p", { class: "hint" }, t("online.rules_hint")),
        h("button", { type: "submit", id: "create-room" }, t("online.create"))),
      h("div", { class: "online-join" },
        h("form", { onsubmit: join, "aria-labelledby": "online-join-title" },
          h("h3", { id: "online-join-title" }, t("online.join_title")),
          h("div", { class: "field-row" }, h("label", { for: "join-code" }, t("online.code")), codeInput,
            h("button", { type: "submit", id: "join-room" }, t("online.join"))),
          h("p", { class: "hint", id: "join-hint" }, t("online.code_hint"))),
        h("div", { class: "open-rooms-head" }, h("h3", {}, t("online.open_title")),
          h("button", { type: "button", class: "ghost small", id: "refresh-rooms", onclick: refresh }, t("online.refresh"))),
        openList)),
    errorBox);
  return { element, stop: () => clearInterval(timer) };
}
