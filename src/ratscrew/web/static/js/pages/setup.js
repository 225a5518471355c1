// @ts-check
// New game: who sits where (people or computers at a level), the house rules, the computers' pace; below it,
// Play now (a table with whoever waits: setup/playnow.js), and playing online with friends.
import { useStyles } from "../styles.js";
import { h, clear, announce, reducedMotion } from "../dom.js";
import { t, translate } from "../i18n.js";
import { RequestError, errorText, getJSON, sendJSON } from "../api.js";
import { cardBack, cardFace } from "../cards.js";
import { invalidRule, presetValues, rulesForm } from "../rules-form.js";
import { learnLink } from "../learn-link.js";
import { fillChips, summaryDrawer } from "../summary.js";
import { keepName, saveToken, savedName } from "../connection.js";
import { playNowPanel } from "./setup/playnow.js";
import { limitNote } from "../name-limit.js";
/** @import { CreatedGame, CreatedRoom, Meta, OpenRoom, PageContext, RulesDoc } from "../types.js" */

const SETTINGS_KEY = "ratscrew.setup";
const PERSON_ICON = '<svg viewBox="0 0 24 24"><circle cx="12" cy="8" r="4.2" fill="currentColor"/><path d="M3.5 21c1-4.6 4.4-7 8.5-7s7.5 2.4 8.5 7z" fill="currentColor"/></svg>';
const COMPUTER_ICON = '<svg viewBox="0 0 24 24"><rect x="4" y="6" width="16" height="12" rx="3" fill="currentColor"/><circle cx="9" cy="12" r="1.8" fill="#fff"/><circle cx="15" cy="12" r="1.8" fill="#fff"/><path d="M12 2v4M8 21h8" stroke="currentColor" stroke-width="2"/></svg>';
/** @type {[string, number][]} */
const PACES = [["leisurely", 1.5], ["normal", 1.0], ["brisk", 0.6]];
const MAX_SEATS = 12;

/**
 * One seat of the new game: a person, or a computer at a level; an empty name takes the default.
 * @typedef {{ name: string, kind: "human" | "bot", level?: string }} SeatChoice
 */
/**
 * What the form has chosen, kept in this browser for the next visit.
 * @typedef {object} Settings
 * @property {"solo" | "local"} mode one person against computers, or two on one screen
 * @property {SeatChoice[]} seats
 * @property {string} preset
 * @property {RulesDoc} values the whole rules, the preset's with the house rules changed
 * @property {string} pace a name in PACES
 */

/**
 * @param {Meta} meta
 * @returns {Settings}
 */
function defaultSettings(meta) {
  return {
    mode: "solo",
    seats: [
      { name: "", kind: "human" },
      { name: "", kind: "bot", level: "medium" },
      { name: "", kind: "bot", level: "medium" },
      { name: "", kind: "bot", level: "medium" },
    ],
    preset: "standard",
    values: presetValues(meta, "standard"),
    pace: "normal",
  };
}

/**
 * The settings saved in this browser (the rules of their preset where none were saved), else the defaults.
 * @param {Meta} meta
 * @returns {Settings}
 */
function loadSettings(meta) {
  try {
    const saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? "null");
    if (saved && Array.isArray(saved.seats)) {
      const settings = { ...defaultSettings(meta), ...saved };
      return saved.values ? settings : { ...settings, values: presetValues(meta, settings.preset) };
    }
  } catch { /* a broken saved value falls back to the defaults */ }
  return defaultSettings(meta);
}

/**
 * @param {SeatChoice} seat
 * @param {number} index
 */
function defaultName(seat, index) {
  return seat.kind === "human" ? t("setup.player_n", { n: index + 1 }) : t("setup.computer_n", { n: index + 1 });
}

/**
 * The rules the form shows, as the server takes them.
 * @param {Settings} settings
 * @returns {RulesDoc}
 */
function chosenRules(settings) {
  return Object.assign({ preset: settings.preset }, settings.values); // the values name their preset (rules-form.js)
}

/**
 * @param {HTMLElement} view
 * @param {PageContext} ctx
 */
export async function render(view, ctx) {
  await useStyles("setup", "room");
  const { meta } = ctx;
  const settings = loadSettings(meta);
  const save = () => localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));

  const errorBox = h("p", { class: "error-box", hidden: true, role: "alert" });
  const rulesPart = rulesChoice(meta, settings, save, errorBox);
  const seats = seatEditor(meta, settings, save, rulesPart);
  const online = onlinePanel(ctx, () => chosenRules(settings), rulesPart.unfixed);
  const playNow = playNowPanel(ctx);

  /** @param {SubmitEvent} event */
  async function start(event) {
    event.preventDefault();
    errorBox.hidden = true;
    const unfixed = rulesPart.unfixed();
    if (unfixed) {
      errorBox.textContent = unfixed;
      errorBox.hidden = false;
      return;
    }
    const chosen = settings.seats.map((seat, i) => ({
      name: (seat.name || "").trim() || defaultName(seat, i),
      kind: seat.kind,
      level: seat.kind === "bot" ? seat.level : undefined,
    }));
    const pace = (PACES.find(([name]) => name === settings.pace) || PACES[1])[1];
    try {
      /** @type {CreatedGame} */
      const created = await sendJSON("/api/games", { seats: chosen, rules: chosenRules(settings), bot_pace: pace });
      saveToken(created.id, created.token);
      ctx.navigate(`#/game/${created.id}`);
    } catch (error) {
      errorBox.textContent = errorText(error);
      errorBox.hidden = false;
      // Said where the player looks: the box is above the house rules, often far above a phone's screen.
      errorBox.scrollIntoView({ block: "center", behavior: reducedMotion() ? "auto" : "smooth" });
    }
  }

  const form = h("form", { class: "setup panel", novalidate: true }, // the house rules say themselves what is wrong
    h("h2", { "data-i18n": "setup.who" }), seats.modeSwitch, seats.element,
    h("div", { class: "field-row" }, h("label", { for: "pace", "data-i18n": "setup.pace" }), paceSelect(settings, save)),
    h("h2", { "data-i18n": "setup.rules" }),
    h("p", { class: "hint", "data-i18n": "setup.agree" }),
    h("div", { class: "field-row" }, h("label", { for: "preset", "data-i18n": "setup.preset" }), rulesPart.presetSelect),
    rulesPart.presetSummary, rulesPart.chipsBox,
    h("p", { class: "learn-these" }, learnLink(() => chosenRules(settings))),
    rulesPart.details,
    errorBox,
    h("div", { class: "start-row" }, h("button", { type: "submit", id: "start-game", class: "big" }, t("setup.start")),
      h("span", { class: "hint keys-hint" }, t("setup.keys_hint"))));
  form.addEventListener("submit", start);
  view.append(
    h("section", { class: "setup-hero" },
      h("div", {}, h("h1", { "data-i18n": "setup.title" }), h("p", { class: "lead", "data-i18n": "setup.lead" })), heroCards()),
    // A game against the computer first: it is one button away (kept on the screen while the form is).
    form,
    playNow.element,
    online.element);
  seats.render();
  rulesPart.render();
  translate(view);
  return () => {
    playNow.stop();
    online.stop();
  };
}

/** A fan of cards beside the title. */
function heroCards() {
  return h("div", { class: "hero-cards", "aria-hidden": "true" },
    h("div", { class: "hero-card c1" }, cardBack()), h("div", { class: "hero-card c2" }, cardFace("7S")),
    h("div", { class: "hero-card c3" }, cardFace("KH")), h("div", { class: "hero-card c4" }, cardFace("7D")));
}

/**
 * @param {Settings} settings
 * @param {() => void} save
 */
function paceSelect(settings, save) {
  const select = h("select", { id: "pace" },
    ...PACES.map(([name]) => h("option", { value: name, selected: settings.pace === name }, t(`setup.pace.${name}`))));
  select.addEventListener("change", () => { settings.pace = select.value; save(); });
  return select;
}

/**
 * The rules part of the form: the preset, the chips and lines the server writes for these rules and this
 * many seats, and the house rules.
 * @param {Meta} meta
 * @param {Settings} settings
 * @param {() => void} save
 * @param {HTMLElement} errorBox where a summary the server could not write says so
 */
function rulesChoice(meta, settings, save, errorBox) {
  const rulesBox = h("div", { class: "rules-options" });
  const details = h("details", { class: "house-rules" }, h("summary", { "data-i18n": "setup.house_rules" }), rulesBox);
  const chipsBox = h("div", { class: "rule-chips", "aria-live": "polite" });
  const presetSelect = h("select", { id: "preset", name: "preset" });
  const presetSummary = h("p", { class: "hint", id: "preset-summary" });
  const deckLine = h("p", { class: "hint", id: "deck-line" });
  let summaryFailed = false;
  const drawSummary = summaryDrawer((summary) => {
    if (summaryFailed) errorBox.hidden = true;
    summaryFailed = false;
    fillChips(chipsBox, summary);
    presetSummary.textContent = summary.preset.text;
    deckLine.textContent = summary.deck.line;
  }, { onError: (error) => {
    summaryFailed = true;
    errorBox.textContent = errorText(error);
    errorBox.hidden = false;
  } });
  const refreshSummary = () => drawSummary(chosenRules(settings), settings.seats.length);

  function render() {
    clear(rulesBox);
    rulesBox.append(...rulesForm(meta, settings.values, { onChange: () => { refreshSummary(); save(); } }));
    refreshSummary();
  }

  for (const preset of meta.presets) presetSelect.append(h("option", { value: preset.name, selected: preset.name === settings.preset }, preset.label));
  presetSelect.addEventListener("change", () => {
    settings.preset = presetSelect.value;
    settings.values = presetValues(meta, settings.preset);
    render();
    save();
    announce(t("setup.preset_chosen", { name: presetSelect.selectedOptions[0]?.textContent ?? "" }));
  });
  /**
   * What to tell the player when a house rule was typed wrong (the field says what and keeps focus), or "".
   * @returns {string}
   */
  function unfixed() {
    const field = invalidRule(rulesBox);
    if (!field) return "";
    details.open = true;
    field.focus();
    return t("setup.fix_rules");
  }
  return { details, chipsBox, presetSelect, presetSummary, deckLine, render, refreshSummary, unfixed };
}

/**
 * Who sits where: one row per seat (its name, and a computer's level), a seat added or removed, and the
 * mode (one person, or two on one screen) that decides which seats are people.
 * @param {Meta} meta
 * @param {Settings} settings
 * @param {() => void} save
 * @param {{ deckLine: HTMLElement, refreshSummary: () => void }} rules the deck line shows under the seats
 */
function seatEditor(meta, settings, save, rules) {
  const element = h("div", { class: "seat-list" });

  function render() {
    clear(element);
    settings.seats.forEach((seat, index) => element.append(seatRow(seat, index)));
    if (settings.seats.length < MAX_SEATS) {
      const add = h("button", { type: "button", class: "secondary add-seat", id: "add-seat" }, t("setup.add_computer"));
      add.addEventListener("click", () => {
        settings.seats.push({ name: "", kind: "bot", level: "medium" });
        render();
        save();
        // The button moved down a row: it keeps the focus, and stays in sight above the start bar.
        const next = /** @type {HTMLElement | null} */ (element.querySelector("#add-seat"));
        next?.focus({ preventScroll: true });
        (next ?? element.lastElementChild)?.scrollIntoView({ block: "nearest" });
      });
      element.append(add);
    }
    element.append(rules.deckLine);
    rules.refreshSummary();
  }

  /**
   * @param {SeatChoice} seat
   * @param {number} index
   */
  function seatRow(seat, index) {
    const nameInput = h("input", { type: "text", maxlength: 24, value: seat.name, id: `seat-name-${index}`,
      placeholder: defaultName(seat, index), "aria-label": t("setup.seat_name", { n: index + 1 }) });
    nameInput.addEventListener("input", () => { seat.name = nameInput.value; save(); });
    const kind = seat.kind === "human"
      ? h("span", { class: "chip seat-kind" }, settings.mode === "local" ? t("setup.person") : t("setup.you"))
      : levelSelect(seat, index);
    let remove = null;
    if (seat.kind === "bot" && settings.seats.length > 2) {
      remove = h("button", { type: "button", class: "ghost small", "aria-label": t("setup.remove_seat", { n: index + 1 }) }, "✕");
      remove.addEventListener("click", () => { settings.seats.splice(index, 1); render(); save(); });
    }
    const mini = h("span", { class: `seat-avatar ${seat.kind}`, "aria-hidden": "true", html: seat.kind === "human" ? PERSON_ICON : COMPUTER_ICON });
    return h("div", { class: "seat-row" }, mini, h("span", { class: "seat-number" }, `${index + 1}`), nameInput, kind, remove,
      limitNote(nameInput));
  }

  /**
   * @param {SeatChoice} seat
   * @param {number} index
   */
  function levelSelect(seat, index) {
    const select = h("select", { "aria-label": t("setup.level_for", { n: index + 1 }), id: `seat-level-${index}` });
    select.addEventListener("change", () => { seat.level = select.value; save(); });
    for (const level of meta.levels) select.append(h("option", { value: level.name, selected: seat.level === level.name, title: level.summary }, level.label));
    select.append(h("option", { value: "match", selected: seat.level === "match" }, t("level.match")));
    return select;
  }

  /** @param {"solo" | "local"} mode */
  function applyMode(mode) {
    settings.mode = mode;
    const humans = mode === "local" ? 2 : 1;
    settings.seats = settings.seats.map((s, i) => (i < humans ? { ...s, kind: "human" } : { ...s, kind: "bot", level: s.level || "medium" }));
    while (settings.seats.length < 2) settings.seats.push({ name: "", kind: "bot", level: "medium" });
    render();
    save();
  }

  /** @type {["solo" | "local", string, string][]} */
  const modes = [["solo", "setup.mode.solo", "setup.mode.solo_hint"], ["local", "setup.mode.local", "setup.mode.local_hint"]];
  const modeSwitch = h("div", { class: "mode-switch", role: "radiogroup", "aria-label": t("setup.mode") },
    ...modes.map(([mode, label, hint]) => {
      const input = h("input", { type: "radio", name: "mode", value: mode, checked: settings.mode === mode });
      input.addEventListener("change", () => applyMode(mode));
      return h("label", { class: "mode-option" }, input, h("span", { class: "mode-title" }, t(label)), h("span", { class: "mode-hint" }, t(hint)));
    }));
  return { element, modeSwitch, render };
}

/**
 * Play online with friends: create a room (private, with a code and a link; or listed in the open lobby),
 * join one by its code, or pick one of the open rooms waiting for players (the list refreshes itself).
 * @param {PageContext} ctx
 * @param {() => RulesDoc} currentRules the rules the form above shows: a new room starts with them
 * @param {() => string} unfixed what is wrong with those rules as typed ("" when nothing is)
 */
function onlinePanel(ctx, currentRules, unfixed) {
  const errorBox = h("p", { class: "error-box", id: "online-error", hidden: true, role: "alert" });
  const nameInput = h("input", { type: "text", id: "online-name", maxlength: 24, value: savedName(), autocomplete: "nickname",
    placeholder: t("room.name_placeholder") });
  nameInput.addEventListener("input", () => keepName(nameInput.value.trim()));
  const seatsSelect = h("select", { id: "online-seats" });
  for (let n = 2; n <= MAX_SEATS; n++) seatsSelect.append(h("option", { value: n, selected: n === 4 }, String(n)));
  /** @type {[string, boolean][]} */
  const kinds = [["private", false], ["public", true]];
  const visibility = h("div", { class: "mode-switch online-visibility", role: "radiogroup", "aria-label": t("online.visibility") },
    ...kinds.map(([name, pub]) =>
      h("label", { class: "mode-option" },
        h("input", { type: "radio", name: "online-visibility", value: name, checked: !pub }),
        h("span", { class: "mode-title" }, t(`online.${name}`)), h("span", { class: "mode-hint" }, t(`online.${name}_hint`)))));
  const standins = h("input", { type: "checkbox", id: "online-standins", checked: true });
  const codeInput = h("input", { type: "text", id: "join-code", maxlength: 12, autocomplete: "off", autocapitalize: "characters",
    spellcheck: "false", placeholder: "ABC234", "aria-describedby": "join-hint" });
  const openList = h("ul", { class: "open-rooms", id: "open-rooms", "aria-live": "polite" });
  const joinError = h("p", { class: "error-box", id: "join-error", role: "alert", hidden: true });
  codeInput.setAttribute("aria-describedby", "join-hint join-error");
  codeInput.addEventListener("input", () => { joinError.hidden = true; codeInput.removeAttribute("aria-invalid"); });

  /** @param {unknown} error */
  function fail(error) {
    errorBox.textContent = errorText(error) || String(error);
    errorBox.hidden = false;
  }

  /** @param {SubmitEvent} event */
  async function create(event) {
    event.preventDefault();
    errorBox.hidden = true;
    const wrong = unfixed();
    if (wrong) {
      fail(wrong);
      return;
    }
    const name = nameInput.value.trim() || t("setup.player_n", { n: 1 });
    keepName(nameInput.value.trim());
    /** @type {HTMLInputElement | null} */
    const checked = createForm.querySelector("input[name=online-visibility]:checked");
    const pub = checked?.value === "public";
    try {
      /** @type {CreatedRoom} */
      const created = await sendJSON("/api/rooms", { public: pub, seats: Number(seatsSelect.value), name, standins: standins.checked, rules: currentRules() });
      saveToken(created.code, created.token);
      ctx.navigate(`#/room/${created.code}`);
    } catch (error) {
      fail(error);
    }
  }

  /** @param {SubmitEvent} event */
  async function join(event) {
    event.preventDefault();
    errorBox.hidden = true;
    joinError.hidden = true;
    const typed = codeInput.value.trim();
    const code = typed.replace(/[^0-9a-z]/gi, "").toUpperCase();
    if (code.length !== ctx.meta.room_code_length) {
      joinFail(typed ? t("online.code_shape", { n: ctx.meta.room_code_length }) : t("online.code_missing"));
      return;
    }
    try {
      await getJSON(`/api/rooms/${encodeURIComponent(code)}`);
      ctx.navigate(`#/room/${code}`);
    } catch (error) {
      const status = error instanceof RequestError ? error.status : 0;
      if (status === 404) joinFail(t("online.code_unknown", { code }));
      else if (status === 429) joinFail(t("online.code_too_many"));
      else joinFail(errorText(error));
    }
  }

  /** @param {string} text what was wrong with the code, said by the field it is about */
  function joinFail(text) {
    joinError.textContent = text;
    joinError.hidden = false;
    codeInput.setAttribute("aria-invalid", "true");
    codeInput.focus();
  }

  async function refresh() {
    /** @type {OpenRoom[]} */
    let rooms;
    try {
      /** @type {{ rooms: OpenRoom[] }} */
      const answer = await getJSON("/api/rooms");
      rooms = answer.rooms;
    } catch (error) {
      fail(error);
      return;
    }
    clear(openList);
    if (!rooms.length) openList.append(h("li", { class: "hint" }, t("online.none_open")));
    for (const room of rooms) openList.append(openRoomItem(ctx.meta, room));
  }
  refresh();
  const timer = setInterval(() => { if (!document.hidden) refresh(); }, 15000); // rooms open and fill meanwhile

  const createForm = h("form", { class: "online-create", "aria-labelledby": "online-create-title" },
    h("h3", { id: "online-create-title" }, t("online.create_title")),
    visibility,
    h("div", { class: "field-row" }, h("label", { for: "online-seats" }, t("room.seat_count")), seatsSelect),
    h("div", { class: "option option-bool" }, standins, h("label", { for: "online-standins" }, t("online.standins"))),
    h("p", { class: "hint" }, t("online.rules_hint")),
    h("button", { type: "submit", id: "create-room" }, t("online.create")));
  createForm.addEventListener("submit", create);
  const joinForm = h("form", { "aria-labelledby": "online-join-title" },
    h("h3", { id: "online-join-title" }, t("online.join_title")),
    h("div", { class: "field-row" }, h("label", { for: "join-code" }, t("online.code")), codeInput,
      h("button", { type: "submit", id: "join-room" }, t("online.join"))),
    h("p", { class: "hint", id: "join-hint" }, t("online.code_hint")),
    joinError);
  joinForm.addEventListener("submit", join);
  const refreshButton = h("button", { type: "button", class: "ghost small", id: "refresh-rooms" }, t("online.refresh"));
  refreshButton.addEventListener("click", refresh);

  const element = h("section", { class: "online panel", id: "online", "aria-labelledby": "online-title" },
    h("h2", { id: "online-title" }, t("online.title")),
    h("p", { class: "hint" }, t("online.lead")),
    h("div", { class: "field-row" }, h("label", { for: "online-name" }, t("room.your_name")), nameInput, limitNote(nameInput)),
    h("div", { class: "online-grid" },
      createForm,
      h("div", { class: "online-join" },
        joinForm,
        h("div", { class: "open-rooms-head" }, h("h3", {}, t("online.open_title")), refreshButton),
        openList)),
    errorBox);
  return { element, stop: () => clearInterval(timer) };
}

/**
 * One room of the open lobby: whose it is, how many seats are free, its rules, and a link in.
 * @param {Meta} meta
 * @param {OpenRoom} room
 */
function openRoomItem(meta, room) {
  const preset = meta.presets.find((p) => p.name === room.preset);
  return h("li", { class: "open-room" },
    h("span", { class: "open-room-text" },
      h("strong", {}, t("online.room_of", { name: room.host || room.code })), " ",
      h("span", { class: "hint" }, t("online.room_line", { free: room.free, seats: room.seats, preset: preset ? preset.label : room.preset }))),
    h("a", { class: "button secondary small", href: `#/room/${room.code}`, "aria-label": t("online.join_room", { name: room.host || room.code }) },
      t("online.join")));
}
