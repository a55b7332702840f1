"""The rules engine over the full true state of a game.

:class:`Game` holds every hand and every centre card, on top of the public
:class:`~trio_solver.table.Table`. It deals from a seeded generator, lists the
legal reveals, makes one reveal at a time, settles turns, removes trios,
performs team swaps at the moments the rules allow, declares the winner, and can
undo its actions or be copied cheaply for search. An illegal action raises
:class:`~trio_solver.errors.IllegalMoveError` and leaves the state unchanged.

>>> g = Game.deal(Rules(3), seed=1)
>>> r = g.legal_reveals()[0]
>>> status = g.reveal(r)
>>> g.undo(); g.turn
[]
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import IllegalMoveError
from .reveal import Reveal, Revealed
from .rules import COPIES, VALUES, Rules
from .table import Event, Swap, Table, Turn, TurnStatus
from .view import PlayerView

__all__ = ["Deal", "Game", "TurnStatus"]


@dataclass(frozen=True)
class Deal:
    """The cards as dealt: each seat's sorted hand and the centre slots in order."""

    hands: tuple[tuple[int, ...], ...]
    centre: tuple[int, ...]

    @classmethod
    def shuffle(cls, rules: Rules, rng: random.Random) -> Deal:
        """Shuffle the 36 cards with ``rng`` and deal them as the rules say."""
        deck = [v for v in VALUES for _ in range(COPIES)]
        rng.shuffle(deck)
        h = rules.hand_size
        hands = tuple(tuple(sorted(deck[s * h : (s + 1) * h])) for s in range(rules.players))
        centre = tuple(deck[rules.players * h :])
        return cls(hands, centre)

    def check(self, rules: Rules) -> None:
        """Raise :class:`IllegalMoveError` unless this deal fits the rules (36 cards, 3 of each value)."""
        if len(self.hands) != rules.players:
            raise IllegalMoveError(f"deal: {len(self.hands)} hands for {rules.players} players")
        for s, hand in enumerate(self.hands):
            if len(hand) != rules.hand_size:
                raise IllegalMoveError(f"deal: seat {s} has {len(hand)} cards, the rules deal {rules.hand_size}")
        if len(self.centre) != rules.centre_size:
            raise IllegalMoveError(
                f"deal: {len(self.centre)} centre cards, the rules put {rules.centre_size} in the centre"
            )
        counts = dict.fromkeys(VALUES, 0)
        for v in [v for hand in self.hands for v in hand] + list(self.centre):
            if v not in counts:
                raise IllegalMoveError(f"deal: {v!r} is not a card value (1 to 12)")
            counts[v] += 1
        for v, c in counts.items():
            if c != COPIES:
                raise IllegalMoveError(f"deal: {c} cards of value {v}, the deck has {COPIES}")


class Game:
    """The true state of a game of Trio.

    Use :meth:`deal` to start a seeded game, or :meth:`from_deal` with given cards.
    """

    __slots__ = ("rules", "deal_", "table", "hands", "centre", "_undo")

    def __init__(self, rules: Rules, deal: Deal, first_player: int = 0) -> None:
        deal.check(rules)
        self.rules = rules
        self.deal_ = deal
        self.table = Table(rules, first_player)
        self.hands: list[list[int]] = [list(h) for h in deal.hands]
        self.centre: list[int | None] = list(deal.centre)
        self._undo: list[tuple[tuple[object, ...], list[list[int]] | None, list[int | None] | None]] = []

    @classmethod
    def deal(cls, rules: Rules, seed: int | None = None, *, rng: random.Random | None = None,
             first_player: int | None = None) -> Game:
        """A new game dealt from ``random.Random(seed)`` (or the given ``rng``).

        Without ``first_player`` the first player is drawn from the same generator,
        after the shuffle, so one seed fixes the whole start.
        """
        gen = rng if rng is not None else random.Random(seed)
        d = Deal.shuffle(rules, gen)
        first = gen.randrange(rules.players) if first_player is None else first_player
        return cls(rules, d, first)

    @classmethod
    def from_deal(cls, rules: Rules, hands: Sequence[Sequence[int]], centre: Sequence[int],
                  first_player: int = 0) -> Game:
        """A game from given hands (any order; sorted here) and centre slots."""
        d = Deal(tuple(tuple(sorted(h)) for h in hands), tuple(centre))
        return cls(rules, d, first_player)

    # -- copying and undo -------------------------------------------------------
    def copy(self) -> Game:
        """An independent copy of the current state (without the undo history)."""
        g = Game.__new__(Game)
        g.rules = self.rules
        g.deal_ = self.deal_
        g.table = self.table.copy()
        g.hands = [h[:] for h in self.hands]
        g.centre = self.centre[:]
        g._undo = []
        return g

    def undo(self) -> None:
        """Take back the last reveal or swap (raises :class:`IllegalMoveError` if there is none)."""
        if not self._undo:
            raise IllegalMoveError("undo: nothing to take back")
        snap, hands, centre = self._undo.pop()
        self.table.restore(snap)
        if hands is not None:
            self.hands = hands
        if centre is not None:
            self.centre = centre

    # -- views of the state ----------------------------------------------------
    @property
    def to_move(self) -> int:
        """The seat whose turn it is."""
        return self.table.to_move

    @property
    def winner(self) -> int | None:
        """The seat that took the winning trio, or ``None`` while the game goes on."""
        return self.table.winner

    @property
    def over(self) -> bool:
        return self.table.winner is not None

    @property
    def turn(self) -> list[Revealed]:
        """Cards face up in the turn in progress, in order."""
        return self.table.turn[:]

    @property
    def events(self) -> list[Event]:
        """Finished events (turns and swaps), in order."""
        return self.table.events[:]

    def legal_reveals(self) -> list[Reveal]:
        """Every reveal allowed now."""
        return self.table.legal_reveals()

    def is_legal(self, reveal: Reveal) -> bool:
        try:
            self.table.check_reveal(reveal)
        except IllegalMoveError:
            return False
        return True

    def peek(self, reveal: Reveal) -> int:
        """The value ``reveal`` would show now (true state; raises if illegal)."""
        self.table.check_reveal(reveal)
        return self._value(reveal)

    def _value(self, reveal: Reveal) -> int:
        kind, i = reveal
        if kind == "centre":
            v = self.centre[i]
            assert v is not None
            return v
        t = self.table
        if kind == "lowest":
            return self.hands[i][t.lo_used[i]]
        return self.hands[i][len(self.hands[i]) - 1 - t.hi_used[i]]

    def swap_moment(self) -> list[tuple[int, int]]:
        """The teams (as seat pairs) that may still make a swap now."""
        return [self.rules.teams_of_seats[t] for t in self.table.swap_open]  # type: ignore[misc]

    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may see now (``None``: a spectator): its own hand and the public history."""
        rules = self.rules
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < rules.players):
            raise IllegalMoveError(f"view: there is no seat {seat!r}")
        events = self.table.finished_events()
        if rules.teams:
            team = None if seat is None else rules.team_of(seat)
            events = [
                Swap(e.seats, None) if isinstance(e, Swap) and rules.team_of(e.seats[0]) != team else e
                for e in events
            ]
        table = self.table.copy()
        table.events = []
        return PlayerView(
            rules,
            table.first_player,
            seat,
            None if seat is None else self.deal_.hands[seat],
            tuple(events),
            None if seat is None else tuple(self.hands[seat]),
            table,
        )

    # -- actions ----------------------------------------------------------------
    def reveal(self, reveal: Reveal) -> TurnStatus:
        """Reveal one card and settle the turn; returns what it did to the turn."""
        t = self.table
        t.check_reveal(reveal)
        value = self._value(reveal)
        saved_table = t.snapshot()
        status = t.apply_reveal(reveal, value)
        if status is TurnStatus.TRIO:
            self._undo.append((saved_table, [h[:] for h in self.hands], self.centre[:]))
            for s, hand in enumerate(self.hands):
                lo, hi = t.last_lo[s], t.last_hi[s]
                if lo or hi:
                    self.hands[s] = hand[lo : len(hand) - hi]
            for i in t.last_centre:
                self.centre[i] = None
        else:
            self._undo.append((saved_table, None, None))
        return status

    def play(self, text: str) -> TurnStatus:
        """Reveal from the short notation (``"c3"``)."""
        return self.reveal(Reveal.from_str(text))

    def swap(self, seat_a: int, seat_b: int, card_a: int, card_b: int) -> None:
        """Team swap: ``seat_a`` gives a ``card_a`` to ``seat_b`` and receives a ``card_b``."""
        t = self.table
        t.check_swap((seat_a, seat_b))
        if type(card_a) is not int or card_a not in self.hands[seat_a]:
            raise IllegalMoveError(f"swap [{seat_a}, {seat_b}]: seat {seat_a} holds no {card_a!r}")
        if type(card_b) is not int or card_b not in self.hands[seat_b]:
            raise IllegalMoveError(f"swap [{seat_a}, {seat_b}]: seat {seat_b} holds no {card_b!r}")
        self._undo.append((t.snapshot(), [h[:] for h in self.hands], None))
        t.apply_swap((seat_a, seat_b), (card_a, card_b))
        ha, hb = self.hands[seat_a], self.hands[seat_b]
        ha.remove(card_a)
        hb.remove(card_b)
        ha.append(card_b)
        hb.append(card_a)
        ha.sort()
        hb.sort()

    # -- checks used by tests and tools -------------------------------------------
    def cards_in_play(self) -> list[int]:
        """Every card still in a hand or in the centre."""
        return [v for h in self.hands for v in h] + [v for v in self.centre if v is not None]

    def __repr__(self) -> str:
        return (
            f"Game(players={self.rules.players}, mode={self.rules.mode.value!r}, teams={self.rules.teams}, "
            f"to_move={self.to_move}, events={len(self.table.events)}, winner={self.winner})"
        )


def play_random_game(rules: Rules, rng: random.Random, max_reveals: int = 100_000) -> Game:
    """Deal from ``rng`` and play uniformly random legal reveals (and random swaps) to the end."""
    game = Game.deal(rules, rng=rng)
    for _ in range(max_reveals):
        if game.over:
            return game
        for a, b in game.swap_moment():
            if game.hands[a] and game.hands[b] and rng.random() < 0.5:
                game.swap(a, b, rng.choice(game.hands[a]), rng.choice(game.hands[b]))
        game.reveal(rng.choice(game.legal_reveals()))
    raise RuntimeError(f"random game did not end within {max_reveals} reveals")
