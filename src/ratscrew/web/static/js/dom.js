// @ts-check
// Small helpers for building the page without a framework.

/**
 * What `h` takes as attributes: `class`, `dataset` (an object), `html`, `onclick`-style listeners, and any
 * other attribute by name. `false`, null and undefined leave an attribute out; `true` sets it empty.
 * @typedef {{ [name: string]: string | number | boolean | null | undefined | Record<string, string | number>
 *   | ((event: Event) => unknown) }} Attrs
 */
/**
 * A child of `h`: a node, or text; nothing for null, undefined and false; a list of them in its place.
 * @typedef {Node | string | number | boolean | null | undefined} Leaf
 * @typedef {Leaf | readonly Leaf[]} Child
 */

/**
 * An element with its attributes and children.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name === "class") el.className = String(value);
    else if (name === "dataset") Object.assign(el.dataset, value);
    else if (name.startsWith("on") && typeof value === "function") el.addEventListener(name.slice(2), value);
    else if (name === "html") el.innerHTML = String(value);
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/**
 * Remove every child of `el`.
 * @template {Node} T
 * @param {T} el
 * @returns {T}
 */
export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/**
 * The element of the page's shell with this id (index.html has it from the start).
 * @param {string} id
 * @returns {HTMLElement}
 */
export function shellElement(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el;
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let announceTimer;
/** @type {{ text: string, topic: string | null }[]} */
const pendingAnnouncements = [];

/**
 * A sentence as it is read among others: with its full stop, so two never run together.
 * @param {string} text
 */
export function sentence(text) {
  const trimmed = text.trim();
  return /[.!?…:]$/.test(trimmed) || !trimmed ? trimmed : `${trimmed}.`;
}

/**
 * Tell screen readers what happened; several quick events are read together, each as its own sentence.
 * @param {string} message
 * @param {{ urgent?: boolean, topic?: string }} [options] urgent: at once, in the alert region; topic: a
 *   later message on the same topic (whose turn it is) replaces one still waiting to be read
 */
export function announce(message, { urgent = false, topic } = {}) {
  if (urgent) {
    const alert = shellElement("alert");
    alert.textContent = "";
    requestAnimationFrame(() => { alert.textContent = message; });
    return;
  }
  if (topic) {
    const stale = pendingAnnouncements.findIndex((said) => said.topic === topic);
    if (stale >= 0) pendingAnnouncements.splice(stale, 1);
  }
  pendingAnnouncements.push({ text: sentence(message), topic: topic ?? null });
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => {
    const region = shellElement("announcer");
    const text = pendingAnnouncements.splice(0).map((said) => said.text).join(" ");
    // The same words twice in a row ("Your turn." again) must still be heard: they differ by a trailing space.
    region.textContent = region.textContent === text ? `${text}\u00a0` : text;
  }, 120);
}

/** @returns {boolean} */
export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
