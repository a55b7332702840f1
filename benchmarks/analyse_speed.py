"""How long `analyse` takes for one game: judged by the turn (--quick) and by the game (--samples).

    .venv/bin/python benchmarks/analyse_speed.py [--samples 48] [--seed 1]

Games: the bundled 4-player example, and bot games (memory/solver) of 3 and 6
players and of 6 players in teams. Prints CPU seconds (process time) and wall
seconds per game, reveals analysed, and the figures per reveal.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from trio_solver import Record, Rules
from trio_solver.report.analysis import analyse
from trio_solver.decide.bots import make_bot
from trio_solver.run.simulate import play_game

ROOT = Path(__file__).resolve().parent.parent


def bot_game(rules: Rules, seed: int) -> Record:
    kinds = ["solver", "memory"] * 3
    bots = [make_bot(kinds[s], random.Random(seed * 10 + s)) for s in range(rules.players)]
    return Record.from_game(play_game(rules, bots, rng=random.Random(seed)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--samples", type=int, default=48)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    games = [("4 players, example", Record.load(ROOT / "examples" / "full_deal_4p.json")),
             ("3 players, simple", bot_game(Rules(3), args.seed)),
             ("6 players, simple", bot_game(Rules(6), args.seed)),
             ("6 players, teams", bot_game(Rules(6, teams=True), args.seed))]
    print(f"{'game':<22} {'reveals':>7} {'mode':<12} {'cpu s':>7} {'wall s':>7} {'ms/reveal':>10}")
    for label, record in games:
        for samples in (0, args.samples):
            c0, w0 = time.process_time(), time.perf_counter()
            a = analyse(record, samples=samples, seed=args.seed)
            cpu, wall = time.process_time() - c0, time.perf_counter() - w0
            mode = "quick" if samples == 0 else f"game, {samples}"
            n = len(a.decisions)
            print(f"{label:<22} {n:>7} {mode:<12} {cpu:7.1f} {wall:7.1f} {1000 * cpu / max(n, 1):10.0f}",
                  flush=True)


if __name__ == "__main__":
    from _script import run_script  # beside this script

    run_script(main, __file__)
