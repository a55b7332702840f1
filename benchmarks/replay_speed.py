"""How long do a long game's frames take? ``replay`` and ``state`` (the board's step) on one long record.

A game between ``random`` bots (random legal reveals, seeded: long games) becomes a whole-deal record;
the script times :func:`trio_solver.doors.queries.replay` (every frame, as ``replay --json`` and the
board's loading give them) and :func:`~trio_solver.doors.queries.state` after the last event (one
step of the board), from every hand and from one seat's view.

    python benchmarks/replay_speed.py --seed 3
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trio_solver.decide.bots import make_bot  # noqa: E402
from trio_solver.doors import queries  # noqa: E402
from trio_solver.game.record import Record  # noqa: E402
from trio_solver.game.rules import Rules  # noqa: E402
from trio_solver.run.simulate import play_game  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=3)
    args = p.parse_args(argv)
    rules = Rules(args.players)
    bots = [make_bot("random", random.Random(args.seed * 10 + s)) for s in range(rules.players)]
    record = Record.from_game(play_game(rules, bots, rng=random.Random(args.seed)))
    print(f"{args.players} players, {len(record.events)} events (seed {args.seed})")
    for seat in ("all", 1):
        t = time.process_time()
        frames = queries.replay(record, seat)["frames"]
        whole = time.process_time() - t
        t = time.process_time()
        queries.state(record, seat)
        one = time.process_time() - t
        print(f"seat {seat}: replay {len(frames)} frames {whole:.2f} s CPU; state after the last event {one:.3f} s CPU")
    return 0


if __name__ == "__main__":
    from _script import run_script  # beside this script

    run_script(main, __file__)
