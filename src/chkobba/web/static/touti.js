// Touti against the computer, on the hub's WebSocket like every game (docs/protocol.md):
// the game is created by POST /api/games, then followed with hello; each move is a play
// message, answered by the seat's state. The seat token travels in the hello, never in a URL.
import { api, cardEl, el, pretty, seatState, settingsWords } from "./common.js";
import { mountDeckPicker, onDeckChange, setGameDeck } from "./cards.js";
import { hasLast, pacer, replayLast, snapshot, toutiMove } from "./motion.js";
import { mountSoundToggle } from "./sound.js";
import { heartbeat } from "./heartbeat.js";
import { levelName, mountLangPicker, onLangChange, t, word } from "./i18n.js";
import { endingLine } from "./ending.js";
import { toutiSheet } from "./scoresheet.js";
import { applyToutiWords, tt } from "./touti-i18n.js";
import { ct } from "./coach-i18n.js";
import { aw } from "./account-i18n.js";
import { hintView } from "./coach-view.js";
import { chatReceive, chatRoom, initChat, isChat } from "./chat.js";
import { drawToutiCenter, drawToutiSeats, fillToutiTable, story, suit, thisDeal } from "./touti-table.js";

const DEFAULT_NAMES = new Set(["You", "Vous", "Tu", "Tú", "أنت"]);
let last = null; // the view shown, drawn again when the language changes
const $ = (id) => document.getElementById(id);
const gameId = location.pathname.split("/")[2] || "";
const tokenKey = (g) => `touti.token.${g}`;

/** The computer levels of the form in words, in the page's language ("Strong (search)"). */
function levelWords() {
  for (const opt of document.querySelectorAll("#t-opponent option, #t-partner option")) {
    opt.textContent = levelName(opt.value);
  }
}

function start() {
  $("start").hidden = false;
  levelWords();
  if (DEFAULT_NAMES.has($("t-name").value)) $("t-name").value = tt("default_name");
  document.body.dataset.ready = "1";
  $("t-go").onclick = async () => {
    $("t-error").textContent = "";
    try {
      const opponent = $("t-opponent").value;
      const r = await api("/api/games", {
        game: "touti",
        mode: "room",
        name: $("t-name").value.trim() || tt("default_name"),
        computers: [null, opponent, $("t-partner").value, opponent],
        target: Number($("t-target").value),
      });
      localStorage.setItem(tokenKey(r.game), r.token);
      location.href = r.url;
    } catch (e) {
      $("t-error").textContent = e.message;
    }
  };
}

function render(v) {
  last = v;
  $("game").hidden = false;
  // State for tests and assistive tools: whose turn, how far, whether over.
  document.body.dataset.ready = "1";
  // A lone no-announcement is played by the server itself: no choice to offer.
  const automatic = v.legal.length === 1 && v.legal[0] === "nocanto";
  const me = Math.max(v.you ?? 0, 0);
  // Resigned or abandoned, a match is over without being played out.
  const over = v.winner !== null || Boolean(v.ending);
  document.body.dataset.myTurn = connected && v.turn === v.you && !over && !automatic ? "1" : "0";
  document.body.dataset.over = over ? "1" : "0";
  document.body.dataset.ply = String(v.ply);
  // The computers' seats are named by where they sit, in the page's language.
  const names = seatNames(v, me);
  const team = (t) => tt("team", { a: names[t], b: names[t + 2] });
  $("t-score").textContent = tt("score", {
    a: team(0), ta: v.totals[0], b: team(1), tb: v.totals[1], target: v.target, deal: v.deal,
  });
  $("t-contract").textContent = v.trump
    ? tt("contract", {
      name: names[v.declarer], bid: v.bid, suit: suit(v.trump), t0: v.tricks[0], t1: v.tricks[1],
    })
    : v.bid ? tt("bidding_bid", { name: names[v.high_bidder], bid: v.bid })
    : tt("bidding_deals", { name: names[v.dealer] });
  // The places are the person's: itself at the bottom, then right, partner, left.
  drawToutiSeats(v, names, { me, doing: (seat) => seatState(room, seat), mark: memberMark });
  // Cut off from the server, nothing is playable until it answers again.
  const mine = connected && v.turn === v.you && !over && !automatic;
  const legal = new Set(mine ? v.legal : []);
  $("t-hand").replaceChildren(...v.hand.map((code) => {
    const c = cardEl(code, { button: legal.has(code) });
    if (legal.has(code)) {
      c.classList.add("playable");
      c.onclick = () => send(code);
    }
    return c;
  }));
  const actions = mine ? v.legal.filter((m) => !/^[A-Z2-7][shdc]$/.test(m)) : [];
  // The coach weighs a card to play among two or more (docs/coach.md): the hint is offered then.
  const choices = v.legal.length - actions.length;
  $("t-hint").hidden = !(mine && v.phase === "play" && choices > 1);
  if (hinted !== v.ply) $("t-hint-out").replaceChildren();
  $("t-actions").replaceChildren(...actions.map((m) => {
    const b = el("button", { text: label(m) });
    b.onclick = () => send(m);
    return b;
  }));
  // Resigned, out of time or abandoned: how, then who won (ending.js).
  $("t-prompt").textContent = v.ending ? endingLine(v, team, word)
    : v.winner !== null
    ? tt("win", { team: team(v.winner) })
    : !mine ? tt("computers")
    : v.phase === "bid" ? tt("your_bid")
    : v.phase === "trump" ? tt("name_trumps")
    : v.phase === "canto" ? tt("announce_q")
    : tt("your_card");
  $("t-log").replaceChildren(...v.log.map((e) => el("li", { text: story(e, names, team, v.you), "data-kind": e.kind })));
  $("t-log").scrollTop = $("t-log").scrollHeight;
  $("t-end").hidden = !over;
  $("t-replay").href = `/replay/${gameId}`;
  $("t-resign").hidden = over || v.you < 0 || !$("t-resign-ask").hidden;
  if (over) $("t-resign-ask").hidden = true;
  drawToutiCenter(v, names, team, thisDeal(v.log));
  renderDealEnd(v, names, team, over);
  renderWaiting(v);
  renderSheet(v, team);
  if (room?.settings) $("t-settings").textContent = settingsWords(room);
}

let dismissed = null; // the deal result the person closed

/** The last deal's result, shown from its end through the next deal's bidding (and at the
 * match's end): each team's card points and announcements, then the contract's fate. */
function renderDealEnd(v, names, team, over) {
  const box = $("t-deal-end");
  const ends = v.log.map((e, i) => (e.kind === "result" ? i : -1)).filter((i) => i >= 0);
  const at = ends.at(-1);
  const key = at === undefined ? null : `${ends.length}:${JSON.stringify(v.log[at])}`;
  box.hidden = key === null || key === dismissed || !(over || v.phase === "bid");
  box.dataset.key = key ?? "";
  if (box.hidden) return;
  const from = ends.length > 1 ? ends.at(-2) + 1 : 0;
  const lines = v.log.slice(from, at + 1).filter((e) => e.kind === "team" || e.kind === "result");
  $("t-deal-title").textContent = tt("deal_over", { n: ends.length });
  $("t-deal-lines").replaceChildren(...lines.map((e) => el("li", { text: story(e, names, team, v.you) })));
}

/** A signed-in player's mark beside their name, as on the other games' page: the name
 * is their account's, not one a guest typed (docs/web.md, "Accounts"). */
function memberMark(seat) {
  return room?.players?.[seat]?.account
    ? el("span", { class: "member", title: aw("account_name"), text: " ✓" })
    : null;
}

/** The score sheet (scoresheet.js): its button once a game is on, drawn again while open. */
function renderSheet(v, team) {
  $("t-sheet-btn").hidden = false;
  $("t-sheet-btn").textContent = t("sheet_button");
  $("t-sheet-title").textContent = t("sheet_title");
  $("t-sheet-close").textContent = t("close");
  if ($("t-sheet").open) $("t-sheet-body").replaceChildren(toutiSheet(v.rounds ?? [], team));
  document.body.dataset.sheetRounds = String((v.rounds ?? []).length);
}

function toggleSheet() {
  const sheet = $("t-sheet");
  if (sheet.open) sheet.close();
  else if (last) {
    sheet.showModal();
    render(last);
  }
}

/** Each seat's name: a person's own, a computer's by where it sits from the person. */
function seatNames(v, me) {
  return v.names.map((n, seat) => {
    const pos = (seat - me + 4) % 4;
    const computer = room ? Boolean(room.players?.[seat]?.computer) : seat !== 0;
    return computer && pos ? tt(`seat_${pos}`) : n;
  });
}

/** A room waiting for players: the link to share, a seat to take, or the computer to call. */
function renderWaiting(v) {
  const open = v.status === "open";
  $("t-wait").hidden = !open;
  if (!open) return;
  $("t-wait-words").textContent = tt("waiting", { code: gameId });
  $("t-share").value = `${location.origin}/touti/${gameId}`;
  const free = room?.players?.some((p) => !p.taken) ?? true;
  $("t-join").hidden = !(v.you < 0 && free);
  $("t-fill").hidden = !(v.you === 0 && free);
}

async function takeSeat() {
  $("g-error").textContent = "";
  try {
    const r = await api(`/api/games/${gameId}/join`, { name: tt("default_name") });
    localStorage.setItem(tokenKey(gameId), r.token);
    ws.send(JSON.stringify({ type: "hello", game: gameId, token: r.token }));
  } catch (e) {
    $("g-error").textContent = e.message;
  }
}

async function downloadRecord(ev) {
  // The record shows every deck: the server gives it once the match is over.
  ev.preventDefault();
  $("g-error").textContent = "";
  try {
    const r = await fetch(`/api/games/${gameId}/record`);
    if (!r.ok) throw new Error((await r.json().catch(() => ({}))).message || `${r.status}`);
    const url = URL.createObjectURL(await r.blob());
    const a = el("a", { href: url, download: `touti-${gameId}.json` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (e) {
    $("g-error").textContent = e.message;
  }
}

function label(m) {
  if (m.startsWith("trump:")) return tt("trumps", { suit: suit(m[6]) });
  if (m.startsWith("canto:")) return tt("announce", { suit: suit(m[6]) });
  if (m === "nocanto") return tt("nocanto");
  if (m === "pass") return tt("pass");
  return m;
}

let hinted = null; // the ply whose hint is shown

/** The search player's best cards for the seat to move, each with its worth ± its error. */
async function showHint() {
  const out = $("t-hint-out");
  hinted = ply;
  out.replaceChildren(el("p", { text: ct("thinking") }));
  try {
    const h = await api(`/api/games/${gameId}/hint`, { token: token() });
    out.replaceChildren(...hintView(h, (behind, n) => tt("top_cards", { behind, n })));
  } catch (e) {
    out.replaceChildren(el("p", { class: "error", text: e.message }));
  }
}

function token() {
  return localStorage.getItem(tokenKey(gameId)) || "";
}

let ws = null;
let beat = null;
let ply = 0;
let room = null; // the room's summary (welcome, room): who is a person, who a computer
let connected = false; // welcomed by the server, and not cut off since
// The last view this tab was shown (only what its seat may see), kept in the tab: a reload
// while the server cannot be reached draws it again, not playable, until the server answers.
const KEPT = `touti.view.${gameId}`;

function keep(msg) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(KEPT) || "{}");
    kept[msg.type === "state" ? "state" : "room"] = msg;
    sessionStorage.setItem(KEPT, JSON.stringify(kept));
  } catch {
    // A full or refused storage: a reload then waits for the server, as before.
  }
}

function drawKept() {
  let kept = null;
  try { kept = JSON.parse(sessionStorage.getItem(KEPT) || "null"); } catch { kept = null; }
  if (!kept?.state) return;
  room = kept.room ?? null;
  ply = kept.state.ply;
  render(kept.state);
  document.body.dataset.kept = "1";
}
// The server's messages are shown one after the other, each move animated and paced.
const queue = pacer();

function send(move) {
  $("g-error").textContent = "";
  $("t-actions").replaceChildren();
  $("t-prompt").textContent = `${/^[A-Z2-7][shdc]$/.test(move) ? pretty(move) : label(move)}…`;
  ws.send(JSON.stringify({ type: "play", move, ply }));
}

function load() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  // The game's code in the URL lets a balancer send every client of a game to one server.
  const socket = new WebSocket(`${proto}//${location.host}/ws?game=${encodeURIComponent(gameId)}`);
  ws = socket;
  socket.onopen = () => {
    // No pong in time: the server is gone without closing; leave it for one that answers.
    beat = heartbeat(socket, () => {
      socket.onclose = null;
      socket.onmessage = null;
      try {
        socket.close();
      } catch {
        // Closing a socket already closing: nothing to do.
      }
      lost(socket);
    });
    const hello = { type: "hello", game: gameId };
    if (token()) hello.token = token();
    socket.send(JSON.stringify(hello));
  };
  socket.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (beat && beat.seen(msg)) return;
    if (isChat(msg)) {
      chatReceive(msg);
      return;
    }
    if (msg.type === "welcome") chatSeat = msg.seat;
    if (msg.type === "welcome" || msg.type === "room") chatRoom(msg, chatSeat);
    if (msg.type === "rematch") {
      // The rematch: same seats, a new shuffle; this seat's token for it, then off to it.
      if (msg.token) localStorage.setItem(tokenKey(msg.game), msg.token);
      location.href = msg.url;
    } else if (msg.type === "welcome" || msg.type === "room") {
      keep(msg);
      // Who is a person, who a computer: in turn with the moves being shown.
      queue(() => {
        room = msg;
        if (msg.type === "welcome") connected = true;
        if (last) render(last);
      });
    } else {
      if (msg.type === "state") keep(msg);
      queue(() => show(msg));
    }
  };
  socket.onclose = () => lost(socket);
}

let chatSeat = -1;

function lost(socket) {
  if (socket !== ws) return;
  if (beat) beat.stop();
  beat = null;
  connected = false;
  // Reloaded while the server cannot be reached: the view this tab last saw, meanwhile.
  if (!last) drawKept();
  else render(last);
  // Reconnect: the server keeps the game; hello brings the view back.
  if (!last || (last.winner === null && !last.ending)) setTimeout(load, 1000);
}

/** Show one message of the server's: a state (its move animated), or an error. */
function show(msg) {
  if (msg.type === "state") {
    const prev = last;
    const snap = snapshot([$("t-hand"), document.querySelector(".touti-table")]);
    ply = msg.ply;
    render(msg);
    if (!prev || prev.ply === msg.ply) return undefined;
    const shown = toutiMove({ prev, view: msg, snap });
    $("t-last").hidden = !hasLast();
    return shown;
  }
  if (msg.type === "error") {
    $("game").hidden = false;
    $("g-error").textContent = msg.message;
    if (last) render(last);
  }
  return undefined;
}

function toggleHelp() {
  const help = $("keys-help");
  if (help.open) help.close();
  else help.showModal();
}

/** The shortcuts (the help under ``?``): 1…9 and 0 play the card at that place in the
 * hand (0: the tenth), or, while no card is to be played (the bidding, trumps, an
 * announcement), press the choice at that place. */
function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
  const target = e.target;
  if (target instanceof HTMLElement && target.closest("input, select, textarea")) return;
  if (e.key === "?") {
    e.preventDefault();
    toggleHelp();
    return;
  }
  if ($("keys-help").open || $("game").hidden || !/^[0-9]$/.test(e.key)) return;
  const n = e.key === "0" ? 9 : Number(e.key) - 1;
  const cards = [...$("t-hand").querySelectorAll(".card")];
  const node = cards.some((c) => c.classList.contains("playable"))
    ? cards[n]
    : $("t-actions").querySelectorAll("button")[n];
  if (!node) return;
  e.preventDefault();
  // A card that may not be played now (the suit must be followed) does nothing.
  if (node.tagName === "BUTTON") {
    node.focus();
    node.click();
  }
}

fillToutiTable(document.querySelector(".touti-table"));
mountLangPicker($("lang"));
// Touti is played with the Spanish deck (docs/rules.md §4); the player may choose another.
setGameDeck("spanish");
mountDeckPicker(document.querySelector("header.top"));
mountSoundToggle(document.querySelector("header.top"));
$("t-last").addEventListener("click", () => queue(replayLast));
if (gameId) {
  initChat({
    send: (m) => { if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(m)); },
    game: gameId.toUpperCase(),
  });
}
$("t-deal-close").addEventListener("click", () => {
  dismissed = $("t-deal-end").dataset.key;
  $("t-deal-end").hidden = true;
});
$("t-record").addEventListener("click", downloadRecord);
$("t-join").addEventListener("click", takeSeat);
$("t-fill").addEventListener("click", () => ws.send(JSON.stringify({ type: "fill", level: "search" })));
$("t-resign").addEventListener("click", () => {
  $("t-resign-ask").hidden = false;
  $("t-resign").hidden = true;
});
$("t-resign-yes").addEventListener("click", () => {
  $("t-resign-ask").hidden = true;
  ws.send(JSON.stringify({ type: "resign" }));
});
$("t-hint").addEventListener("click", showHint);
$("keys-btn").addEventListener("click", toggleHelp);
document.addEventListener("keydown", onKey);
$("t-sheet-btn").addEventListener("click", toggleSheet);
document.addEventListener("keydown", (e) => {
  // S opens or closes the score sheet, as on the other games' page.
  if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing || e.key.toLowerCase() !== "s") return;
  if (e.target instanceof HTMLElement && e.target.closest("input, select, textarea")) return;
  if (!gameId || !last) return;
  e.preventDefault();
  toggleSheet();
});
$("t-rematch").addEventListener("click", () => ws.send(JSON.stringify({ type: "rematch" })));
applyToutiWords();
onDeckChange(() => { if (last) render(last); });
onLangChange(() => {
  applyToutiWords();
  levelWords();
  if (DEFAULT_NAMES.has($("t-name").value)) $("t-name").value = tt("default_name");
  if (last) render(last);
});
if (gameId) load();
else start();
