// The moderators' page (docs/play.md, "Chat and moderation"): the reported chat messages,
// each with its author; close a report, silence its author or let them chat again. Every
// message is written with textContent: what was reported is shown as the text it is.
import { mountLangPicker, onLangChange, word } from "./i18n.js";
import { api, el } from "./common.js";

const $ = (id) => document.getElementById(id);
const cw = (key, vars = {}) => word("chat", key, vars);
let reports = null;
let refused = false;

async function load() {
  try {
    reports = (await api("/api/moderation/reports")).reports;
    refused = false;
  } catch (e) {
    reports = [];
    refused = e.status === 401 || e.status === 403;
    if (!refused) $("error").textContent = e.message;
  }
  document.body.dataset.ready = "1";
  draw();
}

async function act(path, body) {
  try {
    await api(path, body);
    $("error").textContent = "";
  } catch (e) {
    $("error").textContent = e.message;
  }
  await load();
}

function item(r) {
  const m = r.message;
  const said = m.phrase ? cw(`phrase_${m.phrase}`) : m.text;
  const text = el("q", { class: "report-text", text: said });
  text.dir = "auto";
  const game = el("a", { href: `/g/${encodeURIComponent(m.game)}`, text: cw("in_game", { game: m.game }) });
  const row = el("li", { class: "report", "data-report": String(r.id) },
    el("strong", { text: m.name }), ": ", text,
    el("p", { class: "info", text: `${cw("reported_by", { name: r.reporter })}${r.reason ? ` — ${r.reason}` : ""} · ${new Date(r.at).toLocaleString()}` }),
    game, " ");
  if (r.account) {
    const silence = el("button", { type: "button", class: "secondary", text: cw(r.silenced ? "unsilence" : "silence", { name: r.account }) });
    silence.addEventListener("click", () => act("/api/moderation/silence", { name: r.account, silenced: !r.silenced }));
    row.append(silence, " ");
  }
  const close = el("button", { type: "button", text: cw("close_report") });
  close.addEventListener("click", () => act(`/api/moderation/reports/${r.id}/close`, {}));
  row.append(close);
  return row;
}

function draw() {
  document.title = cw("moderation");
  $("mod-title").textContent = cw("moderation");
  $("reports-title").textContent = cw("reports");
  if (reports === null) return;
  $("reports-empty").textContent = refused ? cw("not_moderator") : reports.length ? "" : cw("no_reports");
  $("reports").replaceChildren(...reports.map(item));
}

mountLangPicker($("lang"));
onLangChange(draw);
load();
