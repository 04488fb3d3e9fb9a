"""Records made before a change of the Touti engine verify exactly as they did then
(tests/data/touti/records/README.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from chkobba.cli import main

RECORDS = Path(__file__).parent / "data" / "touti" / "records"
CASES = sorted(p for p in RECORDS.glob("*.json") if not p.name.endswith(".expected.json"))


def test_there_are_old_records() -> None:
    assert len(CASES) >= 7


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_an_old_record_verifies_as_before(path: Path) -> None:
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    r = CliRunner().invoke(main, ["verify", "--json", str(path)])
    assert r.exit_code == 0, r.output
    got = json.loads(r.output)
    # An unfinished last deal is listed now, marked; every finished deal is as it was.
    finished = [d for d in got["deals"] if not d.get("unfinished")]
    assert {**got, "deals": finished} == expected
