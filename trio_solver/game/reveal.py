"""Reveals: the value types of a move, with a short text notation that round-trips.

A :class:`Reveal` is a request: ``c3`` (centre slot 3), ``l2`` (the lowest card
of seat 2), ``h0`` (the highest card of seat 0). A :class:`Revealed` is a reveal
with the value it showed: ``c3=10``.

>>> Reveal.from_str("l2")
Reveal(kind='lowest', index=2)
>>> str(Reveal.centre(3)), Reveal.centre(3).to_json()
('c3', {'centre': 3})
>>> str(Revealed.from_str("h0=12"))
'h0=12'
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

from .._args import show as _show
from ..errors import NotationError

__all__ = ["Kind", "Reveal", "Revealed", "KINDS"]

Kind = Literal["centre", "lowest", "highest"]
#: The three kinds of reveal, in the order used for display and sorting.
KINDS: tuple[Kind, ...] = ("centre", "lowest", "highest")
_LETTER: dict[str, str] = {"centre": "c", "lowest": "l", "highest": "h"}
_KIND_OF_LETTER: dict[str, Kind] = {"c": "centre", "l": "lowest", "h": "highest"}


#: Slots and seats are numbered below this (a table has at most 6 seats and 9 slots).
MAX_INDEX = 99


class _RevealFields(NamedTuple):
    kind: Kind
    index: int  # type: ignore[assignment]  # the slot or seat; shadows tuple.index on purpose


class Reveal(_RevealFields):
    """A request to reveal one card: a centre slot, or one end of a seat's hand.

    Construction validates: ``Reveal("diag", 1)`` raises :class:`~trio_solver.errors.NotationError`.
    """

    __slots__ = ()

    def __new__(cls, kind: Kind, index: int) -> Reveal:
        if not isinstance(kind, str) or kind not in _LETTER:
            raise NotationError(f"{_show(kind, 40)} is not a kind of reveal (centre, lowest or highest)")
        if type(index) is not int or not 0 <= index <= MAX_INDEX:
            raise NotationError(f"{kind}: expected a {'slot' if kind == 'centre' else 'seat'} number 0 to "
                                f"{MAX_INDEX}, got {_show(index, 40)}")
        return tuple.__new__(cls, (kind, index))

    def __repr__(self) -> str:
        return f"Reveal(kind={self.kind!r}, index={self.index})"

    @staticmethod
    def centre(slot: int) -> Reveal:
        """The face-down card in centre slot ``slot``."""
        return _interned("centre", slot)

    @staticmethod
    def lowest(seat: int) -> Reveal:
        """The lowest card still in the hand of ``seat``."""
        return _interned("lowest", seat)

    @staticmethod
    def highest(seat: int) -> Reveal:
        """The highest card still in the hand of ``seat``."""
        return _interned("highest", seat)

    @property
    def is_centre(self) -> bool:
        return self.kind == "centre"

    @property
    def seat(self) -> int | None:
        """The seat asked, or ``None`` for a centre slot."""
        return None if self.kind == "centre" else self.index

    def __str__(self) -> str:
        return f"{_LETTER[self.kind]}{self.index}"

    def uci(self) -> str:
        """The short notation (``c3``), like python-chess's ``Move.uci()``."""
        return str(self)

    @classmethod
    def from_str(cls, text: str) -> Reveal:
        """Parse ``c3`` / ``l2`` / ``h0`` (case and surrounding blanks ignored)."""
        if not isinstance(text, str):
            raise NotationError(f"expected a reveal such as c3, l2 or h0, got {_show(text)}")
        t = text.strip().lower()
        if (len(t) < 2 or len(t) > 4 or t[0] not in _KIND_OF_LETTER or not t[1:].isdigit()
                or not t[1:].isascii()):
            raise NotationError(
                f"{_show(text, 40)} is not a reveal: write c<slot>, l<seat> or h<seat>, e.g. c3, l2, h0"
            )
        return _interned(_KIND_OF_LETTER[t[0]], int(t[1:]))

    def to_json(self) -> dict[str, int]:
        """The record form: ``{"centre": 3}``."""
        return {self.kind: self.index}

    @classmethod
    def from_json(cls, data: Any) -> Reveal:
        """Read ``{"centre": 3}`` / ``{"lowest": 2}`` / ``{"highest": 0}`` (extra keys refused)."""
        if not isinstance(data, dict):
            raise NotationError(f"expected an object such as {{\"centre\": 3}}, got {_show(data)}")
        kinds = [k for k in KINDS if k in data]
        if len(kinds) != 1:
            raise NotationError(
                "a reveal needs exactly one of 'centre', 'lowest', 'highest', got "
                + (", ".join(repr(k) for k in data) or "none")
            )
        kind = kinds[0]
        index = data[kind]
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index <= MAX_INDEX:
            raise NotationError(f"{kind}: expected a slot or seat number 0 to {MAX_INDEX}, got {_show(index, 40)}")
        return _interned(kind, index)


def _interned(kind: Kind, index: int) -> Reveal:
    table = _TABLE[kind]
    return table[index] if type(index) is int and 0 <= index < len(table) else Reveal(kind, index)


#: Ready-made reveals for the usual seats and slots, so the engine allocates none.
_TABLE: dict[str, tuple[Reveal, ...]] = {k: tuple(Reveal(k, i) for i in range(16)) for k in KINDS}


class Revealed(NamedTuple):
    """A reveal together with the value it showed."""

    reveal: Reveal
    value: int

    def __str__(self) -> str:
        return f"{self.reveal}={self.value}"

    @classmethod
    def from_str(cls, text: str) -> Revealed:
        """Parse ``c3=10``."""
        if not isinstance(text, str) or "=" not in text:
            raise NotationError(f"expected a shown card such as c3=10, got {_show(text)}")
        place, _, value = text.partition("=")
        v = value.strip()
        if not (v.isascii() and v.isdigit()) or len(v) > 2 or not 1 <= int(v) <= 12:
            raise NotationError(f"{_show(text, 40)}: the value must be 1 to 12")
        try:
            reveal = Reveal.from_str(place)
        except NotationError:  # named by the whole text: "=12" has no place before its value
            raise NotationError(f"{_show(text, 40)} is not a shown card: write c<slot>, l<seat> or h<seat> and "
                                "its value, e.g. c3=10") from None
        return cls(reveal, int(v))

    def to_json(self) -> dict[str, int]:
        """The record form: ``{"centre": 3, "value": 10}``."""
        return {self.reveal.kind: self.reveal.index, "value": self.value}

    @classmethod
    def from_json(cls, data: Any) -> Revealed:
        """Read ``{"centre": 3, "value": 10}`` (raises :class:`~trio_solver.errors.NotationError`)."""
        if not isinstance(data, dict) or "value" not in data:
            raise NotationError(f"expected an object such as {{\"centre\": 3, \"value\": 10}}, got {_show(data, 80)}")
        value = data["value"]
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 12:
            raise NotationError(f"value: expected 1 to 12, got {_show(value, 40)}")
        return cls(Reveal.from_json({k: v for k, v in data.items() if k != "value"}), value)
