"""How noisy is the `expert-ties` bot's choice? Two independent sets of playouts on the same position: same choice?

Positions are the expert's own start-of-turn decisions in games against ``memory``
bots. For each position the race is run with two different seeds; the agreement
rate is the share of positions where both pick the same reveal (1.0 = no noise).
Compares the plain share of playouts won with the post-stratified estimate, with
and without successive halving, at a given budget.

    python benchmarks/expert_noise.py --positions 40 --budget 480
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trio_solver.decide.bots import make_bot  # noqa: E402
from trio_solver.game.state import Game  # noqa: E402
from trio_solver.decide.expert import TiesExpertBot  # noqa: E402
from trio_solver.game.rules import Mode, Rules  # noqa: E402
from trio_solver.run.simulate import play_game  # noqa: E402
from trio_solver.game.view import PlayerView  # noqa: E402


def positions(rules: Rules, count: int, seed: int) -> list[PlayerView]:
    out: list[PlayerView] = []
    g = 0
    while len(out) < count:
        def grab(game: Game) -> None:
            if game.to_move == 0 and not game.turn and len(game.legal_reveals()) > 1:
                out.append(game.view(0))
        bots = [make_bot("solver" if s == 0 else "memory", random.Random(seed + 31 * g + s))
                for s in range(rules.players)]
        play_game(rules, bots, rng=random.Random(seed + g), on_decision=grab)
        g += 1
    return out[:count]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--positions", type=int, default=40)
    p.add_argument("--budget", type=int, default=480)
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--mode", default="simple")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    views = positions(Rules(args.players, Mode(args.mode)), args.positions, args.seed)
    print(f"{len(views)} positions, {args.players} players {args.mode}, budget {args.budget}")
    for label, stratify, halving in (("plain mean, halving", False, True), ("post-stratified, halving", True, True),
                                     ("post-stratified, no halving", True, False)):
        same = 0
        for k, view in enumerate(views):
            a = TiesExpertBot(random.Random(2 * k), budget=args.budget, stratify=stratify, halving=halving)
            b = TiesExpertBot(random.Random(2 * k + 1), budget=args.budget, stratify=stratify, halving=halving)
            same += a.choose_reveal(view) == b.choose_reveal(view)
        print(f"  {label:<30} agreement {same / len(views):.3f} ({same}/{len(views)})")
    return 0


if __name__ == "__main__":
    from _script import run_script  # beside this script

    run_script(main, __file__)
