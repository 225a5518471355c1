// @ts-check
// The seats round the felt: each one's name, who plays it, its connection and delay, its cards, and what
// the game asks of it now (its turn, a debt, out, locked out after a wrong slap); and where each sits, and
// how wide each may be so that none overlaps another.
import { h } from "../dom.js";
import { t, tn } from "../i18n.js";
import { cardBack } from "../cards.js";
import { flip } from "./input.js";
/** @import { Lockout, Seat, SeatDoc, TableState } from "../types.js" */
/** @import { TableCore, TableModel } from "./core.js" */

/**
 * A seat's connection in words: its measured delay, or that it is away (and who holds it meanwhile).
 * @param {SeatDoc | undefined} seat
 * @returns {string}
 */
export function connectionText(seat) {
  if (!seat || seat.kind !== "human") return "";
  if (!seat.connected) return seat.standin ? t("room.net.standin") : t("room.net.away");
  if (seat.latency_ms === null || seat.latency_ms === undefined) return t("room.net.connected");
  return t("room.net.latency", { n: Math.round(seat.latency_ms) });
}

/**
 * @param {SeatDoc | undefined} seat
 * @returns {string} the class the connection's words take
 */
export function connectionClass(seat) {
  if (!seat || seat.kind !== "human") return "";
  if (!seat.connected) return "net-away";
  return (seat.latency_ms ?? 0) > 150 ? "net-slow" : "net-ok";
}

/**
 * The seats' elements for the model's seats, in place of the ones before.
 * @param {TableCore} core
 */
export function buildSeats(core) {
  const { model, parts } = core;
  const { seats, yours } = model;
  for (const el of parts.seatEls) el.remove();
  parts.seatEls.length = 0;
  parts.felt.dataset.crowd = seats.length > 8 ? "many" : seats.length > 4 ? "some" : "few";
  seats.forEach((seat, index) => {
    const mine = yours.includes(index);
    const stack = h("div", { class: "stack", "aria-hidden": "true" }, cardBack());
    const el = h("div", { class: `seat${mine ? " mine" : ""}`, id: `seat-${index}`, role: "listitem", dataset: { seat: index } },
      stack,
      h("div", { class: "seat-info" },
        h("span", { class: "seat-name", title: seat.name }, nameParts(seat.name)),
        h("span", { class: "seat-badge" }, seatBadge(seat, index, yours)),
        h("span", { class: "seat-net" }),
        h("span", { class: "seat-count" }),
        h("span", { class: "seat-state" })));
    if (mine && yours.length === 1) stack.addEventListener("click", () => flip(core, index));
    parts.seatList.append(el);
    parts.seatEls[index] = el;
    core.resized.observe(el);
  });
}

/**
 * A name as a seat shows it: a trailing number ("Computer 3", "Ordinateur 12") kept whole after the rest, which
 * alone is shortened when the seat is narrow ("Comp… 3"), so that two seats never look alike.
 * @param {string} name
 * @returns {(HTMLElement | string)[]}
 */
function nameParts(name) {
  const numbered = /^(.*\S)(\s*\d+)$/.exec(name);
  if (!numbered) return [name];
  return [h("span", { class: "name-head" }, numbered[1]), h("span", { class: "name-tail" }, numbered[2])];
}

/**
 * Who plays a seat, in a word: a computer's level, you, player N on a shared screen, or another person.
 * @param {SeatDoc} seat
 * @param {Seat} index
 * @param {Seat[]} yours
 */
function seatBadge(seat, index, yours) {
  if (seat.kind === "bot") return t(`level.${seat.level}`);
  const mine = yours.includes(index);
  if (yours.length > 1 && mine) return t("game.player_n", { n: yours.indexOf(index) + 1 });
  return mine ? t("game.you") : t("game.person");
}

/**
 * Whether a network stands between the people at this table: someone plays from another page. Against the
 * computer, or two on one screen, the table says nothing of connections or delays.
 * @param {TableModel} model
 */
function networked({ seats, yours }) {
  return seats.some((seat, index) => seat.kind === "human" && !yours.includes(index));
}

/**
 * Each seat's connection, as the lobby last said it.
 * @param {TableCore} core
 */
export function showConnections({ model, parts }) {
  const online = networked(model);
  model.seats.forEach((seat, index) => {
    const el = parts.seatEls[index];
    if (!el) return;
    const net = /** @type {HTMLElement} */ (el.querySelector(".seat-net"));
    net.textContent = online ? connectionText(seat) : "";
    net.className = `seat-net ${online ? connectionClass(seat) : ""}`;
    el.classList.toggle("away", seat.kind === "human" && !seat.connected);
  });
}

/**
 * Each seat's cards and what the game asks of it now, on the seat and in its name for readers.
 * @param {TableCore} core
 * @param {TableState} state
 */
export function renderSeats({ model, parts }, state) {
  model.seats.forEach((seat, index) => {
    const el = parts.seatEls[index];
    if (!el) return;
    const count = state.stack_sizes[index] ?? 0;
    const out = Boolean(state.out[index]);
    const due = !state.over && state.turn === index && state.collect_pending === null;
    el.classList.toggle("due", due);
    el.classList.toggle("out", out);
    el.classList.toggle("empty", !out && count === 0);
    el.classList.toggle("owes", due && state.owed > 0);
    const cards = tn("access.cards", count);
    /** @type {HTMLElement} */ (el.querySelector(".seat-count")).textContent = cards;
    // After a wrong slap under a lockout penalty: how long this seat's slaps are still set aside.
    const locked = out ? null : state.locked[index];
    el.classList.toggle("locked", locked !== null && locked !== undefined);
    const words = [seatState(state, index, model.yours, { count, out, due }), lockoutText(locked)].filter(Boolean).join(" · ");
    /** @type {HTMLElement} */ (el.querySelector(".seat-state")).textContent = words;
    const net = networked(model) ? connectionText(seat) : "";
    const badge = /** @type {HTMLElement} */ (el.querySelector(".seat-badge")).textContent;
    el.setAttribute("aria-label", [`${seat.name} (${badge}): ${cards}`, words, net].filter(Boolean).join(", "));
    const stack = /** @type {HTMLElement} */ (el.querySelector(".stack"));
    stack.classList.toggle("thin", count < 6);
    stack.hidden = count === 0;
  });
}

/**
 * What the game asks of a seat now, in a few words ("" for nothing).
 * @param {TableState} state
 * @param {Seat} index
 * @param {Seat[]} yours
 * @param {{ count: number, out: boolean, due: boolean }} seat
 */
function seatState(state, index, yours, { count, out, due }) {
  if (out) return t("game.out");
  if (due && state.owed > 0) return t("game.owes", { n: state.owed });
  if (due) return yours.includes(index) ? t("game.your_turn") : t("game.to_play");
  if (count === 0 && !state.over) return t("game.empty"); // once it is over, nobody slaps back in
  return "";
}

/**
 * @param {Lockout | undefined} locked
 * @returns {string}
 */
function lockoutText(locked) {
  if (typeof locked === "number") return tn("access.locked_cards", locked);
  if (locked === "pile") return t("game.locked_pile");
  return "";
}

// ------------------------------------------------------------------ where the seats sit

/**
 * Where each seat sits, in % of the felt: spread at equal distances (not equal angles, which bunch the seats
 * at the ends of a long table) along a rounded-rectangle track just inside the rim, with room for the seats'
 * own size, starting with the first person at the bottom middle. With `clear` (px), the others keep out of a
 * band that high above and below the middle, and share the rest of the track: on a tall, narrow felt (an
 * upright phone) the pile between two seats level with it would be small, and across the table above it is
 * where opponents sit anyway.
 * @param {number} count
 * @param {Seat} first the seat at the bottom middle
 * @param {number} width the felt's, in px
 * @param {number} height
 * @param {number} seatWidth the widest seat's, in px
 * @param {number} seatHeight
 * @param {number} [clear] half the height of the band around the middle the others keep out of (0: none)
 * @returns {{ x: number, y: number }[]} by seat
 */
export function seatPositions(count, first, width, height, seatWidth, seatHeight, clear = 0) {
  const a = Math.max(0, width / 2 - seatWidth / 2 - 4);
  const b = Math.max(0, height / 2 - seatHeight / 2 - 4);
  const power = 2 / 2.8; // 1: an ellipse; smaller: squarer corners
  /**
   * @param {number} turn from 0 to 1, the way round from the bottom middle
   * @returns {[number, number]}
   */
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
  // The others' share of the track: all of it, or what lies above the band (from where the way up the first
  // side leaves the band to where the way down the other side enters it).
  let from = 0;
  if (clear > 0 && count > 2) {
    let i = 0;
    while (i < STEPS / 2 && !(i > STEPS / 8 && point(i / STEPS)[1] <= -clear)) i++;
    if (i < STEPS / 2) from = lengths[i];
  }
  /** @param {number} step @returns {number} the distance along the track of the `step`-th seat after the first */
  const along = (step) => (step === 0 ? 0 : from > 0 ? from + ((total - 2 * from) * (step - 1)) / (count - 2) : (step * total) / count);
  /** @type {{ x: number, y: number }[]} */
  const positions = [];
  let j = 0;
  for (let step = 0; step < count; step++) {
    const wanted = along(step);
    while (j < STEPS && lengths[j] < wanted) j++;
    // Between two samples, by the share of the distance (the samples are far apart near the sides).
    const part = j > 0 ? (wanted - lengths[j - 1]) / Math.max(1e-9, lengths[j] - lengths[j - 1]) : 0;
    const [x, y] = point((Math.max(0, j - 1) + Math.min(1, Math.max(0, part))) / STEPS);
    positions[(first + step) % count] = { x: width ? 50 + (100 * x) / width : 50, y: height ? 50 + (100 * y) / height : 50 };
  }
  return positions;
}

/**
 * The seats' room depends on the felt's size and on the widest and tallest seat. Each seat may first take
 * its share of the way round the table; while two seats still overlap, all get a little narrower. The width
 * that worked is kept for this felt, so a seat whose words change starts from it (no back and forth).
 * @param {TableCore} core
 */
export function placeSeats({ model, parts }) {
  const { felt, seatEls } = parts;
  const width = felt.clientWidth;
  const height = felt.clientHeight;
  const count = model.seats.length;
  const key = `${width}x${height}x${count}`;
  let room = model.seatRoom.key === key ? model.seatRoom.px : Math.max(56, (3.3 * Math.max(0, (width + height) / 2 - 75)) / Math.max(1, count) - 14);
  /** @type {number[][]} */
  let placed = [];
  for (let attempt = 0; attempt < 6; attempt++) {
    felt.style.setProperty("--seat-room", `${room}px`);
    const sizes = seatEls.map((el) => [el.offsetWidth, el.offsetHeight]);
    const seatWidth = Math.max(0, ...sizes.map(([w]) => w));
    const seatHeight = Math.max(0, ...sizes.map(([, h]) => h));
    felt.style.setProperty("--seat-h", `${seatHeight}px`);
    const positions = seatPositions(count, model.yours[0] ?? 0, width, height, seatWidth, seatHeight, pileBand(count, width, height, seatHeight));
    seatEls.forEach((el, index) => { el.style.left = `${positions[index].x}%`; el.style.top = `${positions[index].y}%`; });
    const boxes = positions.map(({ x, y }, i) => {
      const [w, h] = sizes[i];
      return [(x * width) / 100 - w / 2, (y * height) / 100 - h / 2, (x * width) / 100 + w / 2, (y * height) / 100 + h / 2];
    });
    placed = boxes;
    if (!overlapping(boxes) || room <= 48) break;
    room = Math.max(48, room * 0.88);
  }
  model.seatRoom = { key, px: room };
  felt.style.setProperty("--pile-room", `${pileRoom(width, height, placed)}px`);
}

/**
 * On a tall, narrow felt with a few seats (an upright phone), the band around the middle the other seats keep out
 * of, so that the pile there can be big: half its height in px (0: the seats go all the way round).
 * @param {number} count
 * @param {number} width the felt's
 * @param {number} height
 * @param {number} seatHeight
 */
function pileBand(count, width, height, seatHeight) {
  if (count < 3 || count > 5 || width >= 560 || height < 1.3 * width) return 0;
  const pile = Math.min(PILE_MAX_PHONE, 0.3 * width);
  return pileTop(pile) + 4 + seatHeight / 2; // the seats' lower edges just clear of the pile's highest corner
}

/**
 * The widest pile the middle of the felt has room for: its cards, tilted as they lie, the lines under it and
 * a banner under those keep clear of every seat. On a phone the pile takes the room the seats leave (up to PILE_MAX_PHONE px wide);
 * on a wider felt it keeps the size it always had.
 * @param {number} width the felt's
 * @param {number} height
 * @param {number[][]} seats [left, top, right, bottom] each, in the felt's px
 * @returns {number}
 */
export function pileRoom(width, height, seats) {
  const most = width < 560 ? PILE_MAX_PHONE : Math.min(PILE_MAX, 0.18 * width);
  const cx = width / 2;
  const cy = height / 2;
  for (let w = most; w > PILE_MIN; w -= 2) {
    const half = 0.655 * w + 9; // a card tilted 14° and moved 9 px (pile.js's most) reaches out of the pile's box
    const box = [cx - half, cy - pileTop(w), cx + half, cy + (1.4 * w + LINES_PX) / 2 + BANNER_PX];
    if (seats.every((s) => s[2] + 4 <= box[0] || box[2] <= s[0] - 4 || s[3] + 4 <= box[1] || box[3] <= s[1] - 4)) return w;
  }
  return PILE_MIN;
}

/**
 * How far above the felt's middle a pile `w` px wide reaches: the pile and the lines under it (its count, the
 * cards burned) are centred together on the felt, and a tilted card reaches above the pile's box.
 * @param {number} w
 */
function pileTop(w) {
  return (1.4 * w + LINES_PX) / 2 + 0.1 * w + 5;
}

const PILE_MIN = 48;
const PILE_MAX = 128;
const PILE_MAX_PHONE = 150;
const LINES_PX = 52; // the pile's count and the cards burned under it
const BANNER_PX = 68; // a verdict's banner, two lines, just under the pile's lines (status.js puts it there first)

/**
 * Whether two of the boxes overlap by more than a pixel.
 * @param {number[][]} boxes [left, top, right, bottom] each
 */
function overlapping(boxes) {
  return boxes.some((a, i) => boxes.some((b, j) => j > i && a[0] < b[2] - 1 && b[0] < a[2] - 1 && a[1] < b[3] - 1 && b[1] < a[3] - 1));
}
