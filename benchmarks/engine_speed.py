"""Engine speed: random games per second and reveals per second, per setting.

Plays :func:`trio_solver.game.state.play_random_game` (uniformly random legal reveals,
random team swaps) with ``random.Random(seed)`` on one core, for 3, 4, 5 and 6
players and for team play at 4 and 6, each for ``--seconds`` seconds, and
prints a table. The target is 50,000 reveals per second on one core.

    python benchmarks/engine_speed.py --seconds 3 --seed 1
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass

from trio_solver.game.state import play_random_game
from trio_solver.game.rules import Mode, Rules
from trio_solver.game.events import Turn

TARGET = 50_000  # reveals per second

SETTINGS: list[tuple[str, Rules]] = [
    ("3 players", Rules(3, Mode.SIMPLE)),
    ("4 players", Rules(4, Mode.SIMPLE)),
    ("5 players", Rules(5, Mode.SIMPLE)),
    ("6 players", Rules(6, Mode.SIMPLE)),
    ("4 players, teams", Rules(4, Mode.SIMPLE, teams=True)),
    ("6 players, teams", Rules(6, Mode.SIMPLE, teams=True)),
]


@dataclass
class Result:
    name: str
    games: int
    reveals: int
    swaps: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def reveals_per_second(self) -> float:
        return self.reveals / self.seconds


def measure(name: str, rules: Rules, seconds: float, seed: int) -> Result:
    """Play whole games until ``seconds`` have passed (at least one game)."""
    rng = random.Random(seed)
    games = reveals = swaps = 0
    start = time.perf_counter()
    elapsed = 0.0
    while games == 0 or elapsed < seconds:
        game = play_random_game(rules, rng)
        games += 1
        for e in game.table.events:
            if isinstance(e, Turn):
                reveals += len(e.reveals)
            else:
                swaps += 1
        elapsed = time.perf_counter() - start
    return Result(name, games, reveals, swaps, elapsed)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--seconds", type=float, default=3.0, help="time per setting (default 3)")
    p.add_argument("--seed", type=int, default=1, help="seed of random.Random for every setting (default 1)")
    args = p.parse_args(argv)
    if args.seconds <= 0:
        p.error("--seconds must be positive")
    print(f"trio_solver engine: random games, {args.seconds:g} s per setting, seed {args.seed}, "
          f"Python {sys.version.split()[0]}")
    header = f"{'setting':<18} {'games':>7} {'games/s':>9} {'reveals':>10} {'reveals/s':>11} {'rev/game':>9}  target"
    print(header)
    print("-" * len(header))
    all_ok = True
    for name, rules in SETTINGS:
        r = measure(name, rules, args.seconds, args.seed)
        ok = r.reveals_per_second >= TARGET
        all_ok &= ok
        print(f"{r.name:<18} {r.games:>7} {r.games_per_second:>9.1f} {r.reveals:>10} {r.reveals_per_second:>11,.0f} "
              f"{r.reveals / r.games:>9.0f}  {'ok' if ok else 'BELOW'} (>= {TARGET:,}/s)")
    print(f"all settings {'meet' if all_ok else 'do not all meet'} the target of {TARGET:,} reveals/s on one core")
    return 0


if __name__ == "__main__":
    from _script import run_script  # beside this script

    run_script(main, __file__)
