// The leaderboard (/leaderboard) and a player's profile (/u/NAME): ratings per pool, the
// rating history drawn as an inline SVG chart, the recent public games (docs/ratings.md).
// Every name and text is put in with textContent (or an SVG text node), never as HTML.
import { onLangChange, word } from "./i18n.js";
import { el, setupHeader, sideName } from "./common.js";
import { endingWords } from "./ending.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const rt = (key, vars = {}) => word("ratings", key, vars);
let pools = [];
let data = null;

function applyRatingWords() {
  for (const node of document.querySelectorAll("[data-rt]")) node.textContent = rt(node.dataset.rt);
}

function poolTitle(name) {
  return pools.find((p) => p.pool === name)?.title ?? name;
}

/** "1534 ± 212", with "provisional" while it has not settled. */
function ratingText(r) {
  return `${r.rating} ± ${r.plus_minus}${r.provisional ? ` (${rt("provisional")})` : ""}`;
}

async function getJson(path) {
  const r = await fetch(path);
  const body = await r.json();
  if (!r.ok) throw new Error(body.message || r.statusText);
  return body;
}

// -- the leaderboard ------------------------------------------------------------------------

function renderBoard() {
  applyRatingWords();
  document.title = rt("leaderboard");
  if (!data) return;
  $("board-caption").textContent = poolTitle(data.pool);
  $("rows").replaceChildren(...data.players.map((p) => el("tr", { "data-player": p.name },
    el("td", { text: String(p.place) }),
    el("td", {}, el("a", { href: `/u/${encodeURIComponent(p.name)}`, text: p.name })),
    el("td", { text: ratingText(p) }),
    el("td", { text: String(p.games) }),
    el("td", { text: String(p.wins) }),
  )));
  $("empty").textContent = data.players.length ? "" : rt("no_players");
}

async function loadBoard(pool) {
  try {
    data = await getJson(`/api/leaderboard?pool=${encodeURIComponent(pool)}`);
    $("error").textContent = "";
  } catch (e) {
    $("error").textContent = `${rt("error")}: ${e.message}`;
  }
  renderBoard();
  document.body.dataset.ready = "1";
}

async function leaderboard() {
  pools = (await getJson("/api/pools")).pools;
  const asked = new URLSearchParams(location.search).get("pool");
  const chosen = pools.some((p) => p.pool === asked) ? asked : pools[0].pool;
  const picker = $("pool");
  picker.replaceChildren(...pools.map((p) => el("option", { value: p.pool, text: p.title })));
  picker.value = chosen;
  picker.addEventListener("change", () => {
    history.replaceState(null, "", `/leaderboard?pool=${encodeURIComponent(picker.value)}`);
    loadBoard(picker.value);
  });
  onLangChange(renderBoard);
  await loadBoard(chosen);
}

// -- the profile ------------------------------------------------------------------------------

function svg(tag, attrs = {}, text = null) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== null) e.textContent = text;
  return e;
}

/** One pool's rating after each of its rated games: a line within its ± band. */
function chart(pool, points) {
  const w = 480, h = 180, pad = 36;
  const lows = points.map((p) => p.rating - p.plus_minus);
  const highs = points.map((p) => p.rating + p.plus_minus);
  const lo = Math.min(...lows), hi = Math.max(...highs);
  const x = (i) => pad + (points.length === 1 ? (w - 2 * pad) / 2 : (i * (w - 2 * pad)) / (points.length - 1));
  const y = (v) => h - pad + ((lo - v) * (h - 2 * pad)) / Math.max(1, hi - lo);
  const label = rt("chart_label", { pool: poolTitle(pool), first: points[0].rating, last: points[points.length - 1].rating });
  const box = svg("svg", { class: "chart", viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": label, "data-pool": pool });
  box.append(svg("title", {}, label));
  const upper = points.map((p, i) => `${x(i)},${y(p.rating + p.plus_minus)}`);
  const lower = points.map((p, i) => `${x(i)},${y(p.rating - p.plus_minus)}`).reverse();
  box.append(svg("polygon", { class: "band", points: [...upper, ...lower].join(" ") }));
  box.append(svg("line", { class: "axis", x1: pad, y1: h - pad, x2: w - pad, y2: h - pad }));
  box.append(svg("line", { class: "axis", x1: pad, y1: pad, x2: pad, y2: h - pad }));
  box.append(svg("text", { x: 2, y: pad }, String(Math.round(hi))));
  box.append(svg("text", { x: 2, y: h - pad }, String(Math.round(lo))));
  box.append(svg("polyline", { class: "line", points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" ") }));
  for (const [i, p] of points.entries()) {
    const dot = svg("circle", { cx: x(i), cy: y(p.rating), r: 3, fill: "#1f5fa8" });
    dot.append(svg("title", {}, `${ratingText(p)} · ${p.won ? rt("won") : rt("lost")}`));
    box.append(dot);
  }
  return el("figure", {}, box, el("figcaption", { text: poolTitle(pool) }));
}

/** Whether a recent game was won or lost, and how it ended if it was not played out:
 * "lost · alice: out of time". */
function recentEnd(g) {
  const result = g.won ? rt("won") : rt("lost");
  const players = g.names.map((name, seat) => ({ seat, name }));
  const how = endingWords(g, (k) => sideName(players, g.side_of ?? [], k), word);
  return how ? `${result} · ${how}` : result;
}

function renderProfile() {
  applyRatingWords();
  if (!data) return;
  document.title = `${rt("profile")}: ${data.name}`;
  $("who").textContent = data.name;
  $("played").textContent = rt("played_won", { played: data.played, won: data.won });
  const rows = data.ratings.map((r) => el("li", { "data-pool": r.pool },
    el("a", { class: "grow", href: `/leaderboard?pool=${encodeURIComponent(r.pool)}`, text: poolTitle(r.pool) }),
    el("span", { text: `${ratingText(r)} · ${rt("played_won", { played: r.games, won: r.wins })}` })));
  $("ratings").replaceChildren(...(rows.length ? rows : [el("li", { text: rt("no_ratings") })]));
  const byPool = new Map();
  for (const p of data.history) byPool.set(p.pool, [...(byPool.get(p.pool) ?? []), p]);
  $("charts").replaceChildren(...[...byPool].map(([pool, points]) => chart(pool, points)));
  const games = data.recent.map((g) => el("li", { "data-game": g.game },
    el("span", { class: "grow", text: `${g.pool ? `${poolTitle(g.pool)} · ${rt("rated")}` : g.rules} — ${g.names.join(", ")} — ${recentEnd(g)}` }),
    el("a", { href: g.replay, text: rt("replay") })));
  $("recent").replaceChildren(...(games.length ? games : [el("li", { text: rt("no_games") })]));
}

async function profile() {
  const name = decodeURIComponent(location.pathname.split("/")[2] ?? "");
  pools = (await getJson("/api/pools")).pools;
  onLangChange(renderProfile);
  try {
    data = await getJson(`/api/users/${encodeURIComponent(name)}`);
  } catch (e) {
    $("who").textContent = name;
    $("error").textContent = `${rt("error")}: ${rt("unknown_user")}`;
    $("panels").classList.add("hidden");
  }
  renderProfile();
  document.body.dataset.ready = "1";
}

function main() {
  setupHeader();
  applyRatingWords();
  (location.pathname.startsWith("/u/") ? profile() : leaderboard()).catch((e) => {
    $("error").textContent = `${rt("error")}: ${e.message}`;
    document.body.dataset.ready = "1";
  });
}

main();
