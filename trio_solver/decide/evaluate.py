"""Game-level evaluation: each seat's chance to win the game, and advice that plays for the game.

From one seat's view (its hand and the public history; or a spectator's), the
chance that each side wins is estimated by playing the game to its end from
``samples`` deals drawn **exactly** from the posterior
(:meth:`trio_solver.infer.beliefs.Beliefs.sample`), every player following the rollout
model of :mod:`trio_solver.decide.rollout` (perfect memory and its own hand; starts the
turn with the reveal likeliest to give a trio and guesses the likeliest places, by
counting cards; deterministic; about as strong as ``solver``). The
estimate is the share of playouts each side wins, with its standard error; the
only randomness is the posterior sample, drawn from generators derived from
``seed``, so one seed gives the same figures everywhere.

In team play a win belongs to the team: ``win_chance[s]`` is the chance that the
team of seat ``s`` wins, the same for both partners, so the chances of the teams
(one seat per team) add up to 1. Without teams the chances of the seats add up to 1.

:func:`advise_game` ranks every legal reveal by the mover's chance to win the game
(``p_game``). It uses *common random numbers*: every candidate reveal is played out
on the same posterior deals, so the difference between two reveals is measured on
the same cards and is far less noisy than either estimate. After the candidate
reveal the mover finishes its turn with the exact advisor's plan for the value
shown (the best continuation for a trio); the rest of the game follows the model.
The turn's own outcome is not left to the samples: its chances (fail, trio, win)
are the advisor's exact ``p_trio`` and ``p_win``, and the playouts only estimate the
chance to win the game after each outcome (post-stratification, :class:`Tally`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .. import _args, kernel, limits
from ..infer.beliefs import Beliefs
from ..errors import ViewError
from ..infer.facts import POOL
from .rollout import (DEFAULT_POLICY, PublicMemory, Sim, public_memory, rules_array, state_array, to_action,
                      turn_actions)
from ..game.reveal import Reveal
from .search import Advice, Evaluation, advise
from .stopping import DEFAULT_CONFIDENCE, MAX_DEALS, Stopping
from ..game.view import PlayerView
from ..words import article, pm
from ..words import percent as _pct

__all__ = ["GameEvaluation", "evaluate", "advise_game", "DEFAULT_SAMPLES", "DEFAULT_ADVISE_SAMPLES",
           "default_advise_samples", "DEFAULT_PRECISION", "DEFAULT_MARGIN", "MAX_SAMPLES", "Posterior", "Tally",
           "Race", "distinct_moves", "explain", "plan_array", "deal_chunks", "playouts_played", "playout_tally",
           "playout_tallies", "paired_gap", "swap_outcomes", "ranking_settled", "RANKING_REACH"]

#: The most playouts :func:`evaluate` plays by default (it stops sooner once precise enough).
DEFAULT_SAMPLES = 4000
#: :func:`evaluate` stops once every side's standard error is at most this.
DEFAULT_PRECISION = 0.02
#: The most posterior deals per candidate reveal of :func:`advise_game` by default at 3 players (see
#: :func:`default_advise_samples`).
DEFAULT_ADVISE_SAMPLES = 2048
#: Two reveals whose chances to win the game differ by less than this count as equally good.
DEFAULT_MARGIN = 0.01
#: The most playouts one call may ask for.
MAX_SAMPLES = MAX_DEALS


def default_advise_samples(players: int) -> int:
    """The most posterior deals per reveal of :func:`advise_game` by default: :data:`DEFAULT_ADVISE_SAMPLES`
    at 3 players, scaled by 3/players with more (1536 at 4, 1228 at 5, 1024 at 6). A playout is about
    players/3 times as long, so a deal costs about the same time at every table size."""
    return DEFAULT_ADVISE_SAMPLES * 3 // max(players, 3)


def _check_samples(samples: object) -> int:
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= MAX_SAMPLES:
        raise ViewError(f"samples: expected a whole number from 1 to {MAX_SAMPLES}, got {_args.show(samples)}")
    return samples


def _check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ViewError(f"seed: expected a whole number, got {_args.show(seed)}")
    return seed


@dataclass(frozen=True)
class GameEvaluation:
    """The chance that each seat (its team, in team play) wins the game, from one view.

    ``win_chance[s]`` and ``stderr[s]`` are per seat; in team play both partners carry
    their team's chance. ``samples`` is the number of playouts (0 when the game is over
    and the answer is exact). ``approximate`` is set when the beliefs behind the samples
    relaxed secret swaps (see :class:`~trio_solver.infer.beliefs.Beliefs`).
    """

    seat: int | None
    to_move: int
    win_chance: tuple[float, ...]
    stderr: tuple[float, ...]
    samples: int
    approximate: bool = False

    def to_json(self, after: int | None = None) -> dict[str, Any]:
        """The ``evaluate`` JSON of docs/INTERFACE.md (``after`` defaults to ``None`` when not given)."""
        return {
            "seat": self.seat,
            "after": after,
            "to_move": self.to_move,
            "win_chance": {str(s): round(p, 12) for s, p in enumerate(self.win_chance)},
            "stderr": {str(s): round(e, 12) for s, e in enumerate(self.stderr)},
            "samples": self.samples,
        }


class Posterior:
    """Deals drawn exactly from a view's posterior by the compiled kernel, shared by every candidate
    (common random numbers): deal ``j`` of a seed is the same whichever batch draws it."""

    def __init__(self, view: PlayerView, beliefs: Beliefs | None = None, policy: str = DEFAULT_POLICY) -> None:
        """The deals of ``view``'s posterior (``beliefs``: its beliefs, built if ``None``), played out by
        the rollout ``policy`` (:data:`trio_solver.decide.rollout.POLICIES`)."""
        b = beliefs if beliefs is not None else Beliefs(view)
        if not b.consistent:
            raise ViewError("no deal fits this view: the record contradicts itself")
        self.view = view
        self.beliefs = b
        self.memory: PublicMemory = public_memory(view)
        self.rules = rules_array(view.rules, policy)
        facts = b.facts
        hands: list[list[int]] = [[0] * n for n in facts.table.sizes]
        if facts.seat is not None and facts.hand is not None:
            hands[facts.seat] = list(facts.hand)
        centre = [facts.known_slots.get(i, 0) if here else None for i, here in enumerate(facts.table.centre_present)]
        self.base = state_array(view, self.memory, hands, centre)
        self.turn = turn_actions(self.memory)
        self.rows = np.array([r.key for r in b.rows()], dtype=np.int64)
        self.pool_slots = np.array(facts.pool_slots, dtype=np.int64)
        self.packed = b.packed
        self.deal_map: np.ndarray | None = None

    def follow(self, deal_map: Sequence[int] | np.ndarray) -> None:
        """Play position ``j`` of every later call on deal ``deal_map[j % len(deal_map)]`` instead of deal
        ``j`` (deals resampled by weight, :meth:`trio_solver.decide.reading.PolicyReading.resample`); the
        map is copied. Raises :class:`~trio_solver.errors.ViewError` unless it is a non-empty list of
        whole numbers from 0 to :data:`MAX_SAMPLES`."""
        items: list[object] = []
        if isinstance(deal_map, np.ndarray) and deal_map.dtype.kind in "iu" and deal_map.ndim == 1:
            items = [int(x) for x in deal_map]
        elif isinstance(deal_map, (list, tuple)):
            items = list(deal_map)
        if not items or not all(type(x) is int and 0 <= x <= MAX_SAMPLES for x in items):
            raise ViewError(f"deal_map: expected a non-empty list of deal numbers from 0 to {MAX_SAMPLES}, "
                            f"got {_args.show(deal_map)}")
        self.deal_map = np.array(items, dtype=np.int64)

    def _deals(self, part: range) -> np.ndarray:
        """The deal indices behind the positions ``part``."""
        idx = _indices(part)
        return idx if self.deal_map is None else self.deal_map[idx % len(self.deal_map)]

    def _args(self, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                        np.ndarray, np.ndarray, np.ndarray, np.uint64]:
        """The kernel's arguments that draw the deals of ``seed``: the packed lattice, the viewer's
        state, the rules, the hidden rows, the never-seen slots, the turn in progress, the seed."""
        p = self.packed
        return (p.floats, p.ints, p.comp_x, p.avoid, self.base, self.rules, self.rows, self.pool_slots, self.turn,
                kernel.seed64(seed))

    def sim(self, seed: int, index: int) -> Sim:
        """The state behind posterior deal ``index`` of ``seed``."""
        st = kernel.draw_state(*self._args(seed), int(self._deals(range(index, index + 1))[0]))
        return Sim(self.view.rules, self.rules, st)

    def outcomes(self, seed: int, deals: range) -> np.ndarray:
        """Each side's result (1 won, 0 lost, a draw split evenly) of the rollout model's game on each deal."""
        out = np.zeros((len(deals), len(self.view.rules.teams_of_seats)))
        for part in deal_chunks(deals):
            limits.check("evaluate")
            x = np.zeros((len(part), out.shape[1]))
            kernel.run_outcomes(*self._args(seed), self._deals(part), x)
            out[part.start - deals.start:part.stop - deals.start] = x
            _count(len(part))
        return out

    def play(self, evaluations: Sequence[Evaluation], seed: int, deals: range) -> tuple[np.ndarray, np.ndarray]:
        """Each evaluation played out on each deal (see :func:`playout_tallies`): the strata (0 the turn
        failed, 1 a trio, 2 the game won) and the results (1 when the mover's side won the game)."""
        firsts = np.array([kernel.encode(*to_action(e.reveal)) for e in evaluations], dtype=np.int64)
        plans = np.stack([plan_array(e) for e in evaluations]) if evaluations else np.zeros((0, 13, 2), np.int64)
        strata = np.zeros((len(evaluations), len(deals)), np.int64)
        results = np.zeros((len(evaluations), len(deals)))
        for part in deal_chunks(deals):
            limits.check("advise for the game")
            a, b = part.start - deals.start, part.stop - deals.start
            h, x = np.zeros((len(evaluations), b - a), np.int64), np.zeros((len(evaluations), b - a))
            _count(kernel.run_tallies(*self._args(seed), self._deals(part), firsts, plans, h, x))
            strata[:, a:b], results[:, a:b] = h, x
        return strata, results

    def swaps(self, gives: Sequence[int | None], seed: int, deals: range) -> np.ndarray:
        """At a swap moment, for each card the viewer may give (``None``: no swap) and each deal: 1 if the
        viewer's side wins (see :func:`swap_outcomes`)."""
        seat = self.view.seat
        assert seat is not None
        codes = np.array([-1 if g is None else g for g in gives], dtype=np.int64)
        out = np.zeros((len(gives), len(deals)))
        for part in deal_chunks(deals):
            limits.check("the swap search")
            a, b = part.start - deals.start, part.stop - deals.start
            x = np.zeros((len(gives), b - a))
            kernel.run_swaps(*self._args(seed), self._deals(part), seat, codes, x)
            out[:, a:b] = x
            _count(len(part) * len(gives))
        return out


#: Deals per call of the kernel: between two calls the active time limit is checked.
CHUNK = 256
_PLAYED = [0]


def deal_chunks(deals: range) -> list[range]:
    """``deals`` (a range of step 1) cut into parts of at most :data:`CHUNK`: one call of the kernel each,
    the active time limit checked between them."""
    return [range(a, min(a + CHUNK, deals.stop)) for a in range(deals.start, deals.stop, CHUNK)]


def _count(n: int) -> None:
    _PLAYED[0] += n


def playouts_played() -> int:
    """How many playouts this process has played so far (for measurements and tests)."""
    return _PLAYED[0]


def _indices(deals: range) -> np.ndarray:
    return np.arange(deals.start, deals.stop, deals.step, dtype=np.int64)


def plan_array(e: Evaluation) -> np.ndarray:
    """The advisor's plan as the kernel reads it: ``plan[v, k]`` the ``k``-th reveal after the first once
    it showed ``v`` (-1: none, the rollout model decides)."""
    out = np.full((13, 2), -1, np.int64)
    for step in e.plan:
        for k, r in enumerate(step.then[:2]):
            out[step.value, k] = kernel.encode(*to_action(r))
    return out


def _exact(view: PlayerView) -> GameEvaluation:
    rules = view.rules
    assert view.winner is not None
    team = rules.team_of(view.winner)
    chance = tuple(1.0 if rules.team_of(s) == team else 0.0 for s in range(rules.players))
    return GameEvaluation(view.seat, view.to_move, chance, (0.0,) * rules.players, 0)


def evaluate(view: PlayerView, *, samples: int = DEFAULT_SAMPLES, seed: int = 0,
             precision: float = DEFAULT_PRECISION) -> GameEvaluation:
    """Each seat's chance to win the game from ``view``, under the rollout model, with standard errors.

    Playouts are drawn in batches (the first of :data:`FIRST_BATCH`, then each up to the number the
    variance so far says is needed, between an eighth more and twice as many) until every side's
    standard error is at most ``precision`` or ``samples`` playouts were played (``precision=0``:
    exactly ``samples``, in doubling batches). Exact (standard error 0, ``samples`` 0) once the game is
    over. Raises :class:`~trio_solver.errors.ViewError` for a bad ``samples``/``seed``/``precision`` or
    a view no deal fits.
    """
    _args.instance("view", view, PlayerView, ViewError)
    samples = _check_samples(samples)
    seed = _check_seed(seed)
    precision = _args.number_in("precision", precision, 0.0, 0.5, ViewError)
    if view.over:
        return _exact(view)
    post = Posterior(view)
    rules = view.rules
    chunks: list[np.ndarray] = []
    n = 0
    target = min(FIRST_BATCH, samples)
    while True:
        limits.check("evaluate")
        chunks.append(post.outcomes(seed, range(n, target)))
        x = np.concatenate(chunks)
        n = len(x)
        mean = x.mean(axis=0)
        var = x.var(axis=0, ddof=1) if n > 1 else mean * (1 - mean)
        se = np.sqrt(var / n)
        if n >= samples or (precision > 0 and n > 1 and float(se.max()) <= precision):
            break
        target = min(_next_target(n, float(var.max()) if n > 1 else 0.25, precision), samples)
    chance = tuple(float(mean[rules.team_of(s)]) for s in range(rules.players))
    err = tuple(float(se[rules.team_of(s)]) for s in range(rules.players))
    return GameEvaluation(view.seat, view.to_move, chance, err, n, post.beliefs.approximate)


#: :func:`evaluate`'s first batch of playouts.
FIRST_BATCH = 64


def _next_target(n: int, variance: float, precision: float) -> int:
    """How many playouts :func:`evaluate` should have after ``n`` with the largest ``variance`` so far: the
    number that would bring the standard error to ``precision`` (a twentieth more, since the variance is
    itself an estimate), at least an eighth more than ``n`` and at most twice ``n``."""
    square = precision * precision
    if 1.05 * variance >= 2 * n * square:  # twice n or more is needed (or the precision is 0, or so small
        return 2 * n                       # that its square is 0): twice n
    need = math.ceil(1.05 * variance / square)
    return min(max(need, n + max(n // 8, 1)), 2 * n)


FAIL, TRIO, WIN = 0, 1, 2


class Tally:
    """Playout results of one candidate reveal, deal by deal, by what its own turn did (fail / trio / win).

    :meth:`estimate` post-stratifies: the chances of the three outcomes of the turn are
    known exactly from the advisor (``1 - p_trio``, ``p_trio - p_win``, ``p_win``), so
    only the chance to win the game *after* a failed turn and after a non-winning trio
    is estimated from the playouts. This removes the noise of the turn itself, the
    largest part of the variance when candidates differ in ``p_trio``.
    """

    def __init__(self) -> None:
        self._deals: list[np.ndarray] = []
        self._strata: list[np.ndarray] = []
        self._results: list[np.ndarray] = []
        # figures of the playouts counted so far, found once (the races ask for them after every batch)
        self._counts: tuple[list[int], list[float], np.ndarray] | None = None
        self._figures: dict[tuple[float, float], tuple[tuple[float, float], np.ndarray]] = {}
        self._ascending: bool | None = None

    @classmethod
    def empty(cls) -> Tally:
        return cls()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tally):
            return NotImplemented
        return all(np.array_equal(a, b) for a, b in ((self.deals, other.deals), (self.strata, other.strata),
                                                        (self.results, other.results)))

    __hash__ = None  # type: ignore[assignment]

    def extend(self, deals: Sequence[int] | np.ndarray, strata: Sequence[int] | np.ndarray,
               results: Sequence[float] | np.ndarray) -> None:
        """Count playouts: on posterior deal ``deals[k]``, the turn ended in ``strata[k]`` and the game
        ``results[k]`` (1 won, 0 lost)."""
        self._deals.append(np.asarray(deals, dtype=np.int64))
        self._strata.append(np.asarray(strata, dtype=np.int64))
        self._results.append(np.asarray(results, dtype=np.float64))
        if len(self._deals) > 1:
            self._deals = [np.concatenate(self._deals)]
            self._strata = [np.concatenate(self._strata)]
            self._results = [np.concatenate(self._results)]
        self._counts = None
        self._figures = {}
        self._ascending = None

    def add(self, stratum: int, x: float, deal: int) -> None:
        """Count one playout (see :meth:`extend`)."""
        self.extend([deal], [stratum], [x])

    @property
    def deals(self) -> np.ndarray:
        return self._deals[0] if self._deals else np.zeros(0, np.int64)

    @property
    def strata(self) -> np.ndarray:
        return self._strata[0] if self._strata else np.zeros(0, np.int64)

    @property
    def results(self) -> np.ndarray:
        return self._results[0] if self._results else np.zeros(0)

    def _stratum_counts(self) -> tuple[list[int], list[float], np.ndarray]:
        """Per stratum: playouts, games won, and the sum of the squared results."""
        if self._counts is None:
            h, x = self.strata, self.results
            self._counts = ([int(c) for c in np.bincount(h, minlength=3)],
                            [float(c) for c in np.bincount(h, weights=x, minlength=3)],
                            np.bincount(h, weights=x ** 2, minlength=3))
        return self._counts

    @property
    def n(self) -> list[int]:
        """Playouts per stratum."""
        return list(self._stratum_counts()[0])

    @property
    def total(self) -> list[float]:
        """Games won per stratum."""
        return list(self._stratum_counts()[1])

    def ascending(self) -> bool:
        """Whether :attr:`deals` are in increasing order (as the batches of a race draw them)."""
        if self._ascending is None:
            d = self.deals
            self._ascending = bool(np.all(d[1:] > d[:-1]))
        return self._ascending

    @property
    def samples(self) -> int:
        return len(self.deals)

    def mean(self) -> float:
        """The plain share of playouts won."""
        return float(self.results.mean()) if self.samples else 0.0

    def estimate(self, p_trio: float, p_win: float) -> tuple[float, float]:
        """The post-stratified chance to win the game and its standard error (a stratum's variance at least that
        of a win or a loss at its chance shrunk by one won and one lost game: see :meth:`_estimate`)."""
        return self._figures_at(p_trio, p_win)[0]

    def influence(self, p_trio: float, p_win: float) -> np.ndarray:
        """Each deal's term in the linearised post-stratified estimate: ``w_h / n_h * (x - mean_h)``
        (0 in the winning stratum, whose chance is exact), in the order of :attr:`deals` (read only)."""
        return self._figures_at(p_trio, p_win)[1]

    def _figures_at(self, p_trio: float, p_win: float) -> tuple[tuple[float, float], np.ndarray]:
        """:meth:`estimate` and :meth:`influence` for these chances of the turn, found once per batch."""
        key = (p_trio, p_win)
        got = self._figures.get(key)
        if got is None:
            influence = self._influence(p_trio, p_win)
            influence.flags.writeable = False
            got = self._figures[key] = (self._estimate(p_trio, p_win), influence)
        return got

    def _estimate(self, p_trio: float, p_win: float) -> tuple[float, float]:
        weights = _weights(p_trio, p_win)
        n, total, squares = self._stratum_counts()
        pooled_n = n[FAIL] + n[TRIO]
        pooled = (total[FAIL] + total[TRIO]) / pooled_n if pooled_n else 0.5
        m = weights[WIN]  # a winning turn wins the game
        var = 0.0
        for h in (FAIL, TRIO):
            w = weights[h]
            if w <= 0:
                continue
            k = n[h]
            if k == 0:
                m += w * pooled
                var += w * w * 0.25
                continue
            mh = total[h] / k
            vh = (float(squares[h]) / k - mh * mh) * k / (k - 1) if k > 1 else 0.25
            # at least the variance of a win or a loss at the stratum's chance shrunk towards one half by one
            # won and one lost game: a stratum whose few deals all lost (or all won) is not exact
            shrunk = (total[h] + 1) / (k + 2)
            m += w * mh
            var += w * w * max(vh, shrunk * (1 - shrunk)) / k
        return min(max(m, 0.0), 1.0), math.sqrt(var)

    def _influence(self, p_trio: float, p_win: float) -> np.ndarray:
        weights = np.array(_weights(p_trio, p_win))
        counts, total, _ = self._stratum_counts()
        n = np.array(counts, dtype=np.float64)
        means = np.divide(np.array(total), n, out=np.zeros(3), where=n > 0)
        h = self.strata
        out = weights[h] / np.maximum(n[h], 1) * (self.results - means[h])
        out[h == WIN] = 0.0
        return np.asarray(out)


def _weights(p_trio: float, p_win: float) -> tuple[float, float, float]:
    """The exact chances of the three outcomes of the mover's turn: fail, trio without the win, win."""
    return max(1.0 - p_trio, 0.0), max(p_trio - p_win, 0.0), max(p_win, 0.0)


def paired_gap(a: Tally, ea: Evaluation, b: Tally, eb: Evaluation) -> tuple[float, float]:
    """How much better ``a`` (for ``ea``) did than ``b`` (for ``eb``) on the deals both were played
    on: the difference of their :meth:`Tally.estimate` and its standard error. The error is that of
    the paired difference (common random numbers: the same deal's two playouts are alike, so the
    error of the gap is usually below the two errors combined), from the linearised stratified
    estimates, deal by deal."""
    if a is b:
        return 0.0, 0.0
    da, db = a.influence(ea.p_trio, ea.p_win), b.influence(eb.p_trio, eb.p_win)
    if not (a.ascending() and b.ascending() and np.array_equal(a.deals, b.deals)):
        # the common deals, in increasing order (for the same deals in increasing order: all of them)
        _, ia, ib = np.intersect1d(a.deals, b.deals, assume_unique=True, return_indices=True)
        da, db = da[ia], db[ib]
    var = float(((da - db) ** 2).sum())
    return a.estimate(ea.p_trio, ea.p_win)[0] - b.estimate(eb.p_trio, eb.p_win)[0], math.sqrt(var)


def playout_tallies(post: Posterior, evaluations: Sequence[Evaluation], seed: int, indices: range,
                    tallies: Sequence[Tally] | None = None) -> list[Tally]:
    """Play each of ``evaluations`` out on each posterior deal in ``indices``, into ``tallies`` (new
    ones if ``None``): the mover finishes the turn with the advisor's plan of the evaluation, then
    everyone follows the model to the end. Counts 1 when the mover's side wins (a draw 1/teams), by
    the outcome of the turn. On one deal, reveals that leave the same state after the turn (two
    cards everyone knows that cannot make a trio, say) share one playout: the model is
    deterministic, so that state plays the same game."""
    limits.check("advise for the game")
    outs = list(tallies) if tallies is not None else [Tally.empty() for _ in evaluations]
    strata, results = post.play(evaluations, seed, indices)
    deals = _indices(indices)
    for out, h, x in zip(outs, strata, results):
        out.extend(deals, h, x)
    return outs


def playout_tally(post: Posterior, evaluation: Evaluation, seed: int, indices: range,
                  tally: Tally | None = None) -> Tally:
    """:func:`playout_tallies` for one evaluation."""
    return playout_tallies(post, [evaluation], seed, indices, None if tally is None else [tally])[0]


def swap_outcomes(post: Posterior, give: int | None, seed: int, indices: range) -> list[float]:
    """For each posterior deal in ``indices``, at a swap moment of ``post.view``: 1 if the viewer's team
    wins after the viewer gives ``give`` to its partner (``None``: no swap), else 0 (a draw counts
    1/teams). The partner gives what the rollout model gives (:meth:`~trio_solver.decide.rollout.Sim.give`);
    the team swaps when both give a card, as at a real table."""
    seat = post.view.seat
    partner = None if seat is None else post.view.rules.partner(seat)
    if seat is None or partner is None:
        raise ViewError("a swap needs the view of a seat in team play")
    limits.check("the swap search")
    return [float(x) for x in post.swaps([give], seed, indices)[0]]


#: Plays candidates on deals: (candidates, deals) -> (strata, results), one row per candidate.
Player = Callable[[Sequence[Evaluation], range], tuple[np.ndarray, np.ndarray]]


class Race:
    """Candidate reveals played out on common deals, batch by batch, each candidate's results kept in a
    :class:`Tally`. A candidate can be dropped from later batches (:attr:`alive`). ``play`` plays the
    candidates (:meth:`on` a posterior: :meth:`Posterior.play`)."""

    def __init__(self, candidates: Sequence[Evaluation], play: Player) -> None:
        self.candidates = list(candidates)
        self._play = play
        self.tallies = [Tally.empty() for _ in self.candidates]
        self.alive = list(range(len(self.candidates)))

    @classmethod
    def on(cls, post: Posterior, candidates: Sequence[Evaluation], seed: int) -> Race:
        """A race on the posterior deals of ``seed``."""
        return cls(candidates, lambda cands, deals: post.play(cands, seed, deals))

    def play(self, deals: range) -> None:
        """Play every candidate still alive on ``deals``."""
        limits.check("advise for the game")
        strata, results = self._play([self.candidates[i] for i in self.alive], deals)
        indices = _indices(deals)
        for i, h, x in zip(self.alive, strata, results):
            self.tallies[i].extend(indices, h, x)

    def estimate(self, i: int) -> tuple[float, float]:
        e = self.candidates[i]
        return self.tallies[i].estimate(e.p_trio, e.p_win)

    def gap(self, i: int, j: int) -> tuple[float, float]:
        """Candidate ``i``'s lead over ``j`` and its paired standard error."""
        return paired_gap(self.tallies[i], self.candidates[i], self.tallies[j], self.candidates[j])

    def leader(self) -> int:
        """The candidate with the best estimate among those alive (the earlier one of equals)."""
        return min(self.alive, key=lambda i: (-round(self.estimate(i)[0], 12), i))

    def drop_beaten(self, z: float, keep: Sequence[int] = ()) -> int:
        """Drop every candidate alive (but those in ``keep``) whose shortfall from the leader is above 0
        at ``z`` standard errors; the leader."""
        best = self.leader()
        alive = []
        for i in self.alive:
            if i != best and i not in keep:
                gap, se = self.gap(best, i)
                if gap - z * se > 0:
                    continue
            alive.append(i)
        self.alive = alive
        return best

    def run(self, stopping: Stopping, decided: Callable[[Race, float], bool], keep: Sequence[int] = ()) -> None:
        """Play batches of :meth:`Stopping.batches` until ``decided(race, z)`` (after each batch, once the
        beaten candidates are dropped) or the cap. Candidates are dropped from the second batch on, never at
        the first: its strata hold a few tens of deals, too few for the normal approximation a drop rests on when a
        chance is small (a reveal whose 35 trio deals won once, against some 8 expected, was dropped
        there at 5 errors from the leader; docs/MEASUREMENTS.md, *Advice that drops a reveal too soon*)."""
        z = stopping.z()
        for k, deals in enumerate(stopping.batches()):
            self.play(deals)
            if k:
                self.drop_beaten(z, keep)
            if len(self.alive) == 1 or decided(self, z):
                return


def distinct_moves(view: PlayerView, memory: PublicMemory, evaluations: Sequence[Evaluation]) -> list[Evaluation]:
    """The first of ``evaluations`` for each move (:meth:`~trio_solver.decide.rollout.PublicMemory.alike`: all
    the centre cards no one has seen are one move), in their order."""
    seen: set[Reveal | None] = set()
    out: list[Evaluation] = []
    for e in evaluations:
        move = memory.alike(view, e.reveal)
        if move not in seen:
            seen.add(move)
            out.append(e)
    return out


def advise_game(view: PlayerView, *, samples: int | None = None, seed: int = 0,
                beliefs: Beliefs | None = None, confidence: float = DEFAULT_CONFIDENCE,
                margin: float = DEFAULT_MARGIN) -> Advice:
    """Every legal reveal for the seat to move, ranked by its chance to win the game (``p_game``).

    Each :class:`~trio_solver.decide.search.Evaluation` keeps its exact ``p_trio`` and ``p_win`` and
    carries ``p_game``, ``p_game_stderr`` and ``p_game_gap_stderr`` (the error of its shortfall
    from the first, :func:`paired_gap`). The reveals are played out on common posterior deals in
    doubling batches (:class:`~trio_solver.decide.stopping.Stopping`): a reveal that is behind the leader
    at ``confidence`` is dropped from later batches, and the race stops once every reveal left is
    within ``margin`` of the leader at that confidence, once some reveal left could most likely not be
    told from the leader either way by ``samples`` deals (:func:`ranking_settled`), or at ``samples``
    deals (``None``: :func:`default_advise_samples` for the table). The centre cards no
    one has seen are one move (the posterior cannot tell them apart): the first is played out and its
    figures stand for all of them. Ties (within 1e-12) keep the advisor's order. Raises
    :class:`~trio_solver.errors.ViewError` as :func:`trio_solver.decide.search.advise` does, and for a bad
    ``samples``, ``seed``, ``confidence`` or ``margin``.
    """
    _args.instance("view", view, PlayerView, ViewError)
    if beliefs is not None:
        _args.instance("beliefs", beliefs, Beliefs, ViewError)
    samples = default_advise_samples(view.rules.players) if samples is None else _check_samples(samples)
    seed = _check_seed(seed)
    margin = _args.number_in("margin", margin, 0.0, 1.0, ViewError)
    stopping = Stopping(confidence, samples)
    b = beliefs if beliefs is not None else Beliefs(view)
    base = advise(view, "trio", beliefs=b)
    post = Posterior(view, b)
    firsts = distinct_moves(view, post.memory, base.evaluations)
    race = Race.on(post, firsts, seed)
    race.run(stopping, ranking_settled(stopping, margin))
    by_move = {post.memory.alike(view, e.reveal): i for i, e in enumerate(firsts)}

    def index(e: Evaluation) -> int:
        return by_move[post.memory.alike(view, e.reveal)]

    out: list[Evaluation] = []
    for e in base.evaluations:
        t = race.tallies[index(e)]
        m, se = t.estimate(e.p_trio, e.p_win)
        out.append(replace(e, p_game=m, p_game_stderr=se))
    order = {e.reveal: i for i, e in enumerate(base.evaluations)}
    out.sort(key=lambda e: (-round(e.p_game or 0.0, 12), order[e.reveal]))
    first = out[0]
    lead = race.tallies[index(first)]
    out = [replace(e, p_game_gap_stderr=paired_gap(lead, first, race.tallies[index(e)], e)[1]) for e in out]
    return Advice(base.seat, "game", tuple(out), base.approximate, base.turn)


#: How far (in movements, see :meth:`~trio_solver.decide.stopping.Stopping.out_of_reach`) a comparison of
#: :func:`advise_game` must be from any answer for its race to stop without one.
RANKING_REACH = 1.0


def ranking_settled(stopping: Stopping, margin: float) -> Callable[[Race, float], bool]:
    """When :func:`advise_game`'s race stops (for :meth:`Race.run`, after the beaten reveals are dropped):
    once every reveal left is within ``margin`` of the leader at ``z`` standard errors (the ranking is
    *decided*), or once the gap of some reveal left to the leader would most likely still be neither
    beaten nor within ``margin`` at the cap (:meth:`~trio_solver.decide.stopping.Stopping.out_of_reach`
    with :data:`RANKING_REACH`): then the race could not end decided, and more deals would only narrow
    figures whose order is already as good as the deals can tell. Such a stop gives no answer at the
    stated confidence; the figures keep their standard errors."""
    def settled(race: Race, z: float) -> bool:
        best = race.leader()
        deals = race.tallies[best].samples
        decided = True
        for i in race.alive:
            if i == best:
                continue
            gap, se = race.gap(best, i)
            if _within((gap, se), z, margin):
                continue
            decided = False
            if stopping.out_of_reach(gap, se, deals, lambda half: [(half, math.inf), (-math.inf, margin - half)],
                                     reach=RANKING_REACH):
                return True
        return decided

    return settled


def _within(gap: tuple[float, float], z: float, margin: float) -> bool:
    """Whether a gap is below ``margin`` at ``z`` standard errors."""
    return gap[0] + z * gap[1] < margin


def explain(view: PlayerView, advice: Advice, limit: int = 3) -> list[str]:
    """Sentences for people about the reveals of ``advice`` (ranked by ``p_game``): what each is worth
    for the game, what its first card shows the table if the turn fails, and how it compares with
    the reveal that is best for this turn alone."""
    memory = public_memory(view)
    seat = view.to_move
    nxt = (seat + 1) % view.rules.players
    public_counts: dict[int, int] = {}
    for h in memory.hands:
        for v in h:
            if v is not None:
                public_counts[v] = public_counts.get(v, 0) + 1
    for v in memory.slots:
        if v is not None:
            public_counts[v] = public_counts.get(v, 0) + 1

    def shows(e: Evaluation) -> str:
        # what the table learns if the turn fails: the cards shown go back, known to everyone
        if e.p_trio >= 1 - 1e-9:
            return "the trio is certain, so nothing goes back to the table"
        fails = f"the turn fails {_pct(1 - e.p_trio)} of the time"
        r = e.reveal
        if memory.knows(view, r):
            return f"{fails}, but this card is already known to everyone, so a failure shows nothing new of it"
        if e.known_value is not None:
            v = e.known_value
            text = f"{fails}, and then your {v} goes back known to everyone"
            if public_counts.get(v, 0) >= 2:
                text += f", next to {public_counts[v]} known {v}s: seat {nxt} could take that trio"
            return text
        text = f"{fails}, and then this card goes back known to everyone"
        if not view.turn:  # at the start of a turn, the values whose turn can fail, weighed by how often
            failing = [(st.probability * (1 - st.p_trio), st.value) for st in e.plan]
            total = sum(w for w, _ in failing)
            w, v = max(failing, default=(0.0, 0))
            if total > 0 and w > 0:
                text += f" (most likely {article(v)} {v}: {_pct(w / total)} of those failures)"
        return text

    def sentence(e: Evaluation) -> str:
        assert e.p_game is not None
        return (f"{e.reveal}: wins the game {pm(e.p_game, e.p_game_stderr or 0.0)}; win this turn "
                f"{_pct(e.p_win, 1)}, trio this turn {_pct(e.p_trio, 1)}; {shows(e)}.")

    if not advice.evaluations or advice.evaluations[0].p_game is None:
        return []
    lines = [sentence(e) for e in advice.evaluations[:limit]]
    best = advice.evaluations[0]
    turn_best = max(advice.evaluations, key=lambda e: (round(e.p_trio + e.p_win, 12),
                                                      -advice.evaluations.index(e)))
    if turn_best.reveal != best.reveal and turn_best.p_game is not None and best.p_game is not None:
        if turn_best not in advice.evaluations[:limit]:
            lines.append(sentence(turn_best))
        gap = best.p_game - turn_best.p_game
        se = turn_best.p_game_gap_stderr or 0.0
        head = f"{turn_best.reveal} is best for this turn alone (trio {_pct(turn_best.p_trio, 1)})"
        if gap < 0.0005:
            lines.append(f"{head} and wins the game as often as {best.reveal}.")
        else:
            lines.append(f"{head} but wins the game {pm(gap, se)} less often than {best.reveal}"
                         + (" (within the noise of the playouts)." if gap < 2 * se else "."))
    return lines
