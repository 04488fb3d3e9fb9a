// The lobby: Play now and challenges (playnow.js), a game against the computer, an online room, joining by code, the lists.
import { t, bidiSafe, gameLine, gameName, isolate, levelName, onLangChange, word } from "./i18n.js";
import { api, saveToken, seatName, setupHeader, sideName, el } from "./common.js";
import { aw } from "./account-i18n.js";
import { setupPlayNow, refreshPlayNow } from "./playnow.js";
import { endingWords, sidesOf } from "./ending.js";

let info = null;

const TOUTI = "touti";

// The preset chosen in a form (every preset of the Chkobba family, or Touti), and what it allows.
function presetOf(prefix) {
  const name = document.getElementById(`${prefix}-rules`).value || "chkobba";
  if (name === TOUTI) return info.games.touti.rules.touti;
  const sets = info.games?.chkobba?.rules;
  return sets?.[name] ?? { seatings: info.seatings, targets: info.targets, target: 21 };
}

/** The game a form's choice plays: Touti, or the Chkobba family's engine. */
function gameOf(prefix) {
  return document.getElementById(`${prefix}-rules`).value === TOUTI ? TOUTI : "chkobba";
}

/** The computer players of the game chosen in the form against the computer. */
function fillLevels() {
  const level = document.getElementById("c-level");
  const played = info.games?.[gameOf("c")];
  const levels = played?.levels ?? info.levels;
  if ([...level.options].map((o) => o.value).join() === levels.join()) return;
  level.replaceChildren(...levels.map((l) => el("option", { value: l, text: levelName(l) })));
  level.value = gameOf("c") === TOUTI ? played.level : levels.includes("medium") ? "medium" : levels[0];
}

/** The form's link to the rules page of the game chosen, and its line saying what it is. */
function rulesLink(prefix) {
  const name = document.getElementById(`${prefix}-rules`).value || "chkobba";
  document.getElementById(`${prefix}-rules-link`).href = `/rules/${encodeURIComponent(name)}`;
  document.getElementById(`${prefix}-game-line`).textContent = gameLine(name);
}

function fillForm(prefix) {
  const p = presetOf(prefix);
  const seating = document.getElementById(`${prefix}-seating`);
  const sv = seating.value;
  seating.replaceChildren(...p.seatings.map((s) => el("option", { value: s, text: t(`seating_${s}`) })));
  seating.value = p.seatings.includes(sv) ? sv : p.seatings[0];
  const target = document.getElementById(`${prefix}-target`);
  const tv = Number(target.value);
  target.replaceChildren(...p.targets.map((n) => el("option", { value: n, text: `${n} ${t("points")}` })));
  target.value = p.targets.includes(tv) ? tv : p.target;
  rulesLink(prefix);
  if (prefix === "c") fillLevels();
  if (prefix === "r") freeTalkRow();
}

/** The room's "partners may write freely" box, offered only for a table of partners. */
function freeTalkRow() {
  const teams = document.getElementById("r-seating").value.includes("v");
  document.getElementById("r-free-talk-row").classList.toggle("hidden", !teams);
}

function fillSelects() {
  for (const sel of document.querySelectorAll("select.rules")) {
    const v = sel.value;
    const names = Object.keys(info.games?.chkobba?.rules ?? { chkobba: null });
    if (info.games?.touti) names.push(TOUTI);
    // Each game by its proper name in the page's language ("Scopa di quindici").
    sel.replaceChildren(...names.map((n) => el("option", { value: n, text: gameName(n) })));
    // A rules page's "Play it" names its game: /?rules=NAME.
    const asked = new URLSearchParams(location.search).get("rules");
    sel.value = v || (names.includes(asked) ? asked : "chkobba");
  }
  const level = document.getElementById("c-level");
  const v = level.value;
  level.replaceChildren();
  for (const prefix of ["c", "r"]) fillForm(prefix);
  // The level names are in the page's language: drawn again, the choice kept.
  if ([...level.options].some((o) => o.value === v)) level.value = v;
  // The room settings' times, in seconds, in the page's language.
  for (const sel of document.querySelectorAll("select.seconds")) {
    const was = sel.value || sel.dataset.default;
    sel.replaceChildren(...sel.dataset.choices.split(" ").map((n) =>
      el("option", { value: n, text: n === "none" ? t("no_clock") : t("seconds", { n }) })));
    sel.value = was;
  }
}

function remember(name) {
  if (name) localStorage.setItem("chkobba.name", name);
}

async function create(mode, prefix) {
  const err = document.getElementById(`${prefix}-error`);
  err.textContent = "";
  const name = document.getElementById(`${prefix}-name`).value.trim();
  const body = {
    mode,
    name,
    rules: document.getElementById(`${prefix}-rules`).value,
    seating: document.getElementById(`${prefix}-seating`).value,
    target: Number(document.getElementById(`${prefix}-target`).value),
  };
  if (gameOf(prefix) === TOUTI) {
    body.game = TOUTI;
    delete body.rules;
  }
  if (mode === "computer") body.level = document.getElementById("c-level").value;
  // The room's settings (docs/protocol.md, "Room settings").
  body.unlisted = document.getElementById(`${prefix}-unlisted`).checked;
  if (mode === "room") {
    body.grace = Number(document.getElementById("r-grace").value);
    const clock = document.getElementById("r-clock").value;
    if (clock !== "none") body.clock = Number(clock);
    body.coaching = document.getElementById("r-coaching").checked;
    // Partners' free text while they play (docs/protocol.md, "Room settings"): quick
    // phrases only unless the creator of a casual room allows it.
    if (!document.getElementById("r-free-talk-row").classList.contains("hidden") && document.getElementById("r-free-talk").checked) {
      body.team_talk = "free";
    }
    // A rated game (docs/ratings.md): the server says why not, if it cannot be.
    if (document.getElementById("r-rated").checked) body.rated = true;
  }
  try {
    const r = await api("/api/games", body);
    if (!signedIn) remember(name);
    saveToken(r.game, r.token);
    // Touti's page keeps its seat token under its own key.
    if (body.game === TOUTI) localStorage.setItem(`touti.token.${r.game}`, r.token);
    location.href = r.url;
  } catch (e) {
    err.textContent = `${t("error")}: ${e.message}`;
  }
}

async function join() {
  const code = document.getElementById("j-code").value.trim().toUpperCase();
  const err = document.getElementById("j-error");
  err.textContent = "";
  if (!code) return;
  try {
    const summary = await api(`/api/games/${encodeURIComponent(code)}`);
    location.href = summary.game_name === TOUTI ? `/touti/${code}` : `/g/${code}`;
  } catch {
    err.textContent = t("not_found");
  }
}

/** A finished game in the lobby's list: its players, its score, how it ended if it was
 * not played out ("Selma: out of time"), and the link to its replay. */
function finishedRow(g) {
  const seats = g.names.map((name, seat) => ({ seat, name: g.computer[seat] ? null : name, computer: g.computer[seat] }));
  const side = (k) => sideName(seats, sidesOf(g.seats, g.teams), k);
  const ending = endingWords(g, side, word);
  return el("li", { "data-game": g.game }, el("span", { class: "grow", text: g.names.map((n, i) => bidiSafe(seatName(seats, i))).join(" · ") }),
    ...(ending ? [el("span", { class: "ending", text: ending })] : []),
    el("span", { text: isolate((g.totals || []).join("–")) }),
    el("a", { href: `/replay/${g.game}`, class: "replay-link", text: t("replay") }));
}

async function lists() {
  const playing = document.getElementById("playing");
  const finished = document.getElementById("finished");
  try {
    const [p, f] = await Promise.all([api("/api/games?status=playing"), api("/api/games?status=finished&limit=20")]);
    playing.replaceChildren(
      ...p.games.map((g) =>
        el("li", {}, el("span", { class: "grow", text: `${gameName(g.rules ?? g.game_name)}: ${g.players.map((x) => bidiSafe(seatName(g.players, x.seat))).join(" · ")}` }),
          el("span", { text: isolate(g.totals.join("–")) }), el("a", { href: `${g.game_name === TOUTI ? "/touti" : "/g"}/${g.game}`, text: t("watch") }))),
    );
    finished.replaceChildren(...f.games.map(finishedRow));
    if (!p.games.length) playing.replaceChildren(el("li", { text: t("none_yet") }));
    if (!f.games.length) finished.replaceChildren(el("li", { text: t("none_yet") }));
  } catch (e) {
    finished.replaceChildren(el("li", { text: `${t("error")}: ${e.message}` }));
  }
}

let signedIn = null;

/** The header's link to the account page: the account's name, or "Log in". A signed-in
 * player plays under the account's name, which the forms show and do not let change. */
async function accountLink() {
  try {
    const r = await api("/api/account/session");
    signedIn = r.signed_in ? r.account.name : null;
  } catch {
    signedIn = null;
  }
  const link = document.getElementById("account-link");
  link.textContent = signedIn ?? aw("log_in");
  link.title = aw("account");
  for (const id of ["c-name", "r-name", "p-name"]) {
    const input = document.getElementById(id);
    if (signedIn) input.value = signedIn;
    input.readOnly = Boolean(signedIn);
  }
}

async function main() {
  setupHeader();
  const saved = localStorage.getItem("chkobba.name") || "";
  for (const id of ["c-name", "r-name", "p-name"]) document.getElementById(id).value = saved;
  await accountLink();
  info = await api("/api/info");
  fillSelects();
  onLangChange(() => { fillSelects(); lists(); accountLink().then(refreshPlayNow); ratingWords(); });
  ratingWords();
  for (const prefix of ["c", "r"]) {
    document.getElementById(`${prefix}-rules`).addEventListener("change", () => fillForm(prefix));
  }
  document.getElementById("r-seating").addEventListener("change", freeTalkRow);
  document.getElementById("c-start").addEventListener("click", () => create("computer", "c"));
  document.getElementById("r-create").addEventListener("click", () => create("room", "r"));
  document.getElementById("j-go").addEventListener("click", join);
  document.getElementById("j-code").addEventListener("keydown", (e) => { if (e.key === "Enter") join(); });
  await setupPlayNow({ info, signedIn: () => Boolean(signedIn) });
  document.body.dataset.ready = "1";
  lists();
}

main();

/** The ratings' words of the lobby (its leaderboard link, the room's "rated" box). */
function ratingWords() {
  for (const node of document.querySelectorAll("[data-rt]")) node.textContent = word("ratings", node.dataset.rt);
}
