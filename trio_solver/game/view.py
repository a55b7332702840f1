"""What one seat (or a spectator) may see: a position, kept apart from the true state.

A :class:`PlayerView` holds the rules, the public history (turns with the
values they showed; swaps, with the cards only for the viewer's own team), the
viewer's own hand, and the public table that follows from them. Bots, the
belief model and the advisor receive only this object, so they cannot look at a
hidden card even by mistake.

Positions are values: they compare equal, hash alike and share a stable
:meth:`~PlayerView.key` when their public history and the viewer's knowledge
are the same, and they print and round-trip through JSON. A person at a real
table drives one with :meth:`~PlayerView.push` (a reveal and the value it
showed) and :meth:`~PlayerView.pop` (take it back), each returning the new
position:

>>> v = PlayerView.start(Rules(3), seat=0, hand=[1, 2, 3, 4, 5, 6, 7, 8, 9])
>>> v = v.push("c4=11").push("l1=2")      # seat 0's turn fails: 11 then 2
>>> v.to_move, v.push("l1", 2).turn
(1, (Revealed(reveal=Reveal(kind='lowest', index=1), value=2),))
>>> PlayerView.from_json(v.to_json()) == v
True

A view is built from the true state (:meth:`trio_solver.game.state.Game.view`), by
replaying a record kept at a real table (:func:`replay_view`), or by pushing
reveals onto :meth:`PlayerView.start`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import _args
from .._args import show as _show
from .._json import fail, is_int
from ..errors import IllegalMoveError, NotationError, RecordError, TrioError, ViewError
from .events import Event, RawEvent, RawTurn, Swap, Turn, TurnStatus, event_to_json, raw_event, read_events, where
from .history import History, Log
from .table import CheapContradictions, Outcome, Table, drive, drive_reveal, drive_swap
from .reveal import Reveal, Revealed
from .rules import VALUES, Rules, read_cards, read_position_head
from .._display import html_of

__all__ = ["PlayerView", "replay_view"]


@dataclass(frozen=True, eq=False)
class PlayerView:
    """The information of ``seat`` (``None``: a spectator) at one moment of a game.

    ``events`` is the public history in order (a :class:`~trio_solver.game.history.History`, which
    behaves as a tuple); its last element may be a turn in progress. ``initial_hand`` is the viewer's hand as dealt (``None`` for a
    spectator); ``hand`` is the viewer's hand now, including its cards that lie
    face up in the turn in progress.
    """

    rules: Rules
    first_player: int
    seat: int | None
    initial_hand: tuple[int, ...] | None
    events: History
    hand: tuple[int, ...] | None
    _table: Table = field(repr=False)
    #: the replay that built this position, to go on from (:meth:`push`); built on demand
    _replayer: _Replayer | None = field(default=None, repr=False, compare=False)
    #: the position :meth:`push` came from, which :meth:`pop` returns
    _parent: PlayerView | None = field(default=None, repr=False, compare=False)

    # -- making positions ------------------------------------------------------------
    @classmethod
    def start(cls, rules: Rules, seat: int | None = None, hand: Sequence[int] | None = None,
              first_player: int = 0) -> PlayerView:
        """The position before the first event, for ``seat`` holding ``hand`` (both ``None``: a spectator)."""
        return replay_view(rules, (), seat=seat, hand=hand, first_player=first_player)

    def push(self, reveal: Reveal | Revealed | str, value: int | None = None) -> PlayerView:
        """The position after ``reveal`` showed ``value`` (this position is unchanged).

        ``reveal`` may be a :class:`Reveal`, a :class:`Revealed` or the notation ``"c3"`` /
        ``"c3=10"``. The value may be left out for a card of the viewer's own hand.
        Raises :class:`~trio_solver.errors.IllegalMoveError` for a reveal the rules forbid
        or a value that contradicts what this position knows. The replay goes on from this
        position (one reveal's work, every rule checked); :meth:`pop` returns this position.
        """
        if isinstance(reveal, str):
            try:
                parsed: Reveal | Revealed = Revealed.from_str(reveal) if "=" in reveal else Reveal.from_str(reveal)
            except NotationError as e:
                raise IllegalMoveError(str(e)) from None
            reveal = parsed
        if type(reveal) is Revealed:
            if value is not None and value != reveal.value:
                raise IllegalMoveError(f"{reveal}: the value is given twice ({reveal.value} and {value})")
            value = reveal.value
            reveal = reveal.reveal
        if type(reveal) is not Reveal:
            raise IllegalMoveError(f"expected a reveal such as Reveal.centre(3) or 'c3=10', got {_show(reveal, 80)}")
        try:
            self._table.check_reveal(reveal)
        except IllegalMoveError as e:
            raise IllegalMoveError(str(e)) from None
        if value is None:
            value = self.own_value(reveal)
            if value is None:
                raise IllegalMoveError(f"{reveal}: say which value it showed, e.g. {reveal}=10")
        if not is_int(value) or value not in VALUES:
            raise IllegalMoveError(f"{reveal}: a card value is 1 to 12, got {_show(value, 80)}")
        shown = Revealed(reveal, value)
        if self._table.turn:
            last = self.events[-1]
            assert isinstance(last, Turn)
            i, turn = len(self.events) - 1, Turn(last.seat, last.reveals + (shown,))
            events = self.events.prefix(i) + (turn,)
        else:
            i, turn = len(self.events), Turn(self.to_move, (shown,))
            events = self.events + (turn,)
        replayer = self._go_on()
        target = replayer.target
        try:
            drive_reveal(target, replayer.checker, where(i, turn, len(turn.reveals) - 1), i, reveal, value,
                         self.seat, target.own)
        except RecordError as e:
            raise IllegalMoveError(f"{shown}: {e.reason}") from None
        return target.view(events, replayer, self)

    def push_swap(self, seats: Sequence[int], cards: Sequence[int] | None = None) -> PlayerView:
        """The position after a team swap (``cards``: what ``seats[0]`` and ``seats[1]`` gave,
        known only for the viewer's own team; ``None`` otherwise)."""
        if not isinstance(seats, (list, tuple)) or len(seats) != 2:
            raise IllegalMoveError(f"swap: expected two seats, got {_show(seats, 80)}")
        if cards is not None and (not isinstance(cards, (list, tuple)) or len(cards) != 2
                                  or not all(_args.is_int(c) and 1 <= c <= 12 for c in cards)):
            raise IllegalMoveError(f"swap: expected two card values 1 to 12 or null, got {_show(cards, 80)}")
        try:
            swap = Swap((seats[0], seats[1]), None if cards is None else (cards[0], cards[1]))
        except TrioError as e:
            raise IllegalMoveError(str(e)) from None
        try:
            self._table.check_swap(swap.seats)
        except IllegalMoveError as e:
            raise IllegalMoveError(str(e)) from None
        replayer = self._go_on()
        try:
            drive_swap(replayer.target, replayer.checker, len(self.events), swap)
        except RecordError as e:
            raise IllegalMoveError(f"swap {list(swap.seats)}: {e.reason}") from None
        return replayer.target.view(self.events + (swap,), replayer, self)

    def pop(self) -> PlayerView:
        """The position before the last reveal or swap (raises if there is none): the position
        :meth:`push` came from, else this history replayed without its last step."""
        if self._parent is not None:
            return self._parent
        if not self.events:
            raise IllegalMoveError("pop: nothing to take back")
        last = self.events[-1]
        before = self.events.prefix(len(self.events) - 1)
        if isinstance(last, Turn) and len(last.reveals) > 1:
            events = before + (Turn(last.seat, last.reveals[:-1]),)
        else:
            events = before
        try:
            return replay_view(self.rules, events, seat=self.seat, hand=self.initial_hand,
                               first_player=self.first_player)
        except RecordError as e:
            raise IllegalMoveError(f"pop: {e.reason}") from None

    def _go_on(self) -> _Replayer:
        """A private copy of the replay that built this position (replayed once if there is none)."""
        replayer = self._replayer
        if replayer is None:
            replayer = replay_view(self.rules, self.events, seat=self.seat, hand=self.initial_hand,
                                   first_player=self.first_player)._replayer
            assert replayer is not None
            object.__setattr__(self, "_replayer", replayer)
        return replayer.copy()

    # -- values --------------------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        """What a pickle or a deep copy keeps: the position, without the replay that built it or the positions
        :meth:`push` came through (built again when asked for), so that its size and depth do not grow with
        the chain of pushes behind it."""
        return {**self.__dict__, "_replayer": None, "_parent": None}

    def _identity(self) -> tuple[object, ...]:
        return (self.rules, self.first_player, self.seat, self.initial_hand, self.events)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayerView):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def key(self) -> str:
        """A stable key (hex digest of the canonical JSON): equal positions, equal keys, in any process."""
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def to_json(self) -> dict[str, Any]:
        """``{"rules", "first_player", "seat", "hand", "events"}`` (``hand``: as dealt)."""
        return {
            "rules": self.rules.to_json(),
            "first_player": self.first_player,
            "seat": self.seat,
            "hand": None if self.initial_hand is None else list(self.initial_hand),
            "events": [event_to_json(e) for e in self.events],
        }

    @classmethod
    def from_json(cls, data: Any) -> PlayerView:
        """Read :meth:`to_json`'s form, replaying and checking it (raises :class:`RecordError`)."""
        d, rules, first = read_position_head(data, ("rules", "first_player", "seat", "hand", "events"),
                                             ("rules", "events"))
        seat, hand = d.get("seat"), d.get("hand")
        if seat is not None and (not is_int(seat) or not 0 <= seat < rules.players):
            fail("seat", f"expected a seat 0 to {rules.players - 1} or null, got {_show(seat, 80)}")
        if hand is not None and (not isinstance(hand, list) or not all(is_int(v) for v in hand)):
            fail("hand", "expected a list of card values or null")
        raw = read_events(d["events"], rules.players, need_values=True)
        return _replay_raw(rules, raw, seat, hand, first)

    # -- the public table --------------------------------------------------------
    @property
    def to_move(self) -> int:
        """The seat whose turn it is (or whose turn is in progress)."""
        return self._table.to_move

    @property
    def winner(self) -> int | None:
        """The seat that took the winning trio, or ``None``."""
        return self._table.winner

    @property
    def over(self) -> bool:
        """Whether the game has been won."""
        return self._table.winner is not None

    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        return self._table.outcome()

    @property
    def sizes(self) -> tuple[int, ...]:
        """Cards in each hand, including cards face up in the turn in progress."""
        return self._table.sizes

    @property
    def centre_present(self) -> tuple[bool, ...]:
        """For each centre slot, whether it still holds a card."""
        return self._table.centre_present

    @property
    def turn(self) -> tuple[Revealed, ...]:
        """The cards face up in the turn in progress."""
        return self._table.turn

    @property
    def trios(self) -> tuple[tuple[int, ...], ...]:
        """The values of the trios taken by each seat, in order."""
        return self._table.trios

    def _seat(self, seat: Any, name: str = "seat") -> int:
        return _args.seat(name, seat, self.rules.players, ViewError)  # type: ignore[return-value]

    def _reveal(self, reveal: Any) -> Reveal:
        """A :class:`Reveal` of a seat or slot of this table (:class:`ViewError` otherwise)."""
        _args.instance("reveal", reveal, Reveal, ViewError)
        if reveal.is_centre:
            n = len(self._table.centre_present)
            if reveal.index >= n:
                raise ViewError(f"reveal: {reveal}: no centre slot {reveal.index} at this table")
        else:
            self._seat(reveal.index, "reveal")
        return reveal  # type: ignore[no-any-return]

    def at_table(self, reveal: Reveal) -> Reveal:
        """``reveal`` if its seat or centre slot is at this table, else :class:`~trio_solver.errors.ViewError`
        (``reveal: c4: no centre slot 4 at this table``)."""
        return self._reveal(reveal)

    def team_trios(self, seat: int) -> tuple[int, ...]:
        """Trios held by the side of ``seat`` (pooled over partners in team play); raises
        :class:`~trio_solver.errors.ViewError` for a seat not at the table."""
        self._seat(seat)
        return tuple(self._table.team_trios(self.rules.team_of(seat)))

    @property
    def swap_open(self) -> tuple[tuple[int, ...], ...]:
        """The teams (seat pairs) that may still swap at this moment."""
        return tuple(self.rules.teams_of_seats[t] for t in self._table.swap_open)

    def legal_reveals(self) -> list[Reveal]:
        """Every reveal allowed now (public information only)."""
        return self._table.legal_reveals()

    def position(self, reveal: Reveal) -> int:
        """Index in the owner's sorted hand of the card a hand reveal would show now
        (:class:`~trio_solver.errors.ViewError` for a centre slot or a seat not at the table)."""
        if self._reveal(reveal).is_centre:
            raise ViewError(f"reveal: {reveal}: a centre slot has no position in a hand")
        return self._table.position(reveal)

    def accessible(self, seat: int) -> int:
        """Cards of ``seat`` not face up in this turn (:class:`~trio_solver.errors.ViewError` for a
        seat not at the table)."""
        self._seat(seat)
        return self._table.accessible(seat)

    def used(self, seat: int) -> tuple[int, int]:
        """``(lowest, highest)`` cards of ``seat`` face up in the turn in progress
        (:class:`~trio_solver.errors.ViewError` for a seat not at the table)."""
        self._seat(seat)
        return self._table.used(seat)

    def table_copy(self) -> Table:
        """A private copy of the public table, for callers that simulate ahead."""
        return self._table.copy()

    def own_value(self, reveal: Reveal) -> int | None:
        """The value a reveal of the viewer's own hand would show now, else ``None``
        (:class:`~trio_solver.errors.ViewError` for a reveal of a seat or slot not at the table)."""
        self._reveal(reveal)
        if self.hand is None or (not reveal.is_centre and self._table.accessible(reveal.index) <= 0):
            return None
        if self.hand is None or reveal.is_centre or reveal.index != self.seat:
            return None
        return self.hand[self._table.position(reveal)]

    def centre_seen(self) -> tuple[int | None, ...]:
        """For each slot still holding a card, the value it last showed (``None``: never shown)."""
        return self._table.centre_seen

    def observer(self) -> str:
        """``"seat 2"`` or ``"spectator"``."""
        return "spectator" if self.seat is None else f"seat {self.seat}"

    def _repr_html_(self) -> str:
        """The table as this seat knows it, in a notebook (:func:`trio_solver.report.notebook.view_html`)."""
        return html_of(self)

    def __repr__(self) -> str:
        return (
            f"PlayerView({self.observer()}, players={self.rules.players}, events={len(self.events)}, "
            f"to_move={self.to_move}, hand={list(self.hand) if self.hand is not None else None})"
        )


# ---------------------------------------------------------------------------
# Replaying a viewer's history


class _ViewTarget:
    """:func:`~trio_solver.game.table.drive` onto the position of one seat (values as recorded)."""

    def __init__(self, rules: Rules, first_player: int, seat: int | None, hand: tuple[int, ...] | None) -> None:
        try:
            self.table = Table(rules, first_player)
        except IllegalMoveError as e:
            fail("first_player", str(e))
        self.seat = seat
        self.initial = hand
        self.own: list[int] | None = None if hand is None else list(hand)

    def value(self, reveal: Reveal, recorded: int | None, loc: str, i: int) -> int:
        if recorded is None:
            fail(loc, "'value' is required in a record without a deal", i)
        own, seat = self.own, self.seat
        if own is not None and reveal.index == seat and not reveal.is_centre:
            pos = self.table.position(reveal)
            if own[pos] != recorded:
                end = "lowest" if reveal.kind == "lowest" else "highest"
                fail(loc, f"{reveal}={recorded} contradicts the viewer's hand {own}: its {end} card "
                     f"here is {own[pos]}", i)
        return recorded

    def reveal(self, reveal: Reveal, value: int) -> TurnStatus:
        return self.table.apply_reveal(reveal, value)

    def swap(self, swap: Swap, loc: str, i: int) -> None:
        rules, seat = self.table.rules, self.seat
        a, b = swap.seats
        mine = seat is not None and rules.team_of(a) == rules.team_of(seat)
        if not mine:
            if swap.cards is not None:
                fail(loc, f"the cards of this swap are secret to the "
                     f"{'spectator' if seat is None else f'viewer (seat {seat})'}; write null", i)
            self.table.apply_swap(swap.seats, None)
            return
        if swap.cards is None:
            fail(loc, "the viewer's own team swap needs its 'cards'", i)
        own = self.own
        assert own is not None
        give, get = (swap.cards[0], swap.cards[1]) if seat == a else (swap.cards[1], swap.cards[0])
        if give not in own:
            fail(loc, f"seat {seat} gives a {give} but the viewer's hand {own} holds none", i)
        own.remove(give)
        own.append(get)
        own.sort()
        self.table.apply_swap(swap.seats, swap.cards)

    def snapshot(self, events: Sequence[Event]) -> PlayerView:
        return PlayerView(self.table.rules, self.table.first_player, self.seat, self.initial, History.of(events),
                          None if self.own is None else tuple(self.own), self.table.copy())

    def view(self, events: History, replayer: _Replayer, parent: PlayerView | None) -> PlayerView:
        """The position now, owning this target's table (``replayer`` copies it before going on)."""
        return PlayerView(self.table.rules, self.table.first_player, self.seat, self.initial, events,
                          None if self.own is None else tuple(self.own), self.table, replayer, parent)

    def copy(self) -> _ViewTarget:
        t = _ViewTarget.__new__(_ViewTarget)
        t.table, t.seat, t.initial = self.table.copy(), self.seat, self.initial
        t.own = None if self.own is None else self.own[:]
        return t


class _Replayer:
    """A replay that can go on: the target (table and viewer's hand) and the contradiction checks' memory."""

    __slots__ = ("target", "checker")

    def __init__(self, target: _ViewTarget, checker: CheapContradictions) -> None:
        self.target = target
        self.checker = checker

    def copy(self) -> _Replayer:
        return _Replayer(self.target.copy(), self.checker.copy())


def _replay_raw(rules: Rules, events: Sequence[RawEvent], seat: int | None, hand: Sequence[int] | None,
                first_player: int, on_event: Callable[[PlayerView], None] | None = None) -> PlayerView:
    if (seat is None) != (hand is None):
        fail("viewer", "a viewer needs both a seat and a hand")
    if not is_int(first_player) or not 0 <= first_player < rules.players:
        fail("first_player", f"expected a seat 0 to {rules.players - 1}, got {_show(first_player)}")
    if not isinstance(events, (list, tuple, Log)) or not all(isinstance(e, (RawTurn, Swap)) for e in events):
        fail("events", "expected a sequence of Turn and Swap events")
    own: tuple[int, ...] | None = None
    if seat is not None and hand is not None:
        if not is_int(seat) or not 0 <= seat < rules.players:
            fail("viewer.seat", f"expected a seat 0 to {rules.players - 1}, got {_show(seat, 80)}")
        own = tuple(sorted(read_cards(hand, "viewer.hand", rules.hand_size)))
    target = _ViewTarget(rules, first_player, seat, own)
    checker = CheapContradictions(rules)
    filled = drive(target, events, (seat, target.own), on_event, checker)
    return target.view(filled, _Replayer(target, checker), None)


def replay_view(
    rules: Rules,
    events: Sequence[Event],
    *,
    seat: int | None = None,
    hand: Sequence[int] | None = None,
    first_player: int = 0,
    on_event: Callable[[PlayerView], None] | None = None,
) -> PlayerView:
    """Replay public ``events`` for a viewer holding ``hand`` at ``seat`` (``None``: spectator).

    Checks every event against the rules and against the contradictions that
    need no search (a fourth copy of a value, a value outside the range a hand
    showed, a reveal of the viewer's own hand that differs from the hand); raises
    :class:`~trio_solver.errors.RecordError` naming the event. The full consistency
    check (does any deal fit?) is in :mod:`trio_solver.infer.beliefs`. ``on_event`` sees the
    position after each event.
    """
    if not isinstance(rules, Rules):
        raise RecordError("rules", f"expected Rules, got {type(rules).__name__}")
    if not isinstance(events, (list, tuple, Log)) or not all(isinstance(e, (Turn, Swap)) for e in events):
        raise RecordError("events", "expected a sequence of Turn and Swap events")
    return _replay_raw(rules, [raw_event(e) for e in events], seat, hand, first_player, on_event)
