"""Train the learned player ``neural`` from nothing: generate the expert's decisions, distil.

``all`` does every step from nothing, the others one each (``docs/rl.md``, "The learned
player"):

``all``
    generates ``--games`` deals of the expert's decisions (seed 1), trains on them,
    generates ``--games / 2`` more in which the recording seat plays that network's moves
    while the expert labels them (DAgger, seed 2) and ``--games * 5`` cheap deals of that
    network against heuristic and greedy whose last deals are labelled by the exact solve
    (``--endgame``, seed 5), trains again on everything, and draws the curve: the weights,
    curves and figure go to ``--out``.

``generate``
    plays seeded deals of the expert's search against the expert, heuristic and greedy
    and writes its decisions (observation, move features, the search's mean margin of
    every legal move, the move chosen) as shards under ``--out`` (default
    ``data/neural``, never inside the package). Deterministic for ``--seed``, whatever
    ``--jobs``; shards already written are skipped, so a stopped run resumes. With
    ``--actor`` (a player's name or a weight file) the recording seat plays the actor's
    moves and the expert still labels every decision (DAgger). With ``--endgame`` the
    games are the actor's against heuristic and greedy, and only their last deals are
    recorded, with the exact solve's values (shards ``<rules>-e<seed>-g*.npz``).
``train``
    fits the action-scoring network with torch (the ``train`` extra) on every shard of
    a preset, measures it against greedy and heuristic every ``--measure-every`` epochs
    (duplicate pairs on seeds from 10,000, never the data's), and writes the weights of
    the epoch with the least regret on held-out games (``--weights``, a
    ``chkobba-neural/1`` file) and the curve's figures (``--curve``, JSON).
``plot``
    draws the curves of one or more ``--curve`` files as a PNG.
``teacher``
    measures the data's expert (the search at ``--samples``) against ``heuristic``: the
    strength the network imitates.
``finetune``
    reinforcement from a weight file (``--init``): rounds of duplicate pairs against a
    league (``--opponents``: registered players and ``self``, frozen past versions, with
    weights), each followed by a PPO update of the torch twin, with a KL penalty to the
    initial policy (:mod:`chkobba.rl.finetune`, ``docs/rl.md`` "Fourth round"). Every
    ``--measure-every`` rounds the network alone is measured against heuristic and greedy
    on ``--duel-seed`` (paired with the initial network on the same deals); the weights
    with the best gain against heuristic go to ``--out``/neural_<rules>.npz, the curve to
    ``--out``/curve_<rules>.json (``plot`` draws it).

    python examples/train_neural.py all --rules scopa --games 2400 --out neural-out
    python examples/train_neural.py generate --rules chkobba --games 1200 --out data/neural
    python examples/train_neural.py train --rules chkobba --data data/neural \
        --weights neural-out/neural_chkobba.npz --curve neural-out/curve_chkobba.json
    python examples/train_neural.py finetune --rules chkobba --cpu-minutes 30 \
        --init src/chkobba/rl/weights/neural_chkobba.npz --out finetune-out
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

import numpy as np

SEED_LIMIT = 10_000
"""Training data uses seeds below this; measurements use seeds from it."""
FINAL_SEEDS = (10_011, 10_012)
"""The seeds of the fine-tuned network's final measurement: never used to choose it."""


def generate(args: argparse.Namespace) -> None:
    from chkobba.rl.distill import generate as run

    if args.seed >= SEED_LIMIT:
        sys.exit(f"training seeds are below {SEED_LIMIT} (the duels' seeds start there)")
    t0 = time.perf_counter()
    total = 0
    for path in run(args.rules, args.seed, args.games, args.samples, Path(args.out),
                    jobs=args.jobs, first=args.first, actor=args.actor,
                    endgame=args.endgame):
        with np.load(path) as d:
            total += len(d["chosen"])
        dt = time.perf_counter() - t0
        cpu = time.process_time()
        print(f"{path}: {total} decisions so far, {total / dt:.1f} a second, "
              f"{cpu:.0f} CPU seconds", flush=True)


def _batches(n: int, size: int, rng: np.random.Generator) -> list[np.ndarray]:

    order = rng.permutation(n)
    return [order[i:i + size] for i in range(0, n, size)]


def after(obs, feats):  # type: ignore[no-untyped-def]
    """:func:`chkobba.rl.neural.after` on torch rows (each move with its observation)."""
    import torch

    from chkobba.rl import neural as n

    card = feats[:, n._CARD:n._CARD + 40]
    lays = (feats[:, n._LAY] + feats[:, n._TABLE])[:, None]
    plays = (feats[:, n._LAY] + feats[:, n._CAPTURE])[:, None]
    keeps = feats[:, n._KEEP][:, None]
    table = obs[:, n._TABLE_PLANE] - feats[:, n._TAKE:n._TAKE + 40] + card * lays
    hand = obs[:, n._HAND] - card * plays + card * keeps
    return torch.cat([table, hand], 1)


def suit_permutations():  # type: ignore[no-untyped-def]
    """The 6 relabellings of the three plain suits (spades, hearts, clubs) as index maps over
    the observation vector and the move features: the diamonds (coins in Scopa) carry the
    points and stay put, so each relabelled decision is as valid as the recorded one and
    has the same values (an exact symmetry of both presets)."""
    from chkobba.fishing.cards import DIAMONDS
    from chkobba.rl.neural import MOVE_FEATURES
    from chkobba.rl.spaces import OBS_LAYOUT, OBS_SIZE

    plain = [s for s in range(4) if s != DIAMONDS]
    planes = [sl.start for sl in OBS_LAYOUT.values() if sl.stop - sl.start == 40]
    maps = []
    for order in itertools.permutations(plain):
        suit = list(range(4))
        for a, b in zip(plain, order, strict=True):
            suit[a] = b
        card = np.array([suit[c // 10] * 10 + c % 10 for c in range(40)])
        obs = np.arange(OBS_SIZE)
        for at in planes:
            obs[at + card] = at + np.arange(40)
        move = np.arange(MOVE_FEATURES)
        for at in (0, 40):
            move[at + card] = at + np.arange(40)
        maps.append((obs, move))
    return maps


class Scorer:
    """The torch twin of :class:`chkobba.rl.neural.Network` (same layers, same order)."""

    def __init__(self, hidden: tuple[int, ...], seed: int, skip_init: float) -> None:
        import torch

        from chkobba.rl.neural import _GREEDY_CUT as GREEDY_CUT
        from chkobba.rl.neural import _HEURISTIC as HEURISTIC
        from chkobba.rl.neural import AFTER_FEATURES, MOVE_FEATURES
        from chkobba.rl.spaces import OBS_SIZE

        torch.manual_seed(seed)
        self.obs = torch.nn.Linear(OBS_SIZE, hidden[0])
        self.move = torch.nn.Linear(MOVE_FEATURES + AFTER_FEATURES, hidden[0], bias=False)
        sizes = [*hidden, 2]
        self.layers = torch.nn.ModuleList(
            torch.nn.Linear(a, b) for a, b in itertools.pairwise(sizes)
        )
        # The linear path from the move's features to (logit, value), started at the
        # heuristic's judgement: the network begins as the heuristic player.
        self.skip = torch.nn.Linear(MOVE_FEATURES, 2, bias=False)
        with torch.no_grad():
            self.skip.weight.zero_()
            self.skip.weight[0, HEURISTIC] = skip_init
            self.skip.weight[0, GREEDY_CUT] = skip_init
            self.skip.weight[1, HEURISTIC] = 1.0
        self.modules = torch.nn.ModuleList([self.obs, self.move, self.layers, self.skip])

    def __call__(self, obs, feats, seg):  # type: ignore[no-untyped-def]
        import torch

        moves = torch.cat([feats, after(obs[seg], feats)], 1)
        x = torch.relu(self.obs(obs)[seg] + self.move(moves))
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.layers) - 1:
                x = torch.relu(x)
        return x + self.skip(feats)

    def export(self, preset_name: str):  # type: ignore[no-untyped-def]
        from chkobba.rl.neural import Network

        def a(t):  # type: ignore[no-untyped-def]
            return t.detach().numpy().astype("float32")

        layers = tuple((a(layer.weight).T.copy(), a(layer.bias)) for layer in self.layers)
        return Network(a(self.obs.weight).T.copy(), a(self.move.weight).T.copy(),
                       a(self.obs.bias), layers, a(self.skip.weight).T.copy(), preset_name)


def measure(network, rules_name: str, pairs: int, seed: int) -> dict[str, list[float]]:  # type: ignore[no-untyped-def]
    """Duplicate pairs of the candidate against greedy and heuristic (one process)."""
    from chkobba.agents.base import AGENTS
    from chkobba.duel.harness import run_duel
    from chkobba.fishing.rules import preset
    from chkobba.rl.neural import NeuralAgent

    AGENTS["neural-candidate"] = lambda s: NeuralAgent(network, "neural-candidate")
    out = {}
    for b in ("greedy", "heuristic"):
        r = run_duel("neural-candidate", b, pairs, seed=seed, rules=preset(rules_name), jobs=1)
        out[b] = [r.margin.mean, r.margin.low, r.margin.high]
        out[b + "_ms"] = [r.a_timing.median_ms]
    return out


def train(args: argparse.Namespace) -> None:
    import torch

    from chkobba.rl.distill import load_shards

    torch.set_num_threads(args.threads)
    paths = sorted(Path(args.data).glob(f"{args.rules}-s*-g*.npz"))
    if args.max_shards:
        paths = paths[: args.max_shards]
    main = 0
    for p in paths:
        with np.load(p) as d:
            main += len(d["chosen"])
    extra = sorted(Path(args.data).glob(f"{args.rules}-e*-g*.npz"))[: args.endgame_shards]
    data = load_shards(paths + extra)
    counts = np.diff(data.offsets)
    n = len(data)
    # The last games (by game number) of the searched games are held out to watch the fit;
    # the endgame shards (exact values of last deals) all train.
    held = data.games >= np.quantile(data.games[:main], 1 - args.holdout)
    held[main:] = False
    train_ids = np.flatnonzero(~held)
    val_ids = np.flatnonzero(held)
    print(f"{len(paths)} shards and {len(extra)} endgame shards, {n} decisions "
          f"({len(train_ids)} to train, "
          f"{len(val_ids)} held out), {int(data.offsets[-1])} moves", flush=True)
    obs_all = torch.from_numpy(data.obs.astype(np.float32))
    feats_all = torch.from_numpy(data.features.astype(np.float32))
    values_all = torch.from_numpy(data.values.astype(np.float32))
    starts = data.offsets[:-1]

    def gather(ids):  # type: ignore[no-untyped-def]
        c = counts[ids]
        seg = np.repeat(np.arange(len(ids)), c)
        first = np.repeat(starts[ids], c)
        within = np.arange(int(c.sum())) - np.repeat(np.cumsum(c) - c, c)
        rows = first + within
        return (obs_all[ids], feats_all[rows], values_all[rows],
                torch.from_numpy(seg), len(ids))

    def segment_log_softmax(x, seg, b):  # type: ignore[no-untyped-def]
        m = torch.full((b,), -1e9).scatter_reduce(0, seg, x, "amax")
        e = torch.exp(x - m[seg])
        z = torch.zeros(b).index_add(0, seg, e)
        return x - m[seg] - torch.log(z[seg])

    model = Scorer(tuple(args.hidden), args.seed, args.skip_init)
    opt = torch.optim.AdamW(model.modules.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, args.epochs)
    rng = np.random.default_rng(args.seed)
    curve = []
    t0 = time.perf_counter()

    def evaluate(ids):  # type: ignore[no-untyped-def]
        with torch.no_grad():
            o, f, v, seg, b = gather(ids)
            out = model(o, f, seg)
            agree = 0
            regret = [0.0, 0.0]
            # The expert's choice is its best mean; the net's is its best logit (or value).
            for k in range(b):
                sel = (seg == k).nonzero().flatten()
                best = int(sel[v[sel].argmax()])
                mine = int(sel[out[sel, 0].argmax()])
                by_value = int(sel[out[sel, 1].argmax()])
                agree += best == mine
                regret[0] += float(v[best] - v[mine])
                regret[1] += float(v[best] - v[by_value])
            return agree / b, regret[0] / b, regret[1] / b

    def heuristic_baseline(ids):  # type: ignore[no-untyped-def]
        # The heuristic's own choice on the same decisions: its score (or greedy's cut).
        from chkobba.rl.neural import _GREEDY_CUT, _HEURISTIC, _KEEP, _TABLE

        agree = 0
        regret = 0.0
        for k in ids:
            v = data.values[data.offsets[k]:data.offsets[k + 1]]
            f = data.features[data.offsets[k]:data.offsets[k + 1]].astype(np.float32)
            cut = f[0, _KEEP] + f[0, _TABLE] > 0
            mine = int(np.argmax(f[:, _GREEDY_CUT] if cut else f[:, _HEURISTIC]))
            agree += mine == int(np.argmax(v))
            regret += float(v.max() - v[mine])
        return agree / len(ids), regret / len(ids)

    base_agree, base_regret = heuristic_baseline(val_ids[: args.val_limit])
    _, base_train_regret = heuristic_baseline(train_ids[: args.val_limit])
    print(json.dumps({"heuristic_held_out_agreement": base_agree,
                      "heuristic_held_out_regret": base_regret,
                      "heuristic_train_regret": base_train_regret}), flush=True)
    perms = [(torch.from_numpy(a), torch.from_numpy(m)) for a, m in suit_permutations()]
    for epoch in range(1, args.epochs + 1):
        total = 0.0
        for ids in _batches(len(train_ids), args.batch, rng):
            o, f, v, seg, b = gather(train_ids[ids])
            if args.augment:
                po, pm = perms[int(rng.integers(len(perms)))]
                o, f = o[:, po], f[:, pm]
            out = model(o, f, seg)
            if args.policy_loss == "advantage":
                # Each move's margin over the mean of its decision's moves: the sampled
                # deals are shared by the moves (common random numbers), so these
                # differences are much less noisy than the margins themselves.
                size = torch.zeros(b).index_add(0, seg, torch.ones_like(v))
                adv = v - (torch.zeros(b).index_add(0, seg, v) / size)[seg]
                mine = out[:, 0] - (torch.zeros(b).index_add(0, seg, out[:, 0]) / size)[seg]
                policy_loss = torch.nn.functional.smooth_l1_loss(mine, adv, reduction="sum") / b
            else:
                logp = segment_log_softmax(out[:, 0], seg, b)
                target = torch.exp(segment_log_softmax(v / args.temperature, seg, b))
                policy_loss = -(target * logp).sum() / b
            value_loss = torch.nn.functional.smooth_l1_loss(out[:, 1], v)
            loss = policy_loss + args.value_weight * value_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * b
        sched.step()
        agree, regret, value_regret = evaluate(val_ids[: args.val_limit])
        train_agree, train_regret, _ = evaluate(train_ids[: args.val_limit])
        point = {"epoch": epoch, "train_agreement": train_agree, "train_regret": train_regret,
                 "seconds": round(time.perf_counter() - t0, 1),
                 "loss": total / len(train_ids), "held_out_agreement": agree,
                 "held_out_regret": regret, "held_out_value_regret": value_regret}
        if args.measure_every and (epoch % args.measure_every == 0 or epoch == args.epochs):
            point.update(measure(model.export(args.rules), args.rules, args.pairs,
                                 args.duel_seed))
        curve.append(point)
        print(json.dumps(point), flush=True)
        # The weights kept are the epoch's with the least regret on the held-out games.
        if regret <= min(p["held_out_regret"] for p in curve):
            model.export(args.rules).save(args.weights)
            best_state = [t.detach().clone() for t in model.modules.parameters()]
        if args.curve:
            meta = {"rules": args.rules, "decisions": n, "shards": len(paths),
                    "endgame_shards": len(extra),
                    "heuristic_held_out_agreement": base_agree,
                    "heuristic_held_out_regret": base_regret,
                    "hidden": args.hidden, "pairs": args.pairs, "duel_seed": args.duel_seed,
                    "curve": curve}
            Path(args.curve).write_text(json.dumps(meta, indent=1))
    # The NumPy network must score as the torch one did (float16 on disk aside).
    with torch.no_grad():
        for t, best in zip(model.modules.parameters(), best_state, strict=True):
            t.copy_(best)
        o, f, _, seg, _ = gather(val_ids[:50])
        want = model(o, f, seg).numpy()
    net = model.export(args.rules)
    seg_np = seg.numpy()
    got = np.concatenate([net.outputs(o[k].numpy(), f[seg_np == k].numpy())
                          for k in range(len(o))])
    assert np.allclose(got, want, atol=1e-3), float(np.abs(got - want).max())
    best = min(curve, key=lambda p: p["held_out_regret"])
    print(f"wrote {args.weights} ({Path(args.weights).stat().st_size} bytes), "
          f"epoch {best['epoch']}")


def scorer_from(network, seed: int = 0):  # type: ignore[no-untyped-def]
    """A :class:`Scorer` holding ``network``'s weights (the inverse of its export)."""
    import torch

    hidden = tuple(w.shape[1] for w, _ in network.layers[:-1])
    model = Scorer((network.b0.shape[0], *hidden), seed, 0.0)
    with torch.no_grad():
        model.obs.weight.copy_(torch.from_numpy(network.wo.T.copy()))
        model.obs.bias.copy_(torch.from_numpy(network.b0))
        model.move.weight.copy_(torch.from_numpy(network.wm.T.copy()))
        for layer, (w, b) in zip(model.layers, network.layers, strict=True):
            layer.weight.copy_(torch.from_numpy(w.T.copy()))
            layer.bias.copy_(torch.from_numpy(b))
        skip = network.ws if network.ws is not None else np.zeros((network.wm.shape[0], 2))
        model.skip.weight.copy_(torch.from_numpy(np.asarray(skip, np.float32).T.copy()))
    return model


def segment_log_softmax(x, seg, b):  # type: ignore[no-untyped-def]
    """The log-softmax of ``x`` within each decision (``seg``: each row's decision, of ``b``)."""
    import torch

    m = torch.full((b,), -1e9).scatter_reduce(0, seg, x, "amax")
    e = torch.exp(x - m[seg])
    z = torch.zeros(b).index_add(0, seg, e)
    return x - m[seg] - torch.log(z[seg])


def ppo_step(model, reference, opt, batch, args, rng):  # type: ignore[no-untyped-def]
    """PPO's clipped update (Schulman et al. 2017) on one round's decisions: ``--ppo-epochs``
    passes of minibatches; the loss is the clipped surrogate of the chosen moves'
    probability ratios, a Huber loss of the value head (the chosen move's score) against
    the return, and a KL penalty to the distilled policy (``reference``) over every legal
    move. Returns the last epoch's mean figures."""
    import torch

    from chkobba.rl.finetune import advantages

    offsets = batch.offsets()
    counts = np.diff(offsets)
    obs_all = torch.from_numpy(batch.obs_array())
    feats_all = torch.from_numpy(batch.features_array())
    chosen_all = np.asarray(batch.chosen, dtype=np.int64)
    old_logp_all = torch.tensor(batch.logp, dtype=torch.float32)
    ret_all = torch.tensor(batch.ret, dtype=torch.float32)
    adv_np = advantages(batch, args.baseline, args.gae_lambda)
    adv_all = torch.from_numpy((adv_np / (adv_np.std() + 1e-8)).astype(np.float32))
    t = args.temperature

    def gather(ids):  # type: ignore[no-untyped-def]
        c = counts[ids]
        seg = np.repeat(np.arange(len(ids)), c)
        rows = np.repeat(offsets[ids], c) + np.arange(int(c.sum())) - np.repeat(np.cumsum(c) - c, c)
        at = np.cumsum(c) - c + chosen_all[ids]
        return obs_all[ids], feats_all[rows], torch.from_numpy(seg), torch.from_numpy(at)

    stats: dict[str, float] = {}
    for _ in range(args.ppo_epochs):
        sums = {"policy": 0.0, "value": 0.0, "kl_ref": 0.0, "clipped": 0.0, "kl_old": 0.0}
        order = rng.permutation(len(batch))
        for start in range(0, len(order), args.minibatch):
            ids = order[start:start + args.minibatch]
            o, f, seg, at = gather(ids)
            b = len(ids)
            out = model(o, f, seg)
            logp = segment_log_softmax(out[:, 0] / t, seg, b)
            with torch.no_grad():
                ref = segment_log_softmax(reference(o, f, seg)[:, 0] / t, seg, b)
            new = logp[at]
            ratio = torch.exp(new - old_logp_all[ids])
            adv = adv_all[ids]
            surrogate = torch.min(ratio * adv,
                                  torch.clamp(ratio, 1 - args.clip, 1 + args.clip) * adv)
            kl_ref = torch.zeros(b).index_add(0, seg, torch.exp(logp) * (logp - ref))
            value = torch.nn.functional.smooth_l1_loss(out[at, 1], ret_all[ids])
            loss = -surrogate.mean() + args.kl * kl_ref.mean() + args.value_coef * value
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.modules.parameters(), args.max_grad)
            opt.step()
            sums["policy"] += float(-surrogate.detach().mean()) * b
            sums["value"] += float(value.detach()) * b
            sums["kl_ref"] += float(kl_ref.detach().mean()) * b
            sums["clipped"] += float(((ratio.detach() - 1).abs() > args.clip).float().mean()) * b
            sums["kl_old"] += float((old_logp_all[ids] - new.detach()).mean()) * b
        stats = {k: v / len(batch) for k, v in sums.items()}
    return stats


def vine_step(model, reference, opt, batch, args, rng):  # type: ignore[no-untyped-def]
    """The update on vine decisions (``--estimator vine``): every tried move's margin on
    the true cards is known, so the policy's gradient is taken over all of them at once
    (the expected policy gradient, Ciosek & Whiteson 2018: raise the probability of each
    tried move by its margin over the policy's mean of the tried ones), with the same KL
    penalty to the distilled policy, and the value head regressed on every tried margin."""
    import torch

    offsets = batch.offsets()
    counts = np.diff(offsets)
    obs_all = torch.from_numpy(batch.obs_array())
    feats_all = torch.from_numpy(batch.features_array())
    q_all = np.concatenate(batch.q)
    tried_all = ~np.isnan(q_all)
    scale = float(np.nanstd(q_all)) + 1e-8
    t = args.temperature

    def gather(ids):  # type: ignore[no-untyped-def]
        c = counts[ids]
        seg = np.repeat(np.arange(len(ids)), c)
        rows = np.repeat(offsets[ids], c) + np.arange(int(c.sum())) - np.repeat(np.cumsum(c) - c, c)
        return obs_all[ids], feats_all[rows], torch.from_numpy(seg), rows

    stats: dict[str, float] = {}
    for _ in range(args.ppo_epochs):
        sums = {"policy": 0.0, "value": 0.0, "kl_ref": 0.0}
        order = rng.permutation(len(batch))
        for start in range(0, len(order), args.minibatch):
            ids = order[start:start + args.minibatch]
            o, f, seg, rows = gather(ids)
            b = len(ids)
            tried = torch.from_numpy(tried_all[rows])
            q = torch.from_numpy(np.nan_to_num(q_all[rows]).astype(np.float32))
            out = model(o, f, seg)
            logp = segment_log_softmax(out[:, 0] / t, seg, b)
            p = torch.exp(logp)
            with torch.no_grad():
                ref = segment_log_softmax(reference(o, f, seg)[:, 0] / t, seg, b)
                pt = p * tried
                mean = (torch.zeros(b).index_add(0, seg, pt * q)
                        / torch.zeros(b).index_add(0, seg, pt).clamp_min(1e-12))
                adv = (q - mean[seg]) * tried / scale
            gain = torch.zeros(b).index_add(0, seg, p * adv)
            kl_ref = torch.zeros(b).index_add(0, seg, p * (logp - ref))
            value = torch.nn.functional.smooth_l1_loss(out[tried, 1], q[tried])
            loss = -gain.mean() + args.kl * kl_ref.mean() + args.value_coef * value
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.modules.parameters(), args.max_grad)
            opt.step()
            sums["policy"] += float(-gain.detach().mean()) * b
            sums["value"] += float(value.detach()) * b
            sums["kl_ref"] += float(kl_ref.detach().mean()) * b
        stats = {k: v / len(batch) for k, v in sums.items()}
    return stats


def finetune(args: argparse.Namespace) -> None:
    """Reinforcement from the distilled network (``docs/rl.md``, "Fourth round"): rounds of
    duplicate pairs against the league (:mod:`chkobba.rl.finetune`), each followed by a PPO
    update; every ``--measure-every`` rounds the network alone is measured against heuristic
    and greedy, and the best against heuristic (on the selection seed) is kept."""
    import copy

    import torch

    from chkobba.rl.finetune import League, collect, pair_margins, paired_gain
    from chkobba.rl.neural import load_network

    if args.seed >= SEED_LIMIT:
        sys.exit(f"training seeds are below {SEED_LIMIT} (the duels' seeds start there)")
    if args.duel_seed in FINAL_SEEDS:
        sys.exit(f"seeds {FINAL_SEEDS} are kept for the final measurement")
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    init = load_network(args.init)
    model = scorer_from(init)
    reference = copy.deepcopy(model)
    for p in reference.modules.parameters():
        p.requires_grad_(False)
    opt = torch.optim.Adam(model.modules.parameters(), lr=args.lr)
    rng = np.random.default_rng(args.seed)
    members = League.parse(args.opponents)
    pool: list = []
    curve: list[dict] = []
    best = -np.inf
    t0 = time.perf_counter()
    c0 = time.process_time()
    weights = out / f"neural_{args.rules}.npz"
    last = out / f"last_{args.rules}.npz"

    start: dict[str, np.ndarray] = {}
    checkpoints = out / "checkpoints"
    checkpoints.mkdir(exist_ok=True)

    def measure(round_number: int, decisions: int, extra: dict) -> None:
        # The network alone against heuristic and greedy on the selection seed's pairs,
        # and, paired on the same deals, its gain over the initial network there: the
        # weights kept are the best gain against heuristic.
        nonlocal best
        net = model.export(args.rules)
        net.save(checkpoints / f"round{round_number:05d}.npz")
        point: dict = {"round": round_number, "decisions": decisions,
                       "cpu_seconds": round(time.process_time() - c0, 1),
                       "seconds": round(time.perf_counter() - t0, 1), **extra}
        for b, pairs in (("heuristic", args.pairs), ("greedy", args.greedy_pairs)):
            if pairs:
                m = pair_margins(net, b, args.rules, args.duel_seed, pairs)
                start.setdefault(b, m)
                half = 1.96 * float(m.std(ddof=1)) / np.sqrt(pairs)
                point[b] = [float(m.mean()), float(m.mean()) - half, float(m.mean()) + half]
                point[b + "_gain"] = list(paired_gain(m, start[b]))
        if point["heuristic_gain"][0] > best:
            best = point["heuristic_gain"][0]
            net.save(weights)
            point["kept"] = True
        curve.append(point)
        print(json.dumps(point), flush=True)
        meta = {"rules": args.rules, "init": str(args.init), "opponents": args.opponents,
                "pairs": args.pairs, "greedy_pairs": args.greedy_pairs,
                "duel_seed": args.duel_seed, "settings": {
                    k: getattr(args, k) for k in ("estimator", "lr", "clip", "kl",
                                                  "temperature", "baseline", "gae_lambda",
                                                  "pairs_per_round", "ppo_epochs",
                                                  "vine_top", "vine_threshold",
                                                  "minibatch", "value_coef", "seed")},
                "curve": curve}
        (out / f"curve_{args.rules}.json").write_text(json.dumps(meta, indent=1))

    measure(0, 0, {})
    decisions = 0
    for k in range(1, args.rounds + 1):
        league = League(members, tuple(pool))
        net = model.export(args.rules)
        vine = args.estimator == "vine"
        batch = collect(net, league, args.rules, args.seed, (k - 1) * args.pairs_per_round,
                        args.pairs_per_round, args.temperature,
                        args.vine_top if vine else 0, args.vine_threshold)
        decisions += len(batch)
        if not len(batch):
            continue
        step = vine_step if vine else ppo_step
        stats = step(model, reference, opt, batch, args, rng)
        stats["sampled_margin"] = float(np.mean(batch.ret))
        if args.snapshot_every and k % args.snapshot_every == 0:
            pool.append(model.export(args.rules))
        if k % args.measure_every == 0 or k == args.rounds:
            measure(k, decisions, {k2: round(v, 4) for k2, v in stats.items()})
        else:
            print(json.dumps({"round": k, **{k2: round(v, 4) for k2, v in stats.items()}}),
                  flush=True)
        model.export(args.rules).save(last)
        if args.cpu_minutes and time.process_time() - c0 > 60 * args.cpu_minutes:
            if k % args.measure_every:
                measure(k, decisions, {})
            break
    print(f"wrote {weights} (best gain over the initial network against heuristic on seed "
          f"{args.duel_seed}: {best:+.3f}), "
          f"{time.process_time() - c0:.0f} CPU seconds")


def duel(args: argparse.Namespace) -> None:
    """A weight file (not installed) against players, as ``chkobba duel`` measures."""
    from chkobba.agents.base import AGENTS
    from chkobba.duel.harness import run_duel
    from chkobba.fishing.rules import preset
    from chkobba.rl.neural import NeuralAgent, load_network

    net = load_network(args.weights)
    AGENTS["candidate"] = lambda s: NeuralAgent(net, "candidate", args.solve_last,
                                                args.solve_partners, s)
    for b in args.opponents:
        r = run_duel("candidate", b, args.pairs, seed=args.seed, players=args.players,
                     rules=preset(args.rules), jobs=1)
        print(f"{args.weights} against {b}, {args.rules}, {args.players or 2} players, "
              f"{args.pairs} pairs, seed {args.seed}: "
              f"{r.margin.mean:+.3f} [{r.margin.low:+.3f}, {r.margin.high:+.3f}] points a deal, "
              f"{r.a_timing.median_ms:.2f} ms a move (median)", flush=True)


def combine(args: argparse.Namespace) -> None:
    """Write the ensemble of ``--weights`` files (:func:`chkobba.rl.neural.ensemble`)."""
    from chkobba.rl.neural import ensemble, load_network

    net = ensemble([load_network(w) for w in args.weights])
    net.save(args.out)
    print(f"wrote {args.out} ({Path(args.out).stat().st_size} bytes): the mean of "
          f"{len(args.weights)} networks")


def plot(args: argparse.Namespace) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curves = [json.loads(Path(c).read_text()) for c in args.curve]
    # One row of up to three panels; more go two a row.
    cols = len(curves) if len(curves) <= 3 else 2
    rows = -(-len(curves) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5.5 * cols, 4 * rows), squeeze=False)
    for ax in axes.flat[len(curves):]:
        ax.set_visible(False)
    for ax, meta in zip(axes.flat, curves, strict=False):
        for who, colour in (("greedy", "tab:green"), ("heuristic", "tab:orange")):
            pts = [p for p in meta["curve"] if who in p]
            # A distillation's curve is by epoch, a fine-tuning's by decisions played.
            tuned = "init" in meta
            x = [p["decisions"] / 1e6 if tuned else p["epoch"] for p in pts]
            ax.errorbar(x, [p[who][0] for p in pts],
                        yerr=[[p[who][0] - p[who][1] for p in pts],
                              [p[who][2] - p[who][0] for p in pts]],
                        marker="o", capsize=3, color=colour, label=f"against {who}")
        ax.axhline(0, color="grey", lw=0.8)
        if "init" in meta:
            how = meta.get("settings", {}).get("estimator", "ppo")
            ax.set_title(f"{meta['rules']}: {'the vine' if how == 'vine' else 'PPO'} "
                         "from the distilled network")
            ax.set_xlabel("learner's decisions (millions)")
        else:
            ax.set_title(f"{meta['rules']}: {meta['decisions']:,} expert decisions")
            ax.set_xlabel("epoch")
        pairs = meta["pairs"] if "greedy_pairs" not in meta else (
            f"{meta['pairs']} and {meta['greedy_pairs']} pairs")
        ax.set_ylabel(f"margin, points a deal ({pairs}, 95%)")
        ax.legend()
    fig.suptitle(args.title)
    fig.tight_layout()
    fig.savefig(args.out, dpi=90)
    print(f"wrote {args.out}")


def teacher(args: argparse.Namespace) -> None:
    """The data's expert (its search at ``--samples``, uniform) against heuristic: the
    strength the network imitates, measured as ``chkobba duel`` measures."""
    from chkobba.agents.base import AGENTS
    from chkobba.duel.harness import run_duel
    from chkobba.fishing.rules import preset
    from chkobba.rl.distill import distill_expert

    AGENTS["teacher"] = lambda s: distill_expert(s, args.samples)
    r = run_duel("teacher", args.opponent, args.pairs, seed=args.seed,
                 rules=preset(args.rules), jobs=1)
    print(f"{args.rules}: the expert at {args.samples} samples against {args.opponent}, "
          f"{args.pairs} pairs, seed {args.seed}: {r.margin.mean:+.2f} "
          f"[{r.margin.low:+.2f}, {r.margin.high:+.2f}] points a deal, "
          f"{r.a_timing.median_ms:.1f} ms a move (median)")


def run_all(args: argparse.Namespace) -> None:
    """Every step, from nothing: see the module's docstring."""
    out = Path(args.out)
    data = out / "data"
    weights = out / f"neural_{args.rules}.npz"
    curve = out / f"curve_{args.rules}.json"
    parser = build_parser()

    def step(*words: str) -> None:
        print("==", " ".join(words), flush=True)
        sub = parser.parse_args(list(words))
        sub.run(sub)

    common = ["--rules", args.rules, "--samples", str(args.samples), "--jobs", str(args.jobs),
              "--out", str(data)]
    step("generate", "--seed", "1", "--games", str(args.games), *common)
    training = ["--rules", args.rules, "--data", str(data), "--weights", str(weights)]
    step("train", *training, "--measure-every", "0")
    step("generate", "--seed", "2", "--games", str(args.games // 2), "--actor", str(weights),
         *common)
    step("generate", "--endgame", "--seed", "5", "--games", str(args.games * 5), "--actor",
         str(weights), *common)
    step("train", *training, "--endgame-shards", "1000000", "--curve", str(curve),
         "--pairs", str(args.pairs))
    step("plot", str(curve), "--out", str(out / f"curve_{args.rules}.png"))


def build_parser() -> argparse.ArgumentParser:
    """The command line: one subcommand a step."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    a = sub.add_parser("all", help="every step from nothing (generate, train, DAgger, train)")
    a.add_argument("--rules", default="chkobba")
    a.add_argument("--games", type=int, default=2400)
    a.add_argument("--samples", type=int, default=1000)
    a.add_argument("--jobs", type=int, default=1)
    a.add_argument("--out", default="neural-out")
    a.add_argument("--pairs", type=int, default=200, help="duplicate pairs a point of the curve")
    a.set_defaults(run=run_all)
    g = sub.add_parser("generate", help="record the expert's decisions")
    g.add_argument("--rules", default="chkobba")
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--games", type=int, default=1200)
    g.add_argument("--first", type=int, default=0, help="first game number")
    g.add_argument("--samples", type=int, default=1000,
                   help="the search's sampled deals a move (the full expert: 6,000)")
    g.add_argument("--jobs", type=int, default=1)
    g.add_argument("--actor", help="a player whose moves the recording seat plays (DAgger), "
                   "e.g. neural; the expert's values are still recorded")
    g.add_argument("--endgame", action="store_true",
                   help="cheap games (the actor against heuristic and greedy) recording only "
                   "the last deal's decisions, with the exact solve's values (shards -e<seed>)")
    g.add_argument("--out", default="data/neural")
    g.set_defaults(run=generate)
    t = sub.add_parser("train", help="distil the decisions into the network (needs torch)")
    t.add_argument("--rules", default="chkobba")
    t.add_argument("--data", default="data/neural")
    t.add_argument("--weights", required=True, help="where to write the chkobba-neural/1 file")
    t.add_argument("--curve", help="where to write the training curve (JSON)")
    t.add_argument("--epochs", type=int, default=8)
    t.add_argument("--batch", type=int, default=512)
    t.add_argument("--lr", type=float, default=1e-3)
    t.add_argument("--hidden", type=int, nargs="+", default=[64, 32])
    t.add_argument("--temperature", type=float, default=0.2,
                   help="softmax temperature of the targets, in points")
    t.add_argument("--policy-loss", choices=("advantage", "ce"), default="ce",
                   help="the logit regresses each move's advantage (its margin less its "
                   "decision's mean) or matches the softmax of the margins (cross-entropy)")
    t.add_argument("--value-weight", type=float, default=0.5)
    t.add_argument("--skip-init", type=float, default=10.0,
                   help="the linear path's first weight on the heuristic's score (logit)")
    t.add_argument("--augment", action=argparse.BooleanOptionalAction, default=True,
                   help="relabel the plain suits at random in each batch")
    t.add_argument("--holdout", type=float, default=0.05)
    t.add_argument("--val-limit", type=int, default=5000)
    t.add_argument("--max-shards", type=int, default=0)
    t.add_argument("--endgame-shards", type=int, default=0,
                   help="how many endgame shards (generate --endgame) to train on as well")
    t.add_argument("--measure-every", type=int, default=2, help="epochs between duels (0: none)")
    t.add_argument("--pairs", type=int, default=200)
    t.add_argument("--duel-seed", type=int, default=10_001)
    t.add_argument("--threads", type=int, default=1)
    t.add_argument("--seed", type=int, default=0)
    t.set_defaults(run=train)
    e = sub.add_parser("teacher", help="measure the data's expert against a player")
    e.add_argument("--rules", default="chkobba")
    e.add_argument("--samples", type=int, default=1000)
    e.add_argument("--opponent", default="heuristic")
    e.add_argument("--pairs", type=int, default=300)
    e.add_argument("--seed", type=int, default=10_001)
    e.set_defaults(run=teacher)
    f = sub.add_parser("finetune", help="PPO from a weight file against a league (needs torch)")
    f.add_argument("--rules", default="chkobba")
    f.add_argument("--init", required=True, help="the chkobba-neural/1 file to start from")
    f.add_argument("--opponents", default="heuristic:0.7,greedy:0.1,self:0.2",
                   help="league members and weights: registered players, self (past versions)")
    f.add_argument("--rounds", type=int, default=200)
    f.add_argument("--cpu-minutes", type=float, default=0, help="stop after this (0: no limit)")
    f.add_argument("--pairs-per-round", type=int, default=100,
                   help="duplicate pairs played a round, before each update")
    f.add_argument("--temperature", type=float, default=0.3,
                   help="the sampling policy's softmax temperature over the logits")
    f.add_argument("--estimator", choices=("ppo", "vine"), default="ppo",
                   help="ppo: sampled games, PPO's clipped update; vine: the best move played, "
                   "the likeliest moves of hesitant decisions tried on the true cards")
    f.add_argument("--vine-top", type=int, default=3, help="moves tried a vine decision")
    f.add_argument("--vine-threshold", type=float, default=0.9,
                   help="vine decisions: the policy's best move less likely than this")
    f.add_argument("--baseline", choices=("value", "duplicate", "both"), default="value")
    f.add_argument("--gae-lambda", type=float, default=0.9,
                   help="with --baseline value: the advantage's lambda (1: return less value)")
    f.add_argument("--lr", type=float, default=1e-4)
    f.add_argument("--clip", type=float, default=0.2)
    f.add_argument("--kl", type=float, default=0.02, help="weight of the KL to the initial policy")
    f.add_argument("--value-coef", type=float, default=0.25)
    f.add_argument("--max-grad", type=float, default=1.0)
    f.add_argument("--ppo-epochs", type=int, default=4)
    f.add_argument("--minibatch", type=int, default=512)
    f.add_argument("--snapshot-every", type=int, default=10,
                   help="rounds between frozen versions added to the league")
    f.add_argument("--measure-every", type=int, default=10)
    f.add_argument("--pairs", type=int, default=400, help="pairs against heuristic a measure")
    f.add_argument("--greedy-pairs", type=int, default=200)
    f.add_argument("--duel-seed", type=int, default=10_020,
                   help="the seed of the measures that choose the weights kept")
    f.add_argument("--threads", type=int, default=1)
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--out", default="finetune-out")
    f.set_defaults(run=finetune)
    d = sub.add_parser("duel", help="a weight file against players (neural: the shipped one)")
    d.add_argument("weights")
    d.add_argument("opponents", nargs="+")
    d.add_argument("--rules", default="chkobba")
    d.add_argument("--pairs", type=int, default=1000)
    d.add_argument("--seed", type=int, default=10_005)
    d.add_argument("--solve-last", action="store_true",
                   help="solve the last deal of two players exactly, as the level neural does "
                        "(without it: the network alone)")
    d.add_argument("--solve-partners", action="store_true",
                   help="with --solve-last, search the last deal of 2 against 2 too (the "
                        "expert's sampled endgame solve; not the shipped level)")
    d.add_argument("--players", type=int, default=None, help="seats at the table (4: 2 against 2)")
    d.set_defaults(run=duel)
    c = sub.add_parser("ensemble", help="one weight file averaging several networks' outputs")
    c.add_argument("weights", nargs="+", help="chkobba-neural/1 files of the same depth")
    c.add_argument("--out", required=True)
    c.set_defaults(run=combine)
    p = sub.add_parser("plot", help="draw training curves as a PNG")
    p.add_argument("curve", nargs="+", help="curve files written by train --curve")
    p.add_argument("--out", default="docs/img/neural_curve.png")
    p.add_argument("--title", default="The learned player `neural` while it is distilled "
                   "from the expert")
    p.set_defaults(run=plot)
    return parser


def main() -> None:
    args = build_parser().parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
