"""What one seat (or a spectator) may see, kept apart from the true state.

A :class:`PlayerView` holds the rules, the public history (turns with the
values they showed; swaps, with the cards only for the viewer's own team), the
viewer's own hand, and the public table that follows from them. Bots, the
belief model and the advisor receive only this object, so they cannot look at a
hidden card even by mistake.

A view is built either from the true state (:meth:`trio_solver.engine.Game.view`)
or by replaying a record kept by a person at a real table
(:func:`trio_solver.record.replay_view`), which checks every event against the
rules and against the contradictions that need no search.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .reveal import Reveal, Revealed
from .rules import Rules
from .table import Event, Swap, Table, Turn

__all__ = ["PlayerView"]


@dataclass(frozen=True, eq=False)
class PlayerView:
    """The information of ``seat`` (``None``: a spectator) at one moment of a game.

    ``events`` is the public history in order; its last element may be a turn in
    progress. ``initial_hand`` is the viewer's hand as dealt (``None`` for a
    spectator); ``hand`` is the viewer's hand now, including its cards that lie
    face up in the turn in progress.
    """

    rules: Rules
    first_player: int
    seat: int | None
    initial_hand: tuple[int, ...] | None
    events: tuple[Event, ...]
    hand: tuple[int, ...] | None
    _table: Table = field(repr=False)

    # -- the public table --------------------------------------------------------
    @property
    def to_move(self) -> int:
        """The seat whose turn it is (or whose turn is in progress)."""
        return self._table.to_move

    @property
    def winner(self) -> int | None:
        return self._table.winner

    @property
    def over(self) -> bool:
        return self._table.winner is not None

    @property
    def sizes(self) -> tuple[int, ...]:
        """Cards in each hand, including cards face up in the turn in progress."""
        return tuple(self._table.sizes)

    @property
    def centre_present(self) -> tuple[bool, ...]:
        """For each centre slot, whether it still holds a card."""
        return tuple(self._table.centre)

    @property
    def turn(self) -> tuple[Revealed, ...]:
        """The cards face up in the turn in progress."""
        return tuple(self._table.turn)

    @property
    def trios(self) -> tuple[tuple[int, ...], ...]:
        """The values of the trios taken by each seat, in order."""
        return tuple(tuple(t) for t in self._table.trios)

    def team_trios(self, seat: int) -> tuple[int, ...]:
        """Trios held by the side of ``seat`` (pooled over partners in team play)."""
        return tuple(self._table.team_trios(self.rules.team_of(seat)))

    @property
    def swap_open(self) -> tuple[tuple[int, ...], ...]:
        """The teams (seat pairs) that may still swap at this moment."""
        return tuple(self.rules.teams_of_seats[t] for t in self._table.swap_open)

    def legal_reveals(self) -> list[Reveal]:
        """Every reveal allowed now (public information only)."""
        return self._table.legal_reveals()

    def position(self, reveal: Reveal) -> int:
        """Index in the owner's sorted hand of the card a hand reveal would show now."""
        return self._table.position(reveal)

    def accessible(self, seat: int) -> int:
        """Cards of ``seat`` not face up in this turn."""
        return self._table.accessible(seat)

    def table_copy(self) -> Table:
        """A private copy of the public table, for callers that simulate ahead."""
        return self._table.copy()

    def own_value(self, reveal: Reveal) -> int | None:
        """The value a reveal of the viewer's own hand would show now, else ``None``."""
        if self.hand is None or reveal.is_centre or reveal.index != self.seat:
            return None
        return self.hand[self._table.position(reveal)]

    def centre_seen(self) -> tuple[int | None, ...]:
        """For each slot still holding a card, the value it last showed (``None``: never shown)."""
        seen: list[int | None] = [None] * len(self._table.centre)
        for e in self.events:
            if isinstance(e, Turn):
                for r, v in e.reveals:
                    if r.is_centre:
                        seen[r.index] = v
        return tuple(s if here else None for s, here in zip(seen, self._table.centre))

    def observer(self) -> str:
        return "spectator" if self.seat is None else f"seat {self.seat}"

    def __repr__(self) -> str:
        return (
            f"PlayerView({self.observer()}, players={self.rules.players}, events={len(self.events)}, "
            f"to_move={self.to_move}, hand={list(self.hand) if self.hand is not None else None})"
        )
