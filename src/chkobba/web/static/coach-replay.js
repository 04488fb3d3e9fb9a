// The coach on the replay page: the expert's analysis of a finished game, move by move.
// For the chosen seat, every play's estimates (expected round margin ± one standard
// error, from that seat's view only), the play made, the best play and the loss; the
// biggest mistakes first, in words. Works beside replay.js, following its step.
import { api, el } from "./common.js";
import { onLangChange } from "./i18n.js";
import { ct } from "./coach-i18n.js";
import {
  analyseByRound, decisionView, pickers, plyOfStep, progressView, resultView, stepOfPly,
} from "./coach-view.js";

const game = decodeURIComponent(location.pathname.split("/").pop()).toUpperCase();
const $ = (id) => document.getElementById(id);
let rep = null;
let byPly = new Map();
let analysis = null;

function go(ply) {
  const slider = $("slider");
  slider.value = stepOfPly(rep.frames, ply);
  slider.dispatchEvent(new Event("input"));
}

function showStep() {
  const box = $("coach-move");
  if (!analysis || !rep || !box) return;
  const ply = plyOfStep(rep.frames, Number(document.body.dataset.step || 0));
  const d = ply === null ? null : byPly.get(ply);
  if (d) box.replaceChildren(...decisionView(d, rep.names));
  else {
    // Touti's coach weighs the cards played only: a bid (or a card forced) is not weighed.
    const why = rep.kind === "touti" ? "touti_not_weighed" : "not_analysed";
    box.replaceChildren(el("p", { class: "note", id: "coach-not-weighed", text: ply === null ? "" : ct(why) }));
  }
}

function drawResult() {
  const out = $("coach-result");
  if (!analysis || !out) return;
  out.replaceChildren(...resultView(analysis, go), el("div", { id: "coach-move" }));
  showStep();
}

async function run() {
  const out = $("coach-result");
  out.replaceChildren(el("p", { text: ct("analysing") }));
  $("coach-run").disabled = true;
  const query = `seat=${$("coach-seat").value}&samples=${$("coach-samples").value}`;
  const rounds = rep.kind === "touti" ? rep.frames.filter((f) => f.note === "deal").length
    : Math.max(...rep.frames.map((f) => f.round));
  try {
    analysis = await analyseByRound(
      (r) => api(`/api/games/${game}/analysis?${query}&round=${r}`),
      rounds,
      (done, n) => out.replaceChildren(el("p", { text: ct("analysing") }), ...progressView(done, n)),
    );
  } catch (e) {
    out.replaceChildren(el("p", { class: "error", text: e.message }));
    return;
  } finally {
    $("coach-run").disabled = false;
  }
  byPly = new Map(analysis.decisions.filter((d) => d.ply !== null).map((d) => [d.ply, d]));
  drawResult();
  document.body.dataset.analysed = "1";
}

function build() {
  const seat = $("coach-seat")?.value ?? "0";
  const samples = $("coach-samples")?.value ?? "4000";
  $("coach-analysis").replaceChildren(
    el("h2", { text: ct("analysis") }),
    el("p", { class: "note", text: ct(rep.kind === "touti" ? "analysis_intro_touti" : "analysis_intro") }),
    ...pickers(rep.names, run, seat, samples),
    el("div", { id: "coach-result" }),
  );
  drawResult();
}

async function main() {
  try {
    rep = await api(`/api/games/${game}/replay`);
  } catch {
    return;  // replay.js says why
  }
  build();
  onLangChange(build);
  new MutationObserver(showStep).observe(document.body, { attributes: true, attributeFilter: ["data-step"] });
  if (location.hash === "#analysis") run();
}

main();
