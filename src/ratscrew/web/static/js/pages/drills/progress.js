// @ts-check
// Progress in the drills, kept in this browser (localStorage): answers and streaks of the question drills,
// and the timed drill's runs, hits and best times by pattern.

const PROGRESS_KEY = "ratscrew.drills.v1";

/**
 * A question drill's answers: how many, how many right, the streak now and the best one.
 * @typedef {{ answered: number, correct: number, streak: number, best: number }} Tally
 */
/**
 * The timed drill's finished runs and what they caught; `best` is the best reaction by pattern, in ms.
 * @typedef {{ runs: number, hits: number, chances: number, wrong: number, best: Record<string, number>,
 *   lastAccuracy: number | null }} StreamTally
 */
/** @typedef {{ debt: Tally, slap: Tally, stream: StreamTally }} Progress */

/** @returns {Progress} */
function emptyProgress() {
  const tally = () => ({ answered: 0, correct: 0, streak: 0, best: 0 });
  return { debt: tally(), slap: tally(), stream: { runs: 0, hits: 0, chances: 0, wrong: 0, best: {}, lastAccuracy: null } };
}

/** @returns {Progress} what was saved, with every field there */
export function loadProgress() {
  try {
    const saved = JSON.parse(localStorage.getItem(PROGRESS_KEY) || "null");
    if (!saved || typeof saved !== "object") return emptyProgress();
    const base = emptyProgress();
    return {
      debt: { ...base.debt, ...saved.debt },
      slap: { ...base.slap, ...saved.slap },
      stream: { ...base.stream, ...saved.stream, best: { ...(saved.stream?.best || {}) } },
    };
  } catch {
    return emptyProgress();
  }
}

/** @param {Progress} progress */
export function saveProgress(progress) {
  try {
    localStorage.setItem(PROGRESS_KEY, JSON.stringify(progress));
  } catch {
    // A full or disabled storage only costs the saved progress, never the drill.
  }
}

export function forgetProgress() {
  localStorage.removeItem(PROGRESS_KEY);
}

/**
 * One answer of a question drill, counted and saved.
 * @param {"debt" | "slap"} kind
 * @param {boolean} correct
 * @returns {Tally} the drill's tally now
 */
export function recordAnswer(kind, correct) {
  const progress = loadProgress();
  const p = progress[kind];
  p.answered += 1;
  if (correct) {
    p.correct += 1;
    p.streak += 1;
    p.best = Math.max(p.best, p.streak);
  } else {
    p.streak = 0;
  }
  saveProgress(progress);
  return p;
}

/**
 * @param {number} part
 * @param {number} whole
 * @returns {number} a whole percentage (0 of nothing)
 */
export function percent(part, whole) {
  return whole ? Math.round((100 * part) / whole) : 0;
}
