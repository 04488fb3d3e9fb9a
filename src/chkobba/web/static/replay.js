// Step through a finished game on the table of its game screen, every hand face up: the
// Chkobba family on the oval table (replay-table.js), Touti on its own (touti-table.js).
// Stepping forward one step moves the cards as the game screens do (motion.js); the
// arrows of the keyboard step too. Each round's breakdown is shown at its end.
import { t, gameName, onLangChange, word } from "./i18n.js";
import { endingLine } from "./ending.js";
import { api, breakdownTable, el, endNotes, setupHeader, sideName } from "./common.js";
import { onDeckChange, setGameDeck } from "./cards.js";
import { pacer, snapshot, toutiMove } from "./motion.js";
import { drawStep, players, stepMotion, stepSnapshot } from "./replay-table.js";
import { drawToutiCenter, drawToutiSeats, fillToutiTable, story, thisDeal } from "./touti-table.js";
import { applyToutiWords, tt } from "./touti-i18n.js";

const game = decodeURIComponent(location.pathname.split("/").pop()).toUpperCase();
const $ = (id) => document.getElementById(id);
let data = null;
let info = null;
let i = 0;
let playing = false;
// Steps are drawn one after the other, each move's motion finished before the next.
const queue = pacer();

const touti = () => data.kind === "touti";

/** Draw step ``n``; one step forward is animated. */
function show(n) {
  const to = Math.max(0, Math.min(n, data.frames.length - 1));
  return queue(() => draw(to));
}

/** The header names the game replayed, in the page's language. */
function drawName() {
  $("game-name").textContent = gameName(data.rules ?? data.kind ?? "chkobba");
}

function draw(to) {
  drawName();
  const forward = to === i + 1;
  const snap = forward ? (touti() ? snapshot([document.querySelector(".touti-table")]) : stepSnapshot()) : null;
  const prev = data.frames[i];
  i = to;
  const f = data.frames[i];
  $("slider").value = i;
  $("step").textContent = t("step", { i: i + 1, n: data.frames.length });
  if (touti()) drawTouti(f);
  else {
    drawStep(data, f);
    drawEnd(f);
  }
  document.body.dataset.step = i;
  if (!snap) return undefined;
  if (touti()) return toutiMove({ prev, view: { ...f, log: f.events }, snap });
  return stepMotion(data, f, snap);
}

/** The breakdown of a round of the Chkobba family, under the table at its end; at the
 * last step of a game that was not played out, how it ended (resigned, out of time,
 * abandoned). */
function drawEnd(f) {
  const end = $("end");
  const ending = i === data.frames.length - 1 ? endingWords() : null;
  end.classList.toggle("hidden", !f.end && !ending);
  if (!f.end && !ending) return;
  const p = players(data);
  end.replaceChildren(
    ...(ending ? [el("h2", { id: "ending", text: ending })] : []),
    ...(f.end ? [
      el("h2", { text: t("round_over", { n: f.round }) }),
      ...endNotes(f.end, p, data.side_of).map((s) => el("p", { class: "note", text: s })),
      breakdownTable(f.end, p, data.side_of, info?.points, data.points),
    ] : []),
  );
}

/** How a game that was not played out ended, and who won: "Selma resigned · Hedi wins",
 * "Selma: out of time · Hedi wins" (ending.js); null for a game played out. */
function endingWords() {
  const p = players(data);
  const side = (s) => (touti() ? tt("team", { a: data.names[s], b: data.names[s + 2] }) : sideName(p, data.side_of, s));
  return endingLine(data, side, word);
}

/** The story of the game up to step ``n``: every event its moves added. */
function storyTo(n) {
  return data.frames.slice(0, n + 1).flatMap((f) => f.events);
}

function drawTouti(f) {
  const names = data.names;
  const team = (k) => tt("team", { a: names[k], b: names[k + 2] });
  $("t-score").textContent = tt("score", {
    a: team(0), ta: f.totals[0], b: team(1), tb: f.totals[1], target: data.target, deal: f.deal,
  });
  const log = storyTo(i);
  drawToutiSeats(f, names, { me: 0, hands: f.hands });
  drawToutiCenter(f, names, team, f.note === "end" ? [] : thisDeal(log));
  const said = f.note === "deal"
    ? tt("bidding_deals", { name: names[f.dealer] })
    : f.events.map((e) => story(e, names, team, -1)).join(" · ");
  const atEnd = i === data.frames.length - 1;
  const last = atEnd && data.winner !== null && data.winner !== undefined;
  const ending = atEnd ? endingWords() : null;
  $("t-what").textContent = ending ? `${said} · ${ending}` : last ? `${said} · ${tt("win", { team: team(data.winner) })}` : said;
  $("t-log").replaceChildren(...log.slice(-8).map((e) => el("li", { text: story(e, names, team, -1), "data-kind": e.kind })));
  $("end").classList.add("hidden");
}

async function toggle() {
  if (playing) {
    playing = false;
    $("play").textContent = t("autoplay");
    return;
  }
  playing = true;
  $("play").textContent = t("pause");
  while (playing && i < data.frames.length - 1) {
    await show(i + 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  if (playing) toggle();
}

async function main() {
  setupHeader();
  $("code").textContent = game;
  try {
    [data, info] = await Promise.all([api(`/api/games/${game}/replay`), api("/api/info")]);
  } catch (e) {
    // Not over yet (or no such game): the link to follow it, on its own game's page.
    const summary = await api(`/api/games/${game}`).catch(() => null);
    const page = summary?.game_name === "touti" ? "/touti" : "/g";
    $("error").replaceChildren(el("span", { text: `${e.message} ` }), el("a", { href: `${page}/${game}`, text: t("watch") }));
    return;
  }
  if (data.deck) setGameDeck(data.deck);
  $("replay").classList.remove("hidden");
  $("board").classList.toggle("hidden", touti());
  $("touti-board").classList.toggle("hidden", !touti());
  if (touti()) {
    fillToutiTable(document.querySelector(".touti-table"));
    applyToutiWords();
  }
  $("slider").max = data.frames.length - 1;
  $("download-link").href = `/api/games/${game}/record`;
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(i - 1));
  $("next").addEventListener("click", () => show(i + 1));
  $("last").addEventListener("click", () => show(data.frames.length - 1));
  $("play").addEventListener("click", toggle);
  $("slider").addEventListener("input", () => show(Number($("slider").value)));
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type === "range") return; // the slider steps itself
    const rtl = document.documentElement.dir === "rtl";
    if (e.key === "ArrowRight") show(i + (rtl ? -1 : 1));
    if (e.key === "ArrowLeft") show(i + (rtl ? 1 : -1));
  });
  onLangChange(() => {
    if (touti()) applyToutiWords();
    queue(() => draw(i));
  });
  onDeckChange(() => queue(() => draw(i)));
  document.body.dataset.kind = data.kind ?? "chkobba";
  document.body.dataset.ready = "1";
  show(0);
}

main();
