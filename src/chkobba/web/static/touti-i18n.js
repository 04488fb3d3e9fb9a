// The Touti page's words in the site's languages (the `touti` section of the catalogues;
// the language itself is chosen with i18n.js's picker), the story of the game ("What
// happened") included: the server sends its events (who did what, with which card, suit
// or points), told here (log_*).
import { word } from "./i18n.js";

/** The Touti page's word for ``key`` in the page's language (English if missing). */
export function tt(key, vars = {}) {
  return word("touti", key, vars);
}

/** Put the words into every element marked ``data-tt`` (and the page's title). */
export function applyToutiWords(root = document) {
  document.title = tt("page_title");
  for (const node of root.querySelectorAll("[data-tt]")) node.textContent = tt(node.dataset.tt);
}
