// How the coach shows an analysis (GET /api/games/{code}/analysis, POST /api/analyze):
// the biggest mistakes, and one decision with the expert's estimates of every play.
import { el } from "./common.js";
import { ct } from "./coach-i18n.js";
import { cardsInText, moveShort } from "./cardnames.js";
import { currentLang } from "./i18n.js";

/** A hint's play or a decision in the page's language (``said``, from the server's
 * catalogues), else the English ``words`` the records hold. */
function said(x) {
  return (x.said && x.said[currentLang()]) || x.words;
}

function sign(x) {
  return `${x >= 0 ? "+" : ""}${x.toFixed(2)}`;
}

/** A hint (POST /api/games/{code}/hint): its note (``title(behind, n)``, the words saying
 * what the figures are) and the plays, best first (each move and the cards in its words
 * named as the deck shown names them), each ± its standard error unless exact. */
export function hintView(h, title) {
  const behind = h.exact ? ct("solved") : ct("sampled", { n: h.samples });
  return [
    el("p", { class: "note", text: title(behind, h.hints) }),
    el("ol", {}, ...h.plays.map((p) => el("li", { class: "coach-hint-line" },
      el("b", { title: p.move, text: moveShort(p.move) }), ` ${sign(p.mean)}${h.exact ? "" : ` ± ${p.se.toFixed(2)}`} — ${cardsInText(said(p))}`))),
  ];
}

/** The analysis' summary and its biggest mistakes, each a link calling ``go(ply)``. */
export function resultView(analysis, go) {
  const worst = analysis.mistakes.map(([r, p]) => analysis.decisions.find((d) => d.round === r && d.play === p)).filter(Boolean);
  return [
    el("p", { class: "note", text: ct("figures", { n: analysis.samples, lost: analysis.total_loss.toFixed(2), s: analysis.seconds.toFixed(1) }) }),
    el("h3", { text: worst.length ? ct("mistakes") : ct("no_mistake") }),
    el("ol", { id: "coach-mistakes" }, ...worst.map((d) => {
      const a = el("a", { href: "#", text: `${ct("round_play", { r: d.round, p: d.play })}${cardsInText(said(d))}` });
      a.addEventListener("click", (e) => { e.preventDefault(); go(d.ply); });
      return el("li", {}, a);
    })),
  ];
}

/** One decision: the play in words, and the estimates of every play, best first. */
export function decisionView(d, names) {
  const est = d.estimates;
  const head = el("p", { class: d.mistake ? "coach-mistake" : "", id: "coach-words", text: `${names[d.seat]}: ${cardsInText(said(d))}` });
  if (!est) return [head, el("p", { class: "note", text: ct("forced") })];
  const rows = [...est.plays].sort((a, b) => b.mean - a.mean).map((p) => el("tr", { class: p.move === d.move ? "coach-played" : "" },
    el("td", { title: p.move, text: `${moveShort(p.move)}${p.move === d.move ? ct("played") : ""}${p.move === d.best ? " ★" : ""}` }),
    el("td", { text: sign(p.mean) + (est.exact ? "" : ` ± ${p.se.toFixed(2)}`) }),
    el("td", { text: p.loss ? `−${p.loss.toFixed(2)}${est.exact ? "" : ` ± ${p.loss_se.toFixed(2)}`}` : ct("best") })));
  return [
    head,
    el("table", { class: "coach-table" },
      el("tr", {}, el("th", { text: ct("play") }), el("th", { text: ct("margin") }), el("th", { text: ct("loss") })), ...rows),
    el("p", { class: "note", text: est.exact ? ct("exact_note") : ct("sampled_note", { n: est.samples, b: est.batches }) }),
  ];
}

/** The ply shown by frame ``step`` (the move that led to it), or null for a deal. A
 * game's own table (Touti) numbers its frames' plies itself (``ply``). */
export function plyOfStep(frames, step) {
  if (frames[step] && "ply" in frames[step]) return frames[step].ply ?? null;
  let ply = -1;
  for (let k = 0; k <= step && k < frames.length; k++) if (frames[k].move) ply += 1;
  return frames[step]?.move ? ply : null;
}

/** The frame that shows the move ``ply``. */
export function stepOfPly(frames, ply) {
  const own = frames.findIndex((f) => "ply" in f && f.ply === ply);
  if (own >= 0) return own;
  let seen = -1;
  for (let k = 0; k < frames.length; k++) {
    if (frames[k].move) seen += 1;
    if (seen === ply) return k;
  }
  return 0;
}

/** The seat and precision pickers, and the button that runs ``run``. */
export function pickers(names, run, seat = "0", samples = "4000") {
  const seatSel = el("select", { id: "coach-seat" },
    ...names.map((n, s) => el("option", { value: String(s), text: n, selected: String(s) === seat })),
    el("option", { value: "all", text: ct("every_seat"), selected: seat === "all" }));
  const samplesSel = el("select", { id: "coach-samples" },
    ...[[1000, "quick"], [4000, "default"], [16000, "precise"]].map(([n, w]) =>
      el("option", { value: String(n), text: ct(w, { n }), selected: String(n) === samples })));
  const btn = el("button", { id: "coach-run", type: "button", text: ct("analyse") });
  btn.addEventListener("click", run);
  return [el("label", { text: ct("seat"), htmlFor: "coach-seat" }), seatSel,
    el("label", { text: ct("precision"), htmlFor: "coach-samples" }), samplesSel, btn];
}

/** Run an analysis round by round, ``fetchRound(r)`` answering one round's analysis, and
 * report the progress to ``progress(done, rounds)``; the parts merged into one analysis. */
export async function analyseByRound(fetchRound, rounds, progress) {
  let merged = null;
  for (let r = 1; r <= rounds; r++) {
    progress(r - 1, rounds);
    const part = await patiently(() => fetchRound(r));
    if (!merged) {
      // The record's own count of parts wins: a game resigned as a deal began counts
      // that deal on the table but not in its record (Touti).
      if (part.rounds) rounds = Math.min(rounds, part.rounds);
      merged = { ...part, decisions: [...part.decisions] };
    } else {
      merged.decisions.push(...part.decisions);
      merged.seconds += part.seconds;
      merged.total_loss += part.total_loss;
    }
  }
  progress(rounds, rounds);
  // The game's biggest mistakes, as the server lists them for a whole game.
  merged.mistakes = merged.decisions.filter((d) => d.mistake)
    .sort((a, b) => b.loss - a.loss).slice(0, 10).map((d) => [d.round, d.play]);
  return merged;
}

/** ``ask()``, asked again while the server says it is too busy (429), as long as it asks
 * to wait (Retry-After), a few times at most. */
async function patiently(ask) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ask();
    } catch (e) {
      if (e.status !== 429 || attempt >= 12) throw e;
      await new Promise((done) => setTimeout(done, 1000 * Math.max(1, e.retryAfter)));
    }
  }
}

/** A progress bar with its words. */
export function progressView(done, rounds) {
  return [el("progress", { id: "coach-progress", max: rounds, value: done }),
    el("span", { text: ` ${ct("progress", { r: Math.min(done + 1, rounds), n: rounds })}` })];
}
