// A game's rules page (/rules/NAME): what `chkobba rules NAME` prints, from
// GET /api/rules/NAME, in the page's language (the server holds every translation).
import { currentLang, gameName, onLangChange, t, word } from "./i18n.js";
import { api, cardEl, el, setupHeader } from "./common.js";
import { onDeckChange, setGameDeck } from "./cards.js";
import { cardShort } from "./cardnames.js";

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

/** A how-to text in the page's language, its cards ({7d}) named in the deck drawn. */
const told = (words) => say(words).replace(/\{([A2-7QJK][shdc])\}/g, (_, code) => cardShort(code));

/** A row of small cards, each named for screen readers. */
const cards = (codes) => el("span", { class: "cards ex-cards" }, ...codes.map((c) => cardEl(c, { small: true })));

/** How to play, and the worked example: a few plays on a small table, each with why,
 * then the round counted point by point (the engine's own count, from the server). */
function renderHowto() {
  const howto = rules.howto;
  $("howto-text").replaceChildren(...howto.paragraphs.map((p) => el("p", { text: told(p) })));
  const ex = howto.example;
  $("example-intro").textContent = told(ex.intro);
  $("example-steps").replaceChildren(...ex.steps.map((s, i) => el("li", { "data-step": String(i) },
    el("div", { class: "ex-row" },
      el("span", { class: "ex-what" }, el("span", { class: "ex-label", text: rw(s.hand ? "ex_trick" : "ex_table") }),
        s.table.length ? cards(s.table) : el("span", { class: "info", text: rw("ex_empty") })),
      ...(s.hand ? [el("span", { class: "ex-what" }, el("span", { class: "ex-label", text: rw(`holds_${s.who}`) }), cards(s.hand))] : []),
      el("span", { class: "ex-what ex-play" }, el("span", { class: "ex-label", text: rw(`plays_${s.who}`) }), cards([s.play])),
      ...(s.take.length ? [el("span", { class: "ex-what" }, el("span", { class: "ex-label", text: rw("ex_takes") }), cards(s.take))] : [])),
    el("p", { class: s.sweep ? "ex-text ex-sweep" : "ex-text", text: told(s.text) }))));
  $("example-extra").replaceChildren(...ex.extra.map((w) => el("p", { text: told(w) })));
  const count = ex.count;
  $("example-count-text").textContent = told(count.text);
  const helps = Object.fromEntries(rules.points.map((p) => [p.key, p.help]));
  const box = $("example-count");
  box.classList.toggle("hidden", !count.rows.length);
  if (count.rows.length) {
    box.replaceChildren(
      el("tr", {}, el("th", { scope: "col", text: rw("ex_point") }), el("th", { scope: "col", text: rw("ex_your_side") }),
        el("th", { scope: "col", text: rw("ex_other_side") })),
      ...count.rows.map((r) => el("tr", { "data-point": r.key },
        el("th", { scope: "row" }, el("span", { class: "translit", text: r.name }),
          ...(r.native ? [" · ", el("span", { class: "arabic", lang: "ar", text: r.native })] : []),
          ...(helps[r.key] ? [el("div", { class: "info", text: say(helps[r.key]) })] : [])),
        ...r.points.map((n, s) => el("td", { class: n ? "scored" : "", text: r.counts ? `${n} (${ltr(r.counts[s])})` : String(n) })))),
      el("tr", { class: "ex-total" }, el("th", { scope: "row", text: rw("ex_round_points") }),
        ...count.totals.map((n) => el("td", { text: String(n) }))));
  } else box.replaceChildren();
  $("example-count-after").textContent = told(count.after);
}

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
  if (rules.howto) renderHowto();
  document.body.dataset.rules = rules.name;
  document.body.dataset.lang = currentLang();
}

async function main() {
  setupHeader();
  onLangChange(render);
  onDeckChange(render);
  $("rules-name").addEventListener("change", (e) => { location.href = `/rules/${e.target.value}`; });
  try {
    [index, rules] = await Promise.all([api("/api/rules"), api(`/api/rules/${encodeURIComponent(wanted)}`)]);
    // The example's cards are drawn in the game's own deck unless the player chose another.
    setGameDeck(rules.deck);
  } catch (e) {
    $("error").textContent = `${t("error")}: ${e.message}`;
    index = index ?? (await api("/api/rules").catch(() => null));
  }
  render();
  document.body.dataset.ready = "1";
}

main();
