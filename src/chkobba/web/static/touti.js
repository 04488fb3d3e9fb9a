// Touti against the computer: the person's view from /api/touti/games/{game}, moves posted back.
import { api, cardEl, el, pretty } from "./common.js";

const SUITS = { d: "oros ♦", h: "copas ♥", s: "espadas ♠", c: "bastos ♣" };
const $ = (id) => document.getElementById(id);
const gameId = location.pathname.split("/")[2] || "";
const tokenKey = (g) => `touti.token.${g}`;

function start() {
  $("start").hidden = false;
  document.body.dataset.ready = "1";
  $("t-go").onclick = async () => {
    $("t-error").textContent = "";
    try {
      const r = await api("/api/touti/games", {
        name: $("t-name").value.trim() || "You",
        opponent: $("t-opponent").value,
        partner: $("t-partner").value,
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
  $("game").hidden = false;
  // State for tests and assistive tools: whose turn, how far, whether over.
  document.body.dataset.ready = "1";
  document.body.dataset.myTurn = v.turn === 0 && v.winner === null ? "1" : "0";
  document.body.dataset.over = v.winner !== null ? "1" : "0";
  document.body.dataset.ply = String(v.ply);
  const names = v.names;
  const team = (t) => `${names[t]} & ${names[t + 2]}`;
  $("t-score").textContent =
    `${team(0)} ${v.totals[0]} · ${team(1)} ${v.totals[1]} (to ${v.target}) · deal ${v.deal}`;
  $("t-contract").textContent = v.trump
    ? `Contract: ${names[v.declarer]} ${v.bid} in ${SUITS[v.trump]}; tricks ${v.tricks[0]}–${v.tricks[1]}`
    : v.bid ? `Bidding: ${names[v.high_bidder]} bids ${v.bid}` : `Bidding: ${names[v.dealer]} deals`;
  const shown = v.trick.length ? v.trick : v.last_trick ? v.last_trick.cards : [];
  for (const seatEl of document.querySelectorAll(".touti-seat")) {
    const seat = Number(seatEl.dataset.seat);
    seatEl.querySelector(".who").textContent = `${names[seat]} (${v.hand_sizes[seat]})`;
    seatEl.classList.toggle("turn", v.turn === seat && v.winner === null);
    const slot = seatEl.querySelector(".slot");
    slot.replaceChildren();
    const played = shown.find((p) => p.seat === seat);
    if (played) {
      const c = cardEl(played.card);
      if (!v.trick.length && v.last_trick && v.last_trick.winner === seat) c.classList.add("hl");
      slot.append(c);
    }
  }
  const mine = v.turn === 0 && v.winner === null;
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
  $("t-actions").replaceChildren(...actions.map((m) => {
    const b = el("button", { text: label(m) });
    b.onclick = () => send(m);
    return b;
  }));
  $("t-prompt").textContent = v.winner !== null
    ? `${team(v.winner)} win the match.`
    : !mine ? "The computers are playing…"
    : v.phase === "bid" ? "Your bid (or pass):"
    : v.phase === "trump" ? "Name trumps:"
    : v.phase === "canto" ? "Announce a pair?"
    : "Your card:";
  $("t-log").replaceChildren(...v.log.map((line) => el("li", { text: line })));
  $("t-log").scrollTop = $("t-log").scrollHeight;
  if (v.winner !== null) {
    $("t-end").hidden = false;
    $("t-record").href = `/api/touti/games/${v.game}/record?token=${encodeURIComponent(token())}`;
  }
}

function label(m) {
  if (m.startsWith("trump:")) return `Trumps: ${SUITS[m[6]]}`;
  if (m.startsWith("canto:")) return `Announce ${SUITS[m[6]]}`;
  if (m === "nocanto") return "No announcement";
  return m;
}

function token() {
  return localStorage.getItem(tokenKey(gameId)) || "";
}

async function send(move) {
  $("g-error").textContent = "";
  $("t-actions").replaceChildren();
  $("t-prompt").textContent = `${/^[A-Z2-7][shdc]$/.test(move) ? pretty(move) : label(move)}…`;
  try {
    render(await api(`/api/touti/games/${gameId}/move`, { token: token(), move }));
  } catch (e) {
    $("g-error").textContent = e.message;
    load();
  }
}

async function load() {
  try {
    render(await api(`/api/touti/games/${gameId}?token=${encodeURIComponent(token())}`));
  } catch (e) {
    $("game").hidden = false;
    $("g-error").textContent = e.message;
  }
}

if (gameId) load();
else start();
