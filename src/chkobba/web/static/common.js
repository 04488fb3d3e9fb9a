// Shared by the pages: cards, moves in words, names, seat tokens, the header.
import { t, bidiSafe, mountLangPicker, levelName, word } from "./i18n.js";
import { cardImage, mountDeckPicker } from "./cards.js";
import { backName, cardName, cardShort, cardsShort, coinsSign } from "./cardnames.js";
import { mountSoundToggle } from "./sound.js";

/** A card (``null``: its back) as the picture of the deck chosen (cards.js), named for
 * assistive tools in full, in the deck's words ("sette di denari"). */
export function cardEl(code, opts = {}) {
  const el = document.createElement(opts.button ? "button" : "span");
  el.className = "card";
  if (opts.small) el.classList.add("small");
  if (!opts.button) el.setAttribute("role", "img");
  el.append(cardImage(code));
  if (!code) {
    el.classList.add("back");
    el.setAttribute("aria-label", backName());
    return el;
  }
  const suit = code[1];
  el.classList.add(suit === "h" || suit === "d" ? "red" : "black");
  el.dataset.card = code;
  el.setAttribute("aria-label", cardName(code));
  return el;
}

/** A card as written in a line of text, in the deck drawn and the page's language
 * (cardnames.js): 7♦ on French cards, "7 di denari" on Italian ones. */
export function pretty(code) {
  return cardShort(code);
}

export function cardsRow(codes, opts = {}) {
  const row = document.createElement("div");
  row.className = "cards";
  for (const c of codes) row.append(cardEl(c, opts));
  return row;
}

/** A seat's display name: the player's, or the computer's level. */
/** A room's settings in words (private or public, grace, clock, coach), for its game screen. */
export function settingsWords(room) {
  const s = room.settings;
  const words = [t(s.unlisted ? "private_room" : "public_room")];
  // A rated game's away player is never replaced: the clock runs on (docs/ratings.md).
  if (s.rated) words.push(word("ratings", "rated_game"));
  else words.push(t("grace_is", { n: s.grace }));
  if (s.clock) words.push(t("clock_is", { n: s.clock }));
  if (room.kind === "room") words.push(t(room.coaching ? "coach_on" : "coach_off"));
  // How partners may chat until the end (docs/play.md, "Chat and moderation").
  if (room.teams) words.push(word("chat", s.team_talk === "free" ? "team_talk_free" : "team_talk_phrases"));
  return words.join(" · ");
}

/** What a seat's holder is doing, when the room marks it: away, or replaced by the computer. */
export function seatState(room, seat) {
  const p = room?.players?.[seat];
  if (p?.stand_in) return t("stand_in");
  return p?.away && room.status === "playing" ? t("away") : null;
}

export function seatName(players, seat) {
  const p = players?.[seat];
  if (!p) return `#${seat + 1}`;
  // A name in the other direction's script is isolated, so it reads right in any line.
  if (p.name) return bidiSafe(p.name);
  // Numbered, so that several computer seats (partner and opponents) can be told apart;
  // a name, so capitalised ("Computer 2 wins"), like the names people give themselves.
  if (p.computer) return `${t("computer")} ${seat + 1} (${levelName(p.computer)})`;
  return t("free_seat");
}

/** A side's name: its player, or the two partners. */
export function sideName(players, sideOf, side) {
  const members = sideOf.map((s, seat) => [s, seat]).filter(([s]) => s === side).map(([, seat]) => seat);
  if (members.length === 2) return t("team_of", { a: seatName(players, members[0]), b: seatName(players, members[1]) });
  return seatName(players, members[0]);
}

/** What is shouted at a sweep of the table under the preset whose points are
 * ``points`` (the summary's): Chkobba's word in the page's language, or the game's own. */
export function sweepShout(points) {
  const word = points?.find((p) => p.word)?.word;
  if (!word || word === "chkobba") return t("chkobba_shout");
  return `${word[0].toUpperCase()}${word.slice(1)}!`;
}

/** One entry of a round's history, in words (``points``: the preset's, for the sweep). */
export function describeMove(turn, players, points) {
  const name = seatName(players, turn.seat);
  const move = turn.move;
  if (move === "keep") return t("move_keep", { name });
  if (move === "table") return t("move_table", { name });
  const [card, taken] = move.split(":");
  let text = taken
    ? t("move_capture", { name, card: pretty(card), taken: cardsShort(taken.split("+")) })
    : t("move_lay", { name, card: pretty(card) });
  if (turn.chkobba) text += ` — ${sweepShout(points)}`;
  return text;
}

/** The end-of-round breakdown as a table: each point with its Arabic names. */
const CHKOBBA_POINTS = ["karta", "dinari", "barmila", "haya", "chkobba"];

// The rows of another preset's breakdown, from the points the room's summary lists
// (key, name, native name): a side (or nobody) for a point, the counts for a per-side one.
function presetRows(score, pointList, who, players, sideOf) {
  return pointList.map((p) => {
    const v = score[p.key];
    const winner = Array.isArray(v)
      ? v.map((n, s) => `${sideName(players, sideOf, s)} ${n}`).join(", ")
      : who(v);
    return [p.key, winner, pointDetail(score, p.rule), { name: p.name, arabic: p.native || "" }];
  });
}

// The counts behind a point, by the point rule it follows (the summary's ``rule``).
function pointDetail(score, rule) {
  const counts = (arr) => (arr ?? []).join(` ${t("vs")} `);
  if (rule === "cards") return `${counts(score.cards)} ${t("cards")}`;
  if (rule === "coins") return `${counts(score.diamonds)} ${coinsSign()}`;
  if (rule === "sevens") return `7: ${counts(score.sevens)} · 6: ${counts(score.sixes)}`;
  if (rule === "seven_of_coins") return pretty("7d");
  if (rule === "king_of_coins") return pretty("Kd");
  return "";
}

export function breakdownTable(end, players, sideOf, points, pointList) {
  const score = end.score;
  const sides = score.points.length;
  const table = document.createElement("table");
  table.className = "breakdown";
  const counts = (arr) => arr.join(` ${t("vs")} `);
  const chkobba = !pointList || pointList.map((p) => p.key).join() === CHKOBBA_POINTS.join();
  // A point nobody wins is bājī in Chkobba's words only; the other games just say nobody.
  const nobody = t(chkobba ? "nobody" : "nobody_plain");
  const who = (side) => (side === null || side === undefined ? nobody : sideName(players, sideOf, side));
  const rows = chkobba ? [
    ["karta", who(score.karta), `${counts(score.cards)} ${t("cards")}`],
    ["dinari", who(score.dinari), `${counts(score.diamonds)} ${coinsSign()}`],
    ["barmila", who(score.barmila), `7: ${counts(score.sevens)} · 6: ${counts(score.sixes)}`],
    ["haya", who(score.haya), pretty("7d")],
    [
      "chkobba",
      [...Array(sides).keys()].map((s) => `${sideName(players, sideOf, s)} ${score.chkobba[s]}`).join(", "),
      "",
    ],
  ] : presetRows(score, pointList, who, players, sideOf);
  for (const [key, winner, detail, named] of rows) {
    const tr = document.createElement("tr");
    tr.dataset.point = key;
    const name = document.createElement("th");
    const p = named ?? points?.[key] ?? { name: key, arabic: "" };
    name.innerHTML = "";
    const tl = document.createElement("span");
    tl.className = "translit";
    tl.textContent = p.name;
    const ar = document.createElement("span");
    ar.className = "arabic";
    ar.textContent = p.arabic;
    const what = document.createElement("div");
    what.style.fontWeight = "400";
    what.style.fontSize = "0.85rem";
    what.textContent = named ? "" : t(`point_${key}`);
    // A point without a name in another script (Scopa's, Escoba's) has no " · ".
    name.append(tl, ...(p.arabic ? [" · ", ar] : []), what);
    const w = document.createElement("td");
    w.textContent = winner;
    const d = document.createElement("td");
    d.textContent = detail;
    tr.append(name, w, d);
    table.append(tr);
  }
  const total = document.createElement("tr");
  const th = document.createElement("th");
  th.textContent = t("round_points");
  const td = document.createElement("td");
  td.colSpan = 2;
  td.textContent = [...Array(sides).keys()].map((s) => `${sideName(players, sideOf, s)} ${score.points[s]}`).join(", ");
  total.append(th, td);
  table.append(total);
  return table;
}

export function endNotes(end, players, sideOf) {
  const out = [];
  if (end.swept?.length && end.taker !== null && end.taker !== undefined) {
    // Two partners take it: the verb in the plural ("Computer 2 & Computer 4 take").
    const pair = sideOf.filter((s) => s === end.taker).length > 1;
    out.push(t(pair ? "takes_rest_team" : "takes_rest", { name: sideName(players, sideOf, end.taker), cards: cardsShort(end.swept) }));
  }
  if (end.leftover?.length) out.push(t("set_aside", { cards: cardsShort(end.leftover) }));
  return out;
}

// -- seat tokens: kept in this browser only --------------------------------------

export function savedToken(game) {
  return localStorage.getItem(`chkobba.token.${game}`);
}

export function saveToken(game, token) {
  localStorage.setItem(`chkobba.token.${game}`, token);
}

/** A JSON API call: a GET, or a POST of ``body``; a seat ``token`` goes in the
 * Authorization header, never in the URL (access logs keep URLs). */
export async function api(path, body, token) {
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const opts = body === undefined ? { headers } : { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(path, opts);
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw apiError(r, data);
  return data;
}

/** The error of a refused API call: the server's message, its status and, for a 429,
 * the seconds it asks to wait (Retry-After). */
export function apiError(r, data) {
  const e = new Error(data.message || `${r.status}`);
  e.status = r.status;
  e.retryAfter = Number(r.headers.get("Retry-After")) || 0;
  return e;
}

export function setupHeader() {
  const picker = document.getElementById("lang");
  if (picker) mountLangPicker(picker);
  const header = document.querySelector("header.top");
  mountDeckPicker(header);
  mountSoundToggle(header);
}

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("data-")) e.setAttribute(k, v);
    else e[k] = v;
  }
  e.append(...children);
  return e;
}
