"""Check the container image's steps without a container engine.

No Docker or Podman engine runs on the development machine (only the docker client
is installed), so the image cannot be built there. This script does what the
``Containerfile`` does, step by step, with the machine's own Python:

1. parses the ``Containerfile`` (its stages, ``COPY``, ``RUN``, ``USER``, ``ENV``,
   ``ENTRYPOINT``) and checks its shape: a build stage, a run stage that copies
   only the wheels from it, a user that is not root, ``chkobba serve`` as the entry;
2. copies into a throwaway directory what the build stage's ``COPY`` lines name
   (so a file the build needs but the ``Containerfile`` forgets fails here too), and
   runs the build stage's ``RUN`` commands there, ``/src`` and ``/wheels`` mapped to
   that directory; ``apt-get`` (root only) is skipped, a C compiler checked instead,
   and pip is kept off the network (``--no-deps``): the dependencies' wheels are
   the one part not checked;
3. installs the wheel into a fresh virtual environment (its dependencies lent by
   the current one through a ``.pth`` file, after the wheel, so the wheel's own
   ``chkobba`` is the one imported), checks the C kernels import from it, runs
   ``chkobba serve --help`` as the image's entry would, and starts ``chkobba serve``
   with the image's ``ENV`` (its port and data directory changed to free ones),
   from an empty directory, until ``/healthz`` answers.

    python bench/image_check.py [--keep]

It prints each step and what it found; exit status 1 on the first failure.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import site
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Stage:
    """One ``FROM`` of a Containerfile and its instructions, in order."""

    base: str
    name: str
    steps: list[tuple[str, str]] = field(default_factory=list)


def parse(text: str) -> list[Stage]:
    """The stages of a Containerfile (continuation lines joined, comments dropped)."""
    stages: list[Stage] = []
    logical = re.sub(r"\\\n", " ", "\n".join(
        line for line in text.splitlines() if not line.lstrip().startswith("#")
    ))  # fmt: skip
    for line in logical.splitlines():
        if not line.strip():
            continue
        op, _, arg = line.strip().partition(" ")
        op = op.upper()
        if op == "FROM":
            words = arg.split()
            name = words[2] if len(words) >= 3 and words[1].upper() == "AS" else str(len(stages))
            stages.append(Stage(words[0], name))
        elif not stages:
            raise SystemExit(f"an instruction before FROM: {line}")
        else:
            stages[-1].steps.append((op, " ".join(arg.split())))
    return stages


def say(what: str) -> None:
    """Print one line of the report."""
    print(what, flush=True)


def fail(what: str) -> None:
    """Stop with ``what`` as the reason."""
    print(f"FAILED: {what}", flush=True)
    sys.exit(1)


def check_shape(stages: list[Stage]) -> None:
    """The image's structure: multi-stage, non-root, chkobba serve, nothing but wheels copied."""
    if len(stages) < 2:
        fail("the Containerfile has one stage: the compiler would be in the image")
    build, run = stages[0], stages[-1]
    run_ops = [op for op, _ in run.steps]
    users = [arg for op, arg in run.steps if op == "USER"]
    if not users or users[-1] in {"root", "0"}:
        fail("the run stage does not switch to a user other than root")
    entry = [arg for op, arg in run.steps if op == "ENTRYPOINT"]
    if not entry or json.loads(entry[-1])[:2] != ["chkobba", "serve"]:
        fail(f"the entry point is not chkobba serve: {entry}")
    copies = [arg for op, arg in run.steps if op == "COPY"]
    if not copies or any(not c.startswith(f"--from={build.name} /wheels") for c in copies):
        fail(f"the run stage copies more than the build stage's wheels: {copies}")
    if any("gcc" in arg for op, arg in run.steps if op == "RUN"):
        fail("the run stage installs a compiler")
    if not any("gcc" in arg for op, arg in build.steps if op == "RUN"):
        fail("the build stage installs no compiler")
    say(
        f"shape: {len(stages)} stages ({build.name} from {build.base}, {run.name} from "
        f"{run.base}); user {users[-1]}; entry {entry[-1]}; run stage: {', '.join(run_ops)}"
    )


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def shell(cmd: str, cwd: Path, env: dict[str, str]) -> None:
    """Run ``cmd`` with bash in ``cwd``; stop on failure, showing its output."""
    say(f"  $ {cmd}")
    done = subprocess.run(
        ["bash", "-c", "set -e; " + cmd], cwd=cwd, env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        fail(f"{cmd!r} exited {done.returncode}:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    for line in done.stdout.strip().splitlines()[-2:]:
        say(f"    {line}")


def build(stage: Stage, tmp: Path, python: Path) -> Path:
    """Run the build stage in ``tmp``; the folder that stands for ``/wheels``."""
    src, wheels = tmp / "src", tmp / "wheels"
    src.mkdir()
    wheels.mkdir()
    env = {**os.environ, "PATH": f"{python.parent}:{os.environ['PATH']}"}
    workdir = src
    for op, arg in stage.steps:
        if op == "WORKDIR":
            workdir = src if arg == "/src" else tmp / arg.lstrip("/")
        elif op == "COPY":
            *sources, dest = shlex.split(arg)
            target = workdir / dest if not dest.startswith("/") else tmp / dest.lstrip("/")
            for name in sources:
                found = ROOT / name
                if not found.exists():
                    fail(f"COPY {name}: no such file in the build context")
                if found.is_dir():
                    shutil.copytree(
                        found,
                        target / found.name if dest.endswith("/") and dest != "./" else target,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info"),
                        dirs_exist_ok=True,
                    )
                else:
                    (target if dest.endswith("/") else target.parent).mkdir(
                        parents=True, exist_ok=True
                    )
                    shutil.copy2(found, target / found.name if dest.endswith("/") else target)
            say(f"  COPY {arg}")
        elif op == "RUN":
            for part in re.split(r"\s&&\s", arg):
                part = part.strip()
                if part.startswith(("apt-get", "rm -rf /var/lib/apt")):
                    say(f"  skipped (needs root): {part}")
                    continue
                part = part.replace("/wheels", str(wheels)).replace("/src", str(src))
                if part.startswith("pip ") and "--no-deps" not in part and "--no-index" not in part:
                    part = part.replace("pip wheel", "pip wheel --no-deps", 1)
                    say("  (run with --no-deps: its dependencies' wheels come from PyPI)")
                shell(part, workdir, env)
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        fail("no C compiler here: the kernels cannot be built")
    say(f"  compiler: {compiler}")
    return wheels


def run_stage(stage: Stage, wheels: Path, tmp: Path) -> None:
    """Install as the run stage does, in a fresh venv, and start the entry point."""
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    wheel = next(wheels.glob("chkobba-*.whl"))
    shell(f"{py} -m pip install -q --no-deps --no-index {wheel}", tmp, dict(os.environ))
    lent = [p for p in site.getsitepackages() if Path(p).is_dir()]
    purelib = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    # Appended after the venv's own site-packages: the wheel's chkobba comes first.
    (Path(purelib) / "zz_lent_dependencies.pth").write_text("\n".join(lent) + "\n")
    home = tmp / "home"
    data = tmp / "data"
    home.mkdir()
    data.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CHKOBBA_", "PYTHON"))}
    for op, arg in stage.steps:
        if op == "ENV":
            for word in shlex.split(arg):
                key, _, value = word.partition("=")
                env[key] = value
    port = free_port()
    env.update(
        HOME=str(home),
        PATH=f"{venv / 'bin'}:{env['PATH']}",
        CHKOBBA_HOST="127.0.0.1",
        CHKOBBA_PORT=str(port),
        CHKOBBA_DATA_DIR=str(data),
        CHKOBBA_LOG_LEVEL="warning",
    )
    where = subprocess.run(
        [str(py), "-c", "import chkobba, chkobba._fastcore, chkobba.touti._playout, "
         "chkobba.touti._deals; print(chkobba.__file__, chkobba._fastcore.__file__)"],
        cwd=home, env=env, capture_output=True, text=True,
    )  # fmt: skip
    if where.returncode != 0 or str(venv) not in where.stdout:
        fail(f"chkobba and its kernels do not import from the new venv: {where}")
    say(f"  imports from the wheel: {where.stdout.strip()}")
    entry = json.loads([arg for op, arg in stage.steps if op == "ENTRYPOINT"][-1])
    helped = subprocess.run(
        [*entry, "--help"], cwd=home, env=env, capture_output=True, text=True, timeout=120
    )
    if helped.returncode != 0 or "CHKOBBA_DATABASE_URL" not in helped.stdout:
        fail(f"{' '.join(entry)} --help failed: {helped.stderr[-2000:]}")
    say(f"  $ {' '.join(entry)} --help: {len(helped.stdout.splitlines())} lines, exit 0")
    server = subprocess.Popen(entry, cwd=home, env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 90
        while True:
            if server.poll() is not None:
                fail(f"chkobba serve exited: {server.stderr.read() if server.stderr else ''}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                    say(f"  $ {' '.join(entry)} (the image's ENV): /healthz {r.read().decode()}")
                    break
            except OSError:
                if time.monotonic() > deadline:
                    fail("chkobba serve did not answer /healthz within 90 s")
                time.sleep(0.3)
        # The pages and their assets are package data: a wheel without them serves 404s.
        for path in ("/", "/static/game.js", "/touti"):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as r:
                size = len(r.read())
            if size == 0:
                fail(f"{path} is empty")
            say(f"  GET {path}: {r.status}, {size} bytes")
        if not (data / "chkobba.db").exists():
            fail("the server did not keep its database in CHKOBBA_DATA_DIR")
    finally:
        server.terminate()
        server.wait(15)


def main() -> None:
    """Run every check; print what each found."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keep", action="store_true", help="keep the throwaway directory")
    args = ap.parse_args()
    stages = parse((ROOT / "Containerfile").read_text())
    check_shape(stages)
    tmp = Path(tempfile.mkdtemp(prefix="chkobba-image-"))
    try:
        t0 = time.monotonic()
        say(f"build stage ({stages[0].name}), in {tmp}:")
        wheels = build(stages[0], tmp, Path(sys.executable))
        say(f"run stage ({stages[-1].name}):")
        run_stage(stages[-1], wheels, tmp)
        say(f"image steps checked in {time.monotonic() - t0:.0f} s: OK")
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
