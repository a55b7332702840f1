"""How strong are the bots? One ``solver`` (or ``expert``) against ``memory`` (or ``solver``) bots.

For each setting, a tournament (``trio_solver.simulate.run_tournament``, which
rotates the first player so that no seat gains from moving first) of one solver
against memory bots: 3-6 players in simple and picante mode, and team play at 4
and 6 players (the solver's team is seats ``rules.teams_of_seats[0]``, both seats
played by the solver, against teams of memory bots). Prints the solver's win rate
with a 95% Wilson interval and whether the lower end is above the fair share
(1/players, or 1/teams in team play).

    python benchmarks/strength.py --games 400 --workers 2 --seed 1
    python benchmarks/strength.py --bot expert --against solver --only 3p-simple --games 300
    python benchmarks/strength.py --bot expert --budget 480 --only 4t-simple --against solver

``--bot`` picks the bot tested (default solver), ``--against`` its opponents (default
memory), ``--budget`` the expert's playouts per decision (default: its own).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trio_solver.rules import Mode, Rules  # noqa: E402
from trio_solver.simulate import run_tournament, wilson  # noqa: E402


def settings(only: str | None) -> list[Rules]:
    out = [Rules(n, mode) for n in (3, 4, 5, 6) for mode in (Mode.SIMPLE, Mode.PICANTE)]
    out += [Rules(n, mode, teams=True) for n in (4, 6) for mode in (Mode.SIMPLE, Mode.PICANTE)]
    if only:
        keep = set(only.split(","))
        out = [r for r in out if label(r) in keep]
    return out


def label(rules: Rules) -> str:
    return f"{rules.players}{'t' if rules.teams else 'p'}-{rules.mode.value}"


def lineup(rules: Rules, bot: str = "solver", against: str = "memory") -> list[str]:
    """``bot`` at seat 0 (and at its partner's seat in team play); ``against`` elsewhere."""
    seats = set(rules.teams_of_seats[0])
    return [bot if s in seats else against for s in range(rules.players)]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=400, help="games per setting (default 400)")
    p.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", help="comma-separated settings, e.g. 3p-simple,4t-picante")
    p.add_argument("--bot", default="solver", help="the bot tested (default solver)")
    p.add_argument("--against", default="memory", help="its opponents (default memory)")
    p.add_argument("--budget", type=int, default=None, help="the expert's playouts per decision")
    args = p.parse_args(argv)

    print(f"{args.bot} vs {args.against} bots: {args.games} games per setting, seed {args.seed}, "
          f"{args.workers} workers" + (f", budget {args.budget}" if args.budget else ""))
    print(f"{'setting':<13} {'bots':<42} {'wins':>5} {'rate':>6}  {'95% interval':<16} {'fair':>5}  above fair?"
          f"  {'turns':>5} {'s':>6}")
    above = 0
    rows = 0
    for rules in settings(args.only):
        bots = lineup(rules, args.bot, args.against)
        t0 = time.perf_counter()
        t = run_tournament(rules, bots, args.games, args.seed, workers=args.workers, budget=args.budget)
        elapsed = time.perf_counter() - t0
        data = t.to_json()
        wins = data["per_seat"][0]["wins"]  # seat 0's side: the tested bot (team)
        n = data["games"]
        lo, hi = wilson(wins, n)
        fair = 1 / len(rules.teams_of_seats)
        verdict = "yes" if lo > fair else ("no (below)" if hi < fair else "not shown")
        above += lo > fair
        rows += 1
        print(f"{label(rules):<13} {','.join(bots):<42} {wins:>5} {wins / n:>6.3f}  [{lo:.3f}, {hi:.3f}]   "
              f"{fair:>5.3f}  {verdict:<11}  {data['avg_turns']:>5.1f} {elapsed:>6.1f}")
    print(f"lower end of the interval above the fair share in {above} of {rows} settings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
