// @ts-check
// "Is this slappable?": pick the pile's cards (rank buttons, optional suit), and ask /api/check with the
// match's own rules. The answer comes back as the patterns found and the cards that make each one.
import { h, clear, announce } from "../../dom.js";
import { t } from "../../i18n.js";
import { sendJSON } from "../../api.js";
import { cardName, rankLabel, suitGlyph } from "../../cards.js";
import { SUITS, describeError, handIcon, miniCard, miniRow, withKeys } from "./parts.js";
/** @import { CardText, Meta, RefereeAnswer, ScoreMatch } from "../../types.js" */

const REFEREE_MAX_CARDS = 20;
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];

/**
 * The referee's dialog, added to `view`; `currentMatch` gives the match as it is now (its rules and decks).
 * @param {HTMLElement} view
 * @param {Meta} meta
 * @param {() => ScoreMatch} currentMatch
 * @returns {{ open(): void, close(): void, isOpen(): boolean }}
 */
export function createReferee(view, meta, currentMatch) {
  /** @type {CardText[]} */
  const pile = [];
  let suit = ""; // "": any suit
  /** @type {Element | null} */
  let opener = null;

  const pileRow = h("div", { class: "sk-ref-pile", role: "list", "aria-label": t("scores.referee.pile") });
  const verdict = h("div", { class: "sk-verdict", "aria-live": "polite", "aria-atomic": "true" });
  const asker = verdictAsker(verdict, meta, currentMatch);
  const suitButtons = suitChoices(suit, chooseSuit);
  /** @type {Map<string, HTMLButtonElement>} */
  const rankButtons = new Map();
  const rankGrid = h("div", { class: "sk-ranks" });
  // The ranks' buttons, for the match as it is when the dialog opens (a joker's only where the deck has them).
  function buildRanks() {
    clear(rankGrid);
    rankButtons.clear();
    const m = currentMatch();
    const ranks = Number(m.rules_values["deck.jokers"]) > 0 ? [...RANKS, "X"] : RANKS;
    for (const rank of ranks) {
      const button = rankButton(rank);
      button.addEventListener("click", () => add(rank));
      rankButtons.set(rank, button);
      rankGrid.append(button);
    }
  }
  const removeButton = h("button", { type: "button", class: "secondary" }, h("span", { "aria-hidden": "true" }, "⌫ "), t("scores.referee.remove"));
  removeButton.addEventListener("click", () => removeLast());
  const clearButton = h("button", { type: "button", class: "secondary" }, t("scores.referee.clear"));
  clearButton.addEventListener("click", () => reset(true));
  const closeButton = h("button", { type: "button", class: "ghost sk-ref-close", "aria-label": t("scores.referee.close") }, h("span", { "aria-hidden": "true" }, "×"));

  const dialog = refereeDialog({ closeButton, pileRow, verdict, suitButtons, rankGrid, tools: [removeButton, clearButton] });
  closeButton.addEventListener("click", () => close());
  dialog.addEventListener("close", () => { /** @type {HTMLElement | null} */ (opener)?.focus?.(); opener = null; });
  dialog.addEventListener("click", (event) => { if (event.target === dialog) close(); });
  dialog.addEventListener("keydown", onKey);
  view.append(dialog);

  /** @param {string} s a suit letter, or "" for any */
  function chooseSuit(s) {
    suit = s;
    for (const button of suitButtons) button.setAttribute("aria-pressed", String(button.dataset.suit === s));
  }

  /**
   * Whether the pile may take one more of this card (the server would refuse it, so the buttons say so first).
   * @param {string} rank
   * @param {string} s
   */
  function canAdd(rank, s) {
    if (pile.length >= REFEREE_MAX_CARDS) return false;
    const m = currentMatch();
    return deckHasAnother(pile, rank, s, m.decks, Number(m.rules_values["deck.jokers"]) * m.decks);
  }

  function refreshButtons() {
    for (const [rank, button] of rankButtons) button.disabled = !canAdd(rank, rank === "X" ? "" : suit);
    removeButton.disabled = !pile.length;
    clearButton.disabled = !pile.length;
  }

  /** @param {string} rank */
  function add(rank) {
    const s = rank === "X" ? "" : suit;
    if (!canAdd(rank, s)) {
      announce(pile.length >= REFEREE_MAX_CARDS ? t("scores.referee.full", { n: REFEREE_MAX_CARDS }) : t("scores.referee.no_more"), { urgent: true });
      return;
    }
    const card = rank + s;
    pile.push(card);
    drawPile();
    announce(t("scores.referee.added", { card: spoken(card) }));
    check();
  }

  function removeLast() {
    const card = pile.pop();
    if (card === undefined) return;
    drawPile();
    announce(t("scores.referee.removed", { card: spoken(card) }));
    check();
  }

  /** @param {boolean} say whether to tell screen readers */
  function reset(say) {
    pile.length = 0;
    drawPile();
    if (say) announce(t("scores.referee.cleared"));
    check();
  }

  function drawPile() {
    clear(pileRow);
    if (!pile.length) pileRow.append(h("span", { class: "sk-ref-empty", role: "listitem" }, t("scores.referee.empty")));
    pile.forEach((card, i) => {
      const item = h("span", { class: `sk-ref-card${i === pile.length - 1 ? " top" : ""}`, role: "listitem" }, miniCard(card, { label: spoken(card) }));
      pileRow.append(item);
    });
    pileRow.scrollLeft = pileRow.scrollWidth;
    refreshButtons();
  }

  function check() {
    asker.ask(pile);
  }

  /** @param {KeyboardEvent} event */
  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toUpperCase();
    let handled = true;
    if (/^[2-9]$/.test(key)) add(key);
    else if (key === "0" || key === "T" || key === "1") add("T");
    else if (["J", "Q", "K", "A"].includes(key)) add(key);
    else if (key === "X" && rankButtons.has("X")) add("X");
    else if (["S", "H", "D", "C"].includes(key)) chooseSuit(suit === key ? "" : key);
    else if (key === "N") chooseSuit("");
    else if (key === "BACKSPACE") removeLast();
    else if (key === "DELETE") reset(true);
    else handled = false;
    if (handled) event.preventDefault();
  }

  function open() {
    if (dialog.open) return;
    opener = document.activeElement;
    buildRanks();
    drawPile();
    check();
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
    (rankButtons.get("7") || rankGrid.querySelector("button"))?.focus();
  }

  function close() {
    asker.cancel();
    if (dialog.open) {
      if (typeof dialog.close === "function") dialog.close();
      else dialog.removeAttribute("open");
    }
  }

  return {
    open,
    close,
    isOpen: () => dialog.open,
  };
}

/**
 * The dialog's layout: its title, the pile (bottom to top), the verdict, the suits, the ranks and the tools.
 * @param {{ closeButton: HTMLElement, pileRow: HTMLElement, verdict: HTMLElement, suitButtons: HTMLElement[],
 *   rankGrid: HTMLElement, tools: HTMLElement[] }} parts
 */
function refereeDialog({ closeButton, pileRow, verdict, suitButtons, rankGrid, tools }) {
  return h("dialog", { class: "sk-referee", "aria-labelledby": "sk-ref-title" },
    h("div", { class: "sk-ref-head" },
      h("h2", { id: "sk-ref-title" }, handIcon(), t("scores.referee.title")),
      closeButton),
    h("p", { class: "hint" }, t("scores.referee.hint")),
    h("div", { class: "sk-ref-pile-wrap" },
      h("span", { class: "sk-ref-end" }, t("scores.referee.bottom")), pileRow, h("span", { class: "sk-ref-end" }, t("scores.referee.top"))),
    verdict,
    h("div", { class: "sk-ref-suits", role: "group", "aria-label": t("scores.referee.suit") },
      h("span", { class: "sk-ref-label", "aria-hidden": "true" }, t("scores.referee.suit")), ...suitButtons),
    rankGrid,
    h("div", { class: "sk-ref-tools" }, ...tools),
    h("p", { class: "hint sk-ref-keys" }, ...withKeys(t("scores.referee.keys"))));
}

/**
 * "Any suit" and the four suits, as buttons that say which is chosen.
 * @param {string} chosen
 * @param {(suit: string) => void} choose
 */
function suitChoices(chosen, choose) {
  return ["", ...SUITS].map((s) => {
    const button = h("button", { type: "button", class: `sk-suit${s === "H" || s === "D" ? " red" : ""}`, "aria-pressed": String(s === chosen), dataset: { suit: s } },
      s ? h("span", { "aria-hidden": "true" }, suitGlyph(s)) : t("scores.referee.any_suit"),
      s ? h("span", { class: "visually-hidden" }, t(`card.suit.${s}`)) : null);
    button.addEventListener("click", () => choose(s));
    return button;
  });
}

/** @param {string} rank a rank letter, or "X" for a joker */
function rankButton(rank) {
  const label = rank === "X" ? t("card.joker") : t(`card.rank.${rank}`);
  return h("button", { type: "button", class: `sk-rank${rank === "X" ? " joker" : ""}`, "aria-label": label },
    h("span", { "aria-hidden": "true" }, rank === "X" ? "★" : rankLabel(rank)));
}

/**
 * Whether a deck of `decks` decks (with `jokers` jokers in all) still has a card for `rank` of suit `s` ("":
 * any suit) once the pile's cards are taken out; every bare rank in the pile needs some suit left for it.
 * @param {readonly CardText[]} pile
 * @param {string} rank
 * @param {string} s
 * @param {number} decks
 * @param {number} jokers
 */
function deckHasAnother(pile, rank, s, decks, jokers) {
  if (rank === "X") return pile.filter((c) => c === "X").length < jokers;
  const sameRank = pile.filter((c) => c !== "X" && c.slice(0, 1) === rank);
  if (sameRank.length >= 4 * decks) return false;
  if (!s) return true;
  const suited = sameRank.filter((c) => c.length === 2);
  const bare = sameRank.length - suited.length;
  if (suited.filter((c) => c === rank + s).length >= decks) return false;
  return suited.length + 1 + bare <= 4 * decks;
}

/**
 * A pile card in words: "Seven of hearts", or the rank alone for a card of any suit.
 * @param {CardText} card
 */
function spoken(card) {
  if (card === "X") return t("card.joker");
  return card.length === 2 ? cardName(card, t) : t(`card.rank.${card}`);
}

/**
 * Asks the server about a pile once the taps pause, and shows only the newest question's answer in `verdict`.
 * @param {HTMLElement} verdict
 * @param {Meta} meta
 * @param {() => ScoreMatch} currentMatch
 */
function verdictAsker(verdict, meta, currentMatch) {
  let requestId = 0;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let debounce;
  return {
    /** @param {readonly CardText[]} pile */
    ask(pile) {
      clearTimeout(debounce);
      const mine = ++requestId;
      if (!pile.length) {
        clear(verdict);
        verdict.className = "sk-verdict";
        verdict.append(h("p", { class: "sk-verdict-idle" }, t("scores.referee.idle")));
        return;
      }
      debounce = setTimeout(async () => {
        const m = currentMatch();
        // The referee counts cards against one deck unless told otherwise; a big table plays with two.
        const rules = { ...m.rules, deck: { ...(m.rules.deck || {}), decks: m.decks } };
        try {
          /** @type {RefereeAnswer} */
          const answer = await sendJSON("/api/check", { cards: [...pile], rules });
          if (mine !== requestId) return;
          showAnswer(verdict, answer, meta);
        } catch (error) {
          if (mine !== requestId) return;
          clear(verdict);
          verdict.className = "sk-verdict error";
          verdict.append(h("p", {}, `${t("scores.referee.error")} ${describeError(error)}`));
        }
      }, 120);
    },
    cancel() {
      clearTimeout(debounce);
    },
  };
}

/**
 * The server's answer in the verdict box: yes with the patterns and their cards, or no.
 * @param {HTMLElement} verdict
 * @param {RefereeAnswer} answer
 * @param {Meta} meta
 */
function showAnswer(verdict, answer, meta) {
  clear(verdict);
  verdict.className = `sk-verdict ${answer.slappable ? "yes" : "no"}`;
  verdict.append(h("p", { class: "sk-verdict-word" }, answer.slappable ? t("scores.referee.yes") : t("scores.referee.no")));
  if (answer.slappable) {
    verdict.append(h("ul", { class: "sk-verdict-list", role: "list" }, answer.matches.map((found) =>
      h("li", {}, h("strong", {}, patternLabel(meta, found.pattern)), miniRow(found.cards)))));
  } else {
    verdict.append(h("p", { class: "sk-verdict-why" }, t("scores.referee.no_why")));
  }
}

/**
 * A pattern's name as the whole app writes it (rules.json).
 * @param {Meta} meta
 * @param {string} key
 */
function patternLabel(meta, key) {
  return meta.patterns.find((p) => p.key === key)?.label || key;
}
