"""Team-swap choices shared by the bots that think about their partner (``solver``, ``expert``)."""

from __future__ import annotations

from ..infer.beliefs import Beliefs
from ..errors import ViewError
from ..game.rules import SEVEN
from ..game.view import PlayerView

__all__ = ["pairing_order", "pairing_swap"]


def pairing_order(view: PlayerView, beliefs: Beliefs | None = None) -> list[int]:
    """The single cards of the viewer's hand (one copy held), the likeliest to pair with the partner's
    hand first (by the exact expected counts of its hand; ties: a 7, then the value nearest the
    middle). Empty outside team play, for a spectator, or with no single card."""
    hand = view.hand or ()
    if not hand or view.seat is None:
        return []
    partner = view.rules.partner(view.seat)
    if partner is None:
        return []
    try:
        expected = (beliefs if beliefs is not None else Beliefs(view)).expected(partner)
    except ViewError:
        expected = {}
    singles = [v for v in sorted(set(hand)) if hand.count(v) == 1]
    return sorted(singles, key=lambda v: (-expected.get(v, 0.0), v != SEVEN, abs(v - 6.5)))


def pairing_swap(view: PlayerView, beliefs: Beliefs | None = None) -> int | None:
    """The team-swap rule of ``solver``: give the partner the single card it most likely pairs with
    (the first of :func:`pairing_order`), keeping our own pairs; ``None`` (no swap) without one."""
    order = pairing_order(view, beliefs)
    return order[0] if order else None
