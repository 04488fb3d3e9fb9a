"""A small multilayer perceptron in NumPy with its gradients, and the Adam optimiser.

The baselines (:mod:`chkobba.rl.learn`) train their networks with these, so that
training needs neither torch nor a GPU: a ``tanh`` network of a few hundred units
learns in NumPy at tens of thousands of samples a CPU-second. A network exports
to the ``chkobba-policy/1`` file :mod:`chkobba.rl.policy` plays, with the input
scaling folded into its first layer.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from chkobba.rl.policy import Policy

Array = npt.NDArray[np.float32]


class MLP:
    """Fully connected layers with ``tanh`` between them and a linear output.

    The input is multiplied by ``scale`` first (one factor per entry), so that the
    observation's counts enter the network between 0 and 1.
    """

    def __init__(
        self, sizes: Sequence[int], rng: np.random.Generator, scale: Array | None = None,
        out_gain: float = 0.01,
    ) -> None:
        """Layers ``sizes[0] -> sizes[1] -> … -> sizes[-1]``, orthogonally initialised
        (gain √2 inside, ``out_gain`` on the output layer, as PPO implementations do)."""
        if len(sizes) < 2 or any(s < 1 for s in sizes):
            raise ValueError(f"a network needs at least two positive layer sizes, not {sizes}")
        self.sizes = tuple(int(s) for s in sizes)
        self.scale: Array = (
            np.ones(self.sizes[0], np.float32) if scale is None else scale.astype(np.float32)
        )
        self.params: list[Array] = []
        pairs = list(itertools.pairwise(self.sizes))
        for i, (a, b) in enumerate(pairs):
            gain = out_gain if i == len(pairs) - 1 else float(np.sqrt(2.0))
            self.params.append(_orthogonal(a, b, gain, rng))
            self.params.append(np.zeros(b, np.float32))
        self._acts: list[Array] = []

    @property
    def layers(self) -> int:
        """The number of weight matrices."""
        return len(self.sizes) - 1

    def forward(self, x: Array, keep: bool = False) -> Array:
        """The outputs for a batch ``x`` of shape ``[B, sizes[0]]``; ``keep`` remembers the
        activations for :meth:`backward`."""
        h = x * self.scale
        acts = [h]
        for i in range(self.layers):
            h = h @ self.params[2 * i] + self.params[2 * i + 1]
            if i < self.layers - 1:
                h = np.tanh(h)
            acts.append(h)
        if keep:
            self._acts = acts
        return h

    def backward(self, grad_out: Array) -> list[Array]:
        """The gradients of the parameters (in :attr:`params` order) given the loss's
        gradient with respect to the outputs of the last :meth:`forward` with ``keep``."""
        if not self._acts:
            raise RuntimeError("backward needs a forward(..., keep=True) first")
        grads: list[Array] = [np.empty(0, np.float32)] * len(self.params)
        g = grad_out
        for i in reversed(range(self.layers)):
            h_in = self._acts[i]
            grads[2 * i] = h_in.T @ g
            grads[2 * i + 1] = g.sum(axis=0)
            if i > 0:
                g = (g @ self.params[2 * i].T) * (1.0 - h_in * h_in)
        self._acts = []
        return grads

    def to_policy(self) -> Policy:
        """The network as a :class:`~chkobba.rl.policy.Policy` (its output the action
        logits), the input scaling folded into the first layer's weights."""
        ws = [self.params[2 * i].copy() for i in range(self.layers)]
        bs = tuple(self.params[2 * i + 1].copy() for i in range(self.layers))
        ws[0] = ws[0] * self.scale[:, None]
        return Policy(tuple(ws), bs, "tanh")


def _orthogonal(rows: int, cols: int, gain: float, rng: np.random.Generator) -> Array:
    a = rng.normal(size=(max(rows, cols), min(rows, cols)))
    q, r = np.linalg.qr(a)
    q *= np.sign(np.diag(r))
    w = q if rows >= cols else q.T
    return (gain * w[:rows, :cols]).astype(np.float32)


class Adam:
    """Adam (Kingma and Ba) over a list of arrays, updated in place, with the gradients'
    global norm clipped to ``max_norm`` first."""

    def __init__(self, params: list[Array], lr: float, max_norm: float = 0.5,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-5) -> None:
        """Optimise ``params`` (kept by reference) at learning rate ``lr``."""
        self.params = params
        self.lr = lr
        self.max_norm = max_norm
        self.b1, self.b2 = betas
        self.eps = eps
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, grads: list[Array]) -> float:
        """Apply one update; the gradients' global norm before clipping."""
        norm = float(np.sqrt(sum(float(np.sum(g * g)) for g in grads)))
        clip = min(1.0, self.max_norm / (norm + 1e-8)) if self.max_norm > 0 else 1.0
        self.t += 1
        c1 = 1.0 - self.b1**self.t
        c2 = 1.0 - self.b2**self.t
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            g = g * clip
            m *= self.b1
            m += (1.0 - self.b1) * g
            v *= self.b2
            v += (1.0 - self.b2) * g * g
            p -= (self.lr * (m / c1) / (np.sqrt(v / c2) + self.eps)).astype(np.float32)
        return norm
