"""What a seat knows of every hand and slot: the one source for the terminal, the board and the report.

Trio is a memory game: a card shown from the end of a hand goes back to the same
place when the turn fails, so a player with a perfect memory knows it until that
hand changes (a trio taken from it, or a secret swap). :func:`knowledge` reads
this from a :class:`~trio_solver.game.view.PlayerView`, position by position in each
sorted hand:

* ``public``: the card is known to every player (it was shown and has not moved
  since, or it lies between two shown cards of the same value: a hand is sorted,
  so everything between two 5s is a 5; likewise below a shown 1 and above a shown
  12);
* ``cards``: the value the viewer knows there: the public ones, and the viewer's
  whole own hand (``None``: unknown to the viewer);
* ``up``: the card lies face up in the turn in progress.

So the viewer's own cards with ``public`` set are the ones the table already
knows. With ``truth`` (the real hands of a whole-deal record) ``cards`` holds
every value while ``public`` still says what the table knows: the "hindsight"
picture. A secret swap makes both hands unknown to the table again (which card
left is secret); a spectator knows only the public part.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .table import LoggedStep, logged_steps
from .reveal import Reveal
from .view import PlayerView

__all__ = ["HandKnowledge", "Knowledge", "PublicReader", "knowledge", "public_hands"]


@dataclass(frozen=True)
class HandKnowledge:
    """One hand as a viewer knows it, one entry per card in sorted order (face-up cards included)."""

    seat: int
    cards: tuple[int | None, ...]
    """The value the viewer knows at each position (``None``: unknown to the viewer)."""
    public: tuple[bool, ...]
    """Whether every player knows the card at each position."""
    up: tuple[bool, ...]
    """Whether the card at each position lies face up in the turn in progress."""

    @property
    def size(self) -> int:
        """Cards in the hand (those face up in the turn included)."""
        return len(self.cards)

    def to_json(self) -> dict[str, Any]:
        """``{"seat", "size", "cards", "public", "up"}`` (lists of one entry per position)."""
        return {"seat": self.seat, "size": self.size, "cards": list(self.cards),
                "public": list(self.public), "up": list(self.up)}


@dataclass(frozen=True)
class Knowledge:
    """Every hand and centre slot as one viewer knows it (see the module doc)."""

    seat: int | None
    """The viewer (``None``: a spectator)."""
    hands: tuple[HandKnowledge, ...]
    slots: tuple[int | None, ...]
    """Per centre slot, the value known to every player (``None``: never shown, or taken in a trio)."""

    def public_value(self, view: PlayerView, reveal: Reveal) -> int | None:
        """The value every player knows ``reveal`` would show now (``view``: the position this was read
        from), else ``None``."""
        if reveal.is_centre:
            return self.slots[reveal.index]
        h = self.hands[reveal.index]
        if view.accessible(reveal.index) <= 0:
            return None
        p = view.position(reveal)
        return h.cards[p] if h.public[p] else None

    def known_to_table(self, seat: int) -> list[int]:
        """The values of ``seat``'s hand that every player knows, in sorted order."""
        h = self.hands[seat]
        return [v for v, pub in zip(h.cards, h.public) if pub and v is not None]


def public_hands(view: PlayerView) -> tuple[tuple[int | None, ...], ...]:
    """Per seat and sorted position, the value every player knows now (``None``: unknown to the table).

    Replays the public history of ``view``: a hand card shown is remembered at its
    position; a trio shifts the positions of the hands it took cards from; a swap
    forgets both hands. Then the order of a hand fills what it implies (between two
    equal values, below a 1, above a 12). A constructed position whose history does
    not account for the hand sizes knows nothing of the hands.
    """
    return _shared_reader().hands(view)


_READERS = threading.local()


def _shared_reader() -> PublicReader:
    """This thread's :class:`PublicReader` for the questions that bring none: the positions of one game
    asked in turn (an analysis, a bot's decisions) each read only the events since the one before."""
    reader = getattr(_READERS, "reader", None)
    if reader is None:
        reader = _READERS.reader = PublicReader()
    return reader


class PublicReader:
    """:func:`public_hands` along a game: each position reads only the steps added since the one before.

    The steps come from this thread's kept steps (:func:`~trio_solver.game.table.logged_steps`), so the
    history is replayed once for every reader and for the beliefs' facts alike. Hand one reader the
    positions of a game in order, and each step is applied to its hands once; a history that does not
    continue the one read before is read again from the start.
    """

    def __init__(self) -> None:
        self._key: tuple[Any, int] | None = None
        self._read_steps: Sequence[LoggedStep] = ()
        self._hands: list[list[int | None]] = []

    def _read(self, view: PlayerView) -> Sequence[LoggedStep]:
        """The steps of ``view``'s history, applied to the hands."""
        rules = view.rules
        steps = logged_steps(rules, view.first_player, view.events)
        done = len(self._read_steps)
        if (self._key != (rules, view.first_player) or done > len(steps)
                or (done and steps[done - 1] is not self._read_steps[-1])):
            self._key = (rules, view.first_player)
            self._hands = [[None] * rules.hand_size for _ in range(rules.players)]
            done = 0
        try:
            self._apply(steps[done:])
        except BaseException:  # an apply cut short (an interrupt) leaves the hands half done: start again
            self._key = None
            raise
        self._read_steps = steps
        return steps

    def _apply(self, steps: Sequence[LoggedStep]) -> None:
        hands = self._hands
        for step in steps:
            if step.swap is not None:
                for s in step.swap.seats:
                    hands[s] = [None] * len(hands[s])
                continue
            r, v = step.reveal, step.value
            if r is not None and v is not None and step.position is not None:
                hands[r.index][step.position] = v
            if step.trio is not None:
                for s, lo, hi in step.trio.hands:
                    h = hands[s]
                    hands[s] = h[lo:len(h) - hi]

    def hands(self, view: PlayerView) -> tuple[tuple[int | None, ...], ...]:
        """:func:`public_hands` of ``view``."""
        self._read(view)
        if [len(h) for h in self._hands] != list(view.sizes):
            return tuple((None,) * n for n in view.sizes)
        return tuple(_sorted_fill(h) for h in self._hands)

    def last_event(self, view: PlayerView) -> list[LoggedStep]:
        """The steps of the last event of ``view``'s history (empty at the start), as
        :func:`~trio_solver.game.table.logged_steps` gives them."""
        steps = self._read(view)
        last = len(view.events) - 1
        i = len(steps)
        while i and steps[i - 1].event == last:
            i -= 1
        return list(steps[i:])


def _sorted_fill(hand: list[int | None]) -> tuple[int | None, ...]:
    """``hand`` with the values its sorted order implies: equal values at both sides of a gap fill it,
    every card below a 1 is a 1 and every card above a 12 a 12."""
    out = list(hand)
    known = [i for i, v in enumerate(out) if v is not None]
    for a, b in zip(known, known[1:]):
        if out[a] == out[b]:
            for i in range(a + 1, b):
                out[i] = out[a]
    for i, v in enumerate(hand):
        if v == 1:
            out[:i] = [1] * i
        elif v == 12:
            out[i:] = [12] * (len(out) - i)
    return tuple(out)


def knowledge(view: PlayerView, *, spectator: bool = False,
              truth: Sequence[Sequence[int]] | None = None, reader: PublicReader | None = None) -> Knowledge:
    """What ``view``'s seat knows of every hand and slot now.

    ``spectator``: only what every player knows (the viewer's own hand left out).
    ``truth``: the real hands now (one sorted list per seat, as long as the view's
    hand sizes), shown in ``cards`` in full while ``public`` keeps what the table
    knows. ``reader``: the :class:`PublicReader` of the positions before this one, to read only the
    events since (the answer is the same; without one, this thread's own reader is used, which goes on
    from the position asked last when this one follows it). Raises :class:`ValueError` when ``truth`` does not fit the
    hand sizes.
    """
    pub = (reader if reader is not None else _shared_reader()).hands(view)
    if truth is not None and [len(h) for h in truth] != list(view.sizes):
        raise ValueError("truth: one hand per seat, as long as the view's hands")
    viewer = None if spectator else view.seat
    own = None if spectator else view.hand
    hands = []
    for s, row in enumerate(pub):
        lo, hi = view.used(s)
        n = len(row)
        up = tuple(i < lo or i >= n - hi for i in range(n))
        public = tuple(v is not None for v in row)
        cards: tuple[int | None, ...]
        if truth is not None:
            cards = tuple(truth[s])
        elif s == viewer and own is not None:
            cards = tuple(own)
        else:
            cards = row
        hands.append(HandKnowledge(s, cards, public, up))
    return Knowledge(viewer, tuple(hands), view.centre_seen())
