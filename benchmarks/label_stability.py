"""Do the labels of a game-level analysis hold when it is run again with another seed?

    python benchmarks/label_stability.py --games 20 --seeds 0,1

Analyses the bundled examples and ``--games`` games played by ``solver`` and ``memory`` bots (3 to 6
players, both modes, team play; fixed seeds) with the default options, once per seed, and prints for
each the scored decisions, how many got the same label under every seed, how many were not sure, and
the CPU time. The last line sums them up: the share of decisions labelled alike.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trio_solver import Record, Rules  # noqa: E402
from trio_solver.report.analysis import analyse  # noqa: E402
from trio_solver.decide.bots import make_bot  # noqa: E402
from trio_solver.game.rules import Mode  # noqa: E402
from trio_solver.run.simulate import play_game  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = ([Rules(3), Rules(3, Mode.PICANTE)] * 3 + [Rules(4), Rules(4, Mode.PICANTE)] * 2 + [Rules(4)]
            + [Rules(5), Rules(5, Mode.PICANTE), Rules(5)] + [Rules(6), Rules(6, Mode.PICANTE), Rules(6)]
            + [Rules(4, teams=True), Rules(4, Mode.PICANTE, teams=True), Rules(6, teams=True)])


def bot_game(rules: Rules, seed: int) -> Record:
    kinds = ["solver", "memory"] * 3
    bots = [make_bot(kinds[s], random.Random(seed * 10 + s)) for s in range(rules.players)]
    return Record.from_game(play_game(rules, bots, rng=random.Random(seed)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20, help="generated games (default 20)")
    ap.add_argument("--seeds", default="0,1", help="analysis seeds, comma-separated (default 0,1)")
    args = ap.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    records = [(p.name, Record.load(p)) for p in sorted((ROOT / "examples").glob("*.json"))]
    records = [(n, r) for n, r in records if r.known_seats()]
    records += [(f"game {i} ({r.players}p {r.mode.value}{' teams' if r.teams else ''})", bot_game(r, 100 + i))
                for i, r in enumerate((SETTINGS * (args.games // len(SETTINGS) + 1))[:args.games])]
    total = same = unsure = 0
    print(f"{'record':<34} {'scored':>6} {'same':>5} {'unsure':>6} {'cpu s':>6}")
    for name, record in records:
        t = time.process_time()
        runs = [analyse(record, seed=s) for s in seeds]
        cpu = (time.process_time() - t) / len(seeds)
        scored = [i for i, d in enumerate(runs[0].decisions) if d.scored]
        alike = sum(1 for i in scored if len({r.decisions[i].label for r in runs}) == 1)
        vague = sum(1 for i in scored if not runs[0].decisions[i].sure)
        total, same, unsure = total + len(scored), same + alike, unsure + vague
        print(f"{name:<34} {len(scored):>6} {alike:>5} {vague:>6} {cpu:6.1f}", flush=True)
    print(f"labelled alike under seeds {args.seeds}: {same} of {total} scored decisions "
          f"({same / max(total, 1):.1%}); not sure: {unsure} ({unsure / max(total, 1):.1%})")


if __name__ == "__main__":
    from _script import run_script  # beside this script

    run_script(main, __file__)
