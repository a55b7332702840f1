"""A game's history as an immutable sequence that shares its storage with the histories it grew from.

The positions of one game (a replay's frames, the views an analysis judges, a table and its copies) hold
histories that are prefixes of one another. Held as tuples, each position copies the whole history, and
a record of ``n`` events costs ``n²`` to walk. A :class:`Log` is a length into a list shared by every
log of its line of play, plus a short private tail: taking a prefix, copying and growing a log take no
copy of the list (but for one copy when two lines of play part for good).

A :class:`Log` behaves as a tuple: it compares and hashes as one (``Log(x) == tuple(x)``, equal hashes),
slices into a tuple (a prefix into a log), adds a sequence, and pickles as a tuple would. A game's
:class:`History` is a log of events.
"""

from __future__ import annotations

import operator
import threading
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, islice
from typing import Any, Self, TypeVar, overload

from .events import Event

__all__ = ["Log", "History"]

T = TypeVar("T")

#: a private tail longer than this moves into the shared list
_TAIL_MAX = 16

#: growing a shared list is a check then a change: one lock keeps two threads from both taking it
_GROW = threading.Lock()


class Log(Sequence[T]):
    """An immutable sequence: the first ``n`` items of a shared append-only list, then a private tail.

    Two logs on one list never disagree on the items both hold: the list only ever grows, and a log that
    would differ from it past its own length keeps its difference in its tail (or in a new list).
    """

    __slots__ = ("_shared", "_n", "_tail", "_hash")

    _shared: list[T]
    _n: int
    _tail: tuple[T, ...]
    _hash: int | None

    def __init__(self, items: Iterable[T] = ()) -> None:
        shared = list(items)
        self._shared, self._n, self._tail, self._hash = shared, len(shared), (), None

    @classmethod
    def _of(cls, shared: list[T], n: int, tail: tuple[T, ...] = ()) -> Self:
        h = cls.__new__(cls)
        h._shared, h._n, h._tail, h._hash = shared, n, tail, None
        return h

    @classmethod
    def of(cls, items: Sequence[T]) -> Self:
        """``items`` as a log of this class (``items`` itself if it is one: no copy)."""
        return items if isinstance(items, cls) else cls(items)

    # -- the sequence ----------------------------------------------------------
    def __len__(self) -> int:
        return self._n + len(self._tail)

    @overload
    def __getitem__(self, i: int) -> T: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[T]: ...

    def __getitem__(self, i: int | slice) -> T | Sequence[T]:
        n = self._n
        if type(i) is int and 0 <= i < n:  # the common case first
            return self._shared[i]
        if isinstance(i, slice):
            start, stop, step = i.indices(len(self))
            if step != 1:
                return tuple(self)[i]
            if start == 0:
                return self.prefix(stop)
            stop = max(start, stop)
            return tuple(self._shared[start:min(stop, n)]) + self._tail[max(start - n, 0):max(stop - n, 0)]
        i = operator.index(i)
        k = i + len(self) if i < 0 else i
        if not 0 <= k < len(self):
            raise IndexError("log index out of range")
        return self._shared[k] if k < n else self._tail[k - n]

    def prefix(self, m: int) -> Self:
        """The first ``m`` items (``0 <= m <= len(self)``; ``self[:m]``), sharing this log's list."""
        if not 0 <= m <= len(self):
            raise IndexError(f"log prefix {m} out of range 0 to {len(self)}")
        if m == len(self):
            return self
        if m <= self._n:
            return self._of(self._shared, m)
        return self._of(self._shared, self._n, self._tail[:m - self._n])

    def __iter__(self) -> Iterator[T]:
        return chain(islice(self._shared, self._n), self._tail)

    def __reversed__(self) -> Iterator[T]:
        return chain(reversed(self._tail), (self._shared[k] for k in range(self._n - 1, -1, -1)))

    # -- growing ---------------------------------------------------------------
    def __add__(self, other: Sequence[T]) -> Self:
        """This log followed by ``other``'s items (a new log; this one is unchanged).

        The new items go to the private tail; a tail grown past a few items moves into the shared list: in
        place when this log is the list's longest (or the list already goes on with these very items), else
        into a copy. So a line of play grows in constant time per item, and lines that part keep their
        differences apart."""
        if not isinstance(other, (tuple, list, Log)):
            return NotImplemented
        if not other:
            return self
        tail = self._tail + tuple(other)
        if len(tail) <= _TAIL_MAX:
            return self._of(self._shared, self._n, tail)
        shared, n, k = self._shared, self._n, len(tail)
        with _GROW:
            if len(shared) == n:
                shared.extend(tail)
                return self._of(shared, n + k)
        if n + k <= len(shared) and all(a is b for a, b in zip(shared[n:n + k], tail)):
            return self._of(shared, n + k)
        return self._of(shared[:n] + list(tail), n + k)

    def __radd__(self, other: tuple[T, ...]) -> tuple[T, ...]:
        """``tuple + log``: a tuple, as ``tuple + tuple`` is (a list, as with a tuple, takes no log)."""
        if not isinstance(other, tuple):
            return NotImplemented
        return other + tuple(self)

    def then(self, *items: T) -> Self:
        """This log followed by ``items``, kept in the private tail whatever its length: for an item that
        stands for a moment only (a turn in progress), so that it never enters the shared list."""
        return self._of(self._shared, self._n, self._tail + items)

    # -- a value ---------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if isinstance(other, Log):
            if len(other) != len(self):
                return False
            if other._shared is self._shared and other._n == self._n:
                return other._tail == self._tail
            return tuple(self) == tuple(other)
        if isinstance(other, tuple):
            return len(other) == len(self) and tuple(self) == other
        return NotImplemented

    def __lt__(self, other: object) -> bool:
        return tuple(self) < _as_tuple(other)

    def __le__(self, other: object) -> bool:
        return tuple(self) <= _as_tuple(other)

    def __gt__(self, other: object) -> bool:
        return tuple(self) > _as_tuple(other)

    def __ge__(self, other: object) -> bool:
        return tuple(self) >= _as_tuple(other)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(tuple(self))
        return self._hash

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (tuple(self),))


def _as_tuple(other: object) -> tuple[Any, ...]:
    """``other`` for an ordering against a log: a tuple or a log (else ``TypeError``, as a tuple would)."""
    if isinstance(other, (tuple, Log)):
        return tuple(other)
    raise TypeError(f"'<' and the other orderings are not supported between a log and {type(other).__name__}")


class History(Log[Event]):
    """A game's events in order, as a :class:`Log` (the public history of a position, a table's log)."""

    __slots__ = ()
