// @ts-check
// Quick reactions: a few fixed ones a player sends with one press (never free text), each shown by its
// sender's seat on every page for about two seconds, in the lobby's seat list and round the table alike. A
// button in the room's header opens them in a popover (over the table: nothing moves under the player's
// hands), with a switch that hides every reaction on this page (this browser remembers it). The server
// limits how many each player sends; a refusal is said in the popover.
import { h, announce } from "../../dom.js";
import { t } from "../../i18n.js";
import { pref, setPref } from "../../prefs.js";
import { icon } from "./icons.js";
/** @import { ClientMessage, ReactionCode, ReactionMessage, RoomDoc, Seat } from "../../types.js" */

/** @type {Record<ReactionCode, string>} each reaction's picture (icons.js); its words are the catalogues' (room.react.CODE) */
export const REACTIONS = { hi: "wave", nice: "star", wow: "wow", oops: "oops", close: "grimace", wait: "watch", gg: "heart" };
export const SHOWN_MS = 2000;
const PREF = "reactions";

/** Whether this browser shows reactions (on unless its player turned them off). */
export function reactionsShown() {
  return pref(PREF, true) !== false;
}

/**
 * @typedef {object} Reactions
 * @property {HTMLButtonElement} opener the header's button that opens the panel
 * @property {HTMLElement} panel the reactions to send, and the switch (a popover)
 * @property {(message: ReactionMessage, room: RoomDoc, atTable: boolean) => void} show one reaction by its seat
 * @property {() => void} refused the server dropped one: too many lately
 * @property {(yours: Seat[]) => void} seated who this page plays (a watcher sees reactions, and sends none)
 */

/**
 * @param {(message: ClientMessage) => unknown} send
 * @returns {Reactions}
 */
export function buildReactions(send) {
  const opener = h("button", { type: "button", class: "ghost small react-opener", id: "react-open", popovertarget: "react-panel",
    title: t("room.react.title") }, icon("smile"), h("span", { class: "react-opener-text" }, t("room.react.title")));
  const note = h("p", { class: "hint react-note", id: "react-note", role: "status" });
  const panel = h("section", { class: "react-panel", id: "react-panel", popover: "auto", "aria-label": t("room.react.title") });
  const buttons = /** @type {[ReactionCode, string][]} */ (Object.entries(REACTIONS)).map(([code, picture]) => {
    const button = h("button", { type: "button", class: "secondary small react-button", id: `react-${code}`, dataset: { reaction: code } },
      icon(picture), " ", t(`room.react.${code}`));
    button.addEventListener("click", () => {
      note.textContent = "";
      send({ type: "react", reaction: code });
      panel.hidePopover(); // one press, one reaction: the table is in view again at once
    });
    return button;
  });
  const row = h("div", { class: "react-row", role: "group", "aria-label": t("room.react.title") }, ...buttons);
  const watching = h("p", { class: "hint", id: "react-watching", hidden: true }, t("room.react.watching"));
  const toggle = h("input", { type: "checkbox", id: "react-shown" });
  toggle.checked = reactionsShown();
  panel.append(row, watching, note, h("label", { class: "react-switch", for: "react-shown" }, toggle, " ", t("room.react.show")));
  // Under its button, kept inside the screen (a popover lies over the page, wherever its button is).
  panel.addEventListener("toggle", (event) => {
    if (/** @type {ToggleEvent} */ (event).newState !== "open") return;
    const box = opener.getBoundingClientRect();
    panel.style.top = `${Math.round(box.bottom + 6)}px`;
    panel.style.right = `${Math.round(Math.max(8, document.documentElement.clientWidth - box.right))}px`;
  });
  toggle.addEventListener("change", () => {
    setPref(PREF, toggle.checked);
    if (!toggle.checked) for (const bubble of document.querySelectorAll(".reaction-bubble")) bubble.remove();
  });

  return {
    opener,
    panel,
    show: (message, room, atTable) => {
      if (!reactionsShown()) return;
      const seat = document.getElementById(atTable ? `seat-${message.seat}` : `room-seat-${message.seat}`);
      const words = t(`room.react.${message.reaction}`);
      if (!seat || !(message.reaction in REACTIONS)) return;
      seat.querySelector(".reaction-bubble")?.remove(); // a seat shows its latest reaction
      const bubble = h("span", { class: "reaction-bubble", "aria-hidden": "true", dataset: { reaction: message.reaction } },
        icon(REACTIONS[message.reaction]), " ", words);
      seat.append(bubble);
      setTimeout(() => bubble.remove(), SHOWN_MS);
      announce(t("room.react.said", { name: room.seats[message.seat]?.name ?? "", reaction: words }));
    },
    refused: () => { note.textContent = t("room.rejected.too_fast"); },
    seated: (yours) => {
      row.hidden = yours.length === 0;
      watching.hidden = yours.length > 0;
    },
  };
}
