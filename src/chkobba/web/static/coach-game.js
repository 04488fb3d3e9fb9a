// The coach on the game page: hints (off by default, counted in the record), the
// card-counting trainer, the unseen cards, and the points per category at the end.
// It watches the game page's board and asks the server, which answers from this
// seat's own view only.
import { api, cardEl, cardsRow, el, savedToken } from "./common.js";

const game = decodeURIComponent(location.pathname.split("/").pop()).toUpperCase();
const $ = (id) => document.getElementById(id);
const OPTIONS = "chkobba.coach";
const opts = { hints: false, trainer: false, unseen: false, ...JSON.parse(localStorage.getItem(OPTIONS) || "{}") };
const scoreKey = `chkobba.trainer.${game}`;
const score = { asked: 0, right: 0, ...JSON.parse(localStorage.getItem(scoreKey) || "{}") };
let lastLog = "";
let asking = false;
let summarised = false;

const token = () => savedToken(game);

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
  $("coach-hint").classList.toggle("hidden", !opts.hints || !token());
  $("coach-unseen").classList.toggle("hidden", !opts.unseen);
  $("coach-trainer").classList.toggle("hidden", !opts.trainer);
  $("coach-score").textContent = opts.trainer ? `Trainer: ${score.right} of ${score.asked} right` : "";
}

async function showHint() {
  const out = $("coach-out");
  out.replaceChildren(el("p", { text: "The expert is thinking…" }));
  try {
    const h = await api(`/api/games/${game}/hint`, { token: token() });
    const behind = h.exact ? "solved exactly" : `${h.samples} sampled deals`;
    out.replaceChildren(
      el("p", { class: "note", text: `The expert's top plays (${behind}; expected round margin ± 1 standard error). Hints this game: ${h.hints} (noted in the record).` }),
      el("ol", {}, ...h.plays.map((p) => el("li", { class: "coach-hint-line" },
        el("b", { text: p.move }), ` ${p.mean >= 0 ? "+" : ""}${p.mean.toFixed(2)}${h.exact ? "" : ` ± ${p.se.toFixed(2)}`} — ${p.words}`))),
    );
  } catch (e) {
    out.replaceChildren(el("p", { class: "error", text: e.message }));
  }
}

async function showUnseen() {
  try {
    const u = await api(`/api/games/${game}/unseen`, { token: token() });
    $("coach-unseen").replaceChildren(el("h3", { text: `Unseen cards (${u.unseen.length})` }), cardsRow(u.unseen, { small: true }));
  } catch (e) {
    $("coach-unseen").replaceChildren(el("p", { class: "error", text: e.message }));
  }
}

async function askQuestion() {
  asking = true;
  let q;
  try {
    q = await api(`/api/games/${game}/question`, { token: token() });
  } catch (e) {
    asking = false;
    return;
  }
  const box = $("coach-trainer");
  const picked = new Set();
  const choices = q.kind === "safe"
    ? q.choices.map((c) => {
      const b = el("button", { class: "secondary", type: "button", text: c });
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
  const done = el("button", { type: "button", text: "Check", id: "coach-check" });
  done.addEventListener("click", () => answer([...picked].sort()));
  box.classList.remove("hidden");
  box.replaceChildren(
    el("h3", { text: "Trainer" }),
    el("p", { id: "coach-question", text: q.prompt }),
    el("div", { class: "cards" }, ...choices),
    ...(q.kind === "safe" ? [] : [el("p", { class: "note", text: "Pick every card still unseen (none: just Check)." }), done]),
  );

  function answer(given) {
    const right = q.kind === "safe"
      ? given === q.answer
      : JSON.stringify(given) === JSON.stringify([...q.answer].sort());
    score.asked += 1;
    if (right) score.right += 1;
    save();
    box.replaceChildren(
      el("h3", { text: "Trainer" }),
      el("p", { id: "coach-verdict", class: right ? "coach-right" : "coach-wrong", text: `${right ? "✓ Right." : "✗ Not quite."} ${q.why}` }),
    );
    asking = false;
    render();
  }
}

async function showSummary() {
  if (summarised) return;
  summarised = true;
  try {
    const s = await api(`/api/games/${game}/summary`);
    const box = $("coach-summary");
    box.classList.remove("hidden");
    const chart = el("div", { class: "coach-chart" });
    chart.innerHTML = s.svg;  // drawn by the server from the finished rounds' breakdowns
    box.replaceChildren(el("h2", { text: "Points per category" }), chart,
      el("a", { class: "button", href: `/replay/${game}#analysis`, text: "Analyse the game with the expert" }));
  } catch {
    summarised = false;
  }
}

function refresh(force = false) {
  const body = document.body.dataset;
  const key = `${body.ply}/${body.myTurn}`;
  const changed = force || key !== lastLog;
  lastLog = key;
  if (body.over === "1") showSummary();
  if (!token() || !changed || body.ply === undefined) return;
  if (opts.unseen) showUnseen();
  // Now and then, at a moment of the game, a question (about one turn in three).
  if (opts.trainer && !asking && !force && body.myTurn === "1" && Math.random() < 1 / 3) askQuestion();
}

function main() {
  const panel = $("coach");
  const hintBtn = el("button", { id: "coach-hint", type: "button", text: "Hint" });
  hintBtn.addEventListener("click", showHint);
  panel.replaceChildren(
    el("h2", { text: "Coach" }),
    toggle("hints", "Hints"), toggle("trainer", "Card-counting trainer"), toggle("unseen", "Show unseen cards"),
    hintBtn,
    el("p", { id: "coach-score", class: "note" }),
    el("div", { id: "coach-out" }),
    el("div", { id: "coach-trainer", class: "hidden" }),
    el("div", { id: "coach-unseen", class: "hidden" }),
  );
  render();
  if (!token()) {
    // A spectator has no seat to coach: only the summary at the end is shown.
    panel.replaceChildren(el("h2", { text: "Coach" }), el("p", { class: "note", text: "The coach helps the players; the summary and the expert's analysis come at the end." }));
  }
  // game.js marks the body with the ply, whose turn it is and the end of the game.
  const watch = new MutationObserver(() => refresh());
  watch.observe(document.body, { attributes: true, attributeFilter: ["data-ply", "data-my-turn", "data-over"] });
}

main();
