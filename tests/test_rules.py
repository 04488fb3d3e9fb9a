"""Rule tests written from docs/rules.md (and docs/records.md for the deal order).

Each test names the section it checks. Positions are built directly: either a
deck arranged so that the deal gives chosen hands and table (``arranged_deck``,
which follows docs/records.md's dealing order independently of the engine), or a
dealt round whose hands, table and stock are then set as card masks (``set_up``).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba.fishing.cards import CARDS, FULL_DECK, VALUE_OF, Card, cards_of, parse_cards
from chkobba.fishing.game import DealError, IllegalMove, Phase, Round
from chkobba.fishing.match import Match, match_winner
from chkobba.fishing.moves import Cut, Play
from chkobba.fishing.rules import CHKOBBA, RulesError, RuleSet, preset
from chkobba.fishing.scoring import score_round

SEATINGS = [(2, False), (3, False), (4, False), (4, True)]
SEATING_IDS = ["2", "3", "4", "2v2"]


def card(text: str) -> Card:
    """One card from its notation."""
    return Card.parse(text)


def cards(text: str) -> int:
    """A card set from space-separated notation (``""`` is the empty set)."""
    return parse_cards(text, " ") if text.strip() else 0


def play(text: str) -> Play:
    """A play from its notation."""
    return Play.parse(text)


def arranged_deck(
    seats: int,
    dealer: int,
    cut: Cut,
    hands: dict[int, str],
    table: str,
    stock: str = "",
) -> list[int]:
    """A deck whose deal (docs/records.md) gives ``hands`` and ``table``, then ``stock`` on top.

    Seats not named in ``hands`` and the rest of the stock get the remaining
    cards in card-number order. With ``Cut.KEEP`` the first card of the cutter's
    hand is the cut card; with ``Cut.TABLE`` the first table card is.
    """
    used = 0
    named: list[int] = []
    for text in [*hands.values(), table, stock]:
        for c in text.split():
            named.append(card(c))
    for c in named:
        assert not used >> c & 1, f"{CARDS[c]} named twice"
        used |= 1 << c
    spare = iter(c for c in range(40) if not used >> c & 1)

    def take(text: str | None, n: int) -> list[int]:
        got = [card(c) for c in text.split()] if text else []
        assert len(got) in (0, n)
        return got or [next(spare) for _ in range(n)]

    cutter = (dealer + 1) % seats
    order = [(cutter + i) % seats for i in range(seats)]
    deck: list[int] = []
    if cut is Cut.KEEP:
        for seat in order:
            deck += take(hands.get(seat), 3)
        deck += take(table, 4)
    else:
        deck += take(table, 4)
        for seat in order:
            deck += take(hands.get(seat), 3)
    deck += [card(c) for c in stock.split()]
    deck += list(spare)
    assert sorted(deck) == list(range(40))
    return deck


def dealt(
    seats: int = 2,
    teams: bool = False,
    dealer: int = 0,
    rules: RuleSet = CHKOBBA,
    cut: Cut = Cut.KEEP,
) -> Round:
    """A round dealt from a fixed deck that is not void."""
    deck = arranged_deck(seats, dealer, cut, {}, "As 2s 3s 4s")
    r = Round(rules, seats, teams, dealer, deck)
    r.apply(cut)
    return r


def set_up(
    r: Round,
    hands: Sequence[str],
    table: str,
    stock: bool = True,
    turn: int = 0,
) -> Round:
    """Give a dealt round these hands and table; ``stock=False`` empties the stock."""
    r.hands = [cards(h) for h in hands]
    r.in_hands = sum(h.bit_count() for h in r.hands)
    r.table = cards(table)
    if not stock:
        r.stock_pos = len(r.deck)
    r.turn = turn
    return r


def moves_text(r: Round) -> set[str]:
    """The legal moves as notation."""
    return {str(m) for m in r.legal_moves()}


def play_out(r: Round, rng: random.Random) -> None:
    """Play random legal moves to the end of the round."""
    while not r.is_over:
        r.apply(rng.choice(r.legal_moves()))


# -- §2.2 the deal --------------------------------------------------------------


@pytest.mark.parametrize(("seats", "teams"), SEATINGS, ids=SEATING_IDS)
def test_s2_2_the_cut_is_the_cutters_move(seats: int, teams: bool) -> None:
    """§2.2: the player after the dealer is shown the cut card and chooses keep or table."""
    for dealer in range(seats):
        deck = arranged_deck(seats, dealer, Cut.KEEP, {}, "As 2s 3s 4s")
        r = Round(CHKOBBA, seats, teams, dealer, deck)
        assert r.phase is Phase.CUT
        assert r.cutter == (dealer + 1) % seats
        assert r.turn == r.cutter
        assert r.cut_card == deck[0]
        assert r.legal_moves() == [Cut.KEEP, Cut.TABLE]
        assert r.hands == [0] * seats and r.table == 0
        with pytest.raises(IllegalMove, match=f"seat {r.cutter} must first decide the cut"):
            r.apply(Play(deck[0]))
        with pytest.raises(IllegalMove, match=f"it is seat {r.cutter}'s turn"):
            r.apply(Cut.KEEP, seat=dealer)


@pytest.mark.parametrize(("seats", "teams"), SEATINGS, ids=SEATING_IDS)
@pytest.mark.parametrize("cut", [Cut.KEEP, Cut.TABLE], ids=str)
def test_s2_2_deal_order_follows_record_md(seats: int, teams: bool, cut: Cut) -> None:
    """§2.2 / docs/records.md: keep → cutter deck[0:3], others to the dealer, 4 to the table;
    table → table deck[0:4], then 3 each from the cutter on."""
    rng = random.Random(seats * 10 + teams)
    for dealer in range(seats):
        deck = list(range(40))
        rng.shuffle(deck)
        r = Round(CHKOBBA, seats, teams, dealer, deck)
        r.apply(cut)
        cutter = (dealer + 1) % seats
        order = [(cutter + i) % seats for i in range(seats)]
        if cut is Cut.KEEP:
            hands_at, table_at = 0, 3 * seats
        else:
            hands_at, table_at = 4, 0
        assert r.table == sum(1 << c for c in deck[table_at : table_at + 4])
        for k, seat in enumerate(order):
            start = hands_at + 3 * k
            assert r.hands[seat] == sum(1 << c for c in deck[start : start + 3]), (dealer, seat)
        if cut is Cut.KEEP:
            assert r.hands[cutter] >> deck[0] & 1
        else:
            assert r.table >> deck[0] & 1
        assert order[-1] == dealer
        assert r.stock == 40 - 4 - 3 * seats
        assert r.stock_mask() == sum(1 << c for c in deck[4 + 3 * seats :])
        assert r.turn == cutter, "§2.2: the cutter plays first"
        assert r.history[0].seat == cutter and r.history[0].move is cut


@pytest.mark.parametrize("cut", [Cut.KEEP, Cut.TABLE], ids=str)
@pytest.mark.parametrize(
    ("table", "void"),
    [
        ("5s 5h 5d Kc", True),
        ("5s 5h 5d 5c", True),
        ("5s 5h Kd Kc", False),
        ("As 2h 3d 4c", False),
    ],
)
def test_s2_2_three_or_four_of_a_rank_on_the_table_void_the_deal(
    cut: Cut, table: str, void: bool
) -> None:
    """§2.2: three (or four) cards of one rank among the four table cards void the deal."""
    deck = arranged_deck(2, 0, cut, {}, table)
    r = Round(CHKOBBA, 2, False, 0, deck)
    r.apply(cut)
    assert r.table == cards(table)
    assert r.void is void


def test_s2_2_a_void_deal_is_redone_by_the_same_dealer_with_a_fresh_shuffle() -> None:
    """§2.2: the Match replaces a void deal with a new shuffle by the same dealer."""
    deck = arranged_deck(3, 1, Cut.TABLE, {}, "Js Jh Jd 2c")
    m = Match(CHKOBBA, seats=3, seed=5, first_dealer=1, first_deck=deck)
    assert m.turn == 2
    m.apply(Cut.TABLE, seat=2)
    assert m.void_deals == 1
    assert m.round.dealer == 1 and m.round.cutter == 2
    assert m.round.phase is Phase.CUT
    assert list(m.round.deck) != deck
    assert m.round.history == [] and m.finished == []


@pytest.mark.parametrize(
    ("count", "table", "void"),
    [
        (4, "5s 5h 5d Kc", False),
        (4, "5s 5h 5d 5c", True),
        (2, "5s 5h Qd Kc", True),
        (2, "As 5h Qd Kc", False),
    ],
)
def test_s2_2_void_count_option(count: int, table: str, void: bool) -> None:
    """§2.2 [decided]: ``void_deal_count`` sets how many of a rank void the deal."""
    rules = preset("chkobba", {"void_deal_count": count})
    r = Round(rules, 2, False, 1, arranged_deck(2, 1, Cut.KEEP, {}, table))
    r.apply(Cut.KEEP)
    assert r.void is void


def test_s2_2_without_the_cut_a_void_deal_is_redone_before_anyone_plays() -> None:
    """§2.2: with ``cut_choice`` off the deal is complete at once; a void one must be
    redone before the first play, never played on and then thrown away."""
    rules = preset("chkobba", {"cut_choice": False})
    void_seen = 0
    for seed in range(300):
        m = Match(rules, seats=2, seed=seed)
        void_seen += m.void_deals
        r = m.round
        assert not r.void, f"seed {seed}: the match starts on a void deal"
        assert r.phase is Phase.PLAY and r.cut is None
        # The dealer deals 3 each from the seat after the dealer, then 4 to the table.
        assert r.hands[r.cutter] == sum(1 << c for c in r.deck[0:3])
        assert r.hands[r.dealer] == sum(1 << c for c in r.deck[3:6])
        assert r.table == sum(1 << c for c in r.deck[6:10])
    assert void_seen > 0, "some seed should have hit a void deal"


@pytest.mark.parametrize(
    ("seats", "teams", "deals"), [(2, False, 6), (3, False, 4), (4, False, 3), (4, True, 3)]
)
def test_s2_2_redeal_three_each_when_hands_are_empty(seats: int, teams: bool, deals: int) -> None:
    """§2.2: when every hand is empty the dealer deals 3 more each (none to the table),
    from the cutter on; play goes on after the last player; 6, 4 or 3 deals a round."""
    rng = random.Random(seats + teams)
    for dealer in range(seats):
        r = dealt(seats, teams, dealer)
        n_deals = 1
        plays = [0] * seats
        while not r.is_over:
            seat = r.turn
            pos = r.stock_pos
            table_before = r.table
            move = rng.choice(r.legal_plays())
            r.apply(move, seat=seat)
            plays[seat] += 1
            if r.is_over:
                break
            if r.stock_pos != pos:
                n_deals += 1
                assert r.stock_pos == pos + 3 * seats
                for k in range(seats):
                    s = (r.cutter + k) % seats
                    assert r.hands[s] == sum(1 << c for c in r.deck[pos + 3 * k : pos + 3 * k + 3])
                if move.capture:
                    assert r.table == table_before & ~move.capture, "none to the table"
                else:
                    assert r.table == table_before | 1 << move.card, "none to the table"
            assert r.turn == (seat + 1) % seats
        assert n_deals == deals
        assert plays == [3 * deals] * seats


# -- §2.3 a turn ----------------------------------------------------------------


def test_s2_3_1_matching_has_priority_over_addition() -> None:
    """§2.3.1: a card whose value is on the table takes exactly one such card."""
    r = set_up(dealt(), ["", "7d 2c Kc"], "7h 7c 3s 4h", turn=1)
    assert {str(m) for m in r.legal_moves() if m.card == card("7d")} == {"7d:7h", "7d:7c"}
    with pytest.raises(IllegalMove, match="matching has priority"):
        r.apply(play("7d:3s+4h"))
    with pytest.raises(IllegalMove, match="must capture a single 7"):
        r.apply(play("7d:7h+7c"))


def test_s2_3_2_addition_of_any_size_each_choice_listed_separately() -> None:
    """§2.3.2: any set of two or more table cards adding up to the value; each set a move."""
    r = set_up(dealt(), ["Kd 5c 2c", ""], "As 2h 3d 4s 6h Jc")
    assert moves_text(r) == {
        # K = 10: every subset adding to 10 (no K on the table).
        "Kd:As+2h+3d+4s",
        "Kd:4s+6h",
        "Kd:As+3d+6h",
        "Kd:As+Jc",
        # 5 = A+4 or 2+3; no 5 on the table.
        "5c:As+4s",
        "5c:2h+3d",
        # 2 matches the 2h.
        "2c:2h",
    }
    r.apply(play("Kd:As+2h+3d+4s"))
    assert r.table == cards("6h Jc")
    assert r.piles[0] == cards("Kd As 2h 3d 4s")


def test_s2_3_2_two_hand_cards_never_combine() -> None:
    """§2.3.2: only the played card counts: 3 and 4 in hand cannot take a 7."""
    r = set_up(dealt(), ["3s 4s", ""], "7h Kc")
    assert moves_text(r) == {"3s", "4s"}
    with pytest.raises(IllegalMove, match="3s cannot capture 7h: it is worth 7, not 3"):
        r.apply(play("3s:7h"))
    with pytest.raises(IllegalMove, match=r"4s cannot capture 7h\+Kc: 7\+10 = 17, not 4"):
        r.apply(play("4s:7h+Kc"))


def test_s2_3_3_a_card_that_captures_nothing_is_laid() -> None:
    """§2.3.3: with no match and no sum the card goes on the table; passing is not a move."""
    r = set_up(dealt(), ["Ks Qh", ""], "As 2h")
    assert moves_text(r) == {"Ks", "Qh"}
    r.apply(play("Qh"))
    assert r.table == cards("As 2h Qh")
    assert r.piles == [0, 0] and r.turn == 1


def test_s2_3_4_a_capturing_card_may_not_be_laid() -> None:
    """§2.3.4 [decided]: laying a card that can capture is illegal; another card may be laid."""
    r = set_up(dealt(), ["7d 2c", ""], "7h 5s")
    assert moves_text(r) == {"7d:7h", "2c"}
    with pytest.raises(IllegalMove, match="7d cannot be laid on the table: it captures 7h"):
        r.apply(play("7d"))
    r.apply(play("2c"))
    assert r.table == cards("7h 5s 2c")


def test_s2_3_4_option_may_drop_capturing_card() -> None:
    """§2.3.4: with ``may_drop_capturing_card`` a capturing card may also be laid."""
    rules = preset("chkobba", {"may_drop_capturing_card": True})
    r = set_up(dealt(rules=rules), ["7d 2c", ""], "7h 5s")
    assert moves_text(r) == {"7d:7h", "7d", "2c"}
    r.apply(play("7d"))
    assert r.table == cards("7h 5s 7d")


def test_s2_3_a_single_card_of_another_value_is_no_addition() -> None:
    """§2.3.1-2: a 6 trying to take a J is refused for the J's value (9, not 6), whether a
    6 lies elsewhere on the table or cards add up to 6, never as an addition (issue 18)."""
    r = set_up(dealt(), ["6h 2c", "Kd"], "6s Jc 4d")
    with pytest.raises(IllegalMove) as info:
        r.apply(play("6h:Jc"))
    assert str(info.value) == "6h cannot capture Jc: it is worth 9, not 6; 6h may take 6s"
    r = set_up(dealt(), ["6h 2c", "Kd"], "2s Jc 4d")
    with pytest.raises(IllegalMove) as info:
        r.apply(play("6h:Jc"))
    assert str(info.value) == "6h cannot capture Jc: it is worth 9, not 6; 6h may take 2s+4d"
    with pytest.raises(IllegalMove, match=r"^6h cannot capture 4d\+Jc: 4\+9 = 13, not 6;"):
        r.apply(play("6h:4d+Jc"))
    r = set_up(dealt(), ["6h 2c", "Kd"], "6s 2s 4d")
    with pytest.raises(IllegalMove, match=r"must capture a single 6 \(6s\): matching has"):
        r.apply(play("6h:2s+4d"))


def test_s2_3_play_errors_name_the_reason() -> None:
    """§2.3 / DESIGN.md: a checked apply says why a play is illegal."""
    r = set_up(dealt(), ["7d 2c", "Kd"], "7h 5s")
    with pytest.raises(IllegalMove, match="Kd is not in seat 0's hand"):
        r.apply(play("Kd"))
    with pytest.raises(IllegalMove, match="7d cannot capture 7c: 7c is not on the table"):
        r.apply(play("7d:7c"))
    with pytest.raises(IllegalMove, match="2c cannot capture 5s: it is worth 5, not 2"):
        r.apply(play("2c:5s"))
    with pytest.raises(IllegalMove, match="it is seat 0's turn, not seat 1's"):
        r.apply(play("7d:7h"), seat=1)
    with pytest.raises(IllegalMove, match="there is no cut to decide now"):
        r.apply(Cut.KEEP)
    assert r.hands == [cards("7d 2c"), cards("Kd")] and r.table == cards("7h 5s")


@pytest.mark.parametrize("move", [Play(45), Play(-1), Play(26, 1 << 45), Play(26, -1)])
def test_s2_3_plays_naming_no_card_are_illegal_moves(move: Play) -> None:
    """DESIGN.md: a checked apply rejects anything but a legal move with IllegalMove."""
    r = set_up(dealt(), ["7d 2c", "Kd"], "7h 5s")
    with pytest.raises(IllegalMove, match="names no card: cards are numbered 0 to 39"):
        r.apply(move)


def test_wrong_seat_is_refused_by_the_match() -> None:
    """A checked apply names whose turn it is."""
    m = Match(CHKOBBA, 3, seed=2)
    other = (m.turn + 1) % 3
    with pytest.raises(IllegalMove, match=f"it is seat {m.turn}'s turn, not seat {other}'s"):
        m.apply(Cut.KEEP, seat=other)
    assert m.round.phase is Phase.CUT


def oracle_moves(hand: int, table: int) -> set[str]:
    """The legal plays by docs/rules.md §2.3, by brute force over every subset of the table."""
    out: set[str] = set()
    on_table = cards_of(table)
    for c in cards_of(hand):
        v = c.value
        same = [t for t in on_table if t.value == v]
        caps: list[int] = []
        if same:
            caps = [1 << t for t in same]
        else:
            for n in range(2, len(on_table) + 1):
                for combo in itertools.combinations(on_table, n):
                    if sum(t.value for t in combo) == v:
                        caps.append(sum(1 << t for t in combo))
        out |= {str(Play(c, m)) for m in caps} if caps else {str(c)}
    return out


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 39), min_size=1, max_size=12, unique=True), st.integers(1, 3))
def test_s2_3_legal_plays_equal_a_brute_force_reading_of_the_rules(
    picked: list[int], n_hand: int
) -> None:
    """§2.3: legal plays equal a brute-force enumeration of §2.3.1-4, for any hand and table."""
    n_hand = min(n_hand, len(picked))
    hand = sum(1 << c for c in picked[:n_hand])
    table = sum(1 << c for c in picked[n_hand:])
    r = dealt()
    r.hands = [hand, 0]
    r.in_hands = n_hand
    r.table = table
    r.turn = 0
    moves = [str(m) for m in r.legal_moves()]
    assert len(moves) == len(set(moves)), "each choice is listed once"
    assert set(moves) == oracle_moves(hand, table)


def test_s2_3_teams_pool_their_captures() -> None:
    """§2.1 / §2.3: partners (seats 0 and 2, 1 and 3) capture into one pile."""
    r = set_up(dealt(4, True, dealer=3), ["As", "2s", "3s Kh", "4s"], "Ad 2d 3d Kd 5c")
    r.apply(play("As:Ad"))
    r.apply(play("2s:2d"))
    r.apply(play("3s:3d"))
    assert r.piles == [cards("As Ad 3s 3d"), cards("2s 2d")]
    assert r.last_capturer == 0


# -- §2.4 chkobba points --------------------------------------------------------


def test_s2_4_a_sweep_scores_a_chkobba_at_once() -> None:
    """§2.4: a capture that empties the table scores 1 for the side, at once."""
    r = set_up(dealt(3), ["Kd", "As", "Ah"], "3s 7h")
    r.apply(play("Kd:3s+7h"))
    assert r.table == 0
    assert r.chkobba == [1, 0, 0]
    assert r.history[-1].chkobba is True
    r.apply(play("As"))
    r.apply(play("Ah:As"))
    assert r.chkobba == [1, 0, 1], "the last play of a deal (not of the round) still scores"
    assert r.stock_pos == 22 and r.in_hands == 9, "and the next deal follows"


def test_s2_4_no_chkobba_on_the_last_play_of_the_round() -> None:
    """§2.4: the last play of the round scores no chkobba even if it empties the table."""
    r = set_up(dealt(), ["", "5s"], "2h 3d", stock=False, turn=1)
    r.apply(play("5s:2h+3d"))
    assert r.is_over
    assert r.chkobba == [0, 0]
    assert r.history[-1].chkobba is False
    assert r.score is not None and r.score.chkobba == (0, 0)


# -- §2.5 end of round ----------------------------------------------------------


def test_s2_5_last_capturer_takes_the_table() -> None:
    """§2.5: the cards left on the table go to the side that captured last."""
    r = set_up(dealt(), ["6s 5c", "Kh 6h"], "As 4c Qd", stock=False)
    r.apply(play("5c:As+4c"))  # side 0 captures
    r.apply(play("Kh"))
    r.apply(play("6s"))
    r.apply(play("6h:6s"))  # side 1 captures last
    assert r.is_over
    assert r.swept == cards("Qd Kh")
    assert r.piles[1] == cards("6h 6s Qd Kh")
    assert r.piles[0] == cards("5c As 4c")
    assert r.leftover == 0 and r.table == 0


def test_s2_5_if_nobody_captured_the_table_is_set_aside() -> None:
    """§2.5: if nobody captured in the whole round the table counts for nobody."""
    r = set_up(dealt(), ["Ks", "Qh"], "As 2h", stock=False)
    r.last_capturer = None
    r.apply(play("Ks"))
    r.apply(play("Qh"))
    assert r.is_over
    assert r.leftover == cards("As 2h Ks Qh")
    assert r.piles == [0, 0] and r.swept == 0
    assert r.score is not None and r.score.points == (0, 0)


def test_s2_5_karta_and_dinari_strictly_the_most() -> None:
    """§2.5: kārṭa and dīnārī go to strictly the most cards / diamonds; a tie to nobody."""
    a = cards("As 2s 3s Ad 2d 3d 4d Ks")
    b = cards("Ah 2h 3h 4h 5d 6d Kh")
    s = score_round([a, b], [0, 0])
    assert (s.cards, s.diamonds) == ((8, 7), (4, 2))
    assert (s.karta, s.dinari) == (0, 0)
    s = score_round([a, b | cards("Qh")], [0, 0])
    assert s.karta is None, "8 cards each: bājī"
    s = score_round([cards("Ad 2d"), cards("3d 4d")], [0, 0])
    assert s.dinari is None


@pytest.mark.parametrize(
    ("piles", "winner"),
    [
        (["7s 7h", "7c 6s 6h 6d"], 0),  # most 7s wins, whatever the 6s
        (["7s 6s", "7c 6h 6d"], 1),  # tied on 7s: most 6s
        (["7s 6s", "7c 6h"], None),  # tied on 7s and on 6s: bājī
        (["", "6s"], 1),  # no 7s anywhere: the 6s decide
        (["7s 7h", "7c 7d", "6s 6h 6d 6c"], None),  # behind on 7s cannot win on 6s
        (["7s 7h 6s", "7c 7d", "6h 6d 6c"], 0),
        (["7s", "7h", "7c", "7d 6s"], 3),
    ],
)
def test_s2_5_barmila_sevens_then_sixes(piles: list[str], winner: int | None) -> None:
    """§2.5: barmīla: strictly the most 7s; among sides tied at the top, strictly the most 6s."""
    assert score_round([cards(p) for p in piles], [0] * len(piles)).barmila == winner


def test_s2_5_three_sevens_with_the_living_seven_are_worth_two_points() -> None:
    """§2.5: three 7s including 7♦ give barmīla and sabʿa l-ḥayya."""
    s = score_round([cards("7d 7s 7h"), cards("7c 6s 6h 6d Ks")], [0, 0])
    assert s.barmila == 0 and s.haya == 0
    assert s.karta == 1 and s.dinari is None
    assert s.points == (2, 1)


def test_s2_5_haya_nobody_when_the_seven_is_set_aside() -> None:
    """§2.5: sabʿa l-ḥayya is scored by the side holding 7♦ (nobody if nobody does)."""
    assert score_round([cards("7s"), cards("Ks")], [0, 0]).haya is None
    assert score_round([cards("7s"), cards("7d")], [0, 0]).haya == 1


@pytest.mark.parametrize("n", [3, 4])
def test_s2_5_independent_players_strictly_the_most_among_all(n: int) -> None:
    """§2.5: with 3 or 4 players, strictly the most among all sides; a tie at the top: nobody."""
    piles = ["As 2s 3s 4s", "Ah 2h 3h 4h", "Ac 2c"] + (["Kc"] if n == 4 else [])
    s = score_round([cards(p) for p in piles], [0] * n)
    assert s.karta is None
    piles[2] += " 3c 4c 5c"
    s = score_round([cards(p) for p in piles], [0] * n)
    assert s.karta == 2
    diamonds = ["Ad 2d", "3d", "4d", "5d 6d"][:n]
    s = score_round([cards(p) for p in diamonds], [0] * n)
    if n == 4:
        assert s.dinari is None, "2 diamonds each for seats 0 and 3"
    else:
        assert s.dinari == 0


def test_s2_5_points_add_the_chkobba_points() -> None:
    """§2.5 / §2.6: a side's round points are its chkobba points plus the points it won."""
    s = score_round([cards("7d 7s Ad 2d As 2s"), cards("Kh")], [2, 3])
    assert (s.karta, s.dinari, s.barmila, s.haya) == (0, 0, 0, 0)
    assert s.points == (6, 3)


def test_s2_5_a_whole_round_ends_scored() -> None:
    """§2.5: after the last card the round is over, every card is in a pile or set aside."""
    for seats, teams in SEATINGS:
        r = dealt(seats, teams)
        play_out(r, random.Random(seats))
        assert r.is_over and r.legal_moves() == []
        total = r.leftover
        for p in r.piles:
            assert not total & p
            total |= p
        assert total == FULL_DECK
        assert r.score is not None
        assert r.score.cards == tuple(p.bit_count() for p in r.piles)
        with pytest.raises(IllegalMove, match="the round is over"):
            r.apply(Play(0))


# -- §2.6 the match -------------------------------------------------------------


@pytest.mark.parametrize(
    ("totals", "target", "winner"),
    [
        ([20, 19], 21, None),
        ([21, 19], 21, 0),
        ([20, 21], 21, 1),
        ([21, 21], 21, None),
        ([25, 23], 21, 0),
        ([11, 12], 11, 1),
        ([22, 21, 5], 21, 0),
        ([3, 25, 25], 21, None),
        ([3, 25, 25, 30], 21, 3),
    ],
)
def test_s2_6_match_winner(totals: list[int], target: int, winner: int | None) -> None:
    """§2.6: once a side reaches the target, the highest total wins; a tie at the top plays on."""
    assert match_winner(totals, target) == winner


def _to_last_play(m: Match, rng: random.Random) -> None:
    """Play the current round until one play is left."""
    while not (m.round.phase is Phase.PLAY and m.round.in_hands == 1 and m.round.stock == 0):
        m.apply(rng.choice(m.legal_moves()))


@pytest.mark.parametrize(("seats", "teams"), SEATINGS, ids=SEATING_IDS)
def test_s2_6_a_tie_at_the_top_plays_another_round(seats: int, teams: bool) -> None:
    """§2.6 [decided]: sides tied on the highest total at or above the target play on."""
    rng = random.Random(seats)
    m = Match(preset("chkobba", {"target": 11}), seats, teams, seed=3)
    _to_last_play(m, rng)
    (last,) = m.legal_moves()
    probe = m.round.copy()
    probe.apply(last)
    assert probe.score is not None
    pts = probe.score.points
    top = 11 + max(pts)
    m.totals = [top - p for p in pts]
    dealer = m.round.dealer
    m.apply(last)
    assert m.totals == [top] * m.sides
    assert m.winner is None and not m.is_over
    assert len(m.finished) == 1
    assert m.round.phase is Phase.CUT and m.round_number == 2
    assert m.round.dealer == (dealer + 1) % seats, "§2.2: the deal passes to the next player"


def test_s2_6_the_highest_total_at_the_target_wins() -> None:
    """§2.6: a side at or above the target with the highest total wins; the match stops."""
    rng = random.Random(1)
    m = Match(preset("chkobba", {"target": 31}), 2, seed=8)
    _to_last_play(m, rng)
    (last,) = m.legal_moves()
    probe = m.round.copy()
    probe.apply(last)
    assert probe.score is not None
    pts = probe.score.points
    m.totals = [30 - pts[0], 31 - pts[1]]
    m.apply(last)
    assert m.totals == [30, 31]
    assert m.winner == 1 and m.is_over
    assert m.legal_moves() == []
    with pytest.raises(IllegalMove, match="the match is over"):
        m.apply(Cut.KEEP)


@pytest.mark.parametrize(("seats", "teams"), SEATINGS, ids=SEATING_IDS)
def test_s2_6_a_match_is_played_to_the_target(seats: int, teams: bool) -> None:
    """§2.6 and §2.2: totals add the rounds' points; dealers rotate; the winner leads at the end."""
    rng = random.Random(seats * 7 + teams)
    m = Match(preset("chkobba", {"target": 11}), seats, teams, seed=seats)
    while not m.is_over:
        m.apply(rng.choice(m.legal_moves()), seat=m.turn)
    totals = [0] * m.sides
    for i, r in enumerate(m.finished):
        assert r.score is not None
        assert match_winner(totals, 11) is None, "no round is played after the match is won"
        for side, p in enumerate(r.score.points):
            totals[side] += p
        if i:
            assert r.dealer == (m.finished[i - 1].dealer + 1) % seats
    assert totals == m.totals
    assert m.winner is not None
    assert m.totals[m.winner] >= 11
    assert all(t < m.totals[m.winner] for s, t in enumerate(m.totals) if s != m.winner)


# -- options and errors ---------------------------------------------------------


def test_rule_options_unknown_option_is_an_error() -> None:
    """docs/rules.md: every [decided] point is an option; an unknown option is an error."""
    with pytest.raises(RulesError, match="unknown rule option 'nope'"):
        preset("chkobba", {"nope": 1})
    with pytest.raises(RulesError, match="unknown rule option 'name'"):
        preset("chkobba", {"name": "scopa"})
    with pytest.raises(RulesError, match="unknown rules 'tresette'"):
        preset("tresette")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"target": "21"}, "'target' takes a int"),
        ({"target": True}, "'target' takes a int"),
        ({"target": 21.0}, "'target' takes a int"),
        ({"may_drop_capturing_card": 1}, "'may_drop_capturing_card' takes a bool"),
        ({"target": 0}, "target must be a positive number"),
        ({"void_deal_count": 1}, "void_deal_count must be 2 to 5"),
        ({"max_capture_cards": 1}, "max_capture_cards must be 0"),
    ],
)
def test_rule_options_bad_values_are_errors(options: dict[str, object], message: str) -> None:
    """docs/rules.md §2.6 etc.: an option given the wrong type or a senseless value is an error."""
    with pytest.raises(RulesError, match=message):
        preset("chkobba", options)


def test_rule_options_target() -> None:
    """§2.6: ``target`` is an option (11, 21 or 31; default 21)."""
    assert preset("chkobba").target == 21
    assert preset("chkobba", {"target": 11}).target == 11
    assert preset("chkobba", {"target": 31}).changed_options() == {"target": 31}


@pytest.mark.parametrize(
    ("seats", "teams", "message"),
    [(1, False, "2, 3 or 4 players"), (5, False, "2, 3 or 4 players"), (2, True, "teams need 4")],
)
def test_s2_1_seating_errors(seats: int, teams: bool, message: str) -> None:
    """§2.1: 2, 3 or 4 players; teams only 2 against 2."""
    with pytest.raises(ValueError, match=message):
        Match(CHKOBBA, seats, teams, seed=1)


def test_bad_decks_are_errors() -> None:
    """docs/records.md: a deck holds the 40 cards once each; the dealer is a seat."""
    with pytest.raises(DealError, match="a deck has 40 cards, this one has 39"):
        Round(CHKOBBA, 2, False, 0, list(range(39)))
    with pytest.raises(DealError, match="As appears twice"):
        Round(CHKOBBA, 2, False, 0, [0, *range(39)])
    with pytest.raises(DealError, match="dealer must be a seat from 0 to 1, not 2"):
        Round(CHKOBBA, 2, False, 2, list(range(40)))


def test_values_of_the_ranks() -> None:
    """§1: A..7 are worth 1..7, Q 8, J 9, K 10, in every suit."""
    for c in CARDS:
        assert VALUE_OF[c] == c.value == "A234567QJK".index(c.rank) + 1
    assert [card(t).value for t in ("Qs", "Jh", "Kd")] == [8, 9, 10]
