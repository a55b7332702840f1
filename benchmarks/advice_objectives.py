"""What does each objective of ``advise`` put first? The three turn objectives side by side on real positions.

Positions are the turn starts and mid-turn decisions of games between ``solver`` bots (seeded). For each,
``advise`` ranks the legal reveals by ``turn`` (the default: the turn's worth), ``trio`` and ``win``, and
the script counts how often the first reveal of each objective *gives up a trio for a sliver of a win*:
a chance of a trio at least ``--gap`` below the best reveal's, for a chance to win now at most 0.01 above
that reveal's. It prints the count per objective and the largest chance to win now bought that way.

    python benchmarks/advice_objectives.py --games 40 --seed 1
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trio_solver.decide.bots import make_bot  # noqa: E402
from trio_solver.decide.search import TURN_OBJECTIVES, Evaluation, advise  # noqa: E402
from trio_solver.game.rules import Mode, Rules  # noqa: E402
from trio_solver.game.state import Game  # noqa: E402
from trio_solver.game.view import PlayerView  # noqa: E402
from trio_solver.run.simulate import play_game  # noqa: E402


def positions(games: int, players: int, seed: int) -> list[PlayerView]:
    """Every decision of the seat to move in ``games`` games of ``solver`` bots, half of them Picante."""
    rng = random.Random(seed)
    out: list[PlayerView] = []
    for g in range(games):
        rules = Rules(players, Mode.SIMPLE if g % 2 == 0 else Mode.PICANTE)
        bots = [make_bot("solver", random.Random(rng.random())) for _ in range(players)]

        def keep(game: Game) -> None:
            out.append(game.view(game.to_move))

        play_game(rules, bots, rng=rng, on_decision=keep)
    return out


def trades_trio_for_a_sliver(first: Evaluation, evaluations: tuple[Evaluation, ...], gap: float) -> bool:
    """Whether ``first`` has a chance of a trio at least ``gap`` below the best one's, with a chance to win
    now at most 0.01 above that reveal's."""
    best = max(evaluations, key=lambda e: e.p_trio)
    return first.p_trio <= best.p_trio - gap and first.p_win <= best.p_win + 0.01


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=3, choices=range(3, 7))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--gap", type=float, default=0.10, help="a trio chance this far below the best (0.10)")
    args = parser.parse_args()
    views = positions(args.games, args.players, args.seed)
    print(f"{len(views)} decisions of {args.games} games of {args.players} solver bots (half Picante), "
          f"seed {args.seed}; a trio given up: its chance at least {args.gap:.2f} below the best reveal's, "
          f"for at most 0.01 more chance to win now")
    print(f"{'objective':<10} {'trio given up':>14} {'largest win now bought':>23}")
    for objective in TURN_OBJECTIVES:
        count, bought = 0, 0.0
        for view in views:
            advice = advise(view, objective)
            first = advice.evaluations[0]
            if trades_trio_for_a_sliver(first, advice.evaluations, args.gap):
                count += 1
                best = max(advice.evaluations, key=lambda e: e.p_trio)
                bought = max(bought, first.p_win - best.p_win)
        print(f"{objective:<10} {count:>6} of {len(views):<6} {100 * bought:>22.2f}%")
    return 0


if __name__ == "__main__":
    from _script import run_script  # beside this script

    run_script(main, __file__)
