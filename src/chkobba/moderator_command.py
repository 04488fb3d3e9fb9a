"""The ``chkobba moderator`` command: who moderates the chat, and who is silenced.

``chkobba moderator add NAME`` flags an account as a moderator (it may then read the
reported chat messages and silence accounts, through ``/api/moderation``), ``remove``
takes the flag away, ``list`` prints the moderators, ``silence`` and ``unsilence`` stop
an account chatting or let it again. Each acts on the database of ``chkobba serve``
(``--db``, or ``CHKOBBA_DATABASE_URL``; by default the SQLite file in the data directory),
migrating it first if need be.
"""

from __future__ import annotations

from pathlib import Path

import click

from chkobba.web.serve import ENVIRONMENT, LEGACY_DATABASE_VARIABLE

_db = click.option(
    "--db",
    "--database-url",
    "db_url",
    default=None,
    envvar=[ENVIRONMENT["db_url"], LEGACY_DATABASE_VARIABLE],
    show_envvar=True,
    help="The server's database URL [default: SQLite in the data directory].",
)
_data_dir = click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    envvar=ENVIRONMENT["data_dir"],
    show_envvar=True,
    help="Where the SQLite database lives [default: the user's data directory].",
)


def _url(db_url: str | None, data_dir: Path | None) -> str:
    if db_url is not None:
        return db_url
    import platformdirs

    from chkobba.store import sqlite_url

    folder = data_dir or Path(platformdirs.user_data_dir("chkobba"))
    return sqlite_url(folder / "chkobba.db")


def _act(db_url: str | None, data_dir: Path | None, name: str | None, action: str) -> None:
    from sqlalchemy.exc import SQLAlchemyError

    from chkobba.store import Store, StoreError
    from chkobba.store.accounts import Accounts
    from chkobba.store.chat import ChatStore
    from chkobba.web.names import name_keys

    url = _url(db_url, data_dir)
    try:
        store = Store(url)
    except StoreError as e:
        raise click.BadParameter(str(e), param_hint="--db") from None
    try:
        store.migrate()
        chat = ChatStore(store.engine)
        if action == "list":
            for moderator in chat.moderators():
                click.echo(moderator)
            return
        assert name is not None
        account = Accounts(store.engine).by_key(name_keys(name.strip())[0])
        if account is None:
            raise click.ClickException(f"no account named {name!r}")
        if action in ("add", "remove"):
            chat.set_moderator(account.id, action == "add")
            click.echo(f"{account.name} is {'a' if action == 'add' else 'no longer a'} moderator")
        else:
            chat.set_silenced(account.id, action == "silence")
            click.echo(f"{account.name} is {'silenced' if action == 'silence' else 'free to chat'}")
    except SQLAlchemyError as e:
        reason = str(getattr(e, "orig", None) or e).strip().splitlines()[0]
        raise click.ClickException(f"cannot use the database: {reason}") from None
    finally:
        store.close()


@click.group()
def moderator() -> None:
    """Chat moderators: add, remove, list; silence or unsilence an account."""


@moderator.command()
@click.argument("name")
@_db
@_data_dir
def add(name: str, db_url: str | None, data_dir: Path | None) -> None:
    """Make the account NAME a moderator."""
    _act(db_url, data_dir, name, "add")


@moderator.command()
@click.argument("name")
@_db
@_data_dir
def remove(name: str, db_url: str | None, data_dir: Path | None) -> None:
    """Take the moderator's flag from the account NAME."""
    _act(db_url, data_dir, name, "remove")


@moderator.command("list")
@_db
@_data_dir
def list_cmd(db_url: str | None, data_dir: Path | None) -> None:
    """Print the moderators' names, one a line."""
    _act(db_url, data_dir, None, "list")


@moderator.command()
@click.argument("name")
@_db
@_data_dir
def silence(name: str, db_url: str | None, data_dir: Path | None) -> None:
    """Silence the account NAME: it can no longer chat."""
    _act(db_url, data_dir, name, "silence")


@moderator.command()
@click.argument("name")
@_db
@_data_dir
def unsilence(name: str, db_url: str | None, data_dir: Path | None) -> None:
    """Let the silenced account NAME chat again."""
    _act(db_url, data_dir, name, "unsilence")
