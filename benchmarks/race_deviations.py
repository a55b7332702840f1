"""Are the `expert-ties` bot's departures from the best turn score good against real opponents?

The expert plays 3-player simple games against two ``solver`` bots (``--deals``
deals, the expert in each seat). At every start-of-turn race whose winner is not the
best reveal by the turn score (:func:`trio_solver.decide.scoring.solver_score`), both reveals
are valued by *true-policy rollouts*: ``--rollouts`` deals drawn exactly from the
expert's posterior (:func:`trio_solver.infer.sampling.sample_game`), each played to its end
once after each reveal, the opponents playing as ``solver`` and the mover going on as
the turn-score bot (the expert with a window of 0 and one candidate: no race). The
two reveals share every deal, so the gap is paired. It prints the mean gain of a
departure (the race's choice minus the turn-score best, in games won) with its
standard error over positions, and the same by the turn-score gap between the two.

Unlike ``expert_regret.py`` (which judges the race under its own rollout model),
this judges it against the players it meets.

    python benchmarks/race_deviations.py --deals 10 --rollouts 120 --workers 2 --seed 7 --window none
    python benchmarks/race_deviations.py --deals 10 --rollouts 120 --workers 2 --seed 7

``--window none`` is the earlier bot, which raced every distinct reveal.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trio_solver.infer.beliefs import Beliefs  # noqa: E402
from trio_solver.decide.bots import Bot, SolverBot  # noqa: E402
from trio_solver.game.state import Game  # noqa: E402
from trio_solver.decide.evaluate import Posterior  # noqa: E402
from trio_solver.decide.expert import DEFAULT_WINDOW, TiesExpertBot, solver_score  # noqa: E402
from trio_solver.game.reveal import Reveal  # noqa: E402
from trio_solver.game.rules import Rules  # noqa: E402
from trio_solver.decide.search import Evaluation  # noqa: E402
from trio_solver.infer.sampling import sample_game  # noqa: E402
from trio_solver.run.simulate import game_seed, play_game  # noqa: E402
from trio_solver.game.view import PlayerView  # noqa: E402

#: A departure: the view, the turn-score best, the race's choice, and the turn-score gap between them.
Departure = tuple[PlayerView, Reveal, Reveal, float]


class _Watched(TiesExpertBot):
    """The expert, noting every race whose winner is not the turn-score best."""

    def __init__(self, rng: random.Random, window: float | None) -> None:
        super().__init__(rng, window=window)
        self.view: PlayerView | None = None
        self.departures: list[Departure] = []

    def choose_reveal(self, view: PlayerView) -> Reveal:
        self.view = view
        return super().choose_reveal(view)

    def _race(self, post: Posterior, cands: list[Evaluation], seed: int, budget: int) -> Evaluation:
        best = super()._race(post, cands, seed, budget)
        if best is not cands[0] and self.view is not None:
            gap = solver_score(self.view, cands[0]) - solver_score(self.view, best)
            self.departures.append((self.view, cands[0].reveal, best.reveal, gap))
        return best


def collect(task: tuple[int, int, int, float | None]) -> list[Departure]:
    """The departures of the expert in one game (seat ``seat`` of deal ``deal``)."""
    seed, deal, seat, window = task
    me = _Watched(random.Random(game_seed(seed, deal, 1 + seat)), window)
    bots: list[Bot] = [me if s == seat else SolverBot(random.Random(0)) for s in range(3)]
    play_game(Rules(3), bots, rng=random.Random(game_seed(seed, deal)), first_player=deal % 3)
    return me.departures


def _finish(game: Game, seat: int) -> int:
    me = TiesExpertBot(random.Random(0), window=0.0, candidates=1)
    other = SolverBot(random.Random(0))
    while not game.over:
        s = game.to_move
        game.reveal((me if s == seat else other).choose_reveal(game.view(s)))
    return int(game.winner == seat)


def value(task: tuple[Departure, int, int]) -> float:
    """Mean paired gain (choice minus best) over true-policy rollouts of one departure."""
    (view, best, choice, _), rollouts, seed = task
    beliefs = Beliefs(view)
    assert view.seat is not None
    total = 0
    for k in range(rollouts):
        deal = sample_game(beliefs, random.Random(game_seed(seed, k)))
        a, b = deal.copy(), deal.copy()
        a.reveal(best)
        b.reveal(choice)
        total += _finish(b, view.seat) - _finish(a, view.seat)
    return total / rollouts


def _mean_se(xs: list[float]) -> str:
    if len(xs) < 2:
        return f"{xs[0]:+.4f}" if xs else "-"
    return f"{statistics.mean(xs):+.4f} ± {statistics.stdev(xs) / len(xs) ** 0.5:.4f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--rollouts", type=int, default=120)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--window", default=str(DEFAULT_WINDOW), help="the expert's window, or none")
    a = ap.parse_args(argv)
    window = None if a.window == "none" else float(a.window)
    tasks = [(a.seed, d, s, window) for d in range(a.deals) for s in range(3)]
    with ProcessPoolExecutor(max(1, a.workers)) as pool:
        departures = [x for xs in pool.map(collect, tasks, chunksize=1) for x in xs]
        gains = list(pool.map(value, [(d, a.rollouts, a.seed * 7919 + i) for i, d in enumerate(departures)],
                              chunksize=1))
    print(f"expert (window {a.window}) vs 2 solver bots, 3 players simple, {a.deals} deals x 3 seats, "
          f"seed {a.seed}: {len(departures)} departures from the best turn score, "
          f"{a.rollouts} paired true-policy rollouts each")
    print(f"mean gain of a departure: {_mean_se(gains)} of a game")
    for lo, hi in ((0.0, 0.02), (0.02, 0.06), (0.06, 0.15), (0.15, 10.0)):
        xs = [g for g, d in zip(gains, departures) if lo <= d[3] < hi]
        print(f"  turn-score gap {lo:.2f}-{hi:.2f}: {len(xs):3} departures, gain {_mean_se(xs)}")
    return 0


if __name__ == "__main__":
    from _script import run_script  # beside this script

    run_script(main, __file__)
