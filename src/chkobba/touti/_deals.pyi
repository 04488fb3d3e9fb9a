"""Type stubs for the C extension chkobba.touti._deals; use it through chkobba.touti.kernel."""

from collections.abc import Sequence

def draw(
    mt_state: tuple[int, ...],
    seat: int,
    hands: Sequence[int],
    pool: int,
    sizes: Sequence[int],
    excluded: Sequence[int],
    n: int,
    /,
) -> tuple[list[list[int]], tuple[int, ...]]: ...
