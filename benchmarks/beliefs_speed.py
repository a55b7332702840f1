"""How fast is the belief model? Time the full set of answers for the seat to move.

For positions from games played by memory bots (both modes; the seat to move at the
start of a turn), early (the first three turns), middle and late in the game, at 3, 4, 5
and 6 players, time everything a frontend shows — ``Beliefs(view)``, ``centre()``,
``lowest``/``highest`` of every seat with cards, ``expected`` of every hidden seat,
``deductions()`` — plus the joint-event tables the advisor uses (``prob_all_show`` for a
few requests of each value). Sampling is not timed. Team play (4 and 6 players, with
secret swaps) is reported separately.

Targets without team swaps: median <= 20 ms and worst <= 250 ms per position. The last
columns split the median into building the model, the marginals (centre, ends,
expectations, deductions) and the joint events.

    python benchmarks/beliefs_speed.py --positions 30 --seed 1
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trio_solver.infer.beliefs import Beliefs  # noqa: E402
from trio_solver.run import simulate  # noqa: E402
from trio_solver.decide.bots import MemoryBot  # noqa: E402
from trio_solver.game.state import Game  # noqa: E402
from trio_solver.game.reveal import Reveal  # noqa: E402
from trio_solver.game.rules import VALUES, Mode, Rules  # noqa: E402
from trio_solver.game.view import PlayerView  # noqa: E402

TARGET_MEDIAN = 0.020
TARGET_WORST = 0.250
PHASES = ("early", "middle", "late")


def play_game(rules: Rules, rng: random.Random) -> list[PlayerView]:
    """One game between memory bots; the view of the seat to move at the start of every turn."""
    bots = [MemoryBot(random.Random(rng.random())) for _ in range(rules.players)]
    starts: list[PlayerView] = []

    def keep(game: Game) -> None:
        if not game.turn:
            starts.append(game.view(game.to_move))

    simulate.play_game(rules, bots, rng=rng, on_decision=keep)
    return starts


def collect(players: int, teams: bool, count: int, rng: random.Random) -> dict[str, list[PlayerView]]:
    """``count`` positions per phase, one of each phase per game."""
    out: dict[str, list[PlayerView]] = {p: [] for p in PHASES}
    games = 0
    while min(len(v) for v in out.values()) < count:
        rules = Rules(players, Mode.SIMPLE if games % 2 == 0 else Mode.PICANTE, teams)
        games += 1
        views = play_game(rules, rng)
        if len(views) < 6:
            continue
        n = len(views)
        picks = {
            "early": views[rng.randrange(3)],
            "middle": views[rng.randrange(n // 3, max(n // 3 + 1, 2 * n // 3))],
            "late": views[rng.randrange(max(3, n - max(3, n // 6)), n)],
        }
        for phase, v in picks.items():
            if len(out[phase]) < count:
                out[phase].append(v)
    return out


def joint_requests(view: PlayerView) -> list[list[Reveal]]:
    """A few request sequences the advisor would ask about: single reveals and pairs of the first legal ones."""
    legal = view.legal_reveals()
    firsts = legal[:4]
    seqs: list[list[Reveal]] = [[r] for r in firsts]
    for i, a in enumerate(firsts):
        for b in firsts[i:]:
            if a.is_centre and a == b:
                continue
            seqs.append([a, b])
    return seqs


def answer_everything(view: PlayerView, parts: list[float] | None = None) -> int:
    """Everything a frontend shows for ``view``, plus the joint-event tables; returns a checksum of sizes.

    ``parts`` receives the seconds spent in (model, marginals and deductions, joint events)."""
    t0 = time.perf_counter()
    b = Beliefs(view)
    t1 = time.perf_counter()
    n = len(b.centre())
    for s in range(view.rules.players):
        if view.accessible(s) > 0:
            n += len(b.lowest(s)) + len(b.highest(s))
    for s in b.hidden_seats():
        n += len(b.expected(s))
    n += len(b.deductions())
    t2 = time.perf_counter()
    for seq in joint_requests(view):
        for v in VALUES:
            if b.prob_all_show(v, seq) > 0:
                n += 1
    if parts is not None:
        parts[:] = [t1 - t0, t2 - t1, time.perf_counter() - t2]
    return n


#: Per timed position: (total, model, marginals, joint events) seconds.
Timing = tuple[float, float, float, float]


def time_views(views: list[PlayerView]) -> list[Timing]:
    out = []
    parts: list[float] = []
    for v in views:
        t0 = time.perf_counter()
        answer_everything(v, parts)
        out.append((time.perf_counter() - t0, parts[0], parts[1], parts[2]))
    return out


def row(label: str, ts: list[Timing]) -> str:
    if not ts:
        return f"{label:<22} {'-':>5}"
    xs = [t[0] for t in ts]
    split = " ".join(f"{1000 * statistics.median(t[k] for t in ts):>7.1f}" for k in (1, 2, 3))
    return f"{label:<22} {len(xs):>5} {1000 * statistics.median(xs):>10.1f} {1000 * max(xs):>10.1f}   {split}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--positions", type=int, default=30, help="positions per player count and phase (default 30)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--no-teams", action="store_true", help="skip team play")
    args = p.parse_args(argv)
    rng = random.Random(args.seed)

    g = Game.deal(Rules(4), seed=0)  # warm-up: imports, numpy
    answer_everything(g.view(g.to_move))

    header = (f"{'setting':<22} {'n':>5} {'median ms':>10} {'worst ms':>10}   "
              f"{'model':>7} {'margins':>7} {'joint':>7}  (medians, ms)")
    print(f"beliefs: full answers for the seat to move, {args.positions} positions per cell, seed {args.seed}")
    print(header)
    overall: list[Timing] = []
    for players in (3, 4, 5, 6):
        by_phase = collect(players, False, args.positions, rng)
        per_players: list[Timing] = []
        for phase in PHASES:
            ts = time_views(by_phase[phase])
            per_players += ts
            print(row(f"{players} players, {phase}", ts))
        print(row(f"{players} players, all", per_players))
        overall += per_players
    print(row("all (no team play)", overall))
    totals = [t[0] for t in overall]
    med, worst = statistics.median(totals), max(totals)
    ok = med <= TARGET_MEDIAN and worst <= TARGET_WORST
    print(f"targets: median <= {1000 * TARGET_MEDIAN:.0f} ms, worst <= {1000 * TARGET_WORST:.0f} ms: "
          f"{'MET' if ok else 'NOT MET'} (median {1000 * med:.1f} ms, worst {1000 * worst:.1f} ms)")
    if not args.no_teams:
        print()
        print("team play (secret swaps), reported separately")
        print(header)
        team: list[Timing] = []
        for players in (4, 6):
            by_phase = collect(players, True, args.positions, rng)
            per_players = []
            for phase in PHASES:
                ts = time_views(by_phase[phase])
                per_players += ts
                print(row(f"{players} teams, {phase}", ts))
            print(row(f"{players} teams, all", per_players))
            team += per_players
        print(row("all team play", team))
    return 0


if __name__ == "__main__":
    from _script import run_script  # beside this script

    run_script(main, __file__)
