"""How long do a long game's frames take? ``replay`` and ``state`` (the board's step) on one long record.

A game of random reveals (``--events`` of them at most, seeded) is saved as a whole-deal record;
the script times :func:`trio_solver.doors.queries.replay` (every frame, as ``replay --json`` and the
board's loading give them) and :func:`~trio_solver.doors.queries.state` after the last event (one
step of the board), from every hand and from one seat's view.

    python benchmarks/replay_speed.py --events 2000 --seed 3
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trio_solver.doors import queries  # noqa: E402
from trio_solver.game.record import Record  # noqa: E402
from trio_solver.game.rules import Rules  # noqa: E402
from trio_solver.game.state import Game  # noqa: E402


def long_game(rules: Rules, seed: int, events: int) -> Game:
    """Random legal reveals (and random swaps in team play) until the game ends or has ``events`` events."""
    rng = random.Random(seed)
    g = Game.deal(rules, rng=rng)
    while not g.over and len(g.events) < events:
        for a, b in g.swap_moment():
            g.swap(a, b, rng.choice(g.hands[a]), rng.choice(g.hands[b]))
        g.reveal(rng.choice(g.legal_reveals()))
    return g


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--events", type=int, default=2000)
    p.add_argument("--seed", type=int, default=3)
    args = p.parse_args(argv)
    record = Record.from_game(long_game(Rules(args.players), args.seed, args.events))
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
    raise SystemExit(main())
