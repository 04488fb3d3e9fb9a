// The coach on the game page: hints (off by default, counted in the record), the
// card-counting trainer, the unseen cards, and the points per category at the end.
// It follows the game page through the marks game.js puts on the body (ply, whose
// turn, the end) and asks the server, which answers from this seat's view only.
import { api, cardEl, cardsRow, el, savedToken } from "./common.js";
import { cardsInText } from "./cardnames.js";
import { currentLang, onLangChange } from "./i18n.js";
import { ct } from "./coach-i18n.js";
import { hintView } from "./coach-view.js";

const game = decodeURIComponent(location.pathname.split("/").pop()).toUpperCase();
const $ = (id) => document.getElementById(id);
const OPTIONS = "chkobba.coach";
const opts = { hints: false, trainer: false, unseen: false, ...JSON.parse(localStorage.getItem(OPTIONS) || "{}") };
const scoreKey = `chkobba.trainer.${game}`;
const score = { asked: 0, right: 0, ...JSON.parse(localStorage.getItem(scoreKey) || "{}") };
let lastKey = "";
let asking = false;
let summary = null;
let builtFor = null; // the token the panel was built for: a guest may take a seat later

const token = () => savedToken(game);
// In a room of people without the coach (its creator's choice, shown to all), no aid at all.
const coachingOff = () => document.body.dataset.coaching === "0";
const builtKey = () => `${token()}|${coachingOff()}`;

function save() {
  localStorage.setItem(OPTIONS, JSON.stringify(opts));
  localStorage.setItem(scoreKey, JSON.stringify(score));
}

function toggle(name, label) {
  const box = el("input", { type: "checkbox", id: `coach-opt-${name}`, checked: opts[name] });
  box.addEventListener("change", () => {
    opts[name] = box.checked;
    save();
    render();
    refresh(true);
  });
  return el("label", { class: "coach-toggle" }, box, ` ${label}`);
}

function render() {
  if (!$("coach-hint")) return;
  $("coach-hint").classList.toggle("hidden", !opts.hints);
  $("coach-unseen").classList.toggle("hidden", !opts.unseen);
  if (!opts.trainer) $("coach-trainer").classList.add("hidden");
  $("coach-score").textContent = opts.trainer ? ct("score", score) : "";
}

async function showHint() {
  const out = $("coach-out");
  out.replaceChildren(el("p", { text: ct("thinking") }));
  try {
    const h = await api(`/api/games/${game}/hint`, { token: token() });
    out.replaceChildren(...hintView(h, (behind, n) => ct("top_plays", { behind, n })));
  } catch (e) {
    out.replaceChildren(el("p", { class: "error", text: e.message }));
  }
}

async function showUnseen() {
  try {
    const u = await api(`/api/games/${game}/unseen`, { token: token() });
    $("coach-unseen").replaceChildren(el("h3", { text: ct("unseen", { n: u.unseen.length }) }), cardsRow(u.unseen, { small: true }));
  } catch (e) {
    $("coach-unseen").replaceChildren(el("p", { class: "error", text: e.message }));
  }
}

async function askQuestion() {
  asking = true;
  let q;
  try {
    q = await api(`/api/games/${game}/question`, { token: token() });
  } catch {
    asking = false;
    return;
  }
  const box = $("coach-trainer");
  const picked = new Set();
  const choices = q.kind === "safe"
    ? q.choices.map((c) => {
      const b = el("button", { class: "secondary", type: "button", text: ct(c) });
      b.dataset.answer = c;
      b.addEventListener("click", () => answer(c === "yes"));
      return b;
    })
    : q.choices.map((c) => {
      const b = cardEl(c, { button: true, small: true });
      b.type = "button";
      b.addEventListener("click", () => {
        if (picked.has(c)) picked.delete(c); else picked.add(c);
        b.classList.toggle("selected", picked.has(c));
      });
      return b;
    });
  const done = el("button", { type: "button", text: ct("check"), id: "coach-check" });
  done.addEventListener("click", () => answer([...picked].sort()));
  box.classList.remove("hidden");
  box.replaceChildren(
    el("h3", { text: ct("trainer_title") }),
    el("p", { id: "coach-question", text: cardsInText(q.said?.[currentLang()]?.prompt ?? q.prompt) }),
    el("div", { class: "cards" }, ...choices),
    ...(q.kind === "safe" ? [] : [el("p", { class: "note", text: ct("pick") }), done]),
  );

  function answer(given) {
    const right = q.kind === "safe"
      ? given === q.answer
      : JSON.stringify(given) === JSON.stringify([...q.answer].sort());
    score.asked += 1;
    if (right) score.right += 1;
    save();
    box.replaceChildren(
      el("h3", { text: ct("trainer_title") }),
      el("p", { id: "coach-verdict", class: right ? "coach-right" : "coach-wrong", text: `${ct(right ? "right" : "wrong")} ${cardsInText(q.said?.[currentLang()]?.why ?? q.why)}` }),
    );
    asking = false;
    render();
  }
}

function drawSummary() {
  if (!summary) return;
  const box = $("coach-summary");
  box.classList.remove("hidden");
  const chart = el("div", { class: "coach-chart" });
  chart.innerHTML = summary.svg;  // drawn by the server from the finished rounds' breakdowns
  box.replaceChildren(el("h2", { text: ct("per_category") }), chart,
    el("a", { class: "button", href: `/replay/${game}#analysis`, text: ct("analyse_link") }));
}

let summaryTries = 0;

async function showSummary() {
  // A game ended before any round finished (resigned, abandoned) has nothing to sum up:
  // the server would only answer 409.
  if (summary || document.body.dataset.rounds === "0") return;
  summary = {};
  try {
    // The chart's title and axis come drawn in the page's language.
    summary = await api(`/api/games/${game}/summary?lang=${encodeURIComponent(currentLang())}`);
    drawSummary();
  } catch (e) {
    // A 409 does not change by asking again (no round finished): never retried.
    if (e.status === 409) return;
    summary = null;
    // Refused for now (the coach's requests per address, spent by the unseen cards of a
    // fast end of game; a busy server): nothing else will ask again once the game is over.
    if (++summaryTries < 10) setTimeout(showSummary, 3000);
  }
}

function refresh(force = false) {
  if (builtKey() !== builtFor) build();
  const body = document.body.dataset;
  const key = `${body.ply}/${body.myTurn}`;
  const changed = force || key !== lastKey;
  lastKey = key;
  if (body.over === "1") showSummary();
  if (!token() || coachingOff() || !changed || body.ply === undefined) return;
  if (opts.unseen) showUnseen();
  // Now and then, at a moment of the game, a question (about one turn in three).
  if (opts.trainer && !asking && !force && body.myTurn === "1" && Math.random() < 1 / 3) askQuestion();
}

function build() {
  const panel = $("coach");
  builtFor = builtKey();
  if (token() && coachingOff()) {
    panel.replaceChildren(el("h2", { text: ct("coach") }), el("p", { class: "note", id: "coach-off", text: ct("coaching_off") }));
    return;
  }
  if (!token()) {
    // A spectator has no seat to coach: only the summary at the end is shown.
    panel.replaceChildren(el("h2", { text: ct("coach") }), el("p", { class: "note", text: ct("spectator") }));
    return;
  }
  const hintBtn = el("button", { id: "coach-hint", type: "button", text: ct("hint") });
  hintBtn.addEventListener("click", showHint);
  panel.replaceChildren(
    el("h2", { text: ct("coach") }),
    toggle("hints", ct("hints")), toggle("trainer", ct("trainer")), toggle("unseen", ct("show_unseen")),
    hintBtn,
    el("p", { id: "coach-score", class: "note" }),
    el("div", { id: "coach-out" }),
    el("div", { id: "coach-trainer", class: "hidden" }),
    el("div", { id: "coach-unseen", class: "hidden" }),
  );
  render();
}

function main() {
  build();
  onLangChange(() => {
    asking = false;
    build();
    // A chart drawn in the old language is asked again in the new one.
    if (summary?.svg) { summary = null; summaryTries = 0; }
    refresh(true);
  });
  const watch = new MutationObserver(() => refresh());
  watch.observe(document.body, { attributes: true, attributeFilter: ["data-ply", "data-my-turn", "data-over", "data-seat", "data-coaching"] });
}

main();
