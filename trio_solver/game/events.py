"""The events of a game and their JSON grammar, in one place.

A game's history is a sequence of :class:`Turn` (one seat's reveals, in order,
with the values they showed) and, in team play, :class:`Swap` events. This
module owns the record form of an event (``{"turn": 0, "reveals": [...]}`` /
``{"swap": [0, 2], "cards": [3, 11]}``, see docs/RECORD.md); records,
positions and games all read and write events through it.

>>> e = event_from_json({"turn": 1, "reveals": [{"centre": 4, "value": 2}, {"lowest": 3, "value": 2}]})
>>> str(e)
'seat 1: c4=2 l3=2'
>>> event_to_json(e)
{'turn': 1, 'reveals': [{'centre': 4, 'value': 2}, {'lowest': 3, 'value': 2}]}
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from .. import limits
from .._args import ChoiceMeta
from .._args import show as _show
from .._json import fail, is_int, kind
from ..errors import RecordError
from .reveal import MAX_INDEX, Reveal, Revealed
from .rules import VALUES

__all__ = [
    "TurnStatus", "Turn", "Swap", "Event", "RawTurn", "RawEvent", "MAX_EVENTS",
    "where", "event_to_json", "event_from_json", "read_events", "raw_event",
]

#: More events than this cannot come from one game and are refused.
MAX_EVENTS = 100_000


class TurnStatus(str, Enum, metaclass=ChoiceMeta):
    """What a reveal did to the turn."""

    ONGOING = "ongoing"
    """The values match so far and the turn goes on."""
    TRIO = "trio"
    """Three equal values: the trio is taken and the turn passes."""
    FAILURE = "failure"
    """Two different values: the cards go back and the turn passes."""
    STUCK = "stuck"
    """The values match but no legal reveal is left: a failure."""

    @classmethod
    def _missing_(cls, value: object) -> TurnStatus:
        """``TurnStatus("x")`` raises :class:`~trio_solver.errors.RecordError` (a ``ValueError``)."""
        raise RecordError("status", f"expected one of {', '.join(s.value for s in cls)}, got {_show(value)}")


@dataclass(frozen=True)
class Turn:
    """One turn: the seat that played and the cards it revealed, in order."""

    seat: int
    reveals: tuple[Revealed, ...]

    def __post_init__(self) -> None:
        """Construction validates (:class:`~trio_solver.errors.RecordError` naming ``seat`` or
        ``reveals``): a seat number, and a sequence of :class:`Revealed` with values 1 to 12."""
        if type(self.seat) is not int or not 0 <= self.seat <= MAX_INDEX:
            raise RecordError("seat", f"expected a seat number, got {_show(self.seat)}")
        reveals = self.reveals
        if not isinstance(reveals, (tuple, list)):
            raise RecordError("reveals", f"expected a sequence of Revealed, got {type(reveals).__name__}")
        for r in reveals:
            if (not isinstance(r, tuple) or len(r) != 2 or type(r[0]) is not Reveal or type(r[1]) is not int
                    or not 1 <= r[1] <= 12):
                raise RecordError("reveals", f"expected Revealed(Reveal, value 1 to 12), got {_show(r)}")
        if type(reveals) is not tuple or not all(type(r) is Revealed for r in reveals):
            object.__setattr__(self, "reveals", tuple(r if type(r) is Revealed else Revealed(*r) for r in reveals))

    def __str__(self) -> str:
        return f"seat {self.seat}: " + " ".join(str(r) for r in self.reveals)

    @property
    def took_trio(self) -> bool:
        """Whether the turn took a trio: three cards of one value (any other turn failed or is under way)."""
        return len(self.reveals) == 3 and len({r.value for r in self.reveals}) == 1

    def to_json(self) -> dict[str, Any]:
        """The record form (see :func:`event_to_json`)."""
        return event_to_json(self)

    @classmethod
    def from_json(cls, data: Any) -> Turn:
        """Read a turn in the record form, every value given (raises :class:`RecordError`)."""
        event = event_from_json(data)
        if not isinstance(event, Turn):
            fail("event", "expected a turn {\"turn\": SEAT, \"reveals\": [...]}")
        return event


@dataclass(frozen=True)
class Swap:
    """A team's secret swap: ``seats[0]`` gives ``cards[0]`` to ``seats[1]`` and gets ``cards[1]``.

    ``cards`` is ``None`` when the values are secret to the observer.
    """

    seats: tuple[int, int]
    cards: tuple[int, int] | None

    def __post_init__(self) -> None:
        """Construction validates (:class:`~trio_solver.errors.RecordError` naming ``seats`` or
        ``cards``): two seat numbers, and ``None`` or two card values 1 to 12."""
        seats, cards = self.seats, self.cards
        if (not isinstance(seats, (tuple, list)) or len(seats) != 2
                or not all(type(s) is int and 0 <= s <= MAX_INDEX for s in seats)):
            raise RecordError("seats", f"expected two seat numbers, got {_show(seats)}")
        if cards is not None and (not isinstance(cards, (tuple, list)) or len(cards) != 2
                                  or not all(type(c) is int and 1 <= c <= 12 for c in cards)):
            raise RecordError("cards", f"expected None or two card values 1 to 12, got {_show(cards)}")
        object.__setattr__(self, "seats", tuple(seats))
        if cards is not None:
            object.__setattr__(self, "cards", tuple(cards))

    def __str__(self) -> str:
        a, b = self.seats
        if self.cards is None:
            return f"seats {a} and {b} swap secretly"
        return f"seat {a} gives {self.cards[0]} to seat {b} for {self.cards[1]}"

    def hidden(self) -> Swap:
        """The same swap as an observer outside the team sees it (cards secret)."""
        return self if self.cards is None else Swap(self.seats, None)

    def to_json(self) -> dict[str, Any]:
        """The record form (see :func:`event_to_json`)."""
        return event_to_json(self)

    @classmethod
    def from_json(cls, data: Any) -> Swap:
        """Read a swap in the record form (raises :class:`RecordError`)."""
        event = event_from_json(data)
        if not isinstance(event, Swap):
            fail("event", "expected a swap {\"swap\": [A, B], \"cards\": [VA, VB] or null}")
        return event


Event = Turn | Swap


@dataclass(frozen=True)
class RawTurn:
    """A turn as read from a record, before replay: a value may be missing (``None``)
    in a record that has the deal, which then supplies it."""

    seat: int
    reveals: tuple[tuple[Reveal, int | None], ...]


RawEvent = RawTurn | Swap


def raw_event(e: Event) -> RawEvent:
    """An event as a :data:`RawEvent` (every value present)."""
    return RawTurn(e.seat, tuple((r.reveal, r.value) for r in e.reveals)) if isinstance(e, Turn) else e


def where(index: int, event: Event | RawEvent | None = None, reveal: int | None = None) -> str:
    """The location prefix of an error: ``event 7 (turn of seat 2), reveal 2``."""
    text = f"event {index}"
    if isinstance(event, (Turn, RawTurn)):
        text += f" (turn of seat {event.seat})"
    elif isinstance(event, Swap):
        text += f" (swap of seats {event.seats[0]} and {event.seats[1]})"
    if reveal is not None:
        text += f", reveal {reveal}"
    return text


def event_to_json(event: Event, *, values: bool = True) -> dict[str, Any]:
    """One event in the record form (``values=False`` leaves out the values of reveals)."""
    if isinstance(event, Turn):
        return {"turn": event.seat,
                "reveals": [r.to_json() if values else r.reveal.to_json() for r in event.reveals]}
    return {"swap": list(event.seats), "cards": None if event.cards is None else list(event.cards)}


def _read_event(ev: Any, i: int, players: int, need_values: bool) -> RawEvent:
    loc = f"event {i}"
    if not isinstance(ev, dict):
        fail(loc, f"expected an object, got {kind(ev)}", i)
    if "turn" in ev:
        for key in ev:
            if key not in ("turn", "reveals"):
                fail(loc, f"unknown key {_show(key)} in a turn (allowed: turn, reveals)", i)
        seat = ev["turn"]
        if not is_int(seat) or not 0 <= seat < players:
            fail(loc, f"'turn' must be a seat 0 to {players - 1}, got {_show(seat)}", i)
        loc = f"event {i} (turn of seat {seat})"
        reveals = ev.get("reveals")
        if not isinstance(reveals, list):
            fail(loc, "'reveals' must be a list of 1 to 3 reveals" + ("" if "reveals" in ev else ", missing"), i)
        if not 1 <= len(reveals) <= 3:
            fail(loc, f"a turn lists 1 to 3 reveals, got {len(reveals)}", i)
        parsed: list[tuple[Reveal, int | None]] = []
        for j, r in enumerate(reveals):
            rloc = f"{loc}, reveal {j}"
            if not isinstance(r, dict):
                fail(rloc, f"expected an object such as {{\"centre\": 3, \"value\": 10}}, got {kind(r)}", i)
            for key in r:
                if key not in ("centre", "lowest", "highest", "value"):
                    fail(rloc, f"unknown key {_show(key)} (allowed: centre, lowest, highest, value)", i)
            places = [k for k in ("centre", "lowest", "highest") if k in r]
            if len(places) != 1:
                fail(rloc, "needs exactly one of 'centre', 'lowest', 'highest'"
                     + (f", got {', '.join(places)}" if places else ""), i)
            idx = r[places[0]]
            if not is_int(idx) or not 0 <= idx <= MAX_INDEX:
                fail(rloc, f"'{places[0]}' must be a {'slot' if places[0] == 'centre' else 'seat'} number, "
                     f"got {_show(idx, 40)}", i)
            value: int | None = None
            if "value" in r:
                value = r["value"]
                if not is_int(value) or value not in VALUES:
                    fail(rloc, f"'value' must be 1 to 12, got {_show(value)}", i)
            elif need_values:
                fail(rloc, "'value' is required in a record without a deal", i)
            parsed.append((Reveal(places[0], idx), value))  # type: ignore[arg-type]
        return RawTurn(seat, tuple(parsed))
    if "swap" in ev:
        for key in ev:
            if key not in ("swap", "cards"):
                fail(loc, f"unknown key {_show(key)} in a swap (allowed: swap, cards)", i)
        seats = ev["swap"]
        if not isinstance(seats, list) or len(seats) != 2 or not all(is_int(s) and 0 <= s < players for s in seats):
            fail(loc, f"'swap' must be two seats 0 to {players - 1}, got {_show(seats)}", i)
        if "cards" not in ev:
            fail(loc, "'cards' missing (use null when the values were secret)", i)
        cards = ev["cards"]
        if cards is not None and (
            not isinstance(cards, list) or len(cards) != 2 or not all(is_int(c) and c in VALUES for c in cards)
        ):
            fail(loc, f"'cards' must be two card values 1 to 12 or null, got {_show(cards)}", i)
        return Swap((seats[0], seats[1]), None if cards is None else (cards[0], cards[1]))
    fail(loc, "an event is a turn {\"turn\": SEAT, \"reveals\": [...]} or a swap "
         "{\"swap\": [A, B], \"cards\": [VA, VB]}", i)


def read_events(raw: Any, players: int, *, need_values: bool, start: int = 0) -> list[RawEvent]:
    """Parse the ``events`` list of a record (grammar only; the rules are checked by replay).

    ``start`` is the index of the first event (for messages). Raises :class:`RecordError`.
    """
    if not isinstance(raw, list):
        fail("events", f"expected a list, got {kind(raw)}")
    if start + len(raw) > MAX_EVENTS:
        fail("events", f"{start + len(raw)} events; no game is that long (limit {MAX_EVENTS})")
    out = []
    for i, ev in enumerate(raw):
        limits.check("read the record")
        out.append(_read_event(ev, start + i, players, need_values))
    return out


def event_from_json(data: Any, *, players: int = 6) -> Event:
    """Read one event with all its values (raises :class:`~trio_solver.errors.RecordError`)."""
    raw = _read_event(data, 0, players, True)
    if isinstance(raw, Swap):
        return raw
    return Turn(raw.seat, tuple(Revealed(r, v) for r, v in raw.reveals if v is not None))
