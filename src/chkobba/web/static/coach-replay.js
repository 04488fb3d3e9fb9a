// The coach on the replay page: the expert's analysis of a finished game, move by move.
// For the chosen seat, every play's estimates (expected round margin ± one standard
// error, from that seat's view only), the play made, the best play and the loss; the
// biggest mistakes first, in words. Works beside replay.js, following its step.
import { api, el } from "./common.js";

const game = decodeURIComponent(location.pathname.split("/").pop()).toUpperCase();
const $ = (id) => document.getElementById(id);
let frames = null;
let byPly = new Map();
let analysis = null;

function plyOfStep(step) {
  // Each frame after a move shows that move; the deal frames show none.
  let ply = -1;
  for (let k = 0; k <= step && k < frames.length; k++) if (frames[k].move) ply += 1;
  return frames[step]?.move ? ply : null;
}

function stepOfPly(ply) {
  let seen = -1;
  for (let k = 0; k < frames.length; k++) {
    if (frames[k].move) seen += 1;
    if (seen === ply) return k;
  }
  return 0;
}

function go(ply) {
  const slider = $("slider");
  slider.value = stepOfPly(ply);
  slider.dispatchEvent(new Event("input"));
}

function sign(x) {
  return `${x >= 0 ? "+" : ""}${x.toFixed(2)}`;
}

function showStep() {
  const box = $("coach-move");
  if (!analysis || !frames) return;
  const ply = plyOfStep(Number(document.body.dataset.step || 0));
  const d = ply === null ? null : byPly.get(ply);
  if (!d) {
    box.replaceChildren(el("p", { class: "note", text: ply === null ? "" : "Not a play of the analysed seat." }));
    return;
  }
  const est = d.estimates;
  const head = el("p", { class: d.mistake ? "coach-mistake" : "", id: "coach-words", text: `${analysis.names?.[d.seat] ?? `Seat ${d.seat}`}: ${d.words}` });
  if (!est) {
    box.replaceChildren(head, el("p", { class: "note", text: "The only legal play." }));
    return;
  }
  const rows = [...est.plays].sort((a, b) => b.mean - a.mean).map((p) => el("tr", { class: p.move === d.move ? "coach-played" : "" },
    el("td", { text: `${p.move}${p.move === d.move ? " (played)" : ""}${p.move === d.best ? " ★" : ""}` }),
    el("td", { text: sign(p.mean) + (est.exact ? "" : ` ± ${p.se.toFixed(2)}`) }),
    el("td", { text: p.loss ? `−${p.loss.toFixed(2)}${est.exact ? "" : ` ± ${p.loss_se.toFixed(2)}`}` : "best" })));
  box.replaceChildren(
    head,
    el("table", { class: "coach-table" },
      el("tr", {}, el("th", { text: "play" }), el("th", { text: "expected round margin" }), el("th", { text: "loss" })), ...rows),
    el("p", { class: "note", text: est.exact ? "Solved exactly: no card is hidden any more." : `${est.samples} sampled deals in ${est.batches} batches; ± is one standard error.` }),
  );
}

async function run() {
  const out = $("coach-result");
  const seat = $("coach-seat").value;
  const samples = $("coach-samples").value;
  out.replaceChildren(el("p", { text: "The expert is analysing the game…" }));
  $("coach-run").disabled = true;
  try {
    analysis = await api(`/api/games/${game}/analysis?seat=${seat}&samples=${samples}`);
  } catch (e) {
    out.replaceChildren(el("p", { class: "error", text: e.message }));
    $("coach-run").disabled = false;
    return;
  }
  $("coach-run").disabled = false;
  byPly = new Map(analysis.decisions.filter((d) => d.ply !== null).map((d) => [d.ply, d]));
  const worst = analysis.mistakes.map(([r, p]) => analysis.decisions.find((d) => d.round === r && d.play === p)).filter(Boolean);
  out.replaceChildren(
    el("p", { class: "note", text: `Figures: ${analysis.figure}; ${analysis.samples} samples per position; ${analysis.total_loss.toFixed(2)} points lost in all (${analysis.seconds.toFixed(1)} s).` }),
    el("h3", { text: worst.length ? "The biggest mistakes" : "No mistake beyond the sampling error" }),
    el("ol", { id: "coach-mistakes" }, ...worst.map((d) => {
      const a = el("a", { href: "#", text: `Round ${d.round}, play ${d.play}: ${d.words}` });
      a.addEventListener("click", (e) => { e.preventDefault(); go(d.ply); });
      return el("li", {}, a);
    })),
    el("div", { id: "coach-move" }),
  );
  document.body.dataset.analysed = "1";
  showStep();
}

async function main() {
  let rep;
  try {
    rep = await api(`/api/games/${game}/replay`);
  } catch {
    return;  // replay.js says why
  }
  frames = rep.frames;
  const names = rep.names;
  const seatSel = el("select", { id: "coach-seat" },
    ...names.map((n, s) => el("option", { value: String(s), text: n })), el("option", { value: "all", text: "every seat" }));
  const samplesSel = el("select", { id: "coach-samples" },
    ...[[1000, "quick"], [4000, "default"], [16000, "precise"]].map(([n, w]) => el("option", { value: String(n), text: `${n} samples (${w})`, selected: n === 4000 })));
  const btn = el("button", { id: "coach-run", type: "button", text: "Analyse with the expert" });
  btn.addEventListener("click", run);
  $("coach-analysis").replaceChildren(
    el("h2", { text: "The expert's analysis" }),
    el("p", { class: "note", text: "For every play of a seat: what the expert would have played and why, with honest error bars." }),
    el("label", { text: "Seat" }), seatSel, el("label", { text: "Precision" }), samplesSel, btn,
    el("div", { id: "coach-result" }),
  );
  new MutationObserver(showStep).observe(document.body, { attributes: true, attributeFilter: ["data-step"] });
  if (location.hash === "#analysis") run();
}

main();
