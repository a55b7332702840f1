"""Do the figures of ``advise --objective game`` agree with a long reference within their stated errors?

    python benchmarks/advise_errors.py
    python benchmarks/advise_errors.py --positions 80 --reference-deals 1024 --seed 5

The positions are those of ``judge_speed.py`` (every 4th reveal of the recorded bot games in
``tests/corpus``), ``--positions`` of them drawn with ``--seed``. At each, ``advise_game(view,
seed=k)`` (the library's defaults: its race drops the reveals beaten at 95% and stops early) is set
against a reference that plays every distinct reveal on ``--reference-deals`` deals of another seed
(``confidence=1``: no early stop). For each distinct reveal it counts

* *far*: its ``p_game`` more than 3 standard errors from the reference's, the two errors combined
  (``sqrt(se^2 + se_ref^2)``); normal errors would make this about 3 in 1,000;
* *passed over*: a reveal ranked below the first whose reference ``p_game`` beats the first's by more
  than 2 combined errors.

It prints each far reveal (position, reveal, both figures), the counts, and the CPU time of the advice
alone. The reference takes some 5 s of CPU a position.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from judge_speed import _positions  # noqa: E402  (the same positions as the speed benchmark)

from trio_solver.decide.evaluate import advise_game  # noqa: E402
from trio_solver.decide.rollout import public_memory  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=80, help="positions drawn (default 80)")
    ap.add_argument("--reference-deals", type=int, default=1024, help="deals of the reference (default 1024)")
    ap.add_argument("--seed", type=int, default=5, help="which positions are drawn (default 5)")
    args = ap.parse_args()
    views = _positions()
    random.Random(args.seed).shuffle(views)
    views = views[:args.positions]
    rows = far = passed = 0
    cpu = 0.0
    for k, view in enumerate(views):
        t = time.process_time()
        advice = advise_game(view, seed=k)
        cpu += time.process_time() - t
        reference = advise_game(view, seed=10_000 + k, confidence=1, samples=args.reference_deals)
        ref = {e.reveal: e for e in reference.evaluations}
        memory = public_memory(view)
        first = advice.evaluations[0]
        best = ref[first.reveal]
        seen = set()
        for e in advice.evaluations:
            move = memory.alike(view, e.reveal)  # the centre cards no one has seen share their figures: one each
            if move in seen:
                continue
            seen.add(move)
            r = ref[e.reveal]
            rows += 1
            diff = (e.p_game or 0.0) - (r.p_game or 0.0)
            error = math.hypot(e.p_game_stderr or 0.0, r.p_game_stderr or 0.0)
            z = diff / error if error else (0.0 if abs(diff) < 1e-12 else math.copysign(math.inf, diff))
            if abs(z) > 3:
                far += 1
                print(f"far: position {k} ({view.rules.players} players), {e.reveal}: {e.p_game:.3f} ± "
                      f"{e.p_game_stderr:.3f}, reference {r.p_game:.3f} ± {r.p_game_stderr:.3f} ({z:+.1f} errors)")
            if e is not first and (r.p_game or 0.0) - (best.p_game or 0.0) > 2 * math.hypot(
                    r.p_game_stderr or 0.0, best.p_game_stderr or 0.0):
                passed += 1
        if (k + 1) % 10 == 0 or k + 1 == len(views):
            print(f"{k + 1} positions, {rows} distinct reveals: {far} far, {passed} passed over; "
                  f"advice {cpu:.1f} s CPU", flush=True)


if __name__ == "__main__":
    from _script import run_script  # beside this script

    run_script(main, __file__)
