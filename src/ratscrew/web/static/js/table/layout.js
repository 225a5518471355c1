// @ts-check
// Where the seats sit round the felt, and how wide each may be so that none overlaps another.
/** @import { Seat } from "../types.js" */
/** @import { TableCore } from "./core.js" */

/**
 * Where each seat sits, in % of the felt: spread at equal distances (not equal angles, which bunch the seats
 * at the ends of a long table) along a rounded-rectangle track just inside the rim, with room for the seats'
 * own size, starting with the first person at the bottom middle.
 * @param {number} count
 * @param {Seat} first the seat at the bottom middle
 * @param {number} width the felt's, in px
 * @param {number} height
 * @param {number} seatWidth the widest seat's, in px
 * @param {number} seatHeight
 * @returns {{ x: number, y: number }[]} by seat
 */
export function seatPositions(count, first, width, height, seatWidth, seatHeight) {
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
  /** @type {{ x: number, y: number }[]} */
  const positions = [];
  let j = 0;
  for (let step = 0; step < count; step++) {
    const wanted = (step * total) / count;
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
  for (let attempt = 0; attempt < 6; attempt++) {
    felt.style.setProperty("--seat-room", `${room}px`);
    const sizes = seatEls.map((el) => [el.offsetWidth, el.offsetHeight]);
    const seatWidth = Math.max(0, ...sizes.map(([w]) => w));
    const seatHeight = Math.max(0, ...sizes.map(([, h]) => h));
    felt.style.setProperty("--seat-h", `${seatHeight}px`);
    const positions = seatPositions(count, model.yours[0] ?? 0, width, height, seatWidth, seatHeight);
    seatEls.forEach((el, index) => { el.style.left = `${positions[index].x}%`; el.style.top = `${positions[index].y}%`; });
    const boxes = positions.map(({ x, y }, i) => {
      const [w, h] = sizes[i];
      return [(x * width) / 100 - w / 2, (y * height) / 100 - h / 2, (x * width) / 100 + w / 2, (y * height) / 100 + h / 2];
    });
    if (!overlapping(boxes) || room <= 48) break;
    room = Math.max(48, room * 0.88);
  }
  model.seatRoom = { key, px: room };
}

/**
 * Whether two of the boxes overlap by more than a pixel.
 * @param {number[][]} boxes [left, top, right, bottom] each
 */
function overlapping(boxes) {
  return boxes.some((a, i) => boxes.some((b, j) => j > i && a[0] < b[2] - 1 && b[0] < a[2] - 1 && a[1] < b[3] - 1 && b[1] < a[3] - 1));
}
