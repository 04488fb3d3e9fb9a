// The coach panels' words in the site's languages: the `coach` section of the catalogues
// (static/i18n/LANG.json) for the page chrome; the coach's computed sentences come from
// the server, in English.
import { word } from "./i18n.js";

/** The coach's word for ``key`` in the page's language (English if missing). */
export function ct(key, vars = {}) {
  return word("coach", key, vars);
}
