"""The placement model as a constraint satisfaction problem (python-constraint).

The same constraints as :mod:`trio_solver.facts`, written plainly: one integer
variable per (hidden row, value) cell, row sums, column sums, and the bounds on
cumulative counts. Enumerating its solutions lists every count matrix that
still fits, which is obviously correct but slow (tens of thousands of solutions
per second), so it serves two purposes:

* the independent reference the tests compare the fast lattice model with,
  exactly, on small positions;
* listing the possible placements of a small position for a person
  (``trio-solver beliefs --list``), each with its exact probability.

The ``constraint`` module comes from the ``python-constraint2`` distribution
(pinned in pyproject.toml).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from constraint import ExactSumConstraint, MaxSumConstraint, MinSumConstraint, Problem

from .facts import POOL, Facts
from .rules import VALUES

__all__ = ["CountMatrix", "problem", "matrices", "weight", "enumerate_weights", "EnumeratedWeights", "placements"]

#: A count matrix: (row key, value) -> copies. Row keys are seats, or POOL for the unseen centre slots.
CountMatrix = dict[tuple[int, int], int]


def _name(key: int, v: int) -> str:
    return f"{'pool' if key == POOL else f's{key}'}_{v}"


def problem(facts: Facts) -> Problem | None:
    """The CSP of ``facts``; ``None`` when there is no hidden cell (no variable to solve for)."""
    p = Problem()
    cols = [v for v in VALUES if facts.hidden[v] > 0]
    names: dict[tuple[int, int], str] = {}
    for row in facts.rows:
        for v in cols:
            name = _name(row.key, v)
            names[(row.key, v)] = name
            p.addVariable(name, list(range(0, min(3, facts.hidden[v], row.size) + 1)))
    if not names:
        return None
    for row in facts.rows:
        p.addConstraint(ExactSumConstraint(row.size), [names[(row.key, v)] for v in cols])
        for u in range(1, 12):
            cells = [names[(row.key, v)] for v in cols if v <= u]
            if not cells:
                continue
            if row.lower[u] > 0:
                p.addConstraint(MinSumConstraint(row.lower[u]), cells)
            if row.upper[u] < row.size:
                p.addConstraint(MaxSumConstraint(row.upper[u]), cells)
    for v in cols:
        p.addConstraint(ExactSumConstraint(facts.hidden[v]), [names[(r.key, v)] for r in facts.rows])
    return p


def _trivially_consistent(facts: Facts) -> bool:
    """With no hidden cell: every row is empty, no copy is hidden, and no bound is broken."""
    if any(h != 0 for h in facts.hidden[1:]):
        return False
    return all(
        row.lower[u] <= 0 <= row.upper[u] for row in facts.rows for u in range(12)
    ) and all(row.size == 0 for row in facts.rows)


def matrices(facts: Facts) -> Iterator[CountMatrix]:
    """Every count matrix that fits ``facts`` (python-constraint enumeration)."""
    if any(h < 0 for h in facts.hidden[1:]):
        return
    p = problem(facts)
    if p is None:
        if _trivially_consistent(facts):
            yield {}
        return
    for sol in p.getSolutionIter():
        out: CountMatrix = {}
        for row in facts.rows:
            for v in VALUES:
                name = _name(row.key, v)
                if name in sol:
                    out[(row.key, v)] = sol[name]
                else:
                    out[(row.key, v)] = 0
        yield out


def weight(facts: Facts, m: CountMatrix) -> int:
    """The number of physical deals behind ``m`` up to a constant: prod_v r_v! / prod_i c_iv!."""
    w = 1
    for v in VALUES:
        r = facts.hidden[v]
        if r <= 0:
            continue
        w_v = math.factorial(r)
        for row in facts.rows:
            w_v //= math.factorial(m.get((row.key, v), 0))
        w *= w_v
    return w


@dataclass(frozen=True)
class EnumeratedWeights:
    """Exact totals of an enumeration: the total weight and, per cell, weight by copies held."""

    total: int
    cells: dict[tuple[int, int], dict[int, int]]
    count: int


def enumerate_weights(facts: Facts, limit: int | None = None) -> EnumeratedWeights:
    """Enumerate every matrix (at most ``limit``; raises ``OverflowError`` beyond) and sum weights exactly."""
    total = 0
    count = 0
    cells: dict[tuple[int, int], dict[int, int]] = {}
    for m in matrices(facts):
        count += 1
        if limit is not None and count > limit:
            raise OverflowError(f"more than {limit} placements")
        w = weight(facts, m)
        total += w
        for key, c in m.items():
            d = cells.setdefault(key, {})
            d[c] = d.get(c, 0) + w
    return EnumeratedWeights(total, cells, count)


def placements(facts: Facts, limit: int) -> list[tuple[Fraction, CountMatrix]]:
    """Every placement (as count matrices) with its exact probability, most likely first.

    Raises ``OverflowError`` when more than ``limit`` placements fit.
    """
    found: list[tuple[int, CountMatrix]] = []
    for m in matrices(facts):
        if len(found) >= limit:
            raise OverflowError(f"more than {limit} placements fit; ask for fewer hidden cards or a larger limit")
        found.append((weight(facts, m), m))
    total = sum(w for w, _ in found)
    out = [(Fraction(w, total), m) for w, m in found]
    out.sort(key=lambda t: (-t[0], sorted(t[1].items())))
    return out
