"""Games per second on each backend: one process, the local pool, and Ray with 1 and 2 CPUs.

The same tournament (same seed, so the very same games) is played on every
backend; the script checks that the summaries are equal and prints games per
second and the overhead of Ray as a ratio to the local pool with the same
number of CPUs. Ray's start-up (a local instance, seconds) is timed apart, and
each Ray run is preceded by a few warm-up games so that worker processes exist.

On a machine shared with other work, wall-clock rates depend on how the
scheduler shares the cores between processes, so the script also prints the CPU
time spent per game by this process and all its descendants (pool workers; Ray's
raylet, GCS and workers): the overhead that does not depend on the load.

    python benchmarks/backends.py --games 400 --bots memory,memory,memory,memory
    python benchmarks/backends.py --games 60 --bots solver,memory,memory,memory
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trio_solver.game.rules import Rules  # noqa: E402
from trio_solver.run.simulate import run_tournament  # noqa: E402


def _clock_ticks() -> int:
    return os.sysconf("SC_CLK_TCK")


def _descendants_cpu() -> float:
    """CPU seconds used so far by the live descendants of this process (from /proc)."""
    parent: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        parent[int(name)] = int(fields[1])
        cpu[int(name)] = (int(fields[11]) + int(fields[12])) / _clock_ticks()
    me = os.getpid()
    total = 0.0
    for pid in cpu:
        p = parent.get(pid)
        while p is not None and p > 1:
            if p == me:
                total += cpu[pid]
                break
            p = parent.get(p)
    return total


def cpu_seconds() -> float:
    """CPU seconds of this process, its reaped children and its live descendants."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system + _descendants_cpu()


def _stable(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "games_per_second"}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--bots", default="memory,memory,memory,memory")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    rules = Rules(args.players)
    bots = args.bots.split(",")
    print(f"{args.games} games, {args.players} players, bots {args.bots}, seed {args.seed}")
    rows: list[tuple[str, float]] = []
    cpu_per_game: dict[str, float] = {}
    reference = None

    def run(label: str, **kwargs: Any) -> float:
        nonlocal reference
        before = cpu_seconds()
        t = run_tournament(rules, bots, args.games, args.seed, keep_results=False, **kwargs)
        cpu_per_game[label] = (cpu_seconds() - before) / args.games
        data = t.to_json()
        if reference is None:
            reference = _stable(data)
        elif _stable(data) != reference:
            print(f"  {label}: SUMMARY DIFFERS", file=sys.stderr)
            raise SystemExit(1)
        rate = float(data["games_per_second"])
        print(f"  {label:<22} {rate:9.2f} games/s  ({t.seconds:.1f} s)  "
              f"{1000 * cpu_per_game[label]:7.1f} ms of CPU per game")
        rows.append((label, rate))
        return rate

    local1 = run("local, 1 process", workers=1)
    local2 = run("local pool, 2 workers", workers=2)

    import ray

    rays = {}
    for cpus in (1, 2):
        start = time.perf_counter()
        ray.init(address="local", num_cpus=cpus, include_dashboard=False, log_to_driver=False,
                 logging_level=logging.WARNING)
        up = time.perf_counter() - start
        run_tournament(rules, bots, 2 * cpus, args.seed + 1, backend="ray")  # start the worker processes
        print(f"  (Ray, {cpus} CPU{'s' if cpus > 1 else ''}: local instance started in {up:.1f} s)")
        rays[cpus] = run(f"ray, {cpus} CPU{'s' if cpus > 1 else ''}", backend="ray")
        ray.shutdown()
    print(f"Ray overhead (local rate / Ray rate): 1 CPU {local1 / rays[1]:.2f}, 2 CPUs {local2 / rays[2]:.2f}")
    print(f"Speed-up of 2 over 1: local pool {local2 / local1:.2f}, Ray {rays[2] / rays[1]:.2f}")
    c = cpu_per_game
    print(f"CPU per game, Ray / local: 1 CPU {c['ray, 1 CPU'] / c['local, 1 process']:.2f}, "
          f"2 CPUs {c['ray, 2 CPUs'] / c['local pool, 2 workers']:.2f}")
    print(f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    from _script import run_script  # beside this script

    run_script(main, __file__)
