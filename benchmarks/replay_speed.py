"""How long do a long game's frames take? ``replay`` and ``state`` (the board's step) on one long record.

A game between ``random`` bots (random legal reveals, seeded: long games) becomes a whole-deal record;
the script times :func:`trio_solver.doors.queries.replay` (every frame, as ``replay --json`` and the
board's loading give them) and :func:`~trio_solver.doors.queries.state` after the last event (one
step of the board), from every hand and from one seat's view.

    python benchmarks/replay_speed.py --seed 3

With ``--longest`` it times instead the longest record the format takes (``MAX_EVENTS`` failed turns of
3 players, each showing the same two centre cards), each step in a fresh process, with that process's
peak memory: reading it, the position after 1 event (``state``), the frames up to event 1 and up to
5,000 (``replay --after``), and every frame, under a 10 s time limit and without one.

    python benchmarks/replay_speed.py --longest

With ``--failed-turns 1000,3000`` it times ``replay`` and ``analyse --quick`` on records of that many failed
turns (whole deal, 3 players): how each grows with a record's length (``--replay-only``: ``replay`` alone).

    python benchmarks/replay_speed.py --failed-turns 1000,2000,4000
    python benchmarks/replay_speed.py --failed-turns 4000,8000,16000,32000 --replay-only
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trio_solver import limits  # noqa: E402
from trio_solver.decide.bots import make_bot  # noqa: E402
from trio_solver.errors import TrioError  # noqa: E402
from trio_solver.game.events import MAX_EVENTS  # noqa: E402
from trio_solver.game.state import Game  # noqa: E402
from trio_solver.doors import queries  # noqa: E402
from trio_solver.game.record import Record  # noqa: E402
from trio_solver.game.rules import Rules  # noqa: E402
from trio_solver.report.analysis import analyse  # noqa: E402
from trio_solver.run.simulate import play_game  # noqa: E402


def longest_record(events: int = MAX_EVENTS) -> Record:
    """A whole-deal record of ``events`` failed turns (the most the format takes by default): every turn
    shows centre slot 0 and the first slot that holds another value."""
    game = Game.deal(Rules(3), rng=random.Random(5))
    other = next(j for j in range(1, len(game.centre)) if game.centre[j] != game.centre[0])
    return Record.from_json({"format": "trio-record/1", **game.to_json(),
                             "events": [{"turn": k % 3, "reveals": [{"centre": 0}, {"centre": other}]}
                                        for k in range(events)]})


def failed_turns(sizes: list[int], analysis: bool = True) -> None:
    """``replay`` (every frame) and the analysis by the turn (``analyse --quick``, every decision judged)
    of records of that many failed turns, CPU seconds each: how they grow with a record's length."""
    for n in sizes:
        record = longest_record(n)
        t = time.process_time()
        frames = len(queries.replay(record, "all")["frames"])
        replayed = time.process_time() - t
        if not analysis:
            print(f"{n:>6} failed turns: replay {frames} frames {replayed:6.2f} s CPU", flush=True)
            continue
        t = time.process_time()
        decisions = len(analyse(record, samples=0).decisions)
        judged = time.process_time() - t
        print(f"{n:>6} failed turns: replay {frames} frames {replayed:6.2f} s CPU; "
              f"analyse --quick {decisions} decisions {judged:6.2f} s CPU")


def _step(job: tuple[str, str]) -> tuple[float, float, str]:
    """In a fresh process: one step on the record saved at ``path``; (CPU seconds, peak MB, what it gave)."""
    what, path = job
    t = time.process_time()
    try:
        record = Record.load(path)
        if what == "state after 1 event":
            out = f"{len(queries.state(record, 'all', 1)['legal'])} legal reveals"
        elif what.startswith("replay up to event"):
            out = f"{len(queries.replay(record, 'all', int(what.rsplit(' ', 1)[1]))['frames'])} frames"
        elif what == "every frame, 10 s limit":
            with limits.time_limit(10):
                out = f"{len(queries.replay(record, 'all')['frames'])} frames"
        elif what == "every frame":
            out = f"{len(queries.replay(record, 'all')['frames'])} frames"
        else:
            out = f"{len(record.events)} events"
    except TrioError as e:
        out = str(e)
    return time.process_time() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, out


def longest(directory: str) -> None:
    path = os.path.join(directory, "longest.json")
    longest_record().save(path)
    print(f"the longest record: {MAX_EVENTS:,} events, {os.path.getsize(path) / 1e6:.1f} MB")
    steps = ["read", "state after 1 event", "replay up to event 1", "replay up to event 5000",
             "every frame, 10 s limit", "every frame"]
    ctx = multiprocessing.get_context("spawn")
    for what in steps:
        with ctx.Pool(1, maxtasksperchild=1) as pool:
            cpu, peak, out = pool.map(_step, [(what, path)])[0]
        print(f"{what:<26} {cpu:6.2f} s CPU  peak {peak:6.0f} MB  {out}")
    for flags in (["--json"], []):  # the command as a person runs it, its output thrown away
        argv = [sys.executable, "-m", "trio_solver", "replay", *flags, path]
        with subprocess.Popen(argv, stdout=subprocess.DEVNULL) as child:
            _, status, usage = os.wait4(child.pid, 0)
            child.returncode = os.waitstatus_to_exitcode(status)
        what = f"trio-solver replay {' '.join(flags)}".rstrip()
        print(f"{what:<26} {usage.ru_utime + usage.ru_stime:6.2f} s CPU  peak {usage.ru_maxrss / 1024:6.0f} MB  "
              f"status {child.returncode}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=3)
    p.add_argument("--longest", action="store_true", help="time the longest record the format takes")
    p.add_argument("--failed-turns", metavar="N,N,...", default=None,
                   help="time replay and analyse --quick on records of that many failed turns")
    p.add_argument("--replay-only", action="store_true", help="with --failed-turns: time replay alone")
    args = p.parse_args(argv)
    if args.failed_turns:
        failed_turns([int(x) for x in args.failed_turns.split(",")], analysis=not args.replay_only)
        return 0
    if args.longest:
        with tempfile.TemporaryDirectory() as tmp:
            longest(tmp)
        return 0
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
