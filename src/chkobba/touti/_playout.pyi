"""Type stubs for the C extension chkobba.touti._playout; use it through chkobba.touti.kernel."""

from collections.abc import Sequence

def finish(
    state: tuple[object, ...], /
) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int], bool, int]: ...
def card_totals(
    state: tuple[object, ...],
    samples: Sequence[Sequence[int]],
    cards: Sequence[int],
    team: int,
    points_weight: float,
    /,
) -> list[float]: ...
