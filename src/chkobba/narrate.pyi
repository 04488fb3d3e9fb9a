"""Deprecated path of :mod:`chkobba.fishing.narrate` (until 0.3), for type checkers."""

from chkobba.fishing.narrate import *  # noqa: F403
