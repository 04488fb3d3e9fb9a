"""The coach for Touti (docs/coach.md): ``chkobba analyze`` of a Touti record, each card
weighed by Touti's search with its standard error and samples, exact where the unseen
cards can lie one way only; the terminal hint; the dispatch of records through the game
interface; the record writer both games share."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from chkobba.cli import main
from chkobba.coach.analysis import analyze
from chkobba.coach.games import CHKOBBA_COACH, TOUTI_COACH, coach_of_record
from chkobba.coach.touti import pinned, positions, solve_card, weighed
from chkobba.fishing.match import Match
from chkobba.fishing.record import GameRecord, RecordError
from chkobba.fishing.record import record_of as chkobba_record_of
from chkobba.fishing.recordfile import RecordFile
from chkobba.fishing.rules import CHKOBBA
from chkobba.games import game, game_of_record
from chkobba.touti.agents import make_touti_agent
from chkobba.touti.deal import Deal, Phase, team_of
from chkobba.touti.match import ToutiMatch
from chkobba.touti.moves import CardPlay, parse_move
from chkobba.touti.observe import observe
from chkobba.touti.record import ToutiRecord, ToutiRecordError
from chkobba.touti.record import record_of as touti_record_of
from chkobba.touti.rules import ToutiRules
from chkobba.touti.search import playout, worth
from chkobba.tui.touti import ToutiSession

RECORD = Path(__file__).parent / "data" / "touti" / "records" / "default-technique.json"


def played(seed: int) -> ToutiMatch:
    """A match played to its end by the technique player at every seat."""
    m = ToutiMatch(seed=seed)
    agents = [make_touti_agent("technique", s) for s in range(4)]
    while not m.is_over:
        m.apply(agents[m.turn].choose(observe(m, m.turn)))
    return m


# -- the analysis of a recorded game ---------------------------------------------------------


def test_each_card_of_a_recorded_game_weighed_with_its_error() -> None:
    record = ToutiRecord.load(RECORD)
    result = analyze(record, [0], samples=160, batches=8, seed=1, rounds=[1])
    assert result.game == "touti" and "deal worth" in result.figure
    legal = {
        (i, j): [m for m in obs.legal_moves if isinstance(m, CardPlay)]
        for i, j, obs, move in positions(record)
        if i == 1 and obs.seat == 0 and isinstance(move, CardPlay)
    }
    # Every card seat 0 played in deal 1 (ten), and nothing of the bidding.
    assert [(d.round, d.play) for d in result.decisions] == sorted(legal)
    assert len(result.decisions) == 10
    weighed_ = [d for d in result.decisions if d.estimates is not None]
    assert weighed_ and len(weighed_) < 10  # the last trick's card is forced
    assert result.decisions[-1].estimates is None
    assert result.decisions[-1].words().endswith("(the only legal play)")
    for d in weighed_:
        est = d.estimates
        assert est is not None
        assert [p.move for p in est.plays] == legal[(d.round, d.play)]
        assert all(p.loss >= 0 and p.se >= 0 and p.loss_se >= 0 for p in est.plays)
        assert est.exact or (est.samples == 160 and est.batches == 8)
        assert d.loss == pytest.approx(est.ranking()[0].mean - est.plays[est.index(d.move)].mean)
    sampled = [d for d in weighed_ if d.estimates is not None and not d.estimates.exact]
    assert any(p.se > 0 for d in sampled if d.estimates for p in d.estimates.plays)
    # The same seed gives the same analysis.
    again = analyze(record, [0], samples=160, batches=8, seed=1, rounds=[1])
    assert again.to_json()["decisions"] == result.to_json()["decisions"]


def test_chkobba_analyze_reads_a_touti_record() -> None:
    r = CliRunner().invoke(
        main, ["analyze", str(RECORD), "--json", "--round", "2", "--samples", "64"]
    )
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["game"] == "touti" and out["samples"] == 64 and out["decisions"]
    assert all(d["round"] == 2 and d["seat"] == 0 for d in out["decisions"])
    text = CliRunner().invoke(main, ["analyze", str(RECORD), "--round", "1", "--samples", "64"])
    assert text.exit_code == 0, text.output
    assert "Deal 1" in text.output and "expected deal worth" in text.output
    bad = CliRunner().invoke(main, ["analyze", str(RECORD), "--round", "99"])
    assert bad.exit_code == 2 and "deal(s), not 99" in bad.output


def test_exact_where_the_unseen_cards_can_lie_one_way_only() -> None:
    """Near a deal's end the voids often leave each unseen card one seat: those positions
    are solved, and what they solve is the deal as it truly is."""
    m = played(0)
    record = touti_record_of(m)
    deals = iter(m.finished)
    found = 0
    true: Deal | None = None
    number = 0
    for i, _, obs, move in positions(record):
        if i != number:
            number, true = i, Deal(
                record.deals[i - 1].dealer, next(deals).deck, ToutiRules()
            )
        assert true is not None
        hands = pinned(obs) if weighed(obs) else None
        if hands is not None:
            # What the observer can work out is the truth.
            assert hands == true.hands
            est = TOUTI_COACH.estimate(obs, 64, 8, 0)
            assert est.exact and est.samples == 1
            assert all(p.se == 0 and p.loss_se == 0 for p in est.plays)
            if sum(h.bit_count() for h in hands) == 5:
                # Last to play to the ninth trick: every later move is forced, so the exact
                # figure is the deal played out.
                for p in est.plays:
                    d = true.copy()
                    d.apply(p.move)
                    playout(d)
                    assert d.score is not None
                    assert p.mean == pytest.approx(worth(d.score, team_of(obs.seat)))
                    assert p.mean == pytest.approx(solve_card(obs, hands, p.move))
            found += 1
        true.apply(parse_move(str(move)))
    assert found >= 3


def test_the_coach_weighs_only_cards_to_play() -> None:
    m = ToutiMatch(seed=4)
    obs = observe(m, m.turn)
    assert obs.phase is Phase.BID and not weighed(obs)
    with pytest.raises(ValueError, match="weighs a card to play"):
        TOUTI_COACH.estimate(obs, 64, 8, 0)


# -- the terminal hint -------------------------------------------------------------------------


def test_the_terminal_hint_gives_each_cards_worth_with_its_error(tmp_path: Path) -> None:
    out = io.StringIO()
    match = ToutiMatch(seed=3)
    asked = [False]

    def ask(prompt: str) -> str:
        # Play on (the first listed move) until a card is to be chosen among several.
        if asked[0]:
            raise EOFError
        if match.turn == 0 and weighed(observe(match, 0)):
            asked[0] = True
            return "hint"
        return "" if "Enter" in prompt else "1"

    ToutiSession(
        match,
        {seat: make_touti_agent("technique", seat) for seat in (1, 2, 3)},
        tmp_path / "rec.json",
        console=Console(file=out, width=200, highlight=False),
        ask=ask,
        hints=True,
    ).run()
    text = out.getvalue()
    assert asked[0]
    lines = text.split("The search player's best cards (")[1].splitlines()
    assert "; expected deal worth ± 1 SE):" in lines[0]
    if "solved exactly" not in lines[0]:
        assert "sampled deals" in lines[0]
        # Cards with their suit symbols, as the terminal shows them: "1. A♦  +12.30 ± 1.10".
        assert re.match(r"1\. [A2-7JQK][♠♥♦♣]  [+-]\d+\.\d\d ± \d+\.\d\d  — ", lines[1])


# -- records through the game interface ------------------------------------------------------


def test_records_go_to_their_game_by_format(tmp_path: Path) -> None:
    touti = tmp_path / "t.json"
    touti_record_of(ToutiMatch(seed=1)).save(touti)
    chk = tmp_path / "c.json"
    chkobba_record_of(Match(CHKOBBA, 2, False, 1)).save(chk)
    junk = tmp_path / "junk.json"
    junk.write_text("[1, 2", encoding="utf-8")
    assert game_of_record(touti).name == "touti"
    assert game_of_record(chk).name == "chkobba"
    assert game_of_record(junk).name == "chkobba"  # whose reader says why it is bad
    assert game_of_record(tmp_path / "missing.json").name == "chkobba"
    g = game("touti")
    line, summary = g.verify(g.read_record(touti))
    assert line.startswith("valid Touti record") and summary["winner"] is None
    assert CliRunner().invoke(main, ["verify", str(touti)]).output.strip() == line
    lines = g.replay_lines(g.read_record(RECORD))
    assert CliRunner().invoke(main, ["replay", str(RECORD)]).output == "\n".join(lines) + "\n"
    r = CliRunner().invoke(main, ["verify", str(junk)])
    assert r.exit_code == 1 and r.output.startswith("record: not valid JSON")
    assert coach_of_record(g.read_record(touti)) is TOUTI_COACH
    assert coach_of_record(GameRecord.load(chk)) is CHKOBBA_COACH


def test_one_writer_and_reader_for_every_record(tmp_path: Path) -> None:
    """Both records are written and read by :class:`RecordFile`, each keeping its format
    and naming its faults in its own words."""
    touti = touti_record_of(played(2))
    chk = chkobba_record_of(Match(CHKOBBA, 2, False, 3))
    for rec, error, part, move in (
        (touti, ToutiRecordError, "deal", "move"),
        (chk, RecordError, "round", "play"),
    ):
        assert isinstance(rec, RecordFile)
        path = tmp_path / f"{part}.json"
        rec.save(path)
        assert path.read_text(encoding="utf-8") == rec.dumps() + "\n"
        assert json.loads(rec.dumps())["format"] == rec.record_format
        assert type(rec).load(path) == rec
        with pytest.raises(error, match=r"^record: not valid JSON"):
            type(rec).loads("{")
        with pytest.raises(error, match=r"^record: cannot read"):
            type(rec).load(tmp_path / "nowhere.json")
        data = rec.to_json()
        key = "deals" if part == "deal" else "rounds"
        moves = "moves" if part == "deal" else "plays"
        first = data[key][0]
        for bad, words in (
            ([], f"^{part} 1: a {part} is a JSON object$"),
            ({**first, "x": 1}, f"^{part} 1: unknown {part} keys: x$"),
            ({**first, "deck": "Ah"}, f"^{part} 1: deck must be a list of cards$"),
            ({**first, moves: "Ah"}, f"^{part} 1: {moves} must be a list$"),
            ({**first, moves: ["Ah", 3]}, f"^{part} 1, {move} 2: a {move} is a string in the notation, not 3$"),  # noqa: E501
        ):
            with pytest.raises(error, match=words):
                type(rec).from_json({**data, key: [bad]})
