// How a game that was not played out ended, in the page's words: one place for every page
// that shows it (the game's end banner, Touti's, the replay, the lobby's finished games,
// a profile's recent games), so that no page forgets one of the server's endings
// (docs/protocol.md: `ending` is `resigned`, `timeout` or `abandoned`; `resigned` names
// the side that resigned or ran out of time). Nothing here reads the page: the words come
// from the caller's ``word(section, key, vars)`` (i18n.js) and the sides' names from its
// ``side(k)``, so that it also runs in Node for the tests.

/** Every way the server ends a game without it being played out. */
export const ENDINGS = ["resigned", "timeout", "abandoned"];

/** How ``g`` (anything with ``ending`` and ``resigned``) ended without being played out:
 * "Selma resigned", "Selma: out of time", "Abandoned: nobody came back"; null for a game
 * played out (or still played). An ending this page does not know is shown as it is. */
export function endingWords(g, side, word) {
  switch (g.ending) {
    case null:
    case undefined:
    case "":
      return null;
    case "resigned":
      return word("page", "resigned_by", { name: side(g.resigned) });
    case "timeout":
      // A rated game's player out of time loses it (docs/ratings.md).
      return word("ratings", "out_of_time", { name: side(g.resigned) });
    case "abandoned":
      return word("page", "abandoned");
    default:
      return String(g.ending);
  }
}

/** The same with who won: "Selma resigned · Hedi wins" (an abandoned game has no winner;
 * with more than two sides, nobody is named the winner: "The match is over"). */
export function endingLine(g, side, word) {
  const how = endingWords(g, side, word);
  if (how === null || g.ending === "abandoned") return how;
  const won = g.winner === null || g.winner === undefined
    ? word("page", "game_over")
    : word("page", "winner", { name: side(g.winner) });
  return `${how} · ${won}`;
}

/** Each seat's side at a table of ``seats``: in teams, seats 0 and 2 against 1 and 3. */
export function sidesOf(seats, teams) {
  return Array.from({ length: seats }, (_, s) => (teams ? s % 2 : s));
}
