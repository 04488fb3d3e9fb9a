"""The database tables: games, their seats, and every move, in play order.

A game row holds what the engine needs to rebuild the match exactly: the game
(``chkobba`` for the Chkobba family, ``touti``), the rule set, the rules version it
was stored under (``chkobba.fishing.rules.RULES_VERSION``), its options, the seating and the
seed of the match's shuffles. Together with the moves (in the notation, numbered by
``ply``), replaying them through the game's interface (:func:`chkobba.games.replay`)
gives back the game bit for bit.

The tables are written by the migrations in ``migrations/versions``; this
module describes the same tables for queries.
"""

from __future__ import annotations

from typing import Final

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    text,
)

metadata: Final = MetaData()

games: Final = Table(
    "games",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("game", String(16), nullable=False, server_default=text("'chkobba'")),
    Column("kind", String(16), nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("rules", String(32), nullable=False),
    Column("rules_version", Integer, nullable=False, server_default=text("1")),
    Column("options", Text, nullable=False),
    Column("seats", Integer, nullable=False),
    Column("teams", Boolean, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("winner", Integer, nullable=True),
    Column("totals", Text, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True, index=True),
    Column("settings", Text, nullable=True),
    Column("ending", String(16), nullable=True),
    Column("resigned", Integer, nullable=True),
    Column("seen_at", DateTime(timezone=True), nullable=True),
    Column("rematch", String(16), nullable=True),
    Column("rematch_of", String(16), nullable=True),
    Column("unlisted", Boolean, nullable=False, server_default=text("false")),
    Column("pool", String(32), nullable=True),
)

seats: Final = Table(
    "seats",
    metadata,
    Column("game_id", String(16), ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(64), nullable=True),
    Column("token_hash", String(64), nullable=True, unique=True),
    Column("agent", String(32), nullable=True),
    Column("seen_at", DateTime(timezone=True), nullable=True),
    Column("account_id", Integer, nullable=True, index=True),
)

moves: Final = Table(
    "moves",
    metadata,
    Column("game_id", String(16), ForeignKey("games.id"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("move", String(64), nullable=False),
    Column("played_at", DateTime(timezone=True), nullable=False),
    Column("stand_in", String(8), nullable=True),
    Column("epoch", BigInteger, nullable=True),
)

hints: Final = Table(
    "hints",
    metadata,
    Column("game_id", String(16), ForeignKey("games.id"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("asked_at", DateTime(timezone=True), nullable=False),
)
"""The coach's hints asked for (one row per seat and position), so a game's record says
whether it was played with help (docs/coach.md)."""

coach_uses: Final = Table(
    "coach_uses",
    metadata,
    Column("game_id", String(16), ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("aid", String(16), primary_key=True),
    Column("count", Integer, nullable=False),
)
"""How many times each seat used each aid of the coach (``hints``, ``unseen``,
``trainer``): every use counts, and the game's record says so (docs/records.md)."""

accounts: Final = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False),
    Column("name_key", String(128), nullable=False, unique=True),
    Column("name_shape", String(128), nullable=False, unique=True),
    Column("password_hash", String(255), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("password_at", DateTime(timezone=True), nullable=False),
    sqlite_autoincrement=True,
)
"""The players' accounts (docs/web.md, "Accounts"): the user name as typed, its two keys
(chkobba.web.names: unique, so that no name can be registered twice, whatever its case
or look-alike letters), and the password's Argon2id hash, never the password. Whatever
else belongs to a player (ratings, chat, a moderator's flag) hangs off ``id``."""

sessions: Final = Table(
    "sessions",
    metadata,
    Column("id_hash", String(64), primary_key=True),
    Column(
        "account_id",
        Integer,
        ForeignKey("accounts.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)
"""The signed-in browsers: the SHA-256 of each session's id (the cookie holds the id),
its account and when it expires."""

login_failures: Final = Table(
    "login_failures",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("scope", String(8), nullable=False),
    Column("key", String(64), nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Index("ix_login_failures_scope_key_at", "scope", "key", "at"),
)
"""Failed log-ins, per account (``scope`` ``account``) and per client address
(``address``), each ``key`` a SHA-256: what limits guessing across every worker."""

queue_entries: Final = Table(
    "queue_entries",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("ticket_hash", String(64), nullable=False, unique=True),
    Column("pool", String(32), nullable=False),
    Column("game", String(16), nullable=False),
    Column("seating", String(8), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("clock", Float, nullable=True),
    Column("account_id", Integer, nullable=True, index=True),
    Column("name", String(64), nullable=False),
    Column("rating", Float, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("joined_at", DateTime(timezone=True), nullable=False),
    Column("seen_at", DateTime(timezone=True), nullable=False),
    Column("paired_at", DateTime(timezone=True), nullable=True),
    Column("game_id", String(16), nullable=True),
    Column("seat", Integer, nullable=True),
    sqlite_autoincrement=True,
)
"""The "Play now" queue (chkobba.store.queue): each player waiting in a pool (``pool``,
the preset; ``seating``; ``rated``; ``clock``), the rating they are paired by, when they
came (``joined_at``) and when their page last said it is there (``seen_at``); once
``status`` is ``paired``, the game and seat. ``ticket_hash`` is the SHA-256 of the
player's ticket, which becomes their seat's token."""

challenges: Final = Table(
    "challenges",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("from_account", Integer, nullable=True, index=True),
    Column("from_name", String(64), nullable=False),
    Column("ticket_hash", String(64), nullable=False, unique=True),
    Column("to_account", Integer, nullable=True, index=True),
    Column("to_name", String(64), nullable=True),
    Column("pool", String(32), nullable=False),
    Column("game", String(16), nullable=False),
    Column("seating", String(8), nullable=False),
    Column("clock", Float, nullable=True),
    Column("status", String(16), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("game_id", String(16), nullable=True),
    Column("challenger_seat", Integer, nullable=True),
)
"""Invitations to a game (chkobba.store.queue): from an account or a guest
(``from_name``), to a named account (``to_account``) or to whoever has the link
(``to_account`` null; the ``id`` is the link's secret); the game's settings, the state
(``open``, ``accepted``, ``declined``, ``cancelled``) and, once accepted, the game."""
ratings: Final = Table(
    "ratings",
    metadata,
    Column(
        "account_id",
        Integer,
        ForeignKey("accounts.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("pool", String(32), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Index("ix_ratings_pool_mu", "pool", "mu"),
)
"""Each account's rating in each pool it played a rated game in (docs/ratings.md): the
Weng-Lin model's mu and sigma, the rated games played and won."""

rating_history: Final = Table(
    "rating_history",
    metadata,
    Column("game_id", String(16), ForeignKey("games.id"), primary_key=True),
    Column(
        "account_id",
        Integer,
        ForeignKey("accounts.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("pool", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("rank", Integer, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Index("ix_rating_history_account_at", "account_id", "at"),
)
"""One row per player of each rated game: the rating before and after it. A game with
rows here has been rated (it is never rated twice)."""
chat_messages: Final = Table(
    "chat_messages",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(16), nullable=False, index=True),
    Column("channel", String(16), nullable=False),
    Column("seat", Integer, nullable=False),
    Column(
        "account_id",
        Integer,
        ForeignKey("accounts.id", ondelete="CASCADE"),
        nullable=True,
        index=True,
    ),
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=True),
    Column("phrase", String(32), nullable=True),
    Column("at", DateTime(timezone=True), nullable=False),
    sqlite_autoincrement=True,
)
"""What was said at the tables (docs/play.md, "Chat"): in which game, on which channel
(``players`` or ``spectators``), by which seat (-1: a spectator) and account (None: a
guest at their seat), under which name; either free ``text`` or a quick ``phrase``'s key.
Not part of any game's record; deleted with its author's account."""

chat_reports: Final = Table(
    "chat_reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column(
        "message_id",
        Integer,
        ForeignKey("chat_messages.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column(
        "reporter_id",
        Integer,
        ForeignKey("accounts.id", ondelete="SET NULL"),
        nullable=True,
    ),
    Column("reporter_name", String(64), nullable=False),
    Column("reason", String(200), nullable=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("closed_at", DateTime(timezone=True), nullable=True),
    sqlite_autoincrement=True,
)
"""Chat messages reported for a moderator: which message, who reported it (an account, or
a guest's seat name), why, and when a moderator closed it."""

account_roles: Final = Table(
    "account_roles",
    metadata,
    Column(
        "account_id",
        Integer,
        ForeignKey("accounts.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("moderator", Boolean, nullable=False, server_default=text("false")),
    Column("silenced", Boolean, nullable=False, server_default=text("false")),
    Column("silenced_at", DateTime(timezone=True), nullable=True),
)
"""An account's flags, when it has any: a moderator (set with ``chkobba moderator add``)
reads the reports and may silence an account; a silenced account cannot chat."""

chat_rooms: Final = Table(
    "chat_rooms",
    metadata,
    Column("game_id", String(16), primary_key=True),
    Column("enabled", Boolean, nullable=False),
)
"""A room's chat turned on or off by its creator; without a row, the kind's default (on
between people, off against the computer)."""
leases: Final = Table(
    "leases",
    metadata,
    Column("game_id", String(16), ForeignKey("games.id"), primary_key=True),
    Column("owner", String(128), nullable=True),
    Column("epoch", BigInteger, nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("pid", Integer, nullable=True),
    Column("backend_start", DateTime(timezone=True), nullable=True),
)
"""Which cluster worker holds each game, until when, under which epoch (store/leases.py):
the epoch grows at each take-over, and a write carrying an older one is refused."""

passkeys: Final = Table(
    "passkeys",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column(
        "account_id",
        Integer,
        ForeignKey("accounts.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("credential_id", String(1400), nullable=False, unique=True),
    Column("user_handle", String(128), nullable=False),
    Column("public_key", LargeBinary, nullable=False),
    Column("sign_count", BigInteger, nullable=False),
    Column("name", String(64), nullable=False),
    Column("transports", String(200), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("last_used_at", DateTime(timezone=True), nullable=True),
    sqlite_autoincrement=True,
)
"""The accounts' passkeys (WebAuthn credentials, store/passkeys.py): the credential's id
(base64url), the account's WebAuthn user handle (random, the same for every passkey of an
account), the COSE public key, the authenticator's signature counter at its last use and
the name its owner gave it. No secret: the private key never leaves the authenticator."""

passkey_challenges: Final = Table(
    "passkey_challenges",
    metadata,
    Column("challenge_hash", String(64), primary_key=True),
    Column("purpose", String(16), nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True),
    Column("session_hash", String(64), nullable=True),
    Column("user_handle", String(128), nullable=True),
    Column("expires_at", DateTime(timezone=True), nullable=False, index=True),
)
"""The passkey ceremonies under way: the SHA-256 of each challenge the server sent, for
what (``register`` or ``login``), for a registration the account and session that asked,
and when it expires. A challenge is taken (deleted) by the answer that uses it: once."""
