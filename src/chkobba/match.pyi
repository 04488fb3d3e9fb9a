"""Deprecated path of :mod:`chkobba.fishing.match` (until 0.3), for type checkers."""

from chkobba.fishing.match import *  # noqa: F403
