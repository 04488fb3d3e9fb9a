"""The coach (issue 8): move analysis, plays in words, hints, the trainer, the summary."""

from __future__ import annotations

import io
import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from chkobba.agents import make_agent
from chkobba.cli import main
from chkobba.coach import estimate as estimate_module
from chkobba.coach.analysis import analyze, positions
from chkobba.coach.counting import (
    TrainerScore,
    ask,
    rank_question,
    read_answer,
    safe_question,
    suit_mask,
    suit_question,
)
from chkobba.coach.estimate import (
    PARTNER_ENDGAME_SAMPLES,
    effective_samples,
    estimate,
    is_exact,
)
from chkobba.coach.explain import difference, facts, sentence, sweepers
from chkobba.coach.summary import chart, summarize
from chkobba.fishing.cards import CARDS, FULL_DECK, Card, parse_cards, rank_mask
from chkobba.fishing.game import Round
from chkobba.fishing.match import Match
from chkobba.fishing.moves import Play
from chkobba.fishing.observe import Observation, observe, observe_round
from chkobba.fishing.record import GameRecord, record_of, replay
from chkobba.fishing.rules import CHKOBBA, preset
from chkobba.search import fast, policy
from chkobba.search.determinize import determinize
from chkobba.search.endgame import solve
from chkobba.tui import PlaySession
from chkobba.tui.coach import TerminalCoach


def played_match(seed: int, target: int = 11) -> Match:
    """A whole seeded match between two quick players."""
    m = Match(preset("chkobba", {"target": target}), seats=2, seed=seed)
    agents = [make_agent("greedy", seed), make_agent("heuristic", seed + 1)]
    while not m.is_over:
        m.apply(agents[m.turn].choose(observe(m, m.turn)), m.turn)
    return m


@pytest.fixture(scope="module")
def one_round() -> GameRecord:
    """The first round of a seeded match, as a record."""
    rec = record_of(played_match(5), ["greedy", "heuristic"], meta={"human_seat": 1})
    rec.rounds = rec.rounds[:1]
    return rec


def position(hand: str, table: str, other: str) -> Observation:
    """Seat 0 to move in a 2-player round: its hand, the table and seat 1's hand; the
    other cards in the stock (a whole number of deals, in card order), the last few
    already captured by seat 1."""
    named = [parse_cards(x, " ") for x in (hand, table, other)]
    used = named[0] | named[1] | named[2]
    rest = [c for c in CARDS if not used >> c & 1]
    cut = len(rest) // 6 * 6
    pile = sum(1 << c for c in rest[cut:])
    r = Round.in_play(
        CHKOBBA,
        (0, 1),
        1,
        rest[:cut],
        [named[0], named[2]],
        named[1],
        [0, pile],
        [0, 0],
        1 if pile else None,
        0,
    )
    return observe_round(r, 0, (0, 0), 1, 21)


def endgame(
    hands: list[str], table: str, rules: str = "chkobba", options: dict[str, Any] | None = None
) -> tuple[Round, Observation]:
    """Seat 0 to move with the stock empty: each seat's hand (in seat order) and the
    table, under a preset (with options); every other card already in seat 1's pile,
    so the unseen cards are the other seats' hands."""
    held = [parse_cards(h, " ") if h else 0 for h in hands]
    on_table = parse_cards(table, " ") if table else 0
    used = on_table
    for h in held:
        used |= h
    seats = len(held)
    piles = [0] * seats
    piles[1] = FULL_DECK & ~used
    r = Round.in_play(
        preset(rules, options),
        tuple(range(seats)),
        seats - 1,
        [],
        held,
        on_table,
        piles,
        [0] * seats,
        1,
        0,
    )
    return r, observe_round(r, 0, (0,) * seats, 1, 21)


# -- estimates ---------------------------------------------------------------------


def test_estimates_are_reproducible_and_losses_are_honest() -> None:
    obs = position("2h Kc 5s", "Qs 3d", "Ah 4c 6d")
    a = estimate(obs, 400, 4, seed=9)
    b = estimate(obs, 400, 4, seed=9)
    assert a == b
    assert a.samples == 400 and not a.exact
    assert a.plays[a.best].loss == 0.0
    assert all(p.loss >= 0 and p.se > 0 for p in a.plays)
    assert [p.move for p in a.plays] == list(obs.legal_moves)
    assert estimate(obs, 400, 4, seed=10) != a


def test_an_empty_stock_with_two_players_is_solved_exactly() -> None:
    # Every card is dealt: the 34 others are in the piles, so nothing is hidden but seat 1's hand.
    hand, table, other = (
        parse_cards("2h Kc", " "),
        parse_cards("Qs", " "),
        parse_cards("Ah 4c", " "),
    )
    rest = ((1 << 40) - 1) & ~(hand | table | other)
    r = Round.in_play(CHKOBBA, (0, 1), 1, [], [hand, other], table, [rest, 0], [0, 0], 0, 0)
    obs = observe_round(r, 0, (0, 0), 1, 21)
    assert is_exact(obs)
    est = estimate(obs, 400, 4, seed=1)
    assert est.exact and est.samples == 1
    assert all(p.se == 0.0 and p.loss_se == 0.0 for p in est.plays)
    # Laying 2♥ on Q♠ makes 10: seat 1 has no K, so no chkobba; the K♣ lay leaves 18.
    assert {str(p.move) for p in est.plays} == {"2h", "Kc"}


def test_estimate_needs_a_turn_and_two_batches() -> None:
    obs = position("2h Kc 5s", "Qs 3d", "Ah 4c 6d")
    with pytest.raises(ValueError, match="batches"):
        estimate(obs, 100, 1)
    m = Match(seats=2, seed=1)
    waiting = observe(m, (m.turn + 1) % 2)
    with pytest.raises(ValueError, match="not its turn"):
        estimate(waiting, 100, 4)


def test_the_words_say_when_a_playout_is_solved() -> None:
    """A playout is solved exactly only where it starts with the stock empty; one that
    empties the stock later is finished by the policy (measured: solving there too made
    the analysis 1.6 to 1.7 times slower), and the words say so."""
    docs = (Path(__file__).parents[1] / "docs" / "coach.md").read_text(encoding="utf-8")
    for text in (docs, estimate_module.__doc__ or ""):
        flat = " ".join(text.split())
        assert "solved exactly once the stock is empty" not in flat
        assert "empties the stock later is finished by the policy" in flat
    # One deal left in the stock: the playout is the policy's round, not a solve.
    obs = position("2h Kc 5s", "Qs 3d", "Ah 4c 6d")
    deal = determinize(obs, random.Random(1))
    assert deal.stock > 0
    by_policy = deal.copy()
    policy.rollout(by_policy, random.Random(2))
    assert by_policy.score is not None
    points = by_policy.score.points
    assert fast.playout_margin(deal.copy(), 0, random.Random(2)) == points[0] - points[1]
    # The stock empty where the playout starts: solved.
    _, end = endgame(["2h Kc", "Ah 4c"], "Qs")
    last = determinize(end, random.Random(1))
    assert fast.playout_margin(last.copy(), 0, random.Random(2)) == solve(last)[0]


def test_the_start_of_a_scopone_is_sampled_in_full() -> None:
    """All 40 cards are dealt at once in a Scopone (docs/rules.md §3): an empty stock there
    is not yet the endgame whose few hidden splits are solved, so it gets every sample."""
    m = Match(preset("scopone"), seats=4, teams=True, seed=1)
    obs = observe(m, m.turn)
    assert obs.stock == 0 and sum(obs.hand_sizes) == 36
    est = estimate(obs, 2800, 2, 1)
    assert est.samples == effective_samples(obs, 2800) > PARTNER_ENDGAME_SAMPLES


# -- plays in words ----------------------------------------------------------------


def test_a_lay_that_offers_a_chkobba_says_so_with_the_unseen_count() -> None:
    # 2♥ on Q♠ makes 10: any K sweeps it (docs/rules.md §2.3, §2.4). K♣ is in the hand,
    # so 3 Ks are unseen.
    obs = position("2h Kc 5s", "Qs", "Ah 4c 6d")
    said = facts(obs, Play(Card.parse("2h")))
    assert "offers a chkobba to any K — 3 of 4 still unseen" in said
    assert sentence(obs, Play(Card.parse("2h"))).startswith("laid 2♥ on Q♠: offers a chkobba")


def test_a_safe_lay_does_not_claim_a_chkobba_is_offered() -> None:
    obs = position("2h Kc 5s", "Qs", "Ah 4c 6d")
    said = facts(obs, Play(Card.parse("Kc")))  # Q♠ K♣: 18, no single card takes both
    assert not any("offers" in f for f in said)
    assert any("no unseen card sweeps" in f for f in said)


def test_a_sweep_whose_rank_is_all_seen_is_safe() -> None:
    # Every other K is on the table's side already seen: in the hand or captured.
    obs = position("2h Kc Kd", "Qs Ks", "Ah 4c 6d")
    assert [t.rank for t in sweepers(obs, parse_cards("Qs 2h", " "))] == ["K"]
    # With every K in the player's own hand, nobody else can sweep with one.
    obs2 = position("2h Kc Kd Kh Ks", "Qs", "Ah 4c 6d")
    assert not any("offers" in f for f in facts(obs2, Play(Card.parse("2h"))))


def test_taking_the_seven_of_diamonds_is_named() -> None:
    obs = position("7s 2h 3c", "7d 5h", "Ah 4c 6d")
    took = facts(obs, Play(Card.parse("7s"), parse_cards("7d")))
    assert "secures sabʿa l-ḥayya (the 7♦, 1 point)" in took
    assert any(f.startswith("leaves the 7♦ to any 7") for f in facts(obs, Play(Card.parse("3c"))))


@pytest.mark.parametrize(
    ("hands", "offered"),
    [
        (["2h", "Kc"], False),  # 2 plays left, the reply included: it is the round's last
        (["2h 5s", "Kc"], True),  # 3 plays left: the reply is not the last
        (["2h", "Kc", "3c"], True),  # 3 seats: the player's last card, but 2 plays follow
        (["2h", "Kc", ""], False),  # 3 seats, 2 plays left
    ],
)
def test_no_chkobba_is_offered_to_the_rounds_last_play(hands: list[str], offered: bool) -> None:
    """docs/rules.md §2.4 (seeds: chkobba-readme-en.md line 72, "Chkobba cannot be scored at
    the end of the last turn"): the words and the trainer offer a chkobba to the reply
    exactly when the engine would score the reply's sweep."""
    r, obs = endgame(hands, "Qs")  # 2♥ on Q♠ makes 10: the K♣ sweeps it
    lay = Play(Card.parse("2h"))
    said = facts(obs, lay)
    assert any(f.startswith("offers a chkobba to any K") for f in said) is offered
    assert safe_question(obs, lay.card).answer is (not offered)
    r.apply(lay)
    r.apply(Play(Card.parse("Kc"), parse_cards("Qs 2h", " ")))
    assert r.chkobba[1] == int(offered)
    # Whether a lay is safe is not asked when no chkobba can follow it.
    asked = {ask(obs, random.Random(seed)).kind for seed in range(40)}
    assert ("safe" in asked) is offered


def test_a_better_capture_that_offers_no_chkobba_says_so() -> None:
    # Both capture: 3♥ takes 3♣ and leaves A♠ 2♠ (3) to the opponent's 3♦; 2♥ takes 2♠
    # and leaves A♠ 3♣ (4), which no card of the opponent sweeps.
    _, obs = endgame(["3h 2h", "3d 6c"], "As 3c 2s")
    took3 = Play(Card.parse("3h"), parse_cards("3c"))
    took2 = Play(Card.parse("2h"), parse_cards("2s"))
    why = difference(obs, took3, took2)
    assert why == (
        "the play made offers a chkobba to any 3 — 1 of 4 in the opponent's hand; "
        "the better play offers none"
    )
    # The other way round nothing shows at once: 2♥'s capture offers nothing either.
    assert difference(obs, took2, took3).startswith("no difference shows at once")


def test_a_chkobba_offered_to_more_unseen_cards_says_how_many() -> None:
    # 7♠ on the table: A♥ makes 8 (the opponent's 2 Qs sweep it), 2♥ makes 9 (its 1 J).
    _, obs = endgame(["Ah 2h Jc", "Qd Qh Jd"], "7s")
    why = difference(obs, Play(Card.parse("Ah")), Play(Card.parse("2h")))
    assert "the play made offers a chkobba to 2 unseen cards, the better play to 1" in why
    assert "no difference" not in why


def test_a_better_capture_against_a_lay_says_so() -> None:
    # 3♠ takes 3♣ (nothing else to it); 2♥ lays safely: the difference is the capture.
    _, obs = endgame(["3s 2h", "Kc 5d"], "As 3c")
    why = difference(obs, Play(Card.parse("2h")), Play(Card.parse("3s"), parse_cards("3c")))
    assert why.startswith("the better play captures, the play made lays")
    assert "no difference" not in why


def test_no_difference_at_once_is_said_only_when_there_is_none() -> None:
    # Two lays on K♠, neither sweepable nor takeable by the opponent's 2♣ 3♣.
    _, obs = endgame(["Qh Jh", "2c 3c"], "Ks")
    queen, knight = Play(Card.parse("Qh")), Play(Card.parse("Jh"))
    assert not any("offers" in f for f in facts(obs, queen) + facts(obs, knight))
    for made, better in ((queen, knight), (knight, queen)):
        why = difference(obs, made, better)
        assert why == "no difference shows at once: it comes later in the round"


@pytest.mark.parametrize(
    ("rules", "name", "coin"),
    [
        ("chkobba", "sabʿa l-ḥayya", "diamond"),
        ("scopa", "settebello", "denaro"),
        ("chkop", "septébel", "dénar"),
    ],
)
def test_the_seven_of_diamonds_names_the_point_it_secures(rules: str, name: str, coin: str) -> None:
    """docs/rules.md §2.5 (seeds: chkobba-wikipedia-fr.txt line 44, "Sabʿa l-ḥayya donne un
    point à celui possède le 7 de carreau"), §3 for the Scopa family: played or taken,
    the 7♦ in the pile secures its point, named in the rule set's words."""
    _, obs = endgame(["7d 2c", "Kc 5s"], "7h 4c", rules)
    played = facts(obs, Play(Card.parse("7d"), parse_cards("7h")))
    assert f"secures {name} (the 7♦, 1 point)" in played
    assert "takes 1 other 7" in played and f"1 {coin} to the pile" in played
    _, obs = endgame(["7s 2c", "Kc 5s"], "7d 4c", rules)
    assert f"secures {name} (the 7♦, 1 point)" in facts(
        obs, Play(Card.parse("7s"), parse_cards("7d"))
    )


def test_the_scopa_family_is_told_in_its_own_points() -> None:
    """docs/rules.md §3: an ace's sweep scores nothing in Asso piglia tutto (unless
    ace_sweep_scores), and Scopa Frac scores neither sweeps, 7s nor coins."""
    _, obs = endgame(["2h Qc", "Ac 5s"], "Ks", "asso-piglia-tutto")
    said = facts(obs, Play(Card.parse("2h")))  # only the opponent's A♣ takes K♠ 2♥
    assert not any("offers" in f for f in said)
    assert safe_question(obs, Card.parse("2h")).answer is True
    _, scores = endgame(["2h Qc", "Ac 5s"], "Ks", "asso-piglia-tutto", {"ace_sweep_scores": True})
    assert any(
        f.startswith("offers a scopa to any A") for f in facts(scores, Play(Card.parse("2h")))
    )
    _, frac = endgame(["7d 2c", "Kc 5s"], "3h 4h", "scopa-frac")
    assert facts(frac, Play(Card.parse("7d"), parse_cards("3h 4h", " "))) == []
    _, escoba = endgame(["7d 2c", "Kc 5s"], "4h 4c", "escoba")
    swept = facts(escoba, Play(Card.parse("7d"), parse_cards("4h 4c", " ")))
    assert swept[:2] == ["an escoba (1 point)", "secures siete de velo (the 7♦, 1 point)"]
    assert "1 oro to the pile" in swept  # the 7♦ played


# -- the analysis ------------------------------------------------------------------


def test_analysis_is_reproducible_and_covers_every_decision(one_round: GameRecord) -> None:
    a = analyze(one_round, samples=200, batches=4, seed=3)
    b = analyze(one_round, samples=200, batches=4, seed=3)
    assert [d.to_json() for d in a.decisions] == [d.to_json() for d in b.decisions]
    assert a.seats == (1,)  # the record's human seat
    rr = one_round.rounds[0]
    moves = len(rr.plays) + (rr.cut is not None)
    assert len(a.decisions) == moves // 2 + (moves % 2 and a.decisions[0].play == 0)
    for d in a.decisions:
        assert d.loss >= 0
        if d.estimates is not None:
            best = d.estimates.plays[d.estimates.best]
            assert best.loss == 0.0
            assert d.loss == pytest.approx(
                best.mean - d.estimates.plays[d.estimates.index(d.move)].mean
            )
    assert a.mistakes() == sorted(a.mistakes(), key=lambda d: -d.loss)
    assert all(d.mistake for d in a.mistakes())
    # A play worse than the best says why, as far as it shows at once, from its position.
    at = {(i, j): obs for i, j, obs, _, _ in positions(one_round)}
    worse = [d for d in analyze(one_round, [0], 200, 4, 3).decisions if d.loss > 0]
    assert worse
    for d in worse:
        assert d.words().endswith("; " + difference(at[(d.round, d.play)], d.move, d.best))


def test_analysis_rejects_a_missing_seat(one_round: GameRecord) -> None:
    with pytest.raises(ValueError, match="no seat 3"):
        analyze(one_round, seats=[3], samples=20, batches=2)


def test_analyze_command(one_round: GameRecord, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    one_round.save(path)
    runner = CliRunner()
    out = runner.invoke(
        main, ["analyze", str(path), "--samples", "80", "--batches", "4", "--json", "--seat", "all"]
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["seats"] == [0, 1]
    assert {d["seat"] for d in data["decisions"]} == {0, 1}
    text = runner.invoke(main, ["analyze", str(path), "--samples", "80", "--batches", "4"])
    assert text.exit_code == 0 and "biggest mistakes" in text.output
    bad = runner.invoke(main, ["analyze", str(path), "--seat", "7"])
    assert bad.exit_code == 2 and "no seat 7" in bad.output
    (tmp_path / "x.json").write_text("{", encoding="utf-8")
    broken = runner.invoke(main, ["analyze", str(tmp_path / "x.json")])
    assert broken.exit_code == 1 and "not valid JSON" in broken.output
    assert "Traceback" not in broken.output


def test_analyze_names_the_seat_count_before_the_names(
    one_round: GameRecord, tmp_path: Path
) -> None:
    """docs/rules.md §2.1: 2, 3 or 4 players. Five seats with two names is a seat-count fault."""
    data = {**one_round.to_json(), "seats": 5}
    path = tmp_path / "five.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = CliRunner().invoke(main, ["analyze", str(path)])
    assert out.exit_code == 1
    assert out.output.strip() == (
        "record: the game is played by 2, 3 or 4 players (the Scopa family also by 6), not 5"
    )


def test_analyze_refuses_a_record_without_rounds(one_round: GameRecord, tmp_path: Path) -> None:
    path = tmp_path / "empty.json"
    path.write_text(json.dumps({**one_round.to_json(), "rounds": []}), encoding="utf-8")
    assert CliRunner().invoke(main, ["verify", str(path)]).exit_code == 0  # valid, though
    out = CliRunner().invoke(main, ["analyze", str(path)])
    assert out.exit_code == 1  # as verify and replay answer a record they cannot use
    assert "holds no round" in out.output and "decisions" not in out.output
    assert len(out.output.strip().splitlines()) == 1


# -- the trainer -------------------------------------------------------------------


def test_trainer_answers_are_the_observations_unseen_cards() -> None:
    m = played_match(2)
    rng = random.Random(0)
    rec = record_of(m)
    replay(rec)
    # Questions at every decision of the first round, checked against the observation.
    m2 = Match(preset("chkobba", {"target": 11}), seats=2, seed=2)
    agents = [make_agent("greedy", 2), make_agent("heuristic", 3)]
    asked = 0
    while not m2.finished:
        obs = observe(m2, m2.turn)
        for value in range(1, 11):
            assert rank_question(obs, value).answer == obs.unseen & rank_mask(value)
        for suit in range(4):
            assert suit_question(obs, suit).answer == obs.unseen & suit_mask(suit)
        q = ask(obs, rng)
        if q.kind == "safe":
            left = obs.table | 1 << q.rank
            assert q.answer == (not any(t.unseen for t in sweepers(obs, left)))
        asked += 1
        m2.apply(agents[m2.turn].choose(obs), m2.turn)
    assert asked > 30


def test_trainer_reads_answers_and_scores() -> None:
    obs = position("2h Kc 5s", "Qs", "Ah 4c 6d")
    q = rank_question(obs, 10)  # K: K♣ is in the hand
    assert q.answer == parse_cards("Ks Kh Kd", " ")
    assert read_answer(q, "s h d") == q.answer
    assert read_answer(q, "Ks, K♥ Kd") == q.answer
    assert read_answer(q, "none") == 0
    with pytest.raises(ValueError):
        read_answer(q, "zz")
    s = suit_question(obs, 2)
    assert read_answer(s, "A 2") == parse_cards("Ad 2d", " ")
    safe = safe_question(obs, Card.parse("2h"))
    assert safe.answer is False and "any K" in safe.why
    assert safe_question(obs, Card.parse("Kc")).answer is True
    score = TrainerScore()
    assert score.mark(q, read_answer(q, "s h d"))
    assert not score.mark(safe, True)
    assert score.to_json() == {"asked": 2, "right": 1}


# -- hints in the terminal, counted in the record ----------------------------------


def test_hints_are_counted_in_the_record_which_still_verifies(tmp_path: Path) -> None:
    answers = iter(["hint", "unseen", "1", "hint", "1", "q", "y"])
    console = Console(file=io.StringIO(), width=100, highlight=False)

    def ask_line(prompt: str) -> str:
        return next(answers)

    coach = TerminalCoach(console, ask_line, hints=True, seed=1)
    m = Match(preset("chkobba", {"target": 11}), seats=2, seed=4)
    path = tmp_path / "g.json"
    session = PlaySession(
        m,
        {1: make_agent("greedy", 1)},
        ["Me", "greedy"],
        path,
        console=console,
        ask=ask_line,
        coach=coach,
    )
    session.run()
    screen = console.file.getvalue()  # type: ignore[attr-defined]
    assert "The expert's top plays" in screen and "Unseen (" in screen
    rec = GameRecord.load(path)
    replay(rec)
    assert rec.meta is not None
    assert rec.meta["coach"]["hints"] == 2
    assert len(rec.meta["coach"]["hinted"]) == 2
    ok = CliRunner().invoke(main, ["verify", str(path)])
    assert ok.exit_code == 0


def test_hints_are_off_unless_enabled() -> None:
    console = Console(file=io.StringIO(), width=100)
    coach = TerminalCoach(console, lambda p: "", hints=False)
    obs = position("2h Kc 5s", "Qs", "Ah 4c 6d")
    assert coach.command("hint", obs)
    assert "Hints are off" in console.file.getvalue()  # type: ignore[attr-defined]
    assert coach.meta()["hints"] == 0


# -- the summary -------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2])
def test_summary_adds_up_to_each_rounds_points(seed: int) -> None:
    m = played_match(seed)
    s = summarize(m.finished, ["a", "b"])
    assert [s.side_total(i) for i in range(2)] == list(m.totals)
    for r in m.finished:
        one = summarize([r])
        assert r.score is not None
        assert [one.side_total(i) for i in range(2)] == list(r.score.points)
    assert s.keys == ("karta", "dinari", "barmila", "haya", "chkobba")
    won = lost = 0
    for line in s.lines(0):
        _, _, rest = line.partition(": won ")
        a, _, b = rest.partition(", lost ")
        won, lost = won + int(a), lost + int(b)
    assert (won, lost) == (m.totals[0], m.totals[1])
    assert chart(s, "png").startswith(b"\x89PNG")
    assert b"<svg" in chart(s, "svg")


def test_a_lay_says_who_can_take_the_card_back() -> None:
    obs = position("2h Kc 5s", "Qs", "Ah 4c 6d")
    assert "5♠ can be taken by any 5 (3 of 4 still unseen)" in facts(obs, Play(Card.parse("5s")))
    # Every 3 but one is seen, and that one is in the player's hand: nothing takes 3♣ back.
    solo = position("3c 3h 3s 3d", "Ks", "Ah 4c 6d")
    assert "no unseen card can take 3♣" in facts(solo, Play(Card.parse("3c")))


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    stop=st.integers(0, 35),
    rules=st.sampled_from(["chkobba", "scopa", "escoba"]),
)
def test_estimates_and_words_hold_anywhere(seed: int, stop: int, rules: str) -> None:
    """Any position of any seated game: losses are never negative, the best play's is 0,
    every play gets words, and the figures are reproducible."""
    m = Match(preset(rules), seats=2, seed=seed)
    rng = random.Random(seed)
    for _ in range(stop):
        if m.round.is_over or m.is_over:
            break
        m.apply(rng.choice(m.legal_moves()), m.turn)
    if m.is_over or m.round.is_over:
        return
    obs = observe(m, m.turn)
    est = estimate(obs, 64, 2, seed)
    assert est == estimate(obs, 64, 2, seed)
    assert min(p.loss for p in est.plays) == 0.0
    assert all(p.loss >= 0 and p.se >= 0 and p.loss_se >= 0 for p in est.plays)
    for move in obs.legal_moves:
        assert sentence(obs, move)
        assert difference(obs, move, obs.legal_moves[0])


def test_terminal_trainer_asks_now_and_then_and_scores() -> None:
    console = Console(file=io.StringIO(), width=100)
    # "none" answers a rank or suit question, "no" a lay's; each is refused by the other.
    answers = itertools.chain(["zz"], itertools.cycle(["none", "no"]))
    coach = TerminalCoach(console, lambda p: next(answers), trainer=True, seed=3)
    obs = position("2h Kc 5s", "Qs", "Ah 4c 6d")
    for _ in range(30):
        coach.before_turn(obs)
    asked = coach.score.asked
    assert 3 <= asked <= 20  # about one turn in three
    screen = console.file.getvalue()  # type: ignore[attr-defined]
    assert "try again" in screen  # "zz" is not an answer: asked again, not scored
    assert coach.meta()["trainer"] == {"asked": asked, "right": coach.score.right}
    # Every rank and suit has unseen cards here, so "none" is never right for them.
    assert all(not e["right"] for e in coach.score.log if e["kind"] != "safe")


def test_an_unreadable_trainer_answer_is_told_in_the_players_language() -> None:
    """The answer's parser explains itself in English; an Italian player reads Italian."""
    from chkobba.tui.words import Speech

    console = Console(file=io.StringIO(), width=100)
    answers = itertools.chain(["zz"], itertools.repeat(""))
    coach = TerminalCoach(console, lambda p: next(answers), trainer=True, seed=3,
                          speech=Speech(lang="it"))
    obs = position("2h Kc 5s", "Qs", "Ah 4c 6d")
    for _ in range(30):
        coach.before_turn(obs)
    screen = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    assert "risposta non capita: «zz»; riprova" in screen
    assert "answer yes or no" not in screen and "type the cards" not in screen


def test_terminal_trainer_prompts_yes_or_no_for_a_yes_or_no_question() -> None:
    """A lay's safety is a yes/no question: its prompt asks for yes or no, not cards."""
    prompts: list[str] = []

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        return ""  # Enter skips

    coach = TerminalCoach(Console(file=io.StringIO()), answer, trainer=True, seed=3)
    obs = position("2h Kc 5s", "Qs", "Ah 4c 6d")
    rng = random.Random(1)
    kinds = []
    for _ in range(40):
        q = ask(obs, rng)
        kinds.append(q.kind)
        coach._quiz(q)
    assert {"safe", "rank"} <= set(kinds)
    for kind, prompt in zip(kinds, prompts, strict=True):
        assert ("yes or no" in prompt) == (kind == "safe"), (kind, prompt)
        assert ("cards" in prompt) == (kind != "safe"), (kind, prompt)
