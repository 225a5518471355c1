// Small helpers for building the page without a framework.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name === "class") el.className = value;
    else if (name === "dataset") Object.assign(el.dataset, value);
    else if (name.startsWith("on") && typeof value === "function") el.addEventListener(name.slice(2), value);
    else if (name === "html") el.innerHTML = value;
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

let announceTimer = null;
const pendingAnnouncements = [];

// Tell screen readers what happened; several quick events are read as one sentence.
export function announce(message, { urgent = false } = {}) {
  if (urgent) {
    const alert = document.getElementById("alert");
    alert.textContent = "";
    requestAnimationFrame(() => { alert.textContent = message; });
    return;
  }
  pendingAnnouncements.push(message);
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => {
    const region = document.getElementById("announcer");
    const text = pendingAnnouncements.splice(0).join(" ");
    // The same words twice in a row ("Your turn." again) must still be heard: they differ by a trailing space.
    region.textContent = region.textContent === text ? `${text}\u00a0` : text;
  }, 120);
}

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
