"""Fit the temperature of the policy reading (:mod:`trio_solver.decide.reading`) on games of bots.

Games of ``--bot`` bots (``solver`` by default) are played; with the whole deal known, every first
reveal of every turn is scored by the model (the rollout model's turn-start scores seen from the
player who chose) and the mean log-likelihood of the choices made is printed for each temperature of
the grid, with the share of turns where the choice was the model's best candidate and the mean
log-likelihood of a uniform choice among the candidates (what no reading gives). The best
temperature is the one the library should use (:data:`trio_solver.decide.reading.DEFAULT_TEMPERATURE`).

    python benchmarks/fit_temperature.py --games 60 --seed 1
    python benchmarks/fit_temperature.py --players 4 --mode picante --games 40 --seed 2
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trio_solver import kernel  # noqa: E402
from trio_solver.decide import reading  # noqa: E402
from trio_solver.decide.bots import make_bot  # noqa: E402
from trio_solver.decide.rollout import rules_array  # noqa: E402
from trio_solver.game.rules import Mode, Rules  # noqa: E402
from trio_solver.game.state import Game  # noqa: E402
from trio_solver.run.simulate import game_seed, play_game  # noqa: E402

GRID = (0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0)


def dealt_state(game: Game) -> np.ndarray:
    """The kernel's state of ``game`` as dealt (nothing remembered yet)."""
    st = np.zeros(kernel.STATE_SIZE, np.int64)
    for s, hand in enumerate(game.dealt.hands):
        st[kernel.O_SIZE + s] = len(hand)
        for p, v in enumerate(hand):
            st[kernel.O_H + s * kernel.HMAX + p] = v
    st[kernel.O_NCENTRE] = len(game.dealt.centre)
    for i, v in enumerate(game.dealt.centre):
        st[kernel.O_C + i] = v
    st[kernel.O_TOMOVE] = game.first_player
    st[kernel.O_WINNER] = -1
    return st


def choices(game: Game, rp: np.ndarray) -> tuple[list[int], list[int], list[bool]]:
    """For every turn start of ``game``: the number of model candidates, and whether the choice made
    was the first best of them (the kernel's own choice)."""
    hist, _, _ = reading.history_arrays(game.view(None))
    st = dealt_state(game)
    ws = kernel.workspace()
    sizes, picked, best = [], [], []
    for a in hist:
        if st[kernel.O_NFACE] == 0:
            n = kernel.start_scores(st, rp, st[kernel.O_TOMOVE], ws)
            j = kernel.candidate_of(st, st[kernel.O_TOMOVE], int(a), ws[12], n)
            if j >= 0:
                scores = ws[13][:n]
                sizes.append(n)
                picked.append(j)
                best.append(bool(scores[j] >= scores.max()))
        kernel.apply(st, rp, int(a))
    return sizes, picked, best


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--mode", choices=[m.value for m in Mode], default="simple")
    p.add_argument("--bot", default="solver", help="the bots whose choices are fitted (default solver)")
    p.add_argument("--games", type=int, default=60)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    rules = Rules(args.players, args.mode)
    rp = rules_array(rules, "scoring")
    t0 = time.perf_counter()
    totals = {t: 0.0 for t in GRID}
    uniform = 0.0
    turns = hits = 0
    for g in range(args.games):
        bots = [make_bot(args.bot, random.Random(game_seed(args.seed, g, 1 + s))) for s in range(rules.players)]
        game = play_game(rules, bots, rng=random.Random(game_seed(args.seed, g)), first_player=g % rules.players)
        history, _, _ = reading.history_arrays(game.view(None))
        table = np.zeros((kernel.MAXP, len(GRID)))
        kernel.history_log_likelihoods(dealt_state(game), rp, history, np.ones(kernel.MAXP, np.bool_),
                                        np.array([1.0 / t for t in GRID]), kernel.workspace(), table)
        for i, t in enumerate(GRID):
            totals[t] += float(table[:, i].sum())
        sizes, _, best = choices(game, rp)
        uniform -= sum(math.log(n) for n in sizes)
        turns += len(sizes)
        hits += sum(best)
    print(f"{args.games} games of {args.bot} bots, {rules.players} players {args.mode}, seed {args.seed}: "
          f"{turns} turn starts, {time.perf_counter() - t0:.0f} s")
    print(f"the choice was the model's best candidate in {100 * hits / turns:.1f}% of turn starts")
    print(f"uniform choice among the candidates: mean log-likelihood {uniform / turns:.3f}")
    for t in GRID:
        print(f"temperature {t:<5}: mean log-likelihood {totals[t] / turns:.3f}")
    best_t = max(GRID, key=lambda t: totals[t])
    print(f"best temperature on the grid: {best_t}")
    return 0


if __name__ == "__main__":
    from _script import run_script  # beside this script

    run_script(main, __file__)
