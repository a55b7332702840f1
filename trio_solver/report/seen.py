"""The table as one seat knows it, for the terminal game and the HTML report.

A thin layer over :mod:`trio_solver.game.knowledge` (the one source of what a seat
knows of each hand): :func:`known_hands` gives the values per hand and
:func:`seen_frame` the :func:`~trio_solver.report.render.frame` of a view with names,
so hands read ``[3 ? ? ? 11]`` instead of ``[? ? ? ? ?]`` once those cards were shown;
:func:`certain_holdings` adds what the seat knows a hand holds without knowing where (a card it
gave its partner, say), from the exact belief model.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..game.knowledge import PublicReader, knowledge
from ..game.rules import VALUES
from ..game.view import PlayerView
from ..infer.beliefs import Beliefs
from .render import Frame, frame

__all__ = ["certain_holdings", "known_hands", "seen_frame"]


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


def certain_holdings(view: PlayerView, fr: Frame) -> dict[int, list[int]]:
    """For each other seat: the values that every deal fitting ``view`` puts in its hand, beyond those the
    frame ``fr`` of that view already shows at a place: a card the viewer gave its partner, or one the
    facts pin to that hand. Sorted, with repeats; seats with none (and a spectator's view, or one no
    deal fits) give nothing. The belief model is sound where secret swaps make it approximate, so a
    value listed is held for certain."""
    if view.seat is None:
        return {}
    beliefs = Beliefs(view)
    if not beliefs.consistent:
        return {}
    hands = {h["seat"]: h for h in fr["hands"]}
    out: dict[int, list[int]] = {}
    for s in beliefs.hidden_seats():
        placed = [v for v in hands[s]["cards"] if v is not None]
        counts = beliefs.count_distribution(s)
        extra = [v for v in VALUES
                 for _ in range(min(c for c, p in counts[v].items() if p > 0) - placed.count(v))]
        if extra:
            out[s] = extra
    return out
