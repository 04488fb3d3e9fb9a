// Step through a finished game: every hand shown, each round's breakdown at its end.
import { t, onLangChange } from "./i18n.js";
import { api, breakdownTable, cardsRow, describeMove, el, endNotes, setupHeader, sideName } from "./common.js";

const game = decodeURIComponent(location.pathname.split("/").pop()).toUpperCase();
const $ = (id) => document.getElementById(id);
let data = null;
let info = null;
let i = 0;
let timer = null;

function players() {
  return data.names.map((name, seat) => ({ seat, name, computer: null, taken: true }));
}

function show(n) {
  i = Math.max(0, Math.min(n, data.frames.length - 1));
  const f = data.frames[i];
  $("slider").value = i;
  $("step").textContent = t("step", { i: i + 1, n: data.frames.length });
  document.body.dataset.step = i;
  const p = players();
  $("scores").replaceChildren(
    ...f.totals.map((v, s) => el("span", { class: "score" }, `${sideName(p, data.side_of, s)}: `, el("b", { text: v }), ` / ${data.target}`,
      el("span", { class: "info", text: ` · ${t("pile")} ${f.piles[s]} ` }), el("span", { class: "marks", text: "★".repeat(f.chkobba[s]) }))),
    el("span", { class: "meta" }, el("span", { text: `${t("round")} ${f.round}` }), el("span", { text: `${t("stock")} ${f.stock}` })),
  );
  let what = "";
  if (f.note === "deal") what = t("deal", { n: f.round });
  else if (f.move) what = describeMove(f.move, p, data.points);
  if (f.note === "void") what += ` — ${t("void_deal")}`;
  $("what").textContent = what;
  $("table").querySelector(".cards").replaceWith(cardsRow(f.cut_card ? [] : f.table));
  $("hands").replaceChildren(
    ...f.hands.map((hand, seat) =>
      el("div", { class: `seat ${f.turn === seat && f.note !== "end" ? "turn" : ""}` },
        el("div", { class: "name", text: `${data.names[seat]}${f.dealer === seat ? ` · ${t("dealer")}` : ""}` }),
        cardsRow(seat === (f.dealer + 1) % data.seats && f.cut_card ? [f.cut_card] : hand, { small: true }))),
  );
  const end = $("end");
  if (f.end) {
    end.classList.remove("hidden");
    end.replaceChildren(
      el("h2", { text: t("round_over", { n: f.round }) }),
      ...endNotes(f.end, p, data.side_of).map((s) => el("p", { class: "note", text: s })),
      breakdownTable(f.end, p, data.side_of, info?.points, data.points),
    );
  } else {
    end.classList.add("hidden");
  }
}

function toggle() {
  if (timer) {
    clearInterval(timer);
    timer = null;
    $("play").textContent = t("autoplay");
    return;
  }
  $("play").textContent = t("pause");
  timer = setInterval(() => {
    if (i >= data.frames.length - 1) toggle();
    else show(i + 1);
  }, 700);
}

async function main() {
  setupHeader();
  $("code").textContent = game;
  try {
    [data, info] = await Promise.all([api(`/api/games/${game}/replay`), api("/api/info")]);
  } catch (e) {
    $("error").replaceChildren(el("span", { text: `${e.message} ` }), el("a", { href: `/g/${game}`, text: t("watch") }));
    return;
  }
  $("replay").classList.remove("hidden");
  $("slider").max = data.frames.length - 1;
  $("download-link").href = `/api/games/${game}/record`;
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(i - 1));
  $("next").addEventListener("click", () => show(i + 1));
  $("last").addEventListener("click", () => show(data.frames.length - 1));
  $("play").addEventListener("click", toggle);
  $("slider").addEventListener("input", () => show(Number($("slider").value)));
  document.addEventListener("keydown", (e) => {
    const rtl = document.documentElement.dir === "rtl";
    if (e.key === "ArrowRight") show(i + (rtl ? -1 : 1));
    if (e.key === "ArrowLeft") show(i + (rtl ? 1 : -1));
  });
  onLangChange(() => show(i));
  document.body.dataset.ready = "1";
  show(0);
}

main();
