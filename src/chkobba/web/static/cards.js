// The cards' pictures: the project's own SVG decks, served by /cards/{deck}/{card}.svg
// (chkobba.web.deck), and the deck chooser of every page's header. The deck a game shows
// by default is its rules' (the summary's `deck`); a player's other choice is remembered in
// this browser, per default deck, so that choosing French cards for Scopa does not change
// what Touti or Chkobba show.
import { t, onLangChange } from "./i18n.js";

export const DECKS = ["french", "italian", "spanish"];

let gameDeck = "french";
const listeners = [];

const key = () => `chkobba.deck.${gameDeck}`;

/** The deck the page draws: the player's choice for this kind of game, or the game's own. */
export function currentDeck() {
  const chosen = localStorage.getItem(key());
  return DECKS.includes(chosen) ? chosen : gameDeck;
}

/** The game's own deck (the summary's `deck`): drawn unless the player chose another. */
export function setGameDeck(deck) {
  if (!DECKS.includes(deck) || deck === gameDeck) return;
  const before = currentDeck();
  gameDeck = deck;
  if (currentDeck() !== before) redraw();
}

/** The player's choice of deck, remembered. */
export function chooseDeck(deck) {
  if (!DECKS.includes(deck)) return;
  localStorage.setItem(key(), deck);
  redraw();
}

export function onDeckChange(fn) {
  listeners.push(fn);
}

/** The address of a card's picture (``null``: the back) in the deck drawn. */
export function cardSrc(code, deck = currentDeck()) {
  return `/cards/${deck}/${code || "back"}.svg`;
}

/** The picture inside a card element; the element itself carries the card's name. */
export function cardImage(code) {
  const img = document.createElement("img");
  img.className = "face";
  img.src = cardSrc(code);
  img.alt = "";
  img.draggable = false;
  img.decoding = "async";
  if (code) img.dataset.code = code;
  return img;
}

function redraw() {
  const deck = currentDeck();
  document.body.dataset.deck = deck;
  for (const img of document.querySelectorAll("img.face")) img.src = cardSrc(img.dataset.code, deck);
  for (const picker of document.querySelectorAll("select.deck-picker")) picker.value = deck;
  for (const fn of listeners) fn(deck);
}

/** A deck chooser in ``header``, before its language picker. */
export function mountDeckPicker(header) {
  if (!header || header.querySelector(".deck-picker")) return;
  const select = document.createElement("select");
  select.id = "deck";
  select.className = "deck-picker";
  const label = () => {
    select.setAttribute("aria-label", t("deck"));
    select.title = t("deck");
    for (const opt of select.options) opt.textContent = t(`deck_${opt.value}`);
  };
  for (const deck of DECKS) {
    const opt = document.createElement("option");
    opt.value = deck;
    select.append(opt);
  }
  label();
  select.value = currentDeck();
  document.body.dataset.deck = currentDeck();
  select.addEventListener("change", () => chooseDeck(select.value));
  onLangChange(label);
  beforeLang(header, select);
}

/** Put ``control`` in ``header`` just before the language picker (or at its end). */
export function beforeLang(header, control) {
  const lang = header.querySelector("#lang");
  if (lang) lang.before(control);
  else header.append(control);
}
