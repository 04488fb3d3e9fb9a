"""Deprecated path of :mod:`chkobba.fishing.scoring` (until 0.3), for type checkers."""

from chkobba.fishing.scoring import *  # noqa: F403
