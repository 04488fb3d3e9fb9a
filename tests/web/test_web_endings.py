"""How a game that was not played out ended, named on every page that shows a game's end
(static/ending.js): the game's end banner, Touti's, the replay, the lobby's finished games
and a profile's recent games, in every language, for every ending the server stores
(``resigned``, ``timeout``, ``abandoned``). The words are made in Node from the real
catalogues (skipped where Node is not installed); the pages are checked to use them."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from chkobba.store.store import ENDINGS
from chkobba.words import LANGUAGES
from chkobba.words.catalogue import catalogue

STATIC = Path(__file__).resolve().parents[2] / "src" / "chkobba" / "web" / "static"
PAGES = ("game.js", "touti.js", "replay.js", "lobby.js", "ratings.js")
"""Every page script that shows how a game ended."""

SCRIPT = """
import { ENDINGS, endingLine, endingWords, sidesOf } from "%(module)s";

const catalogues = %(catalogues)s;
const out = { endings: ENDINGS, sides: [sidesOf(4, true), sidesOf(3, false)], words: {} };
for (const [lang, words] of Object.entries(catalogues)) {
  // No English stand-in here: a word missing from a catalogue is an error.
  const word = (section, key, vars = {}) => {
    const text = words[section]?.[key];
    if (text === undefined) throw new Error(`${lang}: no ${section}.${key}`);
    return text.replace(/\\{(\\w+)\\}/g, (_, k) => String(vars[k]));
  };
  const side = (k) => ["Selma", "Hedi"][k];
  out.words[lang] = {
    played_out: endingWords({ ending: null, resigned: null, winner: 1 }, side, word),
    unknown: endingWords({ ending: "struck_by_lightning", resigned: 0 }, side, word),
    three_sides: endingLine({ ending: "timeout", resigned: 2, winner: null }, (k) => `P${k}`, word),
  };
  for (const ending of ENDINGS) {
    const g = { ending, resigned: 0, winner: ending === "abandoned" ? null : 1 };
    const said = { words: endingWords(g, side, word), line: endingLine(g, side, word) };
    out.words[lang][ending] = said;
  }
}
console.log(JSON.stringify(out));
"""


def run_endings() -> dict[str, Any]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed: apt-get install nodejs")
    catalogues = {lang: catalogue(lang) for lang in LANGUAGES}
    script = SCRIPT % {
        "module": (STATIC / "ending.js").as_uri(),
        "catalogues": json.dumps(catalogues, ensure_ascii=False),
    }
    # The catalogues are too long for a command line: the script comes on stdin.
    done = subprocess.run(
        [node, "--input-type=module"],
        input=script, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def test_every_ending_is_named_in_every_language() -> None:
    out = run_endings()
    # The pages know every ending the server stores, and nothing else.
    assert tuple(out["endings"]) == ENDINGS
    assert out["sides"] == [[0, 1, 0, 1], [0, 1, 2]]
    for lang in LANGUAGES:
        said = out["words"][lang]
        assert said["played_out"] is None, lang
        assert said["unknown"] == "struck_by_lightning", lang
        texts = {ending: said[ending]["words"] for ending in ENDINGS}
        # Three different things, none a bare key.
        assert len(set(texts.values())) == 3, (lang, texts)
        for ending, text in texts.items():
            assert text and "{" not in text and "_" not in text, (lang, ending, text)
        # The side that resigned or ran out of time is named, and the winner after it.
        for ending in ("resigned", "timeout"):
            assert "Selma" in said[ending]["words"], (lang, ending)
            line = said[ending]["line"]
            assert line.startswith(said[ending]["words"]) and "Hedi" in line, (lang, line)
        assert said["abandoned"]["line"] == said["abandoned"]["words"]
        # With more than two sides nobody is named the winner.
        assert "P2" in said["three_sides"] and "P0" not in said["three_sides"], lang
    assert out["words"]["en"]["timeout"]["line"] == "Selma: out of time · Hedi wins"


@pytest.mark.parametrize("page", PAGES)
def test_every_page_names_its_endings_through_one_module(page: str) -> None:
    source = (STATIC / page).read_text(encoding="utf-8")
    assert re.search(r'import \{[^}]*\bending(Line|Words)\b[^}]*\} from "\./ending\.js"', source)
    assert re.search(r"\bending(Line|Words)\(", source)
    # No page picks its own words for one ending and forgets another.
    for ending in ENDINGS:
        assert f'ending === "{ending}"' not in source, (page, ending)
