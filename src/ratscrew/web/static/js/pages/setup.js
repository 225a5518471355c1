// New game: who sits where (people or computers at a level), the house rules, the computers' pace.
import { h, clear, announce } from "../dom.js";
import { t, translate } from "../i18n.js";
import { sendJSON } from "../api.js";
import { ruleChips } from "../format.js";
import { cardBack, cardFace } from "../cards.js";
import { presetSummaryText, presetValues, rulesForm } from "../rules-form.js";
import { saveToken } from "../connection.js";

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
    const decks = settings.seats.length > 6 ? t("setup.two_decks") : t("setup.one_deck");
    seatsBox.append(h("p", { class: "hint" }, t("setup.seat_count", { n: settings.seats.length, decks })));
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
    rulesBox.append(...rulesForm(meta, settings.values, { onChange: () => { renderChips(); save(); } }));
    renderChips();
  }

  function renderChips() {
    clear(chipsBox);
    for (const chip of ruleChips(settings.values)) chipsBox.append(h("span", { class: "chip" }, chip));
    presetSummary.textContent = presetSummaryText(meta, settings.preset, settings.values);
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

  view.append(
    h("section", { class: "setup-hero" },
      h("div", {}, h("h1", { "data-i18n": "setup.title" }), h("p", { class: "lead", "data-i18n": "setup.lead" })), hero),
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
        h("span", { class: "hint" }, t("setup.keys_hint")))));
  renderSeats();
  renderRules();
  translate(view);
}
