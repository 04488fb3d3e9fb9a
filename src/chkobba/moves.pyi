"""Deprecated path of :mod:`chkobba.fishing.moves` (until 0.3), for type checkers."""

from chkobba.fishing.moves import *  # noqa: F403
