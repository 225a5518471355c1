// @ts-check
// The seats round the felt: each one's name, who plays it, its connection and delay, its cards, and what
// the game asks of it now (its turn, a debt, out, locked out after a wrong slap); and where each sits, and
// how wide each may be so that none overlaps another.
import { h } from "../dom.js";
import { t, tn } from "../i18n.js";
import { cardBack } from "../cards.js";
import { flip, keyLabel, keysFor } from "./input.js";
/** @import { EmptyWords, Lockout, Seat, SeatDoc, TableState } from "../types.js" */
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
  renderSeatNote(model, parts.controls, state);
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
    const words = [seatState(state, index, model, { count, out, due }), lockoutText(locked)].filter(Boolean).join(" · ");
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
 * What the game asks of a seat now, in a few words ("" for nothing). A seat without cards says what the rules
 * in force let it do (the rules summary's words: nothing until they come).
 * @param {TableState} state
 * @param {Seat} index
 * @param {{ yours: Seat[], empty: EmptyWords | null }} model
 * @param {{ count: number, out: boolean, due: boolean }} seat
 */
function seatState(state, index, { yours, empty }, { count, out, due }) {
  if (out) return t("game.out");
  if (due && state.owed > 0) return t("game.owes", { n: state.owed });
  if (due) return yours.includes(index) ? t("game.your_turn") : t("game.to_play");
  if (count === 0 && !state.over && empty) return yours.includes(index) ? empty.mine : empty.seat; // once it is over, nobody slaps back in
  return "";
}

/**
 * Under the buttons of a page that plays one seat, once that seat has no cards: what the rules in force let the
 * player do, with the Slap button and key that do it, or that they are out and may watch to the end.
 * @param {{ yours: Seat[], empty: EmptyWords | null }} model
 * @param {HTMLElement} controls
 * @param {TableState} state
 */
function renderSeatNote({ yours, empty }, controls, state) {
  const note = /** @type {HTMLElement | null} */ (controls.querySelector("#seat-note"));
  if (!note) return;
  const seat = yours[0];
  let text = "";
  if (empty && !state.over && state.out[seat]) text = empty.you_out;
  else if (empty && !state.over && (state.stack_sizes[seat] ?? 0) === 0) {
    const slap = t("table.empty.pad", { button: t("game.slap"), letter: keyLabel(keysFor(yours, 0).slap[0]) });
    text = t(empty.you, { slap }); // the summary's sentence is its own template: t() fills {slap}
  }
  if (note.textContent !== text) note.textContent = text;
  note.hidden = !text;
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
 * @param {number} [aside] half the width of the column down the middle every seat keeps out of (0: none): the
 *   seats then share the two ends of the track, the first one lowest at the left end
 * @returns {{ x: number, y: number }[]} by seat
 */
export function seatPositions(count, first, width, height, seatWidth, seatHeight, clear = 0, aside = 0) {
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
  if (aside > 0) return endPositions(count, first, width, height, point, aside);
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
 * The seats down the two ends of the track, outside a column `aside` px each side of the middle: the first half
 * (the first seat lowest) up the left end, the rest down the right end, each end's seats spread from one of its
 * corners to the other (a lone seat level with the pile), so that seats stacked at an end are as far apart as can be.
 * @param {number} count
 * @param {Seat} first
 * @param {number} width
 * @param {number} height
 * @param {(turn: number) => [number, number]} point
 * @param {number} aside
 * @returns {{ x: number, y: number }[]} by seat
 */
function endPositions(count, first, width, height, point, aside) {
  const STEPS = 720;
  /** @type {[number, number][][]} the track's samples at each end, in the track's order (bottom, left, top, right) */
  const ends = [[], []];
  for (let i = 0; i <= STEPS; i++) {
    const p = point(i / STEPS);
    if (Math.abs(p[0]) >= aside) ends[p[0] < 0 ? 0 : 1].push(p);
  }
  const left = Math.ceil(count / 2);
  /** @type {{ x: number, y: number }[]} */
  const positions = [];
  for (let step = 0; step < count; step++) {
    const [samples, n, k] = step < left ? [ends[0], left, step] : [ends[1], count - left, step - left];
    const [x, y] = alongEnd(samples, n === 1 ? 0.5 : k / (n - 1));
    positions[(first + step) % count] = { x: width ? 50 + (100 * x) / width : 50, y: height ? 50 + (100 * y) / height : 50 };
  }
  return positions;
}

/**
 * The point `share` of the way down a run of samples from its first end's height to its last's: seats stacked
 * at an end are spread by height, since they lie one above another there (spread by distance, those round a
 * rounded corner came closer in height than a seat is tall).
 * @param {[number, number][]} samples
 * @param {number} share from 0 to 1
 * @returns {[number, number]}
 */
function alongEnd(samples, share) {
  if (samples.length < 2) return samples[0] ?? [0, 0];
  const from = samples[0][1];
  const to = samples[samples.length - 1][1];
  const wanted = from + share * (to - from);
  let best = samples[0];
  for (const sample of samples) if (Math.abs(sample[1] - wanted) < Math.abs(best[1] - wanted)) best = sample;
  return best;
}

/**
 * The seats' room depends on the felt's size and on the widest and tallest seat. Each seat may first take
 * its share of the way round the table; while two seats still overlap, all get a little narrower. For each
 * width, each way of seating the table that fits this felt is tried (all round; on an upright phone, clear of
 * a band level with the pile; on a phone on its side, down the two ends, clear of the middle column) and the
 * one that leaves the pile the most room wins. The width and the way that worked are kept for this felt, so a
 * seat whose words change starts from them (no back and forth, no seats jumping round the table).
 * @param {TableCore} core
 */
export function placeSeats({ model, parts }) {
  const { felt, seatEls } = parts;
  const width = felt.clientWidth;
  const height = felt.clientHeight;
  const count = model.seats.length;
  const first = model.yours[0] ?? 0;
  const key = `${width}x${height}x${count}`;
  const kept = model.seatRoom.key === key ? model.seatRoom : null;
  let room = kept ? kept.px : Math.max(56, (3.3 * Math.max(0, (width + height) / 2 - 75)) / Math.max(1, count) - 14);
  /** @type {Seating | null} */
  let best = null;
  for (let attempt = 0; attempt < 6; attempt++) {
    felt.style.setProperty("--seat-room", `${room}px`);
    const sizes = seatEls.map((el) => [el.offsetWidth, el.offsetHeight]);
    const seatWidth = Math.max(0, ...sizes.map(([w]) => w));
    // The tallest a seat has been on this felt: a seat's line that comes and goes with the turn ("Your turn")
    // would otherwise move the seats in and out as play goes round (and a won pile would fly to where its
    // winner's seat was a moment before).
    const seatHeight = Math.max(kept?.h ?? 0, ...sizes.map(([, h]) => h));
    const ways = seatings(count, width, height, seatWidth, seatHeight);
    // The way kept for this felt first: another is taken only if it leaves the pile more room.
    ways.sort((a, b) => Number(b.way === kept?.way) - Number(a.way === kept?.way));
    for (const way of ways) {
      const positions = seatPositions(count, first, width, height, seatWidth, seatHeight, way.clear, way.aside);
      const boxes = positions.map(({ x, y }, i) => {
        const [w, h] = sizes[i];
        return [(x * width) / 100 - w / 2, (y * height) / 100 - h / 2, (x * width) / 100 + w / 2, (y * height) / 100 + h / 2];
      });
      const fit = pileFit(width, height, boxes);
      const pile = Math.min(Math.max(pileRoom(width, height, boxes), pileBase(width)), fit);
      const seating = { way: way.way, positions, seatHeight, fit, pile, overlaps: overlapping(boxes) };
      if (!best || better(seating, best)) best = seating;
    }
    if (!best || best.overlaps === 0 || room <= 48 || attempt === 5) break;
    room = Math.max(48, room * 0.88);
    best = null;
  }
  if (!best) return;
  const { positions } = best;
  seatEls.forEach((el, index) => { el.style.left = `${positions[index].x}%`; el.style.top = `${positions[index].y}%`; });
  felt.style.setProperty("--seat-h", `${best.seatHeight}px`);
  model.seatRoom = { key, px: room, way: best.way, h: best.seatHeight };
  felt.style.setProperty("--pile-room", `${best.pile}px`);
  felt.style.setProperty("--pile-fit", `${best.fit}px`);
}

/**
 * One way of seating the table, tried: where each seat sits, how much the seats overlap, and the pile it leaves.
 * @typedef {{ way: string, positions: { x: number, y: number }[], seatHeight: number, fit: number, pile: number,
 *   overlaps: number }} Seating
 */

/**
 * Whether a way of seating beats another: less of the seats overlapping first (none, at best), then the bigger
 * pile (a tie keeps the first tried).
 * @param {Seating} a
 * @param {Seating} b
 */
function better(a, b) {
  if (Math.abs(a.overlaps - b.overlaps) > 1) return a.overlaps < b.overlaps;
  return a.pile > b.pile + 1;
}

/**
 * The ways of seating this felt worth trying: all round the rim; on a tall, narrow felt, above a band level with
 * the pile (`clear`); on a short felt (a phone on its side), down the two ends, clear of a column as wide as the
 * pile's cards reach (`aside`), since across the table above and below the pile there is no room for a seat.
 * @param {number} count
 * @param {number} width the felt's
 * @param {number} height
 * @param {number} seatWidth
 * @param {number} seatHeight
 * @returns {{ way: string, clear: number, aside: number }[]}
 */
function seatings(count, width, height, seatWidth, seatHeight) {
  const ways = [{ way: "round", clear: 0, aside: 0 }];
  const band = pileBand(count, width, height, seatHeight);
  if (band > 0) ways.unshift({ way: "band", clear: band, aside: 0 });
  if (height >= SHORT_FELT || count < 2) return ways;
  // The column as wide as the pile's usual width, or narrower: a smaller pile leaves the ends more room for seats.
  for (const share of [1, 0.8, 0.65]) {
    const aside = pileHalf(share * pileBase(width)) + 6 + seatWidth / 2;
    if (aside <= width / 2 - seatWidth / 2 - 4) ways.push({ way: `ends-${share}`, clear: 0, aside });
  }
  return ways;
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
    const half = pileHalf(w);
    const box = [cx - half, cy - pileTop(w), cx + half, cy - pileTop(w) + 0.1 * w + 5 + 1.4 * w + LINES_PX + BANNER_PX];
    if (clearOf(seats, box)) return w;
  }
  return PILE_MIN;
}

/**
 * The widest pile that no seat covers, whatever the seats leave it: its cards as far as they reach, and the
 * lines under it (its count, the cards burned, the slap window) as tall as they grow. The pile is never drawn
 * wider than this (the banner, unlike the seats, finds itself another place).
 * @param {number} width the felt's
 * @param {number} height
 * @param {number[][]} seats [left, top, right, bottom] each, in the felt's px
 * @returns {number}
 */
export function pileFit(width, height, seats) {
  const cx = width / 2;
  const cy = height / 2;
  // Below the least the pile is drawn at (PILE_MIN) too: of two ways of seating that both crowd it, the one that
  // crowds it less wins.
  for (let w = PILE_MAX_PHONE; w > 8; w -= 2) {
    const half = pileHalf(w);
    const box = [cx - half, cy - pileTop(w), cx + half, cy - pileTop(w) + 0.1 * w + 5 + 1.4 * w + LINES_FIT_PX];
    if (clearOf(seats, box)) return w;
  }
  return 8;
}

/**
 * Whether a box keeps 4 px clear of every seat.
 * @param {number[][]} seats
 * @param {number[]} box
 */
function clearOf(seats, box) {
  return seats.every((s) => s[2] + 4 <= box[0] || box[2] <= s[0] - 4 || s[3] + 4 <= box[1] || box[3] <= s[1] - 4);
}

/**
 * How far from the felt's middle a pile `w` px wide reaches sideways: a card tilted 14° and moved 9 px (pile.js's
 * most) reaches out of the pile's box; the lines under it are kept as narrow (table.css).
 * @param {number} w
 */
function pileHalf(w) {
  return 0.655 * w + 9;
}

/**
 * The pile's width on a felt `width` px wide that the seats do not squeeze: the 18% of it the pile always had.
 * @param {number} width
 */
function pileBase(width) {
  return Math.min(PILE_MAX, 0.18 * width);
}

/**
 * How far above the felt's middle a pile `w` px wide reaches: the pile and its count are centred together on
 * the felt (any further line grows below them: table.css), and a tilted card reaches above the pile's box.
 * @param {number} w
 */
function pileTop(w) {
  return (1.4 * w + COUNT_PX) / 2 + 0.1 * w + 5;
}

const PILE_MIN = 48;
const PILE_MAX = 128;
const PILE_MAX_PHONE = 150;
const COUNT_PX = 26; // the pile's count under it: the pile and its count are centred on the felt together
const LINES_PX = 52; // the pile's count and the cards burned under it
const LINES_FIT_PX = 76; // the same, the burned cards' line on two lines (the lines are kept as narrow as the pile's reach)
const SHORT_FELT = 360; // px: a felt this short (a phone on its side) has no room for a seat above or below the pile
const BANNER_PX = 68; // a verdict's banner, two lines, just under the pile's lines (status.js puts it there first)

/**
 * How much the boxes overlap, two by two, in px², each taken a pixel wider all round: seats that merely touch
 * look like one, so two seats keep at least two pixels apart.
 * @param {number[][]} boxes [left, top, right, bottom] each
 */
function overlapping(boxes) {
  let area = 0;
  boxes.forEach((a, i) => boxes.forEach((b, j) => {
    const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]) + 2;
    const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]) + 2;
    if (j > i && w > 0 && h > 0) area += w * h;
  }));
  return area;
}
