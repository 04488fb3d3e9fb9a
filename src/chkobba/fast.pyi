"""Deprecated path of :mod:`chkobba.search.fast` (until 0.3), for type checkers."""

from chkobba.search.fast import *  # noqa: F403
