"""Game-level evaluation: each seat's chance to win the game, and advice that plays for the game.

From one seat's view (its hand and the public history; or a spectator's), the
chance that each side wins is estimated by playing the game to its end from
``samples`` deals drawn **exactly** from the posterior
(:meth:`trio_solver.beliefs.Beliefs.sample`), every player following the rollout
model of :mod:`trio_solver.rollout` (perfect memory and its own hand; starts the
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
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from . import limits
from .beliefs import Beliefs
from .errors import ViewError
from .rollout import Action, PublicMemory, Sim, public_memory, to_action
from .reveal import Reveal
from .search import Advice, Evaluation, advise
from .view import PlayerView
from .words import article, pm
from .words import percent as _pct

__all__ = ["GameEvaluation", "evaluate", "advise_game", "DEFAULT_SAMPLES", "DEFAULT_ADVISE_SAMPLES",
           "MAX_SAMPLES", "Posterior", "Tally", "distinct_moves", "explain", "playout_tally", "playout_tallies",
           "paired_gap", "sample_seed", "swap_outcomes"]

#: Playouts of :func:`evaluate` by default (standard error about 0.025 on a chance near 1/2).
DEFAULT_SAMPLES = 400
#: Posterior deals per candidate reveal of :func:`advise_game` by default.
DEFAULT_ADVISE_SAMPLES = 200
#: The most playouts one call may ask for (bounded time: about a millisecond each).
MAX_SAMPLES = 200_000


def sample_seed(seed: int, index: int) -> int:
    """The seed of the generator that draws posterior deal ``index`` for ``seed``."""
    return (seed * 1_000_003 + index) * 7919 + 17


def _check_samples(samples: object) -> int:
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= MAX_SAMPLES:
        raise ViewError(f"samples must be a whole number from 1 to {MAX_SAMPLES}, got {samples!r}")
    return samples


def _check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ViewError(f"seed must be a whole number, got {seed!r}")
    return seed


@dataclass(frozen=True)
class GameEvaluation:
    """The chance that each seat (its team, in team play) wins the game, from one view.

    ``win_chance[s]`` and ``stderr[s]`` are per seat; in team play both partners carry
    their team's chance. ``samples`` is the number of playouts (0 when the game is over
    and the answer is exact). ``approximate`` is set when the beliefs behind the samples
    relaxed secret swaps (see :class:`~trio_solver.beliefs.Beliefs`).
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
    """Deals drawn exactly from a view's posterior, shared by every candidate (common random numbers)."""

    def __init__(self, view: PlayerView, beliefs: Beliefs | None = None) -> None:
        b = beliefs if beliefs is not None else Beliefs(view)
        if not b.consistent:
            raise ViewError("no deal fits this view: the record contradicts itself")
        self.view = view
        self.beliefs = b
        self.memory: PublicMemory = public_memory(view)
        self._cache: dict[int, Sim] = {}
        self.seed = 0

    def sim(self, seed: int, index: int) -> Sim:
        """A fresh copy of the state behind posterior deal ``index`` (drawn once, then reused)."""
        key = sample_seed(seed, index)
        base = self._cache.get(key)
        if base is None:
            placement = self.beliefs.sample(random.Random(key))
            base = Sim.from_view(self.view, self.memory, placement.hands, placement.centre)
            self._cache[key] = base
        return base.copy()


def _team_outcome(sim: Sim, winner: int | None) -> list[float]:
    """1 for the winning team (the draw split evenly), per team."""
    teams = len(sim.rules.teams_of_seats)
    if winner is None:
        return [1.0 / teams] * teams
    out = [0.0] * teams
    out[sim.team_of[winner]] = 1.0
    return out


def _mean_se(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, math.sqrt(max(m * (1 - m), 0.0) / n)
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(var / n)


def _exact(view: PlayerView) -> GameEvaluation:
    rules = view.rules
    assert view.winner is not None
    team = rules.team_of(view.winner)
    chance = tuple(1.0 if rules.team_of(s) == team else 0.0 for s in range(rules.players))
    return GameEvaluation(view.seat, view.to_move, chance, (0.0,) * rules.players, 0)


def evaluate(view: PlayerView, *, samples: int = DEFAULT_SAMPLES, seed: int = 0) -> GameEvaluation:
    """Each seat's chance to win the game from ``view``, under the rollout model, with standard errors.

    Exact (standard error 0, ``samples`` 0) once the game is over. Raises
    :class:`~trio_solver.errors.ViewError` for a bad ``samples``/``seed`` or a view no deal fits.
    """
    samples = _check_samples(samples)
    seed = _check_seed(seed)
    if view.over:
        return _exact(view)
    post = Posterior(view)
    rules = view.rules
    teams = len(rules.teams_of_seats)
    per_team: list[list[float]] = [[] for _ in range(teams)]
    for j in range(samples):
        limits.check("evaluate")
        sim = post.sim(seed, j)
        outcome = _team_outcome(sim, sim.playout())
        for t in range(teams):
            per_team[t].append(outcome[t])
    stats = [_mean_se(xs) for xs in per_team]
    chance = tuple(stats[rules.team_of(s)][0] for s in range(rules.players))
    err = tuple(stats[rules.team_of(s)][1] for s in range(rules.players))
    return GameEvaluation(view.seat, view.to_move, chance, err, samples, post.beliefs.approximate)


def _plan_chooser(first: Action, offset: int, plan: dict[int, tuple[Action, ...]]) -> Any:
    """The mover's choices for the rest of the turn: ``first``, then the advisor's plan for the value shown."""

    def choose(sim: Sim, face_value: int) -> Action | None:
        made = len(sim.face) - offset
        if made <= 0:
            return first
        steps = plan.get(face_value, ())
        if made - 1 < len(steps):
            a = steps[made - 1]
            if a in sim.legal():
                return a
        return sim.choose(face_value)

    return choose


FAIL, TRIO, WIN = 0, 1, 2


@dataclass
class Tally:
    """Playout results of one candidate reveal, by what its own turn did (fail / trio / win).

    :meth:`estimate` post-stratifies: the chances of the three outcomes of the turn are
    known exactly from the advisor (``1 - p_trio``, ``p_trio - p_win``, ``p_win``), so
    only the chance to win the game *after* a failed turn and after a non-winning trio
    is estimated from the playouts. This removes the noise of the turn itself, the
    largest part of the variance when candidates differ in ``p_trio``.
    """

    n: list[int]
    total: list[float]
    squares: list[float]
    #: ``deal index -> (stratum, result)`` of every playout added with its deal (see :func:`paired_gap`).
    deals: dict[int, tuple[int, float]] = field(default_factory=dict)

    @classmethod
    def empty(cls) -> Tally:
        return cls([0, 0, 0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0])

    def add(self, stratum: int, x: float, deal: int | None = None) -> None:
        """Count one playout in ``stratum`` that ended ``x`` (1 won, 0 lost); ``deal`` is its
        posterior deal's index, kept for :func:`paired_gap`."""
        self.n[stratum] += 1
        self.total[stratum] += x
        self.squares[stratum] += x * x
        if deal is not None:
            self.deals[deal] = (stratum, x)

    @property
    def samples(self) -> int:
        return sum(self.n)

    def mean(self) -> float:
        """The plain share of playouts won."""
        return sum(self.total) / max(self.samples, 1)

    def estimate(self, p_trio: float, p_win: float) -> tuple[float, float]:
        """The post-stratified chance to win the game and its standard error."""
        weights = _weights(p_trio, p_win)
        pooled_n = self.n[FAIL] + self.n[TRIO]
        pooled = (self.total[FAIL] + self.total[TRIO]) / pooled_n if pooled_n else 0.5
        m = weights[WIN]  # a winning turn wins the game
        var = 0.0
        for h in (FAIL, TRIO):
            w = weights[h]
            if w <= 0:
                continue
            k = self.n[h]
            if k == 0:
                m += w * pooled
                var += w * w * 0.25
                continue
            mh = self.total[h] / k
            vh = (self.squares[h] / k - mh * mh) * k / (k - 1) if k > 1 else 0.25
            m += w * mh
            var += w * w * max(vh, 0.0) / k
        return min(max(m, 0.0), 1.0), math.sqrt(var)


def _weights(p_trio: float, p_win: float) -> tuple[float, float, float]:
    """The exact chances of the three outcomes of the mover's turn: fail, trio without the win, win."""
    return max(1.0 - p_trio, 0.0), max(p_trio - p_win, 0.0), max(p_win, 0.0)


def _influence(tally: Tally, weights: tuple[float, float, float]) -> dict[int, float]:
    """Each deal's term in the linearised post-stratified estimate: ``w_h / n_h * (x - mean_h)``
    (0 in the winning stratum, whose chance is exact)."""
    means = [tally.total[h] / tally.n[h] if tally.n[h] else 0.0 for h in range(3)]
    return {j: (0.0 if h == WIN else weights[h] / tally.n[h] * (x - means[h]))
            for j, (h, x) in tally.deals.items()}


def paired_gap(a: Tally, ea: Evaluation, b: Tally, eb: Evaluation) -> tuple[float, float]:
    """How much better ``a`` (for ``ea``) did than ``b`` (for ``eb``) on the deals both were played
    on: the difference of their :meth:`Tally.estimate` and its standard error. The error is that of
    the paired difference (common random numbers: the same deal's two playouts are alike, so the
    error of the gap is usually below the two errors combined), from the linearised stratified
    estimates, deal by deal."""
    ia, ib = _influence(a, _weights(ea.p_trio, ea.p_win)), _influence(b, _weights(eb.p_trio, eb.p_win))
    var = sum((ia[j] - ib[j]) ** 2 for j in ia.keys() & ib.keys())
    return a.estimate(ea.p_trio, ea.p_win)[0] - b.estimate(eb.p_trio, eb.p_win)[0], math.sqrt(var)


def playout_tallies(post: Posterior, evaluations: Sequence[Evaluation], seed: int, indices: Sequence[int],
                    tallies: Sequence[Tally] | None = None) -> list[Tally]:
    """Play each of ``evaluations`` out on each posterior deal in ``indices``, into ``tallies`` (new
    ones if ``None``): the mover finishes the turn with the advisor's plan of the evaluation, then
    everyone follows the model to the end. Counts 1 when the mover's side wins (a draw 1/teams), by
    the outcome of the turn. On one deal, reveals that leave the same state after the turn
    (:meth:`~trio_solver.rollout.Sim.key`; two cards everyone knows that cannot make a trio, say)
    share one playout: the model is deterministic, so that state plays the same game."""
    mover = post.view.to_move
    choosers = [_turn_chooser(post, e) for e in evaluations]
    outs = list(tallies) if tallies is not None else [Tally.empty() for _ in evaluations]
    for j in indices:
        played: dict[tuple[object, ...], float] = {}
        for chooser, out in zip(choosers, outs):
            limits.check("advise for the game")
            sim = post.sim(seed, j)
            team = sim.team_of[mover]
            before = len(sim.trios[team])
            sim.play_turn(chooser)
            if sim.winner is not None:
                stratum = WIN
            else:
                stratum = TRIO if len(sim.trios[team]) > before else FAIL
            key = sim.key()
            x = played.get(key)
            if x is None:
                x = played[key] = _team_outcome(sim, sim.playout())[team]
            out.add(stratum, x, j)
    return outs


def playout_tally(post: Posterior, evaluation: Evaluation, seed: int, indices: Sequence[int],
                  tally: Tally | None = None) -> Tally:
    """:func:`playout_tallies` for one evaluation."""
    return playout_tallies(post, [evaluation], seed, indices, None if tally is None else [tally])[0]


def _turn_chooser(post: Posterior, evaluation: Evaluation) -> Any:
    """The mover's choices for its turn: ``evaluation.reveal``, then the advisor's plan for the value shown."""
    plan = {step.value: tuple(to_action(r) for r in step.then) for step in evaluation.plan}
    return _plan_chooser(to_action(evaluation.reveal), len(post.view.turn), plan)


def playout_outcomes(post: Posterior, evaluation: Evaluation, seed: int, indices: Sequence[int]) -> list[float]:
    """For each posterior deal in ``indices``: 1 if the mover's side wins after ``evaluation.reveal``, else 0
    (a draw counts 1/teams), as in :func:`playout_tally`."""
    out = []
    for j in indices:
        t = playout_tally(post, evaluation, seed, [j])
        out.append(sum(t.total))
    return out


def swap_outcomes(post: Posterior, give: int | None, seed: int, indices: Sequence[int]) -> list[float]:
    """For each posterior deal in ``indices``, at a swap moment of ``post.view``: 1 if the viewer's team
    wins after the viewer gives ``give`` to its partner (``None``: no swap), else 0 (a draw counts
    1/teams). The partner gives what the rollout model gives (:meth:`~trio_solver.rollout.Sim.give`);
    the team swaps when both give a card, as at a real table."""
    seat = post.view.seat
    partner = None if seat is None else post.view.rules.partner(seat)
    if seat is None or partner is None:
        raise ViewError("a swap needs the view of a seat in team play")
    out = []
    for j in indices:
        limits.check("the swap search")
        sim = post.sim(seed, j)
        back = sim.give(partner)
        if give is not None and back is not None:
            sim.swap(seat, partner, give, back)
        out.append(_team_outcome(sim, sim.playout())[sim.team_of[seat]])
    return out


def distinct_moves(view: PlayerView, memory: PublicMemory, evaluations: Sequence[Evaluation]) -> list[Evaluation]:
    """The first of ``evaluations`` for each move (:meth:`~trio_solver.rollout.PublicMemory.alike`: all
    the centre cards no one has seen are one move), in their order."""
    seen: set[Reveal | None] = set()
    out: list[Evaluation] = []
    for e in evaluations:
        move = memory.alike(view, e.reveal)
        if move not in seen:
            seen.add(move)
            out.append(e)
    return out


def advise_game(view: PlayerView, *, samples: int = DEFAULT_ADVISE_SAMPLES, seed: int = 0,
                beliefs: Beliefs | None = None) -> Advice:
    """Every legal reveal for the seat to move, ranked by its chance to win the game (``p_game``).

    Each :class:`~trio_solver.search.Evaluation` keeps its exact ``p_trio`` and ``p_win`` and
    carries ``p_game``, ``p_game_stderr`` and ``p_game_gap_stderr`` (the error of its shortfall
    from the first, :func:`paired_gap`); every reveal is played out on the same ``samples``
    posterior deals. The centre cards no one has seen are one move (the posterior
    cannot tell them apart): the first is played out and its figures stand for all of them,
    so alike reveals get the same ``p_game`` and no playouts are spent telling them apart.
    Ties (within 1e-12) keep the advisor's order. Raises
    :class:`~trio_solver.errors.ViewError` as :func:`trio_solver.search.advise` does.
    """
    samples = _check_samples(samples)
    seed = _check_seed(seed)
    b = beliefs if beliefs is not None else Beliefs(view)
    base = advise(view, "trio", beliefs=b)
    post = Posterior(view, b)
    indices = range(samples)
    firsts = distinct_moves(view, post.memory, base.evaluations)
    tallies = {post.memory.alike(view, e.reveal): t
               for e, t in zip(firsts, playout_tallies(post, firsts, seed, indices))}

    def tally(e: Evaluation) -> Tally:
        return tallies[post.memory.alike(view, e.reveal)]

    out: list[Evaluation] = []
    for e in base.evaluations:
        m, se = tally(e).estimate(e.p_trio, e.p_win)
        out.append(replace(e, p_game=m, p_game_stderr=se))
    order = {e.reveal: i for i, e in enumerate(base.evaluations)}
    out.sort(key=lambda e: (-round(e.p_game or 0.0, 12), order[e.reveal]))
    first = out[0]
    out = [replace(e, p_game_gap_stderr=paired_gap(tally(first), first, tally(e), e)[1]) for e in out]
    return Advice(base.seat, "game", tuple(out), base.approximate, base.turn)


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
