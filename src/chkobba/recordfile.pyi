"""Deprecated path of :mod:`chkobba.fishing.recordfile` (until 0.3), for type checkers."""

from chkobba.fishing.recordfile import *  # noqa: F403
