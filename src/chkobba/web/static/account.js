// The account page: sign up or log in; signed in, the account's games, its sessions,
// its password, its data and its deletion (docs/web.md, "Accounts").
// Every name is put in with textContent, never as HTML.
import { onLangChange, word } from "./i18n.js";
import { api, el, setupHeader } from "./common.js";
import { aw, applyAccountWords } from "./account-i18n.js";

const $ = (id) => document.getElementById(id);
let me = null;

function fail(id, e) {
  const wait = e.retryAfter ? ` (${e.retryAfter} s)` : "";
  $(id).textContent = `${aw("error")}: ${e.message}${wait}`;
}

function gameItem(g) {
  const status = `${g.rules} · ${aw(`status_${g.status}`)}${g.private ? ` · ${aw("private_game")}` : ""}`;
  const links = [el("a", { href: g.url, text: aw("open") })];
  if (g.replay) links.push(el("a", { href: g.replay, text: aw("replay") }));
  return el("li", { "data-game": g.game }, el("span", { class: "grow", text: `${g.game} — ${status}` }), ...links);
}

function render() {
  applyAccountWords();
  document.title = aw("account");
  $("signed-out").classList.toggle("hidden", Boolean(me));
  $("signed-in").classList.toggle("hidden", !me);
  if (!me) return;
  $("who").textContent = aw("signed_in_as", { name: me.account.name });
  // The public profile: ratings, their chart, the public games (docs/ratings.md).
  $("profile-link").href = `/u/${encodeURIComponent(me.account.name)}`;
  $("profile-link").textContent = word("ratings", "profile");
  const games = me.games.map(gameItem);
  $("games").replaceChildren(...(games.length ? games : [el("li", { text: aw("no_games") })]));
}

async function load() {
  const r = await fetch("/api/account/session");
  const data = await r.json();
  me = data.signed_in ? await api("/api/account") : null;
  render();
  document.body.dataset.ready = "1";
  document.body.dataset.signedIn = me ? "1" : "0";
}

function onSubmit(id, fn) {
  $(id).addEventListener("submit", async (event) => {
    event.preventDefault();
    await fn();
  });
}

function main() {
  setupHeader();
  onLangChange(render);
  onSubmit("login-form", async () => {
    $("l-error").textContent = "";
    try {
      await api("/api/account/login", { name: $("l-name").value.trim(), password: $("l-password").value });
      $("l-password").value = "";
      await load();
    } catch (e) { fail("l-error", e); }
  });
  onSubmit("signup-form", async () => {
    $("s-error").textContent = "";
    try {
      await api("/api/account/signup", { name: $("s-name").value.trim(), password: $("s-password").value });
      $("s-password").value = "";
      await load();
    } catch (e) { fail("s-error", e); }
  });
  $("logout").addEventListener("click", async () => {
    try { await api("/api/account/logout", {}); await load(); } catch (e) { fail("error", e); }
  });
  $("logout-all").addEventListener("click", async () => {
    try { await api("/api/account/logout-everywhere", {}); await load(); } catch (e) { fail("error", e); }
  });
  onSubmit("password-form", async () => {
    $("p-error").textContent = "";
    $("p-done").textContent = "";
    try {
      await api("/api/account/password", { password: $("p-old").value, new_password: $("p-new").value });
      $("p-old").value = "";
      $("p-new").value = "";
      $("p-done").textContent = aw("password_changed");
    } catch (e) { fail("p-error", e); }
  });
  onSubmit("delete-form", async () => {
    $("d-error").textContent = "";
    if (!window.confirm(aw("delete_confirm"))) return;
    try {
      await api("/api/account/delete", { password: $("d-password").value });
      $("d-password").value = "";
      await load();
    } catch (e) { fail("d-error", e); }
  });
  load().catch((e) => fail("error", e));
}

main();
