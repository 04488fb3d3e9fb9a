"""Six players each for themselves (issue 18, section 1.2).

scopa-wikipedia-fr.txt:11: "on peut aussi y jouer à trois, quatre ou six joueurs
indépendants". With hands of three, six players make 36 cards after the four on the
table: two deals of three each.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from chkobba.agents import Agent, make_agent
from chkobba.agents.expert import ExpertAgent
from chkobba.cli import main
from chkobba.fishing.game import Round
from chkobba.fishing.match import Match
from chkobba.fishing.narrate import narrate_round
from chkobba.fishing.observe import observe
from chkobba.fishing.record import GameRecord, record_of, replay
from chkobba.fishing.rules import PRESETS, RulesError, preset
from chkobba.search import fast
from chkobba.simulate import run_simulation

SCOPA = preset("scopa")


def play_out(m: Match, players: list[str], seed: int) -> None:
    """Play ``m`` to the end with the named players, one per seat (``search``: the
    expert's search on a small budget, with inference)."""
    agents: list[Agent] = [
        ExpertAgent(seed, samples=6, temperature=0.5) if n == "search" else make_agent(n, seed + s)
        for s, n in enumerate(players)
    ]
    while not m.is_over:
        seat = m.turn
        obs = observe(m, seat)
        move = agents[seat].choose(obs)
        assert move in obs.legal_moves
        m.apply(move, seat)


def accounted(r: Round) -> int:
    """The cards of a finished round: the piles and the cards nobody took."""
    assert r.score is not None
    return sum(p.bit_count() for p in r.piles) + r.leftover.bit_count()


def test_scopa_is_played_by_six_and_every_scopa_preset_with_hands_of_three() -> None:
    """scopa-wikipedia-fr.txt:11; the Scopone presets stay 2 against 2 (lines 62-63) and
    Chkobba keeps its tables."""
    for name, rules in PRESETS.items():
        six = "6" in rules.seatings
        assert six == (name != "chkobba" and rules.hand_size == 3), name
    with pytest.raises(ValueError, match="chkobba is played by 2 players"):
        Match(PRESETS["chkobba"], 6)
    with pytest.raises(ValueError, match="teams need 4 players"):
        Match(SCOPA, 6, teams=True)
    with pytest.raises(RulesError, match="6 players cannot be dealt 9 cards"):
        preset("scopone", {"seatings": ["2v2", "6"]})


def test_six_players_two_deals_of_three_each() -> None:
    rng = random.Random(6)
    deck = list(range(40))
    rng.shuffle(deck)
    r = Round(SCOPA, 6, False, 5, deck)
    assert r.side_of == (0, 1, 2, 3, 4, 5) and r.turn == 0
    for i in range(6):
        assert r.hands[i] == sum(1 << c for c in deck[3 * i : 3 * i + 3])
    assert r.table == sum(1 << c for c in deck[18:22]) and r.stock == 18
    deals = 1
    while not r.is_over:
        before = r.stock
        r.apply(rng.choice(r.legal_moves()))
        deals += r.stock != before
    assert deals == 2 and accounted(r) == 40


@pytest.mark.parametrize("seed", [1, 2])
def test_a_seeded_six_player_scopa_match_plays_to_the_end_verifies_and_replays(
    tmp_path: Path, seed: int
) -> None:
    """Every built-in player at one table (the expert's pure search among them), a whole
    match to 11; its record (seats: 6) verifies and replays with the same rounds."""
    m = Match(SCOPA, 6, seed=seed)
    play_out(m, ["random", "greedy", "heuristic", "search", "random", "greedy"], seed)
    assert m.winner is not None and max(m.totals) >= 11
    for r in m.finished:
        assert accounted(r) == 40 and len(r.score.points) == 6  # type: ignore[union-attr]
    rec = record_of(m)
    assert rec.seats == 6 and not rec.teams
    path = tmp_path / "six.json"
    rec.save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["seats"] == 6 and data["rules_version"] == 2
    result = CliRunner().invoke(main, ["verify", str(path), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["totals"] == m.totals and out["winner"] == m.winner
    assert [r["points"] for r in out["rounds"]] == [list(r.score.points) for r in m.finished]  # type: ignore[union-attr]
    rep = replay(GameRecord.load(path))
    assert [r.piles for r in rep.rounds] == [r.piles for r in m.finished]
    text = CliRunner().invoke(main, ["replay", str(path)])
    assert text.exit_code == 0 and "seat 5" in text.output
    assert "seat 5 deals" in "\n".join(narrate_round(rep.rounds[0], 1)) or rep.rounds[0].dealer != 5


def test_the_kernel_deals_six_seats_and_the_search_plays() -> None:
    """fast.supports: the compiled kernel deals six seats as it deals two, three or four
    (tests/test_fast.py checks it plays them as the engine does); five is no table."""
    assert fast.supports(PRESETS["chkobba"], 4)
    assert fast.supports(SCOPA, 6)
    assert not fast.supports(SCOPA, 5)
    assert fast.supports(preset("chkobba", {"seatings": ["2", "6"]}))
    m = Match(SCOPA, 6, seed=3)
    obs = observe(m, m.turn)
    assert ExpertAgent(1, samples=4).choose(obs) in obs.legal_moves
    cheater = make_agent("cheater", 1)
    assert cheater.choose_state(m.round) in m.legal_moves()  # type: ignore[attr-defined]


def test_simulate_six_players() -> None:
    sim = run_simulation(["greedy", "random"], 2, seats=6, rules=SCOPA, seed=1)
    assert sim.seats == 6 and sum(e.rounds for e in sim.entries) > 0
    result = CliRunner().invoke(
        main,
        ["simulate", "greedy", "random", "--rules", "scopa", "--seats", "6", "--rounds", "2"],
    )
    assert result.exit_code == 0, result.output
    assert "6 seats" in result.output


def test_the_rl_environment_refuses_six_seats() -> None:
    pytest.importorskip("pettingzoo")
    from chkobba.rl.aec import raw_env

    with pytest.raises(ValueError, match="at most 4 seats"):
        raw_env("scopa", 6)
