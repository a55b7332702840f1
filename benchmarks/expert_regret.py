"""How much game-win chance does the `expert-ties` bot's race give away, against a far longer race?

Positions are start-of-turn decisions of seat 0 in 3-player games between ``solver``
bots (no certain trio, at least two candidates). For each, a *reference* plays every
distinct reveal (one unknown centre card standing for all) on ``--reference``
posterior deals, with common random numbers and post-stratification. The *regret* of
a choice is the reference value of the best reveal minus that of the choice. Each
configuration ``BUDGET:CANDIDATES`` (``all``: every distinct reveal; ``--window``
narrows the races to the reveals within that turn score of the best, as the bot now
does by default) is raced ``--repeats`` times per position with different seeds; the mean
regret and its standard error are printed, next to the regret of always playing the
best reveal by the turn score (what ``solver`` does, but for its leak penalty).

    python benchmarks/expert_regret.py --positions 40 --reference 2500 --repeats 2 --seed 8 --configs 960:3,960:all,1920:all

With ``--mid-turn`` the positions are decisions in the middle of a turn of seat 0
(no certain trio, at least two distinct reveals), where the bot does not race but
follows the advisor; the reference plays the six best distinct reveals and the
regret of the bot's own choice is printed next to that of the best by the turn score.

    python benchmarks/expert_regret.py --mid-turn --positions 30 --reference 2000
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trio_solver.infer.beliefs import Beliefs  # noqa: E402
from trio_solver.decide.bots import make_bot  # noqa: E402
from trio_solver.game.state import Game  # noqa: E402
from trio_solver.decide.evaluate import Posterior, distinct_moves, playout_tallies  # noqa: E402
from trio_solver.decide.expert import TiesExpertBot  # noqa: E402
from trio_solver.decide.rollout import public_memory  # noqa: E402
from trio_solver.game.rules import Rules  # noqa: E402
from trio_solver.decide.search import Evaluation, advise  # noqa: E402
from trio_solver.run.simulate import play_game  # noqa: E402
from trio_solver.game.view import PlayerView  # noqa: E402

WIDE = 6


def candidates(view: PlayerView, beliefs: Beliefs | None = None) -> list[Evaluation]:
    """What the reference plays: every distinct reveal at the start of a turn, the six best
    distinct reveals mid-turn."""
    bot = TiesExpertBot(random.Random(0), window=None)
    ranked = bot.ranked(view, advise(view, beliefs=beliefs))
    if view.turn:
        return distinct_moves(view, public_memory(view), ranked)[:WIDE]
    return bot.candidates_of(view, ranked)


def positions(count: int, seed: int, mid_turn: bool = False) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    g = 0
    while len(out) < count:
        pick = random.Random(seed * 1_000_003 + g)

        def grab(game: Game) -> None:
            if game.to_move != 0 or bool(game.turn) != mid_turn or len(out) >= count or pick.random() < 0.5:
                return
            view = game.view(0)
            if any(e.p_trio >= 1 - 1e-9 for e in advise(view).evaluations) or len(candidates(view)) < 2:
                return
            out.append(view.to_json())

        bots = [make_bot("solver", random.Random(seed + 31 * g + s)) for s in range(3)]
        play_game(Rules(3), bots, rng=random.Random(seed + g), on_decision=grab)
        g += 1
    return out


def reference(task: tuple[dict[str, Any], int]) -> dict[str, float]:
    data, samples = task
    view = PlayerView.from_json(data)
    beliefs = Beliefs(view)
    cands = candidates(view, beliefs)
    if view.turn:  # the bot's own choice is always measured
        pick = TiesExpertBot(random.Random(0)).choose_reveal(view)
        cands += [e for e in advise(view, beliefs=beliefs).evaluations if e.reveal == pick and e not in cands]
    post = Posterior(view, beliefs)
    tallies = playout_tallies(post, cands, 999_983, range(samples))
    return {str(e.reveal): t.estimate(e.p_trio, e.p_win)[0] for e, t in zip(cands, tallies)}


def race(task: tuple[dict[str, Any], int, int | None, int, float | None]) -> str:
    data, budget, candidates, seed, window = task
    return str(TiesExpertBot(random.Random(seed), budget=budget, candidates=candidates, window=window)
               .choose_reveal(PlayerView.from_json(data)))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--positions", type=int, default=24)
    p.add_argument("--reference", type=int, default=3000, help="posterior deals per candidate of the reference")
    p.add_argument("--repeats", type=int, default=4, help="races per position and configuration")
    p.add_argument("--configs", default="960:3,960:all,1920:all",
                   help="BUDGET:CANDIDATES,... (CANDIDATES: a number or all)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--mid-turn", action="store_true", help="decisions in the middle of a turn")
    p.add_argument("--window", default="none",
                   help="the races' turn-score window (none, the default: every distinct reveal, as in the "
                        "figures of docs/DESIGN.md; the bot's own default is 0: exact ties)")
    args = p.parse_args(argv)
    window = None if args.window == "none" else float(args.window)
    pos = positions(args.positions, args.seed, args.mid_turn)
    with multiprocessing.Pool(args.workers) as pool:
        refs = pool.map(reference, [(d, args.reference) for d in pos])

        def report(label: str, regrets: list[float]) -> None:
            n = len(regrets)
            m = sum(regrets) / n
            se = math.sqrt(sum((x - m) ** 2 for x in regrets) / max(n - 1, 1) / n)
            print(f"{label:<34} mean regret {m:.4f} ± {se:.4f}  ({n} choices)", flush=True)

        print(f"{len(pos)} positions, reference {args.reference} deals per candidate, seed {args.seed}")
        report("best by the turn score", [max(r.values()) - next(iter(r.values())) for r in refs])
        if args.mid_turn:
            picks = pool.map(race, [(d, 1, 1, 0, window) for d in pos])
            report("the expert's choice", [max(r.values()) - r[pick] for r, pick in zip(refs, picks)])
            return 0
        for config in args.configs.split(","):
            b, c = config.split(":")
            budget, wide = int(b), (None if c == "all" else int(c))
            tasks = [(d, budget, wide, s, window) for d in pos for s in range(args.repeats)]
            picks = pool.map(race, tasks)
            regrets = [max(refs[k // args.repeats].values()) - refs[k // args.repeats][pick]
                       for k, pick in enumerate(picks)]
            report(f"race, budget {budget}, {c} candidates", regrets)
    return 0


if __name__ == "__main__":
    from _script import run_script  # beside this script

    run_script(main, __file__)
