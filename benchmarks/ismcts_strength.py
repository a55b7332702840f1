"""OpenSpiel's ISMCTSBot against trio_solver's bots in ``python_trio`` (prints a table).

One ISMCTSBot (with :class:`trio_solver.doors.openspiel.TrioEvaluator`, and the exact
resampling of ``python_trio``) plays against ``players - 1`` copies of one trio_solver
bot; the ISMCTS seat rotates with the game number and the first player is dealt by
chance. Each game is seeded from ``--seed`` and its number, so results do not depend
on ``--workers``. Win rates come with Wilson 95% intervals.

    .venv/bin/python benchmarks/ismcts_strength.py --games 40 --budgets 10,40 \
        --opponents memory,solver --workers 2 --seed 1

Any bot name that ``trio_solver.decide.bots.make_bot`` knows is accepted in ``--opponents``.
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pyspiel
from open_spiel.python.algorithms.ismcts import ISMCTSBot

import trio_solver.doors.openspiel as tos
from trio_solver.decide.bots import make_bot
from trio_solver.run.simulate import game_seed, wilson


def play_one(args: tuple[int, str, int, int, int, str]) -> tuple[int, float, int, float]:
    """(ISMCTS won?, its return, decisions made, seconds) of one game."""
    players, opponent, budget, seed, index, mode = args
    game = tos.load(players=players, mode=mode)
    me = index % players
    bots: list[pyspiel.Bot] = []
    for s in range(players):
        if s == me:
            bots.append(ISMCTSBot(game, tos.TrioEvaluator(), 2.0, budget,
                                  random_state=np.random.RandomState(game_seed(seed, index, 1 + s) % 2**32)))
        else:
            bots.append(tos.TrioSpielBot(make_bot(opponent, random.Random(game_seed(seed, index, 1 + s)))))
    rng = random.Random(game_seed(seed, index))
    state = game.new_initial_state()
    start = time.perf_counter()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        state.apply_action(bots[state.current_player()].step(state))
        decisions += 1
    ret = state.returns()[me]
    return (1 if ret > 0 else 0, ret, decisions, time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--mode", default="simple")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--budgets", default="10,40", help="ISMCTS simulations per decision, comma-separated")
    ap.add_argument("--opponents", default="memory,solver", help="trio_solver bot names, comma-separated")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    budgets = [int(b) for b in a.budgets.split(",")]
    opponents = a.opponents.split(",")
    for name in opponents:
        make_bot(name, random.Random(0))  # unknown names fail before any game
    print(f"ISMCTSBot (TrioEvaluator, uct_c=2) vs {a.players - 1} copies of a bot, {a.players} players, "
          f"{a.mode}, {a.games} games per cell, seed {a.seed}")
    print(f"{'opponents':<10} {'budget':>6} {'ISMCTS wins':>11} {'95% interval':>16} {'fair':>6} "
          f"{'mean return':>11} {'s/decision':>10}")
    for opponent in opponents:
        for budget in budgets:
            jobs = [(a.players, opponent, budget, a.seed, i, a.mode) for i in range(a.games)]
            if a.workers > 1:
                with ProcessPoolExecutor(a.workers) as pool:
                    results = list(pool.map(play_one, jobs))
            else:
                results = [play_one(j) for j in jobs]
            wins = sum(r[0] for r in results)
            lo, hi = wilson(wins, len(results))
            mean_ret = sum(r[1] for r in results) / len(results)
            decisions = sum(r[2] for r in results)
            secs = sum(r[3] for r in results)
            print(f"{opponent:<10} {budget:>6} {wins / len(results):>10.1%} "
                  f"{f'[{lo:.1%}, {hi:.1%}]':>16} {1 / a.players:>6.1%} {mean_ret:>11.3f} "
                  f"{secs / max(decisions, 1):>10.3f}", flush=True)


if __name__ == "__main__":
    from _script import run_script  # beside this script

    run_script(main, __file__)
