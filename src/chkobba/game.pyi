"""Deprecated path of :mod:`chkobba.fishing.game` (until 0.3), for type checkers."""

from chkobba.fishing.game import *  # noqa: F403
