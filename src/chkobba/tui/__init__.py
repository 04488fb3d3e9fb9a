"""The terminal game: ``chkobba play``, one person against the computer.

:class:`~chkobba.tui.session.PlaySession` is the controller (a match, agents at
the computer seats, an injectable input function and Rich console);
:mod:`chkobba.tui.render` draws what a seat may see; :mod:`chkobba.tui.command`
is the click command.
"""

from chkobba.tui.command import play
from chkobba.tui.session import Ending, PlaySession, SessionResult

__all__ = ["Ending", "PlaySession", "SessionResult", "play"]
