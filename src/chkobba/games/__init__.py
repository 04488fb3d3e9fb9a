"""Every game behind one interface (:mod:`chkobba.games.base`): the Chkobba family
(:mod:`chkobba.games.chkobba`) and Touti (:mod:`chkobba.games.touti`)."""

from chkobba.games.base import (
    GAME_NAMES,
    MOVE_REFUSALS,
    Game,
    MoveRefused,
    Player,
    Record,
    RecordFault,
    Table,
    catalogue,
    describe,
    game,
    game_of_format,
    game_of_record,
    open_steps,
    play_out,
    replay,
)

__all__ = [
    "GAME_NAMES",
    "MOVE_REFUSALS",
    "Game",
    "MoveRefused",
    "Player",
    "Record",
    "RecordFault",
    "Table",
    "catalogue",
    "describe",
    "game",
    "game_of_format",
    "game_of_record",
    "open_steps",
    "play_out",
    "replay",
]
