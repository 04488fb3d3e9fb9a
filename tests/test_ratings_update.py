"""The rating update (chkobba.store.ratings): ranks from a game's end, openskill's update for
2 players, 2 against 2 and 3 or 4 each for themselves, and the display."""

from __future__ import annotations

import pytest

from chkobba.store.ratings import MODEL, PROVISIONAL_SIGMA, rate, shown, side_ranks

START = (MODEL.mu, MODEL.sigma)


def test_ranks_from_a_game_s_end() -> None:
    assert side_ranks(2, 1, [10, 21]) == (1, 0)
    # Resigned or out of time: the winner first, whatever the points.
    assert side_ranks(2, 0, [3, 20], loser=1) == (0, 1)
    # Several sides: the winner, then by points, the loser last, ties share a rank.
    assert side_ranks(4, 2, [5, 9, 21, 9]) == (3, 1, 0, 1)
    assert side_ranks(3, None, [12, 4, 15], loser=2) == (0, 1, 2)
    assert side_ranks(2, None, [7, 7]) == (0, 0)
    with pytest.raises(ValueError):
        side_ranks(1, 0, [1])


def test_a_duel_moves_the_winner_up_and_the_loser_down() -> None:
    [[w], [loser]] = rate([[START], [START]], [0, 1])
    assert w[0] > MODEL.mu > loser[0]
    assert w[1] < MODEL.sigma and loser[1] < MODEL.sigma
    # Zero sum between equals.
    assert w[0] - MODEL.mu == pytest.approx(MODEL.mu - loser[0])


def test_two_against_two_moves_partners_together() -> None:
    strong = (30.0, 3.0)
    after = rate([[START, strong], [START, START]], [0, 1])
    (a, b), (c, d) = after
    assert a[0] > MODEL.mu and b[0] > strong[0]
    assert c == d and c[0] < MODEL.mu
    # The uncertain partner moves more than the settled one.
    assert a[0] - MODEL.mu > b[0] - strong[0]


def test_several_each_for_themselves_in_order() -> None:
    after = rate([[START], [START], [START], [START]], [2, 0, 3, 1])
    mus = [team[0][0] for team in after]
    assert mus[1] > mus[3] > mus[0] > mus[2]
    three = rate([[START], [START], [START]], [0, 1, 1])
    assert three[1] == three[2] and three[0][0][0] > three[1][0][0]


def test_a_draw_between_equals_changes_no_mu() -> None:
    [[a], [b]] = rate([[START], [START]], [0, 0])
    assert a[0] == pytest.approx(MODEL.mu) and b[0] == pytest.approx(MODEL.mu)


def test_the_display_and_provisional() -> None:
    new = shown(*START)
    assert (new.rating, new.plus_minus, new.provisional) == (1500, 1000, True)
    settled = shown(30.0, PROVISIONAL_SIGMA - 0.1)
    assert settled.rating == 1800 and not settled.provisional
    rating = START
    games = 0
    while rating[1] > PROVISIONAL_SIGMA:
        [[rating], _] = rate([[rating], [START]], [games % 2, 1 - games % 2])
        games += 1
    assert 8 <= games <= 20
