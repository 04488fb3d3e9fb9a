"""The expert with the learned network inside its search (issue 29 §2), as options.

:class:`NetExpertAgent` is the registered expert's search
(:class:`~chkobba.agents.expert.ExpertAgent`) with up to two uses of the ``neural``
level's network (:mod:`chkobba.rl.neural`), each off unless set:

- **The network as the model of the other seat** (``prior``): at a table of two, in the
  play phase, before the sampled deals are played out, ``candidates`` hands of the other
  seat are drawn uniformly from the unseen cards and each is weighed by how likely the
  network makes the plays that seat made in the current deal (the product of its softmax
  probabilities, :func:`play_log_likelihood`, raised to ``1 / prior``). The sampled deals
  are then shared out among the candidate hands in proportion to their weights
  (systematic resampling), each hand's deals filled from the rest of the unseen cards
  and played out by the kernel as usual (the hand passed as ``known``). The network was
  distilled from the expert's own decisions, so it is a model of how a searching player
  plays, where the search's own inference (:mod:`chkobba.search.inference`) explains the
  plays with the hand-written playout policy.
- **The network's policy at the root** (``blend``): each legal move's searched mean margin
  plus ``blend`` times the network's log-probability of the move (a prior on the choice,
  as PUCT mixes one into a search's values, Silver et al. 2017), so near-equal moves are
  told apart by what the network learned from many positions.

Where neither applies (the cut, more than two seats, an exactly solved endgame, no play
of the other seat yet in the deal) the expert's own search decides. The measurements of
each option against the registered expert are in ``docs/rl.md`` ("Issue 29 §2") and
reprinted by ``bench/expert_variants.py``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

import numpy as np

from chkobba.agents.expert import (
    EXPERT_ENDGAME_SAMPLES,
    EXPERT_FACES_TEMPERATURE,
    EXPERT_REPLY,
    EXPERT_SAMPLES,
    EXPERT_SOLVE_LAST,
    EXPERT_SOLVE_STOCK,
    EXPERT_TEMPERATURE,
    ExpertAgent,
    budget,
)
from chkobba.fishing.cards import FULL_DECK
from chkobba.fishing.game import Phase
from chkobba.fishing.moves import Play
from chkobba.fishing.observe import Observation
from chkobba.rl.neural import Network, load_network, move_features, weights_for
from chkobba.rl.spaces import encode
from chkobba.search import fast, inference

PRIOR_CANDIDATES: Final = 64
"""Candidate hands of the other seat the network weighs a move
(:attr:`NetExpertAgent.candidates`)."""


@dataclass(frozen=True)
class PastView:
    """One play of the other seat in the current deal, with that seat's view before it
    except its hand: :func:`view_with` fills the hand in for a candidate."""

    obs: Observation
    """The seat's observation just before the play, its hand and unseen cards left empty."""
    move: Play
    later: int
    """The cards this seat has played from this play on, this one included: its hand then
    was its hand now plus these."""
    seen: int
    """The table and every pile then: what the seat had seen besides its hand."""


def past_views(obs: Observation) -> tuple[PastView, ...]:
    """The other seats' plays in the current deal, oldest first, each with what its seat
    saw before it (rebuilt from ``obs``'s public history by
    :func:`chkobba.search.inference.rewind`, as the policy's model is)."""
    out: list[PastView] = []
    for r in inference.rewind(obs):
        seen = r.table
        for p in r.piles:
            seen |= p
        view = replace(
            obs,
            seat=r.seat,
            turn=r.seat,
            hand=0,
            table=r.table,
            history=obs.history[: r.position],
            piles=r.piles,
            chkobba=r.chkobba,
            last_capturer=r.last_capturer,
            hand_sizes=r.hand_sizes,
            unseen=0,
            legal_moves=(),
        )
        out.append(PastView(view, Play(r.move.card, r.move.capture), r.later, seen))
    return tuple(out)


def view_with(past: PastView, hand_now: int) -> Observation:
    """``past``'s observation of its seat holding ``hand_now`` in the present (so
    ``hand_now`` plus the cards it played since then), with its legal moves."""
    o = past.obs
    hand = hand_now | past.later
    legal = tuple(Play(c, m) for c, m in fast.legal_plays(hand, o.table, o.rules, o.wild))
    return replace(o, hand=hand, unseen=FULL_DECK & ~(hand | past.seen), legal_moves=legal)


def play_log_likelihood(net: Network, past: PastView, hand_now: int) -> float:
    """The log of the network's probability of ``past``'s play, its seat holding
    ``hand_now`` now (``-inf`` when that hand could not have made the play)."""
    if not (hand_now | past.later) >> past.move.card & 1:
        return -math.inf
    o = view_with(past, hand_now)
    try:
        k = o.legal_moves.index(past.move)
    except ValueError:
        return -math.inf
    if len(o.legal_moves) == 1:
        return 0.0
    logits = net.outputs(encode(o), move_features(o))[:, 0].astype(np.float64)
    top = float(logits.max())
    return float(logits[k] - top - math.log(float(np.exp(logits - top).sum())))


def resample(weights: list[float], total: int, u: float) -> list[int]:
    """Systematic resampling: ``total`` draws shared out in proportion to ``weights`` (one
    uniform ``u`` in [0, 1) places them); the counts, summing to ``total``."""
    s = sum(weights)
    if s <= 0.0:
        raise ValueError("resampling needs a positive weight")
    counts = [0] * len(weights)
    step = s / total
    point = u * step
    acc = 0.0
    k = 0
    for i, w in enumerate(weights):
        acc += w
        while k < total and point < acc:
            counts[i] += 1
            k += 1
            point += step
    counts[-1] += total - k  # rounding at the very end
    return counts


class NetExpertAgent(ExpertAgent):
    """The expert's search with the network as the other seat's model (``prior``) and as a
    prior on the root's choice (``blend``); see the module's documentation."""

    def __init__(
        self,
        seed: int = 0,
        *,
        prior: float = 0.0,
        candidates: int = PRIOR_CANDIDATES,
        blend: float = 0.0,
        network: Network | None = None,
        both: bool = False,
        **options: object,
    ) -> None:
        """``prior``: the temperature of the network's model of the other seat (1: its
        probabilities as they are; higher flattens them; 0: off). ``candidates``: the
        other seat's hands it weighs a move. ``blend``: the weight of the network's
        log-probability beside the searched mean margin at the root (0: off). ``network``:
        None plays each game's shipped weights. ``both``: the candidates' weights are the
        network's times the expert's own inference weights (at its temperature,
        :mod:`chkobba.search.inference`); False: the network's alone. ``options``:
        :class:`ExpertAgent`'s."""
        super().__init__(seed, **options)  # type: ignore[arg-type]
        if prior < 0.0 or not math.isfinite(prior):
            raise ValueError(f"prior must be a finite temperature >= 0, not {prior}")
        if candidates < 1:
            raise ValueError(f"candidates must be at least 1, not {candidates}")
        if blend < 0.0 or not math.isfinite(blend):
            raise ValueError(f"blend must be finite and >= 0, not {blend}")
        self.prior = prior
        self.candidates = candidates
        self.blend = blend
        self.network = network
        self.both = both

    def network_for(self, obs: Observation) -> Network:
        """The network given, or the shipped weights of ``obs``'s preset."""
        if self.network is not None:
            return self.network
        return load_network(weights_for(obs.rules.name))

    def uses_prior(self, obs: Observation) -> bool:
        """Whether the network weighs the other seat's hands for ``obs``: ``prior`` is set,
        a table of two in the play phase on the kernel, and no exact endgame solve."""
        return (
            self.prior > 0.0
            and obs.seats == 2
            and obs.phase is Phase.PLAY
            and not any(obs.shown)
            and not self.solves_exactly(obs)
            and fast.AVAILABLE
            and fast.supports(obs.rules, obs.seats)
        )

    def _evaluate(self, obs: Observation, known: Sequence[int] | None) -> list[float]:
        # Means (not sums) wherever the network takes part, so the blend has a scale.
        pasts = past_views(obs) if self.uses_prior(obs) and known is None else ()
        if pasts:
            values = self._prior_means(obs, pasts)
        elif (
            self.blend > 0.0
            and obs.phase is Phase.PLAY
            and not self.solves_exactly(obs)
            and fast.AVAILABLE
            and fast.supports(obs.rules, obs.seats)
        ):
            values = self._plain_means(obs)
        else:
            return super()._evaluate(obs, known)
        if self.blend > 0.0:
            net = self.network_for(obs)
            logits = net.outputs(encode(obs), move_features(obs))[:, 0].astype(np.float64)
            logp = logits - logits.max()
            logp -= math.log(float(np.exp(logp).sum()))
            sign = -1.0 if obs.rules.lowest_wins else 1.0
            # evaluate() turns the values round where the fewest points win: pre-turn the prior.
            values = [v + sign * self.blend * float(p) for v, p in zip(values, logp, strict=True)]
        return values

    def _plain_means(self, obs: Observation) -> list[float]:
        """The expert's own search values as means over its samples (weighted by its
        inference where it has a temperature: the sums divided by the samples' total weight)."""
        samples, deep, last = self.plan(obs)
        reply = 0.0 if deep else self.reply_for(obs.rules, obs.seats)
        totals, weight = fast.evaluate_weighted(
            obs, samples, self.rng.getrandbits(63), temperature=self.temperature_for(obs.rules),
            reply=reply, solve_stock=deep, solve_last=last,
        )
        if weight <= 0.0:
            return [0.0] * len(totals)
        return [t / weight for t in totals]

    def _prior_means(self, obs: Observation, pasts: tuple[PastView, ...]) -> list[float]:
        """The mean margins over deals whose other hand is drawn by the network's weights."""
        other = 1 - obs.seat
        size = obs.hand_sizes[other]
        unseen = [c for c in range(40) if obs.unseen >> c & 1]
        net = self.network_for(obs)
        hands: list[int] = []
        weights: list[float] = []
        for _ in range(self.candidates):
            h = 0
            for c in self.rng.sample(unseen, size):
                h |= 1 << c
            ll = sum(play_log_likelihood(net, p, h) for p in pasts)
            hands.append(h)
            weights.append(ll / self.prior)
        temp = self.temperature_for(obs.rules)
        if self.both and inference.active(temp):
            deals = [[obs.hand, h] if obs.seat == 0 else [h, obs.hand] for h in hands]
            found = inference.decisions(obs)
            policy_ll = fast.likelihoods(found, obs.rules, temp or 0.0, deals, obs.wild)
            weights = [a + b for a, b in zip(weights, policy_ll, strict=True)]
        # Relative to the best candidate, so no weight underflows for a long history.
        best = max(weights)
        weights = [math.exp(w - best) if w > -math.inf else 0.0 for w in weights]
        samples, deep, last = self.plan(obs)
        reply = 0.0 if deep else self.reply_for(obs.rules, obs.seats)
        if max(weights) <= 0.0:  # the network rules every candidate out: sample as usual
            totals = fast.evaluate(
                obs, samples, self.rng.getrandbits(63), reply=reply, solve_stock=deep,
                solve_last=last,
            )
            return [t / samples for t in totals]
        counts = resample(weights, samples, self.rng.random())
        totals = [0.0] * len(obs.legal_moves)
        for h, n in zip(hands, counts, strict=True):
            if n == 0:
                continue
            fixed = [0] * obs.seats
            fixed[other] = h
            part = fast.evaluate(
                obs, n, self.rng.getrandbits(63), known=fixed, reply=reply,
                solve_stock=deep, solve_last=last,
            )
            totals = [a + b for a, b in zip(totals, part, strict=True)]
        return [t / samples for t in totals]


def net_expert(
    seed: int, prior: float = 0.0, candidates: int = PRIOR_CANDIDATES, blend: float = 0.0,
    name: str = "expert-net",
) -> NetExpertAgent:
    """The registered expert's settings with the network's options."""
    return NetExpertAgent(
        seed,
        prior=prior,
        candidates=candidates,
        blend=blend,
        name=name,
        samples=budget(EXPERT_SAMPLES),
        endgame_samples=EXPERT_ENDGAME_SAMPLES,
        temperature=EXPERT_TEMPERATURE,
        faces_temperature=EXPERT_FACES_TEMPERATURE,
        reply=EXPERT_REPLY,
        solve_stock=EXPERT_SOLVE_STOCK,
        solve_last=EXPERT_SOLVE_LAST,
    )


__all__ = [
    "PRIOR_CANDIDATES",
    "NetExpertAgent",
    "PastView",
    "net_expert",
    "past_views",
    "play_log_likelihood",
    "resample",
    "view_with",
]
