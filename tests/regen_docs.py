"""Run the docs' checked command examples again and rewrite their outputs.

    .venv/bin/python tests/regen_docs.py

Every command in a block marked for checking (``tests/docs_examples.py``) is run as
written, its output written into the document, and run again at a small size; both
outputs go to ``tests/data/docs_examples.json``, which ``tests/test_docs_examples.py``
compares with. Review the diff of the documents (their figures changed with the
code) before committing it with the fixture.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from docs_examples import DOCS, FIXTURE, ROOT, examples, masked, replace_outputs, run, small


def main() -> None:
    fixture: dict[str, dict[str, Any]] = {}
    for doc in DOCS:
        outputs: dict[str, str] = {}
        entries: dict[str, Any] = {}
        for ex in examples(doc):
            if ex.command in outputs:
                continue
            t = time.monotonic()
            full = run(ex.command)
            cut = small(ex.command)
            outputs[ex.command] = full
            entries[ex.command] = {
                "full": masked(full),
                "small_command": cut,
                "small": masked(run(cut)),
            }
            print(f"{doc}: {ex.command} ({time.monotonic() - t:.0f} s)", file=sys.stderr)
        path = ROOT / doc
        path.write_text(replace_outputs(path.read_text(), outputs))
        fixture[doc] = entries
    FIXTURE.write_text(json.dumps(fixture, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {', '.join(DOCS)} and {FIXTURE.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
