// The account page's words (and the header link's, and the account's mark at the table):
// the `account` section of the catalogues (static/i18n/LANG.json).
import { word } from "./i18n.js";

/** One of the account's words in the page's language (English if missing). */
export function aw(key, vars = {}) {
  return word("account", key, vars);
}

/** Put the words into every element marked ``data-aw``. */
export function applyAccountWords(root = document) {
  for (const node of root.querySelectorAll("[data-aw]")) node.textContent = aw(node.dataset.aw);
}
