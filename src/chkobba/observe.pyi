"""Deprecated path of :mod:`chkobba.fishing.observe` (until 0.3), for type checkers."""

from chkobba.fishing.observe import *  # noqa: F403
