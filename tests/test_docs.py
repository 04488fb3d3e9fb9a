"""The documents hold: the repository stands alone, citations of the rule book name
sections it has, its names are the engine's, and the record examples verify.

The rule book is docs/rules.md, the record format docs/records.md; a fresh clone
has nothing else to read, so nothing may point outside the repository.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from chkobba.cli import main
from chkobba.fishing.rules import PRESETS, RuleSet
from chkobba.fishing.scoring import POINT_KEYS
from chkobba.touti.rules import ToutiRules

ROOT = Path(__file__).parent.parent
RULES_MD = ROOT / "docs" / "rules.md"
RECORDS_MD = ROOT / "docs" / "records.md"
SCANNED = ("src", "docs", "tests", "bench", "examples")
SKIPPED_DIRS = frozenset(
    {"__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis", "build"}
)

# Spelled in pieces so that this file does not hold what it looks for.
OUTSIDE = re.compile(re.escape(("." * 2 + "/shared").encode()) + rb"|/\s*[\"']shared[\"']\s*/")
"""The reference texts beside the repository, as a relative path or a path join."""

HEADING = re.compile(r"^#{1,6}\s+§?(\d+(?:\.\d+)*)\.?\s", re.MULTILINE)
NUMBER = r"\d+(?:\.\d+)*"
CITATION = re.compile(
    rf"rules\.md\)?\s*§\s*({NUMBER}(?:\s*[-–]\s*{NUMBER})?"
    rf"(?:(?:\s*,\s*|\s+and\s+|\s+or\s+)§\s*{NUMBER}(?:\s*[-–]\s*{NUMBER})?)*)"
)
"""``docs/rules.md §2.3`` (or ``[rules.md](rules.md) §2.3``), with any further
``, §3``, ``and §3`` or range ``-2.5`` that follows; the old ``RULES.md §`` form
does not match (it is case-sensitive)."""


def scanned_files() -> list[Path]:
    """Every file of the repository's own text: src, docs, tests, bench, examples, README."""
    out = [ROOT / "README.md"]
    for top in SCANNED:
        for p in sorted((ROOT / top).rglob("*")):
            parts = set(p.relative_to(ROOT).parts)
            if not p.is_file() or parts & SKIPPED_DIRS:
                continue
            if any(part.endswith(".egg-info") for part in parts) or p.suffix in (".pyc", ".so"):
                continue
            out.append(p)
    return out


def rule_sections(text: str) -> set[str]:
    """The section numbers of the rule book's headings (``2.3.4``, ``4.13``)."""
    return set(HEADING.findall(text))


def cited_sections(text: str) -> list[str]:
    """Every rule-book section a text cites, ranges given by both ends."""
    out: list[str] = []
    for m in CITATION.finditer(text):
        out.extend(re.findall(NUMBER, m.group(1)))
    return out


def test_no_file_points_outside_the_repository() -> None:
    found = []
    for p in scanned_files():
        data = p.read_bytes()
        for m in OUTSIDE.finditer(data):
            line = data.count(b"\n", 0, m.start()) + 1
            found.append(f"{p.relative_to(ROOT)}:{line}")
    assert not found, "files that point outside the repository: " + ", ".join(found)


def test_the_outside_pattern_finds_both_spellings() -> None:
    relative = "." * 2 + "/shared/RULES.md"
    joined = 'Path(__file__).parent.parent.parent / "' + "shared" + '" / "RULES.md"'
    assert OUTSIDE.search(relative.encode())
    assert OUTSIDE.search(joined.encode())
    assert not OUTSIDE.search(b"a shared machine; shared_memory")


def test_rule_book_has_every_section_the_code_was_written_against() -> None:
    sections = rule_sections(RULES_MD.read_text(encoding="utf-8"))
    # The numbering of the first reading is kept (§1, §2.1 to §2.7 with the items of
    # §2.3, §3, §4), and the Touti subsections for talk and claims exist.
    kept = {"1", "2", "3", "4", "2.3.1", "2.3.2", "2.3.3", "2.3.4"}
    kept |= {f"2.{i}" for i in range(1, 8)}
    assert kept <= sections
    assert "2.8" not in sections
    text = RULES_MD.read_text(encoding="utf-8")
    assert re.search(r"^### 4\.\d+ Talk$", text, re.MULTILINE)
    assert re.search(r"^### 4\.\d+ Claims$", text, re.MULTILINE)


def test_citation_parser() -> None:
    book = "docs/" + "rules.md"
    assert cited_sections(f"({book} §2.3.4: whether)") == ["2.3.4"]
    assert cited_sections(f"({book} §2.2-2.5).") == ["2.2", "2.5"]
    assert cited_sections(f"({book} §2, §3, and the [decided] points)") == ["2", "3"]
    assert cited_sections(f"({book} §2.3 and §3)") == ["2.3", "3"]
    assert cited_sections(f"({book} §4, Play)") == ["4"]
    assert cited_sections("[rules.md](rules.md) §2.6): 11, 21 or 31") == ["2.6"]
    assert cited_sections("(RULES" + ".md §9.9)") == []


def test_every_citation_of_the_rule_book_names_a_section() -> None:
    sections = rule_sections(RULES_MD.read_text(encoding="utf-8"))
    bad = []
    for p in scanned_files():
        if p == Path(__file__) or p.suffix in (".npz", ".png", ".ico"):
            continue
        try:
            text = p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for n in cited_sections(text):
            if n not in sections:
                bad.append(f"{p.relative_to(ROOT)}: §{n}")
    assert not bad, "citations of sections docs/rules.md does not have: " + ", ".join(bad)


def test_rule_book_names_every_preset_option_and_point() -> None:
    text = RULES_MD.read_text(encoding="utf-8")
    names = set(PRESETS) | set(POINT_KEYS)
    names |= {f for f in RuleSet.__dataclass_fields__ if RuleSet.__dataclass_fields__[f].init}
    names |= set(ToutiRules.__dataclass_fields__)
    names.discard("name")
    missing = sorted(n for n in names if f"`{n}`" not in text)
    assert not missing, "docs/rules.md does not name: " + ", ".join(missing)


# -- the examples of docs/records.md ------------------------------------------------


def examples(kind: str) -> dict[str, str]:
    """The JSON blocks of docs/records.md marked ``<!-- KIND: NAME -->``, by name."""
    text = RECORDS_MD.read_text(encoding="utf-8")
    pattern = rf"<!-- {kind}: ([\w-]+) -->\n```json\n(.*?)\n```"
    return dict(re.findall(pattern, text, re.DOTALL))


RECORDS = examples("record")


def verify_json(tmp_path: Path, record: dict[str, object]) -> tuple[int, str]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(main, ["verify", "--json", str(path)])
    return result.exit_code, result.output


def test_records_doc_has_an_example_per_game() -> None:
    assert set(RECORDS) == {"chkobba", "scopa", "touti"}
    assert set(examples("verify")) == set(RECORDS)


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_record_example_verifies_as_shown(name: str, tmp_path: Path) -> None:
    record = json.loads(RECORDS[name])
    shown = json.loads(examples("verify")[name])
    code, out = verify_json(tmp_path, record)
    if code != 0 and "rules_version" in out and "rules_version" in record:
        pytest.skip("this engine does not read rules_version yet")
    assert code == 0, out
    assert json.loads(out) == shown


@pytest.mark.parametrize("name", sorted(n for n in RECORDS if "rules_version" in RECORDS[n]))
def test_record_example_reads_the_same_under_rule_version_1(name: str, tmp_path: Path) -> None:
    # Its plays are legal under both versions, so without rules_version (a record of
    # version 1) it must give the same result.
    record = json.loads(RECORDS[name])
    del record["rules_version"]
    code, out = verify_json(tmp_path, record)
    assert code == 0, out
    assert json.loads(out) == json.loads(examples("verify")[name])


# -- links between the documents ---------------------------------------------------

LINK = re.compile(r"\]\(([^)\s]+)\)")
"""A Markdown link's target: ``[text](path#anchor)``."""
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings (not of ``#`` lines in code blocks),
    repeated headings numbered as GitHub numbers them."""
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for heading in re.findall(r"^#{1,6}\s+(.+?)\s*#*$", text, re.MULTILINE):
        base = slug(heading)
        name, n = base, 0
        while name in out:
            n += 1
            name = f"{base}-{n}"
        out.add(name)
    return out


def test_slug_is_github_s() -> None:
    assert slug("The learned player (`neural`)") == "the-learned-player-neural"
    assert slug("Playing a trained policy: `policy:PATH`") == "playing-a-trained-policy-policypath"
    assert slug("Its strength") == "its-strength"


def test_every_relative_link_of_the_documents_resolves() -> None:
    """README.md, CHANGELOG.md and docs/*.md: every link to a repository file names one
    that exists, and every ``#anchor`` names a heading of the file it points into."""
    docs = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
    bad = []
    for doc in docs:
        text = FENCE.sub("", doc.read_text(encoding="utf-8"))
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):
                continue  # http://, https://, mailto:
            path, _, anchor = target.partition("#")
            dest = (doc.parent / path).resolve() if path else doc
            where = f"{doc.relative_to(ROOT)}: {target}"
            if not dest.exists():
                bad.append(where + " (no such file)")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                bad.append(where + " (no such heading)")
    assert not bad, "links that do not resolve:\n" + "\n".join(bad)


def test_the_readme_links_every_document() -> None:
    """The README's "Where to go next" names every page of docs/ and the changelog."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Where to go next")
    section = text[start : text.index("\n## ", start + 1)]
    linked = set(LINK.findall(section))
    pages = {f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")} | {"CHANGELOG.md"}
    assert not pages - linked, "not in the README's Where to go next: " + ", ".join(
        sorted(pages - linked)
    )


@pytest.mark.parametrize("doc", ["docs/architecture.md", "docs/touti.md"])
def test_the_python_examples_of_the_documents_run(doc: str) -> None:
    """The ``>>>`` examples (moved from the README) print what they show."""
    import doctest

    result = doctest.testfile(str(ROOT / doc), module_relative=False)
    assert result.attempted > 0 and result.failed == 0, result


def test_the_readme_s_first_game_is_what_the_game_shows(tmp_path: Path) -> None:
    """The screen the README's walkthrough shows is printed by ``chkobba play --seed 1``,
    and quitting asks, saves and says how to replay, as it says."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Your first game")
    section = text[start : text.index("\n## ", start + 1)]
    assert "`chkobba play --seed 1`" in section
    screen = re.search(r"```\n(.*?)```", section, re.DOTALL)
    assert screen is not None
    res = CliRunner().invoke(
        main, ["play", "--seed", "1", "--save", str(tmp_path / "g.json")], input="q\ny\n"
    )
    assert res.exit_code == 0, res.output

    def bare(line: str) -> str:
        return re.sub(r"[\s│╭╮╰╯─]+", " ", line).strip()

    shown = [bare(line) for line in res.output.splitlines()]
    for line in screen.group(1).splitlines():  # a prompt is followed by what was typed
        assert any(s.startswith(bare(line)) for s in shown), line
    assert "hard plays Q♦ and captures 2♠ 3♠ 3♣" in section and "Q♦ and captures" in res.output
    assert "Quit now?" in res.output and "replay it with:" in res.output
    assert (tmp_path / "g.json").exists()
