// A step of a finished game of the Chkobba family on the table of the game screen (table.js),
// every hand face up at its seat: the replay page (replay.js) and the analysis page
// (analyse.js) draw each position with it. Stepping forward one step moves the cards as
// the game screen does (motion.js): a card from its seat to the table, captured cards to
// the taker's pile, a sweep shouted, a new deal from the stock.
import { cardsRow, describeMove, el, sideName, sweepShout } from "./common.js";
import { bidiSafe, t } from "./i18n.js";
import { animate, snapshot } from "./motion.js";
import { declaredBoxes, drawTableCards, drawWild, placeSeats, scoresBySeat, seatScore } from "./table.js";

const $ = (id) => document.getElementById(id);

/** The seats as the common helpers want them: every seat taken, named by the record. */
export function players(data) {
  return data.names.map((name, seat) => ({ seat, name, computer: null, taken: true }));
}

/** The hand drawn at ``seat`` in step ``f``: the cut card while its cutter decides. */
function handAt(data, f, seat) {
  return seat === (f.dealer + 1) % data.seats && f.cut_card ? [f.cut_card] : f.hands[seat];
}

function seatBox(data, f, seat) {
  const bySeat = scoresBySeat(data.teams, f);
  const side = data.side_of[seat];
  const notes = [];
  if (f.dealer === seat) notes.push(t("dealer"));
  const hand = cardsRow(handAt(data, f, seat), { small: true });
  hand.classList.add("open");
  return el("div", { class: `seat ${f.turn === seat && f.note !== "end" ? "turn" : ""}`, "data-seat": seat },
    el("div", { class: "name" }, el("span", { class: "who", text: data.names[seat] })),
    el("div", { class: "info", text: notes.join(" · ") }),
    ...(bySeat ? [seatScore({ ...f, target: data.target }, side)] : []),
    hand, ...declaredBoxes(f, seat));
}

/** What step ``f`` shows, in words: the deal, or the move played and its sweep. */
export function stepWords(data, f) {
  let what = "";
  if (f.note === "deal") what = t("deal", { n: f.round });
  else if (f.move) what = describeMove(f.move, players(data), data.points);
  if (f.note === "void") what += ` — ${t("void_deal")}`;
  return what;
}

/** Draw step ``f`` of ``data`` (a replay's or an analysis' frames) on the oval table:
 * the scores, the seats (seat 0 at the bottom) with their hands, the table's cards. */
export function drawStep(data, f) {
  const p = players(data);
  const bySeat = scoresBySeat(data.teams, f);
  $("scores").classList.toggle("by-seat", bySeat);
  $("scores").replaceChildren(
    ...f.totals.map((v, s) => el("span", { class: "score", "data-side": s }, `${bidiSafe(sideName(p, data.side_of, s))}: `, el("b", { text: v }), ` / ${data.target}`,
      el("span", { class: "info", text: ` · ${t("pile")} ${f.piles[s]} ` }), el("span", { class: "marks", text: "★".repeat(f.chkobba[s]) }))),
    el("span", { class: "meta" }, el("span", { text: `${t("round")} ${f.round}` }), el("span", { text: `${t("stock")} ${f.stock}` })),
  );
  $("what").textContent = stepWords(data, f);
  placeSeats($("ring"), data.seats, 0, (s) => seatBox(data, f, s));
  drawTableCards($("table"), f.cut_card ? [] : f.table);
  drawWild($("table"), f);
}

/** Where the cards are now, before drawing the next step. */
export function stepSnapshot() {
  return snapshot([$("table"), $("seats")]);
}

/** The motion from the step drawn before (``snap``) to ``f``, just drawn. */
export function stepMotion(data, f, snap) {
  const move = typeof f.move?.move === "string" ? f.move.move : "";
  const capture = move.includes(":");
  const played = move.split(":")[0] || null;
  const mover = f.move ? f.move.seat : null;
  const takerSide = f.note === "end" ? f.end?.taker ?? null : capture ? data.side_of[mover] : null;
  const pile = (side) => (side === null || side === undefined ? null
    : document.querySelector(`.seat-score[data-side="${side}"]`) ?? document.querySelector(`.score[data-side="${side}"]`));
  const stock = document.querySelector("#scores .meta") || $("table");
  let kind = f.note === "end" ? "collect" : capture ? "capture" : move ? "play" : "deal";
  if (f.move?.chkobba) kind = "sweep";
  return animate(snap, {
    roots: [$("table"), $("seats")],
    from: () => stock,
    to: () => pile(takerSide),
    via: (code) => (code === played ? $("table") : null),
    banner: f.move?.chkobba ? sweepShout(data.points) : null,
    sound: kind,
    kind,
  });
}
