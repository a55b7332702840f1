"""The table as one seat knows it, for the terminal game and the HTML report.

A thin layer over :mod:`trio_solver.game.knowledge` (the one source of what a seat
knows of each hand): :func:`known_hands` gives the values per hand and
:func:`seen_frame` the :func:`~trio_solver.report.render.frame` of a view with names,
so hands read ``[3 ? ? ? 11]`` instead of ``[? ? ? ? ?]`` once those cards were shown.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..game.knowledge import PublicReader, knowledge
from .render import Frame, frame
from ..game.view import PlayerView

__all__ = ["known_hands", "seen_frame"]


def known_hands(view: PlayerView) -> list[list[int | None]]:
    """For each seat, its hand in sorted order with the values ``view``'s seat knows (``None``: unknown).

    The viewer's own hand is known in full; a spectator knows only what was shown.
    Hands include the cards face up in the turn in progress.
    """
    return [list(h.cards) for h in knowledge(view).hands]


def seen_frame(view: PlayerView, names: Sequence[str] | None = None, *,
               reader: PublicReader | None = None) -> Frame:
    """:func:`~trio_solver.report.render.frame` of ``view`` as its seat knows it, with ``name`` added to each
    hand when ``names`` (one per seat) are given (``reader``: as for ``frame``)."""
    fr = frame(view, view.seat, reader=reader)
    if names is not None:
        for h in fr["hands"]:
            h["name"] = names[h["seat"]]
    return fr
