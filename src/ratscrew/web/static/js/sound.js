// @ts-check
// The table's sounds, made in the page with Web Audio (short tones and bursts of noise: no sound files).
// Nothing plays before the person has pressed a key, clicked or tapped on this page (browsers refuse sound
// before that, and a page that starts making noise by itself is unwelcome). Volume and mute are remembered.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { pref, setPref } from "./prefs.js";

/**
 * The page's audio graph, made at the first interaction: every sound goes through `master` (the volume).
 * @typedef {{ context: AudioContext, master: GainNode }} AudioOut
 */

/** @type {AudioOut | null} */
let audio = null;
/** @type {AudioBuffer | null} */
let noiseBuffer = null;
let volume = clampVolume(pref("sound.volume", 0.6));
let muted = Boolean(pref("sound.muted", false));
let allowed = false; // the person has interacted with the page

// What was played, for the tests (and anyone curious): a count and the latest sounds by name.
/** @type {{ count: number, names: string[] }} */
const played = { count: 0, names: [] };
window.ratscrewSounds = played;

/**
 * @param {unknown} value
 * @returns {number} from 0 to 1 (0.6 for anything that is not a number)
 */
function clampVolume(value) {
  const n = Number(value);
  return Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0.6;
}

function unlock() {
  allowed = true;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  if (!audio) {
    const context = new Context();
    const master = context.createGain();
    master.connect(context.destination);
    audio = { context, master };
    setLevel();
  }
  if (audio.context.state === "suspended") audio.context.resume().catch(() => {});
}
for (const kind of ["pointerdown", "keydown", "touchstart"]) document.addEventListener(kind, unlock, { capture: true, passive: true });

function setLevel() {
  if (audio) audio.master.gain.setValueAtTime(muted ? 0 : volume * volume, audio.context.currentTime); // the ear hears it squared
}

/**
 * A tone from `freq` (gliding to `to`), shaped to start and end softly.
 * @param {AudioOut} out
 * @param {number} at when, on the audio clock
 * @param {{ freq: number, to?: number | null, type?: OscillatorType, length?: number, level?: number }} shape
 */
function tone({ context, master }, at, { freq, to = null, type = "sine", length = 0.12, level = 0.3 }) {
  const osc = context.createOscillator();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, at + length);
  const env = context.createGain();
  env.gain.setValueAtTime(0.0001, at);
  env.gain.exponentialRampToValueAtTime(level, at + 0.006);
  env.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(env).connect(master);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

/**
 * A burst of filtered noise that fades out.
 * @param {AudioOut} out
 * @param {number} at when, on the audio clock
 * @param {{ length?: number, level?: number, filter?: BiquadFilterType, freq?: number }} shape
 */
function noise({ context, master }, at, { length = 0.06, level = 0.3, filter = "bandpass", freq = 2500 }) {
  if (!noiseBuffer) {
    noiseBuffer = context.createBuffer(1, Math.round(context.sampleRate * 0.4), context.sampleRate);
    const data = noiseBuffer.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
  }
  const source = context.createBufferSource();
  source.buffer = noiseBuffer;
  const shape = context.createBiquadFilter();
  shape.type = filter;
  shape.frequency.value = freq;
  const env = context.createGain();
  env.gain.setValueAtTime(level, at);
  env.gain.exponentialRampToValueAtTime(0.0001, at + length);
  source.connect(shape).connect(env).connect(master);
  source.start(at);
  source.stop(at + length + 0.02);
}

/** @type {Record<string, (out: AudioOut, at: number) => void>} */
const SOUNDS = {
  card: (out, at) => noise(out, at, { length: 0.05, level: 0.35, freq: 2800 }), // a card flicked onto the pile
  slap: (out, at) => { noise(out, at, { length: 0.14, level: 0.8, filter: "lowpass", freq: 1400 }); tone(out, at, { freq: 110, to: 55, length: 0.14, level: 0.5 }); },
  won: (out, at) => [523, 659, 784].forEach((freq, i) => tone(out, at + i * 0.08, { freq, type: "triangle", length: 0.2, level: 0.25 })),
  wrong: (out, at) => tone(out, at, { freq: 190, to: 110, type: "sawtooth", length: 0.3, level: 0.16 }),
  turn: (out, at) => { tone(out, at, { freq: 880, length: 0.12, level: 0.2 }); tone(out, at + 0.1, { freq: 1175, length: 0.16, level: 0.2 }); },
};

/**
 * Play one of the table's sounds by name; nothing before the first interaction, nothing when muted.
 * @param {string} name
 * @returns {boolean} whether it played
 */
export function playSound(name) {
  const sound = SOUNDS[name];
  if (!allowed || muted || volume === 0 || !audio || !sound) return false;
  sound(audio, audio.context.currentTime + 0.005);
  played.count += 1;
  played.names.push(name);
  if (played.names.length > 20) played.names.shift();
  return true;
}

/**
 * The volume slider and the mute switch, as the table's settings show them.
 * @returns {HTMLLabelElement[]}
 */
export function soundControls() {
  const mute = h("input", { type: "checkbox", id: "sound-mute", checked: muted });
  const slider = h("input", { type: "range", id: "sound-volume", min: 0, max: 100, step: 5, value: Math.round(volume * 100) });
  mute.addEventListener("change", () => {
    muted = mute.checked;
    setPref("sound.muted", muted);
    setLevel();
  });
  slider.addEventListener("input", () => {
    volume = clampVolume(Number(slider.value) / 100);
    setPref("sound.volume", volume);
    setLevel();
  });
  return [
    h("label", { class: "check" }, mute, " ", t("access.sound.mute")),
    h("label", { class: "volume" }, t("access.sound.volume"), " ", slider),
  ];
}
