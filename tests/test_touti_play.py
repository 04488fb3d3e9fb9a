"""``chkobba play --game touti``: a scripted session in the terminal."""

from __future__ import annotations

import io
import itertools
import json
import re
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from rich.console import Console

from chkobba.cli import main
from chkobba.touti.agents import make_touti_agent
from chkobba.touti.match import ToutiMatch
from chkobba.touti.moves import Canto
from chkobba.touti.narrate import describe_move, score_lines
from chkobba.touti.record import ToutiRecord, replay
from chkobba.touti.rules import OPTION_HELP, ToutiRules
from chkobba.touti.scoring import DealScore
from chkobba.tui.session import Ending
from chkobba.tui.touti import ToutiSession
from touti_helpers import deck_for


class Script:
    """Answers: the scripted ones first, then the first listed move ('1') or Enter."""

    def __init__(self, answers: list[str], limit: int = 2000) -> None:
        self.answers = answers
        self.limit = limit

    def __call__(self, prompt: str) -> str:
        self.limit -= 1
        if self.limit < 0:
            raise EOFError
        if self.answers:
            return self.answers.pop(0)
        return "" if "Enter" in prompt else "1"


def session(
    tmp_path: Path,
    answers: list[str],
    limit: int = 2000,
    match: ToutiMatch | None = None,
    **options: Any,
) -> tuple[ToutiSession, str]:
    out = io.StringIO()
    s = ToutiSession(
        match if match is not None else ToutiMatch(seed=12),
        {s: make_touti_agent("technique", s) for s in (1, 2, 3)},
        tmp_path / "rec.json",
        console=Console(file=out, width=100, highlight=False),
        ask=Script(answers, limit),
        **options,
    )
    s.result = s.run()  # type: ignore[attr-defined]
    return s, out.getvalue()


def test_a_whole_match_is_played_and_saved(tmp_path: Path) -> None:
    s, text = session(tmp_path, [])
    assert s.result.ending is Ending.FINISHED  # type: ignore[attr-defined]
    rep = replay(ToutiRecord.load(tmp_path / "rec.json"))
    assert rep.winner == s.match.winner and rep.totals == s.match.totals
    assert "win the match" in text


def test_bad_input_is_explained_and_quit_saves(tmp_path: Path) -> None:
    s, text = session(tmp_path, ["", "zz", "99", "Qz", "q", "n", "q", "y"])
    assert s.result.ending is Ending.QUIT  # type: ignore[attr-defined]
    assert "type a move, or its number" in text
    assert "malformed card 'zz'" in text and "malformed card 'Qz'" in text
    assert "malformed bid '99'" in text
    assert "Let's play on." in text
    assert (tmp_path / "rec.json").exists()
    replay(ToutiRecord.load(tmp_path / "rec.json"))


def test_end_of_input_saves(tmp_path: Path) -> None:
    s, _ = session(tmp_path, [], limit=30)
    assert s.result.ending is Ending.END_OF_INPUT  # type: ignore[attr-defined]
    rep = replay(ToutiRecord.load(tmp_path / "rec.json"))
    assert rep.deals


def test_command_line(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    r = CliRunner().invoke(
        main,
        ["play", "--game", "touti", "--seed", "4", "--opponent", "technique",
         "--partner", "technique", "--save", str(path)],
        input="pass\n",
    )
    assert r.exit_code == 0, r.output
    assert "Touti" in r.output and "saved" in r.output
    assert ToutiRecord.load(path).meta["app"] == "chkobba play --game touti"  # type: ignore[index]
    r = CliRunner().invoke(main, ["play", "--game", "touti", "--players", "2"])
    assert r.exit_code == 2 and "4 players" in r.output
    r = CliRunner().invoke(main, ["play", "--target", "600"])
    assert r.exit_code == 2 and "Touti target" in r.output


def test_the_person_declares_names_trumps_and_plays(tmp_path: Path) -> None:
    _, text = session(tmp_path, ["230", "trump d"], limit=40)
    assert "You bid 230" in text
    assert "You name trumps: oros (d)" in text
    assert "You play" in text
    d = replay(ToutiRecord.load(tmp_path / "rec.json")).deals[0]
    assert d.declarer == 0 and d.trump == 2


# -- the terminal defects of issue 18, each with its repro ----------------------------------


def test_the_dealer_is_named_with_its_verb(tmp_path: Path) -> None:
    """Repro: "Deal 3: root deal" (the person's own name, at seat 0, lost its "s")."""
    _, text = session(tmp_path, ["q", "y"], match=ToutiMatch(seed=1, first_dealer=0),
                      names=["root", "Right", "Partner", "Left"])
    assert "Deal 1: root deals" in text
    _, text = session(tmp_path, ["q", "y"], match=ToutiMatch(seed=1, first_dealer=0))
    assert "Deal 1: You deal" in text


def test_the_last_tricks_ten_is_said_to_be_included() -> None:
    """Repro: "card points 48 (+10 for the last trick)" where 48 already includes the 10."""
    sc = DealScore(declarer=0, declarer_team=0, bid=80, trump=2, card_points=(48, 82),
                   last_trick=0, cantos=(40, 0), made=True, points=(80, 0))
    line = score_lines(sc, None)[1]
    assert "card points 48 (10 of them for the last trick)" in line and "+10" not in line


def test_announcements_are_shown_with_their_value(tmp_path: Path) -> None:
    """Repro: announcements shown without their value: 40 in trumps, 20 otherwise."""
    assert describe_move(0, Canto(2), None, trump=2).endswith("of oros (d): 40")
    assert describe_move(0, Canto(1), None, trump=2).endswith("of copas (h): 20")
    _, text = session(tmp_path, [])
    sung = [line for line in text.splitlines() if "announce" in line and "the 11 and 12" in line]
    assert sung and all(re.search(r": (20|40)$", line) for line in sung)


def test_the_board_shows_each_teams_tricks_and_card_points(tmp_path: Path) -> None:
    """Repro: no running count during a deal; now every board has one, and it adds up."""
    _, text = session(tmp_path, [], limit=60)
    counts = re.findall(
        r"Tricks so far: You & Partner (\d+) \(card points (\d+)[^)]*\), "
        r"Right & Left (\d+) \(card points (\d+)", text
    )
    assert counts
    tricks = [int(a) + int(c) for a, _, c, _ in counts]
    assert max(tricks) > 0 and all(t < 10 for t in tricks)
    assert all(int(b) + int(d) <= 120 for _, b, _, d in counts)
    assert any(int(b) + int(d) > 0 for _, b, _, d in counts)


def test_the_hand_is_not_drawn_twice_around_the_computers_bids(tmp_path: Path) -> None:
    """Repro: with the computers bidding first, the hand was drawn before their bids and
    again after; now once (``board`` draws it again on demand)."""
    _, text = session(tmp_path, ["board", "pass", "q", "y"], limit=8,
                      match=ToutiMatch(seed=3, first_dealer=0))
    first = text[: text.index("You pass")]
    assert first.count("Your hand") == 2  # once at the deal, once more for "board"
    _, text = session(tmp_path, ["pass", "q", "y"], limit=8,
                      match=ToutiMatch(seed=3, first_dealer=0))
    assert text[: text.index("You pass")].count("Your hand") == 1


def test_a_bid_below_70_is_not_read_as_a_move_number(tmp_path: Path) -> None:
    """Repro: "60" answered "there is no move number 60"; it is a bid out of range."""
    _, text = session(tmp_path, ["60", "q", "y"], limit=6, match=ToutiMatch(seed=3, first_dealer=3))
    assert "60 is not a bid: bids are 70 to 230 by tens" in text
    assert "no move number 60" not in text


# -- parlé and zadtak in the terminal -------------------------------------------------------

HANDS = [
    "Ad+3d+Kd+Jd+Qd+7d+As+2c+4h+5h",  # the person: strong in oros
    "Js+7h+Qh+2d+4d+5d+6d+4c+5c+6c",
    "Ah+Ac+3c+Kc+Jc+Qc+7c+Kh+Jh+Ks",  # the partner: aces and pairs
    "2s+3s+4s+5s+6s+7s+Qs+2h+3h+6h",
]


def test_the_person_asks_and_is_answered_and_answers_the_computer(tmp_path: Path) -> None:
    """Parlé (seed §2.1.3): the person asks its partner and hears the true answer; asked by
    its partner, it answers (truly, so without a question to the person)."""
    m = ToutiMatch(ToutiRules(talk="parle"), first_dealer=0, first_deck=deck_for(HANDS, 0))
    _, text = session(tmp_path, ["ask cantos", "pass", "q", "y"], limit=8, match=m)
    assert "Partner asks You: how many aces (1, allas)?" in text
    assert "You answer: 2 aces (1, allas)" in text
    assert "You ask Partner: which announcements?" in text
    assert "Partner answers: 2 announcements" in text
    rec = ToutiRecord.load(tmp_path / "rec.json")
    assert "tell:aces=2" in rec.deals[0].moves and "ask:cantos" in rec.deals[0].moves
    replay(rec)


def test_a_zadtak_obliges_the_person_to_bid(tmp_path: Path) -> None:
    """Semi-parlé (seed lines 324-326): after the partner's zadtak the person must bid 20
    more than its first bid, and is told so."""
    m = ToutiMatch(ToutiRules(talk="semi"), first_dealer=3, first_deck=deck_for(HANDS, 3))
    _, text = session(tmp_path, ["80", "pass", "100", "q", "y"], limit=8, match=m)
    assert "Partner says zadtak âachra, 10 more (90): You must bid at least 100" in text
    assert "Your partner said zadtak: you must bid at least 100." in text
    assert "must bid at least 100: its partner's zadtak is forcing" in text
    assert "You bid 100" in text


def test_hints_and_unseen_cards(tmp_path: Path) -> None:
    """--hints: the search player's worth of each card, counted in the record; --unseen:
    the cards not seen yet (30 before the first card), toggled by ``unseen``."""
    m = ToutiMatch(first_dealer=3, first_deck=deck_for(HANDS, 3))
    _, text = session(tmp_path, ["hint", "230", "trump d", "hint", "unseen", "q", "y"],
                      limit=12, match=m, hints=True, show_unseen=True, seed=5)
    assert "Unseen (30):" in text and "Unseen cards hidden." in text
    assert "The technique player would say:" in text
    assert "The search player's best cards" in text and re.search(r"\n1\. \w[♠♥♦♣]  [+-]", text)
    meta = ToutiRecord.load(tmp_path / "rec.json").meta
    assert meta is not None and meta["coach"] == {
        "hints_enabled": True, "hints": 2, "hinted": [[1, 1], [1, 6]]
    }
    _, text = session(tmp_path, ["hint", "q", "y"], limit=4, match=ToutiMatch(seed=2))
    assert "Hints are off: start the game with --hints." in text


# -- every Touti option from the command line -----------------------------------------------


def test_every_touti_option_from_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    r = CliRunner().invoke(
        main,
        ["play", "--game", "touti", "--seed", "4", "--opponent", "technique", "--partner",
         "technique", "--save", str(path), "--target", "800", "--kaddour", "--talk", "parle",
         "--all-pass", "next-dealer", "--failure", "declarer-loses", "--min-trump-length", "2",
         "--zero-point-redeal", "--claim", "opponents-take-best-three", "--hints", "--unseen"],
        input="q\ny\n",
    )
    assert r.exit_code == 0, r.output
    assert "to 800 points; kaddour on, all-pass next-dealer" in r.output
    assert "Unseen (" in r.output
    rec = ToutiRecord.load(path)
    assert rec.options == {
        "target": 800, "kaddour": True, "talk": "parle", "all_pass": "next-dealer",
        "failure": "declarer-loses", "min_trump_length": 2, "zero_point_redeal": True,
        "claim": "opponents-take-best-three",
    }
    assert rec.meta is not None and rec.meta["coach"]["hints_enabled"] is True
    replay(rec)


def test_play_options_that_do_not_apply_are_refused() -> None:
    """No option is silently ignored: each one that does not apply says so in one line."""
    cases = [
        (["--game", "touti", "--rules", "scopa"], "--rules names a Chkobba or Scopa preset"),
        (["--game", "touti", "--rules", "chkobba"], "--rules names a Chkobba or Scopa preset"),
        (["--game", "touti", "--trainer"], "--trainer asks Chkobba's card-counting questions"),
        (["--game", "touti", "--players", "2"], "Touti is played by 4 players"),
        (["--game", "touti", "--target", "21"], "Touti is played to 600, 800 or 1000"),
        (["--talk", "semi"], "--talk is a Touti option: play Touti with --game touti"),
        (["--kaddour"], "--kaddour is a Touti option"),
        (["--game", "touti", "--talk", "loud"], "'loud' is not one of"),
        (["--game", "touti", "--min-trump-length", "4"], "0<=x<=3"),
    ]
    for args, message in cases:
        r = CliRunner().invoke(main, ["play", *args])
        assert r.exit_code == 2, (args, r.output)
        assert message in " ".join(r.output.split()), (args, r.output)


def test_rules_touti_lists_every_option_with_its_default_values_and_section() -> None:
    r = CliRunner().invoke(main, ["rules", "touti"])
    assert r.exit_code == 0, r.output
    for key, value in ToutiRules().options().items():
        line = next(x for x in r.output.splitlines() if x.split()[:1] == [key])
        default = str(value).lower() if isinstance(value, bool) else str(value)
        assert f" = {default} " in line and OPTION_HELP[key][1] in line
        assert OPTION_HELP[key][0] in r.output
    assert "values: off, forgive, opponents-take-rest, opponents-take-best-three" in r.output
    assert "values: kalyado, semi, parle" in r.output
    data = json.loads(CliRunner().invoke(main, ["rules", "touti", "--json"]).output)
    assert ToutiRules.from_options(data["options"]) == ToutiRules()
    assert data["help"]["talk"]["section"] == "§2.1"
    r = CliRunner().invoke(main, ["rules", "tresette"])
    assert r.exit_code == 1 and "touti" in r.output


def test_ctrl_c_while_a_computer_pauses_saves_only_what_was_shown(
    tmp_path: Path, monkeypatch: Any
) -> None:
    # Issue 18 §5.1, in Touti too: the computer's move was taken, then the pause ran,
    # then it was shown, so a Ctrl-C in the pause saved a move nobody saw. Now the
    # pause comes first, and the move is taken and shown together.
    match = ToutiMatch(seed=12)

    def moves_so_far() -> int:
        return sum(len(d.history) for d in (*match.finished, match.deal))

    chosen_at: list[int] = []

    class Counted:
        def __init__(self, seat: int) -> None:
            self.inner = make_touti_agent("technique", seat)
            self.name = self.inner.name

        def choose(self, obs: Any) -> Any:
            chosen_at.append(moves_so_far())
            return self.inner.choose(obs)

    pauses = 0

    def sleep(seconds: float) -> None:
        nonlocal pauses
        pauses += 1
        if pauses == 5:
            raise KeyboardInterrupt

    monkeypatch.setattr("chkobba.tui.session.time.sleep", sleep)
    out = io.StringIO()
    s = ToutiSession(
        match,
        {seat: Counted(seat) for seat in (1, 2, 3)},  # type: ignore[misc]
        tmp_path / "rec.json",
        console=Console(file=out, width=100, highlight=False),
        ask=Script([]),
        pause=0.5,
    )
    assert s.run().ending is Ending.INTERRUPTED
    saved = ToutiRecord.load(tmp_path / "rec.json")
    replay(saved)
    # The move chosen before the interrupted pause was neither played nor saved.
    assert moves_so_far() == chosen_at[-1]
    assert sum(len(d["moves"]) for d in saved.to_json()["deals"]) == chosen_at[-1]


def test_one_notation_and_one_match_score(tmp_path: Path) -> None:
    """Issue 25: the trump menu said ``trump:s`` where the help says ``trump d``, the
    trick so far ``Qh(Right)`` beside ``Q♥(Right)`` in the finished trick, and the last
    score was printed twice."""
    _, text = session(tmp_path, ["230"], limit=4000)
    menu = next(line for line in text.splitlines() if "trump " in line and "1 " in line)
    assert "trump:" not in text.replace("trumps:", "")
    assert re.search(r"1 trump [shdc] \((espadas|copas|oros|bastos)\)", menu), menu
    ascii_card = re.compile(r"\b[A2-7QJK][shdc]\b")
    for line in text.splitlines():
        if line.startswith(("Trick so far", "Your hand", "trick ")) or re.match(r"^\d ", line):
            assert not ascii_card.search(line), line
    tail = text[text.rindex("win the match") :]
    assert text.count("Match score") >= 2 and "Match score" not in tail
    assert "Match score" in text[: text.rindex("win the match")].splitlines()[-2]


def test_the_cards_to_play_are_listed_in_the_hand_s_order(tmp_path: Path) -> None:
    """The numbered cards follow the hand as shown (by suit, trumps first, high to low),
    not the deck's order."""
    _, text = session(tmp_path, ["230"], limit=300)
    lines = text.splitlines()
    checked = 0
    card = re.compile(r"\b[A2-7QJK][♠♥♦♣]")
    for hand, listing in itertools.pairwise(lines):
        if not hand.startswith("Your hand: ") or not re.match(r"^1 \S+[♠♥♦♣]", listing):
            continue
        shown = card.findall(hand)
        listed = card.findall(listing)
        assert listed == [c for c in shown if c in listed], (hand, listing)
        checked += len(listed) > 1
    assert checked >= 3
