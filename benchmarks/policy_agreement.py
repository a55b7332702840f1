"""How close do the rollout policies play to ``solver``? First reveals of turns, policy by policy.

Games between ``solver`` bots are played; at the start of every turn (``--positions`` of them) each
rollout policy of :data:`trio_solver.decide.rollout.POLICIES` chooses a first reveal from the mover's
view, and it is compared with the ``solver`` bot's own choice twice:

* by the ``solver``'s score without its leak penalty (``3 p_win + p_trio + 0.5 progress / goal``,
  exact from the advisor): the share of positions where the policy's reveal scores as high as the
  best, and the mean score it gives up (how well the policy plays the turn);
* by the ``solver`` bot's own score, its leak penalty included (:meth:`SolverBot.scores`): the
  same two figures, which say how often the policy makes the choice ``solver`` makes, up to reveals
  ``solver`` scores alike (how well the policy predicts a ``solver`` opponent, as the playouts and
  the reading of :mod:`trio_solver.decide.reading` assume it does).

    python benchmarks/policy_agreement.py --positions 400 --seed 1
    python benchmarks/policy_agreement.py --players 4 --mode picante --positions 300 --seed 2
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trio_solver.decide.bots import SolverBot, make_bot  # noqa: E402
from trio_solver.decide.expert import solver_score  # noqa: E402
from trio_solver.decide.rollout import POLICIES, ModelBot  # noqa: E402
from trio_solver.game.rules import Mode, Rules  # noqa: E402
from trio_solver.game.state import Game  # noqa: E402
from trio_solver.run.simulate import game_seed, play_game  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--mode", choices=[m.value for m in Mode], default="simple")
    p.add_argument("--positions", type=int, default=400, help="start-of-turn positions (default 400)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    rules = Rules(args.players, args.mode)
    loss: dict[str, list[float]] = {name: [] for name in POLICIES}
    loss["solver"] = []
    own: dict[str, list[float]] = {name: [] for name in POLICIES}  # by solver's own score
    own["solver"] = []
    judge = SolverBot(random.Random(0))
    t0 = time.perf_counter()

    def grab(game: Game) -> None:
        if game.turn or len(loss["solver"]) >= args.positions:
            return
        view = game.view(game.to_move)
        scored = judge.scores(view)  # one advice serves both scores and solver's own choice
        score = {e.reveal: solver_score(view, e) for _, e in scored}
        best = max(score.values())
        solver_own = {e.reveal: x for x, e in scored}
        own_best = max(solver_own.values())
        for name in POLICIES:
            choice = ModelBot(policy=name).choose_reveal(view)
            loss[name].append(best - score[choice])
            own[name].append(own_best - solver_own[choice])
        pick = judge.first_best(scored)
        loss["solver"].append(best - score[pick])
        own["solver"].append(own_best - solver_own[pick])

    g = 0
    while len(loss["solver"]) < args.positions:
        bots = [make_bot("solver", random.Random(game_seed(args.seed, g, 1 + s))) for s in range(rules.players)]
        play_game(rules, bots, rng=random.Random(game_seed(args.seed, g)), first_player=g % rules.players,
                  on_decision=grab)
        g += 1
    print(f"first reveals at {len(loss['solver'])} start-of-turn positions of {g} games between solver bots, "
          f"{rules.players} players {rules.mode.value}, seed {args.seed} ({time.perf_counter() - t0:.0f} s)")
    print("by the turn score without the leak:")
    _table(loss)
    print("(solver's own choice also weighs its leak penalty, which this score leaves out)")
    print("by solver's own score, its leak included (how often the policy chooses as solver does):")
    _table(own)
    print("(solver's row is a check of the table: by its own score it is always best)")
    return 0


def _table(losses: dict[str, list[float]]) -> None:
    """Per chooser: the share of positions where its reveal has the best score, the mean loss and its error."""
    print(f"{'chooser':<10} {'best score':>10} {'mean loss':>10} {'± se':>7}")
    for name, xs in losses.items():
        best_share = sum(x <= 1e-9 for x in xs) / len(xs)
        se = statistics.stdev(xs) / len(xs) ** 0.5
        print(f"{name:<10} {best_share:>10.1%} {statistics.fmean(xs):>10.4f} {se:>7.4f}")


if __name__ == "__main__":
    from _script import run_script  # beside this script

    run_script(main, __file__)
