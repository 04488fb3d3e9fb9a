"""The ``chkobba serve`` command: the web server under uvicorn."""

from __future__ import annotations

from pathlib import Path

import click

from chkobba.duel.cli import ENGINE_LOG_OPTION


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=int, help="Port to listen on.")
@click.option(
    "--db",
    "db_url",
    default=None,
    help="Database URL, e.g. postgresql://user:pass@host/db "
    "[default: SQLite in the data directory].",
)
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where the SQLite database lives [default: the user's data directory].",
)
@click.option(
    "--bot-delay",
    default=0.7,
    show_default=True,
    type=click.FloatRange(0, 10),
    help="Seconds the computer waits before each move.",
)
@click.option(
    "--rate",
    default=20.0,
    show_default=True,
    type=click.FloatRange(0.1, 10_000),
    help="Messages per second each connection may send.",
)
@click.option("--log-level", default="info", show_default=True, help="uvicorn's log level.")
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
)
@click.option(
    "--worker",
    default=None,
    metavar="NAME",
    help="This worker's name in a cluster [default: host:port:pid].",
)
def serve(
    host: str,
    port: int,
    db_url: str | None,
    data_dir: Path | None,
    bot_delay: float,
    rate: float,
    log_level: str,
    players: tuple[str, ...] = (),
    cluster: bool = False,
    worker: str | None = None,
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
    from chkobba.web.hub import Settings

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
    settings = Settings(bot_delay=bot_delay, rate=rate, burst=max(10.0, 2 * rate), tune_gc=True)
    worker_id: str | None = None
    if cluster:
        from chkobba.web.cluster import worker_name

        worker_id = worker or worker_name(port)
        shown += f", worker {worker_id}"
    click.echo(f"chkobba: http://{host}:{port}/  (database: {shown})", err=True)
    uvicorn.run(
        create_app(db_url, settings, worker=worker_id),
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=64 * 1024,
        lifespan="on",
        # SIGTERM: the clients are told to come again (1012) and the games let go at once.
        timeout_graceful_shutdown=5,
    )
