"""Deprecated path of :mod:`chkobba.fishing.rules` (until 0.3), for type checkers."""

from chkobba.fishing.rules import *  # noqa: F403
