// @ts-check
// Playing cards drawn as SVG by this project's own code: pips, corner indices, court panels, a back.
// Suits differ by shape as well as colour, so the cards read without colour vision.
import { has, t } from "./i18n.js";
/** @import { CardText } from "./types.js" */

/**
 * A card taken apart: the rank letter ("7", "T", "Q"), the suit letter, or a joker.
 * @typedef {{ rank: string, suit: string | null, joker: boolean }} ParsedCard
 */
/**
 * How a message is looked up (i18n.js `t`, passed in where the words are for a reader).
 * @typedef {(key: string, vars?: Record<string, string | number>) => string} Translate
 */

const NS = "http://www.w3.org/2000/svg";
const W = 250;
const H = 350;

/** @type {Record<string, string>} */
export const SUIT_PATHS = {
  H: "M50 90 C22 68 4 50 10 30 C15 12 38 8 50 28 C62 8 85 12 90 30 C96 50 78 68 50 90 Z",
  D: "M50 4 L88 50 L50 96 L12 50 Z",
  S: "M50 6 C30 30 8 44 12 64 C16 82 38 84 46 70 C44 80 40 88 34 94 L66 94 C60 88 56 80 54 70 C62 84 84 82 88 64 C92 44 70 30 50 6 Z",
  C: "M50 8 A18 18 0 0 1 63 39 A18 18 0 1 1 56 66 C57 78 61 88 67 94 L33 94 C39 88 43 78 44 66 A18 18 0 1 1 37 39 A18 18 0 0 1 50 8 Z",
};
/** @type {Record<string, string>} */
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RED = "#b8262b";
const BLACK = "#1b1b22";

// Pip centres for number cards, as fractions of the pip area (x: 0 left .. 1 right, y: 0 top .. 1 bottom).
const L = 0, C = 0.5, R = 1;
/** @type {Record<number, [number, number][]>} */
const PIPS = {
  2: [[C, 0], [C, 1]],
  3: [[C, 0], [C, 0.5], [C, 1]],
  4: [[L, 0], [R, 0], [L, 1], [R, 1]],
  5: [[L, 0], [R, 0], [C, 0.5], [L, 1], [R, 1]],
  6: [[L, 0], [R, 0], [L, 0.5], [R, 0.5], [L, 1], [R, 1]],
  7: [[L, 0], [R, 0], [C, 0.25], [L, 0.5], [R, 0.5], [L, 1], [R, 1]],
  8: [[L, 0], [R, 0], [C, 0.25], [L, 0.5], [R, 0.5], [C, 0.75], [L, 1], [R, 1]],
  9: [[L, 0], [R, 0], [L, 1 / 3], [R, 1 / 3], [C, 0.5], [L, 2 / 3], [R, 2 / 3], [L, 1], [R, 1]],
  10: [[L, 0], [R, 0], [C, 1 / 6], [L, 1 / 3], [R, 1 / 3], [L, 2 / 3], [R, 2 / 3], [C, 5 / 6], [L, 1], [R, 1]],
};

/**
 * @param {CardText} text
 * @returns {ParsedCard}
 */
export function parseCard(text) {
  if (text === "X") return { rank: "X", suit: null, joker: true };
  return { rank: text.slice(0, -1), suit: text.slice(-1), joker: false };
}

// The letter a rank carries in the reader's language (K, R in French...), from the catalog's card.letter.*:
// the same letters the server writes (learn/words.py card_text) and the rule chips use.
/**
 * @param {string} rank
 * @returns {string}
 */
export function rankLabel(rank) {
  const key = `card.letter.${rank}`;
  if (has(key)) return t(key);
  return rank === "T" ? "10" : rank;
}

/**
 * @param {string | null} suit
 * @returns {string}
 */
export function suitGlyph(suit) {
  /** @type {Record<string, string>} */
  const glyphs = { S: "♠", H: "♥", D: "♦", C: "♣" };
  return glyphs[suit ?? ""] || "";
}

// Words for screen readers and titles, from the catalog (card.rank.Q, card.suit.H...).
/**
 * @param {CardText} text
 * @param {Translate} t
 * @returns {string}
 */
export function cardName(text, t) {
  const card = parseCard(text);
  if (card.joker) return t("card.joker");
  return t("card.name", { rank: t(`card.rank.${card.rank}`), suit: t(`card.suit.${card.suit}`) });
}

/**
 * A card's corner index in the reader's letters ("K♠", "10♦"), or the word for a joker.
 * @param {CardText} text
 * @returns {string}
 */
export function prettyCard(text) {
  const card = parseCard(text);
  return card.joker ? t("card.joker") : rankLabel(card.rank) + suitGlyph(card.suit);
}

/**
 * An SVG element with its attributes.
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @returns {SVGElement}
 */
function el(tag, attrs = {}) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/**
 * @param {string | null} suit
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {string} colour
 * @param {boolean} [flip]
 */
function suitShape(suit, x, y, size, colour, flip = false) {
  const g = el("g", { transform: `translate(${x - size / 2} ${y - size / 2}) scale(${size / 100})${flip ? " rotate(180 50 50)" : ""}` });
  g.append(el("path", { d: SUIT_PATHS[suit ?? ""], fill: colour }));
  return g;
}

/**
 * @param {ParsedCard} card
 * @param {string} colour
 */
function cornerIndex(card, colour) {
  const g = el("g", { class: "corner" });
  const label = el("text", { x: 30, y: 52, "text-anchor": "middle", "font-size": 46, "font-weight": 700,
    fill: colour, "font-family": "Georgia, 'DejaVu Serif', serif" });
  label.textContent = rankLabel(card.rank);
  g.append(label, suitShape(card.suit, 30, 80, 32, colour));
  return g;
}

/**
 * @param {ParsedCard} card
 * @param {string} colour
 */
function courtPanel(card, colour) {
  const g = el("g");
  g.append(el("rect", { x: 58, y: 62, width: W - 116, height: H - 124, rx: 10, fill: colour === RED ? "#fbeceb" : "#eceef5",
    stroke: colour, "stroke-width": 3 }));
  // A simple crown (K), coronet (Q) or plumed cap (J) above a large letter, mirrored below: our own design.
  /** @type {Record<string, string>} */
  const crowns = {
    K: "M0 40 L0 10 L15 25 L30 0 L45 25 L60 10 L60 40 Z",
    Q: "M0 40 L5 15 L18 28 L30 5 L42 28 L55 15 L60 40 Z",
    J: "M5 40 C5 20 20 8 40 10 C52 11 60 18 58 26 C50 20 42 22 36 28 L60 40 Z",
  };
  for (const flip of [false, true]) {
    const half = el("g", { transform: flip ? `rotate(180 ${W / 2} ${H / 2})` : "" });
    half.append(el("path", { d: crowns[card.rank], transform: `translate(${W / 2 - 30} 82)`, fill: "#d9a520", stroke: colour,
      "stroke-width": 2 }));
    const letter = el("text", { x: W / 2, y: 168, "text-anchor": "middle", "font-size": 54, "font-weight": 700,
      fill: colour, "font-family": "Georgia, 'DejaVu Serif', serif" });
    letter.textContent = rankLabel(card.rank);
    half.append(letter);
    g.append(half);
  }
  g.append(suitShape(card.suit, W / 2 - 44, H / 2, 34, colour), suitShape(card.suit, W / 2 + 44, H / 2, 34, colour, true));
  g.append(el("line", { x1: 70, y1: H / 2, x2: W - 70, y2: H / 2, stroke: colour, "stroke-width": 1.5, opacity: 0.5 }));
  return g;
}

function jokerFace() {
  const g = el("g");
  const star = "M50 4 L61 38 L97 38 L68 59 L79 94 L50 72 L21 94 L32 59 L3 38 L39 38 Z";
  g.append(el("path", { d: star, transform: `translate(${W / 2 - 60} ${H / 2 - 70}) scale(1.2)`, fill: "#d9a520", stroke: "#7a4e00", "stroke-width": 3 }));
  for (const [y, rot] of [[64, 0], [H - 64, 180]]) {
    const text = el("text", { x: W / 2, y, "text-anchor": "middle", "font-size": 34, "font-weight": 700, fill: "#5b2a86",
      "letter-spacing": 6, transform: rot ? `rotate(180 ${W / 2} ${y - 12})` : "", "font-family": "Georgia, 'DejaVu Serif', serif" });
    text.textContent = "JOKER";
    g.append(text);
  }
  return g;
}

/**
 * The face of a card ("7S", "TD", "X") as an <svg> element.
 * @param {CardText} text
 * @param {{ label?: string }} [options] its name for readers (empty: none)
 * @returns {SVGElement}
 */
export function cardFace(text, { label = text } = {}) {
  const card = parseCard(text);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "card-svg", role: "img", "aria-label": label });
  svg.append(el("rect", { x: 2, y: 2, width: W - 4, height: H - 4, rx: 18, fill: "#fffdf8", stroke: "#8a8470", "stroke-width": 3 }));
  if (card.joker) {
    svg.append(jokerFace());
    return svg;
  }
  const colour = card.suit === "H" || card.suit === "D" ? RED : BLACK;
  const top = cornerIndex(card, colour);
  const bottom = cornerIndex(card, colour);
  bottom.setAttribute("transform", `rotate(180 ${W / 2} ${H / 2})`);
  svg.append(top, bottom);
  const rank = card.rank === "T" ? 10 : Number(card.rank);
  if (PIPS[rank]) {
    const [x0, x1, y0, y1] = [78, W - 78, 62, H - 62];
    for (const [fx, fy] of PIPS[rank]) {
      svg.append(suitShape(card.suit, x0 + fx * (x1 - x0), y0 + fy * (y1 - y0), 46, colour, fy > 0.5));
    }
  } else if (card.rank === "A") {
    svg.append(suitShape(card.suit, W / 2, H / 2, 120, colour));
  } else {
    svg.append(courtPanel(card, colour));
  }
  svg.dataset.suit = SUIT_NAMES[card.suit ?? ""];
  return svg;
}

/**
 * The back of a card: a lattice in the table's colours.
 * @param {{ label?: string }} [options] its name for readers (empty: hidden from them)
 * @returns {SVGElement}
 */
export function cardBack({ label = "" } = {}) {
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "card-svg card-back", role: label ? "img" : "presentation" });
  if (label) svg.setAttribute("aria-label", label);
  else svg.setAttribute("aria-hidden", "true");
  const id = `lattice-${Math.random().toString(36).slice(2, 8)}`;
  const defs = el("defs");
  const pattern = el("pattern", { id, width: 24, height: 24, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" });
  pattern.append(el("rect", { width: 24, height: 24, fill: "#7d1f2a" }), el("path", { d: "M0 12 H24 M12 0 V24", stroke: "#b8862f", "stroke-width": 3 }));
  defs.append(pattern);
  svg.append(defs, el("rect", { x: 2, y: 2, width: W - 4, height: H - 4, rx: 18, fill: "#fffdf8", stroke: "#8a8470", "stroke-width": 3 }),
    el("rect", { x: 16, y: 16, width: W - 32, height: H - 32, rx: 10, fill: `url(#${id})` }),
    el("rect", { x: 16, y: 16, width: W - 32, height: H - 32, rx: 10, fill: "none", stroke: "#f3e2b8", "stroke-width": 4 }));
  return svg;
}

/**
 * A row of small cards (for explanations like "sandwich: 7 K 7").
 * @param {readonly CardText[]} texts
 * @param {Translate} [t] with it the cards are named in words, without it by their letters
 * @returns {HTMLSpanElement}
 */
export function miniCards(texts, t) {
  const wrap = document.createElement("span");
  wrap.className = "mini-cards";
  for (const text of texts) {
    const item = document.createElement("span");
    item.className = "mini-card";
    // The index in plain type too, for places where a drawn card would be too small to read (the feed).
    const card = parseCard(text);
    const index = document.createElement("span");
    index.className = `mini-index${card.suit === "H" || card.suit === "D" ? " red" : ""}`;
    index.setAttribute("aria-hidden", "true");
    index.textContent = prettyCard(text);
    item.append(cardFace(text, { label: t ? cardName(text, t) : text }), index);
    wrap.append(item);
  }
  return wrap;
}
