"""Game-level evaluation: each seat's chance to win the game, and advice that plays for the game.

From one seat's view (its hand and the public history; or a spectator's), the
chance that each side wins is estimated by playing the game to its end from
``samples`` deals drawn **exactly** from the posterior
(:meth:`trio_solver.beliefs.Beliefs.sample`), every player following the rollout
model of :mod:`trio_solver.rollout` (perfect memory, own hand, takes any trio it
can see, else the likeliest guesses by counting cards; deterministic). The
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
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from .beliefs import Beliefs
from .errors import ViewError
from .rollout import Action, PublicMemory, Sim, public_memory, to_action
from .search import Advice, Evaluation, advise
from .view import PlayerView

__all__ = ["GameEvaluation", "evaluate", "advise_game", "DEFAULT_SAMPLES", "DEFAULT_ADVISE_SAMPLES",
           "MAX_SAMPLES", "Posterior", "sample_seed"]

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
        """The ``evaluate`` JSON of INTERFACE.md (``after`` defaults to ``None`` when not given)."""
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


def playout_outcomes(post: Posterior, evaluation: Evaluation, seed: int, indices: Sequence[int]) -> list[float]:
    """For each posterior deal in ``indices``: 1 if the mover's side wins after ``evaluation.reveal``, else 0
    (a draw counts 1/teams). The mover finishes the turn with the advisor's plan of ``evaluation``."""
    view = post.view
    mover = view.to_move
    offset = len(view.turn)
    plan = {step.value: tuple(to_action(r) for r in step.then) for step in evaluation.plan}
    chooser = _plan_chooser(to_action(evaluation.reveal), offset, plan)
    out = []
    for j in indices:
        sim = post.sim(seed, j)
        sim.play_turn(chooser)
        outcome = _team_outcome(sim, sim.playout())
        out.append(outcome[sim.team_of[mover]])
    return out


def advise_game(view: PlayerView, *, samples: int = DEFAULT_ADVISE_SAMPLES, seed: int = 0,
                beliefs: Beliefs | None = None) -> Advice:
    """Every legal reveal for the seat to move, ranked by its chance to win the game (``p_game``).

    Each :class:`~trio_solver.search.Evaluation` keeps its exact ``p_trio`` and ``p_win`` and
    carries ``p_game`` and ``p_game_stderr``; every reveal is played out on the same
    ``samples`` posterior deals. Ties (within 1e-12) keep the advisor's order. Raises
    :class:`~trio_solver.errors.ViewError` as :func:`trio_solver.search.advise` does.
    """
    samples = _check_samples(samples)
    seed = _check_seed(seed)
    b = beliefs if beliefs is not None else Beliefs(view)
    base = advise(view, "trio", beliefs=b)
    post = Posterior(view, b)
    indices = range(samples)
    out: list[Evaluation] = []
    for e in base.evaluations:
        m, se = _mean_se(playout_outcomes(post, e, seed, indices))
        out.append(replace(e, p_game=m, p_game_stderr=se))
    order = {e.reveal: i for i, e in enumerate(base.evaluations)}
    out.sort(key=lambda e: (-round(e.p_game or 0.0, 12), order[e.reveal]))
    return Advice(base.seat, "game", tuple(out), base.approximate, base.turn)

