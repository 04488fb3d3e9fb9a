// The coach on the replay page: the expert's analysis of a finished game, move by move.
// For the chosen seat, every play's estimates (expected round margin ± one standard
// error, from that seat's view only), the play made, the best play and the loss; the
// biggest mistakes first, in words. Works beside replay.js, following its step.
import { api, el } from "./common.js";
import { onLangChange } from "./i18n.js";
import { ct } from "./coach-i18n.js";

const game = decodeURIComponent(location.pathname.split("/").pop()).toUpperCase();
const $ = (id) => document.getElementById(id);
let rep = null;
let byPly = new Map();
let analysis = null;

function plyOfStep(step) {
  // Each frame after a move shows that move; the deal frames show none.
  let ply = -1;
  for (let k = 0; k <= step && k < rep.frames.length; k++) if (rep.frames[k].move) ply += 1;
  return rep.frames[step]?.move ? ply : null;
}

function stepOfPly(ply) {
  let seen = -1;
  for (let k = 0; k < rep.frames.length; k++) {
    if (rep.frames[k].move) seen += 1;
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
  if (!analysis || !rep || !box) return;
  const ply = plyOfStep(Number(document.body.dataset.step || 0));
  const d = ply === null ? null : byPly.get(ply);
  if (!d) {
    box.replaceChildren(el("p", { class: "note", text: ply === null ? "" : ct("not_analysed") }));
    return;
  }
  const est = d.estimates;
  const head = el("p", { class: d.mistake ? "coach-mistake" : "", id: "coach-words", text: `${rep.names[d.seat]}: ${d.words}` });
  if (!est) {
    box.replaceChildren(head, el("p", { class: "note", text: ct("forced") }));
    return;
  }
  const rows = [...est.plays].sort((a, b) => b.mean - a.mean).map((p) => el("tr", { class: p.move === d.move ? "coach-played" : "" },
    el("td", { text: `${p.move}${p.move === d.move ? ct("played") : ""}${p.move === d.best ? " ★" : ""}` }),
    el("td", { text: sign(p.mean) + (est.exact ? "" : ` ± ${p.se.toFixed(2)}`) }),
    el("td", { text: p.loss ? `−${p.loss.toFixed(2)}${est.exact ? "" : ` ± ${p.loss_se.toFixed(2)}`}` : ct("best") })));
  box.replaceChildren(
    head,
    el("table", { class: "coach-table" },
      el("tr", {}, el("th", { text: ct("play") }), el("th", { text: ct("margin") }), el("th", { text: ct("loss") })), ...rows),
    el("p", { class: "note", text: est.exact ? ct("exact_note") : ct("sampled_note", { n: est.samples, b: est.batches }) }),
  );
}

function drawResult() {
  const out = $("coach-result");
  if (!analysis || !out) return;
  const worst = analysis.mistakes.map(([r, p]) => analysis.decisions.find((d) => d.round === r && d.play === p)).filter(Boolean);
  out.replaceChildren(
    el("p", { class: "note", text: ct("figures", { n: analysis.samples, lost: analysis.total_loss.toFixed(2), s: analysis.seconds.toFixed(1) }) }),
    el("h3", { text: worst.length ? ct("mistakes") : ct("no_mistake") }),
    el("ol", { id: "coach-mistakes" }, ...worst.map((d) => {
      const a = el("a", { href: "#", text: `${ct("round_play", { r: d.round, p: d.play })}${d.words}` });
      a.addEventListener("click", (e) => { e.preventDefault(); go(d.ply); });
      return el("li", {}, a);
    })),
    el("div", { id: "coach-move" }),
  );
  showStep();
}

async function run() {
  const out = $("coach-result");
  const seat = $("coach-seat").value;
  const samples = $("coach-samples").value;
  out.replaceChildren(el("p", { text: ct("analysing") }));
  $("coach-run").disabled = true;
  try {
    analysis = await api(`/api/games/${game}/analysis?seat=${seat}&samples=${samples}`);
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
  const seatSel = el("select", { id: "coach-seat" },
    ...rep.names.map((n, s) => el("option", { value: String(s), text: n, selected: String(s) === seat })),
    el("option", { value: "all", text: ct("every_seat"), selected: seat === "all" }));
  const samplesSel = el("select", { id: "coach-samples" },
    ...[[1000, "quick"], [4000, "default"], [16000, "precise"]].map(([n, w]) =>
      el("option", { value: String(n), text: ct(w, { n }), selected: String(n) === samples })));
  const btn = el("button", { id: "coach-run", type: "button", text: ct("analyse") });
  btn.addEventListener("click", run);
  $("coach-analysis").replaceChildren(
    el("h2", { text: ct("analysis") }),
    el("p", { class: "note", text: ct("analysis_intro") }),
    el("label", { text: ct("seat") }), seatSel, el("label", { text: ct("precision") }), samplesSel, btn,
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
