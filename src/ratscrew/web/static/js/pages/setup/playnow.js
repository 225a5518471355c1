// @ts-check
// Play now, on the Play page: choose a table's size, rated or not (signed in only), and the rules' preset; one
// press queues, and the panel then says how long it has waited (a live line says what changed), offers to
// leave (one press), and after 20 s to play with computers instead. It asks where the player stands every
// second, which also tells the server the page is still there (a closed page leaves the queue after 10 s; a
// page leaving says so as it goes). Once a table is found the page goes to the room with its seat's token.
// An account is known by its session (its changes carry the CSRF token); a guest by the queue token the
// join answered, kept in this browser.
import { h, announce } from "../../dom.js";
import { t, tn } from "../../i18n.js";
import { RequestError, errorText, sendJSON } from "../../api.js";
import { accountState, loadAccount } from "../../account.js";
import { keepName, saveToken, savedName } from "../../connection.js";
import { presetSelect } from "../../rules-form.js";
import { takeAgain } from "./again.js";
import { limitNote } from "../../name-limit.js";
/** @import { PageContext, PlayNowAnswer } from "../../types.js" */

const CHOICE_KEY = "ratscrew.playnow";
const TOKEN_KEY = "ratscrew.playnow.token";
const ASK_EVERY_MS = 1000;

/**
 * What the panel has chosen, kept in this browser.
 * @typedef {{ size: "2" | "3-4", rated: boolean, preset: string }} Choice
 */

/** @returns {Choice} */
function loadChoice() {
  /** @type {Choice} */
  const fallback = { size: "2", rated: true, preset: "standard" }; // rated unless chosen otherwise (guests never are)
  try {
    const saved = JSON.parse(localStorage.getItem(CHOICE_KEY) ?? "null");
    if (saved && (saved.size === "2" || saved.size === "3-4")) return { ...fallback, ...saved };
  } catch { /* a broken saved value: the defaults */ }
  return fallback;
}

/** @returns {string | null} a guest's queue token kept in this browser */
function guestToken() {
  try { return localStorage.getItem(TOKEN_KEY); } catch { return null; }
}

/** @param {string | null} token */
function keepToken(token) {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch { /* storage refused: the token lasts as long as this page */ }
}

/**
 * A Play-now request, as this browser is: with the CSRF token when signed in, else with the guest's token.
 * @param {string} route after /api/playnow/
 * @param {Record<string, unknown>} [body]
 * @returns {Promise<PlayNowAnswer>}
 */
function ask(route, body = {}) {
  const { csrf } = accountState();
  const token = guestToken();
  const sent = csrf ? body : { ...body, ...(token ? { token } : {}) };
  return sendJSON(`/api/playnow/${route}`, sent, "POST", csrf ? { "X-CSRF-Token": csrf } : {});
}

/**
 * Leave the queue as the page goes (a closed tab, another site): a request that outlives the page.
 */
function leaveAsThePageGoes() {
  const { csrf } = accountState();
  const token = guestToken();
  if (!csrf && !token) return;
  fetch("/api/playnow/leave", {
    method: "POST",
    keepalive: true,
    headers: { "Content-Type": "application/json", ...(csrf ? { "X-CSRF-Token": csrf } : {}) },
    body: JSON.stringify(csrf ? {} : { token }),
  }).catch(() => { /* the page is going: the heartbeat's silence takes it out of the queue anyway */ });
}

/**
 * The Play now panel; `stop` leaves the queue if the player was still waiting and goes elsewhere in the app.
 * @param {PageContext} ctx
 * @returns {{ element: HTMLElement, stop: () => void }}
 */
export function playNowPanel(ctx) {
  const { meta } = ctx;
  const choice = loadChoice();
  const save = () => localStorage.setItem(CHOICE_KEY, JSON.stringify(choice));

  /** @type {["2" | "3-4", string][]} */
  const sizes = [["2", "playnow.size.two"], ["3-4", "playnow.size.more"]];
  const sizeSwitch = h("div", { class: "mode-switch playnow-size", role: "radiogroup", "aria-labelledby": "playnow-size-label" },
    ...sizes.map(([value, key]) => {
      const input = h("input", { type: "radio", name: "playnow-size", value, id: `playnow-size-${value}`, checked: choice.size === value });
      input.addEventListener("change", () => { choice.size = value; save(); });
      return h("label", { class: "mode-option" }, input, h("span", { class: "mode-title" }, t(key)));
    }));
  const ratedBox = h("input", { type: "checkbox", id: "playnow-rated", checked: choice.rated });
  ratedBox.addEventListener("change", () => { choice.rated = ratedBox.checked; save(); });
  const ratedRow = h("div", { class: "option option-bool playnow-rated", hidden: true }, ratedBox,
    h("label", { for: "playnow-rated" }, t("playnow.rated")));
  const signInNote = h("p", { class: "hint", id: "playnow-sign-in", hidden: true }, t("playnow.rated_needs_account"), " ",
    h("a", { href: "#/sign-in", id: "playnow-sign-in-link" }, t("playnow.sign_in")));
  const nameInput = h("input", { type: "text", id: "playnow-name", maxlength: 24, value: savedName(), autocomplete: "nickname",
    placeholder: t("room.name_placeholder") });
  nameInput.addEventListener("input", () => keepName(nameInput.value.trim()));
  const nameRow = h("div", { class: "field-row", hidden: true }, h("label", { for: "playnow-name" }, t("playnow.name")), nameInput,
    limitNote(nameInput));
  const presetRow = h("div", { class: "field-row" }, h("label", { for: "playnow-preset" }, t("setup.preset")),
    presetSelect(meta, choice.preset, { id: "playnow-preset", onChange: (name) => { choice.preset = name; save(); } }));
  const goButton = h("button", { type: "button", id: "play-now", class: "big" }, t("playnow.go"));
  const choose = h("div", { class: "playnow-choose" },
    h("p", { class: "field-label", id: "playnow-size-label" }, t("playnow.size")), sizeSwitch,
    ratedRow, signInNote, presetRow, nameRow, h("div", { class: "playnow-go" }, goButton));

  // While waiting: what for, for how long (a timer, not read out each second), and the two ways out.
  const status = h("p", { class: "playnow-status", id: "playnow-status", role: "status", "aria-live": "polite" });
  const waited = h("p", { class: "playnow-waited", id: "playnow-waited", role: "timer" });
  const leaveButton = h("button", { type: "button", id: "playnow-leave", class: "secondary" }, t("playnow.leave"));
  const computersButton = h("button", { type: "button", id: "playnow-computers", hidden: true }, t("playnow.computers"));
  const waitBox = h("div", { class: "playnow-wait", id: "playnow-wait", hidden: true }, waited,
    h("div", { class: "playnow-actions" }, leaveButton, computersButton));
  const errorBox = h("p", { class: "error-box", id: "playnow-error", role: "alert", hidden: true });
  const backLink = h("a", { class: "button secondary", id: "playnow-back", hidden: true }, t("playnow.back_to_table"));

  /** @type {"idle" | "waiting" | "going"} */
  let phase = "idle";
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;

  /** @param {string} text */
  function fail(text) {
    errorBox.textContent = text;
    errorBox.hidden = false;
  }

  /**
   * What the server said of where the player stands, shown.
   * @param {PlayNowAnswer} answer
   */
  function show(answer) {
    if (answer.token) keepToken(answer.token);
    if (answer.where === "placed" && answer.ticket) {
      go(answer.ticket.room, answer.ticket.token);
      return;
    }
    if (answer.where === "waiting" || answer.where === "seating") {
      const starting = phase !== "waiting";
      phase = "waiting";
      choose.hidden = true;
      waitBox.hidden = false;
      backLink.hidden = true;
      const pool = answer.pool;
      const label = pool ? poolText(pool.size, pool.rated, pool.preset) : "";
      const line = answer.where === "seating" ? t("playnow.seating") : t("playnow.waiting", { pool: label });
      const said = answer.computers ? `${line} ${t("playnow.computers_ready")}` : line;
      if (status.textContent !== said) status.textContent = said; // the live line changes only when there is news
      waited.textContent = tn("playnow.waited", answer.waited_s);
      computersButton.hidden = !answer.computers;
      if (starting) { // the choices folded away: the panel's words and its buttons in sight, Leave focused
        leaveButton.focus({ preventScroll: true });
        element.scrollIntoView({ block: "nearest" });
      }
      schedule();
      return;
    }
    idle();
  }

  /**
   * @param {"2" | "3-4"} size
   * @param {boolean} rated
   * @param {string} preset
   */
  function poolText(size, rated, preset) {
    const label = meta.presets.find((p) => p.name === preset)?.label ?? preset;
    return t("playnow.pool", { size: t(size === "2" ? "playnow.size.two" : "playnow.size.more"),
      rated: t(rated ? "playnow.pool.rated" : "playnow.pool.unrated"), preset: label });
  }

  /**
   * To the table: the room's page finds the seat's token where every room's page keeps its own.
   * @param {string} room
   * @param {string} token
   */
  function go(room, token) {
    if (phase === "going") return; // a press and the poll may both answer with the ticket: one way to the room
    phase = "going";
    clearTimeout(timer);
    saveToken(room, token);
    announce(t("playnow.placed"));
    ctx.navigate(`#/room/${room}`);
  }

  /** @param {string} [said] what to tell the player, if anything */
  function idle(said) {
    const wasWaiting = phase === "waiting";
    phase = "idle";
    clearTimeout(timer);
    choose.hidden = false;
    waitBox.hidden = true;
    status.textContent = said ?? "";
    if (wasWaiting) goButton.focus();
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(poll, ASK_EVERY_MS);
  }

  async function poll() {
    if (phase !== "waiting") return;
    try {
      show(await ask("where"));
    } catch (error) {
      if (phase !== "waiting") return;
      if (error instanceof RequestError && error.status === 404) {
        keepToken(null);
        idle(t("playnow.error.nowhere"));
        return;
      }
      // The site's shared queue is away (its workers' Redis): said, the place kept; asked again until it is back.
      if (error instanceof RequestError && error.code === "queue_away" && status.textContent !== t("playnow.away")) {
        status.textContent = t("playnow.away");
      }
      schedule(); // the network or the server hiccuped: ask again (the heartbeat's 10 s allow a few)
    }
  }

  /** @param {unknown} error */
  function refused(error) {
    const code = error instanceof RequestError ? error.code : null;
    if (code === "sign_in") fail(t("playnow.error.sign_in"));
    else if (code === "too_early") fail(t("playnow.error.too_early"));
    else if (code === "queue_away") fail(t("playnow.error.queue_away"));
    else if (error instanceof RequestError && error.status === 429) fail(t("playnow.error.too_many"));
    else fail(errorText(error));
  }

  goButton.addEventListener("click", async () => {
    errorBox.hidden = true;
    goButton.disabled = true;
    const signedIn = Boolean(accountState().account);
    /** @type {Record<string, unknown>} */
    const body = { size: choice.size, rated: signedIn && choice.rated, preset: choice.preset };
    if (!signedIn) body.name = nameInput.value.trim() || t("setup.player_n", { n: 1 });
    try {
      show(await ask("join", body));
    } catch (error) {
      // Already queued or seated (another tab, or before a reload): where the player stands is shown instead.
      if (error instanceof RequestError && error.code === "already_playing") await resume(true);
      else refused(error);
    } finally {
      goButton.disabled = false;
    }
  });

  leaveButton.addEventListener("click", async () => {
    clearTimeout(timer);
    idle(t("playnow.left"));
    try { await ask("leave"); } catch { /* gone already: nothing to leave */ }
  });

  computersButton.addEventListener("click", async () => {
    computersButton.disabled = true;
    try {
      show(await ask("computers"));
    } catch (error) {
      refused(error);
    } finally {
      computersButton.disabled = false;
    }
  });

  /**
   * Where the player already stands (waiting from before a reload, or at a table), shown.
   * @param {boolean} [pressed] Play now was pressed: a table already held is said, not only offered
   */
  async function resume(pressed = false) {
    const { account } = accountState();
    if (!account && !guestToken()) return;
    try {
      const answer = await ask("where");
      if (answer.where === "placed" && answer.ticket) {
        // Seated already: offered, not forced (the player may have left that table on purpose).
        const { room, token } = answer.ticket;
        backLink.setAttribute("href", `#/room/${room}`);
        backLink.onclick = () => saveToken(room, token);
        backLink.hidden = false;
        if (pressed) fail(t("playnow.error.seated"));
        return;
      }
      show(answer);
    } catch (error) {
      if (error instanceof RequestError && error.status === 404) keepToken(null);
    }
  }

  const again = takeAgain();
  loadAccount().then(({ account }) => {
    ratedRow.hidden = !account;
    signInNote.hidden = Boolean(account);
    nameRow.hidden = Boolean(account);
    if (again) { // from a summary's "Play now again": the panel in sight, queued with the same choices
      element.scrollIntoView({ block: "start" });
      goButton.click();
    } else resume();
  });

  const pagehide = () => { if (phase === "waiting") leaveAsThePageGoes(); };
  window.addEventListener("pagehide", pagehide);

  const element = h("section", { class: "playnow panel", id: "playnow", "aria-labelledby": "playnow-title" },
    h("h2", { id: "playnow-title" }, t("playnow.title")),
    h("p", { class: "hint" }, t("playnow.lead")),
    choose, status, waitBox, backLink, errorBox);
  return {
    element,
    stop: () => {
      window.removeEventListener("pagehide", pagehide);
      clearTimeout(timer);
      if (phase === "waiting") leaveAsThePageGoes(); // elsewhere in the app: out of the queue at once
    },
  };
}
