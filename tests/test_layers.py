"""Imports only go down (docs/architecture.md): the import-linter contracts of pyproject.toml.

The contracts are checked on the package's import graph as it is, and each is shown to fail
on a wrong arrow added to a copy of that graph, so that a contract that checks nothing
cannot pass here.
"""

from __future__ import annotations

import copy
import re
import tomllib
from pathlib import Path
from typing import Any

import grimp
import pytest
from importlinter.configuration import configure
from importlinter.contracts.acyclic_siblings import AcyclicSiblingsContract
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.layers import LayersContract
from importlinter.domain.contract import Contract, ContractCheck

from chkobba._moved import MOVED

configure()  # import-linter's settings, which its contracts read

ROOT = Path(__file__).resolve().parents[1]
CONFIG: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"][
    "importlinter"
]
CONTRACTS: dict[str, dict[str, Any]] = {c["id"]: c for c in CONFIG["contracts"]}
TYPES: dict[str, type[Contract]] = {
    "layers": LayersContract,
    "forbidden": ForbiddenContract,
    "acyclic_siblings": AcyclicSiblingsContract,
}


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    """The import graph of the package on the path (this checkout's sources)."""
    return grimp.build_graph(
        CONFIG["root_package"], include_external_packages=True, cache_dir=None
    )


def check(contract_id: str, graph: grimp.ImportGraph) -> ContractCheck:
    """Check one contract of pyproject.toml on (a copy of) ``graph``."""
    options = CONTRACTS[contract_id]
    contract = TYPES[options["type"]](
        name=options["name"],
        session_options={
            "root_packages": [CONFIG["root_package"]],
            "include_external_packages": CONFIG["include_external_packages"],
        },
        contract_options=options,
    )
    return contract.check(copy.deepcopy(graph), verbose=False)


def with_import(graph: grimp.ImportGraph, importer: str, imported: str) -> grimp.ImportGraph:
    """A copy of ``graph`` where ``importer`` also imports ``imported``."""
    wrong = copy.deepcopy(graph)
    wrong.add_import(importer=importer, imported=imported, line_number=1, line_contents="x")
    return wrong


@pytest.mark.parametrize("contract_id", sorted(CONTRACTS))
def test_contract_is_kept(contract_id: str, graph: grimp.ImportGraph) -> None:
    """Each contract holds for the package as it is (``lint-imports`` says which import not)."""
    result = check(contract_id, graph)
    assert result.kept, f"{contract_id} broken: {result.metadata}"


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("chkobba.fishing.cards", "chkobba.games.base"),  # an engine importing the interface
        ("chkobba.fishing.rules", "chkobba.touti.rules"),  # the lowest engine, Touti's
        ("chkobba.touti.rules", "chkobba.agents.player"),  # an engine importing the players
        ("chkobba.search.policy", "chkobba.games.base"),  # search importing the interface
        ("chkobba.games.base", "chkobba.web.hub"),  # the interface importing a surface
        ("chkobba.agents.expert", "chkobba.coach.analysis"),  # a player importing the coach
        ("chkobba.web.hub", "chkobba.cli"),  # a surface importing the command line
        ("chkobba.games.chkobba", "chkobba.store.store"),  # the interface and the store
    ],
)
def test_an_upward_import_breaks_the_layers(
    graph: grimp.ImportGraph, importer: str, imported: str
) -> None:
    """An import that goes up (or across the interface and the store) breaks the layers."""
    assert not check("layers", with_import(graph, importer, imported)).kept


@pytest.mark.parametrize("library", ["click", "rich", "sqlalchemy", "starlette"])
def test_an_engine_importing_an_interface_library_is_refused(
    graph: grimp.ImportGraph, library: str
) -> None:
    """The engines stay pure: a terminal, web or database library in them breaks a contract."""
    assert not check("pure-engines", with_import(graph, "chkobba.touti.deal", library)).kept
    assert not check("pure-engines", with_import(graph, "chkobba.fishing.game", library)).kept


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        # The circles issue 25 named, each tied again.
        ("chkobba.fishing.scoring", "chkobba.fishing.rules"),
        ("chkobba.web.cluster", "chkobba.web.hub"),
        ("chkobba.agents.player", "chkobba.agents.base"),
        ("chkobba.touti.player", "chkobba.touti.agents"),
    ],
)
def test_a_circle_breaks_no_circles(
    graph: grimp.ImportGraph, importer: str, imported: str
) -> None:
    """A circle between the parts of a package breaks the ``no-circles`` contract."""
    assert not check("no-circles", with_import(graph, importer, imported)).kept


def module_circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The package's import circles between modules (strongly connected components)."""
    modules = sorted(m for m in graph.modules if m.startswith(CONFIG["root_package"]))
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.find_modules_directly_imported_by(v)):
            if not w.startswith(CONFIG["root_package"]):
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                circles.append(sorted(part))

    for m in modules:
        if m not in index:
            visit(m)
    return circles


def test_no_module_imports_itself_through_others(graph: grimp.ImportGraph) -> None:
    """No import circle between any two modules of the package, imports made inside
    functions included (they are in the graph too)."""
    assert module_circles(graph) == []
    assert module_circles(with_import(graph, "chkobba.fishing.scoring", "chkobba.fishing.rules"))


OLD_PATH = re.compile(
    r"(?<![\w.])(?:" + "|".join(re.escape(old) for old in MOVED) + r")\b"
    r"|\bfrom chkobba import fast\b"
)
ALLOWED = {
    "CHANGELOG.md",
    "src/chkobba/__init__.py",  # serves the old path of observe
    "src/chkobba/_moved.py",
    "tests/test_moved_paths.py",
    *(f"src/chkobba/{old.split('.')[1]}.pyi" for old in MOVED),  # the old paths' stubs
}


def test_nothing_in_the_repository_uses_the_old_paths() -> None:
    """The deprecated paths are for outside code: the repository's own files use the new ones."""
    paths = [ROOT / "README.md"]
    for top in ("src", "tests", "bench", "examples", "docs"):
        paths += sorted((ROOT / top).rglob("*"))
    found = []
    for path in paths:
        rel = path.relative_to(ROOT).as_posix()
        if path.suffix not in {".py", ".pyi", ".md", ".c", ".h"} or rel in ALLOWED:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if OLD_PATH.search(line):
                found.append(f"{rel}:{n}: {line.strip()}")
    assert not found, "old import paths:\n" + "\n".join(found)
