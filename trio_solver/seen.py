"""What a seat knows of every hand: its own cards, and the cards of the others it has seen.

A card shown from the end of a hand goes back into that hand when the turn
fails, at the same end, so a player with a perfect memory knows it until that
hand changes (a trio taken from it, or a swap). :func:`known_hands` reads this
from a :class:`~trio_solver.view.PlayerView` (through the memory of
:class:`~trio_solver.bots.Memory`), and :func:`seen_frame` draws the table with
it: the terminal game and the HTML report show hands as ``[3 ? ? ? 11]``
instead of ``[? ? ? ? ?]`` once those cards were shown.
"""

from __future__ import annotations

from collections.abc import Sequence

from .bots import Memory
from .render import Frame, frame
from .view import PlayerView

__all__ = ["known_hands", "seen_frame"]


def known_hands(view: PlayerView) -> list[list[int | None]]:
    """For each seat, its hand in sorted order with the values ``view``'s seat knows (``None``: unknown).

    The viewer's own hand is known in full; a spectator knows only what was shown.
    Hands include the cards face up in the turn in progress.
    """
    mem = Memory.of(view)
    out: list[list[int | None]] = []
    for s in range(view.rules.players):
        n = view.sizes[s]
        if s == view.seat and view.hand is not None:
            out.append(list(view.hand))
            continue
        row: list[int | None] = [None] * n
        for i, v in enumerate(mem.low[s][:n]):
            if v is not None:
                row[i] = v
        for d, v in enumerate(mem.high[s][:n]):
            if v is not None:
                row[n - 1 - d] = v
        out.append(row)
    return out


def seen_frame(view: PlayerView, names: Sequence[str] | None = None) -> Frame:
    """:func:`~trio_solver.render.frame` of ``view`` with every hand as far as the viewer knows it.

    ``cards`` of each hand is a list of values and ``None`` (unknown); ``names``
    (one per seat) are added as ``name`` when given.
    """
    fr = frame(view, view.seat)
    for h, row in zip(fr["hands"], known_hands(view)):
        h["cards"] = row
        if names is not None:
            h["name"] = names[h["seat"]]
    return fr
