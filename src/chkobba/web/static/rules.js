// A game's rules page (/rules/NAME): what `chkobba rules NAME` prints, from
// GET /api/rules/NAME, in the page's language (the server holds every translation).
import { currentLang, gameName, onLangChange, t, word } from "./i18n.js";
import { api, el, setupHeader } from "./common.js";

/** The rules page's word for ``key`` in the page's language. */
function rw(key, vars = {}) {
  return word("rules_page", key, vars);
}

const $ = (id) => document.getElementById(id);
const wanted = decodeURIComponent(location.pathname.split("/")[2] || "chkobba");
let index = null;
let rules = null;

/** Values and section numbers ("600, 800, 1000", "§2.4") kept left to right, so that
 * they read right inside an Arabic line. */
const ltr = (text) => `\u2066${text}\u2069`;

/** A text in the page's language, English when it has none. */
const say = (words) => words[currentLang()] ?? words.en;

function render() {
  for (const node of document.querySelectorAll("[data-rw]")) node.textContent = rw(node.dataset.rw);
  if (index) {
    const pick = $("rules-name");
    pick.replaceChildren(...index.games.map((g) => el("option", { value: g.name, text: gameName(g.name) })));
    pick.value = rules?.name ?? wanted;
  }
  if (!rules) return;
  document.title = rw("page_title", { name: gameName(rules.name) });
  $("rules-title").textContent = gameName(rules.name);
  $("rules-description").textContent = say(rules.description);
  $("rules-seatings").textContent = rw("seatings", {
    list: rules.seatings.map((s) => t(`seating_${s}`)).join(" · "),
  });
  $("rules-play").href = rules.game === "touti" ? "/touti" : `/?rules=${encodeURIComponent(rules.name)}`;
  $("rules-points").replaceChildren(...(rules.points.length
    ? rules.points.map((p) => el("tr", { "data-point": p.key },
      el("th", {}, el("span", { class: "translit", text: p.name }),
        ...(p.native ? [" · ", el("span", { class: "arabic", text: p.native })] : [])),
      el("td", { text: say(p.help) })))
    : [el("tr", {}, el("td", { text: rw("no_points") }))]));
  const head = el("tr", {}, el("th", { text: rw("option") }), el("th", { text: rw("value") }),
    el("th", { text: rw("meaning") }));
  $("rules-options").replaceChildren(head, ...rules.options.map((o) => el("tr",
    { "data-option": o.key, class: o.differs ? "differs" : "" },
    el("td", {}, el("code", { text: `${o.differs ? "* " : ""}${o.key}` })),
    el("td", {}, el("code", { text: o.value })),
    el("td", {}, say(o.help), ...(o.values ? [el("div", { class: "info", text: `${rw("values", { list: ltr(o.values) })} · ${ltr(o.section)}` })] : [])))));
  $("rules-text").textContent = rules.text.join("\n");
  document.body.dataset.rules = rules.name;
  document.body.dataset.lang = currentLang();
}

async function main() {
  setupHeader();
  onLangChange(render);
  $("rules-name").addEventListener("change", (e) => { location.href = `/rules/${e.target.value}`; });
  try {
    [index, rules] = await Promise.all([api("/api/rules"), api(`/api/rules/${encodeURIComponent(wanted)}`)]);
  } catch (e) {
    $("error").textContent = `${t("error")}: ${e.message}`;
    index = index ?? (await api("/api/rules").catch(() => null));
  }
  render();
  document.body.dataset.ready = "1";
}

main();
