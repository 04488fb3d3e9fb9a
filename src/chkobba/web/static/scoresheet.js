// The score sheet: every finished round of the match, point by point, as the players
// of a real table keep it on paper (and Board Game Arena shows it). Drawn from the
// state's `rounds` (each round's breakdown, docs/protocol.md) and the summary's
// `points` (the preset's points, in order), so it shows any preset's own points.
import { t } from "./i18n.js";
import { el, sideName } from "./common.js";

/** What side ``side`` scored for point ``key`` in a round's breakdown: a point that
 * goes to one side is that side's number (null: a tie, nobody); a point counted per
 * side (sweeps, declarations, napola…) is a list. */
export function pointsOf(round, key, side) {
  const v = round[key];
  if (Array.isArray(v)) return v[side] ?? 0;
  return v === side ? 1 : 0;
}

/** The heading of a point's column: its name in the game's words, and in Arabic
 * script for Chkobba's. */
function pointHead(p) {
  return el("th", { scope: "col", "data-point": p.key },
    el("span", { class: "translit", text: p.name }),
    ...(p.native ? [el("br"), el("span", { class: "arabic", lang: "ar", text: p.native })] : []));
}

/** The score sheet as a table: a group of rows per round (one row per side), a
 * column per point, the round's total and the match's running total; the last row
 * adds up every round. ``rounds`` the state's, ``points`` the summary's. */
export function scoreSheet(rounds, points, players, sideOf) {
  const sides = Math.max(1, ...sideOf.map((s) => s + 1));
  const sideList = [...Array(sides).keys()];
  const table = el("table", { class: "sheet" },
    el("caption", { text: t("sheet_caption") }),
    el("thead", {}, el("tr", {},
      el("th", { scope: "col", text: t("sheet_round") }),
      el("th", { scope: "col", text: t("sheet_side") }),
      ...points.map(pointHead),
      el("th", { scope: "col", text: t("sheet_round_total") }),
      el("th", { scope: "col", text: t("sheet_match_total") }))));
  const running = sideList.map(() => 0);
  const byPoint = points.map(() => sideList.map(() => 0));
  rounds.forEach((round, i) => {
    const body = el("tbody", { "data-round": String(i + 1) });
    for (const s of sideList) {
      const got = round.points?.[s] ?? 0;
      running[s] += got;
      const cells = points.map((p, j) => {
        const n = pointsOf(round, p.key, s);
        byPoint[j][s] += n;
        return el("td", { "data-point": p.key, class: n ? "scored" : "", text: String(n) });
      });
      body.append(el("tr", { "data-side": String(s) },
        ...(s === 0 ? [el("th", { scope: "rowgroup", rowSpan: sides, text: String(i + 1) })] : []),
        el("th", { scope: "row", text: sideName(players, sideOf, s) }),
        ...cells,
        el("td", { class: "sheet-round", text: String(got) }),
        el("td", { class: "sheet-match", text: String(running[s]) })));
    }
    table.append(body);
  });
  if (!rounds.length) {
    table.append(el("tbody", {}, el("tr", {},
      el("td", { colSpan: points.length + 4, text: t("sheet_empty") }))));
    return table;
  }
  const foot = el("tfoot");
  for (const s of sideList) {
    foot.append(el("tr", { "data-side": String(s) },
      ...(s === 0 ? [el("th", { scope: "rowgroup", rowSpan: sides, text: t("sheet_all") })] : []),
      el("th", { scope: "row", text: sideName(players, sideOf, s) }),
      ...points.map((p, j) => el("td", { "data-point": p.key, text: String(byPoint[j][s]) })),
      el("td", {}),
      el("td", { class: "sheet-match", text: String(running[s]) })));
  }
  table.append(foot);
  return table;
}

/** Touti's score sheet: a group of rows per deal (one per team) with its card points
 * (the last trick's 10 included, marked), its announcements, the contract (the bid, made
 * or not, on the declarer's team's row), the points scored and the running total.
 * ``rounds`` the state's finished deals (docs/protocol.md), ``teamName(t)`` a team's name. */
export function toutiSheet(rounds, teamName) {
  const head = ["sheet_deal", "sheet_team", "sheet_card_points", "sheet_cantos", "sheet_bid",
    "sheet_round_total", "sheet_match_total"];
  const table = el("table", { class: "sheet" },
    el("caption", { text: t("sheet_caption") }),
    el("thead", {}, el("tr", {}, ...head.map((k) => el("th", { scope: "col", text: t(k) })))));
  const running = [0, 0];
  rounds.forEach((deal, i) => {
    const body = el("tbody", { "data-round": String(i + 1) });
    const contract = deal.contract;
    for (const team of [0, 1]) {
      const got = deal.points?.[team] ?? 0;
      running[team] += got;
      const declaring = contract && contract.declarer % 2 === team;
      const bid = !contract ? (team === 0 ? t("sheet_no_contract") : "")
        : declaring ? `${contract.bid} · ${t(contract.made ? "sheet_made" : "sheet_failed")}` : "";
      const cards = contract
        ? `${deal.card_points[team]}${deal.last_trick === team ? ` (${t("sheet_last_trick")})` : ""}` : "–";
      body.append(el("tr", { "data-side": String(team) },
        ...(team === 0 ? [el("th", { scope: "rowgroup", rowSpan: 2, text: String(i + 1) })] : []),
        el("th", { scope: "row", text: teamName(team) }),
        el("td", { "data-point": "card_points", text: cards }),
        el("td", { "data-point": "cantos", text: contract ? String(deal.cantos[team]) : "–" }),
        el("td", { "data-point": "bid", text: bid }),
        el("td", { class: got ? "sheet-round scored" : "sheet-round", text: String(got) }),
        el("td", { class: "sheet-match", text: String(running[team]) })));
    }
    table.append(body);
  });
  if (!rounds.length) {
    table.append(el("tbody", {}, el("tr", {}, el("td", { colSpan: head.length, text: t("sheet_empty") }))));
  }
  return table;
}
