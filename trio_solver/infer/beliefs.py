"""Exact beliefs about the hidden cards, from one player's view: the questions and their answers.

The posterior is over count matrices: how many cards of each value every hidden
row (a hand the viewer cannot see, the pool of centre slots never shown) holds
now. Under a uniformly shuffled deck a matrix weighs ``prod_v r_v! / prod_i
c_iv!`` (the number of physical deals behind it, up to a constant; see the prior
note in docs/INTERFACE.md, "beliefs"), and every public fact is a bound on a row's cumulative
count ``C_i(u)`` (:mod:`trio_solver.infer.facts`).

Because the bounds are on cumulative counts, the matrices form paths through a
lattice, whose forward and backward tables (:mod:`trio_solver.infer.lattice`) sum
the hundreds of millions of matrices of an early 3-player position in
milliseconds, exactly, without listing them. :class:`Beliefs` asks them
everything the library needs:

* the distribution of a row's cumulative count after each value gives the card a
  request for either end of a hand would show now, at any depth;
* the transitions at value ``v`` give the distribution of a cell's count, the
  expected counts, and the joint probability that several requests in one turn
  all show ``v`` (what the advisor needs);
* walking the forward table backwards samples complete deals exactly.

With ``exact=True`` the same code runs on Python integers (numpy object arrays)
and :attr:`Beliefs.total_weight` is the exact weighted count of the matrices,
which the tests compare with a python-constraint enumeration. The words and the
JSON of the answers are :mod:`trio_solver.infer.answers`'.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np

from .. import _args, kernel, limits
from .._display import html_of
from .._json import fail
from ..errors import ViewError
from ..game.reveal import Reveal
from ..game.rules import VALUES
from ..game.view import PlayerView
from . import answers
from .facts import MAX_STATE_BUDGET, POOL, STATE_BUDGET, Row, extract
from .lattice import Lattice, Packed

__all__ = ["Beliefs", "Placement", "Demand", "Packed"]


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


_UNSET: Any = object()  # a keyword not given

#: A demand on one hidden row in a joint event: (lowest cards, highest cards) that must show the value.
Demand = tuple[int, int]


class Beliefs:
    """The viewer's exact posterior over the hidden cards.

    ``Beliefs(view)`` builds the model; every query is then cheap. All
    probabilities are exact Bayes posteriors under a uniform shuffle (and, in team
    play, swap cards chosen uniformly from their hands). Each secret swap that
    matters multiplies the lattice by four; ``state_budget`` bounds its number of
    states, and beyond it the oldest secret swaps are relaxed: :attr:`approximate` is then
    true and the probabilities come from a sound relaxation (never excluding a
    possible deal) whose error can reach a few tenths.
    """

    def __init__(self, view: PlayerView, *, exact: bool = False, state_budget: int = STATE_BUDGET,
                 deadline: limits.Deadline | float | None = None, read: float | None = None,
                 swap_budget: Any = _UNSET, _drop: frozenset[int] = frozenset()) -> None:
        """Build the model of ``view``'s beliefs.

        ``deadline`` (a :class:`~trio_solver.limits.Deadline` or seconds from now) bounds the
        construction, as does any active :func:`~trio_solver.limits.time_limit` (which also bounds
        the later queries). Raises :class:`~trio_solver.errors.ViewError` for a ``view`` that is not
        a :class:`PlayerView`, ``exact`` not a bool or ``state_budget`` outside 1 to
        ``MAX_STATE_BUDGET`` or ``read`` not ``None`` or a number in (0, 1];
        :class:`~trio_solver.errors.LimitError` when the deadline passes.

        ``swap_budget`` is the old name of ``state_budget``, still accepted (errors then name it).

        ``read`` reads the other players' choices under a model of their play
        (:func:`~trio_solver.infer.facts.extract`): each deal is weighed by ``read`` for every choice it
        makes unlikely. The beliefs are then no longer the exact public posterior, but the
        posterior under that model (``None``, the default: the exact public posterior).
        """
        if not isinstance(view, PlayerView):
            raise ViewError(f"view: expected a PlayerView, got {type(view).__name__}")
        _args.boolean("exact", exact, ViewError)
        budget_name = "state_budget"
        if swap_budget is not _UNSET:
            if state_budget != STATE_BUDGET:
                raise ViewError("swap_budget: the old name of state_budget; give one of them")
            state_budget, budget_name = swap_budget, "swap_budget"
        if not isinstance(state_budget, int) or isinstance(state_budget, bool) \
                or not 1 <= state_budget <= MAX_STATE_BUDGET:
            raise ViewError(f"{budget_name}: expected 1 to {MAX_STATE_BUDGET}, got {_args.show(state_budget)}")
        read = _args.read_weight("read", read, ViewError)
        limit = limits.as_deadline(deadline)
        self.view = view
        #: The most lattice states for which secret swaps are tracked exactly.
        self.state_budget = state_budget
        self.facts = extract(view, drop=_drop, budget=state_budget, read=read)
        self._lat = Lattice(self.facts, exact, deadline=limit)
        self._lat.deadline = None  # later queries: only an active time_limit bounds them
        self.exact = exact
        self._row_index = {r.key: i for i, r in enumerate(self._lat.rows)}

    @property
    def swap_budget(self) -> int:
        """The old name of :attr:`state_budget`."""
        return self.state_budget

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
        return bool(self._lat.total_weight)

    def placement_count(self) -> int:
        """How many count matrices (placements of values, hands unordered, unseen slots pooled)
        still fit: the number the model sums over without listing (exact integer)."""
        return int(Lattice(self.facts, True, unit=True).total_weight)

    @property
    def total_weight(self) -> int | Fraction | float:
        """The weighted number of count matrices that fit: with ``exact=True`` an exact Python integer (a
        :class:`~fractions.Fraction` when opponents are read by their policy, ``read``), else a float."""
        return self._lat.total_weight

    def _p(self, w: Any) -> float:
        if self.exact:
            return float(Fraction(w) / Fraction(self._lat.total_weight))  # exact: an integer or a fraction
        return float(w / self._lat.total_weight)

    def _require(self) -> None:
        if not self._lat.total_weight:
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
        noise = 0 if self.exact else 1e-12 * self._lat.total_weight
        for v in VALUES:
            cur = self._cdf(seat, v, position)
            w = prev - cur
            if w > noise:
                out[v] = self._p(w)
            prev = cur
        return out

    def end(self, reveal: Reveal) -> dict[int, float]:
        """Distribution of the card ``reveal`` would show now; ``{}`` if none is there (a centre card taken, a
        hand with no card left to ask for).

        Raises :class:`~trio_solver.errors.ViewError` for a reveal of a seat or a slot not at the table."""
        if self.view.at_table(reveal).is_centre:
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
        nrows = self.n_rows
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
        return len(self._lat.rows)

    def joint_batch(self, value: int, lows: np.ndarray, highs: np.ndarray, pool: np.ndarray) -> np.ndarray:
        """Probabilities of many joint events at once (float model only).

        Row ``d`` asks that, for every hidden row ``i``, its ``lows[d, i]`` lowest and
        ``highs[d, i]`` highest cards (counted from the ends of the hand now, face-up
        cards of this turn included) all show ``value``, and that ``pool[d]`` distinct
        never-shown centre slots all hold ``value``. Arrays are indexed by
        :meth:`row_of_seat`. Raises :class:`~trio_solver.errors.ViewError` for a value that is not a card
        value or arrays of other shapes.
        """
        entry = self._entries.get(int(value)) if _args.is_int(value) or isinstance(value, np.integer) else None
        if entry is None:
            raise ViewError(f"value: expected a card value 1 to 12, got {_args.show(value)}")
        X, C, W = entry
        if not (isinstance(lows, np.ndarray) and isinstance(highs, np.ndarray) and isinstance(pool, np.ndarray)
                and lows.ndim == highs.ndim == 2 and lows.shape == highs.shape and pool.shape == (len(lows),)
                and lows.shape[1] == X.shape[1]):
            raise ViewError(f"joint_batch: expected lows and highs of shape (D, {X.shape[1]}) and pool of shape (D,)")
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
        return np.asarray((weights * allok).sum(axis=1) / float(self._lat.total_weight))

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
            return float(Fraction(self._joint_weight_exact(value, demands, pool)) / self._lat.total_weight)
        lows = np.zeros((1, self.n_rows), dtype=np.int64)
        highs = np.zeros((1, self.n_rows), dtype=np.int64)
        for seat, (a, b) in demands.items():
            lows[0, self._row_index[seat]] = a
            highs[0, self._row_index[seat]] = b
        return float(self.joint_batch(value, lows, highs, np.array([pool]))[0])

    # -- sampling -----------------------------------------------------------------------------
    def rows(self) -> list[Row]:
        """The hidden rows in the order of the count matrices the sampler draws (see :attr:`packed`)."""
        return list(self._lat.rows)

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
        m = np.zeros((lat.n_explicit + 1, 13), np.int64)
        bits = np.zeros(max(lat.n_flags, 1), np.int64)
        state = kernel.stream(np.uint64(rng.getrandbits(64)), 0)
        ints = p.ints
        states, transitions = int(ints[2]), int(ints[3])
        strides, final, comp_off, rest, phi, avoid_off, placed = kernel.unpack(ints)
        kernel.sample_counts(p.floats[:13 * states].reshape(13, states), strides, lat.n_explicit, lat.n_flags, final, comp_off,
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

    # -- words and JSON -------------------------------------------------------------------------------------
    def _repr_html_(self) -> str:
        """The position and the chances of each card, in a notebook (:func:`trio_solver.report.notebook.beliefs_html`)."""
        return html_of(self)

    def deductions(self) -> list[str]:
        """Certain facts in words: ``"slot 4 is a 9"``, ``"seat 1 holds no 1, 2 or 3"`` ..."""
        self._require()
        return answers.deductions(self)

    @classmethod
    def from_json(cls, data: Any) -> Beliefs:
        """The beliefs of the position in ``data["view"]`` (the form of ``to_json(view=True)``);
        raises :class:`~trio_solver.errors.RecordError` for a document that is not one (``exact``
        must be ``true`` or ``false``, ``swap_budget`` (the state budget) and ``read`` as :class:`Beliefs`
        takes them)."""
        if not isinstance(data, dict) or "view" not in data:
            fail("beliefs", "expected the object of Beliefs.to_json(view=True), with its 'view'")
        budget = data.get("swap_budget", STATE_BUDGET)  # the document's key, which its errors name
        try:
            return cls(PlayerView.from_json(data["view"]), exact=data.get("exact", False), swap_budget=budget,
                       read=data.get("read"))
        except ViewError as e:
            fail("beliefs", str(e))

    def to_json(self, after: int | None = None, *, view: bool = False) -> dict[str, Any]:
        """The ``beliefs`` JSON of docs/INTERFACE.md; ``view=True`` adds the position itself (``"view"``,
        with ``"swap_budget"`` (:attr:`state_budget`), ``"exact"`` and ``"read"``), so that :meth:`from_json` can rebuild these beliefs.
        ``after`` is the number of events shown in the answer (default: the view's); a bad ``after`` or
        ``view`` raises :class:`~trio_solver.errors.ViewError`."""
        if after is not None:
            _args.int_in("after", after, 0, 10**6, ViewError, "a number of events")
        _args.boolean("view", view, ViewError)
        self._require()
        out = answers.answers(self, after)
        if view:
            out["view"] = self.view.to_json()
            out["swap_budget"] = self.state_budget
            out["exact"] = self.exact
            out["read"] = self.read
        return out
