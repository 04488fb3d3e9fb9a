// Every card's name for people, in the words and signs of the deck drawn (cards.js) and
// the page's language: the pages' one place for it (the server's and the terminal's is
// chkobba/words/cards.py, from the same catalogues' `cards` section). The notation (7d,
// Jh) never changes; only what is read does. On the French deck a card is written as
// today, 7♦ or J♥; the Italian and Spanish decks are written in words, the number as a
// digit and the court cards by name ("7 di denari", "Cavallo di coppe", "Sota de oros").
// Every card is named all in words for screen readers ("sette di denari").
import { word } from "./i18n.js";
import { currentDeck } from "./cards.js";

const SUIT_SIGN = { s: "♠", h: "♥", d: "♦", c: "♣" };
const COURTS = "AQJK";
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** A rank in words: "sette", "cavallo", "queen". */
export function rankName(rank, deck = currentDeck()) {
  return word("cards", COURTS.includes(rank) ? `${deck}_${rank}` : `number_${rank}`);
}

/** A suit's name in the deck's words: "denari", "oros", "carreau". */
export function suitName(suit, deck = currentDeck()) {
  return word("cards", `${deck}_${suit}`);
}

/** A suit as a player reads it: its name, with its sign on French cards ("carreau ♦"). */
export function suitLabel(suit, deck = currentDeck()) {
  return deck === "french" ? `${suitName(suit, deck)} ${SUIT_SIGN[suit]}` : suitName(suit, deck);
}

/** A card's full name, all in words: "seven of coins", "sette di denari". */
export function cardName(code, deck = currentDeck()) {
  return word("cards", `${deck}_of_${code[1]}`, { rank: rankName(code[0], deck) });
}

/** A card as written in a line of text, isolated so it reads right in any direction. */
export function cardShort(code, deck = currentDeck()) {
  if (deck === "french") return `\u2066${code[0]}${SUIT_SIGN[code[1]]}\u2069`;
  const rank = COURTS.includes(code[0]) ? capital(rankName(code[0], deck)) : code[0];
  return `\u2068${word("cards", `${deck}_of_${code[1]}`, { rank })}\u2069`;
}

/** Several cards as written in a line: "7♦ 3♠"; "7 di denari, Re di spade". */
export function cardsShort(codes, deck = currentDeck()) {
  return codes.map((c) => cardShort(c, deck)).join(deck === "french" ? " " : word("cards", "list"));
}

/** How a count of coins is marked: ♦ on French cards, else the suit's name ("denari"). */
export function coinsSign(deck = currentDeck()) {
  return deck === "french" ? SUIT_SIGN.d : suitName("d", deck);
}

/** What a screen reader calls a card seen from the back. */
export function backName() {
  return word("cards", "back");
}

/** A suit in the fewest characters the deck allows: its sign on French cards ("♦"), else
 * its name ("oros"). */
export function suitMark(suit, deck = currentDeck()) {
  return deck === "french" ? SUIT_SIGN[suit] : suitName(suit, deck);
}

/** What separates the items of a list in the page's language (", ", "، "). */
export function listSep() {
  return word("cards", "list");
}

const WRITTEN = /[A2-7QJK][♠♥♦♣]/g;
const LETTER = { "♠": "s", "♥": "h", "♦": "d", "♣": "c" };

/** A sentence of the server's (the coach's, written with French card signs: "7♦") with
 * its cards in the deck drawn: unchanged on French cards, "7 di denari" on Italian ones. */
export function cardsInText(text, deck = currentDeck()) {
  if (deck === "french" || !text) return text;
  return text.replace(WRITTEN, (m) => cardShort(`${m[0]}${LETTER[m[1]]}`, deck));
}

/** A play in the notation (7d:3s+4h, 5s, keep, table) as people read it: the card, and
 * after an arrow the cards it takes. */
export function moveShort(move, deck = currentDeck()) {
  const [card, taken] = move.split(":");
  if (!/^[A2-7QJK][shdc]$/.test(card)) return move;
  return taken ? `${cardShort(card, deck)} → ${cardsShort(taken.split("+"), deck)}` : cardShort(card, deck);
}
