"""How fast is the game-level judgement? Playouts, ``evaluate``, ``advise --objective game``, ``analyse``,
``memory`` bots and ``Beliefs(view)``, in CPU time, optionally side by side with an earlier revision.

    python benchmarks/judge_speed.py
    python benchmarks/judge_speed.py --against 7fc2636 --only playouts,evaluate,advise,analyse
    python benchmarks/judge_speed.py --against 56447d0 --only memory

Each measurement runs in a fresh process (``--worker``) for this tree and, with ``--against REV``,
for a temporary git worktree of ``REV``; the two alternate ``--rounds`` times and the best round of
each is kept (the least disturbed by the machine's other work). Every measurement uses its
library's defaults and ``seed=0``:

* ``playouts``: games per second on one core at 3 and 6 players (deal drawn and played out);
* ``evaluate`` / ``advise``: median and 95th percentile over the positions of the recorded bot
  games in ``tests/corpus`` (every 4th reveal), and the largest standard error ``evaluate`` reports;
* ``analyse``: a default analysis of ``examples/full_deal_4p.json`` and of each 6-player bot game
  of ``tests/corpus``;
* ``memory``: 30 four-player games of ``memory`` bots, and ``Beliefs(view)`` on 400 positions of
  random games.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MEASURES = ("playouts", "evaluate", "advise", "analyse", "memory")


# -- the measurements (run in a worker, against whichever trio_solver PYTHONPATH names) ---------------

def _module(path: str, old: str) -> Any:
    """A module of the library measured, by its path in the subpackages or its older top-level name
    (so that a revision from before the subpackages is measured too)."""
    import importlib

    try:
        return importlib.import_module(f"trio_solver.{path}")
    except ImportError:
        return importlib.import_module(f"trio_solver.{old}")


def _positions() -> list[Any]:
    from trio_solver import Game, Record

    views = []
    for f in sorted(glob.glob(str(ROOT / "tests" / "corpus" / "*_bot.json"))):
        r = Record.load(f)
        g = Game(r.rules, r.deal, r.first_player)
        k = 0
        for e in r.events:
            if hasattr(e, "reveals"):
                for rv in e.reveals:
                    if k % 4 == 0 and not g.over:
                        views.append(g.view(g.to_move))
                    k += 1
                    g.reveal(rv.reveal)
            else:
                g.swap(e.seats[0], e.seats[1], e.cards[0], e.cards[1])
    return views


def _quantiles(ts: list[float]) -> dict[str, float]:
    ts = sorted(ts)
    return {"median_ms": 1000 * statistics.median(ts), "p95_ms": 1000 * ts[int(0.95 * (len(ts) - 1))],
            "n": len(ts)}


def measure_playouts() -> dict[str, Any]:
    from trio_solver import Game, Rules
    Posterior = _module("decide.evaluate", "evaluate").Posterior

    out: dict[str, Any] = {}
    for players in (3, 6):
        game = Game.deal(Rules(players), seed=1)
        view = game.view(game.to_move)
        post = Posterior(view)
        n = 3000 if players == 3 else 1500
        if hasattr(post, "outcomes"):  # the compiled kernel: deals drawn and played in batches
            post.outcomes(0, range(10))
            t = time.process_time()
            post.outcomes(1, range(n))
        else:  # the pure-Python playouts: one state per deal
            n //= 10
            t = time.process_time()
            for j in range(n):
                post.sim(1, j).playout()
        out[f"{players}p_games_per_s"] = n / (time.process_time() - t)
    return out


def measure_evaluate() -> dict[str, Any]:
    evaluate = _module("decide.evaluate", "evaluate").evaluate

    views = _positions()
    evaluate(views[0])
    ts, worst = [], 0.0
    for v in views:
        t = time.process_time()
        ev = evaluate(v)
        ts.append(time.process_time() - t)
        worst = max(worst, max(ev.stderr))
    return {**_quantiles(ts), "largest_stderr": worst}


def measure_advise() -> dict[str, Any]:
    advise_game = _module("decide.evaluate", "evaluate").advise_game

    views = _positions()
    advise_game(views[0])
    ts = []
    for v in views:
        t = time.process_time()
        advise_game(v)
        ts.append(time.process_time() - t)
    return _quantiles(ts)


def measure_analyse() -> dict[str, Any]:
    from trio_solver import Record, analyse

    games = [ROOT / "examples" / "full_deal_4p.json"] + sorted(Path(p) for p in
                                                              glob.glob(str(ROOT / "tests" / "corpus" / "p6_*_bot.json")))
    analyse(Record.load(games[0]), samples=2)
    out = {}
    for g in games:
        record = Record.load(g)
        t = time.process_time()
        analyse(record)
        out[g.name] = time.process_time() - t
    return out


def measure_memory() -> dict[str, Any]:
    from trio_solver import Beliefs, Game, Rules, make_bot, play_game

    t = time.process_time()
    for g in range(30):
        play_game(Rules(4), [make_bot("memory", random.Random(g * 10 + s)) for s in range(4)], rng=random.Random(g))
    simulate = time.process_time() - t
    views = []
    for g in range(10):
        rng = random.Random(g)
        game = Game.deal(Rules(3 + g % 4), rng=rng)
        for _ in range(40):
            if game.over:
                break
            game.reveal(rng.choice(game.legal_reveals()))
            views.append(game.view(game.to_move))
    t = time.process_time()
    for v in views:
        Beliefs(v)
    return {"simulate_memory_30_games_s": simulate, f"beliefs_{len(views)}_views_s": time.process_time() - t}


# -- running them side by side -------------------------------------------------------------------------

def _run(tree: Path, measure: str) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", measure], env=env,
                          capture_output=True, text=True, cwd=tempfile.gettempdir())
    if proc.returncode != 0:
        raise SystemExit(f"{measure} at {tree}: {proc.stderr.strip().splitlines()[-1:]}")
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def _best(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Keep the better of two rounds, figure by figure (higher rates, lower times)."""
    out = {}
    for k, x in a.items():
        y = b.get(k, x)
        out[k] = max(x, y) if k.endswith("per_s") else x if k in ("n", "largest_stderr") else min(x, y)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--against", metavar="REV", help="also measure this git revision, side by side")
    ap.add_argument("--only", default=",".join(MEASURES), help=f"comma-separated, of {', '.join(MEASURES)}")
    ap.add_argument("--rounds", type=int, default=2, help="alternating rounds; the best is kept (default 2)")
    ap.add_argument("--worker", choices=MEASURES, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(globals()[f"measure_{args.worker}"]()))
        return
    measures = [m for m in args.only.split(",") if m]
    for m in measures:
        if m not in MEASURES:
            raise SystemExit(f"--only: unknown measurement {m!r} (of {', '.join(MEASURES)})")
    trees = [("this tree", ROOT)]
    with tempfile.TemporaryDirectory() as tmp:
        if args.against:
            old = Path(tmp) / "old"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old), args.against],
                           check=True, capture_output=True)
            trees.append((args.against, old))
        try:
            for m in measures:
                best: dict[str, dict[str, Any]] = {}
                for _ in range(args.rounds):
                    for name, tree in trees:
                        got = _run(tree, m)
                        best[name] = _best(best[name], got) if name in best else got
                for name, _ in trees:
                    figures = ", ".join(f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}"
                                        for k, v in best[name].items())
                    print(f"{m:<9} {name:<10} {figures}", flush=True)
        finally:
            if args.against:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(Path(tmp) / "old")],
                               capture_output=True)


if __name__ == "__main__":
    from _script import run_script  # beside this script

    run_script(main, __file__)
