// The table of the Chkobba family as people sit at it, drawn the same way on the game
// screen (game.js), the replay page (replay.js) and the analysis page (analyse.js): the
// seats around an oval, one of them at the bottom, the table's cards in the middle, the
// hands declared (Cirulla) face up at their seats, the wild 7♠'s value by the table.
import { cardsRow, el } from "./common.js";
import { cardShort, cardsShort } from "./cardnames.js";
import { t } from "./i18n.js";

/** Where the seat ``k`` places after the one at the bottom sits around an oval table of
 * ``n``: play goes counter-clockwise, so the next seat is on the right and, 2 against 2,
 * the partner opposite. Percentages of the ring's inner box. */
export function seatPlace(k, n) {
  const angle = Math.PI / 2 - (2 * Math.PI * k) / n;
  return { x: 50 + 50 * Math.cos(angle), y: 50 + 50 * Math.sin(angle) };
}

/**
 * Put the seats around ``ring`` (its ``.seats`` box): ``box(s)`` draws seat ``s``, and the
 * seat ``bottom`` sits at the bottom. The top seat hangs from the ring's top edge and the
 * bottom one stands on its bottom edge, and the ring keeps the room they take (measured:
 * a long name or a declared hand makes a seat taller), so that no seat rises above the
 * table or covers its cards. A seat between, showing a declared hand (Cirulla), grows
 * toward free room (``data-grow``), the ring longer below (``--room-low``) if need be.
 */
export function placeSeats(ring, n, bottom, box) {
  ring.dataset.seats = n;
  let low = 0;
  const boxes = [...Array(n).keys()].map((k) => {
    const s = (bottom + k) % n;
    const b = box(s, k);
    const { x, y } = seatPlace(k, n);
    b.style.left = `${x}%`;
    b.style.top = `${y}%`;
    if (y < 1) b.dataset.anchor = "top";
    else if (y > 99) b.dataset.anchor = "bottom";
    else if (b.querySelector(".declared")) {
      if (y < 49) b.dataset.grow = "up";
      else if (y > 51) { b.dataset.grow = "down"; low = 1; }
    }
    return b;
  });
  ring.querySelector(".seats").replaceChildren(...boxes);
  ring.style.setProperty("--room-low", low);
  measure(ring);
}

/** The room the top and bottom seats take, as drawn now (one layout, no loop: their
 * heights do not depend on the ring's padding). */
function measure(ring) {
  const top = ring.querySelector('.seat[data-anchor="top"]');
  const foot = ring.querySelector('.seat[data-anchor="bottom"]');
  ring.style.setProperty("--need-top", `${top ? top.offsetHeight : 0}px`);
  ring.style.setProperty("--need-bottom", `${foot ? foot.offsetHeight : 0}px`);
}

// A phone turned, a window resized: the seats' heights change with their widths.
window.addEventListener("resize", () => {
  for (const ring of document.querySelectorAll(".ring")) measure(ring);
});

/** The hands ``s`` declared this round (Cirulla), face up as they were shown; the cards
 * played since (not in ``shown``, the declared cards still held) are dimmed. */
export function declaredBoxes(state, s) {
  const held = new Set(state.shown?.[s] ?? []);
  return (state.declarations ?? []).filter((d) => d.seat === s).map((d) => {
    const row = cardsRow(d.cards, { small: true });
    for (const c of row.children) c.classList.toggle("gone", !held.has(c.dataset.card));
    return el("div", { class: "declared", "data-declared": d.name, title: cardsShort(d.cards) },
      el("span", { class: "what", text: `${d.name} +${d.points}` }), row);
  });
}

/** The value the wild 7♠ keeps this round, once a declaration made it wild, by the
 * table's heading (``table``: the table's zone). */
export function drawWild(table, state) {
  const wild = (state.declarations ?? []).find((d) => d.wild)?.wild;
  let note = table.querySelector(".wild");
  if (!wild) { note?.remove(); return; }
  if (!note) {
    note = el("span", { id: "wild", class: "wild" });
    table.querySelector("h3").after(note);
  }
  // In the deck drawn: 7♠ on French cards, "7 di spade" on Italian ones.
  note.textContent = `${cardShort("7s")} = ${wild}`;
}

/** With three sides or more, each for themselves, the scores are at the seats. */
export function scoresBySeat(teams, state) {
  return !teams && state.totals.length > 2;
}

/** A seat's score, pile and sweeps, at the seat (:func:`scoresBySeat`). */
export function seatScore(state, side) {
  return el("div", { class: "seat-score", "data-side": side },
    el("b", { text: state.totals[side] }), ` / ${state.target} · ${t("pile")} ${state.piles[side]} `,
    el("span", { class: "marks", text: "★".repeat(state.chkobba[side] ?? 0) }));
}

/** The table's cards, in the table's zone. */
export function drawTableCards(table, cards) {
  table.querySelector(".cards").replaceWith(cardsRow(cards));
}
