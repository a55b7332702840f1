"""The public table: everything every player sees, and the turn's rules.

:class:`Table` knows hand sizes, which centre slots still hold a card, the cards
face up in the turn, the trios taken, whose turn it is, the swap moments and the
log of public events — but no hidden value. It decides every outcome that
depends only on public facts (a turn goes on, takes a trio, fails, or is stuck
with no legal reveal left; a win; a swap moment), so the true-state engine
(:mod:`trio_solver.engine`) and the replay of a viewer's record
(:mod:`trio_solver.view`) share one implementation of the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from .errors import IllegalMoveError
from .reveal import Reveal, Revealed
from .rules import Rules

__all__ = ["TurnStatus", "Turn", "Swap", "Event", "Table"]

_CENTRE = tuple(Reveal.centre(i) for i in range(16))
_LOWEST = tuple(Reveal.lowest(i) for i in range(16))
_HIGHEST = tuple(Reveal.highest(i) for i in range(16))


class TurnStatus(str, Enum):
    """What a reveal did to the turn."""

    ONGOING = "ongoing"
    """The values match so far and the turn goes on."""
    TRIO = "trio"
    """Three equal values: the trio is taken and the turn passes."""
    FAILURE = "failure"
    """Two different values: the cards go back and the turn passes."""
    STUCK = "stuck"
    """The values match but no legal reveal is left: a failure."""


@dataclass(frozen=True)
class Turn:
    """One turn: the seat that played and the cards it revealed, in order."""

    seat: int
    reveals: tuple[Revealed, ...]

    def __str__(self) -> str:
        return f"seat {self.seat}: " + " ".join(str(r) for r in self.reveals)


@dataclass(frozen=True)
class Swap:
    """A team's secret swap: ``seats[0]`` gives ``cards[0]`` to ``seats[1]`` and gets ``cards[1]``.

    ``cards`` is ``None`` when the values are secret to the observer.
    """

    seats: tuple[int, int]
    cards: tuple[int, int] | None

    def __str__(self) -> str:
        a, b = self.seats
        if self.cards is None:
            return f"seats {a} and {b} swap secretly"
        return f"seat {a} gives {self.cards[0]} to seat {b} for {self.cards[1]}"


Event = Turn | Swap


class Table:
    """The public state of one game (mutable; :meth:`copy` is cheap)."""

    __slots__ = (
        "rules",
        "first_player",
        "sizes",
        "centre",
        "to_move",
        "turn",
        "lo_used",
        "hi_used",
        "centre_up",
        "trios",
        "winner",
        "swap_open",
        "events",
        "last_lo",
        "last_hi",
        "last_centre",
    )

    def __init__(self, rules: Rules, first_player: int = 0) -> None:
        n = rules.players
        if not isinstance(first_player, int) or not 0 <= first_player < n:
            raise IllegalMoveError(f"first player must be a seat 0 to {n - 1}, got {first_player!r}")
        self.rules = rules
        self.first_player = first_player
        self.sizes: list[int] = [rules.hand_size] * n
        self.centre: list[bool] = [True] * rules.centre_size
        self.to_move = first_player
        self.turn: list[Revealed] = []
        self.lo_used: list[int] = [0] * n
        self.hi_used: list[int] = [0] * n
        self.centre_up: list[bool] = [False] * rules.centre_size
        #: Values of the trios taken by each seat, in order (tuples: snapshots share them).
        self.trios: list[tuple[int, ...]] = [() for _ in range(n)]
        self.winner: int | None = None
        #: Team indices that may still swap at this moment.
        self.swap_open: list[int] = list(range(len(rules.teams_of_seats))) if rules.teams else []
        self.events: list[Event] = []
        #: Per-seat lowest/highest cards and centre slots used by the turn that just ended.
        self.last_lo: list[int] = [0] * n
        self.last_hi: list[int] = [0] * n
        self.last_centre: list[int] = []

    # -- copying ------------------------------------------------------------
    def copy(self) -> Table:
        """An independent copy (the event log's events are immutable and shared)."""
        t = Table.__new__(Table)
        t.rules = self.rules
        t.first_player = self.first_player
        t.sizes = self.sizes[:]
        t.centre = self.centre[:]
        t.to_move = self.to_move
        t.turn = self.turn[:]
        t.lo_used = self.lo_used[:]
        t.hi_used = self.hi_used[:]
        t.centre_up = self.centre_up[:]
        t.trios = self.trios[:]
        t.winner = self.winner
        t.swap_open = self.swap_open[:]
        t.events = self.events[:]
        t.last_lo = self.last_lo[:]
        t.last_hi = self.last_hi[:]
        t.last_centre = self.last_centre[:]
        return t

    def snapshot(self) -> tuple[object, ...]:
        """The mutable state in a compact form for :meth:`restore` (the log is kept by length)."""
        return (
            self.sizes[:], self.centre[:], self.to_move, self.turn[:], self.lo_used[:], self.hi_used[:],
            self.centre_up[:], self.trios[:], self.winner, self.swap_open[:], len(self.events),
            self.last_lo, self.last_hi, self.last_centre,
        )

    def restore(self, snap: tuple[object, ...]) -> None:
        """Return to a state saved by :meth:`snapshot` of this same table.

        The snapshot's lists are copied, so one snapshot may be restored any number of times.
        """
        parts: tuple[Any, ...] = snap
        (sizes, centre, self.to_move, turn, lo_used, hi_used, centre_up, trios, self.winner, swap_open,
         n_events, last_lo, last_hi, last_centre) = parts
        self.sizes = sizes[:]
        self.centre = centre[:]
        self.turn = turn[:]
        self.lo_used = lo_used[:]
        self.hi_used = hi_used[:]
        self.centre_up = centre_up[:]
        self.trios = list(trios)
        self.swap_open = swap_open[:]
        self.last_lo = last_lo[:]
        self.last_hi = last_hi[:]
        self.last_centre = last_centre[:]
        assert isinstance(n_events, int)
        del self.events[n_events:]

    # -- queries ------------------------------------------------------------
    @property
    def over(self) -> bool:
        """Whether the game has been won."""
        return self.winner is not None

    def team_trios(self, team: int) -> list[int]:
        """Values of the trios held by a side (pooled over its seats), in the order taken."""
        out: list[int] = []
        for s in self.rules.teams_of_seats[team]:
            out.extend(self.trios[s])
        return out

    def taken_values(self) -> set[int]:
        """Values whose trio has left play."""
        return {v for t in self.trios for v in t}

    def accessible(self, seat: int) -> int:
        """Cards of ``seat`` not face up in this turn."""
        return self.sizes[seat] - self.lo_used[seat] - self.hi_used[seat]

    def legal_reveals(self) -> list[Reveal]:
        """Every reveal allowed now, centre slots first, then lowest and highest by seat."""
        if self.winner is not None:
            return []
        up = self.centre_up
        out = [_CENTRE[i] for i, here in enumerate(self.centre) if here and not up[i]]
        lo, hi = self.lo_used, self.hi_used
        for s, size in enumerate(self.sizes):
            if size - lo[s] - hi[s] > 0:
                out.append(_LOWEST[s])
                out.append(_HIGHEST[s])
        return out

    def any_legal(self) -> bool:
        """Whether at least one reveal is allowed now."""
        if self.winner is not None:
            return False
        for here, up in zip(self.centre, self.centre_up):
            if here and not up:
                return True
        lo, hi, sizes = self.lo_used, self.hi_used, self.sizes
        return any(sizes[s] - lo[s] - hi[s] > 0 for s in range(len(sizes)))

    def check_reveal(self, reveal: Reveal) -> None:
        """Raise :class:`IllegalMoveError` unless ``reveal`` is allowed now."""
        kind, i = reveal
        if type(i) is not int or (kind != "centre" and kind != "lowest" and kind != "highest"):
            # only a centre slot or one of the two ends of a hand can be asked (docs/RULES.md, "A turn")
            raise IllegalMoveError(
                f"{tuple(reveal)!r}: a reveal is a centre slot, or the lowest or highest card of a seat's hand"
            )
        if self.winner is not None:
            raise IllegalMoveError(f"{reveal}: the game is over (seat {self.winner} won)")
        if kind == "centre":
            if not 0 <= i < len(self.centre):
                raise IllegalMoveError(
                    f"{reveal}: there is no centre slot {i}"
                    + (" (team play has no centre)" if self.rules.teams else f" (slots 0 to {len(self.centre) - 1})")
                )
            if not self.centre[i]:
                raise IllegalMoveError(f"{reveal}: centre slot {i} is empty (its card left in a trio)")
            if self.centre_up[i]:
                raise IllegalMoveError(f"{reveal}: centre slot {i} is already face up in this turn")
            return
        if not 0 <= i < len(self.sizes):
            raise IllegalMoveError(f"{reveal}: there is no seat {i} (seats 0 to {len(self.sizes) - 1})")
        if self.sizes[i] == 0:
            raise IllegalMoveError(f"{reveal}: seat {i} has no card in hand")
        if self.sizes[i] - self.lo_used[i] - self.hi_used[i] <= 0:
            raise IllegalMoveError(f"{reveal}: every card of seat {i} is already face up in this turn")

    def position(self, reveal: Reveal) -> int:
        """Index in the owner's sorted hand of the card ``reveal`` would show now (hands only)."""
        kind, i = reveal
        if kind == "lowest":
            return self.lo_used[i]
        return self.sizes[i] - 1 - self.hi_used[i]

    # -- actions ------------------------------------------------------------
    def apply_reveal(self, reveal: Reveal, value: int) -> TurnStatus:
        """Record that ``reveal`` showed ``value`` and settle the turn.

        The caller has checked legality with :meth:`check_reveal` (the value is
        hidden information this class cannot check).
        """
        kind, i = reveal
        turn = self.turn
        if kind == "centre":
            self.centre_up[i] = True
        elif kind == "lowest":
            self.lo_used[i] += 1
        else:
            self.hi_used[i] += 1
        if not turn and self.swap_open:
            self.swap_open = []
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
        n = len(self.sizes)
        seat = self.to_move
        self.events.append(Turn(seat, tuple(self.turn)))
        self.last_lo, self.lo_used = self.lo_used, [0] * n
        self.last_hi, self.hi_used = self.hi_used, [0] * n
        self.last_centre = [i for i, up in enumerate(self.centre_up) if up]
        for i in self.last_centre:
            self.centre_up[i] = False
        value = self.turn[0].value
        self.turn = []
        if taken:
            for s in range(n):
                self.sizes[s] -= self.last_lo[s] + self.last_hi[s]
            for i in self.last_centre:
                self.centre[i] = False
            self.trios[seat] = self.trios[seat] + (value,)
            rules = self.rules
            team = rules.team_of(seat)
            if rules.is_win(self.team_trios(team)):
                self.winner = seat
                return
            if rules.teams:
                self.swap_open = [
                    t
                    for t, seats in enumerate(rules.teams_of_seats)
                    if t != team and all(self.sizes[p] > 0 for p in seats)
                ]
        self.to_move = (seat + 1) % n

    def check_swap(self, seats: tuple[int, int]) -> int:
        """Raise :class:`IllegalMoveError` unless ``seats`` may swap now; return their team."""
        rules = self.rules
        if not rules.teams:
            raise IllegalMoveError(f"swap {list(seats)}: swaps exist only in team play")
        if self.winner is not None:
            raise IllegalMoveError(f"swap {list(seats)}: the game is over")
        a, b = seats
        n = rules.players
        if not (0 <= a < n and 0 <= b < n) or rules.partner(a) != b:
            raise IllegalMoveError(
                f"swap {list(seats)}: a swap is between two partners "
                f"({', '.join(str(list(t)) for t in rules.teams_of_seats)})"
            )
        team = rules.team_of(a)
        if self.turn:
            raise IllegalMoveError(f"swap {list(seats)}: not during a turn")
        if team not in self.swap_open:
            if any(isinstance(e, Swap) and rules.team_of(e.seats[0]) == team for e in self._moment_events()):
                why = "this team already swapped at this moment"
            elif self.sizes[a] == 0 or self.sizes[b] == 0:
                why = "a partner has no card"
            elif not self.events or not any(isinstance(e, Turn) for e in self.events):
                why = "not open at this moment"
            else:
                why = "swaps are allowed only before the first turn and, after a trio, for the other teams"
            raise IllegalMoveError(f"swap {list(seats)}: {why}")
        return team

    def _moment_events(self) -> list[Event]:
        out: list[Event] = []
        for e in reversed(self.events):
            if isinstance(e, Turn):
                break
            out.append(e)
        return out

    def apply_swap(self, seats: tuple[int, int], cards: tuple[int, int] | None) -> None:
        """Record a legal swap (checked with :meth:`check_swap`)."""
        team = self.rules.team_of(seats[0])
        self.swap_open = [t for t in self.swap_open if t != team]
        self.events.append(Swap((seats[0], seats[1]), cards))

    def finished_events(self) -> list[Event]:
        """The log, plus the turn in progress (if any) as a last, unfinished :class:`Turn`."""
        if self.turn:
            return self.events + [Turn(self.to_move, tuple(self.turn))]
        return self.events[:]
