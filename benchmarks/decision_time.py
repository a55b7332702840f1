"""How long does a bot (the expert by default) take per decision? Median, 95th percentile and worst, per
player count.

The expert plays seat 0 against ``memory`` bots (``--against``: another kind; team play: with an
expert partner against such teams) for ``--games`` games per setting; every decision it makes is
timed (its swaps too, also shown apart). CPU time of this process is reported next
to wall time, since on a shared machine the wall clock also counts other people's
work (the target is about one core).

    python benchmarks/decision_time.py --games 6 --seed 1
    python benchmarks/decision_time.py --games 6 --budget 240 --only 3p-simple
    python benchmarks/decision_time.py --games 6 --bot expert-ties
    python benchmarks/decision_time.py --games 6 --against solver
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trio_solver.decide.bots import make_bot  # noqa: E402
from trio_solver.decide.bots import Bot  # noqa: E402
from trio_solver.decide.expert import DEFAULT_BUDGET  # noqa: E402
from trio_solver.game.reveal import Reveal  # noqa: E402
from trio_solver.game.rules import Mode, Rules  # noqa: E402
from trio_solver.run.simulate import game_seed, play_game  # noqa: E402
from trio_solver.game.view import PlayerView  # noqa: E402


class Timed:
    """A bot, timing each of its decisions (reveals, and swaps in team play)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.swap_cpu: list[float] = []

    def choose_reveal(self, view: PlayerView) -> Reveal:
        w, c = time.perf_counter(), time.process_time()
        r = self.bot.choose_reveal(view)
        self.cpu.append(time.process_time() - c)
        self.wall.append(time.perf_counter() - w)
        return r

    def choose_swap(self, view: PlayerView) -> int | None:
        w, c = time.perf_counter(), time.process_time()
        v = self.bot.choose_swap(view)
        self.cpu.append(time.process_time() - c)
        self.wall.append(time.perf_counter() - w)
        self.swap_cpu.append(self.cpu[-1])
        return v


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=6, help="games per setting (default 6)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--budget", type=int, default=None,
                   help=f"playouts per decision (default: the bot's, {DEFAULT_BUDGET} at 3 players scaled by (3/players)^2)")
    p.add_argument("--only", help="comma-separated settings, e.g. 3p-simple,4t-simple")
    p.add_argument("--bot", default="expert", help="the bot timed (default expert)")
    p.add_argument("--against", default="memory", help="the other bots (default memory)")
    args = p.parse_args(argv)
    settings = [Rules(n) for n in (3, 4, 5, 6)] + [Rules(4, Mode.SIMPLE, True), Rules(6, Mode.SIMPLE, True)]
    settings += [Rules(3, Mode.PICANTE)]
    budget = f"budget {args.budget}" if args.budget else f"default budget ({DEFAULT_BUDGET} x (3/players)^2)"
    print(f"{args.bot} decision time against {args.against}, {budget}, {args.games} games per setting, "
          f"seed {args.seed}")
    print(f"{'setting':<12} {'decisions':>9}  {'cpu median':>10} {'cpu p95':>8} {'cpu max':>8}  "
          f"{'wall median':>11} {'wall p95':>8}  {'swaps':>5} {'swap cpu median':>15} {'swap cpu max':>12}")
    for rules in settings:
        label = f"{rules.players}{'t' if rules.teams else 'p'}-{rules.mode.value}"
        if args.only and label not in args.only.split(","):
            continue
        wall: list[float] = []
        cpu: list[float] = []
        swaps: list[float] = []
        for g in range(args.games):
            team0 = set(rules.teams_of_seats[0])
            bots = []
            timed = []
            for s in range(rules.players):
                rng = random.Random(game_seed(args.seed, g, 1 + s))
                if s in team0:
                    t = Timed(make_bot(args.bot, rng, budget=args.budget))
                    timed.append(t)
                    bots.append(t)
                else:
                    bots.append(make_bot(args.against, rng))
            play_game(rules, bots, rng=random.Random(game_seed(args.seed, g)), first_player=g % rules.players)
            for t in timed:
                wall += t.wall
                cpu += t.cpu
                swaps += t.swap_cpu
        swap_cols = (f"  {len(swaps):>5} {statistics.median(swaps):>15.3f} {max(swaps):>12.3f}" if swaps
                     else f"  {0:>5} {'-':>15} {'-':>12}")
        print(f"{label:<12} {len(cpu):>9}  {statistics.median(cpu):>10.3f} {pct(cpu, 0.95):>8.3f} {max(cpu):>8.3f}  "
              f"{statistics.median(wall):>11.3f} {pct(wall, 0.95):>8.3f}" + swap_cols)
    return 0


if __name__ == "__main__":
    from _script import run_script  # beside this script

    run_script(main, __file__)
