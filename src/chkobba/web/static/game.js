// The game screen: one WebSocket to the server, which sends only what this seat may see.
import { t, bidiSafe, gameName, onLangChange, levelName, word } from "./i18n.js";
import {
  api, breakdownTable, cardEl, describeMove, el, endNotes, pretty,
  saveToken, savedToken, seatName, seatState, settingsWords, setupHeader, sideName,
} from "./common.js";
import { onDeckChange, setGameDeck } from "./cards.js";
import { heartbeat } from "./heartbeat.js";
import { aw } from "./account-i18n.js";
import { chatReceive, chatRoom, focusChat, initChat, isChat } from "./chat.js";
import { chkobbaMove, hasLast, pacer, replayLast, snapshot } from "./motion.js";
import { declaredBoxes, drawTableCards, drawWild, placeSeats, scoresBySeat, seatScore as scoreAtSeat } from "./table.js";
import { scoreSheet } from "./scoresheet.js";
import { endingLine } from "./ending.js";

const game = decodeURIComponent(location.pathname.split("/").pop()).toUpperCase();
let token = savedToken(game);
let ws = null;
let room = null;
let state = null;
let seat = -1;
let info = null;
let seenRounds = null;
let pendingCard = null;
let waitingReply = false;
let collecting = false; // a round's end is being shown: no move before its breakdown
let seq = 0;
let backoff = 500;
let beat = null;
let gone = false;
let connected = false;
// The keyboard is at the table (the hand, the capture choice, the cut): after each move it
// stays there, on the card of the same place, instead of falling back to the page.
let atTable = false;
let handIndex = 0;
// Messages are shown one after the other, each move animated and paced (motion.js).
const queue = pacer();

const $ = (id) => document.getElementById(id);

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  // The game's code in the URL lets a balancer send every client of a game to one server.
  const socket = new WebSocket(`${proto}//${location.host}/ws?game=${encodeURIComponent(game)}`);
  ws = socket;
  socket.onopen = () => {
    backoff = 500;
    $("conn").classList.add("hidden");
    // No pong in time: the server is gone without closing; leave it for one that answers.
    beat = heartbeat(socket, () => drop(socket));
    const hello = { type: "hello", game };
    if (token) hello.token = token;
    send(hello);
  };
  socket.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (beat && beat.seen(msg)) return;
    // The chat is not paced with the moves' animations: it shows at once.
    if (isChat(msg)) {
      chatReceive(msg);
      return;
    }
    keep(msg);
    queue(() => handle(msg));
  };
  socket.onclose = () => lost(socket);
}

// The last table this tab was shown (what its seat may see), kept in the tab: a reload
// while the server cannot be reached draws it again, cut off (not playable), until the
// server answers.
const KEPT = `chkobba.table.${game}`;
const KEPT_TYPES = ["welcome", "room", "state"];

function keep(msg) {
  if (!KEPT_TYPES.includes(msg.type)) return;
  try {
    const kept = JSON.parse(sessionStorage.getItem(KEPT) || "{}");
    kept[msg.type] = msg;
    sessionStorage.setItem(KEPT, JSON.stringify(kept));
  } catch {
    // A full or refused storage: a reload then waits for the server, as before.
  }
}

function drawKept() {
  let kept = null;
  try { kept = JSON.parse(sessionStorage.getItem(KEPT) || "null"); } catch { kept = null; }
  if (!kept?.welcome || !kept?.state) return;
  for (const type of KEPT_TYPES) if (kept[type]) handle(kept[type]);
  connected = false;
  render();
  document.body.dataset.kept = "1";
}

/** Give up on a connection that does not answer, and reconnect at once. */
function drop(socket) {
  socket.onclose = null;
  socket.onmessage = null;
  try {
    socket.close();
  } catch {
    // Closing a socket already closing: nothing to do.
  }
  backoff = 500;
  lost(socket);
}

function lost(socket) {
  if (socket !== ws) return;
  if (beat) beat.stop();
  beat = null;
  // Cut off, this page knows nobody's presence, its own included: every dot goes grey.
  connected = false;
  // Reloaded while the server cannot be reached: the table this tab last saw, meanwhile.
  if (!state) drawKept();
  render();
  if (gone) return;
  $("conn").classList.remove("hidden");
  waitingReply = false;
  setTimeout(connect, backoff);
  backoff = Math.min(backoff * 2, 5000);
}

function handle(msg) {
  let moved = null;
  let roundOver = false;
  switch (msg.type) {
    case "welcome":
      seat = msg.seat;
      room = msg;
      connected = true;
      setGameDeck(msg.deck);
      break;
    case "room":
      room = msg;
      setGameDeck(msg.deck);
      break;
    case "state":
      // The last finished round comes once, at the start of the next: keep it.
      if (!("previous" in msg)) msg.previous = state?.previous ?? null;
      // The first state is dealt onto the page; each later one animates the move it brings.
      if (!state || msg.ply !== state.ply) moved = { prev: state, snap: snapshot([$("table"), $("hand"), $("cut")]) };
      // What a screen reader is told never stops the game from being drawn.
      try { tell(spoken(state, msg)); } catch (e) { console.error(e); }
      state = msg;
      waitingReply = false;
      if (seenRounds === null) seenRounds = msg.rounds.length;
      if (msg.rounds.length > seenRounds) {
        seenRounds = msg.rounds.length;
        roundOver = true;
        collecting = true;
      }
      break;
    case "rematch":
      // Every person agreed: this seat's place in the new game, then off to it.
      // A seat held by the signed-in account alone has no token: the session seats it.
      if (msg.token) saveToken(msg.game, msg.token);
      $("rematch-link").href = msg.url;
      $("rematch-link").classList.remove("hidden");
      gone = true;
      location.href = msg.url;
      break;
    case "error":
      waitingReply = false;
      if (msg.code === "bad_token") {
        // The token belongs to no seat of this game: watch instead.
        localStorage.removeItem(`chkobba.token.${game}`);
        token = null;
        send({ type: "hello", game });
      } else if (msg.code === "unknown_game") {
        gone = true;
        $("error").textContent = t("not_found");
        ws.close();
      } else {
        $("error").textContent = `${t("error")}: ${msg.message}`;
        setTimeout(() => { $("error").textContent = ""; }, 4000);
      }
      break;
    default:
      break;
  }
  render();
  if (room && (msg.type === "welcome" || msg.type === "room")) chatRoom(room, seat);
  // The breakdown waits for the table to be collected.
  const shown = moved ? showMove(moved) : Promise.resolve();
  if (!roundOver) return shown;
  return shown.then(() => {
    collecting = false;
    showBreakdown();
    render();
  });
}

/** The animation of the move between the state shown before and this one (motion.js). */
function showMove({ prev, snap }) {
  const keys = (room?.points ?? []).map((p) => p.key);
  const word = t(keys.includes("scope") ? "sweep_scopa" : keys.includes("escobas") ? "sweep_escoba" : "sweep_chkobba");
  const shown = chkobbaMove({ prev, state, snap, seat, sideOf: sideOf(), word });
  // The cards dealt at the start are no move to show again.
  $("last-move").classList.toggle("hidden", !(hasLast() && prev));
  return shown;
}

function players() {
  return room?.players ?? [];
}

/** Whether a seat is online, as far as this page knows: not at all while it is cut off. */
function online(p) {
  return connected && Boolean(p?.online);
}

function sideOf() {
  return room?.side_of ?? [];
}

function render() {
  if (!room || !state) return;
  $("code").textContent = room.game;
  renderWaiting();
  renderScores();
  renderSeats();
  renderTable();
  renderCut();
  renderChoices();
  renderHand();
  renderStatus();
  renderLog();
  renderOver();
  renderLife();
  if ($("sheet").open) renderSheet();
  document.body.dataset.ply = state.ply;
  document.body.dataset.turn = state.turn;
  document.body.dataset.myTurn = canPlay() ? "1" : "0";
  document.body.dataset.rounds = state.rounds.length;
  document.body.dataset.over = state.over ? "1" : "0";
  document.body.dataset.seat = seat;
  document.body.dataset.connected = connected ? "1" : "0";
  document.body.dataset.coaching = room.coaching === false ? "0" : "1";
  if (atTable && !inPlay(document.activeElement)) focusPlay();
  keepInView();
}

let viewFor = "";

/** When this seat's turn comes, or the capture choice or the cut opens, the hand and the
 * choice are brought into the window (a phone shows the table above them; the choice
 * opening above the hand pushes it down): the hand's foot at the window's foot. */
function keepInView() {
  const open = ["choices", "cut"].map($).find((box) => !box.classList.contains("hidden")) ?? null;
  const key = `${canPlay()}|${pendingCard}|${open?.id ?? ""}`;
  if (key === viewFor) return;
  viewFor = key;
  if (seat < 0 || !(canPlay() || open)) return;
  const zone = $("hand-zone").getBoundingClientRect();
  const top = open ? open.getBoundingClientRect().top : zone.top;
  if (top >= 0 && zone.bottom <= window.innerHeight) return;
  window.scrollBy({ top: zone.bottom - window.innerHeight + 8, behavior: "instant" });
}

/** Whether this page may play now: its turn, nothing on the way, and connected. */
function canPlay() {
  return state.legal.length > 0 && !waitingReply && !collecting && connected;
}

/** Whether ``node`` is where a move is made: the hand, the capture choice, the cut. */
function inPlay(node) {
  return Boolean(node && node !== document.body && ["hand", "choices", "cut"].some((id) => $(id)?.contains(node)));
}

/** The keyboard back at the table: the capture choice or the cut when open, else the
 * hand's card of the place it was on. */
function focusPlay() {
  const choice = $("choices").querySelector("button.choice");
  const cut = $("cut").querySelector("button");
  const cards = [...$("hand").querySelectorAll(".card")];
  const target = choice ?? cut ?? cards[Math.min(handIndex, cards.length - 1)] ?? null;
  if (target) target.focus({ preventScroll: true });
}

// -- what a screen reader is told ----------------------------------------------

/** The sentences a state brings after ``prev``: each move since (its captures and
 * sweeps), a round's result, the game's end, and whose turn it is. */
function spoken(prev, next) {
  if (!room) return [];
  const out = [];
  const say = (turns) => { for (const turn of turns) out.push(describeMove(turn, players(), room.points)); };
  if (prev && next.rounds.length > prev.rounds.length && next.previous) {
    say(next.previous.history.slice(prev.history.length));
    const end = next.previous;
    out.push(t("round_over", { n: next.rounds.length }), ...endNotes(end, players(), sideOf()));
    out.push(`${t("round_points")}: ${end.score.points.map((v, s) => `${sideName(players(), sideOf(), s)} ${v}`).join(", ")}`);
    out.push(`${t("match_score")}: ${next.totals.map((v, s) => `${sideName(players(), sideOf(), s)} ${v}`).join(", ")}`);
    say(next.history);
  } else if (prev) {
    say(next.history.slice(prev.history.length));
  }
  if (next.over && !prev?.over) {
    out.push(next.winner === null ? t("game_over") : t("winner", { name: sideName(players(), sideOf(), next.winner) }));
  } else if (!next.over && room.status === "playing" && (!prev || prev.turn !== next.turn || prev.ply !== next.ply)) {
    out.push(next.legal.length ? t("your_turn") : t("waiting_for", { name: seatName(players(), next.turn) }));
  }
  return out;
}

/** Say ``lines`` in the live region (the last few kept, for a reader that comes back). */
function tell(lines) {
  const box = $("announce");
  for (const line of lines) box.append(el("p", { text: line }));
  while (box.children.length > 12) box.firstChild.remove();
}

/** The room's settings, the link to the game it is a rematch of, and the resign button. */
function renderLife() {
  if (room.settings) $("life-settings").textContent = settingsWords(room);
  const of = $("rematch-of");
  of.classList.toggle("hidden", !room.rematch_of);
  if (room.rematch_of) {
    of.href = `/g/${room.rematch_of}`;
    of.textContent = t("rematch_of", { code: room.rematch_of });
  }
  const playing = room.status === "playing" && !state.over && seat >= 0;
  $("resign-btn").classList.toggle("hidden", !playing || !$("resign-ask").classList.contains("hidden"));
  if (!playing) $("resign-ask").classList.add("hidden");
}

function renderWaiting() {
  const open = room.status === "open";
  $("waiting").classList.toggle("hidden", !open);
  if (!open) return;
  $("share-url").value = `${location.origin}/g/${room.game}`;
  $("share-code").textContent = room.game;
  $("seat-list").replaceChildren(
    ...room.players.map((p) =>
      el("li", {}, el("span", { class: `dot ${online(p) ? "on" : ""}` }),
        el("span", { class: "grow", text: p.taken ? seatName(room.players, p.seat) : t("free_seat") }, ...memberMark(p)),
        el("span", { text: p.seat === seat ? t("you") : "" }))),
  );
  const free = room.players.some((p) => !p.taken);
  $("join-box").classList.toggle("hidden", !(seat < 0 && free));
  $("fill-box").classList.toggle("hidden", !(seat === 0 && room.kind === "room" && free));
  const level = $("fill-level");
  if (info && level.options.length !== info.levels.length) {
    level.replaceChildren(...info.levels.map((l) => el("option", { value: l, text: levelName(l) })));
  }
}

function renderScores() {
  const box = $("scores");
  const sides = state.totals.length;
  const items = [];
  for (let s = 0; s < sides; s++) {
    const marks = "★".repeat(state.chkobba[s] ?? 0);
    items.push(
      el("span", { class: "score", "data-side": s },
        `${bidiSafe(sideName(players(), sideOf(), s))}: `, el("b", { text: state.totals[s] }),
        ` / ${state.target}`,
        el("span", { class: "info", text: ` · ${t("pile")} ${state.piles[s]} ` }),
        el("span", { class: "marks", text: marks })),
    );
  }
  items.push(el("span", { class: "meta" },
    el("span", { text: `${t("round")} ${state.round}` }),
    el("span", { text: `${t("stock")} ${state.stock}` })));
  box.replaceChildren(...items);
}

function renderSeats() {
  const n = players().length;
  placeSeats($("ring"), n, seat < 0 ? 0 : seat, seatBox);
  $("hand-zone").classList.toggle("hidden", seat < 0);
  $("rules-link").href = `/rules/${encodeURIComponent(room.rules ?? "chkobba")}`;
  // The header names the game played ("Scopa di quindici"), in the page's language.
  $("game-name").textContent = gameName(room.rules ?? "chkobba");
  document.title = `${gameName(room.rules ?? "chkobba")} · ${room.game}`;
  renderWild();
  renderMyDeclared();
}

/** The person's own declared hand, over the hand (the seat at the bottom stays small). */
function renderMyDeclared() {
  let box = $("my-declared");
  if (!box) {
    box = el("div", { id: "my-declared" });
    $("hand-zone").querySelector("h3").after(box);
  }
  box.replaceChildren(...(seat < 0 ? [] : declaredBoxes(state, seat)));
}

/** One seat at the table: its name, whether it is the dealer or a partner, its hidden
 * cards (the person's own are in the hand below), and any hand it declared, face up. */
/** A signed-in player's mark beside their name: it is their account's, not a name a
 * guest typed (docs/web.md, "Accounts"). */
function memberMark(p) {
  return p?.account ? [el("span", { class: "member", title: aw("account_name"), text: " ✓" })] : [];
}

function seatBox(s) {
  const p = players()[s];
  const mine = s === seat;
  const held = state.hand_sizes[s] ?? 0;
  // Read as one: "Computer 2: 3 cards", not "card back" three times.
  const backs = el("div", { class: "cards backs" });
  backs.setAttribute("role", "img");
  backs.setAttribute("aria-label", t("seat_cards", { name: seatName(players(), s), n: held }));
  if (!mine) {
    for (let i = 0; i < held; i++) {
      const back = cardEl(null, { small: true });
      back.setAttribute("aria-hidden", "true");
      backs.append(back);
    }
  }
  // Nobody has a turn until every seat is taken.
  const turn = room.status === "playing" && state.turn === s && !state.over;
  // "turn" outlines the seat to wait for; the person's own turn is told by the status.
  const box = el("div", { class: `seat ${turn && !mine ? "turn" : ""} ${mine ? "me" : ""}`, "data-seat": s },
    el("div", { class: "name" }, el("span", { class: `dot ${online(p) ? "on" : ""}` }),
      el("span", { class: "who", text: mine ? `${seatName(players(), s)} (${t("you")})` : seatName(players(), s) }),
      ...memberMark(p)),
    el("div", { class: "info", text: seatInfo(s) }),
    ...seatScore(s), backs, ...(mine ? [] : declaredBoxes(state, s)));
  return box;
}

/** With three sides or more, each for themselves, the seat's score sits at the seat
 * (the bar above then shows the round and the stock only). */
function seatScore(s) {
  const side = sideOf()[s];
  $("scores").classList.toggle("by-seat", bySeat());
  if (!bySeat()) return [];
  return [scoreAtSeat(state, side)];
}

function bySeat() {
  return scoresBySeat(room.teams, state);
}

function renderWild() {
  drawWild($("table"), state);
}

function seatInfo(s) {
  const notes = [];
  if (room.teams && seat >= 0 && s !== seat && sideOf()[s] === sideOf()[seat]) notes.push(t("partner"));
  if (state.dealer === s) notes.push(t("dealer"));
  const doing = seatState(room, s);
  if (doing) notes.push(doing);
  return notes.join(" · ");
}

function optionsFor(card) {
  return state.legal.filter((m) => m === card || m.startsWith(`${card}:`));
}

function renderTable() {
  drawTableCards($("table"), state.table);
}

function highlight(cards) {
  for (const c of $("table").querySelectorAll(".card")) c.classList.toggle("hl", cards.includes(c.dataset.card));
}

function renderCut() {
  const box = $("cut");
  const mine = state.phase === "cut" && state.legal.includes("keep");
  const theirs = state.phase === "cut" && !mine && room.status === "playing";
  box.classList.toggle("hidden", !(mine || theirs));
  if (mine) {
    box.replaceChildren(
      el("span", { text: t("cut_title") }), cardEl(state.cut_card),
      el("button", { id: "cut-keep", "data-cut": "keep", text: t("keep"), onclick: () => play("keep") }),
      el("button", { id: "cut-table", "data-cut": "table", class: "secondary", text: t("put_table"), onclick: () => play("table") }),
    );
  } else if (theirs) {
    box.replaceChildren(el("span", { text: t("cutting", { name: seatName(players(), state.cutter) }) }));
  } else {
    box.replaceChildren();
  }
}

function renderChoices() {
  const box = $("choices");
  const opts = pendingCard ? optionsFor(pendingCard) : [];
  box.classList.toggle("hidden", opts.length < 2);
  if (opts.length < 2) {
    pendingCard = null;
    box.replaceChildren();
    return;
  }
  const buttons = opts.map((m) => {
    const taken = (m.split(":")[1] || "").split("+").filter(Boolean);
    const b = el("button", { class: "choice", "data-move": m, title: m });
    for (const c of taken) b.append(cardEl(c, { small: true }));
    b.addEventListener("mouseenter", () => highlight(taken));
    b.addEventListener("focus", () => highlight(taken));
    b.addEventListener("mouseleave", () => highlight([]));
    b.addEventListener("click", () => play(m));
    return b;
  });
  box.replaceChildren(
    el("div", { text: t("choose_capture", { card: pretty(pendingCard) }) }),
    el("div", { class: "opts" }, ...buttons),
    el("button", { class: "secondary", text: t("cancel"), onclick: () => cancelChoice() }),
  );
}

function renderHand() {
  const hand = $("hand");
  // Cut off from the server, nothing can be played until it is back (whatever the turn).
  $("hand-zone").classList.toggle("offline", !connected);
  let note = $("offline-note");
  if (!connected && !note) {
    note = el("p", { id: "offline-note", class: "offline-note", text: t("offline_hand") });
    hand.before(note);
  } else if (connected && note) note.remove();
  if (note) note.textContent = t("offline_hand");
  const cards = state.hand.map((c, i) => {
    const opts = optionsFor(c);
    const b = cardEl(c, { button: true });
    b.dataset.index = i;
    // How many plays the card has: more than one opens the capture choice.
    b.dataset.moves = opts.length;
    // Every card stays reachable by the keyboard (not disabled): the focus stays in the
    // hand while the others play.
    if (opts.length && canPlay()) {
      b.classList.add("playable");
      b.addEventListener("click", () => {
        if (opts.length === 1) play(opts[0]);
        else { pendingCard = c; render(); }
      });
    } else {
      b.setAttribute("aria-disabled", "true");
    }
    if (i < 10) b.setAttribute("aria-keyshortcuts", String((i + 1) % 10));
    if (pendingCard === c) b.classList.add("selected");
    return b;
  });
  hand.replaceChildren(...cards);
}

function renderStatus() {
  const box = $("status");
  box.classList.remove("mine");
  if (!connected) box.textContent = t("reconnecting");
  else if (room.status === "open") box.textContent = t("waiting_title");
  else if (state.over) box.textContent = t("game_over");
  else if (state.legal.length) { box.textContent = t("your_turn"); box.classList.toggle("mine", canPlay()); }
  else box.textContent = (seat < 0 ? `${t("spectating")} · ` : "") + t("waiting_for", { name: seatName(players(), state.turn) });
}

function renderLog() {
  const prev = state.previous && state.history.length < 8 ? state.previous.history : [];
  const line = (turn) => el("li", { class: turn.chkobba ? "chk" : "", text: describeMove(turn, players(), room?.points) });
  const items = [...prev.map(line)];
  // The new round's plays under their round's number, apart from the last round's.
  if (prev.length) items.push(el("li", { class: "round-sep", text: t("round_sep", { n: state.round }) }));
  items.push(...state.history.map(line));
  $("log").replaceChildren(...items.slice(-11).reverse().filter((li, i, all) => !(i === all.length - 1 && li.classList.contains("round-sep"))));
  $("show-last").classList.toggle("hidden", !state.previous);
}

function renderOver() {
  $("over").classList.toggle("hidden", !state.over);
  if (!state.over) return;
  const won = state.winner === null ? t("game_over") : t("winner", { name: sideName(players(), sideOf(), state.winner) });
  // Resigned, out of time or abandoned: how, then who won (ending.js).
  const side = (k) => sideName(players(), sideOf(), k);
  $("over-title").textContent = endingLine(state, side, word) ?? won;
  // A rematch: offered by a person at the end, started once every person accepted.
  const accepted = room.rematch_accepted ?? [];
  $("rematch-btn").classList.toggle("hidden", seat < 0 || Boolean(room.rematch) || accepted.includes(seat));
  $("rematch-status").textContent = accepted.length && !room.rematch
    ? t("rematch_accepted", { names: accepted.map((s) => seatName(players(), s)).join(", ") }) : "";
  $("rematch-link").classList.toggle("hidden", !room.rematch);
  if (room.rematch) $("rematch-link").href = `/g/${room.rematch}`;
  $("over-score").textContent = `${t("match_score")}: ${state.totals.join(" – ")}`;
  $("replay-link").href = `/replay/${game}`;
  $("download-link").href = `/api/games/${game}/record`;
}

function showBreakdown() {
  const end = state.previous;
  if (!end) return;
  const dlg = $("breakdown");
  $("breakdown-title").textContent = t("round_over", { n: state.rounds.length });
  $("breakdown-notes").replaceChildren(...endNotes(end, players(), sideOf()).map((s) => el("p", { class: "note", text: s })));
  $("breakdown-body").replaceChildren(breakdownTable(end, players(), sideOf(), info?.points, room?.points));
  $("breakdown-match").textContent = `${t("match_score")}: ${state.totals.map((v, s) => `${sideName(players(), sideOf(), s)} ${v}`).join(", ")}`;
  if (!dlg.open) {
    resumeAt = atTable;
    dlg.showModal();
  }
}

// The keyboard was at the table when a window opened: back there when it closes.
let resumeAt = false;

function resume() {
  if (!resumeAt) return;
  atTable = true;
  resumeAt = false;
  focusPlay();
}

function cancelChoice() {
  pendingCard = null;
  render();
}

function play(move) {
  if (waitingReply) return;
  pendingCard = null;
  waitingReply = true;
  send({ type: "play", move, ply: state.ply, id: ++seq });
  render();
}

// -- the keyboard ---------------------------------------------------------------

/** The score sheet (scoresheet.js) of the rounds finished so far, drawn again while open. */
function renderSheet() {
  if (!state || !room) return;
  $("sheet-body").replaceChildren(scoreSheet(state.rounds, room.points ?? [], players(), sideOf()));
  document.body.dataset.sheetRounds = state.rounds.length;
}

function toggleSheet() {
  const sheet = $("sheet");
  if (sheet.open) sheet.close();
  else {
    renderSheet();
    resumeAt = atTable;
    sheet.showModal();
  }
}

function toggleHelp() {
  const help = $("keys-help");
  if (help.open) help.close();
  else {
    resumeAt = atTable;
    help.showModal();
  }
}

/** The shortcuts (the help under ``?``): a card of the hand by its place, a choice by its
 * number, the hand, the cut, the last move, the log. */
function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
  const target = e.target;
  if (target instanceof HTMLElement && target.closest("input, select, textarea")) return;
  if ($("breakdown").open) return;
  if (e.key === "?") {
    e.preventDefault();
    toggleHelp();
    return;
  }
  if ($("keys-help").open || !state) return;
  const key = e.key.toLowerCase();
  if (key === "s") {
    e.preventDefault();
    toggleSheet();
    return;
  }
  if ($("sheet").open) return;
  const press = (node) => {
    if (!node) return;
    e.preventDefault();
    atTable = true;
    node.focus();
    if (!node.getAttribute("aria-disabled")) node.click();
  };
  if (/^[0-9]$/.test(key)) {
    const n = key === "0" ? 9 : Number(key) - 1;
    const choices = $("choices").querySelectorAll("button.choice");
    if (choices.length) press(choices[n]);
    else {
      const card = $("hand").querySelectorAll(".card")[n];
      if (card) handIndex = n;
      press(card);
    }
  } else if (key === "h") {
    e.preventDefault();
    atTable = true;
    handIndex = Math.max(0, [...$("hand").querySelectorAll(".card")].findIndex((c) => c.classList.contains("playable")));
    focusPlay();
  } else if (key === "k") press($("cut-keep"));
  else if (key === "t") press($("cut-table"));
  else if (key === "l" && !$("last-move").classList.contains("hidden")) press($("last-move"));
  else if (key === "p") { e.preventDefault(); $("log-panel").focus(); }
  else if (key === "c") { e.preventDefault(); focusChat(); }
  else if (key === "escape" && pendingCard) { e.preventDefault(); atTable = true; cancelChoice(); }
  else if ((key === "arrowleft" || key === "arrowright") && $("hand").contains(target)) {
    // Along the hand, in the direction of the cards (left to right in any language).
    const cards = [...$("hand").querySelectorAll(".card")];
    const ahead = (key === "arrowright") !== (getComputedStyle($("hand")).direction === "rtl");
    const i = cards.indexOf(target) + (ahead ? 1 : -1);
    if (cards[i]) { e.preventDefault(); cards[i].focus(); }
  }
}

async function joinSeat() {
  const name = $("join-name").value.trim();
  try {
    const r = await api(`/api/games/${game}/join`, { name });
    if (name) localStorage.setItem("chkobba.name", name);
    token = r.token;
    saveToken(game, token);
    send({ type: "hello", game, token });
  } catch (e) {
    $("error").textContent = `${t("error")}: ${e.message}`;
  }
}

async function main() {
  setupHeader();
  onLangChange(() => render());
  // The cards are written in the deck drawn: the log and the choices follow a new deck.
  onDeckChange(() => render());
  $("join-name").value = localStorage.getItem("chkobba.name") || "";
  $("join-btn").addEventListener("click", joinSeat);
  $("fill-btn").addEventListener("click", () => send({ type: "fill", level: $("fill-level").value }));
  $("copy").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText($("share-url").value); $("copy").textContent = t("copied"); } catch { $("share-url").select(); }
  });
  $("show-last").addEventListener("click", showBreakdown);
  $("resign-btn").addEventListener("click", () => {
    $("resign-ask").classList.remove("hidden");
    render();
  });
  $("resign-yes").addEventListener("click", () => {
    $("resign-ask").classList.add("hidden");
    send({ type: "resign", id: ++seq });
  });
  $("rematch-btn").addEventListener("click", () => send({ type: "rematch", id: ++seq }));
  $("last-move").addEventListener("click", () => queue(replayLast));
  $("keys-btn").addEventListener("click", toggleHelp);
  $("keys-help").addEventListener("close", resume);
  $("sheet-btn").addEventListener("click", toggleSheet);
  $("sheet").addEventListener("close", resume);
  $("breakdown").addEventListener("close", resume);
  document.addEventListener("keydown", onKey);
  document.addEventListener("focusin", (e) => {
    atTable = inPlay(e.target);
    if (atTable && $("hand").contains(e.target)) handIndex = Number(e.target.dataset.index ?? 0);
  });
  initChat({ send, game });
  // The server's levels and point names, while the game's socket opens: not one after the other.
  api("/api/info").then((i) => { info = i; render(); }, () => { info = null; });
  connect();
}

main();
