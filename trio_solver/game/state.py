"""The rules engine over the full true state of a game.

:class:`Game` holds every hand and every centre card, on top of the public
:class:`~trio_solver.game.table.Table`. It deals from a seeded generator, lists the
legal reveals, makes one reveal at a time (returning the card shown), settles
turns, removes trios, performs team swaps at the moments the rules allow,
declares the winner, and can undo its actions or be copied cheaply for search.
An illegal action raises :class:`~trio_solver.errors.IllegalMoveError` and
leaves the state unchanged.

>>> g = Game.deal(Rules(3), seed=1)
>>> shown = g.reveal(g.legal_reveals()[0])
>>> shown.status, shown.value == g.turn[0].value
(<TurnStatus.ONGOING: 'ongoing'>, True)
>>> g.undo(); g.turn
[]
>>> Game.from_json(g.to_json()) == g
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from .. import _args
from .._args import show as _show
from .._json import fail, is_int, json_object
from ..errors import IllegalMoveError, RecordError, RulesError, ViewError
from .events import Event, RawEvent, RawTurn, Swap, Turn, TurnStatus, event_to_json, raw_event, read_events
from .history import Log
from .table import Outcome, Table, drive
from .reveal import Reveal, Revealed
from .rules import COPIES, VALUES, Rules, read_cards, read_position_head
from .view import PlayerView
from .._display import html_of
from ..words import plural

__all__ = ["Deal", "Game", "Shown", "TurnStatus", "play_random_game"]


@dataclass(frozen=True)
class Deal:
    """The cards as dealt: each seat's sorted hand and the centre slots in order."""

    hands: tuple[tuple[int, ...], ...]
    centre: tuple[int, ...]

    @classmethod
    def shuffle(cls, rules: Rules, rng: random.Random) -> Deal:
        """Shuffle the 36 cards with ``rng`` and deal them as the rules say (:class:`RulesError` /
        :class:`IllegalMoveError` for ``rules`` or ``rng`` of the wrong type)."""
        _args.instance("rules", rules, Rules, RulesError)
        _args.rng("rng", rng, IllegalMoveError)
        deck = [v for v in VALUES for _ in range(COPIES)]
        rng.shuffle(deck)
        h = rules.hand_size
        hands = tuple(tuple(sorted(deck[s * h : (s + 1) * h])) for s in range(rules.players))
        centre = tuple(deck[rules.players * h :])
        return cls(hands, centre)

    def check(self, rules: Rules) -> None:
        """Raise :class:`IllegalMoveError` unless this deal fits the rules (36 cards, 3 of each value);
        :class:`RulesError` if ``rules`` is not a :class:`Rules`."""
        _args.instance("rules", rules, Rules, RulesError)
        if not isinstance(self.hands, (tuple, list)) or not all(isinstance(h, (tuple, list)) for h in self.hands):
            raise IllegalMoveError("deal: expected a sequence of hands, each a sequence of card values")
        if not isinstance(self.centre, (tuple, list)):
            raise IllegalMoveError("deal: expected a sequence of centre card values")
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
            if not is_int(v) or v not in counts:
                raise IllegalMoveError(f"deal: {_show(v, 40)} is not a card value (1 to 12)")
            counts[v] += 1
        wrong = [(v, c) for v, c in counts.items() if c != COPIES]
        if wrong:  # the values over their count first: the card written wrongly is likelier among them
            wrong.sort(key=lambda vc: (vc[1] < COPIES, vc[0]))
            said = ", ".join(f"{plural(c, 'card')} of value {v}" for v, c in wrong)
            raise IllegalMoveError(f"deal: {said}; the deck has {COPIES} of each value")

    def to_json(self) -> dict[str, Any]:
        """The ``deal`` object of a record: ``{"hands": [[...], ...], "centre": [...]}``."""
        return {"hands": [list(h) for h in self.hands], "centre": list(self.centre)}

    @classmethod
    def from_json(cls, data: Any, rules: Rules) -> Deal:
        """Read a ``deal`` object for ``rules`` (hands sorted; raises :class:`RecordError`, or
        :class:`RulesError` if ``rules`` is not a :class:`Rules`)."""
        _args.instance("rules", rules, Rules, RulesError)
        raw = json_object(data, "deal", ("hands", "centre"))
        if "hands" not in raw:
            fail("deal.hands", "missing")
        hands = raw["hands"]
        if not isinstance(hands, list) or len(hands) != rules.players:
            fail("deal.hands", f"expected a list of {rules.players} hands")
        parsed = tuple(tuple(sorted(read_cards(h, f"deal.hands[{s}]", rules.hand_size)))
                       for s, h in enumerate(hands))
        if "centre" not in raw and rules.centre_size:
            fail("deal.centre", f"missing ({rules.centre_size} centre cards)")
        centre = read_cards(raw.get("centre", []), "deal.centre", rules.centre_size)
        deal = cls(parsed, centre)
        try:
            deal.check(rules)
        except IllegalMoveError as e:
            fail("deal", str(e).removeprefix("deal: "))
        return deal


class Shown(NamedTuple):
    """What :meth:`Game.reveal` did: the card shown and what it did to the turn."""

    reveal: Reveal
    value: int
    status: TurnStatus

    def __str__(self) -> str:
        return f"{self.reveal}={self.value}"


class Game:
    """The true state of a game of Trio.

    Use :meth:`deal` to start a seeded game, or :meth:`from_deal` with given cards.
    :attr:`dealt` is the :class:`Deal` the game started from; :attr:`hands` and
    :attr:`centre` are the cards now. Two games are equal when they have the same
    rules, deal, first player and history (so the same state).
    """

    __slots__ = ("rules", "dealt", "table", "hands", "centre", "_undo")

    def __init__(self, rules: Rules, deal: Deal, first_player: int = 0) -> None:
        if not isinstance(rules, Rules):
            raise RulesError(f"rules: expected Rules, got {type(rules).__name__}")
        if not isinstance(deal, Deal):
            raise IllegalMoveError(f"deal: expected a Deal, got {type(deal).__name__}")
        deal.check(rules)
        _args.seat("first_player", first_player, rules.players, IllegalMoveError)
        self.rules = rules
        self.dealt = deal
        self.table = Table(rules, first_player)
        self.hands: list[list[int]] = [list(h) for h in deal.hands]
        self.centre: list[int | None] = list(deal.centre)
        self._undo: list[tuple[tuple[object, ...], list[list[int]] | None, list[int | None] | None]] = []

    @classmethod
    def deal(cls, rules: Rules, seed: int | None = None, *, rng: random.Random | None = None,
             first_player: int | None = None) -> Game:
        """A new game dealt from ``seed`` (an integer of 64 bits with its sign; without one, from the
        system's entropy) or from the given generator ``rng`` (:class:`~trio_solver.errors.ViewError` for
        another kind of either; :class:`~trio_solver.errors.IllegalMoveError` for a first player not at the
        table).

        Without ``first_player`` the first player is drawn from the same generator,
        after the shuffle, so one seed fixes the whole start.
        """
        if not isinstance(rules, Rules):
            raise RulesError(f"rules: expected Rules, got {type(rules).__name__}")
        if rng is not None:
            _args.rng("rng", rng, ViewError)
            if seed is not None:
                raise ViewError("seed: give a seed or a generator (rng), not both")
        if first_player is not None:
            _args.seat("first_player", first_player, rules.players, IllegalMoveError)
        gen = rng if rng is not None else random.Random() if seed is None else _args.seeded("seed", seed, ViewError)
        d = Deal.shuffle(rules, gen)
        first = gen.randrange(rules.players) if first_player is None else first_player
        return cls(rules, d, first)

    @classmethod
    def from_deal(cls, rules: Rules, hands: Sequence[Sequence[int]], centre: Sequence[int],
                  first_player: int = 0) -> Game:
        """A game from given hands (any order; sorted here) and centre slots."""
        try:
            d = Deal(tuple(tuple(sorted(h)) for h in hands), tuple(centre))
        except TypeError:
            raise IllegalMoveError("deal: expected lists of card values for the hands and the centre") from None
        return cls(rules, d, first_player)

    @classmethod
    def constructed(cls, rules: Rules, hands: Sequence[Sequence[int]], centre: Sequence[int | None],
                    to_move: int = 0) -> Game:
        """A position no dealt game need reach (the cards still in play given; ``None``: an empty slot),
        for puzzles and tests. Its :attr:`dealt` is not a full deck.

        Raises :class:`RulesError` / :class:`IllegalMoveError` for arguments of the wrong type or
        shape: one hand per seat, at most 9 centre slots, card values 1 to 12 (at most 3 of each), and at least
        one card in play."""
        _args.instance("rules", rules, Rules, RulesError)
        if (not isinstance(hands, (list, tuple)) or len(hands) != rules.players
                or not all(isinstance(h, (list, tuple)) and len(h) <= 36 and all(_args.is_int(v) and 1 <= v <= 12
                                                                                 for v in h) for h in hands)):
            raise IllegalMoveError(f"hands: expected {rules.players} lists of card values 1 to 12")
        if (not isinstance(centre, (list, tuple)) or len(centre) > 9
                or not all(v is None or (_args.is_int(v) and 1 <= v <= 12) for v in centre)):
            raise IllegalMoveError("centre: expected at most 9 card values 1 to 12 or None")
        cards = [v for h in hands for v in h] + [v for v in centre if v is not None]
        if any(cards.count(v) > COPIES for v in set(cards)):
            raise IllegalMoveError("hands: more than 3 cards of one value")
        _args.seat("to_move", to_move, rules.players, IllegalMoveError)
        g = Game.__new__(Game)
        g.rules = rules
        g.dealt = Deal(tuple(tuple(sorted(h)) for h in hands), tuple(v for v in centre if v is not None))
        g.table = Table.constructed(rules, [len(h) for h in hands], [v is not None for v in centre], to_move)
        g.hands = [sorted(h) for h in hands]
        g.centre = list(centre)
        g._undo = []
        return g

    @classmethod
    def replay(cls, rules: Rules, deal: Deal, events: Sequence[Event | RawEvent], first_player: int = 0,
               on_event: Callable[[Game], None] | None = None, undo: bool = True) -> Game:
        """Play ``events`` on a game dealt ``deal``, checking every rule and every recorded value
        against the deal; raises :class:`~trio_solver.errors.RecordError` naming the event at fault.
        ``undo=False`` keeps no undo history (the memory of a long record's replay stays that of one
        position)."""
        if not isinstance(events, (list, tuple, Log)) or not all(isinstance(e, (Turn, Swap, RawTurn)) for e in events):
            raise RecordError("events", "expected a sequence of Turn and Swap events")
        try:
            game = cls(rules, deal, first_player)
        except IllegalMoveError as e:
            fail("first_player", str(e))
        drive(_GameTarget(game, undo), [raw_event(e) if isinstance(e, Turn) else e for e in events], on_event=on_event)
        return game

    # -- JSON -------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """``{"rules", "first_player", "deal", "events"}`` (a turn in progress included)."""
        return {"rules": self.rules.to_json(), "first_player": self.table.first_player,
                "deal": self.dealt.to_json(), "events": [event_to_json(e) for e in self.table.finished_events()]}

    @classmethod
    def from_json(cls, data: Any) -> Game:
        """Read :meth:`to_json`'s form and replay it (raises :class:`RecordError`)."""
        d, rules, first = read_position_head(data, ("rules", "first_player", "deal", "events"),
                                             ("rules", "deal", "events"))
        deal = Deal.from_json(d["deal"], rules)
        return cls.replay(rules, deal, read_events(d["events"], rules.players, need_values=False), first)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (self.rules, self.dealt, self.table.first_player, self.table.finished_events()) == (
            other.rules, other.dealt, other.table.first_player, other.table.finished_events())

    __hash__ = None  # type: ignore[assignment]  # a game changes as it is played

    # -- copying and undo -------------------------------------------------------
    def copy(self) -> Game:
        """An independent copy of the current state (without the undo history)."""
        g = Game.__new__(Game)
        g.rules = self.rules
        g.dealt = self.dealt
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
        """Whether the game has been won."""
        return self.table.winner is not None

    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        return self.table.outcome()

    @property
    def first_player(self) -> int:
        """The seat that played the first turn."""
        return self.table.first_player

    @property
    def turn(self) -> list[Revealed]:
        """Cards face up in the turn in progress, in order."""
        return list(self.table.turn)

    @property
    def events(self) -> list[Event]:
        """Finished events (turns and swaps), in order."""
        return list(self.table.events)

    @property
    def trios(self) -> tuple[tuple[int, ...], ...]:
        """The values of the trios taken by each seat, in order."""
        return self.table.trios

    def legal_reveals(self) -> list[Reveal]:
        """Every reveal allowed now."""
        return self.table.legal_reveals()

    def is_legal(self, reveal: Reveal) -> bool:
        """Whether ``reveal`` is allowed now."""
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
        if reveal.kind == "centre":
            v = self.centre[reveal.index]
            assert v is not None
            return v
        return self.hands[reveal.index][self.table.position(reveal)]

    def swap_moment(self) -> list[tuple[int, int]]:
        """The teams (as seat pairs) that may still make a swap now."""
        return [self.rules.teams_of_seats[t] for t in self.table.swap_open]  # type: ignore[misc]

    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may see now (``None``: a spectator): its own hand and the public history."""
        rules = self.rules
        if seat is not None and not (type(seat) is int and 0 <= seat < rules.players):
            raise IllegalMoveError(f"view: there is no seat {_show(seat, 40)} (seats 0 to {rules.players - 1} or None)")
        events = self.table.history(None if seat is None else rules.team_of(seat))
        return PlayerView(
            rules,
            self.table.first_player,
            seat,
            None if seat is None else self.dealt.hands[seat],
            events,
            None if seat is None else tuple(self.hands[seat]),
            self.table.copy(),
        )

    # -- actions ----------------------------------------------------------------
    def reveal(self, reveal: Reveal) -> Shown:
        """Reveal one card and settle the turn; returns the card shown and what it did to the turn."""
        t = self.table
        t.check_reveal(reveal)
        value = self._value(reveal)
        saved_table = t.snapshot()
        status = t.apply_reveal(reveal, value)
        trio = t.last_trio
        if trio is not None:
            self._undo.append((saved_table, [h[:] for h in self.hands], self.centre[:]))
            for s, lo, hi in trio.hands:
                hand = self.hands[s]
                self.hands[s] = hand[lo : len(hand) - hi]
            for i in trio.slots:
                self.centre[i] = None
        else:
            self._undo.append((saved_table, None, None))
        return Shown(reveal, value, status)

    def play(self, text: str) -> Shown:
        """Reveal from the short notation (``"c3"``)."""
        return self.reveal(Reveal.from_str(text))

    def swap(self, seat_a: int, seat_b: int, card_a: int, card_b: int) -> None:
        """Team swap: ``seat_a`` gives a ``card_a`` to ``seat_b`` and receives a ``card_b``."""
        t = self.table
        t.check_swap((seat_a, seat_b))
        if type(card_a) is not int or card_a not in self.hands[seat_a]:
            raise IllegalMoveError(f"swap [{seat_a}, {seat_b}]: seat {seat_a} holds no {_show(card_a, 40)}")
        if type(card_b) is not int or card_b not in self.hands[seat_b]:
            raise IllegalMoveError(f"swap [{seat_a}, {seat_b}]: seat {seat_b} holds no {_show(card_b, 40)}")
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

    def _repr_html_(self) -> str:
        """The table as cards in a notebook (every hand; :func:`trio_solver.report.notebook.game_html`)."""
        return html_of(self)

    def __repr__(self) -> str:
        return (
            f"Game(players={self.rules.players}, mode={self.rules.mode.value!r}, teams={self.rules.teams}, "
            f"to_move={self.to_move}, events={len(self.table.events)}, winner={self.winner})"
        )


class _GameTarget:
    """:func:`~trio_solver.game.table.drive` onto the true state: values come from the deal."""

    def __init__(self, game: Game, undo: bool = True) -> None:
        self.game = game
        self.table = game.table
        self.undo = undo  # False: the game keeps no undo history

    def value(self, reveal: Reveal, recorded: int | None, loc: str, i: int) -> int:
        true = self.game._value(reveal)
        if recorded is not None and recorded != true:
            fail(loc, f"{reveal}={recorded}, but the deal puts a {true} there", i)
        return true

    def reveal(self, reveal: Reveal, value: int) -> TurnStatus:
        status = self.game.reveal(reveal).status
        if not self.undo:
            self.game._undo.clear()
        return status

    def swap(self, swap: Swap, loc: str, i: int) -> None:
        if swap.cards is None:
            fail(loc, "'cards' is required in a record with a deal", i)
        try:
            self.game.swap(swap.seats[0], swap.seats[1], swap.cards[0], swap.cards[1])
        except IllegalMoveError as e:
            fail(loc, str(e), i)
        if not self.undo:
            self.game._undo.clear()

    def snapshot(self, events: Sequence[Event]) -> Game:
        return self.game.copy()


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
    raise IllegalMoveError(f"random game did not end within {max_reveals} reveals")
