// The chat at the table (docs/play.md, "Chat and moderation"; docs/protocol.md, "Chat").
// Every message is text: it is written with textContent, never as HTML and never as a
// link. A quick phrase comes as a key and is shown in this reader's language. Muting is
// this browser's own business: the muted authors are kept in localStorage. At a table of
// partners the players send only quick phrases until the game ends (the room's
// `team_talk`, docs/protocol.md "Room settings"): the message box is hidden, and the
// panel says why.
import { currentLang, word, onLangChange } from "./i18n.js";
import { api, el } from "./common.js";

const MUTED = "chkobba.chat.muted";
const OPEN = "chkobba.chat.open";
const PHRASES = ["hello", "good_luck", "well_played", "good_game", "thanks", "again", "oops", "bye"];
const MAX_CHARS = 200;
const KEEP = 200; // messages kept on the page

const $ = (id) => document.getElementById(id);
const cw = (key, vars = {}) => word("chat", key, vars);

let sendFn = () => {};
let game = "";
let seat = -1;
let known = false; // the game's summary has come: the seat is known
let on = null; // the room's switch, as the server last said
let status = "open";
let teams = false; // a table of partners (2 against 2)
let teamTalk = "phrases"; // the room's team_talk: "phrases" or "free"
let myName = null; // a signed-in spectator's own name
let messages = [];
let seq = 0;
let unread = 0;
let open = true;
const mine = new Set(); // the numbers of the messages this page sent
// Each message's line, kept from one drawing to the next so that the keyboard's place on
// a line's button survives the room's news; made again in another language.
const nodes = new Map();
let drawnLang = null;
let muted = readMuted();

function readMuted() {
  try {
    const saved = JSON.parse(localStorage.getItem(MUTED) || "[]");
    return Array.isArray(saved) ? saved.filter((m) => m && typeof m.key === "string") : [];
  } catch {
    return [];
  }
}

/** Who wrote a message, as the mute list knows them: a signed-in author by account name
 * (in every game), a guest by their seat in this game (a guest's name is anybody's). */
function authorKey(m) {
  return m.account ? `a:${m.name}` : `g:${m.game}:${m.seat}`;
}

function isMuted(m) {
  return muted.some((x) => x.key === authorKey(m));
}

function isMine(m) {
  if (mine.has(m.message)) return true;
  if (m.seat >= 0) return m.seat === seat;
  return seat < 0 && myName !== null && m.account && m.name === myName;
}

function saying(m) {
  return m.phrase ? cw(`phrase_${m.phrase}`) : m.text;
}

// The panel's markup, the same on every game's page (its words are set by draw()).
const PANEL = `
  <h2 class="chat-head"><button id="chat-toggle" class="chat-toggle" type="button" aria-expanded="true" aria-controls="chat-body"><span id="chat-title">Chat</span> <span id="chat-unread" class="chat-unread"></span></button></h2>
  <div id="chat-quick" class="chat-quick" role="group" aria-label="Quick phrases"></div>
  <div id="chat-body">
    <p id="chat-note" class="info"></p>
    <ol id="chat-log" class="chat-log"></ol>
    <p id="chat-empty" class="info"></p>
    <form id="chat-form" class="chat-form">
      <input id="chat-input" autocomplete="off" maxlength="200" enterkeyhint="send" aria-label="Message" placeholder="Message">
      <button id="chat-send" type="submit">Send</button>
    </form>
    <p id="chat-muted" class="info"></p>
    <button id="chat-switch" class="secondary hidden" type="button">Turn the chat off</button>
  </div>
  <p id="chat-status" class="info" role="status"></p>
  <div id="chat-announce" class="sr-only" role="log" aria-live="polite" aria-labelledby="chat-title"></div>
`;

/** Set up the panel in the page's empty ``<section id="chat">``; ``send`` sends a
 * protocol message on the game's connection. */
export function initChat(options) {
  $("chat").innerHTML = PANEL;  // a constant: nothing of a player's is in it
  sendFn = options.send;
  game = options.game;
  const small = window.matchMedia("(max-width: 760px)").matches;
  const saved = localStorage.getItem(OPEN);
  open = saved === null ? !small : saved === "1";
  $("chat-toggle").addEventListener("click", () => {
    open = !open;
    localStorage.setItem(OPEN, open ? "1" : "0");
    if (open) unread = 0;
    draw();
    if (open) $("chat-input").focus();
  });
  $("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("chat-input").value.trim();
    if (!text) return;
    say({ text });
    $("chat-input").value = "";
  });
  $("chat-switch").addEventListener("click", () => {
    sendFn({ type: "chat_room", on: !on, id: `chat${++seq}` });
  });
  $("chat-input").maxLength = MAX_CHARS;
  for (const key of PHRASES) {
    const b = el("button", { type: "button", class: "secondary chat-phrase", "data-phrase": key });
    b.addEventListener("click", () => say({ phrase: key }));
    $("chat-quick").append(b);
  }
  onLangChange(draw);
  api("/api/account/session").then((s) => {
    myName = s.signed_in ? s.account.name : null;
    draw();
  }).catch(() => {});
  draw();
}

/** Open the panel and put the keyboard in the message box (the ``C`` key), or on the
 * first quick phrase when only those can be used. */
export function focusChat() {
  if (!open) {
    open = true;
    unread = 0;
    localStorage.setItem(OPEN, "1");
    draw();
  }
  if (!$("chat-form").hidden) $("chat-input").focus();
  else $("chat-toggle").focus();
}

function say(body) {
  sendFn({ type: "chat", ...body, id: `chat${++seq}` });
}

/** The game page's news: the room's summary and this connection's seat. */
export function chatRoom(room, mySeat) {
  seat = mySeat;
  known = true;
  status = room.status;
  teams = Boolean(room.teams);
  teamTalk = room.settings?.team_talk ?? "phrases";
  if (room.chat !== null && room.chat !== undefined) on = room.chat;
  draw();
}

/** Whether a server message is the chat's: its own types, and errors answering it. */
export function isChat(msg) {
  if (["chat", "chat_history", "chat_room", "reported"].includes(msg.type)) return true;
  return msg.type === "error" && typeof msg.re === "string" && msg.re.startsWith("chat");
}

export function chatReceive(msg) {
  switch (msg.type) {
    case "chat_history":
      on = msg.on;
      messages = msg.messages.slice(-KEEP);
      // Both channels are read once the game is over (it is sent again at its end, also
      // when it was played out, which no room message follows): partners write freely.
      if (msg.channels?.length === 2) status = "finished";
      break;
    case "chat":
      if (msg.re) mine.add(msg.message);
      if (messages.some((m) => m.message === msg.message)) break;
      messages.push(msg);
      if (messages.length > KEEP) messages.shift();
      if (!isMuted(msg)) {
        if (!open && !isMine(msg)) unread += 1;
        announce(msg);
      }
      break;
    case "chat_room":
      on = msg.on;
      break;
    case "reported":
      note(cw("reported"));
      break;
    case "error":
      note(word("chat", `err_${msg.code}`) !== `err_${msg.code}` ? cw(`err_${msg.code}`) : msg.message);
      break;
    default:
      break;
  }
  draw();
}

function note(text) {
  $("chat-status").textContent = text;
  setTimeout(() => { if ($("chat-status").textContent === text) $("chat-status").textContent = ""; }, 5000);
}

/** Tell a screen reader of a new message (the visible list is not itself read out:
 * its mute and report buttons would be read with every line). */
function announce(m) {
  const line = el("p", { text: `${m.name}: ${saying(m)}` });
  $("chat-announce").append(line);
  while ($("chat-announce").childNodes.length > 5) $("chat-announce").firstChild.remove();
}

function mute(m) {
  if (!isMuted(m)) muted.push({ key: authorKey(m), name: m.name });
  localStorage.setItem(MUTED, JSON.stringify(muted));
  draw();
}

function unmute(key) {
  muted = muted.filter((x) => x.key !== key);
  localStorage.setItem(MUTED, JSON.stringify(muted));
  draw();
}

function line(m) {
  const who = el("span", { class: "chat-who", text: m.name });
  if (m.channel === "spectators") who.append(el("span", { class: "chat-tag", text: ` (${cw("spectator")})` }));
  const what = el("span", { class: m.phrase ? "chat-text chat-said-phrase" : "chat-text", text: saying(m) });
  what.dir = "auto";
  const row = el("li", { class: "chat-msg", "data-message": String(m.message), "data-author": authorKey(m) }, who, ": ", what);
  if (!isMine(m)) {
    const hush = el("button", { type: "button", class: "chat-act chat-mute", title: cw("mute", { name: m.name }) });
    hush.setAttribute("aria-label", cw("mute", { name: m.name }));
    hush.textContent = "⊘";
    hush.addEventListener("click", () => mute(m));
    const flag = el("button", { type: "button", class: "chat-act chat-report", title: cw("report", { name: m.name }) });
    flag.setAttribute("aria-label", cw("report", { name: m.name }));
    flag.textContent = "⚑";
    flag.addEventListener("click", () => {
      sendFn({ type: "report", message: m.message, id: `chat${++seq}` });
      flag.disabled = true;
    });
    row.append(" ", hush, flag);
  }
  return row;
}

function drawList(shown) {
  if (drawnLang !== currentLang()) {
    nodes.clear();
    drawnLang = currentLang();
  }
  const keep = new Map();
  const want = shown.map((m) => {
    const key = `${m.message}|${isMine(m)}`;
    const node = nodes.get(key) ?? line(m);
    keep.set(key, node);
    return node;
  });
  nodes.clear();
  for (const [k, v] of keep) nodes.set(k, v);
  const list = $("chat-log");
  const have = [...list.children];
  const prefix = have.length <= want.length && have.every((n, i) => n === want[i]);
  if (prefix && have.length === want.length) return;
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
  if (prefix) list.append(...want.slice(have.length));
  else list.replaceChildren(...want);
  // Follow the conversation, unless the reader scrolled back to read.
  if (atEnd || !prefix) list.scrollTop = list.scrollHeight;
}

function draw() {
  const panel = $("chat");
  if (!panel) return;
  // Said once the game's page is drawn and the chat's state known (the tests wait for it).
  if (known && on !== null) document.body.dataset.chat = on ? "on" : "off";
  $("chat-title").textContent = cw("title");
  if ($("key-chat")) $("key-chat").textContent = cw("key_chat");
  $("chat-toggle").setAttribute("aria-expanded", String(open));
  $("chat-toggle").title = cw(open ? "hide" : "show");
  $("chat-unread").textContent = !open && unread ? cw("unread", { count: unread }) : "";
  $("chat-body").hidden = !open;
  const finished = status === "finished";
  const spectatorGuest = seat < 0 && myName === null;
  const canWrite = on === true && !spectatorGuest;
  // A player at a table of partners: quick phrases only until the end (the server
  // refuses a text then: chat_phrases_only).
  const phrasesOnly = seat >= 0 && teams && !finished && teamTalk === "phrases";
  $("chat-note").textContent = on === false ? cw("off")
    : spectatorGuest ? cw("sign_in")
    : finished ? ""
    : phrasesOnly ? `${cw("apart")} ${cw("phrases_only")}` : cw("apart");
  document.body.dataset.chatPhrasesOnly = phrasesOnly ? "1" : "0";
  $("chat-quick").hidden = !canWrite;
  $("chat-quick").setAttribute("aria-label", cw("quick"));
  for (const b of $("chat-quick").querySelectorAll("button")) b.textContent = cw(`phrase_${b.dataset.phrase}`);
  $("chat-form").hidden = !canWrite || phrasesOnly;
  $("chat-input").setAttribute("aria-label", cw("message"));
  $("chat-input").placeholder = `${cw("message")}…`;
  $("chat-send").textContent = cw("send");
  const creator = seat === 0 && on !== null;
  $("chat-switch").classList.toggle("hidden", !creator);
  $("chat-switch").textContent = cw(on ? "turn_off" : "turn_on");
  const shown = messages.filter((m) => !isMuted(m));
  drawList(shown);
  $("chat-empty").textContent = shown.length ? "" : cw("empty");
  const mutedBox = $("chat-muted");
  mutedBox.replaceChildren();
  // A guest is muted in one game (a guest's name is anybody's); an account everywhere.
  const here = muted.filter((m) => m.key.startsWith("a:") || m.key.startsWith(`g:${game}:`));
  if (here.length) {
    mutedBox.append(cw("muted"), " ");
    for (const m of here) {
      const b = el("button", { type: "button", class: "secondary chat-unmute", text: cw("unmute", { name: m.name }) });
      b.addEventListener("click", () => unmute(m.key));
      mutedBox.append(b, " ");
    }
  }
}
