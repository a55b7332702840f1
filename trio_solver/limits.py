"""Bounds on work: time limits for the long computations, and the documented size caps.

A :class:`Deadline` is a point in time after which a computation gives up with a
:class:`~trio_solver.errors.LimitError` (one line, naming what was being computed).
Deadlines reach the long loops in two ways:

* explicitly, as the ``deadline=`` argument of :class:`~trio_solver.infer.beliefs.Beliefs`
  (and of the functions built on it); a number of seconds is accepted too;
* ambiently, with ``with time_limit(seconds):`` around any code. Every long loop of
  the library calls :func:`check`, which raises once the innermost active deadline
  (explicit or ambient) has passed. The command line's ``--time-limit SECONDS`` is
  such a block around the whole command.

To bound a new long loop, call ``limits.check("what is being computed")`` once per
iteration (it costs a clock read, about 50 ns); to run code under a limit, use
``with limits.time_limit(seconds): ...``.

>>> with time_limit(60):
...     check("a quick job")      # well within the minute: nothing happens
>>> Deadline(0.5).seconds
0.5
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Iterator
from contextvars import ContextVar

from ._args import show as _show
from .errors import LimitError

__all__ = [
    "Deadline",
    "LimitError",
    "MAX_SECONDS",
    "as_deadline",
    "check",
    "named",
    "time_limit",
]

#: The longest time limit accepted (a day), so that a typo cannot mean "forever" by overflow.
MAX_SECONDS = 86_400.0


class Deadline:
    """A moment ``seconds`` after ``start`` (a :func:`time.monotonic` reading; ``None``: now) after which
    :meth:`check` raises.

    Raises :class:`~trio_solver.errors.LimitError` at construction unless ``seconds`` is a
    finite number greater than 0 and at most :data:`MAX_SECONDS`.
    """

    __slots__ = ("seconds", "_end")

    def __init__(self, seconds: float, start: float | None = None) -> None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            raise LimitError(f"deadline: expected a number of seconds, got {type(seconds).__name__}")
        try:
            ok = math.isfinite(seconds) and 0 < seconds <= MAX_SECONDS
        except OverflowError:  # an integer too large for a float
            ok = False
        if not ok:
            raise LimitError(f"deadline: expected a number of seconds above 0 and at most {MAX_SECONDS:g}, "
                             f"got {_show(seconds, 40)}")
        self.seconds = float(seconds)
        self._end = (time.monotonic() if start is None else start) + self.seconds

    def remaining(self) -> float:
        """Seconds left (negative once passed)."""
        return self._end - time.monotonic()

    @property
    def expired(self) -> bool:
        """Whether the moment has passed."""
        return time.monotonic() > self._end

    def check(self, what: str = "the computation") -> None:
        """Raise :class:`~trio_solver.errors.LimitError` if the moment has passed."""
        if time.monotonic() > self._end:
            raise LimitError(f"{what}: stopped at the time limit of {self.seconds:g} s")

    def __repr__(self) -> str:
        return f"Deadline({self.seconds:g}, remaining={self.remaining():.3f})"


_ACTIVE: ContextVar[tuple[Deadline, ...]] = ContextVar("trio_solver_deadlines", default=())


def as_deadline(value: Deadline | float | None, name: str = "deadline") -> Deadline | None:
    """``None``, a :class:`Deadline`, or a number of seconds from now (made a :class:`Deadline`).

    Raises :class:`~trio_solver.errors.LimitError` naming ``name`` for anything else.
    """
    if value is None or isinstance(value, Deadline):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise LimitError(f"{name}: expected a Deadline or a number of seconds, got {type(value).__name__}")
    try:
        return Deadline(value)
    except LimitError as e:
        raise LimitError(f"{name}: {str(e).removeprefix('deadline: ')}") from None


@contextlib.contextmanager
def time_limit(limit: Deadline | float | None) -> Iterator[Deadline | None]:
    """Run the block under ``limit`` (``None``: no new limit); :func:`check` inside raises once it passes.

    Limits nest: the innermost and every outer one are all checked.
    """
    deadline = as_deadline(limit, "time limit")
    if deadline is None:
        yield None
        return
    token = _ACTIVE.set(_ACTIVE.get() + (deadline,))
    try:
        yield deadline
    finally:
        _ACTIVE.reset(token)


@contextlib.contextmanager
def named(what: str) -> Iterator[None]:
    """Inside the block, a :class:`~trio_solver.errors.LimitError` of a time limit names ``what`` (the task a
    person asked for, ``analyse``) instead of the step it stopped in (``advise for the game``)."""
    try:
        yield
    except LimitError as e:
        _, sep, rest = str(e).partition(": stopped at the time limit")
        if not sep:
            raise
        raise LimitError(f"{what}: stopped at the time limit{rest}") from None


def check(what: str = "the computation", deadline: Deadline | None = None) -> None:
    """Raise :class:`~trio_solver.errors.LimitError` if ``deadline`` or any active :func:`time_limit` has passed.

    Long loops call this once per iteration.
    """
    if deadline is not None:
        deadline.check(what)
    active = _ACTIVE.get()
    if active:
        for d in active:
            d.check(what)
