"""Exact beliefs about the hidden cards, from one player's view.

The posterior is over count matrices: how many cards of each value every hidden
row (a hand the viewer cannot see, the pool of centre slots never shown) holds
now. Under a uniformly shuffled deck a matrix weighs ``prod_v r_v! / prod_i
c_iv!`` (the number of physical deals behind it, up to a constant; see the prior
note in docs/INTERFACE.md, "beliefs"), and every public fact is a bound on a row's cumulative
count ``C_i(u)`` (:mod:`trio_solver.infer.facts`).

Because the bounds are on cumulative counts, the matrices form paths through a
lattice: process the values 1..12 in order, the state after value ``u`` being the
vector of cumulative counts of the rows. A forward-backward pass over this
lattice (dense :mod:`numpy` arrays, one axis per hidden row but one whose count
follows from the others) sums the hundreds of millions of matrices of an early
3-player position in milliseconds, exactly, without listing them. Everything the
library asks follows from the forward and backward tables:

* the distribution of a row's cumulative count after each value gives the card a
  request for either end of a hand would show now, at any depth;
* the transitions at value ``v`` give the distribution of a cell's count, the
  expected counts, and the joint probability that several requests in one turn
  all show ``v`` (what the advisor needs);
* walking the forward table backwards samples complete deals exactly.

With ``exact=True`` the same code runs on Python integers (numpy object arrays)
and :attr:`Beliefs.total_weight` is the exact weighted count of the matrices,
which the tests compare with a python-constraint enumeration.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import Any, NamedTuple

import numpy as np

from .. import _args, kernel, limits
from ..errors import ViewError
from .facts import MAX_SWAP_BUDGET, POOL, STATE_BUDGET, Facts, Row, extract
from ..game.reveal import Reveal
from ..game.rules import VALUES
from ..game.view import PlayerView
from ..words import article
from .._display import html_of

__all__ = ["Beliefs", "Placement", "Demand"]


@dataclass(frozen=True)
class Placement:
    """A complete assignment of the cards now in play: every hand and every centre slot.

    ``centre[i]`` is ``None`` for a slot emptied by a trio. ``swaps`` gives the cards of
    secret swaps the model tracked (event index -> (card given by the first seat, card
    given by the second)).
    """

    hands: tuple[tuple[int, ...], ...]
    centre: tuple[int | None, ...]
    swaps: tuple[tuple[int, tuple[int, int]], ...] = ()


#: A demand on one hidden row in a joint event: (lowest cards, highest cards) that must show the value.
Demand = tuple[int, int]


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


@lru_cache(maxsize=512)
def _transitions(u: int, total: int, cdims: tuple[int, ...], flags: int, unit: bool, implicit: bool,
                 rows: tuple[_RowTerms, ...]) -> tuple[tuple[tuple[int, ...], int, tuple[int, ...], int], ...]:
    """The transitions of value ``u`` (``total`` hidden copies): (counts x of the explicit rows, implicit
    count, flag bits flipping, prior weight), a pure function of the rows' terms at ``u``, memoised.

    Without swaps the weight is the multinomial ``r!/prod x!``. A hand whose dealt
    cards differ from its cards now is weighed by its dealt counts (``Row.offset``
    and, for tracked swaps, the bits flipping at ``u``), and each swap card by the
    number of cards of that value its hand held when it was chosen. ``rows`` gives, per
    row (explicit then implicit), its offset at ``u``, the extras of its known choices of
    ``u``, its dealt terms and its tracked choices ``(bit, extra at u, terms)``.
    """
    offsets = [r[0] for r in rows]
    chooser = [r[1] for r in rows]
    plain = not any(offsets) and not any(chooser) and flags == 0
    out: list[tuple[tuple[int, ...], int, tuple[int, ...], int]] = []
    flips = [tuple(b for b in range(flags) if mask >> b & 1) for mask in range(1 << flags)]
    for x, rest, w in _compositions(len(cdims), total):
        if any(xi > d - 1 for xi, d in zip(x, cdims)):
            continue
        if plain:
            out.append((x, rest, (), 1 if unit else w))
            continue
        counts = x + (rest,) if implicit else x
        for phi in flips:
            on = set(phi)
            dealt = [c + r[0] + sum(coef for bit, coef in r[2] if bit in on) for c, r in zip(counts, rows)]
            if any(c < 0 for c in dealt):
                continue
            weight = math.factorial(sum(dealt))
            for c in dealt:
                weight //= math.factorial(c)
            for c, extras in zip(counts, chooser):
                for extra in extras:
                    weight *= max(c + extra, 0)
            for c, r in zip(counts, rows):
                for bit, extra, terms in r[3]:
                    if bit in on:
                        weight *= max(c + extra + sum(coef for b, coef in terms if b in on), 0)
            if weight:
                out.append((x, rest, phi, 1 if unit else weight))
    return tuple(out)


class _Lattice:
    """Forward-backward tables over the cumulative-count lattice of the hidden rows.

    The state after value ``u`` is the cumulative count of every explicit row (one
    row, the *implicit* one, follows from the others and the column sums), and, for
    every tracked secret swap, two bits ``[g <= u]`` and ``[h <= u]`` that say whether
    the swap's cards were already passed (a bit flips at the value of its card).
    """

    def __init__(self, facts: Facts, exact: bool, unit: bool = False,
                 deadline: limits.Deadline | None = None) -> None:
        self.deadline = deadline
        self.exact = exact
        self.unit = unit
        self.dtype: Any = object if exact else np.float64
        rows = list(facts.rows)
        self.hidden = facts.hidden
        # The implicit row: the pool when there is one (it takes no end requests), else the largest hand.
        imp: Row | None = None
        if rows:
            pool = [r for r in rows if r.key == POOL]
            imp = pool[0] if pool else max(rows, key=lambda r: r.size)
            rows.remove(imp)
        self.explicit: list[Row] = rows
        self.implicit: Row | None = imp
        self.R = len(rows)
        self.F = facts.flag_bits
        self.cdims = tuple(r.size + 1 for r in rows)
        self.dims = self.cdims + (2,) * self.F
        placed = [0] * 13
        for u in range(1, 13):
            placed[u] = placed[u - 1] + facts.hidden[u]
        self.placed = placed
        total = sum(r.size for r in facts.rows)
        self.feasible_counts = all(h >= 0 for h in facts.hidden[1:]) and placed[12] == total
        counts = np.indices(self.cdims).sum(axis=0) if self.R else np.zeros((), dtype=np.int64)
        self.sumgrid = counts.reshape(self.cdims + (1,) * self.F)
        self.masks = [self._mask(u) for u in range(13)]
        self._entries_cache: dict[int, list[tuple[tuple[int, ...], tuple[int, ...], Any]]] = {}
        self._slice_cache: dict[tuple[tuple[int, ...], tuple[int, ...]],
                                tuple[tuple[slice, ...], tuple[slice, ...]]] = {}
        self.comps: list[list[tuple[tuple[int, ...], int, tuple[int, ...], int]]] = [[]] + [
            self._weighted(u, max(facts.hidden[u], 0)) for u in range(1, 13)
        ]
        self.start = (0,) * (self.R + self.F)
        self.final = tuple(d - 1 for d in self.cdims) + (1,) * self.F
        # read choices (facts.extract's ``read``): (row index, k1, k2) per value, and their weight
        self.avoid: list[list[tuple[int, int, int]]] = [[] for _ in range(13)]
        self.read: Any = None
        if facts.read is not None and not unit:
            self.read = Fraction(facts.read) if exact else float(facts.read)
            for i, row in enumerate(self.explicit + ([imp] if imp is not None else [])):
                for v, k1, k2 in sorted(row.avoid):
                    self.avoid[v].append((i, k1, k2))
        self._factor_cache: dict[tuple[int, tuple[int, ...]], Any] = {}
        self.alpha = self._forward()
        self.Z = self.alpha[12][self.final] if self.feasible_counts else 0
        if not exact:
            self.Z = float(self.Z)

    # -- construction -------------------------------------------------------------
    def _weighted(self, u: int, total: int) -> list[tuple[tuple[int, ...], int, tuple[int, ...], int]]:
        """The transitions of value ``u``: (counts x, implicit count, flag bits flipping, prior weight);
        see :func:`_transitions` (shared between positions whose rows agree at ``u``)."""
        limits.check("beliefs", self.deadline)
        rows = self.explicit + ([self.implicit] if self.implicit is not None else [])
        terms = tuple((r.offset[u], tuple(extra for value, extra in r.choices if value == u), tuple(r.dealt_terms),
                       tuple((tc.bit, tc.extra[u], tc.terms) for tc in r.tracked_choices)) for r in rows)
        return list(_transitions(u, total, self.cdims, self.F, self.unit, self.implicit is not None, terms))

    def _axis(self, axis: int, length: int) -> np.ndarray:
        shape = [1] * (self.R + self.F)
        shape[axis] = length
        return np.arange(length).reshape(shape)

    def _mask(self, u: int) -> np.ndarray:
        m = np.ones(self.dims, dtype=bool)
        for axis, row in enumerate(self.explicit):
            ok = np.zeros(row.size + 1, dtype=bool)
            lo, hi = max(row.lower[u], 0), min(row.upper[u], row.size)
            if lo <= hi:
                ok[lo : hi + 1] = True
            shape = [1] * (self.R + self.F)
            shape[axis] = row.size + 1
            m &= ok.reshape(shape)
        imp = self.implicit
        c_imp = self.placed[u] - self.sumgrid
        if imp is None:
            m &= c_imp == 0
        else:
            m &= (c_imp >= max(imp.lower[u], 0)) & (c_imp <= min(imp.upper[u], imp.size))
        rows = self.explicit + ([imp] if imp is not None else [])
        for i, row in enumerate(rows):
            for (fu, lo2, hi2, terms) in row.flagged:
                if fu != u:
                    continue
                val: Any = self._axis(i, row.size + 1) if i < self.R else c_imp
                for bit, coef in terms:
                    val = val + coef * self._axis(self.R + bit, 2)
                if lo2 is not None:
                    m &= val >= lo2
                if hi2 is not None:
                    m &= val <= hi2
        if u == 0:
            for b in range(self.F):
                m &= self._axis(self.R + b, 2) == 0
        return m

    def _zeros(self) -> np.ndarray:
        return np.zeros(self.dims, dtype=self.dtype)

    def _slices(self, x: tuple[int, ...], phi: tuple[int, ...] = ()) -> tuple[tuple[slice, ...], tuple[slice, ...]]:
        got = self._slice_cache.get((x, phi))
        if got is None:
            src = tuple(slice(0, d - xi) for d, xi in zip(self.cdims, x))
            dst = tuple(slice(xi, d) for d, xi in zip(self.cdims, x))
            if self.F:
                src += tuple(slice(0, 1) if b in phi else slice(None) for b in range(self.F))
                dst += tuple(slice(1, 2) if b in phi else slice(None) for b in range(self.F))
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
            got = np.ones(self.cdims + (1,) * self.F, dtype=self.dtype)
            for i, k1, k2 in self.avoid[u]:
                if i < self.R:
                    src: Any = self._axis(i, self.cdims[i])
                    xi = x[i]
                else:
                    src, xi = self.placed[u - 1] - self.sumgrid, rest
                hit = (src <= k1) & (src + xi >= k2)
                got = got * np.where(hit, self.read, 1).astype(self.dtype)
            self._factor_cache[key] = got
        return got

    def _plain(self, u: int) -> bool:
        """Whether value ``u``'s transition is the plain multinomial (no swap weights, no flags, no read choices)."""
        if self.F or self.unit or self.avoid[u]:
            return False
        rows = self.explicit + ([self.implicit] if self.implicit is not None else [])
        return not any(r.offset[u] or any(value == u for value, _ in r.choices) for r in rows)

    def _deal_one(self, a: np.ndarray, transpose: bool) -> np.ndarray:
        """Give one more card to any row: the implicit row (state unchanged) or one explicit row.

        Applied ``r`` times this sums every composition of ``r`` copies with its multinomial
        weight (the number of orders in which labelled copies reach the rows), in R + 1
        slice additions instead of one per composition.
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

    def _forward(self) -> list[np.ndarray]:
        a = self._zeros()
        a[self.start] = 1
        a = a * self.masks[0]
        alpha = [a]
        for u in range(1, 13):
            if self._plain(u):
                new = a
                for _ in range(max(self.hidden[u], 0)):
                    new = self._deal_one(new, transpose=False)
            else:
                new = self._zeros()
                for x, rest, phi, w in self.comps[u]:
                    limits.check("beliefs", self.deadline)
                    src, dst = self._slices(x, phi)
                    f = self._factor(u, x, rest)
                    new[dst] += w * a[src] if f is None else w * f[src] * a[src]
            a = new * self.masks[u]
            alpha.append(a)
        return alpha

    @cached_property
    def beta(self) -> list[np.ndarray]:
        b = self._zeros()
        b[self.final] = 1
        b = b * self.masks[12]
        beta = [b]
        for u in range(12, 0, -1):
            if self._plain(u):
                new = b
                for _ in range(max(self.hidden[u], 0)):
                    new = self._deal_one(new, transpose=True)
            else:
                new = self._zeros()
                for x, rest, phi, w in self.comps[u]:
                    limits.check("beliefs", self.deadline)
                    src, dst = self._slices(x, phi)
                    f = self._factor(u, x, rest)
                    new[src] += w * b[dst] if f is None else w * f[src] * b[dst]
            b = new * self.masks[u - 1]
            beta.append(b)
        beta.reverse()
        return beta

    # -- marginals ----------------------------------------------------------------
    def _sum_by_total(self, arr: np.ndarray) -> dict[int, Any]:
        """Weights of ``arr`` grouped by the sum of the explicit counts."""
        if self.F:
            arr = arr.sum(axis=tuple(range(self.R, self.R + self.F)))
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
        out: list[list[dict[int, Any]]] = [[] for _ in range(self.R + (self.implicit is not None))]
        for u in range(13):
            g = self.alpha[u] * self.beta[u]
            for i in range(self.R):
                axes = tuple(a for a in range(self.R + self.F) if a != i)
                m = g.sum(axis=axes) if axes else g
                out[i].append({k: m[k] for k in range(len(m)) if m[k] != 0})
            if self.implicit is not None:
                by = self._sum_by_total(g)
                out[self.R].append({self.placed[u] - t: w for t, w in by.items()})
        return out

    @cached_property
    def cells(self) -> list[list[dict[int, Any]]]:
        """``cells[i][v][c]``: weight of the matrices where row i holds c cards of value v."""
        nrows = self.R + (self.implicit is not None)
        out: list[list[dict[int, Any]]] = [[{} for _ in range(13)] for _ in range(nrows)]
        for v in range(1, 13):
            if v in self._entries_cache:
                # the joint-event table of v splits each transition's weight; its parts sum back to it
                for x, _, weight in self._entries_cache[v]:
                    for i, xi in enumerate(x):
                        out[i][v][xi] = out[i][v].get(xi, 0) + weight
                continue
            for x, rest, mass in self._transitions(v):
                for i, xi in enumerate(x):
                    out[i][v][xi] = out[i][v].get(xi, 0) + mass
                if self.implicit is not None:
                    out[self.R][v][rest] = out[self.R][v].get(rest, 0) + mass
        return out

    def _boxes(self, v: int) -> Iterator[tuple[tuple[int, ...], int, tuple[int, ...], Any,
                                                tuple[slice, ...], tuple[slice, ...], list[int], list[int]]]:
        """The transitions at ``v`` restricted to where both tables are non-zero:
        (x, implicit count, flips, weight, source slices, target slices, box low, box high)."""
        a, b = self.alpha[v - 1], self.beta[v]
        box_a, box_b = _support(a, self.R), _support(b, self.R)
        if box_a is None or box_b is None:
            return
        for x, rest, phi, w in self.comps[v]:
            los, his = [], []
            for i, xi in enumerate(x):
                los.append(max(box_a[0][i], box_b[0][i] - xi))
                his.append(min(box_a[1][i], box_b[1][i] - xi))
            if any(lo > hi for lo, hi in zip(los, his)):
                continue
            src = tuple(slice(lo, hi + 1) for lo, hi in zip(los, his))
            dst = tuple(slice(lo + xi, hi + xi + 1) for lo, hi, xi in zip(los, his, x))
            if self.F:
                src += tuple(slice(0, 1) if bit in phi else slice(None) for bit in range(self.F))
                dst += tuple(slice(1, 2) if bit in phi else slice(None) for bit in range(self.F))
            yield x, rest, phi, w, src, dst, los, his

    def _source(self, a: np.ndarray, v: int, x: tuple[int, ...], rest: int, src: tuple[slice, ...]) -> np.ndarray:
        """``a[src]``, the forward weights a transition ``x`` at ``v`` leaves from, times its read-choice weights."""
        f = self._factor(v, x, rest)
        return a[src] if f is None else a[src] * f[src]

    def _transitions(self, v: int) -> Iterator[tuple[tuple[int, ...], int, Any]]:
        """(x, implicit count, total weight) of every transition at ``v`` with weight."""
        a, b = self.alpha[v - 1], self.beta[v]
        for x, rest, _, w, src, dst, _, _ in self._boxes(v):
            mass = (self._source(a, v, x, rest, src) * b[dst]).sum() * w
            if mass:
                yield x, rest, mass

    # -- joint events at one value ---------------------------------------------------
    def entries(self, v: int) -> list[tuple[tuple[int, ...], tuple[int, ...], Any]]:
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
        a, b = self.alpha[v - 1], self.beta[v]
        out: list[tuple[tuple[int, ...], tuple[int, ...], Any]] = []
        imp = self.implicit
        imp_is_hand = imp is not None and imp.key != POOL
        flag_axes = tuple(range(self.R, self.R + self.F))
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
            S = [i for i in range(self.R) if x[i] > 0]
            other = tuple(i for i in range(self.R) if x[i] == 0) + flag_axes
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
                        out.append((x + (rest,), (0,) * self.R + (icat,), total))
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
                    cats = [0] * self.R
                    for j, i in enumerate(S):
                        cats[i] = (c_ // (4 ** j)) % 4
                    out.append((x + (rest,), tuple(cats) + (icat,), total))
        return out

    # -- sampling -------------------------------------------------------------------
    @cached_property
    def packed(self) -> Packed:
        """The forward tables and transitions as flat arrays for the compiled sampler
        (:func:`trio_solver.kernel.sample_counts`, which walks the lattice backwards from the final
        state, choosing each value's transition with probability proportional to the forward weight
        of its source: an exact draw from the posterior)."""
        R, F = self.R, self.F
        dims = self.dims
        n_states = int(np.prod(dims)) if dims else 1
        strides = [1] * len(dims)
        for i in range(len(dims) - 2, -1, -1):
            strides[i] = strides[i + 1] * dims[i + 1]
        comps = [c for u in range(1, 13) for c in self.comps[u]]
        comp_off = [0, 0]
        for u in range(1, 13):
            comp_off.append(comp_off[-1] + len(self.comps[u]))
        avoid_off = [0, 0]
        avoid: list[tuple[int, int, int]] = []
        for u in range(1, 13):
            avoid += self.avoid[u] if self.read is not None else []
            avoid_off.append(len(avoid))
        header = [R, F, n_states, len(comps), len(avoid)]
        ints = np.array(header + strides + list(self.final) + comp_off + [c[1] for c in comps]
                        + [sum(1 << b for b in c[2]) for c in comps] + avoid_off + self.placed, dtype=np.int64)
        alpha = np.stack([np.asarray(a, dtype=np.float64).reshape(-1) for a in self.alpha]).reshape(-1)
        floats = np.concatenate([alpha, np.array([float(c[3]) for c in comps], dtype=np.float64),
                                 np.array([1.0 if self.read is None else float(self.read)])])
        comp_x = np.array([c[0] for c in comps], dtype=np.int64).reshape(len(comps), R)
        avoid_arr = np.array(avoid, dtype=np.int64).reshape(len(avoid), 3)
        return Packed(floats, ints, comp_x, avoid_arr)


class Packed(NamedTuple):
    """A lattice as the compiled sampler reads it (:meth:`_Lattice.packed`; the layout is
    :func:`trio_solver.kernel.draw_state`'s)."""

    floats: np.ndarray
    ints: np.ndarray
    comp_x: np.ndarray
    avoid: np.ndarray


class Beliefs:
    """The viewer's exact posterior over the hidden cards.

    ``Beliefs(view)`` builds the model; every query is then cheap. All
    probabilities are exact Bayes posteriors under a uniform shuffle (and, in team
    play, swap cards chosen uniformly from their hands). Each secret swap that
    matters multiplies the lattice by four; ``swap_budget`` bounds its size, and
    beyond it the oldest secret swaps are relaxed: :attr:`approximate` is then
    true and the probabilities come from a sound relaxation (never excluding a
    possible deal) whose error can reach a few tenths.
    """

    def __init__(self, view: PlayerView, *, exact: bool = False, swap_budget: int = STATE_BUDGET,
                 deadline: limits.Deadline | float | None = None, read: float | None = None,
                 _drop: frozenset[int] = frozenset()) -> None:
        """Build the model of ``view``'s beliefs.

        ``deadline`` (a :class:`~trio_solver.limits.Deadline` or seconds from now) bounds the
        construction, as does any active :func:`~trio_solver.limits.time_limit` (which also bounds
        the later queries). Raises :class:`~trio_solver.errors.ViewError` for a ``view`` that is not
        a :class:`PlayerView`, ``exact`` not a bool or ``swap_budget`` outside 1 to
        ``MAX_SWAP_BUDGET`` or ``read`` not ``None`` or a number in (0, 1];
        :class:`~trio_solver.errors.LimitError` when the deadline passes.

        ``read`` reads the other players' choices under a model of their play
        (:func:`~trio_solver.infer.facts.extract`): each deal is weighed by ``read`` for every choice it
        makes unlikely. The beliefs are then no longer the exact public posterior, but the
        posterior under that model (``None``, the default: the exact public posterior).
        """
        if not isinstance(view, PlayerView):
            raise ViewError(f"view: expected a PlayerView, got {type(view).__name__}")
        _args.boolean("exact", exact, ViewError)
        if not isinstance(swap_budget, int) or isinstance(swap_budget, bool) or not 1 <= swap_budget <= MAX_SWAP_BUDGET:
            raise ViewError(f"swap_budget: expected 1 to {MAX_SWAP_BUDGET}, got {_args.show(swap_budget)}")
        read = _args.read_weight("read", read, ViewError)
        limit = limits.as_deadline(deadline)
        self.view = view
        self.swap_budget = swap_budget
        self.facts = extract(view, drop=_drop, budget=swap_budget, read=read)
        self._lat = _Lattice(self.facts, exact, deadline=limit)
        self._lat.deadline = None  # later queries: only an active time_limit bounds them
        self.exact = exact
        self._row_index: dict[int, int] = {}
        for i, r in enumerate(self._lat.explicit):
            self._row_index[r.key] = i
        if self._lat.implicit is not None:
            self._row_index[self._lat.implicit.key] = self._lat.R

    # -- basic facts ------------------------------------------------------------------
    @property
    def read(self) -> float | None:
        """The weight of a deal per opponent choice it makes unlikely; ``None``: the exact public posterior."""
        return self.facts.read

    @property
    def approximate(self) -> bool:
        """Whether secret swaps made these beliefs an approximation."""
        return self.facts.approximate

    @property
    def consistent(self) -> bool:
        """Whether at least one deal fits everything shown."""
        return bool(self._lat.Z)

    def placement_count(self) -> int:
        """How many count matrices (placements of values, hands unordered, unseen slots pooled)
        still fit: the number the model sums over without listing (exact integer)."""
        return int(_Lattice(self.facts, True, unit=True).Z)

    @property
    def total_weight(self) -> Any:
        """The weighted number of count matrices that fit (an exact integer with ``exact=True``)."""
        return self._lat.Z

    def _p(self, w: Any) -> float:
        if self.exact:
            return float(Fraction(w, self._lat.Z))
        return float(w / self._lat.Z)

    def _fraction(self, w: Any) -> Fraction:
        if not self.exact:
            raise ViewError("exact fractions need Beliefs(view, exact=True)")
        return Fraction(w, self._lat.Z)

    def _require(self) -> None:
        if not self._lat.Z:
            raise ViewError("no deal fits this view: the record contradicts itself")

    def hidden_seats(self) -> list[int]:
        """Seats whose hand is hidden from the viewer and not empty."""
        return [r.key for r in self.facts.rows if r.key != POOL and r.size > 0]

    # -- the centre ---------------------------------------------------------------------
    def centre(self) -> dict[int, dict[int, float]]:
        """For every slot still in the centre: value -> probability."""
        self._require()
        out: dict[int, dict[int, float]] = {}
        facts = self.facts
        pool: dict[int, float] = {}
        if facts.pool_slots:
            i = self._row_index[POOL]
            m = len(facts.pool_slots)
            cells = self._lat.cells[i]
            for v in VALUES:
                e = sum(c * w for c, w in cells[v].items())
                if e:
                    pool[v] = self._p(e) / m
        for slot, present in enumerate(facts.table.centre_present):
            if not present:
                continue
            if slot in facts.known_slots:
                out[slot] = {facts.known_slots[slot]: 1.0}
            else:
                out[slot] = dict(pool)
        return out

    # -- hands -----------------------------------------------------------------------------
    def _cdf(self, seat: int, u: int, k: int) -> Any:
        """Weight of C_seat(u) <= k."""
        i = self._row_index[seat]
        return sum(w for c, w in self._lat.cumulative[i][u].items() if c <= k)

    def _seat(self, seat: Any, name: str = "seat") -> int:
        return _args.seat(name, seat, self.view.rules.players, ViewError)  # type: ignore[return-value]

    def position_distribution(self, seat: int, position: int) -> dict[int, float]:
        """Distribution of the card at sorted ``position`` of ``seat``'s hand now (``{}`` past its end).

        Raises :class:`~trio_solver.errors.ViewError` for a seat not at the table or a position
        that is not an integer 0 to 11."""
        self._seat(seat)
        _args.int_in("position", position, 0, 11, ViewError)
        self._require()
        table = self.facts.table
        if not 0 <= position < table.sizes[seat]:
            return {}
        if seat == self.facts.seat:
            assert self.facts.hand is not None
            return {self.facts.hand[position]: 1.0}
        out: dict[int, float] = {}
        prev = self._cdf(seat, 0, position)
        # differences of cumulative weights: in floating point, round-off below this is not a probability
        noise = 0 if self.exact else 1e-12 * self._lat.Z
        for v in VALUES:
            cur = self._cdf(seat, v, position)
            w = prev - cur
            if w > noise:
                out[v] = self._p(w)
            prev = cur
        return out

    def end(self, reveal: Reveal) -> dict[int, float]:
        """Distribution of the card ``reveal`` (a hand end) would show now; ``{}`` if none is accessible.

        Raises :class:`~trio_solver.errors.ViewError` for a reveal of a seat not at the table."""
        _args.instance("reveal", reveal, Reveal, ViewError)
        if reveal.is_centre:
            return self.centre().get(reveal.index, {})
        table = self.facts.table
        s = self._seat(reveal.index, "reveal")
        if table.accessible(s) <= 0:
            return {}
        return self.position_distribution(s, table.position(reveal))

    def lowest(self, seat: int) -> dict[int, float]:
        """The card a request for ``seat``'s lowest would show now (:class:`~trio_solver.errors.ViewError`
        for a seat not at the table)."""
        return self.end(Reveal.lowest(self._seat(seat)))

    def highest(self, seat: int) -> dict[int, float]:
        """The card a request for ``seat``'s highest would show now (:class:`~trio_solver.errors.ViewError`
        for a seat not at the table)."""
        return self.end(Reveal.highest(self._seat(seat)))

    def count_distribution(self, seat: int) -> dict[int, dict[int, float]]:
        """For a hidden seat: value -> (number of copies held -> probability).

        Raises :class:`~trio_solver.errors.ViewError` for a seat not at the table."""
        self._seat(seat)
        self._require()
        if seat == self.facts.seat:
            assert self.facts.hand is not None
            return {v: {self.facts.hand.count(v): 1.0} for v in VALUES}
        if seat not in self._row_index:
            return {v: {0: 1.0} for v in VALUES}
        cells = self._lat.cells[self._row_index[seat]]
        return {v: {c: self._p(w) for c, w in sorted(cells[v].items())} for v in VALUES}

    def expected(self, seat: int) -> dict[int, float]:
        """Expected number of cards of each value in ``seat``'s hand (values with 0 left out)."""
        out: dict[int, float] = {}
        for v, dist in self.count_distribution(seat).items():
            e = sum(c * p for c, p in dist.items())
            if e > 0:
                out[v] = e
        return out

    def exact_cell_weights(self, seat: int | None) -> dict[int, dict[int, int]]:
        """Exact weighted counts ``value -> copies -> weight`` of a hidden row (``None``: the pool).

        Raises :class:`~trio_solver.errors.ViewError` without ``exact=True`` or for a row that is
        not hidden."""
        if not self.exact:
            raise ViewError("exact weights need Beliefs(view, exact=True)")
        key = POOL if seat is None else self._seat(seat)
        if key not in self._row_index:
            raise ViewError(f"seat: {'the pool' if seat is None else f'seat {seat}'} is not a hidden row of this view")
        cells = self._lat.cells[self._row_index[key]]
        return {v: dict(cells[v]) for v in VALUES}

    # -- joint events ---------------------------------------------------------------------
    @cached_property
    def _entries(self) -> dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]:
        out: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        nrows = self._lat.R + (self._lat.implicit is not None)
        for v in VALUES:
            ents = self._lat.entries(v)
            if not ents:
                out[v] = (np.zeros((0, nrows), dtype=np.int64), np.zeros((0, nrows), dtype=np.int64),
                          np.zeros(0, dtype=self._lat.dtype))
                continue
            X = np.array([e[0] for e in ents], dtype=np.int64).reshape(len(ents), nrows)
            C = np.array([e[1] for e in ents], dtype=np.int64).reshape(len(ents), nrows)
            W = np.array([e[2] for e in ents], dtype=self._lat.dtype)
            out[v] = (X, C, W)
        return out

    def _joint_weight_exact(self, value: int, demands: dict[int, Demand], pool: int = 0) -> Any:
        """Exact weight (``exact=True``) of the joint event of :meth:`joint_batch`, for one set of demands:
        each hidden seat ``s`` in ``demands`` has its ``(a, b)`` lowest/highest cards all equal to
        ``value``, and ``pool`` distinct never-shown centre slots hold ``value``."""
        X, C, W = self._entries[value]
        if len(W) == 0:
            return 0
        ok = np.ones(len(W), dtype=bool)
        for seat, (a, b) in demands.items():
            if a == 0 and b == 0:
                continue
            i = self._row_index.get(seat)
            if i is None:
                return 0
            x, c = X[:, i], C[:, i]
            cond = x >= a + b
            if a:
                cond &= (c == 1) | (c == 3)
            if b:
                cond &= (c == 2) | (c == 3)
            ok &= cond
        if pool:
            i = self._row_index.get(POOL)
            m = len(self.facts.pool_slots)
            if i is None or pool > m:
                return 0
            fx = [math.perm(int(xx), pool) if xx >= pool else 0 for xx in X[:, i]]
            return sum(Fraction(int(w) * f, math.perm(m, pool)) for w, f, k in zip(W, fx, ok) if k)
        return sum(W[ok])

    def row_of_seat(self, seat: int) -> int | None:
        """Index of a hidden seat's row in the joint-event arrays (``None`` if the seat is not hidden)."""
        self._seat(seat)
        return self._row_index.get(seat) if seat != POOL else None

    @property
    def n_rows(self) -> int:
        """Number of hidden rows (hands, then the pool) in the joint-event arrays."""
        return self._lat.R + (self._lat.implicit is not None)

    def joint_batch(self, value: int, lows: np.ndarray, highs: np.ndarray, pool: np.ndarray) -> np.ndarray:
        """Probabilities of many joint events at once (float model only).

        Row ``d`` asks that, for every hidden row ``i``, its ``lows[d, i]`` lowest and
        ``highs[d, i]`` highest cards (counted from the ends of the hand now, face-up
        cards of this turn included) all show ``value``, and that ``pool[d]`` distinct
        never-shown centre slots all hold ``value``. Arrays are indexed by
        :meth:`row_of_seat`.
        """
        X, C, W = self._entries[value]
        D = len(pool)
        if len(W) == 0 or D == 0:
            return np.zeros(D)
        need = lows + highs  # D x R
        Xb = X[None, :, :]
        Cb = C[None, :, :]
        ok = Xb >= need[:, None, :]
        lo_ok = (Cb == 1) | (Cb == 3)
        hi_ok = (Cb == 2) | (Cb == 3)
        ok &= (lows[:, None, :] == 0) | lo_ok
        ok &= (highs[:, None, :] == 0) | hi_ok
        allok = ok.all(axis=2)  # D x E
        weights = np.broadcast_to(W.astype(np.float64), (D, len(W)))
        if pool.any():
            i = self._row_index.get(POOL)
            m = len(self.facts.pool_slots)
            if i is None:
                factor = (pool == 0)[:, None].astype(np.float64) * np.ones((1, len(W)))
            else:
                x = X[:, i].astype(np.float64)
                factor = np.ones((D, len(W)))
                for t in range(3):
                    use = (pool > t)[:, None]
                    step = np.maximum(x - t, 0.0)[None, :] / max(m - t, 1)
                    factor = np.where(use, factor * step, factor)
                factor = np.where((pool > m)[:, None], 0.0, factor)
            weights = weights * factor
        return np.asarray((weights * allok).sum(axis=1) / float(self._lat.Z))

    def demands(self, value: int, lows: dict[int, int], highs: dict[int, int], slots: Iterable[int] = (),
                pool: int = 0) -> tuple[dict[int, Demand], int] | None:
        """Translate new requests made in this turn into the demands of a joint event on the hidden rows.

        ``lows[seat]`` / ``highs[seat]`` more cards asked from each end of a hand, ``slots``
        known centre slots, ``pool`` never-shown slots. Returns (demand per hidden seat,
        counted from the ends of the hand now, face-up cards included; pool slots), or
        ``None`` when the event is impossible whatever the hidden cards are (a known card
        of another value, more cards than a hand holds).
        """
        _args.card("value", value, ViewError)
        n, centre = self.view.rules.players, len(self.facts.table.centre_present)
        for name, d in (("lows", lows), ("highs", highs)):
            if not isinstance(d, dict):
                raise ViewError(f"{name}: expected a dict seat -> number of cards, got {type(d).__name__}")
            for k, c in d.items():
                self._seat(k, name)
                _args.int_in(name, c, 0, 12, ViewError, "a number of cards")
        try:
            slots = [_args.int_in("slots", x, 0, max(centre - 1, 0), ViewError, "a centre slot") for x in slots]
        except TypeError:
            raise ViewError(f"slots: expected centre slot numbers, got {type(slots).__name__}") from None
        _args.int_in("pool", pool, 0, 9, ViewError, "a number of slots")
        facts = self.facts
        table = facts.table
        for s in slots:
            if facts.known_slots.get(s) != value:
                return None
        out: dict[int, Demand] = {}
        for seat in set(lows) | set(highs):
            lo_used, hi_used = table.used(seat)
            a = lo_used + lows.get(seat, 0)
            b = hi_used + highs.get(seat, 0)
            if a + b > table.sizes[seat]:
                return None
            if seat == facts.seat:
                hand = facts.hand
                assert hand is not None
                if any(c != value for c in hand[:a]) or any(c != value for c in hand[len(hand) - b:]):
                    return None
            elif a or b:
                if self._row_index.get(seat) is None:
                    return None
                out[seat] = (a, b)
        if pool > len(facts.pool_slots):
            return None
        return out, pool

    def prob_all_show(self, value: int, requests: Iterable[Reveal]) -> float:
        """Probability that ``requests``, made one after the other from now in this turn, all show ``value``.

        Cards already face up in the turn must show ``value`` too (else 0). Requests
        must be legal in sequence (a centre slot at most once). Raises
        :class:`~trio_solver.errors.ViewError` for a value not 1 to 12, or requests that are not
        :class:`Reveal` s of seats and slots of this table.
        """
        _args.card("value", value, ViewError)
        if isinstance(requests, (str, bytes, dict)) or not isinstance(requests, Iterable):
            raise ViewError(f"requests: expected a sequence of Reveals, got {type(requests).__name__}")
        requests = list(itertools.islice(requests, 100))
        ncentre = len(self.facts.table.centre_present)
        for r in requests:
            _args.instance("requests", r, Reveal, ViewError)
            if r.is_centre and r.index >= ncentre:
                raise ViewError(f"requests: {r}: no centre slot {r.index} at this table")
            if not r.is_centre:
                self._seat(r.index, "requests")
        self._require()
        facts = self.facts
        table = facts.table
        if any(r.value != value for r in table.turn):
            return 0.0
        lo: dict[int, int] = {}
        hi: dict[int, int] = {}
        slots: set[int] = set()
        up, present = table.centre_up, table.centre_present
        for r in requests:
            if r.is_centre:
                if r.index in slots or up[r.index] or not present[r.index]:
                    return 0.0
                slots.add(r.index)
            elif r.kind == "lowest":
                lo[r.index] = lo.get(r.index, 0) + 1
            else:
                hi[r.index] = hi.get(r.index, 0) + 1
        known = [s for s in slots if s in facts.known_slots]
        got = self.demands(value, lo, hi, known, len(slots) - len(known))
        if got is None:
            return 0.0
        demands, pool = got
        if self.exact:
            return float(Fraction(self._joint_weight_exact(value, demands, pool)) / self._lat.Z)
        lows = np.zeros((1, self.n_rows), dtype=np.int64)
        highs = np.zeros((1, self.n_rows), dtype=np.int64)
        for seat, (a, b) in demands.items():
            lows[0, self._row_index[seat]] = a
            highs[0, self._row_index[seat]] = b
        return float(self.joint_batch(value, lows, highs, np.array([pool]))[0])

    # -- sampling -----------------------------------------------------------------------------
    def rows(self) -> list[Row]:
        """The hidden rows in the order of the count matrices the sampler draws (see :attr:`packed`)."""
        lat = self._lat
        return lat.explicit + ([lat.implicit] if lat.implicit is not None else [])

    @property
    def packed(self) -> Packed:
        """The lattice as the compiled sampler reads it (:func:`trio_solver.kernel.draw_state`)."""
        return self._lat.packed

    def sample(self, rng: random.Random) -> Placement:
        """One complete placement of the cards now in play, drawn exactly from the posterior by the
        compiled sampler, its generator keyed by 64 bits of ``rng``
        (:class:`~trio_solver.errors.ViewError` unless ``rng`` is a :class:`random.Random`)."""
        _args.rng("rng", rng, ViewError)
        self._require()
        facts = self.facts
        lat = self._lat
        p = lat.packed
        m = np.zeros((lat.R + 1, 13), np.int64)
        bits = np.zeros(max(lat.F, 1), np.int64)
        state = kernel.stream(np.uint64(rng.getrandbits(64)), 0)
        ints = p.ints
        states, transitions = int(ints[2]), int(ints[3])
        strides, final, comp_off, rest, phi, avoid_off, placed = kernel.unpack(ints)
        kernel.sample_counts(p.floats[:13 * states].reshape(13, states), strides, lat.R, lat.F, final, comp_off,
                             p.comp_x, rest, phi, p.floats[13 * states:13 * states + transitions], avoid_off,
                             p.avoid, float(p.floats[-1]), placed, state, m, bits)
        order = self.rows()
        n = self.view.rules.players
        hands: list[tuple[int, ...]] = [()] * n
        centre: list[int | None] = [None] * len(facts.table.centre_present)
        for row, counts in zip(order, m):
            cards = [v for v in VALUES for _ in range(counts[v])]
            if row.key == POOL:
                rng.shuffle(cards)
                for slot, v in zip(facts.pool_slots, cards):
                    centre[slot] = v
            else:
                hands[row.key] = tuple(cards)
        if facts.seat is not None and facts.hand is not None:
            hands[facts.seat] = facts.hand
        for slot, v in facts.known_slots.items():
            centre[slot] = v
        swaps = tuple((t.event, (int(bits[2 * t.index]), int(bits[2 * t.index + 1]))) for t in facts.tracked)
        return Placement(tuple(hands), tuple(centre), swaps)

    # -- words -------------------------------------------------------------------------------------
    def _repr_html_(self) -> str:
        """The position and the chances of each card, in a notebook (:func:`trio_solver.report.notebook.beliefs_html`)."""
        return html_of(self)

    def deductions(self) -> list[str]:
        """Certain facts in words: ``"slot 4 is a 9"``, ``"seat 1 holds no 1, 2 or 3"`` ..."""
        self._require()
        out: list[str] = []
        facts = self.facts
        for slot, dist in sorted(self.centre().items()):
            if slot in facts.known_slots:
                continue
            if len(dist) == 1:
                out.append(f"slot {slot} is {article(next(iter(dist)))} {next(iter(dist))}")
        for seat in self.hidden_seats():
            cd = self.count_distribution(seat)
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
                d = self.end(Reveal(kind, seat))
                if len(d) == 1:
                    out.append(f"seat {seat}'s {kind} card is {article(next(iter(d)))} {next(iter(d))}")
        return out

    # -- everything at once --------------------------------------------------------------------------
    @classmethod
    def from_json(cls, data: Any) -> Beliefs:
        """The beliefs of the position in ``data["view"]`` (the form of ``to_json(view=True)``);
        raises :class:`~trio_solver.errors.RecordError` for a document that is not one (``exact``
        must be ``true`` or ``false``, ``swap_budget`` and ``read`` as :class:`Beliefs` takes them)."""
        from .._json import fail
        if not isinstance(data, dict) or "view" not in data:
            fail("beliefs", "expected the object of Beliefs.to_json(view=True), with its 'view'")
        budget = data.get("swap_budget", STATE_BUDGET)
        try:
            return cls(PlayerView.from_json(data["view"]), exact=data.get("exact", False), swap_budget=budget,
                       read=data.get("read"))
        except ViewError as e:
            fail("beliefs", str(e))

    def to_json(self, after: int | None = None, *, view: bool = False) -> dict[str, Any]:
        """The ``beliefs`` JSON of docs/INTERFACE.md; ``view=True`` adds the position itself (``"view"``,
        with ``"swap_budget"``, ``"exact"`` and ``"read"``), so that :meth:`from_json` can rebuild these beliefs.
        ``after`` is the number of events shown in the answer (default: the view's); a bad ``after`` or
        ``view`` raises :class:`~trio_solver.errors.ViewError`."""
        if after is not None:
            _args.int_in("after", after, 0, 10**6, ViewError, "a number of events")
        _args.boolean("view", view, ViewError)
        out = self._answers(after)
        if view:
            out["view"] = self.view.to_json()
            out["swap_budget"] = self.swap_budget
            out["exact"] = self.exact
            out["read"] = self.read
        return out

    def _answers(self, after: int | None) -> dict[str, Any]:
        self._require()
        view = self.view
        table = self.facts.table
        lowest: dict[str, dict[str, float]] = {}
        highest: dict[str, dict[str, float]] = {}
        for s in range(view.rules.players):
            if table.accessible(s) > 0:
                lowest[str(s)] = _keyed(self.lowest(s))
                highest[str(s)] = _keyed(self.highest(s))
        hands = {
            str(s): {"size": table.sizes[s], "expected": _keyed(self.expected(s))} for s in self.hidden_seats()
        }
        return {
            "seat": view.seat,
            "after": len(view.events) if after is None else after,
            "to_move": view.to_move,
            "approximate": self.approximate,
            "centre": {str(k): _keyed(v) for k, v in self.centre().items()},
            "lowest": lowest,
            "highest": highest,
            "hands": hands,
            "deductions": self.deductions(),
        }


def _keyed(d: dict[int, float]) -> dict[str, float]:
    return {str(k): v for k, v in sorted(d.items()) if v > 0}


def _join(values: Sequence[int]) -> str:
    words = [str(v) for v in values]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _copies(c: int, v: int) -> str:
    return f"{['no', 'one', 'two', 'three'][c]} {v}{'s' if c > 1 else ''}"
