"""Touti moves, tricks and scores in words, for the terminal game and ``chkobba replay``.

Without a language (``lang=None``) the words are the English ones records and replays
have always printed; with one, they come from the catalogues (:mod:`chkobba.words`: the
``touti`` section the web page's story shares, and the terminal's ``touti_log_*`` keys).
"""

from __future__ import annotations

from collections.abc import Sequence

from chkobba.fishing.cards import CARDS
from chkobba.touti.cards import LAST_TRICK_BONUS, suit_name
from chkobba.touti.deal import SEATS, Deal, Trick, canto_value
from chkobba.touti.moves import BID_STEP, Ask, Bid, Call, Canto, CardPlay, Tell, ToutiMove, Trump
from chkobba.touti.parle import answer_words, question_words
from chkobba.touti.scoring import DealScore
from chkobba.words import word


def seat_label(seat: int, names: Sequence[str] | None) -> str:
    """A seat's name, or ``seat N``."""
    return names[seat] if names is not None else f"seat {seat}"


def team_label(team: int, names: Sequence[str] | None, lang: str | None = None) -> str:
    """A team by its two players: ``Ana & Carlos`` (``Ana et Carlos`` in French)."""
    if lang is not None:
        return word(lang, "touti", "team", a=seat_label(team, names), b=seat_label(team + 2, names))
    return f"{seat_label(team, names)} & {seat_label(team + 2, names)}"


def _said(lang: str, section: str, key: str, who: str, **values: object) -> str:
    """A line of the story in ``lang``: the ``key_you`` form when ``who`` is the person
    by the language's word for them (``Vous jouez``), else the third person."""
    you = who == word(lang, "touti", "default_name")
    return word(lang, section, f"{key}_you" if you else key, name=who, **values)


def _describe_in(
    lang: str, seat: int, move: ToutiMove, names: Sequence[str] | None, trump: int | None,
    bid: int | None,
) -> str:
    who = seat_label(seat, names)
    partner = seat_label((seat + 2) % SEATS, names)
    if isinstance(move, Bid):
        return _said(lang, "touti", "log_bid", who, amount=move.amount)
    if isinstance(move, Trump):
        return _said(lang, "touti", "log_trump", who, suit=suit_name(move.suit))
    if isinstance(move, CardPlay):
        return _said(lang, "touti", "log_play", who, card=CARDS[move.card].pretty())
    if isinstance(move, Canto):
        if trump is None:
            return _said(lang, "touti", "log_canto", who, suit=suit_name(move.suit))
        return _said(lang, "terminal", "touti_log_canto_worth", who, suit=suit_name(move.suit),
                     worth=canto_value(move.suit, trump))
    if isinstance(move, Ask):
        return _said(lang, "terminal", "touti_log_ask", who, partner=partner,
                     question=question_words(move.topic, lang))
    if isinstance(move, Tell):
        return _said(lang, "terminal", "touti_log_answer", who,
                     answer=answer_words(move.topic, move.answer, lang))
    if move is Call.ZADTAK:
        if not bid:
            return _said(lang, "terminal", "touti_log_zadtak", who)
        return _said(lang, "terminal", "touti_log_zadtak_bid", who, bid=bid, partner=partner,
                     least=bid + BID_STEP)
    keys = {
        Call.PASS: ("touti", "log_pass"),
        Call.ALLA: ("touti", "log_alla"),
        Call.MACHARICH: ("touti", "log_macharich"),
        Call.REDEAL: ("touti", "log_redeal"),
        Call.NO_CANTO: ("terminal", "touti_log_no_canto"),
        Call.CLAIM: ("touti", "log_claim"),
    }
    section, key = keys[move]
    return _said(lang, section, key, who)


def verb(who: str, word: str) -> str:
    """``word``, a verb in the third person, as ``who`` says it: ``Left plays``, ``You play``."""
    if who != "You":
        return word
    return word[:-2] if word.endswith("sses") else word[:-1]


def describe_move(
    seat: int,
    move: ToutiMove,
    names: Sequence[str] | None,
    *,
    trump: int | None = None,
    bid: int | None = None,
    lang: str | None = None,
) -> str:
    """One move in words: ``Right bids 90``, ``Left plays A♦`` (``Gauche joue A♦`` with
    ``lang="fr"``).

    ``trump`` (the trumps, once named) gives an announcement its value; ``bid``
    (the highest bid once the move is made) gives a zadtak its amount.
    """
    if lang is not None:
        return _describe_in(lang, seat, move, names, trump, bid)
    who = seat_label(seat, names)
    if isinstance(move, Bid):
        return f"{who} {verb(who, 'bids')} {move.amount}"
    if isinstance(move, Trump):
        return f"{who} {verb(who, 'names')} trumps: {suit_name(move.suit)}"
    if isinstance(move, CardPlay):
        return f"{who} {verb(who, 'plays')} {CARDS[move.card].pretty()}"
    if isinstance(move, Canto):
        worth = f": {canto_value(move.suit, trump)}" if trump is not None else ""
        return (
            f"{who} {verb(who, 'announces')} the 11 and 12 of {suit_name(move.suit)}{worth}"
        )
    if isinstance(move, Ask):
        partner = seat_label((seat + 2) % SEATS, names)
        return f"{who} {verb(who, 'asks')} {partner}: {question_words(move.topic)}"
    if isinstance(move, Tell):
        return f"{who} {verb(who, 'answers')}: {answer_words(move.topic, move.answer)}"
    if move is Call.ZADTAK:
        partner = seat_label((seat + 2) % SEATS, names)
        amount = f" ({bid}): {partner} must bid at least {bid + BID_STEP}" if bid else ""
        return f"{who} {verb(who, 'says')} zadtak âachra, 10 more{amount}"
    words = {
        Call.PASS: ("passes", ""),
        Call.ALLA: ("says", " alla (a pass, holding an ace)"),
        Call.MACHARICH: ("says", " macharich (a pass, holding an announcement)"),
        Call.REDEAL: ("asks", " for a redeal (no card point in hand)"),
        Call.NO_CANTO: ("announces", " nothing"),
        Call.CLAIM: ("claims", " the remaining tricks"),
    }
    word, rest = words[move]
    return f"{who} {verb(who, word)}{rest}"


def describe_trick(
    t: Trick, number: int, names: Sequence[str] | None, lang: str | None = None
) -> str:
    """A finished trick: its cards in order and its winner."""
    if lang is not None:
        cards = " ".join(
            word(lang, "touti", "log_trick_card", card=CARDS[c].pretty(),
                 name=seat_label(t.seat_of(i), names))
            for i, c in enumerate(t.cards)
        )
        return word(lang, "touti", "log_trick", n=number, cards=cards,
                    name=seat_label(t.winner, names))
    cards = " ".join(
        f"{CARDS[c].pretty()}({seat_label(t.seat_of(i), names)})" for i, c in enumerate(t.cards)
    )
    return f"trick {number}: {cards}; won by {seat_label(t.winner, names)}"


def score_lines(
    sc: DealScore, names: Sequence[str] | None, lang: str | None = None
) -> list[str]:
    """A deal's score as lines: the contract, each team's points, the result."""
    if lang is not None:
        return _score_lines_in(lang, sc, names)
    lines = [
        f"Contract: {seat_label(sc.declarer, names)} bid {sc.bid}"
        + (f" in {suit_name(sc.trump)}" if sc.trump is not None else ""),
    ]
    for t in (0, 1):
        extra = (
            f" ({LAST_TRICK_BONUS} of them for the last trick)" if sc.last_trick == t else ""
        )
        cantos = f", announcements {sc.cantos[t]}" if sc.cantos[t] else ""
        lines.append(f"  {team_label(t, names)}: card points {sc.card_points[t]}{extra}{cantos}")
    verdict = "made" if sc.made else "failed"
    lines.append(
        f"  {sc.declarer_total} against {sc.bid}: the contract is {verdict}; "
        f"points {team_label(0, names)} {sc.points[0]:+d}, {team_label(1, names)} {sc.points[1]:+d}"
    )
    return lines


def _score_lines_in(lang: str, sc: DealScore, names: Sequence[str] | None) -> list[str]:
    def say(key: str, **values: object) -> str:
        return word(lang, "touti", key, **values)

    declarer = seat_label(sc.declarer, names)
    if sc.trump is not None:
        lines = [say("log_contract", name=declarer, bid=sc.bid, suit=suit_name(sc.trump))]
    else:
        lines = [say("log_contract_no_trump", name=declarer, bid=sc.bid)]
    for t in (0, 1):
        line = say("log_team", team=team_label(t, names, lang), points=sc.card_points[t])
        if sc.last_trick == t:
            line += say("log_last_trick")
        if sc.cantos[t]:
            line += say("log_cantos", n=sc.cantos[t])
        lines.append("  " + line)
    lines.append("  " + say(
        "log_made" if sc.made else "log_failed", total=sc.declarer_total, bid=sc.bid,
        a=team_label(0, names, lang), pa=f"{sc.points[0]:+d}",
        b=team_label(1, names, lang), pb=f"{sc.points[1]:+d}",
    ))
    return lines


def claim_words(d: Deal) -> str:
    """What a claim that ended ``d`` gave: ``right: …`` or ``wrong: …``."""
    assert d.claimed is not None
    if d.claimed[1]:
        return "right: the team takes the rest"
    if d.rules.claim == "opponents-take-best-three":
        return (
            "wrong: the opponents take the last trick with the three best cards left, "
            "and its 10; the claimer's team the other cards"
        )
    return "wrong: the opponents take the rest"


def narrate_deal(d: Deal, number: int, names: Sequence[str] | None) -> list[str]:
    """A whole deal in words, move by move, with its score."""
    dealer = seat_label(d.dealer, names)
    lines = [f"Deal {number}: {dealer} {verb(dealer, 'deals')}"]
    cards = 0
    bid = 0
    trump: int | None = None
    for seat, move in d.history:
        if isinstance(move, Bid):
            bid = move.amount
        elif move is Call.ZADTAK:
            bid += BID_STEP
        elif isinstance(move, Trump):
            trump = move.suit
        lines.append("  " + describe_move(seat, move, names, trump=trump, bid=bid))
        if isinstance(move, CardPlay):
            cards += 1
            if cards % 4 == 0 and cards // 4 <= len(d.tricks):
                lines.append("  " + describe_trick(d.tricks[cards // 4 - 1], cards // 4, names))
    if d.claimed is not None:
        who = d.claimed[0]
        lines.append(f"  The claim by {seat_label(who, names)} is " + claim_words(d))
    if d.redeal:
        lines.append("  No contract: the deal is dealt again.")
    if d.score is not None:
        lines.extend(score_lines(d.score, names))
    return lines
