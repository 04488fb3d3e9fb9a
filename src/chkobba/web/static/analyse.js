// Any game record (docs/records.md: from `chkobba play`, a download, a duel) analysed by the
// expert, move by move: pick the file, the seat and the precision; step through the
// game on the table of the game screen, every hand face up (replay-table.js), and the
// expert's view of each play of that seat.
import { t, onLangChange } from "./i18n.js";
import { apiError, breakdownTable, el, endNotes, setupHeader } from "./common.js";
import { pacer } from "./motion.js";
import { drawStep, players, stepMotion, stepSnapshot } from "./replay-table.js";
import { ct } from "./coach-i18n.js";
import {
  analyseByRound, decisionView, pickers, plyOfStep, progressView, resultView, stepOfPly,
} from "./coach-view.js";

const $ = (id) => document.getElementById(id);
let text = null;
let fileName = "";
let rounds = 0;
let names = [];
let data = null;
let byPly = new Map();
let i = 0;
// Positions are drawn one after the other, each step forward's motion finished first.
const queue = pacer();

function show(n) {
  const to = Math.max(0, Math.min(n, data.frames.length - 1));
  return queue(() => draw(to));
}

/** The coach's view of the step's move, if it is of the analysed seat. */
function drawMove() {
  const ply = plyOfStep(data.frames, i);
  const d = ply === null ? null : byPly.get(ply);
  // Touti's coach weighs the cards played only: a bid (or a card forced) is not weighed.
  const why = data.kind === "touti" ? "touti_not_weighed" : "not_analysed";
  $("coach-move").replaceChildren(...(d ? decisionView(d, data.names) : [el("p", { class: "note", id: "coach-not-weighed", text: ply === null ? "" : ct(why) })]));
}

/** A Touti step, in words: the deal, or who made which move (the table is Touti's own). */
function drawTouti(f) {
  $("slider").value = i;
  $("step").textContent = `${i + 1} / ${data.frames.length}`;
  $("touti-step").textContent = f.ply === null ? t("deal", { n: f.round })
    : `${ct("round_play", { r: f.round, p: f.play })}${data.names[f.seat]}: ${f.text}`;
  document.body.dataset.step = i;
  drawMove();
}

function draw(to) {
  const touti = data.kind === "touti";
  const snap = to === i + 1 && !touti ? stepSnapshot() : null;
  i = to;
  const f = data.frames[i];
  $("board").classList.toggle("hidden", touti);
  $("touti-step").classList.toggle("hidden", !touti);
  if (touti) return drawTouti(f);
  $("slider").value = i;
  $("step").textContent = `${i + 1} / ${data.frames.length}`;
  const p = players(data);
  drawStep(data, f);
  document.body.dataset.step = i;
  const end = $("end");
  end.classList.toggle("hidden", !f.end);
  if (f.end) {
    end.replaceChildren(
      el("h2", { text: t("round_over", { n: f.round }) }),
      ...endNotes(f.end, p, data.side_of).map((s) => el("p", { class: "note", text: s })),
      breakdownTable(f.end, p, data.side_of, null, data.points),
    );
  }
  drawMove();
  return snap ? stepMotion(data, f, snap) : undefined;
}

function drawAnalysis() {
  if (!data) return;
  $("coach-analysis").replaceChildren(
    el("h2", { text: ct("analysis") }),
    ...resultView(data.analysis, (ply) => show(stepOfPly(data.frames, ply))),
    el("div", { id: "coach-move" }),
  );
  queue(() => draw(i));
}

async function run() {
  const out = $("load-result");
  out.replaceChildren(el("p", { text: ct("analysing") }));
  $("coach-run").disabled = true;
  const query = `seat=${$("coach-seat").value}&samples=${$("coach-samples").value}`;
  const post = async (round) => {
    const r = await fetch(`/api/analyze?${query}${round ? `&round=${round}` : ""}`,
      { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
    const body = await r.json().catch(() => ({}));
    if (!r.ok) throw apiError(r, body);
    return body;
  };
  try {
    if (rounds < 1) {
      data = await post(null);  // nothing to split (or not a record: the server says why)
    } else {
      let first = null;
      const analysis = await analyseByRound(async (r) => {
        const body = await post(r);
        if (body.frames) first = body;
        return body.analysis;
      }, rounds, (done, n) => out.replaceChildren(el("p", { text: ct("analysing") }), ...progressView(done, n)));
      data = { ...first, analysis };
    }
  } catch (e) {
    out.replaceChildren(el("p", { class: "error", id: "load-error", text: e.message }));
    return;
  } finally {
    $("coach-run").disabled = false;
  }
  out.replaceChildren();
  byPly = new Map(data.analysis.decisions.filter((d) => d.ply !== null).map((d) => [d.ply, d]));
  $("viewer").classList.remove("hidden");
  $("slider").max = data.frames.length - 1;
  i = 0;
  drawAnalysis();
  document.body.dataset.analysed = "1";
}

async function loadFile(file) {
  text = await file.text();
  fileName = file.name;
  names = [];
  try {
    const rec = JSON.parse(text);
    // Touti's records (touti-record/1) hold deals of four seats; the others, rounds.
    const touti = typeof rec.format === "string" && rec.format.startsWith("touti-record");
    const seats = touti ? 4 : Number.isInteger(rec.seats) ? rec.seats : 0;
    names = Array.isArray(rec.names) ? rec.names : [...Array(seats).keys()].map((s) => `seat ${s}`);
    const parts = touti ? rec.deals : rec.rounds;
    rounds = Array.isArray(parts) ? parts.length : 0;
  } catch {
    names = [];  // the server says what is wrong with it
    rounds = 0;
  }
  buildLoad();
}

function buildLoad() {
  const seat = $("coach-seat")?.value ?? "0";
  const samples = $("coach-samples")?.value ?? "4000";
  const input = el("input", { type: "file", id: "record-file", accept: ".json,application/json" });
  // Named by the line that says what to choose.
  input.setAttribute("aria-labelledby", "load-intro");
  input.addEventListener("change", () => input.files[0] && loadFile(input.files[0]));
  $("load").replaceChildren(
    el("h2", { text: ct("analysis") }),
    el("p", { class: "note", id: "load-intro", text: ct("load_intro") }),
    input,
    ...(text === null ? [] : [el("p", { id: "record-name", text: fileName }), ...pickers(names, run, seat, samples)]),
    el("div", { id: "load-result" }),
  );
}

function main() {
  setupHeader();
  buildLoad();
  onLangChange(() => { buildLoad(); drawAnalysis(); });
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(i - 1));
  $("next").addEventListener("click", () => show(i + 1));
  $("last").addEventListener("click", () => show(data.frames.length - 1));
  $("slider").addEventListener("input", () => show(Number($("slider").value)));
  document.addEventListener("keydown", (e) => {
    if (!data || e.target instanceof HTMLInputElement) return; // the slider steps itself
    const rtl = document.documentElement.dir === "rtl";
    if (e.key === "ArrowRight") show(i + (rtl ? -1 : 1));
    if (e.key === "ArrowLeft") show(i + (rtl ? 1 : -1));
  });
  document.body.dataset.ready = "1";
}

main();
