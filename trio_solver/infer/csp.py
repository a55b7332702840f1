"""The placement model as a constraint satisfaction problem (python-constraint).

The same constraints as :mod:`trio_solver.infer.facts`, written plainly: one integer
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

from constraint import ExactSumConstraint, FunctionConstraint, MaxSumConstraint, MinSumConstraint, Problem

from .. import limits
from .._args import show
from ..errors import LimitError
from .facts import POOL, Facts
from ..game.rules import VALUES

__all__ = ["CountMatrix", "problem", "solutions", "matrices", "weight", "enumerate_weights", "EnumeratedWeights",
           "placements"]

#: A count matrix: (row key, value) -> copies. Row keys are seats, or POOL for the unseen centre slots.
CountMatrix = dict[tuple[int, int], int]


def _name(key: int, v: int) -> str:
    return f"{'pool' if key == POOL else f's{key}'}_{v}"


def _bit(b: int) -> str:
    """The variable of a tracked swap card: bit 2j is the card g of swap j, bit 2j+1 its card h."""
    return f"swap{b // 2}_{'gh'[b % 2]}"


def _flagged_check(lo: int | None, hi: int | None, n_cells: int,
                   terms: tuple[tuple[int, int], ...], u: int) -> FunctionConstraint:
    def ok(*values: int) -> bool:
        total = sum(values[:n_cells]) + sum(coef * (1 if card <= u else 0)
                                            for (bit, coef), card in zip(terms, values[n_cells:]))
        return (lo is None or total >= lo) and (hi is None or total <= hi)

    return FunctionConstraint(ok)


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
    for b in range(facts.flag_bits):
        p.addVariable(_bit(b), list(range(1, 13)))
    for row in facts.rows:
        for (u, lo, hi, terms) in row.flagged:
            cells = [names[(row.key, v)] for v in cols if v <= u]
            p.addConstraint(_flagged_check(lo, hi, len(cells), terms, u), cells + [_bit(b) for b, _ in terms])
    return p


def _trivially_consistent(facts: Facts) -> bool:
    """With no hidden cell: every row is empty, no copy is hidden, and no bound is broken."""
    if any(h != 0 for h in facts.hidden[1:]):
        return False
    return all(
        row.lower[u] <= 0 <= row.upper[u] for row in facts.rows for u in range(12)
    ) and all(row.size == 0 for row in facts.rows)


def solutions(facts: Facts) -> Iterator[tuple[CountMatrix, dict[int, int]]]:
    """Every count matrix that fits ``facts``, with the cards of the tracked secret swaps (bit -> value)."""
    if any(h < 0 for h in facts.hidden[1:]):
        return
    p = problem(facts)
    if p is None:
        if _trivially_consistent(facts):
            yield {}, {}
        return
    for sol in p.getSolutionIter():
        limits.check("placements")
        out: CountMatrix = {}
        for row in facts.rows:
            for v in VALUES:
                out[(row.key, v)] = sol.get(_name(row.key, v), 0)
        yield out, {b: sol[_bit(b)] for b in range(facts.flag_bits)}


def matrices(facts: Facts) -> Iterator[CountMatrix]:
    """Every count matrix that fits ``facts`` (python-constraint enumeration; a matrix reached with
    several values of secret swaps comes once per value)."""
    for m, _ in solutions(facts):
        yield m


def weight(facts: Facts, m: CountMatrix, bits: dict[int, int] | None = None) -> int:
    """The number of physical deals (and swap choices) behind ``m`` up to a constant.

    Without swaps: ``prod_v r_v! / prod_i c_iv!``. With swaps the hands are weighed as
    dealt (their counts now plus the cards they gave minus those they received), and
    every swap card by the number of cards of its value in the hand it was chosen from.
    """
    bits = bits or {}
    w = 1
    for v in VALUES:
        dealt = []
        for row in facts.rows:
            c = m.get((row.key, v), 0)
            d = c + row.offset[v] + sum(coef for b, coef in row.dealt_terms if bits.get(b) == v)
            if d < 0:
                return 0
            dealt.append(d)
            for value, extra in row.choices:
                if value == v:
                    w *= c + extra
            for tc in row.tracked_choices:
                if bits.get(tc.bit) == v:
                    w *= c + tc.extra[v] + sum(coef for b, coef in tc.terms if bits.get(b) == v)
        w_v = math.factorial(sum(dealt))
        for d in dealt:
            w_v //= math.factorial(d)
        w *= w_v
        if w <= 0:
            return 0
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
    for m, bits in solutions(facts):
        count += 1
        if limit is not None and count > limit:
            raise OverflowError(f"more than {limit} placements")
        w = weight(facts, m, bits)
        total += w
        for key, c in m.items():
            d = cells.setdefault(key, {})
            d[c] = d.get(c, 0) + w
    return EnumeratedWeights(total, cells, count)


#: The most placements ``beliefs --list`` may list (each is a few hundred bytes of output).
MAX_PLACEMENTS = 100_000


def placements(facts: Facts, limit: int, *, deadline: limits.Deadline | float | None = None
               ) -> list[tuple[Fraction, CountMatrix]]:
    """Every placement (as count matrices) with its exact probability, most likely first.

    Raises ``OverflowError`` when more than ``limit`` placements fit, and
    :class:`~trio_solver.errors.LimitError` when ``deadline`` (or an active
    :func:`~trio_solver.limits.time_limit`) passes between two placements.
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or not 0 <= limit <= MAX_PLACEMENTS:
        raise LimitError(f"limit: expected 0 to {MAX_PLACEMENTS} placements, got {show(limit)}")
    with limits.time_limit(deadline):
        return _placements(facts, limit)


def _placements(facts: Facts, limit: int) -> list[tuple[Fraction, CountMatrix]]:
    found: dict[tuple[tuple[tuple[int, int], int], ...], int] = {}
    for m, bits in solutions(facts):
        key = tuple(sorted((k, c) for k, c in m.items() if c))
        if key not in found and len(found) >= limit:
            raise OverflowError(f"more than {limit} placements fit; ask for fewer hidden cards or a larger limit")
        found[key] = found.get(key, 0) + weight(facts, m, bits)
    total = sum(found.values())
    out = [(Fraction(w, total), dict(key)) for key, w in found.items() if w]
    out.sort(key=lambda t: (-t[0], sorted(t[1].items())))
    return out
