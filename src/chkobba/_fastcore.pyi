"""Type stubs for the C extension chkobba._fastcore; use it through chkobba.search.fast."""

from collections.abc import Sequence

class Rules:
    """A rule set as the kernel plays it (build it with chkobba.search.fast.kernel_rules)."""

    def __init__(
        self,
        options: Sequence[int],
        worth: Sequence[int],
        lay: Sequence[int],
        sweep: int,
        caution: float,
        ace_no_sweep: bool,
        pairs: bool = False,
        epsilon: float = 0.0,
        caution_two: float = -1.0,
    ) -> None: ...
    def __reduce__(self) -> tuple[type[Rules], tuple[object, ...]]: ...
    def __copy__(self) -> Rules: ...
    def __deepcopy__(self, memo: object, /) -> Rules: ...

def legal_plays(rules: Rules, hand: int, table: int, wild: int, /) -> list[tuple[int, int]]: ...
def random_rounds(
    rules: Rules, seats: int, side_of: Sequence[int], n: int, seed: int, /
) -> int: ...
def play_choices(
    rules: Rules,
    seats: int,
    side_of: Sequence[int],
    dealer: int,
    deck: Sequence[int],
    choices: Sequence[float],
    /,
) -> tuple[list[str | tuple[int, int]], list[int]]: ...
def rollout(state: tuple[object, ...], seed: int, deterministic: bool, /) -> list[int]: ...
def solve(state: tuple[object, ...], /) -> list[tuple[int, int, float]]: ...
def evaluate(
    rules: Rules,
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
    declared: Sequence[int],
    wild: int,
    shown: Sequence[int],
    samples: int,
    seed: int,
    solve_cards: int,
    temperature: float,
    decisions: Sequence[tuple[int, int, int, int, int, int, int, bool, int, int]],
    known: Sequence[int] | None = None,
    reply: float = 0.0,
    solve_stock: int = 0,
    solve_last: bool = False,
    with_weight: bool = False,
    /,
) -> list[float]: ...
def likelihoods(
    decisions: Sequence[tuple[int, int, int, int, int, int, int, bool, int, int]],
    rules: Rules,
    wild: int,
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

def spiel_outcomes(left: int, /) -> list[tuple[int, float]]: ...
def float_list(tensor: object, /) -> list[float]: ...

class VecEnv:
    """N rounds of one rule set at one table, stepped together (chkobba.rl.vector.VecEnv)."""

    def __init__(
        self, rules: Rules, n: int, seats: int, side_of: Sequence[int], target: int
    ) -> None: ...
    def reset(self, seed: int, obs: object, mask: object, player: object, /) -> None: ...
    def step(
        self,
        actions: object,
        obs: object,
        mask: object,
        player: object,
        rewards: object,
        terminated: object,
        strict: bool,
        illegal_reward: float,
        active: object = None,
        /,
    ) -> int: ...
    def legal(self, game: int, action: int, /) -> bool: ...
    def sample(self, mask: object, actions: object, /) -> None: ...

class SpielRound:
    """One round dealt from a given deck, played by chkobba_v1 action ids
    (chkobba.rl.openspiel's fast path)."""

    void: int
    def __init__(
        self, rules: Rules, seats: int, side_of: Sequence[int], dealer: int, deck: bytes, /
    ) -> None: ...
    def legal(self) -> list[int]: ...
    def act(self, action: int, /) -> int: ...
    def turn(self) -> int: ...
    def points(self) -> list[int]: ...
    def copy(self) -> SpielRound: ...
    def observe(
        self, out: object, seat: int, totals: Sequence[int], target: int, public: bool = False, /
    ) -> None: ...
    def history(self, out: object, seat: int, /) -> None: ...
