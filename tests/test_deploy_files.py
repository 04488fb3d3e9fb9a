"""The deployment files agree with each other and with ``chkobba serve``: the
Containerfile's shape, compose.yaml's structure, the variables' table in docs/deploy.md.
(bench/image_check.py runs the Containerfile's steps; too slow for the suite.)"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from chkobba.web.serve import ENVIRONMENT, LEGACY_DATABASE_VARIABLE

ROOT = Path(__file__).resolve().parent.parent
yaml = pytest.importorskip("yaml")


def _image_check() -> Any:
    """bench/image_check.py as a module (its parser and shape check)."""
    if "image_check" in sys.modules:
        return sys.modules["image_check"]
    spec = importlib.util.spec_from_file_location("image_check", ROOT / "bench/image_check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["image_check"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def documented_variables() -> set[str]:
    """The variables of docs/deploy.md's configuration table."""
    text = (ROOT / "docs/deploy.md").read_text()
    table = text[text.index("## Configuration") : text.index("## A container image")]
    return set(re.findall(r"^\| `(CHKOBBA_[A-Z_]+)`", table, re.M))


def test_the_table_documents_every_variable_and_no_other() -> None:
    assert documented_variables() == set(ENVIRONMENT.values())
    assert LEGACY_DATABASE_VARIABLE in (ROOT / "docs/deploy.md").read_text()


def test_the_containerfile_shape(capsys: pytest.CaptureFixture[str]) -> None:
    check = _image_check()
    stages = check.parse((ROOT / "Containerfile").read_text())
    check.check_shape(stages)  # exits on a fault
    assert "user chkobba" in capsys.readouterr().out
    env_names = {
        word.split("=")[0]
        for op, arg in stages[-1].steps
        if op == "ENV"
        for word in arg.split()
    }
    assert {n for n in env_names if n.startswith("CHKOBBA_")} <= set(ENVIRONMENT.values())


def test_the_shape_check_catches_a_root_image() -> None:
    check = _image_check()
    text = (ROOT / "Containerfile").read_text().replace("USER chkobba", "USER root")
    with pytest.raises(SystemExit):
        check.check_shape(check.parse(text))


def test_dockerignore_keeps_history_environments_and_builds_out() -> None:
    ignored = set((ROOT / ".dockerignore").read_text().split())
    assert {".git", "**/.venv", "**/__pycache__", "build", "dist", "**/*.so"} <= ignored


def test_compose_runs_postgresql_haproxy_and_workers() -> None:
    compose = yaml.safe_load((ROOT / "deploy/compose.yaml").read_text())
    services = compose["services"]
    assert services["db"]["image"].startswith("postgres:")
    assert services["balancer"]["image"].startswith("haproxy:")
    assert "./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in services["balancer"]["volumes"]
    workers = {name: s for name, s in services.items() if name not in {"db", "balancer"}}
    assert len(workers) >= 2
    servers = re.findall(
        r"^\s*server (\S+) 127\.0\.0\.1:(\d+) check",
        (ROOT / "deploy/haproxy.cfg").read_text(),
        re.M,
    )
    seen = set()
    for name, w in workers.items():
        assert w["build"]["dockerfile"] == "Containerfile" and w["build"]["context"] == ".."
        assert w["depends_on"]["db"]["condition"] == "service_healthy"
        assert "balancer" in w["depends_on"]
        assert w["network_mode"] == "service:balancer"
        assert "command" not in w  # configured by the environment alone
        env = w["environment"]
        assert set(env) <= set(ENVIRONMENT.values()), set(env) - set(ENVIRONMENT.values())
        assert env["CHKOBBA_DATABASE_URL"].startswith("postgresql://")
        assert env["CHKOBBA_DATABASE_URL"].endswith("@db/chkobba")
        assert env["CHKOBBA_CLUSTER"] == "1" and env["CHKOBBA_WORKER"] == name
        seen.add((env["CHKOBBA_WORKER"], env["CHKOBBA_PORT"]))
    assert seen == set(servers)


def test_the_systemd_unit_keeps_the_url_off_the_command_line() -> None:
    unit = (ROOT / "deploy/chkobba@.service").read_text()
    start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    assert "--db" not in start and "$" not in start
    assert "EnvironmentFile=/etc/chkobba/env" in unit
    assert "CHKOBBA_DATABASE_URL=" in unit
