"""bench/load.py against a server that limits requests (issue 25): a plain `chkobba
serve` answers 429 to rooms created as fast as the load test creates them."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType

import pytest

LOAD = Path(__file__).parent.parent / "bench" / "load.py"


@pytest.fixture(scope="module")
def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_load", LOAD)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_load"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


class Limited(BaseHTTPRequestHandler):
    """Answers 429 (Retry-After: 0) to the first ``refusals`` requests, then ``{}``."""

    refusals = 0
    seen = 0

    def do_GET(self) -> None:  # the name http.server calls
        type(self).seen += 1
        if type(self).seen <= type(self).refusals:
            self.send_response(429)
            self.send_header("Retry-After", "0")
            self.end_headers()
            self.wfile.write(b'{"error": "rate_limited"}')
            return
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b'{"ok": true}')

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    Limited.seen = 0
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Limited)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_429_is_waited_out_and_said(
    load: ModuleType, server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    Limited.refusals = 3
    patience = load.Patience(seconds=5.0)
    assert load.fetch(server + "/api/x", patience) == b'{"ok": true}'
    assert Limited.seen == 4 and patience.told
    assert "chkobba serve --rate 1000" in capsys.readouterr().err


def test_a_server_that_keeps_refusing_stops_the_run_with_the_advice(
    load: ModuleType, server: str
) -> None:
    Limited.refusals = 10**6
    with pytest.raises(SystemExit, match=r"429 Too Many Requests.*chkobba serve --rate 1000"):
        load.fetch(server + "/api/x", load.Patience(seconds=0.3))


def test_the_help_says_how_to_start_the_server() -> None:
    out = subprocess.run(
        [sys.executable, str(LOAD), "--help"], capture_output=True, text=True, check=True
    ).stdout
    assert "--rate 1000" in " ".join(out.split()) and "429" in out
