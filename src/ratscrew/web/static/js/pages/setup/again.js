// @ts-check
// "Play now again": a flag the table's summary leaves for the Play page's panel. Its own small module, so the
// room's page does not load the whole panel to set it (the room's first visit has a weight budget).

const AGAIN_KEY = "ratscrew.playnow.again";

/**
 * "Play now again" from a table's summary: the Play page's panel, once drawn, queues at once with the choices
 * this browser remembers (the ones that found that table), in sight however far down the page it sits.
 * @param {(hash: string) => void} navigate
 */
export function playNowAgain(navigate) {
  try { sessionStorage.setItem(AGAIN_KEY, "1"); } catch { /* storage refused: the panel shows, not queued */ }
  navigate("#/");
}

/** @returns {boolean} whether "Play now again" was pressed (asked once: the flag is taken down) */
export function takeAgain() {
  try {
    const again = sessionStorage.getItem(AGAIN_KEY) === "1";
    sessionStorage.removeItem(AGAIN_KEY);
    return again;
  } catch { return false; }
}
