"""The one replayer of the public history.

:class:`Table` holds everything every player sees — hand sizes, which centre
slots still hold a card, the cards face up in the turn, the trios taken, whose
turn it is, the swap moments and the log of events — and no hidden value. It
decides every outcome that depends only on public facts (a turn goes on, takes
a trio, fails, or is stuck with no legal reveal left; a win; a swap moment).
The true-state engine (:mod:`trio_solver.game.state`), the positions of one seat
(:mod:`trio_solver.game.view`), the belief model, the bots and the analysis all
replay through it: :func:`drive` replays a record's events with every rule
checked, and :func:`steps` walks an already valid history for the modules that
read it (what was shown where, which trios left which hands).

>>> t = Table(Rules(3))
>>> [t.apply_reveal(Reveal.lowest(1), 4) for _ in range(3)][-1]
<TurnStatus.TRIO: 'trio'>
>>> t.trios, t.sizes, t.last_trio
(((4,), (), ()), (9, 6, 9), TrioTaken(value=4, seat=0, hands=((1, 3, 0),), slots=()))
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar

from .. import limits
from .._args import show as _show
from .._json import fail, is_int, json_object
from ..errors import IllegalMoveError
from .events import Event, RawEvent, RawTurn, Swap, Turn, TurnStatus, where
from .history import History, Log
from .reveal import Reveal, Revealed
from .rules import COPIES, Rules

__all__ = ["Table", "TrioTaken", "Outcome", "Step", "steps", "StepReader", "drive", "drive_reveal", "drive_swap", "Target",
           "CheapContradictions"]

_CENTRE = tuple(Reveal.centre(i) for i in range(16))
_LOWEST = tuple(Reveal.lowest(i) for i in range(16))
_HIGHEST = tuple(Reveal.highest(i) for i in range(16))


@dataclass(frozen=True)
class TrioTaken:
    """A trio that left play: its value, the seat that took it, and where its cards came from:
    ``hands`` lists ``(seat, lowest cards, highest cards)`` for each hand that gave cards, ``slots``
    the centre slots."""

    value: int
    seat: int
    hands: tuple[tuple[int, int, int], ...]
    slots: tuple[int, ...]

    def from_hand(self, seat: int) -> tuple[int, int]:
        """``(lowest, highest)`` cards the trio took from ``seat``'s hand."""
        for s, lo, hi in self.hands:
            if s == seat:
                return lo, hi
        return 0, 0


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winner`` took the winning trio for the side ``seats`` (both partners in
    team play), which then held the trios ``trios`` (in the order taken); ``reason`` says which goal it met."""

    winner: int
    seats: tuple[int, ...]
    trios: tuple[int, ...]
    reason: str

    def to_json(self) -> dict[str, Any]:
        """``{"winner": 2, "seats": [0, 2], "trios": [4, 9, 11], "reason": "three trios"}``."""
        return {"winner": self.winner, "seats": list(self.seats), "trios": list(self.trios), "reason": self.reason}

    @classmethod
    def from_json(cls, data: Any) -> Outcome:
        """Read :meth:`to_json`'s form (raises :class:`~trio_solver.errors.RecordError`)."""
        d = json_object(data, "outcome", ("winner", "seats", "trios", "reason"))
        try:
            out = cls(d["winner"], tuple(d["seats"]), tuple(d["trios"]), d["reason"])
        except (KeyError, TypeError):
            fail("outcome", "expected winner, seats, trios and reason")
        if not (is_int(out.winner) and all(is_int(x) for x in out.seats + out.trios) and isinstance(out.reason, str)):
            fail("outcome", "winner, seats and trios are integers, reason a string")
        return out


class Table:
    """The public state of one game, changed only through its methods (:meth:`copy` is cheap).

    Reading it is done through properties that return immutable values.
    """

    #: The state, listed once: every field but ``rules`` and ``first_player`` changes during play.
    __slots__ = ("rules", "first_player", "_sizes", "_centre", "_to_move", "_turn", "_lo", "_hi", "_up",
                 "_taken", "_winner", "_swap_open", "_events", "_seen_by", "_last_trio", "_seen")

    def __init__(self, rules: Rules, first_player: int = 0) -> None:
        n = rules.players
        if type(first_player) is not int or not 0 <= first_player < n:
            raise IllegalMoveError(f"first player must be a seat 0 to {n - 1}, got {_show(first_player)}")
        self.rules = rules
        self.first_player = first_player
        self._sizes: list[int] = [rules.hand_size] * n
        self._centre: list[bool] = [True] * rules.centre_size
        self._to_move = first_player
        self._turn: list[Revealed] = []
        self._lo: list[int] = [0] * n
        self._hi: list[int] = [0] * n
        self._up: list[bool] = [False] * rules.centre_size
        self._taken: tuple[tuple[int, int], ...] = ()  # (seat, value) of every trio, in the order taken
        self._winner: int | None = None
        self._swap_open: list[int] = list(range(len(rules.teams_of_seats))) if rules.teams else []
        self._events = History()
        # in team play, the log as each team sees it (the other teams' swap cards secret), then as a spectator does
        self._seen_by: tuple[History, ...] = (History(),) * (len(rules.teams_of_seats) + 1) if rules.teams else ()
        self._last_trio: TrioTaken | None = None
        self._seen: list[int | None] = [None] * rules.centre_size  # the value each slot last showed

    @classmethod
    def constructed(cls, rules: Rules, sizes: Sequence[int], centre: Sequence[bool], to_move: int = 0) -> Table:
        """A position no dealt game need reach (hand sizes and occupied slots given), for puzzles and tests.
        Raises :class:`IllegalMoveError` for sizes and slots that do not fit the rules, or no card at all."""
        t = cls(rules, to_move)
        if len(sizes) != rules.players or len(centre) != rules.centre_size or any(
                type(s) is not int or s < 0 for s in sizes):
            raise IllegalMoveError(f"constructed table: {len(sizes)} hand sizes and {len(centre)} slots do not fit "
                                   f"{rules.players} players and {rules.centre_size} slots")
        if not any(sizes) and not any(centre):
            raise IllegalMoveError("constructed table: no card in play (no reveal could be made, and no one "
                                   "could ever win)")
        t._sizes = list(sizes)
        t._centre = [bool(c) for c in centre]
        # the swap moment before the first turn, as after a trio, is closed to a team with an empty hand
        t._swap_open = [k for k in t._swap_open if all(t._sizes[p] > 0 for p in rules.teams_of_seats[k])]
        return t

    # -- copying ------------------------------------------------------------
    def copy(self) -> Table:
        """An independent copy (the events are immutable and shared)."""
        t = Table.__new__(Table)
        t.rules = self.rules
        t.first_player = self.first_player
        t._sizes, t._centre, t._to_move, t._turn = self._sizes[:], self._centre[:], self._to_move, self._turn[:]
        t._lo, t._hi, t._up, t._taken = self._lo[:], self._hi[:], self._up[:], self._taken
        t._winner, t._swap_open, t._events, t._seen_by = self._winner, self._swap_open[:], self._events, self._seen_by
        t._last_trio, t._seen = self._last_trio, self._seen[:]
        return t

    def snapshot(self) -> tuple[object, ...]:
        """The changing state in a compact form for :meth:`restore` (the logs, immutable, are shared)."""
        return (self._sizes[:], self._centre[:], self._to_move, self._turn[:], self._lo[:], self._hi[:],
                self._up[:], self._taken, self._winner, self._swap_open[:], self._events, self._seen_by,
                self._last_trio, self._seen[:])

    @staticmethod
    def _copied(snap: tuple[object, ...]) -> tuple[object, ...]:
        return tuple(x[:] if isinstance(x, list) else x for x in snap)

    def restore(self, snap: tuple[object, ...]) -> None:
        """Return to a state saved by :meth:`snapshot` of this same table (any number of times)."""
        (self._sizes, self._centre, self._to_move, self._turn, self._lo, self._hi, self._up, self._taken,
         self._winner, self._swap_open, self._events, self._seen_by, self._last_trio,
         self._seen) = self._copied(snap)  # type: ignore[assignment]

    # -- reading ----------------------------------------------------------------
    @property
    def to_move(self) -> int:
        """The seat whose turn it is (or whose turn is in progress)."""
        return self._to_move

    @property
    def winner(self) -> int | None:
        """The seat that took the winning trio, or ``None``."""
        return self._winner

    @property
    def over(self) -> bool:
        """Whether the game has been won."""
        return self._winner is not None

    @property
    def sizes(self) -> tuple[int, ...]:
        """Cards in each hand, including cards face up in the turn in progress."""
        return tuple(self._sizes)

    @property
    def centre_present(self) -> tuple[bool, ...]:
        """For each centre slot, whether it still holds a card."""
        return tuple(self._centre)

    @property
    def centre_seen(self) -> tuple[int | None, ...]:
        """For each centre slot still holding a card, the value it last showed (``None``: never shown),
        kept as the reveals are applied."""
        return tuple(v if here else None for v, here in zip(self._seen, self._centre))

    @property
    def centre_up(self) -> tuple[bool, ...]:
        """For each centre slot, whether its card lies face up in the turn in progress."""
        return tuple(self._up)

    @property
    def turn(self) -> tuple[Revealed, ...]:
        """The cards face up in the turn in progress, in order."""
        return tuple(self._turn)

    @property
    def trios(self) -> tuple[tuple[int, ...], ...]:
        """Values of the trios taken by each seat, in order."""
        return tuple(tuple(v for s, v in self._taken if s == seat) for seat in range(self.rules.players))

    @property
    def swap_open(self) -> tuple[int, ...]:
        """Team indices that may still swap at this moment."""
        return tuple(self._swap_open)

    @property
    def events(self) -> History:
        """The finished events, in order (a :class:`~trio_solver.game.history.History`: no copy)."""
        return self._events

    @property
    def last_trio(self) -> TrioTaken | None:
        """The trio taken by the last reveal, if it took one."""
        return self._last_trio

    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        if self._winner is None:
            return None
        rules = self.rules
        team = rules.team_of(self._winner)
        trios = tuple(self.team_trios(team))
        reason = ("trio of 7s" if 7 in trios else "three trios" if rules.mode.value == "simple"
                  else "two linked trios")
        return Outcome(self._winner, tuple(rules.teams_of_seats[team]), trios, reason)

    def used(self, seat: int) -> tuple[int, int]:
        """``(lowest, highest)`` cards of ``seat`` face up in the turn in progress."""
        return self._lo[seat], self._hi[seat]

    def team_trios(self, team: int) -> list[int]:
        """Values of the trios held by a side (pooled over its seats), in the order taken."""
        seats = self.rules.teams_of_seats[team]
        return [v for s, v in self._taken if s in seats]

    def taken_values(self) -> set[int]:
        """Values whose trio has left play."""
        return {v for _, v in self._taken}

    def accessible(self, seat: int) -> int:
        """Cards of ``seat`` not face up in this turn."""
        return self._sizes[seat] - self._lo[seat] - self._hi[seat]

    def legal_reveals(self) -> list[Reveal]:
        """Every reveal allowed now, centre slots first, then lowest and highest by seat."""
        if self._winner is not None:
            return []
        up = self._up
        out = [_CENTRE[i] if i < 16 else Reveal.centre(i) for i, here in enumerate(self._centre) if here and not up[i]]
        lo, hi = self._lo, self._hi
        for s, size in enumerate(self._sizes):
            if size - lo[s] - hi[s] > 0:
                out.append(_LOWEST[s])
                out.append(_HIGHEST[s])
        return out

    def any_legal(self) -> bool:
        """Whether at least one reveal is allowed now."""
        if self._winner is not None:
            return False
        for here, up in zip(self._centre, self._up):
            if here and not up:
                return True
        lo, hi, sizes = self._lo, self._hi, self._sizes
        return any(sizes[s] - lo[s] - hi[s] > 0 for s in range(len(sizes)))

    def check_reveal(self, reveal: Reveal) -> None:
        """Raise :class:`IllegalMoveError` unless ``reveal`` is allowed now."""
        if not isinstance(reveal, tuple) or len(reveal) != 2:
            raise IllegalMoveError(f"expected a Reveal such as Reveal.centre(3), got {_show(reveal, 80)}")
        kind, i = reveal
        if type(i) is not int or (kind != "centre" and kind != "lowest" and kind != "highest"):
            # only a centre slot or one of the two ends of a hand can be asked (docs/RULES.md, "A turn")
            raise IllegalMoveError(
                f"{_show(tuple(reveal), 80)}: a reveal is a centre slot, or the lowest or highest card of a seat's hand"
            )
        if self._winner is not None:
            raise IllegalMoveError(f"{reveal}: the game is over (seat {self._winner} won)")
        if kind == "centre":
            if not 0 <= i < len(self._centre):
                raise IllegalMoveError(
                    f"{reveal}: there is no centre slot {i}"
                    + (" (team play has no centre)" if self.rules.teams else f" (slots 0 to {len(self._centre) - 1})")
                )
            if not self._centre[i]:
                raise IllegalMoveError(f"{reveal}: centre slot {i} is empty (its card left in a trio)")
            if self._up[i]:
                raise IllegalMoveError(f"{reveal}: centre slot {i} is already face up in this turn")
            return
        if not 0 <= i < len(self._sizes):
            raise IllegalMoveError(f"{reveal}: there is no seat {i} (seats 0 to {len(self._sizes) - 1})")
        if self._sizes[i] == 0:
            raise IllegalMoveError(f"{reveal}: seat {i} has no card in hand")
        if self._sizes[i] - self._lo[i] - self._hi[i] <= 0:
            raise IllegalMoveError(f"{reveal}: every card of seat {i} is already face up in this turn")

    def position(self, reveal: Reveal) -> int:
        """Index in the owner's sorted hand of the card ``reveal`` would show now (hands only)."""
        kind, i = reveal
        if kind == "lowest":
            return self._lo[i]
        return self._sizes[i] - 1 - self._hi[i]

    def moment_events(self) -> list[Event]:
        """The swaps made since the last turn ended (the current swap moment), latest first."""
        out: list[Event] = []
        for e in reversed(self._events):
            if isinstance(e, Turn):
                break
            out.append(e)
        return out

    # -- actions ------------------------------------------------------------
    def apply_reveal(self, reveal: Reveal, value: int) -> TurnStatus:
        """Record that ``reveal`` showed ``value`` and settle the turn.

        The caller has checked legality with :meth:`check_reveal` (the value is
        hidden information this class cannot check). On a trio, :attr:`last_trio`
        says where its cards came from.
        """
        kind, i = reveal
        turn = self._turn
        self._last_trio = None
        if kind == "centre":
            self._up[i] = True
            self._seen[i] = value
        elif kind == "lowest":
            self._lo[i] += 1
        else:
            self._hi[i] += 1
        if not turn and self._swap_open:
            self._swap_open = []
        turn.append(Revealed(reveal, value))
        if len(turn) > 1 and value != turn[0].value:
            self._end_turn(taken=False)
            return TurnStatus.FAILURE
        if len(turn) == 3:
            self._end_turn(taken=True)
            return TurnStatus.TRIO
        if not self.any_legal():
            self._end_turn(taken=False)
            return TurnStatus.STUCK
        return TurnStatus.ONGOING

    def _end_turn(self, taken: bool) -> None:
        n = len(self._sizes)
        seat = self._to_move
        self._log((Turn(seat, tuple(self._turn)),) * (len(self._seen_by) + 1))
        lo, hi = self._lo, self._hi
        self._lo, self._hi = [0] * n, [0] * n
        slots = tuple(i for i, up in enumerate(self._up) if up)
        for i in slots:
            self._up[i] = False
        value = self._turn[0].value
        self._turn = []
        if taken:
            hands = tuple((s, lo[s], hi[s]) for s in range(n) if lo[s] or hi[s])
            self._last_trio = TrioTaken(value, seat, hands, slots)
            for s, a, b in hands:
                self._sizes[s] -= a + b
            for i in slots:
                self._centre[i] = False
            self._taken = self._taken + ((seat, value),)
            rules = self.rules
            team = rules.team_of(seat)
            if rules.is_win(self.team_trios(team)):
                self._winner = seat
                return
            if rules.teams:
                self._swap_open = [
                    t
                    for t, seats in enumerate(rules.teams_of_seats)
                    if t != team and all(self._sizes[p] > 0 for p in seats)
                ]
        self._to_move = (seat + 1) % n

    def check_swap(self, seats: tuple[int, int]) -> int:
        """Raise :class:`IllegalMoveError` unless ``seats`` may swap now; return their team."""
        rules = self.rules
        if not rules.teams:
            raise IllegalMoveError(f"swap {_show(list(seats), 80)}: swaps exist only in team play")
        if self._winner is not None:
            raise IllegalMoveError(f"swap {_show(list(seats), 80)}: the game is over")
        a, b = seats
        n = rules.players
        if not (type(a) is int and type(b) is int and 0 <= a < n and 0 <= b < n) or rules.partner(a) != b:
            raise IllegalMoveError(
                f"swap {_show(list(seats), 80)}: a swap is between two partners "
                f"({', '.join(str(list(t)) for t in rules.teams_of_seats)})"
            )
        team = rules.team_of(a)
        if self._turn:
            raise IllegalMoveError(f"swap {_show(list(seats), 80)}: not during a turn")
        if team not in self._swap_open:
            if any(isinstance(e, Swap) and rules.team_of(e.seats[0]) == team for e in self.moment_events()):
                why = "this team already swapped at this moment"
            elif self._sizes[a] == 0 or self._sizes[b] == 0:
                why = "a partner has no card"
            elif not any(isinstance(e, Turn) for e in self._events):
                why = "not open at this moment"
            else:
                why = "swaps are allowed only before the first turn and, after a trio, for the other teams"
            raise IllegalMoveError(f"swap {_show(list(seats), 80)}: {why}")
        return team

    def apply_swap(self, seats: tuple[int, int], cards: tuple[int, int] | None) -> None:
        """Record a legal swap (checked with :meth:`check_swap`)."""
        team = self.rules.team_of(seats[0])
        self._swap_open = [t for t in self._swap_open if t != team]
        self._last_trio = None
        swap = Swap((seats[0], seats[1]), cards)
        self._log((swap,) + tuple(swap if k == team else swap.hidden() for k in range(len(self._seen_by))))

    def _log(self, event: tuple[Event, ...]) -> None:
        """Log one event: ``event[0]`` as it was, then (team play) as each team and a spectator see it."""
        self._events += event[:1]
        if self._seen_by:
            self._seen_by = tuple(h + (e,) for h, e in zip(self._seen_by, event[1:]))

    def finished_events(self) -> list[Event]:
        """The log, plus the turn in progress (if any) as a last, unfinished :class:`Turn`."""
        return list(self.history())

    def history(self, seen_by: int | None | Literal["all"] = "all") -> History:
        """:meth:`finished_events` as a :class:`~trio_solver.game.history.History` (no copy of the log): as it
        was (``"all"``), or as team ``seen_by`` sees it (``None``: a spectator), other teams' swap cards
        secret."""
        events = self._events
        if seen_by != "all" and self._seen_by:
            events = self._seen_by[-1 if seen_by is None else seen_by]
        if self._turn:
            return events.then(Turn(self._to_move, tuple(self._turn)))
        return events


# ---------------------------------------------------------------------------
# Walking a valid history


@dataclass(frozen=True)
class Step:
    """One step of a replayed history: a reveal (``reveal``/``value``) or a swap (``swap``).

    ``position`` is the index in the owner's sorted hand of a hand card shown (``depth`` the
    same counted from the end it was asked from); ``status`` what the reveal did to the turn;
    ``trio`` the trio it took. ``table`` is the replayer *after* the step: read it, do not keep it.
    """

    event: int
    index: int
    table: Table
    reveal: Reveal | None = None
    value: int | None = None
    position: int | None = None
    depth: int | None = None
    status: TurnStatus | None = None
    trio: TrioTaken | None = None
    swap: Swap | None = None


@dataclass(frozen=True)
class LoggedStep:
    """A :class:`Step` kept: its fields without the live table, and what the table said of the mover (the
    seat of the step's turn) after it: ``mover_used`` (its lowest and highest cards asked for in the turn)
    and ``mover_size`` (its cards)."""

    event: int
    index: int
    reveal: Reveal | None
    value: int | None
    position: int | None
    status: TurnStatus | None
    trio: TrioTaken | None
    swap: Swap | None
    mover_used: tuple[int, int]
    mover_size: int


class StepLog:
    """The steps of a history, kept as they are read: a later history that grows the one read before
    (more events, or more reveals of its last turn) is read from where that one ended, so that the
    positions of a game asked in order cost one replay in all; any other history is read from its start.

    :func:`logged_steps` keeps one per thread: callers that ask about the positions of one game in turn
    (an analysis, a bot) replay each event once instead of once per position."""

    def __init__(self, rules: Rules, first_player: int) -> None:
        self.key = (rules, first_player)
        self._reader = StepReader(rules, first_player)
        self._steps: Log[LoggedStep] = Log()

    def follows(self, rules: Rules, first_player: int, events: Sequence[Event]) -> bool:
        return self.key == (rules, first_player) and self._reader.follows(events)

    def of(self, events: Sequence[Event]) -> Log[LoggedStep]:
        """The steps of ``events`` (which must :meth:`follow <follows>` the history read so far)."""
        for st in self._reader.read(events):
            event = events[st.event]
            mover = event.seat if isinstance(event, Turn) else 0
            self._steps += (LoggedStep(st.event, st.index, st.reveal, st.value, st.position, st.status,
                                       st.trio, st.swap, st.table.used(mover), st.table.sizes[mover]),)
        return self._steps


_LOGS = threading.local()


def logged_steps(rules: Rules, first_player: int, events: Sequence[Event]) -> Log[LoggedStep]:
    """The steps of a valid public history, as :func:`steps` gives them, kept (:class:`StepLog`): this
    thread's log goes on when ``events`` grows the history it read last, else starts again."""
    log = getattr(_LOGS, "log", None)
    if log is None or not log.follows(rules, first_player, events):
        log = _LOGS.log = StepLog(rules, first_player)
    try:
        return log.of(events)
    except BaseException:  # a read cut short (a time limit, an invalid history) leaves the log half done
        _LOGS.log = None
        raise


def steps(rules: Rules, first_player: int, events: Sequence[Event]) -> Iterator[Step]:
    """Replay a valid public history (a turn in progress may end it), one :class:`Step` per reveal or swap."""
    return StepReader(rules, first_player).read(events)


class StepReader:
    """:func:`steps` that goes on: :meth:`read` a history, then the same history grown by later events
    (or later reveals of its last turn), each step replayed once."""

    def __init__(self, rules: Rules, first_player: int) -> None:
        self.table = Table(rules, first_player)
        self.events = History()
        # the next step to read: reveal ``_next[1]`` of event ``_next[0]``
        self._next = (0, 0)

    def follows(self, events: Sequence[Event]) -> bool:
        """Whether ``events`` is the history read so far, grown (so :meth:`read` can go on)."""
        i, j = self._next
        if events is self.events:  # the history read last, asked again (one object: nothing to compare)
            return True
        if len(events) < len(self.events) or (
                events[:i] if isinstance(events, History) else tuple(events[:i])) != self.events.prefix(i):
            return False
        if i == len(self.events):
            return True
        last, now = self.events[i], events[i]
        return (isinstance(last, Turn) and isinstance(now, Turn) and now.seat == last.seat
                and now.reveals[:j] == last.reveals[:j])

    def read(self, events: Sequence[Event]) -> Iterator[Step]:
        """The steps of ``events`` not read yet (``events`` must :meth:`follow <follows>` what was read)."""
        table = self.table
        self.events = History.of(events)
        i, j = self._next
        while i < len(events):
            limits.check("replay")
            e = events[i]
            if isinstance(e, Swap):
                table.apply_swap(e.seats, e.cards)
                self._next = (i + 1, 0)
                yield Step(i, 0, table, swap=e)
            else:
                for k in range(j, len(e.reveals)):
                    r, v = e.reveals[k]
                    pos = depth = None
                    if r.kind != "centre":
                        pos = table.position(r)
                        lo, hi = table.used(r.index)
                        depth = lo if r.kind == "lowest" else hi
                    status = table.apply_reveal(r, v)
                    # the last turn may grow: stay on it until a later event comes
                    self._next = (i, k + 1) if i == len(events) - 1 else (i + 1, 0)
                    yield Step(i, k, table, r, v, pos, depth, status, table.last_trio)
                if i < len(events) - 1:
                    self._next = (i + 1, 0)
            i, j = i + 1, 0


# ---------------------------------------------------------------------------
# Replaying a record with every rule checked

S = TypeVar("S", covariant=True)


class Target(Protocol[S]):
    """What :func:`drive` replays onto: the true state, or one seat's position."""

    table: Table

    def value(self, reveal: Reveal, recorded: int | None, loc: str, i: int) -> int:
        """The value ``reveal`` shows (checking ``recorded`` against what the target knows)."""
        ...

    def reveal(self, reveal: Reveal, value: int) -> TurnStatus:
        """Apply a legal reveal (its table included) and settle the turn."""
        ...

    def swap(self, swap: Swap, loc: str, i: int) -> None:
        """Apply a swap at a moment that allows it (its table included)."""
        ...

    def snapshot(self, events: Sequence[Event]) -> S:
        """The state now, as a value (``events``: the finished events so far, values filled in)."""
        ...


T = TypeVar("T")


def drive(target: Target[T], events: Sequence[RawEvent], own: tuple[int | None, list[int] | None] = (None, None),
          on_event: Callable[[T], None] | None = None, checker: CheapContradictions | None = None) -> History:
    """Replay ``events`` onto ``target``, checking every rule; return the events with their values.

    ``own`` is the viewer's seat and hand (changed in place as it changes) for the
    contradiction checks. Raises :class:`~trio_solver.errors.RecordError` naming the
    event (and reveal) at fault. ``on_event`` sees the state after each event. ``checker`` (new if
    ``None``) keeps the contradiction checks' memory, to go on from where this replay ends.
    """
    table = target.table
    checker = checker if checker is not None else CheapContradictions(table.rules)
    seat, hand = own
    filled = History()
    last = len(events) - 1
    for i, event in enumerate(events):
        limits.check("replay")
        if table.winner is not None:
            fail(where(i, event), f"the game is over: seat {table.winner} won at event {i - 1}", i)
        if isinstance(event, Swap):
            drive_swap(target, checker, i, event)
            filled += (event,)
        else:
            filled += (_drive_turn(target, checker, i, event, seat, hand, last),)
        if on_event is not None:
            on_event(target.snapshot(filled))
    return filled


def drive_swap(target: Target[T], checker: CheapContradictions, i: int, event: Swap) -> None:
    """Event ``i``, a swap, onto ``target``, every rule checked (:func:`drive`'s step for a swap)."""
    loc = where(i, event)
    try:
        target.table.check_swap(event.seats)
    except IllegalMoveError as e:
        fail(loc, str(e), i)
    target.swap(event, loc, i)
    checker.hand_changed(event.seats[0])
    checker.hand_changed(event.seats[1])


def drive_reveal(target: Target[T], checker: CheapContradictions, loc: str, i: int, reveal: Reveal,
                 recorded: int | None, seat: int | None, hand: list[int] | None) -> tuple[TurnStatus, Revealed]:
    """One reveal onto ``target``, every rule and every cheap contradiction checked (:func:`drive`'s step
    for a reveal; ``loc`` names it in errors, ``seat``/``hand`` are the viewer's, changed in place)."""
    table = target.table
    try:
        table.check_reveal(reveal)
    except IllegalMoveError as e:
        fail(loc, str(e), i)
    value = target.value(reveal, recorded, loc, i)
    checker.check(loc, i, table, reveal, value, hand, seat)
    status = target.reveal(reveal, value)
    trio = table.last_trio
    if trio is not None:
        checker.trio_taken(trio)
        if hand is not None and seat is not None:
            lo, hi = trio.from_hand(seat)
            hand[:] = hand[lo: len(hand) - hi]
    return status, Revealed(reveal, value)


def _drive_turn(target: Target[T], checker: CheapContradictions, i: int, event: RawTurn,
                seat: int | None, hand: list[int] | None, last: int) -> Turn:
    table = target.table
    if event.seat != table.to_move:
        fail(where(i, event), f"it is seat {table.to_move}'s turn, not seat {event.seat}'s", i)
    status = TurnStatus.ONGOING
    shown: list[Revealed] = []
    for j, (reveal, recorded) in enumerate(event.reveals):
        loc = where(i, event, j)
        if status is not TurnStatus.ONGOING:
            fail(loc, f"the turn already ended ({status.value}) at reveal {j - 1}", i)
        status, r = drive_reveal(target, checker, loc, i, reveal, recorded, seat, hand)
        shown.append(r)
    if status is TurnStatus.ONGOING and i != last:
        fail(where(i, event), f"the turn stops after {len(shown)} equal value(s) although reveals are "
             "left; only the last event may be a turn in progress", i)
    return Turn(event.seat, tuple(shown))


class CheapContradictions:
    """Contradictions found without search while a history is replayed.

    (The full check — does any deal fit? — is the belief model's.)
    """

    def __init__(self, rules: Rules) -> None:
        n = rules.players
        # per seat, since its hand last changed: (event, value) shown at its very lowest / highest
        self.lo0: list[tuple[int, int] | None] = [None] * n
        self.hi0: list[tuple[int, int] | None] = [None] * n
        self.slot: dict[int, int] = {}

    def copy(self) -> CheapContradictions:
        """An independent copy, to go on replaying from here twice."""
        c = CheapContradictions.__new__(CheapContradictions)
        c.lo0, c.hi0, c.slot = self.lo0[:], self.hi0[:], dict(self.slot)
        return c

    def hand_changed(self, seat: int) -> None:
        """Forget what ``seat``'s ends showed (its hand changed)."""
        self.lo0[seat] = None
        self.hi0[seat] = None

    def trio_taken(self, trio: TrioTaken) -> None:
        """Forget what the hands and slots that gave cards to ``trio`` showed."""
        for s, _, _ in trio.hands:
            self.hand_changed(s)
        for c in trio.slots:
            self.slot.pop(c, None)

    def check(self, loc: str, i: int, table: Table, reveal: Reveal, value: int,
              own: list[int] | None, seat: int | None) -> None:
        """Raise :class:`RecordError` if ``reveal`` showing ``value`` contradicts what was seen."""
        kind, idx = reveal
        if kind == "centre":
            known = self.slot.get(idx)
            if known is not None and known != value:
                fail(loc, f"centre slot {idx} showed {known} before and nothing has moved it", i)
            self.slot[idx] = value
        else:
            pos = table.position(reveal)
            lo = self.lo0[idx]
            hi = self.hi0[idx]
            if kind == "lowest" and pos == 0:
                if lo is not None and lo[1] != value:
                    fail(loc, f"seat {idx}'s lowest card showed {lo[1]} at event {lo[0]} and its hand has not "
                         "changed since", i)
                lo = self.lo0[idx] = (i, value)
            if kind == "highest" and pos == table.sizes[idx] - 1:
                if hi is not None and hi[1] != value:
                    fail(loc, f"seat {idx}'s highest card showed {hi[1]} at event {hi[0]} and its hand has not "
                         "changed since", i)
                hi = self.hi0[idx] = (i, value)
            if lo is not None and value < lo[1]:
                fail(loc, f"seat {idx} shows {value}, below the lowest card {lo[1]} it showed at event {lo[0]}, "
                     "and its hand has not changed since", i)
            if hi is not None and value > hi[1]:
                fail(loc, f"seat {idx} shows {value}, above the highest card {hi[1]} it showed at event {hi[0]}, "
                     "and its hand has not changed since", i)
        # A fourth copy: cards of this value that are certainly distinct.
        own_reveal = own is not None and kind != "centre" and idx == seat
        copies = COPIES if value in table.taken_values() else 0
        copies += own.count(value) if own is not None else 0
        copies += sum(1 for r, v in table.turn if v == value and not (own is not None and r.kind != "centre"
                                                                       and r.index == seat))
        copies += 0 if own_reveal else 1
        present, up = table.centre_present, table.centre_up
        copies += sum(
            1
            for s, v in self.slot.items()
            if v == value and present[s] and not up[s] and not (kind == "centre" and s == idx)
        )
        if copies > COPIES:
            fail(loc, f"this would be a fourth card of value {value} (counting trios taken, the viewer's hand, "
                 "cards face up and known centre slots)", i)
