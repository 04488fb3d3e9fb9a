"""The docs' command examples print what the docs show (issue 25: docs/duel.md showed
results its commands no longer printed).

Each checked block (``tests/docs_examples.py``) must read as ``tests/regen_docs.py``
last wrote it, and each command, run at a small size, must still print what it printed
then: a change of behaviour fails here until the script is run again and the docs'
new figures are reviewed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from docs_examples import DOCS, FIXTURE, examples, masked, run, small


def fixture() -> dict[str, dict[str, Any]]:
    data: dict[str, dict[str, Any]] = json.loads(FIXTURE.read_text())
    return data


def test_every_checked_block_reads_as_regenerated() -> None:
    data = fixture()
    assert set(data) == set(DOCS)
    for doc in DOCS:
        found = examples(doc)
        assert found, f"{doc} has no checked example"
        assert {ex.command for ex in found} == set(data[doc]), (
            f"{doc}: its examples and tests/data/docs_examples.json differ: "
            "run python tests/regen_docs.py"
        )
        for ex in found:
            assert masked(ex.output) == data[doc][ex.command]["full"], (
                f"{doc}: the output shown for `{ex.command}` is not what it printed: "
                "run python tests/regen_docs.py"
            )


CASES = [(doc, cmd, entry) for doc, entries in fixture().items() for cmd, entry in entries.items()]


@pytest.mark.parametrize(("doc", "command", "entry"), CASES, ids=[c[1] for c in CASES])
def test_each_example_at_a_small_size_prints_what_it_printed(
    doc: str, command: str, entry: dict[str, str]
) -> None:
    assert entry["small_command"] == small(command)
    assert masked(run(entry["small_command"])) == entry["small"], (
        f"{doc}: `{entry['small_command']}` prints something else now: the example's "
        "figures in the document are stale; run python tests/regen_docs.py and review them"
    )
