"""How fast is the advisor? Time ``advise(view)`` for the seat to move over realistic positions.

Positions come from games played by memory bots (both modes), taken at the start of
turns and in the middle of them; team play (with its secret swaps) is reported
apart. Targets without team swaps: median <= 250 ms, 95th percentile <= 1 s.

    python benchmarks/advise_speed.py --positions 200 --seed 1
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trio_solver.decide.bots import MemoryBot  # noqa: E402
from trio_solver.game.state import Game  # noqa: E402
from trio_solver.game.rules import Mode, Rules  # noqa: E402
from trio_solver.decide.search import advise  # noqa: E402
from trio_solver.run.simulate import play_game  # noqa: E402
from trio_solver.game.view import PlayerView  # noqa: E402

TARGET_MEDIAN = 0.250
TARGET_P95 = 1.0


def collect(players: int, teams: bool, count: int, rng: random.Random) -> list[PlayerView]:
    """``count`` views of the seat to move, half at the start of a turn and half in the middle."""
    starts: list[PlayerView] = []
    mids: list[PlayerView] = []
    want_start = (count + 1) // 2
    want_mid = count - want_start
    games = 0
    while len(starts) < want_start or len(mids) < want_mid:
        mode = Mode.SIMPLE if games % 2 == 0 else Mode.PICANTE
        games += 1
        rules = Rules(players, mode, teams)
        bots = [MemoryBot(random.Random(rng.random())) for _ in range(players)]

        def keep(game: Game) -> None:
            # keep a few positions per game, spread over it
            if rng.random() < 0.15:
                view = game.view(game.to_move)
                if not view.turn and len(starts) < want_start:
                    starts.append(view)
                elif view.turn and len(mids) < want_mid:
                    mids.append(view)

        play_game(rules, bots, rng=rng, on_decision=keep)
    return starts + mids


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    if not s:
        return float("nan")
    k = (len(s) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def time_views(views: list[PlayerView]) -> tuple[list[float], list[float]]:
    """Seconds per advise() call: (at turn start, mid-turn)."""
    start: list[float] = []
    mid: list[float] = []
    for v in views:
        t0 = time.perf_counter()
        advise(v)
        dt = time.perf_counter() - t0
        (mid if v.turn else start).append(dt)
    return start, mid


def row(label: str, xs: list[float]) -> str:
    if not xs:
        return f"{label:<26} {'-':>6}"
    return (f"{label:<26} {len(xs):>6} {1000 * statistics.median(xs):>10.1f} {1000 * percentile(xs, 0.95):>10.1f} "
            f"{1000 * max(xs):>10.1f}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--positions", type=int, default=200, help="positions per setting (default 200)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--no-teams", action="store_true", help="skip team play")
    args = p.parse_args(argv)
    rng = random.Random(args.seed)

    # warm-up (imports, numpy)
    g = Game.deal(Rules(4), seed=0)
    advise(g.view(g.to_move))

    header = f"{'setting':<26} {'n':>6} {'median ms':>10} {'p95 ms':>10} {'max ms':>10}"
    print(f"advise(view) timing, {args.positions} positions per player count, seed {args.seed}")
    print(header)
    overall: list[float] = []
    for players in (3, 4, 5, 6):
        views = collect(players, False, args.positions, rng)
        start, mid = time_views(views)
        overall += start + mid
        print(row(f"{players} players", start + mid))
        print(row("   start of turn", start))
        print(row("   mid-turn", mid))
    print(row("all (no team play)", overall))
    med, p95 = statistics.median(overall), percentile(overall, 0.95)
    ok = med <= TARGET_MEDIAN and p95 <= TARGET_P95
    print(f"targets: median <= {1000 * TARGET_MEDIAN:.0f} ms, p95 <= {1000 * TARGET_P95:.0f} ms: "
          f"{'MET' if ok else 'NOT MET'} (median {1000 * med:.1f} ms, p95 {1000 * p95:.1f} ms)")
    if not args.no_teams:
        print()
        print("team play (secret swaps; reported separately)")
        print(header)
        team_all: list[float] = []
        for players in (4, 6):
            views = collect(players, True, args.positions, rng)
            start, mid = time_views(views)
            team_all += start + mid
            print(row(f"{players} players, teams", start + mid))
            print(row("   start of turn", start))
            print(row("   mid-turn", mid))
        print(row("all team play", team_all))
    return 0


if __name__ == "__main__":
    from _script import run_script  # beside this script

    run_script(main, __file__)
