// The pages' words and the language switch. The words are in one JSON catalogue per
// language (chkobba/words/catalogues/LANG.json, served at /static/i18n/LANG.json), shared
// with the server and the terminal; this module loads the page's language (and English,
// which stands in for any word a catalogue lacks) before any page script runs, so t()
// stays synchronous; another language is fetched when the player picks it.

/** Every language, in its own name, in the order the switch lists them. */
export const LANGS = { en: "English", fr: "Français", it: "Italiano", es: "Español", ar: "العربية" };

const RIGHT_TO_LEFT = new Set(["ar"]);
const catalogues = {};

async function load(code) {
  if (!catalogues[code]) {
    const r = await fetch(`/static/i18n/${code}.json`);
    catalogues[code] = r.ok ? await r.json() : {};
  }
  return catalogues[code];
}

/** The language of the page: the player's choice, else the first of the browser's
 * languages (navigator.languages, as Accept-Language) that a catalogue speaks. */
function initialLang() {
  const saved = localStorage.getItem("chkobba.lang");
  if (saved && LANGS[saved]) return saved;
  for (const tag of navigator.languages?.length ? navigator.languages : [navigator.language || "en"]) {
    const code = String(tag).slice(0, 2).toLowerCase();
    if (LANGS[code]) return code;
  }
  return "en";
}

let lang = initialLang();
// Only what the page shows is fetched before it draws (about 8 KB compressed each).
await Promise.all([...new Set([lang, "en"])].map(load));
const listeners = [];

export function currentLang() {
  return lang;
}

/** Fill a text's ``{name}`` placeholders from ``vars`` (unknown ones kept); a value in
 * the other direction's script (an Arabic name in a French line, a Latin one in an Arabic
 * line) is isolated, so that "11 / 0 · مختبر" reads right. */
export function fill(text, vars = {}) {
  return text.replace(/\{(\w+)\}/g, (_, k) => (k in vars ? bidiSafe(vars[k]) : `{${k}}`));
}

const RTL_LETTERS = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
const LTR_LETTERS = /[A-Za-z\u00c0-\u024f]/;

/** ``value`` isolated (Unicode first-strong isolate) when it holds letters of the other
 * direction than the page's, and is not isolated already; else as it is. */
export function bidiSafe(value) {
  const text = String(value);
  if (/^[\u2066-\u2068]/.test(text)) return text;
  const foreign = RIGHT_TO_LEFT.has(lang) ? LTR_LETTERS.test(text) : RTL_LETTERS.test(text);
  return foreign ? isolate(text) : text;
}

/** The word for ``key`` in ``section`` of the page's catalogue (English if it has none).
 * A text that counts is an object of plural forms (CLDR categories): the one the
 * language uses for ``vars.n`` is taken, ``other`` when it is missing. */
export function word(section, key, vars = {}) {
  let text = catalogues[lang]?.[section]?.[key];
  const from = text === undefined ? "en" : lang;
  if (text === undefined) text = catalogues.en?.[section]?.[key] ?? key;
  if (typeof text === "object") {
    const form = typeof vars.n === "number" ? new Intl.PluralRules(from).select(vars.n) : "other";
    text = text[form] ?? text.other;
  }
  return fill(text, vars);
}

/** Whether ``section`` has ``key`` (for families of keys, such as the game names). */
export function hasWord(section, key) {
  return catalogues.en?.[section]?.[key] !== undefined;
}

/** The page's word for ``key`` (the ``page`` section). */
export function t(key, vars = {}) {
  return word("page", key, vars);
}

export function applyWords(root = document) {
  document.documentElement.lang = lang;
  document.documentElement.dir = RIGHT_TO_LEFT.has(lang) ? "rtl" : "ltr";
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  }
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
}

let asked = null; // the language asked for last: a slower earlier fetch does not win

/** Switch the page to ``code``, its catalogue fetched first if need be (the page redraws
 * when it is there); resolves once the page speaks it. */
export async function setLang(code) {
  if (!LANGS[code]) return;
  asked = code;
  await load(code);
  if (asked !== code) return;
  lang = code;
  localStorage.setItem("chkobba.lang", code);
  applyWords();
  for (const fn of listeners) fn(code);
}

export function onLangChange(fn) {
  listeners.push(fn);
}

export function mountLangPicker(select) {
  for (const [code, name] of Object.entries(LANGS)) {
    const opt = document.createElement("option");
    opt.value = code;
    opt.textContent = name;
    opt.lang = code;
    select.append(opt);
  }
  select.value = lang;
  select.addEventListener("change", () => setLang(select.value));
  applyWords();
}

/** A computer level in words, in the page's language (Touti's too). */
export function levelName(level) {
  return hasWord("page", `level_${level}`) ? t(`level_${level}`) : level;
}

/** A game's proper name (``scopa-di-quindici``: "Scopa di quindici"), in the page's language. */
export function gameName(name) {
  return hasWord("games", `name_${name}`) ? word("games", `name_${name}`) : name;
}

/** A game's one line saying what it is. */
export function gameLine(name) {
  return hasWord("games", `line_${name}`) ? word("games", `line_${name}`) : "";
}

/** ``text`` isolated from the text around it (Unicode first-strong isolate), so a name in
 * another script reads right inside a line of any direction. */
export function isolate(text) {
  return `\u2068${text}\u2069`;
}
