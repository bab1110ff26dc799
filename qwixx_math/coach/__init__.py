"""``qwixx-math coach``: a local web app for a real table (docs/coach.md).

The game session (:class:`CoachGame`), the advice panel and review as JSON
(:mod:`qwixx_math.coach.coaching`) and the server (:func:`make_server`), built on the
standard library alone: the coach needs nothing beyond the base install.
"""

from __future__ import annotations

from .game import CoachGame
from .server import CoachServer, make_server

__all__ = ["CoachGame", "CoachServer", "make_server"]
