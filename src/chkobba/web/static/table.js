// The table of the Chkobba family as people sit at it, drawn the same way on the game
// screen (game.js), the replay page (replay.js) and the analysis page (analyse.js): the
// seats around an oval, one of them at the bottom, the table's cards in the middle, the
// hands declared (Cirulla) face up at their seats, the wild 7♠'s value by the table.
import { cardsRow, el, pretty } from "./common.js";
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
 * seat ``bottom`` sits at the bottom. A seat that shows a declared hand is taller than
 * the others: it grows toward free room (``data-grow``), and the ring makes that room
 * (``--room-top``: the top seat's hand over the table's cards; ``--room-low``: below a
 * seat under the middle; ``--room-bottom``: the bottom seat's, over the table's cards), so
 * that the top seat stays on the table rather than rising above it.
 */
export function placeSeats(ring, n, bottom, box) {
  ring.dataset.seats = n;
  const room = { top: 0, low: 0, bottom: 0 };
  const boxes = [...Array(n).keys()].map((k) => {
    const s = (bottom + k) % n;
    const b = box(s, k);
    const { x, y } = seatPlace(k, n);
    b.style.left = `${x}%`;
    b.style.top = `${y}%`;
    if (b.querySelector(".declared")) {
      let grow = null;
      if (y < 1) { grow = "down"; room.top = 1; }
      else if (y < 49) grow = "up";
      else if (y > 99) { grow = "up"; room.bottom = 1; }
      else if (y > 51) { grow = "down"; room.low = 1; }
      if (grow) b.dataset.grow = grow;
    }
    return b;
  });
  ring.querySelector(".seats").replaceChildren(...boxes);
  for (const [k, v] of Object.entries(room)) ring.style.setProperty(`--room-${k}`, v);
}

/** The hands ``s`` declared this round (Cirulla), face up as they were shown; the cards
 * played since (not in ``shown``, the declared cards still held) are dimmed. */
export function declaredBoxes(state, s) {
  const held = new Set(state.shown?.[s] ?? []);
  return (state.declarations ?? []).filter((d) => d.seat === s).map((d) => {
    const row = cardsRow(d.cards, { small: true });
    for (const c of row.children) c.classList.toggle("gone", !held.has(c.dataset.card));
    return el("div", { class: "declared", "data-declared": d.name, title: d.cards.map(pretty).join(" ") },
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
  note.textContent = `7♠ = ${wild}`;
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
