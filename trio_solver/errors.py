"""The exceptions of trio_solver.

Every error is a :class:`ValueError` subclass whose message is one line that
names the offending input and where it happened, so that command-line tools can
print ``str(error)`` and nothing else.
"""

from __future__ import annotations

from ._text import escape

__all__ = [
    "TrioError",
    "RulesError",
    "NotationError",
    "IllegalMoveError",
    "RecordError",
    "ContradictionError",
    "ViewError",
    "RunError",
    "LimitError",
]


class TrioError(ValueError):
    """Base class of every error raised by trio_solver.

    ``str(error)`` is always one line of at most :attr:`MAX_MESSAGE` characters (line breaks
    inside a quoted value become spaces, other control characters and bidirectional formatting
    characters are written as escapes such as ``\\x1b``; a longer message is cut), so it is safe
    to print to a terminal or to show in a page."""

    MAX_MESSAGE = 1000

    def __str__(self) -> str:
        text = super().__str__()
        if len(text.splitlines()) > 1 or "\n" in text or "\r" in text:
            text = " ".join(text.splitlines())
        text = escape(text)
        if len(text) > self.MAX_MESSAGE:
            text = text[: self.MAX_MESSAGE - 3] + "..."
        return text


class RulesError(TrioError):
    """An impossible rules combination (for example teams with 5 players)."""


class NotationError(TrioError):
    """Text that is not a reveal in the short notation (``c3``, ``l2``, ``h0``)."""


class IllegalMoveError(TrioError):
    """An action the rules forbid at this moment; the state is left unchanged."""


class ViewError(TrioError):
    """A request for information the chosen view does not have."""


class LimitError(TrioError):
    """A computation stopped at its time limit, or an input beyond a documented size cap
    (record size, event count, swap budget, worker count)."""


class RecordError(TrioError):
    """A ``trio-record/1`` document that breaks the format or the rules.

    ``where`` locates the problem: ``"event 7 (turn of seat 2), reveal 2"``, or
    a key path such as ``"rules.players"``; ``reason`` says what is wrong. Both are one line with
    their unsafe characters escaped, as the message is.
    """

    #: Longer reasons are cut (a bad value may be megabytes long); the message stays one line.
    MAX_REASON = 400

    def __init__(self, where: str, reason: str, *, event: int | None = None) -> None:
        reason = escape(" ".join(reason.split("\n")))
        if len(reason) > self.MAX_REASON:
            reason = reason[: self.MAX_REASON] + "..."
        where = escape(" ".join(where.split("\n")))
        if len(where) > self.MAX_REASON:
            where = where[: self.MAX_REASON] + "..."
        self.where = where
        self.reason = reason
        self.event = event
        super().__init__(f"{where}: {reason}" if where else reason)


class ContradictionError(RecordError):
    """A record whose shown values no deal of the cards can produce."""


class RunError(TrioError):
    """A run of many games or analyses that cannot start or go on.

    For example: a backend that is not installed or not reachable, a results
    file written by a run with other parameters, a task that failed every retry,
    an HTTP service given options out of range.
    """
