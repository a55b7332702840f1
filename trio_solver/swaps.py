"""Team-swap choices shared by the bots that think about their partner (``solver``, ``expert``)."""

from __future__ import annotations

from .beliefs import Beliefs
from .errors import ViewError
from .rules import SEVEN
from .view import PlayerView

__all__ = ["pairing_swap"]


def pairing_swap(view: PlayerView) -> int | None:
    """The team-swap rule of ``solver`` and ``expert``: give the partner the single card it most
    likely pairs with (by the exact expected counts of its hand), keeping our own pairs."""
    hand = view.hand or ()
    if not hand or view.seat is None:
        return None
    partner = view.rules.partner(view.seat)
    if partner is None:
        return None
    try:
        expected = Beliefs(view).expected(partner)
    except ViewError:
        expected = {}
    singles = [v for v in sorted(set(hand)) if hand.count(v) == 1]
    if not singles:
        return None
    return max(singles, key=lambda v: (expected.get(v, 0.0), v == SEVEN, -abs(v - 6.5)))
