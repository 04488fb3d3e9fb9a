"""``chkobba serve``'s configuration: flags, environment variables, and no password in ``ps``."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from wsutil import PgServer, ServerProcess

from chkobba.cli import main
from chkobba.web.serve import ENVIRONMENT

PASSWORD = "s3cret-Pw-7731"


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What ``chkobba serve`` would have started: uvicorn's keywords and the app's inputs,
    recorded instead of serving."""
    seen: dict[str, Any] = {}

    def fake_app(
        db_url: str, settings: Any, limits: Any = None, worker: Any = None, accounts: Any = None
    ) -> str:
        seen.update(
            db_url=db_url, settings=settings, limits=limits, worker=worker, accounts=accounts
        )
        return "app"

    def fake_run(app: Any, **kw: Any) -> None:
        seen["uvicorn"] = kw

    monkeypatch.setattr("chkobba.web.app.create_app", fake_app)
    monkeypatch.setattr("uvicorn.run", fake_run)
    for name in [*ENVIRONMENT.values(), "CHKOBBA_DB"]:
        monkeypatch.delenv(name, raising=False)
    return seen


def serve(args: list[str], env: dict[str, str]) -> Any:
    """Run ``chkobba serve`` with ``args`` in ``env``; the result (stderr kept apart)."""
    return CliRunner().invoke(main, ["serve", *args], env=env)


def test_environment_variables_are_honoured(tmp_path: Path, started: dict[str, Any]) -> None:
    db = f"sqlite:///{tmp_path / 'env.db'}"
    env = {
        "CHKOBBA_HOST": "127.0.0.2",
        "CHKOBBA_PORT": "8123",
        "CHKOBBA_DATABASE_URL": db,
        "CHKOBBA_BOT_DELAY": "0.25",
        "CHKOBBA_RATE": "5",
        "CHKOBBA_COACH_RATE": "3",
        "CHKOBBA_ANALYSIS_RATE": "0.5",
        "CHKOBBA_ANALYSIS_WORKERS": "2",
        "CHKOBBA_COACH_WORKERS": "3",
        "CHKOBBA_TRUSTED_PROXIES": "10.0.0.1,10.0.0.2",
        "CHKOBBA_LOG_LEVEL": "warning",
        "CHKOBBA_LEASE_SECONDS": "6.5",
        "CHKOBBA_PASSKEY_ORIGIN": "https://play.chkobba.example,https://chkobba.example:8443",
        "CHKOBBA_PASSKEY_RP_ID": "chkobba.example",
    }
    res = serve([], env)
    assert res.exit_code == 0, res.output
    kw = started["uvicorn"]
    assert (kw["host"], kw["port"], kw["log_level"]) == ("127.0.0.2", 8123, "warning")
    assert kw["forwarded_allow_ips"] == "10.0.0.1,10.0.0.2" and kw["proxy_headers"]
    assert started["db_url"] == db and (tmp_path / "env.db").exists()
    s, lim = started["settings"], started["limits"]
    assert (s.bot_delay, s.rate, s.lease_seconds) == (0.25, 5.0, 6.5)
    assert (lim.coach_rate, lim.analysis_rate) == (3.0, 0.5)
    assert (lim.analysis_workers, lim.light_workers) == (2, 3)
    accounts = started["accounts"]
    assert accounts.passkey_origins == (
        "https://play.chkobba.example", "https://chkobba.example:8443"
    )
    assert accounts.passkey_rp_id == "chkobba.example"
    assert "warning" not in res.output


def test_a_flag_wins_over_its_variable(tmp_path: Path, started: dict[str, Any]) -> None:
    env = {
        "CHKOBBA_PORT": "8123",
        "CHKOBBA_DATA_DIR": str(tmp_path / "from-env"),
        "CHKOBBA_TRUSTED_PROXIES": "*",
    }
    res = serve(["--port", "8124", "--data-dir", str(tmp_path / "from-flag")], env)
    assert res.exit_code == 0, res.output
    assert started["uvicorn"]["port"] == 8124
    assert started["uvicorn"]["forwarded_allow_ips"] == "*"
    assert (tmp_path / "from-flag" / "chkobba.db").exists()
    assert not (tmp_path / "from-env").exists()


def test_the_database_url_from_a_file(tmp_path: Path, started: dict[str, Any]) -> None:
    url_file = tmp_path / "db-url"
    url_file.write_text(f"sqlite:///{tmp_path / 'file.db'}\n")
    res = serve([], {"CHKOBBA_DATABASE_URL_FILE": str(url_file)})
    assert res.exit_code == 0, res.output
    assert started["db_url"] == f"sqlite:///{tmp_path / 'file.db'}"
    # The flag wins over the other source's variable, either way round.
    flag_db = f"sqlite:///{tmp_path / 'flag.db'}"
    res = serve(["--db", flag_db], {"CHKOBBA_DATABASE_URL_FILE": str(url_file)})
    assert res.exit_code == 0 and started["db_url"] == flag_db
    res = serve(["--database-url-file", str(url_file)], {"CHKOBBA_DATABASE_URL": flag_db})
    assert res.exit_code == 0 and started["db_url"] == f"sqlite:///{tmp_path / 'file.db'}"
    # Both on the command line: which one was meant is not guessed.
    res = serve(["--db", flag_db, "--database-url-file", str(url_file)], {})
    assert res.exit_code == 2 and "not both" in res.output
    empty = tmp_path / "empty"
    empty.write_text("\n")
    res = serve(["--database-url-file", str(empty)], {})
    assert res.exit_code == 2 and "is empty" in res.output


def test_the_legacy_variable_still_names_the_database(
    tmp_path: Path, started: dict[str, Any]
) -> None:
    res = serve([], {"CHKOBBA_DB": f"sqlite:///{tmp_path / 'old.db'}"})
    assert res.exit_code == 0, res.output
    assert started["db_url"] == f"sqlite:///{tmp_path / 'old.db'}"


def test_a_password_on_the_command_line_is_warned_about(started: dict[str, Any]) -> None:
    url = f"postgresql://chkobba:{PASSWORD}@127.0.0.1:1/nowhere"
    res = serve(["--db", url], {})
    # The database is not there; the warning comes first all the same.
    assert "password is on the command line" in res.output
    assert "CHKOBBA_DATABASE_URL" in res.output
    assert PASSWORD not in res.output  # the error names the database without it
    res = serve([], {"CHKOBBA_DATABASE_URL": url})
    assert "password is on the command line" not in res.output
    assert PASSWORD not in res.output


def _cmdlines(root: int) -> dict[int, str]:
    """The command lines of ``root`` and every process descending from it, as ``ps`` shows."""
    parent_of: dict[int, int] = {}
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            for line in status.read_text().splitlines():
                if line.startswith("PPid:"):
                    parent_of[int(status.parent.name)] = int(line.split()[1])
        except OSError:
            continue
    family, grew = {root}, True
    while grew:
        kids = {pid for pid, ppid in parent_of.items() if ppid in family} - family
        family |= kids
        grew = bool(kids)
    out = {}
    for pid in family:
        try:
            out[pid] = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
    return out


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs Linux's /proc")
def test_no_password_in_any_process_argv(
    tmp_path: Path, pg_server: PgServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cluster worker given its password in the environment, with its analysis
    processes started: no process of it shows the password in its command line."""
    from chkobba.agents import make_agent
    from chkobba.fishing.match import Match
    from chkobba.fishing.observe import observe
    from chkobba.fishing.record import record_of
    from chkobba.fishing.rules import preset

    # The test server trusts every local connection, so any password is accepted.
    url = pg_server.new_database().replace("chkobba@", f"chkobba:{PASSWORD}@")
    monkeypatch.setenv("CHKOBBA_DATABASE_URL", url)
    monkeypatch.setenv("CHKOBBA_CLUSTER", "1")
    server = ServerProcess(tmp_path, "--worker", "w-env")
    server.start()
    try:
        assert server.proc is not None
        with urllib.request.urlopen(f"{server.base}/healthz", timeout=10) as r:
            assert json.loads(r.read())["worker"] == "w-env"
        m = Match(preset("chkobba", {"target": 11}), seats=2, seed=8)
        agents = [make_agent("greedy", 1), make_agent("greedy", 2)]
        while not m.finished:
            m.apply(agents[m.turn].choose(observe(m, m.turn)), m.turn)
        record = record_of(m, ["a", "b"])
        record.rounds = record.rounds[:1]
        req = urllib.request.Request(
            f"{server.base}/api/analyze?seat=0&samples=8&round=1",
            data=record.dumps().encode(),
            method="POST",
        )
        # The answer comes from a spawned analysis process: it exists now.
        with urllib.request.urlopen(req, timeout=60) as r:
            assert r.status == 200
        lines = _cmdlines(server.proc.pid)
        assert len(lines) >= 2, lines  # the server and at least its analysis process
        for pid, line in lines.items():
            assert PASSWORD not in line, (pid, line)
    finally:
        server.stop()
    assert PASSWORD not in server.log.read_text()


def test_the_cluster_switch_from_the_environment(tmp_path: Path, started: dict[str, Any]) -> None:
    env = {"CHKOBBA_CLUSTER": "1", "CHKOBBA_DATA_DIR": str(tmp_path)}
    res = serve([], env)
    assert res.exit_code == 2 and "PostgreSQL" in res.output  # a cluster refuses SQLite
    res = serve([], {**env, "CHKOBBA_CLUSTER": "0"})
    assert res.exit_code == 0 and started["worker"] is None
