"""The lattice of cumulative counts, and its forward and backward tables.

A count matrix (how many cards of each value every hidden row holds) is a path
through a lattice: process the values 1..12 in order, the state after value
``u`` being the vector of cumulative counts of the rows (and two bits per
tracked secret swap). Every public fact is a bound on a row's cumulative count
(:mod:`trio_solver.infer.facts`), so it is a mask on the states after one
value, and the prior weight of a matrix is a product of one weight per value:
the weight of the transition that value makes.

:class:`Lattice` holds, for every value ``u``, the *forward* table (the summed
weight of the paths from the start to each state after ``u``) and the *backward*
table (the summed weight of the paths from each state after ``u`` to the final
state), as dense :mod:`numpy` arrays with one axis per explicit row and one per
flag bit. The two tables come from one pass run in either direction
(:meth:`Lattice._carry`), and everything :class:`~trio_solver.infer.beliefs.Beliefs`
asks follows from them: marginals of cumulative counts, of cells, the joint
events of end requests, and the packed form the compiled sampler walks.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import Any, NamedTuple

import numpy as np

from .. import kernel, limits
from .facts import POOL, Facts, Row

__all__ = ["Lattice", "Packed", "Transition"]

#: A transition of one value: (counts x of the explicit rows, count of the implicit row, the flag bits
#: flipping, prior weight).
Transition = tuple[tuple[int, ...], int, tuple[int, ...], int]


@lru_cache(maxsize=None)
def _compositions(rows: int, total: int) -> tuple[tuple[tuple[int, ...], int, int], ...]:
    """All (x, x_implicit, multinomial weight) with sum(x) + x_implicit == total (a pure function, memoised)."""
    out = []
    for x in itertools.product(range(total + 1), repeat=rows):
        s = sum(x)
        if s <= total:
            rest = total - s
            w = math.factorial(total)
            for c in x:
                w //= math.factorial(c)
            w //= math.factorial(rest)
            out.append((x, rest, w))
    return tuple(out)


def _support(arr: np.ndarray, axes: int) -> tuple[list[int], list[int]] | None:
    """The bounding box (lowest and highest index per count axis) of the non-zero entries of ``arr``."""
    nz = np.nonzero(arr)
    if len(nz[0]) == 0:
        return None
    return [int(nz[i].min()) for i in range(axes)], [int(nz[i].max()) for i in range(axes)]


_RowTerms = tuple[int, tuple[int, ...], tuple[tuple[int, int], ...],
                  tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...]]


def _factorials(top: int) -> np.ndarray:
    """``k!`` for ``k`` up to ``top``: 64-bit integers while they fit, else Python integers."""
    return np.array([math.factorial(k) for k in range(top + 1)], dtype=np.int64 if top <= 20 else object)


@lru_cache(maxsize=512)
def _transitions(u: int, total: int, cdims: tuple[int, ...], flags: int, unit: bool, implicit: bool,
                 rows: tuple[_RowTerms, ...]) -> tuple[Transition, ...]:
    """The transitions of value ``u`` (``total`` hidden copies): (counts x of the explicit rows, implicit
    count, flag bits flipping, prior weight), a pure function of the rows' terms at ``u``, memoised.

    Without swaps the weight is the multinomial ``r!/prod x!``. A hand whose dealt
    cards differ from its cards now is weighed by its dealt counts (``Row.offset``
    and, for tracked swaps, the bits flipping at ``u``), and each swap card by the
    number of cards of that value its hand held when it was chosen. ``rows`` gives, per
    row (explicit then implicit), its offset at ``u``, the extras of its known choices of
    ``u``, its dealt terms and its tracked choices ``(bit, extra at u, terms)``.

    The transitions come in the order of the compositions, then of the flipping bits read as a
    binary number; every composition is weighed for every set of flipping bits at once, as arrays
    indexed by (composition, that number) (the weights are exact integers).
    """
    offsets = [r[0] for r in rows]
    chooser = [r[1] for r in rows]
    out: list[Transition] = []
    if not any(offsets) and not any(chooser) and flags == 0:  # the plain multinomial
        for x, rest, w in _compositions(len(cdims), total):
            if all(xi <= d - 1 for xi, d in zip(x, cdims)):
                out.append((x, rest, (), 1 if unit else w))
        return tuple(out)
    comps = [(x, rest) for x, rest, _ in _compositions(len(cdims), total)
             if all(xi <= d - 1 for xi, d in zip(x, cdims))]
    if flags == 0 and not any(r[2] or r[3] for r in rows):
        return tuple(_unflagged(comps, implicit, unit, rows))
    n_masks = 1 << flags
    bits = (np.arange(n_masks)[None, :] >> np.arange(flags)[:, None]) & 1  # bits[b, mask]

    def linear(const: int, terms: tuple[tuple[int, int], ...]) -> np.ndarray:
        """``const`` plus the coefficient of every bit that flips, per set of flipping bits."""
        v = np.full(n_masks, const, dtype=np.int64)
        for b, coef in terms:
            v += coef * bits[b]
        return v

    if not comps:
        return ()
    # counts[c, r]: row r's count of u in composition c; dealt[c, r, mask]: its dealt count
    counts = np.array([x + (rest,) if implicit else x for x, rest in comps], dtype=np.int64)
    counts = counts.reshape(len(comps), len(rows))
    offset = np.array([linear(r[0], r[2]) for r in rows], dtype=np.int64).reshape(len(rows), n_masks)
    dealt = counts[:, :, None] + offset[None, :, :]
    ok: np.ndarray = np.all(dealt >= 0, axis=1)
    safe = np.where(ok[:, None, :], dealt, 0)
    size = safe.sum(axis=1)
    fact = _factorials(int(size.max()))
    weight: Any = fact[size]
    for r in range(len(rows)):
        weight = weight // fact[safe[:, r, :]]
    weight = np.where(ok, weight, 0)
    for r, extras in enumerate(chooser):
        for extra in extras:
            weight = weight * np.maximum(counts[:, r] + extra, 0)[:, None]
    for r, row in enumerate(rows):
        for bit, extra, terms in row[3]:
            more = np.maximum(counts[:, r, None] + linear(extra, terms)[None, :], 0)
            weight = np.where(bits[bit][None, :] == 1, weight * more, weight)
    flips: dict[int, tuple[int, ...]] = {}
    for c, mask in zip(*(a.tolist() for a in np.nonzero(weight))):
        phi = flips.get(mask)
        if phi is None:
            phi = flips[mask] = tuple(b for b in range(flags) if mask >> b & 1)
        x, rest = comps[c]
        out.append((x, rest, phi, 1 if unit else int(weight[c, mask])))
    return tuple(out)


def _unflagged(comps: list[tuple[tuple[int, ...], int]], implicit: bool, unit: bool,
               rows: tuple[_RowTerms, ...]) -> Iterator[Transition]:
    """:func:`_transitions` without tracked swaps, composition by composition in Python integers (the
    same exact weights as its arrays, which cost more than they save on a few dozen compositions): the
    multinomial of the dealt counts (count now plus the row's offset), times each known choice's count
    of cards then; a composition whose dealt count is negative, or of weight 0, is left out."""
    fact = math.factorial
    for x, rest in comps:
        counts = x + (rest,) if implicit else x
        dealt = [c + r[0] for c, r in zip(counts, rows)]
        if any(d < 0 for d in dealt):
            continue
        w = fact(sum(dealt))
        for d in dealt:
            w //= fact(d)
        for c, r in zip(counts, rows):
            for extra in r[1]:
                w *= max(c + extra, 0)
        if w:
            yield x, rest, (), 1 if unit else w


@lru_cache(maxsize=512)
def _transition_arrays(u: int, total: int, cdims: tuple[int, ...], flags: int, unit: bool, implicit: bool,
                       rows: tuple[_RowTerms, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_transitions` as arrays for the compiled passes: the explicit counts (one row each), the
    implicit count, the flipping bits as a mask and the prior weight as a float (read-only, memoised)."""
    ts = _transitions(u, total, cdims, flags, unit, implicit, rows)
    mask_of = {phi: sum(1 << b for b in phi) for phi in {t[2] for t in ts}}
    arrays = (np.array([t[0] for t in ts], dtype=np.int64).reshape(len(ts), len(cdims)),
              np.array([t[1] for t in ts], dtype=np.int64),
              np.array([mask_of[t[2]] for t in ts], dtype=np.int64),
              np.array([float(t[3]) for t in ts], dtype=np.float64))
    for a in arrays:
        a.flags.writeable = False
    return arrays


class Lattice:
    """Forward-backward tables over the cumulative-count lattice of the hidden rows.

    The state after value ``u`` is the cumulative count of every explicit row (one
    row, the *implicit* one, follows from the others and the column sums), and, for
    every tracked secret swap, two bits ``[g <= u]`` and ``[h <= u]`` that say whether
    the swap's cards were already passed (a bit flips at the value of its card).

    ``exact``: the tables hold Python integers (and :class:`~fractions.Fraction` weights of read
    choices) instead of floats. ``unit``: every transition weighs 1, so that :attr:`total_weight`
    counts the count matrices instead of weighing them.
    """

    def __init__(self, facts: Facts, exact: bool, unit: bool = False,
                 deadline: limits.Deadline | None = None) -> None:
        self.deadline = deadline
        self.facts = facts
        self.exact = exact
        self.unit = unit
        self.dtype: Any = object if exact else np.float64
        explicit = list(facts.rows)
        # The implicit row: the pool when there is one (it takes no end requests), else the largest hand.
        imp: Row | None = None
        if explicit:
            pool = [r for r in explicit if r.key == POOL]
            imp = pool[0] if pool else max(explicit, key=lambda r: r.size)
            explicit.remove(imp)
        self.explicit: list[Row] = explicit
        self.implicit: Row | None = imp
        #: The hidden rows, explicit then implicit: the order of every per-row list and array.
        self.rows: list[Row] = explicit + ([imp] if imp is not None else [])
        #: Count axes of a state (one per explicit row), then flag axes (two per tracked swap).
        self.n_explicit = len(explicit)
        self.n_flags = facts.flag_bits
        self.cdims = tuple(r.size + 1 for r in explicit)
        self.dims = self.cdims + (2,) * self.n_flags
        placed = [0] * 13
        for u in range(1, 13):
            placed[u] = placed[u - 1] + facts.hidden[u]
        #: ``placed[u]``: hidden cards of value at most ``u``, over all rows.
        self.placed = placed
        total = sum(r.size for r in facts.rows)
        self.feasible_counts = all(h >= 0 for h in facts.hidden[1:]) and placed[12] == total
        counts = np.indices(self.cdims).sum(axis=0) if self.n_explicit else np.zeros((), dtype=np.int64)
        #: The sum of the explicit counts of every state (flag axes of length 1).
        self.sumgrid = counts.reshape(self.cdims + (1,) * self.n_flags)
        self.masks = self._masks()
        self._entries_cache: dict[int, list[tuple[tuple[int, ...], tuple[int, ...], Any]]] = {}
        self._slice_cache: dict[tuple[tuple[int, ...], tuple[int, ...]],
                                tuple[tuple[slice, ...], tuple[slice, ...]]] = {}
        self._transition_keys: dict[int, tuple[Any, ...]] = {}
        #: ``transitions[u]``: the transitions of value ``u`` with their prior weights.
        self.transitions: list[list[Transition]] = [[]] + [
            self._weighted(u, max(facts.hidden[u], 0)) for u in range(1, 13)
        ]
        self.start = (0,) * (self.n_explicit + self.n_flags)
        self.final = tuple(d - 1 for d in self.cdims) + (1,) * self.n_flags
        # read choices (facts.extract's ``read``): (row index, k1, k2) per value
        self.avoid: list[list[tuple[int, int, int]]] = [[] for _ in range(13)]
        if self.read_weight is not None:
            for i, row in enumerate(self.rows):
                for v, k1, k2 in sorted(row.avoid):
                    self.avoid[v].append((i, k1, k2))
        self._factor_cache: dict[tuple[int, tuple[int, ...]], Any] = {}
        #: ``forward[u]``: the weight of the paths from the start to each state after value ``u``.
        self.forward = self._table(backward=False)
        found = self.forward[12][self.final] if self.feasible_counts else 0
        #: The weight of every path: every count matrix that fits, weighed by its prior. With ``exact``, a
        #: Python integer (a :class:`~fractions.Fraction` when opponents are read by their policy, whose
        #: likelihoods are fractions); else a float.
        self.total_weight: int | Fraction | float = found if exact else float(found)

    @property
    def read_weight(self) -> Any:
        """The weight of a path per read choice it makes unlikely (``Facts.read`` in the tables' number
        type), or ``None`` when choices are not read (or every transition weighs 1)."""
        read = self.facts.read
        if read is None or self.unit:
            return None
        return Fraction(read) if self.exact else float(read)

    # -- construction -------------------------------------------------------------
    def _weighted(self, u: int, total: int) -> list[Transition]:
        """The transitions of value ``u``: (counts x, implicit count, flag bits flipping, prior weight);
        see :func:`_transitions` (shared between positions whose rows agree at ``u``)."""
        limits.check("beliefs", self.deadline)
        terms = tuple((r.offset[u], tuple(extra for value, extra in r.choices if value == u), tuple(r.dealt_terms),
                       tuple((tc.bit, tc.extra[u], tc.terms) for tc in r.tracked_choices)) for r in self.rows)
        key = (u, total, self.cdims, self.n_flags, self.unit, self.implicit is not None, terms)
        self._transition_keys[u] = key
        return list(_transitions(*key))

    def _axis(self, axis: int, length: int) -> np.ndarray:
        shape = [1] * (self.n_explicit + self.n_flags)
        shape[axis] = length
        return np.arange(length).reshape(shape)

    def _masks(self) -> list[np.ndarray]:
        """``masks[u]``: the states after value ``u`` that every bound allows, for every ``u`` at once
        (one array with a leading axis of values, so that each bound costs one numpy operation instead
        of thirteen)."""
        lead = (13,) + (1,) * (self.n_explicit + self.n_flags)

        def bounds(row: Row) -> tuple[np.ndarray, np.ndarray]:
            """The row's bounds on its count after each value, within 0 and its size."""
            return np.maximum(np.array(row.lower[:13]), 0), np.minimum(np.array(row.upper[:13]), row.size)

        m = np.ones((13,) + self.dims, dtype=bool)
        for axis, row in enumerate(self.explicit):
            lo, hi = bounds(row)
            k = np.arange(row.size + 1)
            ok = (k[None, :] >= lo[:, None]) & (k[None, :] <= hi[:, None])
            shape = [13] + [1] * (self.n_explicit + self.n_flags)
            shape[1 + axis] = row.size + 1
            m &= ok.reshape(shape)
        imp = self.implicit
        c_imp = np.array(self.placed).reshape(lead) - self.sumgrid[None]
        if imp is None:
            m &= c_imp == 0
        else:
            lo_imp, hi_imp = bounds(imp)
            m &= (c_imp >= lo_imp.reshape(lead)) & (c_imp <= hi_imp.reshape(lead))
        for i, row in enumerate(self.rows):
            for (fu, lo2, hi2, terms) in row.flagged:
                val: Any = self._axis(i, row.size + 1) if i < self.n_explicit else c_imp[fu]
                for bit, coef in terms:
                    val = val + coef * self._axis(self.n_explicit + bit, 2)
                if lo2 is not None:
                    m[fu] &= val >= lo2
                if hi2 is not None:
                    m[fu] &= val <= hi2
        for b in range(self.n_flags):
            m[0] &= self._axis(self.n_explicit + b, 2) == 0
        return list(m)

    def _zeros(self) -> np.ndarray:
        return np.zeros(self.dims, dtype=self.dtype)

    def _flag_slices(self, phi: tuple[int, ...]) -> tuple[tuple[slice, ...], tuple[slice, ...]]:
        """The flag axes of a transition flipping the bits ``phi``: (before it, after it)."""
        before = tuple(slice(0, 1) if b in phi else slice(None) for b in range(self.n_flags))
        after = tuple(slice(1, 2) if b in phi else slice(None) for b in range(self.n_flags))
        return before, after

    def _slices(self, x: tuple[int, ...], phi: tuple[int, ...] = ()) -> tuple[tuple[slice, ...], tuple[slice, ...]]:
        """The states a transition ``x`` (flipping ``phi``) leaves from and those it reaches, as slices."""
        got = self._slice_cache.get((x, phi))
        if got is None:
            src = tuple(slice(0, d - xi) for d, xi in zip(self.cdims, x))
            dst = tuple(slice(xi, d) for d, xi in zip(self.cdims, x))
            if self.n_flags:
                before, after = self._flag_slices(phi)
                src += before
                dst += after
            got = self._slice_cache[(x, phi)] = (src, dst)
        return got

    def _factor(self, u: int, x: tuple[int, ...], rest: int) -> Any:
        """The read-choice weights of the transition ``x`` (implicit count ``rest``) at value ``u``, over
        the source states (an array shaped like the state with flag axes of length 1), or ``None``."""
        if not self.avoid[u]:
            return None
        key = (u, x)
        got = self._factor_cache.get(key)
        if got is None:
            read = self.read_weight
            got = np.ones(self.cdims + (1,) * self.n_flags, dtype=self.dtype)
            for i, k1, k2 in self.avoid[u]:
                if i < self.n_explicit:
                    src: Any = self._axis(i, self.cdims[i])
                    xi = x[i]
                else:
                    src, xi = self.placed[u - 1] - self.sumgrid, rest
                hit = (src <= k1) & (src + xi >= k2)
                got = got * np.where(hit, read, 1).astype(self.dtype)
            self._factor_cache[key] = got
        return got

    def _plain(self, u: int) -> bool:
        """Whether value ``u``'s transition is the plain multinomial (no swap weights, no flags, no read choices)."""
        if self.n_flags or self.unit or self.avoid[u]:
            return False
        return not any(r.offset[u] or any(value == u for value, _ in r.choices) for r in self.rows)

    def _deal_one(self, a: np.ndarray, transpose: bool) -> np.ndarray:
        """Give one more card to any row: the implicit row (state unchanged) or one explicit row.

        Applied ``r`` times this sums every composition of ``r`` copies with its multinomial
        weight (the number of orders in which labelled copies reach the rows), in one slice
        addition per explicit row instead of one per composition. ``transpose`` runs it
        backwards: from the states after the card to those before it.
        """
        new = a.copy() if self.implicit is not None else self._zeros()
        for i, d in enumerate(self.cdims):
            if d < 2:
                continue
            lo = [slice(None)] * len(self.dims)
            hi = [slice(None)] * len(self.dims)
            lo[i] = slice(0, d - 1)
            hi[i] = slice(1, d)
            if transpose:
                new[tuple(lo)] += a[tuple(hi)]
            else:
                new[tuple(hi)] += a[tuple(lo)]
        return new

    # -- the two passes -------------------------------------------------------------
    def _carry(self, table: np.ndarray, u: int, backward: bool) -> np.ndarray:
        """Carry a table across value ``u``'s transitions: forward, from the states after ``u - 1`` to
        those after ``u`` (each target sums its sources); backward, the other way (each source sums
        its targets). Masks are not applied. The plain multinomial goes card by card
        (:meth:`_deal_one`); other values go transition by transition, compiled in floats
        (:func:`trio_solver.kernel.carry_table`), in slices of exact numbers (:meth:`_carry_slices`)."""
        if self._plain(u):
            new = table
            for _ in range(max(self.facts.hidden[u], 0)):
                new = self._deal_one(new, transpose=backward)
            return new
        if self.exact:
            return self._carry_slices(table, u, backward)
        limits.check("beliefs", self.deadline)
        new = self._zeros()
        kernel.carry_table(np.ascontiguousarray(table, dtype=np.float64).reshape(-1), new.reshape(-1),
                           *self._compiled_args(u), self.placed[u - 1], kernel.as_bool(backward))
        return new

    def _carry_slices(self, table: np.ndarray, u: int, backward: bool) -> np.ndarray:
        """:meth:`_carry` of a value that is not plain, one slice addition per transition (in the tables'
        number type: exact numbers too)."""
        new = self._zeros()
        for x, rest, phi, w in self.transitions[u]:
            limits.check("beliefs", self.deadline)
            src, dst = self._slices(x, phi)
            into, frm = (src, dst) if backward else (dst, src)
            f = self._factor(u, x, rest)
            new[into] += w * table[frm] if f is None else w * f[src] * table[frm]
        return new

    @cached_property
    def _strides(self) -> list[int]:
        """The step of the flat index of a table along each axis (C order)."""
        strides = [1] * len(self.dims)
        for i in range(len(self.dims) - 2, -1, -1):
            strides[i] = strides[i + 1] * self.dims[i + 1]
        return strides

    @cached_property
    def _shape_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The count axes' lengths and every axis's stride, as arrays for the compiled passes."""
        return np.array(self.cdims, dtype=np.int64), np.array(self._strides, dtype=np.int64)

    def _compiled_args(self, u: int) -> tuple[np.ndarray, np.ndarray, int, np.ndarray, np.ndarray, np.ndarray,
                                              np.ndarray, np.ndarray, float]:
        """What :func:`trio_solver.kernel.carry_table` and :func:`trio_solver.kernel.entry_sums` read of
        value ``u``: the table's shape, the flag bits, the transitions as arrays
        (:func:`_transition_arrays`), the read choices and the read weight."""
        read = self.read_weight
        avoid = np.array(self.avoid[u], dtype=np.int64).reshape(len(self.avoid[u]), 3)
        return (*self._shape_arrays, self.n_flags, *_transition_arrays(*self._transition_keys[u]), avoid,
                1.0 if read is None else float(read))

    def _table(self, backward: bool) -> list[np.ndarray]:
        """The forward tables (``backward=False``: from the start state) or the backward ones (to
        the final state), one per value 0 to 12, each masked by the bounds after its value."""
        first, values = (12, range(12, 0, -1)) if backward else (0, range(1, 13))
        t = self._zeros()
        t[self.final if backward else self.start] = 1
        t = t * self.masks[first]
        tables = [t]
        for u in values:
            t = self._carry(t, u, backward) * self.masks[u - 1 if backward else u]
            tables.append(t)
        if backward:
            tables.reverse()
        return tables

    @cached_property
    def backward(self) -> list[np.ndarray]:
        """``backward[u]``: the weight of the paths from each state after value ``u`` to the final state."""
        return self._table(backward=True)

    # -- marginals ----------------------------------------------------------------
    def _sum_by_total(self, arr: np.ndarray) -> dict[int, Any]:
        """Weights of ``arr`` grouped by the sum of the explicit counts."""
        if self.n_flags:
            arr = arr.sum(axis=tuple(range(self.n_explicit, self.n_explicit + self.n_flags)))
        grid = self.sumgrid.reshape(self.cdims)
        if not self.exact:
            flat = np.bincount(grid.ravel(), weights=np.asarray(arr, dtype=np.float64).ravel())
            return {t: flat[t] for t in range(len(flat)) if flat[t] != 0}
        out: dict[int, Any] = {}
        for t in np.unique(grid):
            s = arr[grid == t].sum()
            if s != 0:
                out[int(t)] = s
        return out

    @cached_property
    def cumulative(self) -> list[list[dict[int, Any]]]:
        """``cumulative[i][u][k]``: weight of the matrices with C_i(u) = k (rows: explicit then implicit)."""
        out: list[list[dict[int, Any]]] = [[] for _ in self.rows]
        for u in range(13):
            g = self.forward[u] * self.backward[u]
            for i in range(self.n_explicit):
                axes = tuple(a for a in range(self.n_explicit + self.n_flags) if a != i)
                m = g.sum(axis=axes) if axes else g
                out[i].append({k: m[k] for k in range(len(m)) if m[k] != 0})
            if self.implicit is not None:
                by = self._sum_by_total(g)
                out[self.n_explicit].append({self.placed[u] - t: w for t, w in by.items()})
        return out

    @cached_property
    def cells(self) -> list[list[dict[int, Any]]]:
        """``cells[i][v][c]``: weight of the matrices where row i holds c cards of value v."""
        out: list[list[dict[int, Any]]] = [[{} for _ in range(13)] for _ in self.rows]
        for v in range(1, 13):
            if v in self._entries_cache:
                # the joint-event table of v splits each transition's weight; its parts sum back to it
                for x, _, weight in self._entries_cache[v]:
                    for i, xi in enumerate(x):
                        out[i][v][xi] = out[i][v].get(xi, 0) + weight
                continue
            for x, rest, mass in self._masses(v):
                for i, xi in enumerate(x):
                    out[i][v][xi] = out[i][v].get(xi, 0) + mass
                if self.implicit is not None:
                    out[self.n_explicit][v][rest] = out[self.n_explicit][v].get(rest, 0) + mass
        return out

    def _boxes(self, v: int) -> Iterator[tuple[tuple[int, ...], int, tuple[int, ...], Any,
                                                tuple[slice, ...], tuple[slice, ...], list[int], list[int]]]:
        """The transitions at ``v`` restricted to where both tables are non-zero:
        (x, implicit count, flips, weight, source slices, target slices, box low, box high)."""
        a, b = self.forward[v - 1], self.backward[v]
        box_a, box_b = _support(a, self.n_explicit), _support(b, self.n_explicit)
        if box_a is None or box_b is None:
            return
        for x, rest, phi, w in self.transitions[v]:
            los, his = [], []
            for i, xi in enumerate(x):
                los.append(max(box_a[0][i], box_b[0][i] - xi))
                his.append(min(box_a[1][i], box_b[1][i] - xi))
            if any(lo > hi for lo, hi in zip(los, his)):
                continue
            src = tuple(slice(lo, hi + 1) for lo, hi in zip(los, his))
            dst = tuple(slice(lo + xi, hi + xi + 1) for lo, hi, xi in zip(los, his, x))
            if self.n_flags:
                before, after = self._flag_slices(phi)
                src += before
                dst += after
            yield x, rest, phi, w, src, dst, los, his

    def _source(self, a: np.ndarray, v: int, x: tuple[int, ...], rest: int, src: tuple[slice, ...]) -> np.ndarray:
        """``a[src]``, the forward weights a transition ``x`` at ``v`` leaves from, times its read-choice weights."""
        f = self._factor(v, x, rest)
        return a[src] if f is None else a[src] * f[src]

    def _masses(self, v: int) -> Iterator[tuple[tuple[int, ...], int, Any]]:
        """(x, implicit count, total weight) of every transition at ``v`` with weight."""
        a, b = self.forward[v - 1], self.backward[v]
        for x, rest, _, w, src, dst, _, _ in self._boxes(v):
            mass = (self._source(a, v, x, rest, src) * b[dst]).sum() * w
            if mass:
                yield x, rest, mass

    # -- joint events at one value ---------------------------------------------------
    def entries(self, v: int) -> list[tuple[tuple[int, ...], tuple[int, ...], Any]]:
        """The transitions at value ``v`` grouped by what end requests can see (:meth:`_entries`), memoised."""
        got = self._entries_cache.get(v)
        if got is None:
            got = self._entries_cache[v] = self._entries(v)
        return got

    def _entries(self, v: int) -> list[tuple[tuple[int, ...], tuple[int, ...], Any]]:
        """The transitions at value ``v``, grouped by what end requests can see.

        Each entry is ``(x, cats, weight)``: ``x[i]`` cards of value ``v`` in row i
        (explicit rows then the implicit one) and ``cats[i]`` in {0: no end
        reachable, 1: they are its lowest cards, 2: its highest cards, 3: the
        whole hand}.
        """
        if self.exact:
            return self._entries_slices(v)
        return self._entries_compiled(v)

    def _entries_slices(self, v: int) -> list[tuple[tuple[int, ...], tuple[int, ...], Any]]:
        """:meth:`_entries` by numpy slices of each transition's box (in the tables' number type: exact
        numbers too)."""
        a, b = self.forward[v - 1], self.backward[v]
        out: list[tuple[tuple[int, ...], tuple[int, ...], Any]] = []
        imp = self.implicit
        imp_is_hand = imp is not None and imp.key != POOL
        flag_axes = tuple(range(self.n_explicit, self.n_explicit + self.n_flags))
        for x, rest, phi, w, src, dst, los, his in self._boxes(v):
            W = self._source(a, v, x, rest, src) * b[dst]  # the prior weight w multiplies the sums below
            parts: list[tuple[int, Any]]
            if imp_is_hand and rest > 0:
                assert imp is not None
                sg = self.sumgrid[src]
                lo_ = (self.placed[v - 1] - sg) == 0
                hi_ = (self.placed[v] - sg - sum(x)) == imp.size
                parts = [(0, W * (~lo_ & ~hi_)), (1, W * (lo_ & ~hi_)), (2, W * (~lo_ & hi_)), (3, W * (lo_ & hi_))]
            else:
                parts = [(0, W)]
            S = [i for i in range(self.n_explicit) if x[i] > 0]
            other = tuple(i for i in range(self.n_explicit) if x[i] == 0) + flag_axes
            if S:
                # category of each state along each axis of S: 1 its lowest cards, 2 its highest, 3 the whole hand
                code: Any = 0
                for j, i in enumerate(S):
                    t = np.arange(los[i], his[i] + 1)
                    cat = (t == 0).astype(np.int64) + 2 * (t == self.cdims[i] - 1 - x[i]).astype(np.int64)
                    shape = [1] * len(S)
                    shape[j] = len(t)
                    code = code + cat.reshape(shape) * (4 ** j)
            for icat, Wp in parts:
                red = Wp.sum(axis=other) if other else Wp
                if not S:
                    total = (red.sum() if isinstance(red, np.ndarray) else red) * w
                    if total != 0:
                        out.append((x + (rest,), (0,) * self.n_explicit + (icat,), total))
                    continue
                codes = np.broadcast_to(code, red.shape).ravel()
                if self.exact:
                    sums: dict[int, Any] = {}
                    for c_, w_ in zip(codes.tolist(), red.ravel().tolist()):
                        if w_:
                            sums[c_] = sums.get(c_, 0) + w_
                    items = [(c_, t_ * w) for c_, t_ in sums.items()]
                else:
                    binned = np.bincount(codes, weights=red.ravel(), minlength=4 ** len(S))
                    items = [(int(c_), float(binned[c_]) * w) for c_ in np.nonzero(binned)[0]]
                for c_, total in items:
                    cats = [0] * self.n_explicit
                    for j, i in enumerate(S):
                        cats[i] = (c_ // (4 ** j)) % 4
                    out.append((x + (rest,), tuple(cats) + (icat,), total))
        return out

    def _entries_compiled(self, v: int) -> list[tuple[tuple[int, ...], tuple[int, ...], Any]]:
        """:meth:`_entries` in floats, by :func:`trio_solver.kernel.entry_sums` (the same entries in the
        same order)."""
        limits.check("beliefs", self.deadline)
        transitions = self.transitions[v]
        imp = self.implicit
        ts, codes, imps, ws = kernel.entry_sums(
            np.ascontiguousarray(self.forward[v - 1], dtype=np.float64).reshape(-1),
            np.ascontiguousarray(self.backward[v], dtype=np.float64).reshape(-1),
            *self._compiled_args(v), self.placed[v - 1], self.placed[v],
            -1 if imp is None or imp.key == POOL else imp.size)
        out: list[tuple[tuple[int, ...], tuple[int, ...], Any]] = []
        for t, code, implicit_cat, w in zip(ts.tolist(), codes.tolist(), imps.tolist(), ws.tolist()):
            x, rest = transitions[t][0], transitions[t][1]
            cats = [0] * self.n_explicit
            j = 0
            for i, xi in enumerate(x):
                if xi > 0:
                    cats[i] = code // 4 ** j % 4
                    j += 1
            out.append((x + (rest,), tuple(cats) + (implicit_cat,), w))
        return out

    # -- sampling -------------------------------------------------------------------
    @cached_property
    def packed(self) -> Packed:
        """The forward tables and transitions as flat arrays for the compiled sampler
        (:func:`trio_solver.kernel.sample_counts`, which walks the lattice backwards from the final
        state, choosing each value's transition with probability proportional to the forward weight
        of its source: an exact draw from the posterior)."""
        R, F = self.n_explicit, self.n_flags
        read = self.read_weight
        dims = self.dims
        n_states = int(np.prod(dims)) if dims else 1
        strides = self._strides
        arrays = [_transition_arrays(*self._transition_keys[u]) for u in range(1, 13)]
        comp_off = [0, 0]
        for u in range(1, 13):
            comp_off.append(comp_off[-1] + len(self.transitions[u]))
        avoid_off = [0, 0]
        avoid: list[tuple[int, int, int]] = []
        for u in range(1, 13):
            avoid += self.avoid[u]
            avoid_off.append(len(avoid))
        header = [R, F, n_states, comp_off[-1], len(avoid)]
        ints = np.concatenate([np.array(header + strides + list(self.final) + comp_off, dtype=np.int64),
                               *(a[1] for a in arrays), *(a[2] for a in arrays),
                               np.array(avoid_off + self.placed, dtype=np.int64)])
        forward = np.stack([np.asarray(a, dtype=np.float64).reshape(-1) for a in self.forward]).reshape(-1)
        floats = np.concatenate([forward, *(a[3] for a in arrays),
                                 np.array([1.0 if read is None else float(read)])])
        comp_x = np.concatenate([a[0] for a in arrays]).reshape(comp_off[-1], R)
        avoid_arr = np.array(avoid, dtype=np.int64).reshape(len(avoid), 3)
        return Packed(floats, ints, comp_x, avoid_arr)


class Packed(NamedTuple):
    """A lattice as the compiled sampler reads it (:attr:`Lattice.packed`; the layout is
    :func:`trio_solver.kernel.draw_state`'s)."""

    floats: np.ndarray
    ints: np.ndarray
    comp_x: np.ndarray
    avoid: np.ndarray

