"""The command examples of the docs whose outputs are checked, so they cannot go stale.

A fenced block right after the line :data:`MARK` in a document of :data:`DOCS` holds
commands (lines starting ``$ chkobba``), each followed by the output it prints.
``python tests/regen_docs.py`` runs every such command as written and rewrites its
output in the document; it also runs the same command at a small size (:func:`small`:
``--pairs`` or ``--rounds`` cut down, one process) and keeps both outputs in
:data:`FIXTURE`. ``tests/test_docs_examples.py`` then checks that every block still
reads as the script wrote it and that the small commands still print what they printed,
so a change of behaviour shows as a failing test instead of a stale document.

The times per move change from run to run: :func:`masked` hides them before any
comparison. A ``--json`` command's output is shown indented (:func:`shown`).
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from chkobba.cli import main

ROOT = Path(__file__).parent.parent
DOCS = ("docs/duel.md",)
"""The documents whose marked blocks are checked."""
FIXTURE = Path(__file__).parent / "data" / "docs_examples.json"
MARK = "<!-- example: checked by tests/test_docs_examples.py; python tests/regen_docs.py -->"
SMALL = 20
"""``--pairs`` (and a tenth of ``--rounds``) of the small commands."""
_SIZE = re.compile(r"--(pairs|rounds) (\d+)")
_MS_LINE = re.compile(r"^(ms per move|ms/move):.*$", re.M)


@dataclass(frozen=True)
class Example:
    """One command of a checked block and the output the document shows for it."""

    doc: str
    command: str
    output: str


def blocks(text: str) -> list[tuple[int, int]]:
    """The line ranges [start, end) of the checked blocks' contents (inside the fences)."""
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines):
        if line.strip() == MARK:
            if i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
                raise ValueError(f"line {i + 2}: a checked example needs a fenced block")
            end = next(j for j in range(i + 2, len(lines)) if lines[j].startswith("```"))
            out.append((i + 2, end))
    return out


def examples(doc: str) -> list[Example]:
    """Every command of the checked blocks of ``doc``, with the output shown for it."""
    text = (ROOT / doc).read_text()
    lines = text.split("\n")
    out: list[Example] = []
    for start, end in blocks(text):
        command: str | None = None
        shown_lines: list[str] = []
        for line in [*lines[start:end], "$ "]:
            if line.startswith("$ "):
                if command is not None:
                    out.append(Example(doc, command, "\n".join(shown_lines).strip("\n")))
                command, shown_lines = line[2:].strip(), []
            else:
                shown_lines.append(line)
    return out


def run(command: str) -> str:
    """What ``command`` (``chkobba …``) prints, as the document shows it."""
    argv = shlex.split(command)
    if argv[0] != "chkobba":
        raise ValueError(f"not a chkobba command: {command}")
    result = CliRunner().invoke(main, argv[1:])
    if result.exit_code != 0:
        raise RuntimeError(f"{command} failed ({result.exit_code}): {result.output}")
    return shown(command, result.output)


def shown(command: str, output: str) -> str:
    """A command's output as a document shows it: ``--json`` indented, two spaces."""
    if "--json" in shlex.split(command):
        return json.dumps(json.loads(output), indent=2)
    return output.rstrip("\n")


def small(command: str) -> str:
    """The same command at a small size, in one process (results do not depend on it)."""

    def cut(m: re.Match[str]) -> str:
        n = SMALL if m.group(1) == "pairs" else SMALL * 10
        return f"--{m.group(1)} {min(int(m.group(2)), n)}"

    cut_down = _SIZE.sub(cut, command)
    parallel = shlex.split(command)[1] in ("duel", "tournament")
    return f"{cut_down} --jobs 1" if parallel and "--jobs" not in cut_down else cut_down


def masked(output: str) -> str:
    """``output`` without what changes from run to run: the times per move."""
    text = _MS_LINE.sub(r"\1: (times)", output)
    if text.lstrip().startswith("{"):
        data: Any = json.loads(text)
        if isinstance(data, dict) and "timing_ms" in data:
            for side in data["timing_ms"].values():
                for k in ("median_ms", "p95_ms"):
                    side[k] = "(time)"
        text = json.dumps(data, indent=2)
    return text


def replace_outputs(text: str, outputs: dict[str, str]) -> str:
    """``text`` with the output of every command of its checked blocks replaced."""
    lines = text.split("\n")
    for start, end in reversed(blocks(text)):
        new: list[str] = []
        for line in lines[start:end]:
            if line.startswith("$ "):
                if new:
                    new.append("")
                new.append(line)
                new.extend(outputs[line[2:].strip()].split("\n"))
        lines[start:end] = new
    return "\n".join(lines)
