// Touti's table as people sit at it, drawn the same way on the game page (touti.js) and the
// replay page (replay.js): the four seats around the trick, each with its name, what it
// said this deal and the card it played; in the middle the contract, the trumps and each
// team's tricks and card points; and the story of the game in the page's language.
import { cardEl, cardsRow, el, pretty } from "./common.js";
import { tt } from "./touti-i18n.js";
import { listSep, suitLabel, suitMark } from "./cardnames.js";

// Names and signed numbers are isolated, so that a Latin name or "+20" reads right inside
// Arabic text (cards are isolated by pretty()).
export const isolate = (s) => `\u2068${s}\u2069`;
const signed = (n) => `\u2066${n >= 0 ? "+" : ""}${n}\u2069`;
export const CALLS = new Set(["pass", "alla", "macharich", "redeal", "claim"]);
/** A suit in words, in the deck drawn and the page's language (cardnames.js). */
export const suit = (s) => suitLabel(s);

/** The seats and the middle of the table, in ``root`` (a ``.touti-table``), once. The
 * places are the person's: ``data-seat`` 0 at the bottom, then right, partner, left. */
export function fillToutiTable(root) {
  if (root.querySelector(".touti-seat")) return;
  root.replaceChildren(
    ...[2, 3, 1, 0].map((p) => el("div", { class: "touti-seat", "data-seat": p },
      el("span", { class: "who" }), el("div", { class: "slot" }))),
    el("div", { class: "touti-center", id: "t-center" }),
  );
}

/**
 * The seats of the view ``v``: at each place its seat (``me`` at the bottom), its name and
 * card count (with ``doing(seat)``: what it is doing, if anything), whose turn it is, and the
 * card it played to the trick (the last trick's, its winner's outlined, once it is over).
 * With ``hands`` (the replay) every hand is shown face up at its seat.
 */
export function drawToutiSeats(v, names, { me = 0, doing = () => "", hands = null, mark = () => null } = {}) {
  const shown = v.trick.length ? v.trick : v.last_trick ? v.last_trick.cards : [];
  for (const seatEl of document.querySelectorAll(".touti-seat")) {
    const seat = (me + Number(seatEl.dataset.seat)) % 4;
    seatEl.dataset.at = seat;
    const now = doing(seat);
    const who = seatEl.querySelector(".who");
    who.textContent = `${names[seat]} (${v.hand_sizes[seat]})${now ? ` · ${now}` : ""}`;
    const badge = mark(seat);
    if (badge) who.append(badge);
    seatEl.classList.toggle("turn", v.turn === seat && v.winner === null);
    const slot = seatEl.querySelector(".slot");
    slot.replaceChildren();
    const played = shown.find((p) => p.seat === seat);
    if (played) {
      const c = cardEl(played.card);
      if (!v.trick.length && v.last_trick && v.last_trick.winner === seat) c.classList.add("hl");
      slot.append(c);
    }
    let hand = seatEl.querySelector(".open");
    if (!hands) { hand?.remove(); continue; }
    const row = cardsRow(hands[seat], { small: true });
    row.classList.add("open");
    if (hand) hand.replaceWith(row);
    else slot.before(row);
  }
}

/** The middle of the table: the contract, the trumps, and each team's tricks and card
 * points so far; at each seat what it said this deal (its bid or pass while bidding, its
 * announcements in play) and the dealer. ``deal``: this deal's events. */
export function drawToutiCenter(v, names, team, deal) {
  const center = document.getElementById("t-center");
  const teams = [0, 1].map((t) => {
    const tricks = v.tricks?.[t] ?? 0;
    // One trick takes the singular ("1 trick", "1 levée").
    return el("div", { class: "team", "data-team": t, text: tt(tricks === 1 ? "table_team_one" : "table_team", {
      team: team(t), tricks, points: v.card_points?.[t] ?? 0,
    }) });
  });
  const contract = v.trump
    ? [el("div", { class: `trump suit-${v.trump}`, title: suit(v.trump), text: suitMark(v.trump) }),
      el("div", { class: "contract", text: tt("table_contract", { name: isolate(names[v.declarer]), bid: v.bid }) })]
    : v.bid ? [el("div", { class: "contract", text: tt("table_contract", { name: isolate(names[v.high_bidder]), bid: v.bid }) })]
    : [];
  center.replaceChildren(...contract, ...(v.phase === "play" || v.trump ? teams : []));
  for (const seatEl of document.querySelectorAll(".touti-seat")) {
    const seat = Number(seatEl.dataset.at);
    let said = seatEl.querySelector(".said");
    if (!said) {
      said = el("div", { class: "said" });
      seatEl.querySelector(".who").after(said);
    }
    const words = [];
    if (v.dealer === seat) words.push(tt("dealer"));
    const spoken = deal.filter((e) => e.seat === seat && (e.kind === "bid" || CALLS.has(e.kind))).pop();
    if (spoken && !v.trump) words.push(spoken.kind === "bid" ? String(spoken.amount) : spoken.kind === "pass" ? tt("pass") : spoken.kind);
    for (const a of v.announcements ?? []) {
      if (a.seat === seat) words.push(tt("said_canto", { suit: suitMark(a.suit), points: a.suit === v.trump ? 40 : 20 }));
    }
    said.textContent = words.join(" · ");
  }
}

/** The events of the deal in progress: those after the last deal's result. */
export function thisDeal(log) {
  const ends = log.map((e, i) => (e.kind === "result" || e.kind === "no_contract" ? i : -1));
  return log.slice(Math.max(...ends) + 1);
}

/** One event of the game's story, in the page's language (the server's words are English). */
export function story(e, names, team, you = 0) {
  const who = (seat) => isolate(names[seat]);
  // The person's own moves read in the second person: "You bid 90".
  const move = (key, vars = {}) => tt(e.seat === you ? `log_${key}_you` : `log_${key}`, { name: who(e.seat), ...vars });
  if (e.kind === "bid") return move("bid", { amount: e.amount });
  if (e.kind === "trump") return move("trump", { suit: suit(e.suit) });
  if (e.kind === "play") return move("play", { card: pretty(e.card) });
  if (e.kind === "canto") return move("canto", { suit: suit(e.suit) });
  if (CALLS.has(e.kind)) return move(e.kind);
  if (e.kind === "trick") {
    const cards = e.cards.map((c) => tt("log_trick_card", { card: pretty(c.card), name: who(c.seat) })).join(listSep());
    return tt("log_trick", { n: e.number, cards, name: who(e.winner) });
  }
  if (e.kind === "no_contract") return tt("log_no_contract");
  if (e.kind === "contract") {
    return e.trump
      ? tt("log_contract", { name: who(e.declarer), bid: e.bid, suit: suit(e.trump) })
      : tt("log_contract_no_trump", { name: who(e.declarer), bid: e.bid });
  }
  if (e.kind === "team") {
    return tt("log_team", { team: isolate(team(e.team)), points: e.card_points })
      + (e.last_trick ? tt("log_last_trick") : "")
      + (e.cantos ? tt("log_cantos", { n: e.cantos }) : "");
  }
  if (e.kind === "result") {
    return tt(e.made ? "log_made" : "log_failed", {
      total: e.total, bid: e.bid,
      a: isolate(team(0)), pa: signed(e.points[0]), b: isolate(team(1)), pb: signed(e.points[1]),
    });
  }
  return e.text;
}
