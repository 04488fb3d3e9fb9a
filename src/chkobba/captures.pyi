"""Deprecated path of :mod:`chkobba.fishing.captures` (until 0.3), for type checkers."""

from chkobba.fishing.captures import *  # noqa: F403
