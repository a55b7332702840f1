"""A small tournament: one solver against memory bots, reproducible from the seed.

    python examples/simulate.py [games]
"""

import sys

from trio_solver import Rules, TrioError
from trio_solver.run.simulate import run_tournament


def main(games: int) -> None:
    result = run_tournament(Rules(4, "simple"), ["solver", "memory", "memory", "memory"], games, seed=7)
    for seat in result.to_json()["per_seat"]:
        print(f"seat {seat['seat']} {seat['bot']:<7} won {seat['wins']:>3}/{games}  "
              f"95% interval {seat['ci95'][0]:.2f}-{seat['ci95'][1]:.2f}")


if __name__ == "__main__":
    try:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
    except ValueError as e:  # TrioError is a ValueError: a bad number of games, as int() or the library says
        sys.exit(f"simulate.py: {e if isinstance(e, TrioError) else 'usage: python examples/simulate.py [games]'}")
