"""The Chkobba terminal game reads any typed text without crashing."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from chkobba.cli import main


def test_non_ascii_digits_are_explained_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    r = CliRunner().invoke(
        main,
        ["play", "--seed", "1", "--opponent", "random", "--save", str(path)],
        input="²\nq\ny\n",
    )
    assert r.exit_code == 0, r.output
    assert "malformed" in r.output and path.exists()
