"""The ``chkobba serve`` command: the web server under uvicorn.

Every option can also be given by an environment variable (``CHKOBBA_PORT``,
``CHKOBBA_DATABASE_URL``, ...: :data:`ENVIRONMENT` lists them, docs/deploy.md has
the table); a flag on the command line wins over the variable. A database password
belongs in the environment or in a file (``--database-url-file``), never on the
command line, where ``ps`` shows it to every user of the machine.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

import click
from click.core import ParameterSource

from chkobba.duel.cli import ENGINE_LOG_OPTION

ENVIRONMENT: Final = {
    "host": "CHKOBBA_HOST",
    "port": "CHKOBBA_PORT",
    "db_url": "CHKOBBA_DATABASE_URL",
    "db_url_file": "CHKOBBA_DATABASE_URL_FILE",
    "data_dir": "CHKOBBA_DATA_DIR",
    "bot_delay": "CHKOBBA_BOT_DELAY",
    "rate": "CHKOBBA_RATE",
    "coach_rate": "CHKOBBA_COACH_RATE",
    "analysis_rate": "CHKOBBA_ANALYSIS_RATE",
    "analysis_workers": "CHKOBBA_ANALYSIS_WORKERS",
    "coach_workers": "CHKOBBA_COACH_WORKERS",
    "trusted_proxies": "CHKOBBA_TRUSTED_PROXIES",
    "log_level": "CHKOBBA_LOG_LEVEL",
    "cluster": "CHKOBBA_CLUSTER",
    "worker": "CHKOBBA_WORKER",
    "lease_seconds": "CHKOBBA_LEASE_SECONDS",
    "passkey_origin": "CHKOBBA_PASSKEY_ORIGIN",
    "passkey_rp_id": "CHKOBBA_PASSKEY_RP_ID",
}
"""Each option of ``chkobba serve`` and the environment variable that gives it when
the flag is absent."""
LEGACY_DATABASE_VARIABLE: Final = "CHKOBBA_DB"
"""The database URL's variable before ``CHKOBBA_DATABASE_URL``, still read after it."""


def _env(name: str) -> dict[str, Any]:
    """The keywords naming ``name``'s environment variable, shown in ``--help``."""
    return {"envvar": ENVIRONMENT[name], "show_envvar": True}


@click.command()
@click.option(
    "--host", default="127.0.0.1", show_default=True, help="Address to listen on.", **_env("host")
)
@click.option(
    "--port", default=8000, show_default=True, type=int, help="Port to listen on.", **_env("port")
)
@click.option(
    "--db",
    "--database-url",
    "db_url",
    default=None,
    envvar=[ENVIRONMENT["db_url"], LEGACY_DATABASE_VARIABLE],
    show_envvar=True,
    help="Database URL, e.g. postgresql://user@host/db [default: SQLite in the data "
    "directory]. Give a password in the environment or in --database-url-file, not here: "
    "the command line is visible to every user in `ps`.",
)
@click.option(
    "--database-url-file",
    "db_url_file",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    default=None,
    help="Read the database URL from this file (its first line), e.g. a container secret.",
    **_env("db_url_file"),
)
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where the SQLite database lives [default: the user's data directory].",
    **_env("data_dir"),
)
@click.option(
    "--bot-delay",
    default=0.7,
    show_default=True,
    type=click.FloatRange(0, 10),
    help="Seconds the computer waits before each move.",
    **_env("bot_delay"),
)
@click.option(
    "--rate",
    default=20.0,
    show_default=True,
    type=click.FloatRange(0.1, 10_000),
    help="Messages per second each connection may send (and games each address may "
    "create or join).",
    **_env("rate"),
)
@click.option(
    "--coach-rate",
    default=10.0,
    show_default=True,
    type=click.FloatRange(0.1, 10_000),
    help="Hint, question and summary requests per second each client address may make.",
    **_env("coach_rate"),
)
@click.option(
    "--analysis-rate",
    default=2.0,
    show_default=True,
    type=click.FloatRange(0.1, 10_000),
    help="Analysis requests per second each client address may make.",
    **_env("analysis_rate"),
)
@click.option(
    "--analysis-workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Processes running analyses (started when first needed).",
    **_env("analysis_workers"),
)
@click.option(
    "--coach-workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Processes running hints and summary charts (started when first needed).",
    **_env("coach_workers"),
)
@click.option(
    "--trusted-proxies",
    default="127.0.0.1",
    show_default=True,
    metavar="ADDRESSES",
    help="Comma-separated addresses (or *) of the reverse proxies whose X-Forwarded-For "
    "names the client (for the per-address limits) and whose X-Forwarded-Proto says "
    "HTTPS (for Secure cookies).",
    **_env("trusted_proxies"),
)
@click.option(
    "--log-level", default="info", show_default=True, help="uvicorn's log level.",
    **_env("log_level"),
)  # fmt: skip
@click.option(
    "--player",
    "players",
    multiple=True,
    metavar="NAME",
    help="Offer this computer player too (repeatable): a trained policy file as "
    "policy:PATH (docs/rl.md), or an outside program as engine:COMMAND "
    "(docs/engine-protocol.md), offered as the level policy:STEM or engine:STEM.",
)
@ENGINE_LOG_OPTION
@click.option(
    "--cluster",
    is_flag=True,
    help="Run as one worker of several sharing the PostgreSQL database of --db, behind a "
    "balancer (docs/deploy.md).",
    **_env("cluster"),
)
@click.option(
    "--worker",
    default=None,
    metavar="NAME",
    help="This worker's name in a cluster [default: host:port:pid].",
    **_env("worker"),
)
@click.option("--bench-seats", is_flag=True, hidden=True)
# For the browser tests only: a match may be played to 1 point (Settings.short_matches).
@click.option("--short-matches", is_flag=True, hidden=True)
@click.option(
    "--lease-seconds",
    default=4.0,
    show_default=True,
    type=click.FloatRange(min=0.5),
    help="How long a cluster worker's lease on a game lasts unless renewed (renewed five "
    "times as often): a hung or cut-off worker's games are taken over this long after its "
    "last renewal.",
    **_env("lease_seconds"),
)
@click.option(
    "--passkey-origin",
    default=None,
    metavar="ORIGINS",
    help="Comma-separated origins (https://chkobba.example) whose pages may use passkeys "
    "[default: each request's own scheme and Host]. Set it behind a proxy that changes the "
    "Host header.",
    **_env("passkey_origin"),
)
@click.option(
    "--passkey-rp-id",
    default=None,
    metavar="DOMAIN",
    help="The passkeys' relying party id, a domain every passkey is bound to [default: the "
    "host of the first --passkey-origin, or of each request]. Changing it later orphans "
    "every passkey made before.",
    **_env("passkey_rp_id"),
)
@click.pass_context
def serve(
    ctx: click.Context,
    host: str,
    port: int,
    db_url: str | None,
    db_url_file: Path | None,
    data_dir: Path | None,
    bot_delay: float,
    rate: float,
    coach_rate: float,
    analysis_rate: float,
    analysis_workers: int,
    coach_workers: int,
    trusted_proxies: str,
    log_level: str,
    players: tuple[str, ...] = (),
    cluster: bool = False,
    worker: str | None = None,
    bench_seats: bool = False,
    lease_seconds: float = 4.0,
    passkey_origin: str | None = None,
    passkey_rp_id: str | None = None,
    short_matches: bool = False,
) -> None:
    """Serve the game in the browser: lobby, games against the computer, online rooms."""
    # Imported here so that the other commands start without the web stack.
    import platformdirs
    import uvicorn
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from chkobba.agents.base import AgentError, offer
    from chkobba.store import Store, StoreError, normalise_url, sqlite_url
    from chkobba.web.app import create_app
    from chkobba.web.auth import AccountPolicy
    from chkobba.web.hub import Settings
    from chkobba.web.passkeys import check_origins
    from chkobba.web.work import Limits

    db_url = database_url(ctx, db_url, db_url_file)
    try:
        origins, rp_id = check_origins(passkey_origin, passkey_rp_id)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--passkey-origin/--passkey-rp-id") from None
    if worker is not None:
        cluster = True
    if cluster and not (db_url or "").startswith(("postgresql", "postgres")):
        raise click.BadParameter(
            "a cluster's workers share one PostgreSQL database: give --db postgresql://...",
            param_hint="--cluster",
        )
    for name in players:
        try:
            alias = offer(name)
        except AgentError as e:
            raise click.BadParameter(str(e), param_hint="--player") from None
        click.echo(f"chkobba: offering {name} as the level {alias!r}", err=True)
    if db_url is None:
        folder = data_dir or Path(platformdirs.user_data_dir("chkobba"))
        folder.mkdir(parents=True, exist_ok=True)
        db_url = sqlite_url(folder / "chkobba.db")
    try:
        normalise_url(db_url)
        shown = make_url(db_url).render_as_string(hide_password=True)
        store = Store(db_url)
    except StoreError as e:
        raise click.BadParameter(str(e), param_hint="--db") from None
    try:
        # Fail here, in one line, rather than in a traceback from the server's start-up.
        store.migrate()
    except SQLAlchemyError as e:
        reason = str(getattr(e, "orig", None) or e).strip().splitlines()[0]
        raise click.ClickException(f"cannot use the database {shown}: {reason}") from None
    finally:
        store.close()
    settings = Settings(
        bot_delay=bot_delay, rate=rate, burst=max(10.0, 2 * rate), tune_gc=True,
        # Only for bench/ratings_order.py: computer players in accounts' rated seats.
        bench_seats=bench_seats,
        lease_seconds=lease_seconds,
        short_matches=short_matches,
    )  # fmt: skip
    limits = Limits(
        analysis_workers=analysis_workers,
        light_workers=coach_workers,
        analysis_rate=analysis_rate,
        coach_rate=coach_rate,
    )
    worker_id: str | None = None
    if cluster:
        from chkobba.web.cluster import worker_name

        worker_id = worker or worker_name(port)
        shown += f", worker {worker_id}"
    click.echo(f"chkobba: http://{host}:{port}/  (database: {shown})", err=True)
    uvicorn.run(
        create_app(
            db_url,
            settings,
            limits,
            worker=worker_id,
            accounts=AccountPolicy(passkey_origins=origins, passkey_rp_id=rp_id),
        ),
        host=host,
        port=port,
        log_level=log_level,
        proxy_headers=True,
        forwarded_allow_ips=trusted_proxies,
        ws_max_size=64 * 1024,
        lifespan="on",
        # SIGTERM: the clients are told to come again (1012) and the games let go at once.
        timeout_graceful_shutdown=5,
    )


def database_url(ctx: click.Context, db_url: str | None, db_url_file: Path | None) -> str | None:
    """The database URL from ``--db``/``CHKOBBA_DATABASE_URL`` or from the file of
    ``--database-url-file``: the one given on the command line wins over the one from
    the environment; both from the same place is an error. Warns on standard error
    when the URL holding a password was typed on the command line."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    source = ctx.get_parameter_source("db_url")
    file_source = ctx.get_parameter_source("db_url_file")
    if db_url is not None and db_url_file is not None:
        command_line = ParameterSource.COMMANDLINE
        if (source == command_line) == (file_source == command_line):
            raise click.UsageError(
                "give the database URL once: --db (CHKOBBA_DATABASE_URL) or "
                "--database-url-file (CHKOBBA_DATABASE_URL_FILE), not both"
            )
        if file_source == command_line:
            db_url = None
        else:
            db_url_file = None
    if db_url_file is not None:
        try:
            lines = db_url_file.read_text(encoding="utf-8").strip().splitlines()
        except (OSError, UnicodeDecodeError) as e:
            raise click.BadParameter(
                f"cannot read {db_url_file}: {e}", param_hint="--database-url-file"
            ) from None
        if not lines or not lines[0].strip():
            raise click.BadParameter(
                f"{db_url_file} is empty: it should hold the database URL on its first line",
                param_hint="--database-url-file",
            )
        return lines[0].strip()
    if db_url is not None and source == ParameterSource.COMMANDLINE:
        try:
            password = make_url(db_url).password
        except ArgumentError:
            password = None  # the store names what is wrong with the URL
        if password:
            click.echo(
                "chkobba: warning: the database password is on the command line, where "
                "`ps` shows it to every user of this machine; put the URL in "
                "CHKOBBA_DATABASE_URL or in a file named by --database-url-file instead",
                err=True,
            )
    return db_url
