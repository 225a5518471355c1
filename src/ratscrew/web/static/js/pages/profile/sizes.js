// @ts-check
// The two size classes a rating is kept for, in words: the profile and the leaderboards say them alike.
import { t } from "../../i18n.js";

/**
 * The words for a size class as the server writes it ("2", "3+").
 * @param {string} size
 * @returns {string}
 */
export function sizeName(size) {
  return t(size === "2" ? "profile.size.2" : "profile.size.more");
}
