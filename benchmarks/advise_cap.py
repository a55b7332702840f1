"""What does ``advise --objective game``'s cap of deals buy? Time, the first reveal's regret, and its
stability under another seed, for each cap.

    python benchmarks/advise_cap.py
    python benchmarks/advise_cap.py --caps table,2048,1024 --seeds 0,1 --reference-seed 99

The positions are those of ``judge_speed.py`` (every 4th reveal of the recorded bot games in
``tests/corpus``). The reference plays every distinct reveal of a position on the same
``--reference-deals`` deals of ``--reference-seed`` (``confidence=1``: no early stop); its ``p_game``
is the yardstick, itself within about 0.01. For each cap and seed, ``advise_game(view, samples=cap,
seed=seed)`` (the other options at the library's defaults; the cap ``table`` is the library's default
for each table size) gives the first reveal:

* time: median, 95th percentile and mean CPU time per position;
* regret: the reference's best ``p_game`` minus that of the reveal ranked first (mean and worst);
* same first: positions where the first two seeds rank first reveals of equal reference ``p_game``
  (the same reveal, or one the posterior cannot tell from it).

Each figure is given for all the positions and for each table size. The reference takes about a
minute of CPU at the defaults; each cap and seed well under one.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from judge_speed import _positions  # noqa: E402  (the same positions as the speed benchmark)

from trio_solver.decide.evaluate import advise_game  # noqa: E402


def _caps(text: str) -> list[int | None]:
    """The caps of ``--caps``: whole numbers from 1, or ``table`` (``None``: the library's default)."""
    try:
        out: list[int | None] = [None if x == "table" else int(x) for x in text.split(",") if x]
    except ValueError:
        raise SystemExit(f"expected comma-separated whole numbers or 'table', got {text!r}") from None
    if not out or min((c for c in out if c is not None), default=1) < 1:
        raise SystemExit(f"expected comma-separated whole numbers from 1 or 'table', got {text!r}")
    return out


def _line(name: str, times: list[float], regret: list[float]) -> str:
    times = sorted(times)
    return (f"{name}: median {1000 * statistics.median(times):.0f} ms, "
            f"95th pct {1000 * times[int(0.95 * (len(times) - 1))]:.0f} ms, "
            f"mean {1000 * statistics.fmean(times):.0f} ms; regret mean {statistics.fmean(regret):.4f}, "
            f"worst {max(regret):.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--caps", default="table,2048,1024",
                    help="caps of deals to compare; 'table': the library's default by table size "
                         "(default table,2048,1024)")
    ap.add_argument("--seeds", default="0,1", help="seeds of the advice (default 0,1; the first two are compared)")
    ap.add_argument("--reference-seed", type=int, default=99, help="seed of the reference (default 99)")
    ap.add_argument("--reference-deals", type=int, default=2048, help="deals of the reference (default 2048)")
    args = ap.parse_args()
    caps, seeds = _caps(args.caps), [int(s) for s in args.seeds.split(",") if s]
    views = _positions()
    sizes = [v.rules.players for v in views]
    advise_game(views[0], samples=64)  # the kernel compiled (or loaded) before any timing
    reference = []
    for v in views:
        a = advise_game(v, samples=args.reference_deals, seed=args.reference_seed, confidence=1.0)
        reference.append({e.reveal: e.p_game or 0.0 for e in a.evaluations})
    print(f"{len(views)} positions ({', '.join(f'{sizes.count(p)} at {p} players' for p in sorted(set(sizes)))}); "
          f"reference: seed {args.reference_seed}, {args.reference_deals} deals each")
    for cap in caps:
        name = "table" if cap is None else str(cap)
        firsts: list[list[float]] = []
        for seed in seeds:
            times, chosen = [], []
            for v, ref in zip(views, reference):
                t = time.process_time()
                a = advise_game(v, samples=cap, seed=seed)
                times.append(time.process_time() - t)
                chosen.append(ref[a.evaluations[0].reveal])
            regret = [max(ref.values()) - c for ref, c in zip(reference, chosen)]
            print(_line(f"cap {name:>5} seed {seed}", times, regret))
            for p in sorted(set(sizes)):
                at = [i for i, q in enumerate(sizes) if q == p]
                print(_line(f"    {p} players", [times[i] for i in at], [regret[i] for i in at]))
            firsts.append(chosen)
        if len(firsts) >= 2:
            same = sum(a == b for a, b in zip(firsts[0], firsts[1]))
            print(f"cap {name:>5}: same first reveal under seeds {seeds[0]} and {seeds[1]}: {same}/{len(views)}")


if __name__ == "__main__":
    from _script import run_script  # beside this script

    run_script(main, __file__)
