"""Deprecated path of :mod:`chkobba.fishing.cards` (until 0.3), for type checkers."""

from chkobba.fishing.cards import *  # noqa: F403
