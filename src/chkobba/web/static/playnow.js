// The lobby's "Play now" panel and its challenges (docs/web.md, "Play now and challenges"): join the queue, wait
// (polling, which also tells the server the page is still there), go to the table once
// paired; send, answer and follow challenges. The ticket the server gives is the seat's
// token once paired: it is kept like any seat token, in this browser only.
import { t, word, gameName, onLangChange, currentLang } from "./i18n.js";
import { api, saveToken, el } from "./common.js";

const TOUTI = "touti";
const POLL_MS = 1000;
const OFFERS = ["30", "60", "120", "never"];

/** One of the queue's and challenges' words (the ``play`` section of the catalogues). */
export function pw(key, vars = {}) {
  return word("play", key, vars);
}

function applyWords() {
  for (const node of document.querySelectorAll("[data-pw]")) node.textContent = pw(node.dataset.pw);
}

const $ = (id) => document.getElementById(id);

let ctx = null;
let waiting = null; // { ticket, since, timer, body }
let sent = null; // { ticket, timer, link }

/** Go to the game a ticket seats us at. */
function goTo(answer, ticket) {
  saveToken(answer.game, ticket);
  if (answer.url.startsWith("/touti/")) localStorage.setItem(`touti.token.${answer.game}`, ticket);
  location.href = answer.url;
}

function clockWords(clock) {
  return clock ? t("seconds", { n: clock }) : t("no_clock");
}

// -- Play now --------------------------------------------------------------------------

function fillPlayForm() {
  const info = ctx.info;
  const name = $("p-rules").value || "chkobba";
  const preset = name === TOUTI ? info.games.touti.rules.touti : info.games.chkobba.rules[name];
  const seating = $("p-seating");
  const was = seating.value;
  seating.replaceChildren(...preset.seatings.map((s) => el("option", { value: s, text: t(`seating_${s}`) })));
  seating.value = preset.seatings.includes(was) ? was : preset.seatings[0];
  const offer = $("p-offer");
  const chosen = offer.value || "60";
  offer.replaceChildren(...OFFERS.map((n) => el("option", { value: n, text: n === "never" ? pw("offer_never") : t("seconds", { n }) })));
  offer.value = chosen;
  const rated = $("p-rated");
  rated.disabled = !ctx.signedIn();
  if (!ctx.signedIn()) rated.checked = false;
  $("p-rated-note").textContent = ctx.signedIn() ? "" : pw("rated_guest");
  // A challenge is a game of two: only the games a table of two can play.
  const x = $("x-rules");
  for (const option of [...x.options]) {
    const p = option.value === TOUTI ? info.games.touti.rules.touti : info.games.chkobba.rules[option.value];
    if (!p?.seatings.includes("2")) option.remove();
  }
  if (!x.value) x.value = "chkobba";
}

function playBody() {
  const pool = $("p-rules").value;
  const body = { pool, seating: $("p-seating").value, rated: $("p-rated").checked };
  const clock = $("p-clock").value;
  if (clock !== "none") body.clock = Number(clock);
  if (!ctx.signedIn()) body.name = $("p-name").value.trim();
  return body;
}

function showWaiting(on) {
  $("p-form").classList.toggle("hidden", on);
  $("p-waiting").classList.toggle("hidden", !on);
  document.body.dataset.queue = on ? "waiting" : "";
}

async function playNow() {
  $("p-error").textContent = "";
  const body = playBody();
  try {
    const r = await api("/api/queue", body);
    if (!ctx.signedIn() && body.name) localStorage.setItem("chkobba.name", body.name);
    waiting = { ticket: r.ticket, since: Date.now(), body, offer: $("p-offer").value };
    showWaiting(true);
    // The seconds tick on the screen; a screen reader is told the changes only.
    $("p-announce").textContent = pw("searching_start");
    tellWait(0);
    $("p-cancel").focus();
    waiting.timer = setTimeout(poll, POLL_MS);
  } catch (e) {
    $("p-error").textContent = `${t("error")}: ${e.message}`;
  }
}

function tellWait(seconds) {
  $("p-status").textContent = pw("searching", { n: Math.floor(seconds) });
  const offer = waiting?.offer;
  const due = offer && offer !== "never" && seconds >= Number(offer);
  const button = $("p-computer");
  if (due && button.classList.contains("hidden")) {
    button.classList.remove("hidden");
    $("p-announce").textContent = pw("computer_offered");
    document.body.dataset.queue = "offered";
  }
}

async function poll() {
  if (!waiting) return;
  const mine = waiting;
  try {
    const r = await api("/api/queue/poll", { ticket: mine.ticket });
    if (waiting !== mine) return;
    if (r.status === "paired") {
      $("p-status").textContent = pw("found");
      $("p-announce").textContent = pw("found");
      document.body.dataset.queue = "paired";
      waiting = null;
      goTo(r, mine.ticket);
      return;
    }
    tellWait((Date.now() - mine.since) / 1000);
  } catch (e) {
    if (waiting !== mine) return;
    if (e.status === 404) {
      // Dropped (the page was asleep too long): back in the queue, the wait counted on.
      try {
        const again = await api("/api/queue", mine.body);
        mine.ticket = again.ticket;
      } catch (e2) {
        $("p-error").textContent = `${t("error")}: ${e2.message}`;
      }
    }
  }
  if (waiting === mine) mine.timer = setTimeout(poll, POLL_MS);
}

/** Leave the queue; true if it was too late (paired: on the way to the table). */
async function cancel() {
  const mine = waiting;
  if (!mine) return false;
  waiting = null;
  clearTimeout(mine.timer);
  try {
    const r = await api("/api/queue/cancel", { ticket: mine.ticket });
    if (r.status === "paired") {
      goTo(r, mine.ticket);
      return true;
    }
  } catch {
    // Gone already: nothing to take back.
  }
  showWaiting(false);
  $("p-computer").classList.add("hidden");
  $("p-status").textContent = "";
  $("p-announce").textContent = "";
  $("p-go").focus();
  return false;
}

/** The computer instead: leave the queue, start a game against it with the same choices. */
async function computerInstead() {
  const body = waiting?.body;
  if (!body || await cancel()) return;
  const game = { mode: "computer", seating: body.seating, name: body.name };
  if (body.pool === TOUTI) game.game = TOUTI;
  else game.rules = body.pool;
  game.level = body.pool === TOUTI ? ctx.info.games.touti.level : "medium";
  try {
    const r = await api("/api/games", game);
    goTo(r, r.token);
  } catch (e) {
    $("p-error").textContent = `${t("error")}: ${e.message}`;
  }
}

/** A page closed or left while waiting leaves the queue at once (else it expires). */
function leaveOnClose() {
  addEventListener("pagehide", () => {
    for (const [path, held] of [["/api/queue/cancel", waiting], ["/api/challenges/cancel", sent]]) {
      if (!held) continue;
      const blob = new Blob([JSON.stringify({ ticket: held.ticket })], { type: "application/json" });
      navigator.sendBeacon(path, blob);
    }
  });
}

// -- challenges ------------------------------------------------------------------------

function describe(c) {
  return pw("challenge_from", {
    name: c.from, game: gameName(c.pool), table: t(`seating_${c.seating}`), clock: clockWords(c.clock),
  });
}

let linked = null; // a challenge opened by its link (#challenge=ID)

async function showIncoming() {
  const list = $("incoming");
  let found = [];
  try {
    found = (await api("/api/challenges")).incoming;
  } catch {
    found = [];
  }
  if (linked && !linked.yours && linked.status === "open" && !found.some((c) => c.challenge === linked.challenge)) {
    found.unshift(linked);
  }
  // Redrawn only when it changed: the list is a live region, read again when redrawn.
  const drawn = JSON.stringify([currentLang(), found.map((c) => c.challenge)]);
  if (list.dataset.drawn === drawn) return;
  list.dataset.drawn = drawn;
  list.replaceChildren(...found.map((c) => el("li", { "data-challenge": c.challenge },
    el("span", { class: "grow", text: describe(c) }),
    el("button", { text: pw("accept"), onclick: () => answer(c, "accept") }),
    el("button", { class: "secondary", text: pw("decline"), onclick: () => answer(c, "decline") }))));
  if (!found.length) list.replaceChildren(el("li", { text: pw("no_challenges") }));
}

async function answer(c, how) {
  $("x-error").textContent = "";
  try {
    const body = { challenge: c.challenge };
    if (!ctx.signedIn()) body.name = $("p-name").value.trim();
    const r = await api(`/api/challenges/${how}`, body);
    if (how === "accept") {
      goTo(r, r.token);
      return;
    }
  } catch (e) {
    $("x-error").textContent = e.status === 409 ? pw("challenge_gone") : `${t("error")}: ${e.message}`;
  }
  if (linked?.challenge === c.challenge) linked = null;
  showIncoming();
}

async function sendChallenge() {
  $("x-error").textContent = "";
  const body = { pool: $("x-rules").value, seating: "2" };
  const to = $("x-to").value.trim();
  if (to) body.to = to;
  const clock = $("x-clock").value;
  if (clock !== "none") body.clock = Number(clock);
  if (!ctx.signedIn()) body.name = $("p-name").value.trim();
  try {
    const r = await api("/api/challenges", body);
    sent = { ticket: r.ticket, to: r.to };
    $("x-link").value = new URL(r.link, location.href).href;
    $("x-form").classList.add("hidden");
    $("x-sent").classList.remove("hidden");
    $("x-link").closest("#x-sent").querySelector("label").classList.toggle("hidden", Boolean(r.to));
    $("x-link").classList.toggle("hidden", Boolean(r.to));
    $("x-status").textContent = pw("challenge_waiting");
    $("x-cancel").focus();
    sent.timer = setTimeout(followChallenge, POLL_MS);
  } catch (e) {
    $("x-error").textContent = `${t("error")}: ${e.message}`;
  }
}

async function followChallenge() {
  const mine = sent;
  if (!mine) return;
  try {
    const r = await api("/api/challenges/poll", { ticket: mine.ticket });
    if (r.status === "accepted" && r.game) {
      sent = null;
      goTo(r, mine.ticket);
      return;
    }
    if (r.status !== "open") {
      endChallenge(pw(`challenge_${r.status}`));
      return;
    }
  } catch {
    // Asked again in a moment.
  }
  if (sent === mine) mine.timer = setTimeout(followChallenge, POLL_MS * 2);
}

function endChallenge(words) {
  if (sent) clearTimeout(sent.timer);
  sent = null;
  $("x-sent").classList.add("hidden");
  $("x-form").classList.remove("hidden");
  $("x-status").textContent = "";
  $("x-error").textContent = words;
}

async function takeBack() {
  const mine = sent;
  if (!mine) return;
  try {
    const r = await api("/api/challenges/cancel", { ticket: mine.ticket });
    if (r.status === "accepted" && r.game) {
      goTo(r, mine.ticket);
      return;
    }
  } catch {
    // Gone already.
  }
  endChallenge(pw("challenge_cancelled"));
  $("x-send").focus();
}

async function openLinked() {
  const id = new URLSearchParams(location.hash.slice(1)).get("challenge");
  if (!id) return;
  try {
    linked = await api("/api/challenges/view", { challenge: id });
    if (linked.status !== "open") {
      $("x-error").textContent = pw("challenge_gone");
      linked = null;
    }
  } catch {
    $("x-error").textContent = pw("challenge_gone");
  }
}

/** Set up the panel; ``context`` gives the lobby's ``info`` and whether one is signed in. */
export async function setupPlayNow(context) {
  ctx = context;
  applyWords();
  fillPlayForm();
  onLangChange(() => { applyWords(); fillPlayForm(); showIncoming(); });
  $("p-rules").addEventListener("change", fillPlayForm);
  $("p-go").addEventListener("click", playNow);
  $("p-cancel").addEventListener("click", cancel);
  $("p-computer").addEventListener("click", computerInstead);
  $("x-send").addEventListener("click", sendChallenge);
  $("x-cancel").addEventListener("click", takeBack);
  leaveOnClose();
  // A challenge's link opened in a lobby already shown changes only the address's hash.
  addEventListener("hashchange", async () => { await openLinked(); showIncoming(); });
  await openLinked();
  await showIncoming();
  setInterval(showIncoming, 15000);
  // The waiting clock ticks between two answers of the server.
  setInterval(() => { if (waiting) tellWait((Date.now() - waiting.since) / 1000); }, 1000);
}

/** Redraw what depends on the language or the account (the lobby calls it). */
export function refreshPlayNow() {
  if (ctx) fillPlayForm();
}
