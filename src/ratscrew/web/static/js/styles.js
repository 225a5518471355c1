// @ts-check
// Each page brings its own style sheets (the shell has only base.css), so a first visit loads only what it
// shows. A sheet is added once and kept; the promise settles when it has loaded (or failed), so a page can
// wait for it before it measures anything.
/** @type {Map<string, Promise<unknown>>} */
const sheets = new Map();

/**
 * @param {...string} names sheets under /static/css, without ".css"
 * @returns {Promise<unknown[]>}
 */
export function useStyles(...names) {
  return Promise.all(names.map((name) => {
    if (!sheets.has(name)) {
      sheets.set(name, new Promise((resolve) => {
        const link = document.createElement("link");
        link.rel = "stylesheet";
        link.href = `/static/css/${name}.css`;
        link.dataset.style = name;
        link.addEventListener("load", resolve);
        link.addEventListener("error", resolve);
        document.head.append(link);
      }));
    }
    return sheets.get(name);
  }));
}
