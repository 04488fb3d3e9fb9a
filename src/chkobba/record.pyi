"""Deprecated path of :mod:`chkobba.fishing.record` (until 0.3), for type checkers."""

from chkobba.fishing.record import *  # noqa: F403
