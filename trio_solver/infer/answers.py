"""Beliefs told: the certain facts in words, and the answers of the ``beliefs`` JSON.

:class:`~trio_solver.infer.beliefs.Beliefs` answers questions with numbers; this module turns
those answers into the words of :meth:`~trio_solver.infer.beliefs.Beliefs.deductions` and the
object of :meth:`~trio_solver.infer.beliefs.Beliefs.to_json` (docs/INTERFACE.md, "beliefs"). It
reads the beliefs only through their public queries (:class:`Queries`), so it does not import
the module that uses it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from ..game.reveal import Reveal
from ..game.rules import VALUES
from ..game.view import PlayerView
from ..words import article
from .facts import Facts

__all__ = ["Queries", "deductions", "answers"]


class Queries(Protocol):
    """The queries of :class:`~trio_solver.infer.beliefs.Beliefs` that its words and JSON read."""

    @property
    def view(self) -> PlayerView: ...

    @property
    def facts(self) -> Facts: ...

    @property
    def approximate(self) -> bool: ...

    def hidden_seats(self) -> list[int]: ...

    def centre(self) -> dict[int, dict[int, float]]: ...

    def end(self, reveal: Reveal) -> dict[int, float]: ...

    def lowest(self, seat: int) -> dict[int, float]: ...

    def highest(self, seat: int) -> dict[int, float]: ...

    def count_distribution(self, seat: int) -> dict[int, dict[int, float]]: ...

    def expected(self, seat: int) -> dict[int, float]: ...


def deductions(beliefs: Queries) -> list[str]:
    """The certain facts of consistent beliefs in words: ``"slot 4 is a 9"``, ``"seat 1 holds no 1,
    2 or 3"`` ..."""
    out: list[str] = []
    facts = beliefs.facts
    for slot, dist in sorted(beliefs.centre().items()):
        if slot in facts.known_slots:
            continue
        if len(dist) == 1:
            out.append(f"slot {slot} is {article(next(iter(dist)))} {next(iter(dist))}")
    for seat in beliefs.hidden_seats():
        cd = beliefs.count_distribution(seat)
        none = [v for v in VALUES if cd[v] == {0: 1.0} and facts.hidden[v] > 0]
        exact = [(v, next(iter(cd[v]))) for v in VALUES if len(cd[v]) == 1 and next(iter(cd[v])) > 0]
        atleast = [(v, min(cd[v])) for v in VALUES if len(cd[v]) > 1 and min(cd[v]) > 0]
        if none:
            out.append(f"seat {seat} holds no {_join(none)}")
        for v, c in exact:
            out.append(f"seat {seat} holds exactly {_copies(c, v)}")
        for v, c in atleast:
            out.append(f"seat {seat} holds at least {_copies(c, v)}")
        for kind in ("lowest", "highest"):
            d = beliefs.end(Reveal(kind, seat))
            if len(d) == 1:
                out.append(f"seat {seat}'s {kind} card is {article(next(iter(d)))} {next(iter(d))}")
    return out


def answers(beliefs: Queries, after: int | None) -> dict[str, Any]:
    """The ``beliefs`` JSON of consistent beliefs, without the position itself; ``after`` is the
    number of events it names (``None``: the view's)."""
    view = beliefs.view
    table = beliefs.facts.table
    lowest: dict[str, dict[str, float]] = {}
    highest: dict[str, dict[str, float]] = {}
    for s in range(view.rules.players):
        if table.accessible(s) > 0:
            lowest[str(s)] = _keyed(beliefs.lowest(s))
            highest[str(s)] = _keyed(beliefs.highest(s))
    hands = {
        str(s): {"size": table.sizes[s], "expected": _keyed(beliefs.expected(s))} for s in beliefs.hidden_seats()
    }
    return {
        "seat": view.seat,
        "after": len(view.events) if after is None else after,
        "to_move": view.to_move,
        "approximate": beliefs.approximate,
        "centre": {str(k): _keyed(v) for k, v in beliefs.centre().items()},
        "lowest": lowest,
        "highest": highest,
        "hands": hands,
        "deductions": deductions(beliefs),
    }


def _keyed(d: dict[int, float]) -> dict[str, float]:
    return {str(k): v for k, v in sorted(d.items()) if v > 0}


def _join(values: Sequence[int]) -> str:
    words = [str(v) for v in values]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _copies(c: int, v: int) -> str:
    return f"{['no', 'one', 'two', 'three'][c]} {v}{'s' if c > 1 else ''}"
