"""Type stubs for the C extension chkobba._fastcore; use it through chkobba.fast."""

from collections.abc import Sequence

def set_policy(weights: Sequence[int], lay: Sequence[int], caution: float, /) -> None: ...
def legal_plays(
    hand: int, table: int, max_capture_cards: int, may_drop: bool, /
) -> list[tuple[int, int]]: ...
def random_rounds(n: int, seed: int, /) -> int: ...
def play_choices(
    seats: int,
    side_of: Sequence[int],
    dealer: int,
    deck: Sequence[int],
    cut_choice: bool,
    max_capture_cards: int,
    may_drop: bool,
    void_deal_count: int,
    choices: Sequence[float],
    /,
) -> tuple[list[str | tuple[int, int]], list[int]]: ...
def rollout(state: tuple[object, ...], seed: int, deterministic: bool, /) -> list[int]: ...
def solve(state: tuple[object, ...], /) -> list[tuple[int, int, float]]: ...
def evaluate(
    cut_phase: bool,
    seat: int,
    side_of: Sequence[int],
    turn: int,
    dealer: int,
    hand: int,
    table: int,
    cut_card: int,
    piles: Sequence[int],
    chkobba: Sequence[int],
    last_capturer: int,
    hand_sizes: Sequence[int],
    unseen: int,
    stock: int,
    max_capture_cards: int,
    may_drop: bool,
    void_deal_count: int,
    samples: int,
    seed: int,
    solve_cards: int,
    temperature: float,
    decisions: Sequence[tuple[int, int, int, int, int, int, int, bool, int, int]],
    known: Sequence[int] | None = None,
    /,
) -> list[float]: ...
def likelihoods(
    decisions: Sequence[tuple[int, int, int, int, int, int, int, bool, int, int]],
    max_capture_cards: int,
    may_drop: bool,
    temperature: float,
    deals: Sequence[Sequence[int]],
    /,
) -> list[float]: ...
def encode_v1(
    vec: object,
    mask: object,
    seat: int,
    seats: int,
    seating: int,
    side_of: Sequence[int],
    dealer: int,
    phase: int,
    hands: Sequence[int],
    table: int,
    leftover: int,
    piles: Sequence[int],
    cut_card: int,
    choice_card: int,
    choice_taken: int,
    shown: int,
    shown_all: int,
    last_cards: Sequence[int],
    plays: Sequence[tuple[int, int]],
    cut_to_move: bool,
    stock: int,
    chkobba: Sequence[int],
    last_capturer: int,
    totals: Sequence[int],
    target: int,
    /,
) -> None: ...
