// The account page: sign up or log in; signed in, the account's games, its sessions,
// its password, its passkeys, its data and its deletion (docs/web.md, "Accounts").
// Every name is put in with textContent, never as HTML.
import { onLangChange, word } from "./i18n.js";
import { api, el, setupHeader } from "./common.js";
import { aw, applyAccountWords } from "./account-i18n.js";
import { addPasskey, autofillSupported, listPasskeys, logInWithPasskey, passkeyState, removePasskey } from "./passkeys.js";

const $ = (id) => document.getElementById(id);
let me = null;
let passkeys = [];
let autofill = null; // the pending passkey request of the name field's suggestions: { stop, done }

function fail(id, e) {
  if (e.name === "NotAllowedError" || e.name === "AbortError") {
    // The browser's passkey prompt was cancelled, timed out, or found no passkey.
    $(id).textContent = aw("passkey_cancelled");
    return;
  }
  const wait = e.retryAfter ? ` (${e.retryAfter} s)` : "";
  $(id).textContent = `${aw("error")}: ${e.message}${wait}`;
}

function gameItem(g) {
  const status = `${g.rules} · ${aw(`status_${g.status}`)}${g.private ? ` · ${aw("private_game")}` : ""}`;
  const links = [el("a", { href: g.url, text: aw("open") })];
  if (g.replay) links.push(el("a", { href: g.replay, text: aw("replay") }));
  return el("li", { "data-game": g.game }, el("span", { class: "grow", text: `${g.game} — ${status}` }), ...links);
}

function when(iso) {
  return new Date(iso).toLocaleDateString(document.documentElement.lang || undefined);
}

function passkeyItem(p) {
  const used = p.last_used ? aw("passkey_used_on", { date: when(p.last_used) }) : aw("passkey_never_used");
  const remove = el("button", { type: "button", class: "secondary", text: aw("remove") });
  remove.addEventListener("click", async () => {
    if (!window.confirm(aw("passkey_remove_confirm", { name: p.name }))) return;
    try {
      await removePasskey(p.id);
      await loadPasskeys();
    } catch (e) { fail("k-error", e); }
  });
  const about = `${p.name} — ${aw("passkey_added_on", { date: when(p.created) })} · ${used}`;
  return el("li", { "data-passkey": String(p.id) }, el("span", { class: "grow", text: about }), remove);
}

function renderPasskeys() {
  const items = passkeys.map(passkeyItem);
  $("passkeys").replaceChildren(...(items.length ? items : [el("li", { text: aw("no_passkeys") })]));
}

async function loadPasskeys() {
  passkeys = me ? await listPasskeys() : [];
  renderPasskeys();
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
  // A moderator's way to the reported chat messages (docs/play.md, "Chat and moderation").
  $("moderation-link").classList.toggle("hidden", !me.moderator);
  $("moderation-link").textContent = word("chat", "reports");
  const games = me.games.map(gameItem);
  $("games").replaceChildren(...(games.length ? games : [el("li", { text: aw("no_games") })]));
  renderPasskeys();
}

/** Offer the site's passkeys among the user name field's suggestions while signed out: a
 * pending request, which the browser resolves when one is chosen. */
async function offerAutofill() {
  if (me || autofill) return;
  const entry = { stop: new AbortController(), done: Promise.resolve() };
  autofill = entry;
  if (!(await autofillSupported()) || entry.stop.signal.aborted) {
    if (autofill === entry) autofill = null;
    return;
  }
  entry.done = logInWithPasskey("", entry.stop.signal)
    .then(() => load())
    .catch((e) => {
      // Stopped (for the button, or signed in otherwise) or never chosen: nothing to say.
      // A passkey chosen and refused by the server: say why.
      if (e.answered) fail("l-error", e);
    })
    .finally(() => { if (autofill === entry) autofill = null; });
}

/** Stop the suggestions' pending request (a page may hold one request at a time). */
async function stopAutofill() {
  const pending = autofill;
  autofill = null;
  if (!pending) return;
  pending.stop.abort();
  await pending.done;
}

async function load() {
  const r = await fetch("/api/account/session");
  const data = await r.json();
  me = data.signed_in ? await api("/api/account") : null;
  passkeys = me ? await listPasskeys() : [];
  render();
  document.body.dataset.ready = "1";
  document.body.dataset.signedIn = me ? "1" : "0";
  if (me) stopAutofill();
  else offerAutofill();
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
  const state = passkeyState();
  for (const node of document.querySelectorAll(".passkey-only")) node.classList.toggle("hidden", state !== "ok");
  for (const node of document.querySelectorAll(".passkey-none")) {
    node.classList.toggle("hidden", state === "ok");
    node.dataset.aw = state === "address" ? "passkey_needs_name" : "passkey_unsupported";
  }
  $("l-passkey").addEventListener("click", async () => {
    $("l-error").textContent = "";
    await stopAutofill();
    try {
      await logInWithPasskey($("l-name").value.trim());
      await load();
    } catch (e) { fail("l-error", e); }
  });
  onSubmit("passkey-form", async () => {
    $("k-error").textContent = "";
    $("k-done").textContent = "";
    try {
      await addPasskey($("k-name").value.trim(), $("k-password").value);
      $("k-name").value = "";
      $("k-password").value = "";
      $("k-done").textContent = aw("passkey_added");
      await loadPasskeys();
    } catch (e) { fail("k-error", e); }
  });
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
