"""Which turn-level rules beat ``solver``? Cheap variants of it against ``solver`` bots, every deal
played with the variant in each seat (the duplicate format of ``strength.py``).

A variant is ``leak=W`` (``SolverBot`` with leak weight ``W``; ``solver`` itself is
``leak=0.5``) or ``turn`` (the ``expert-ties`` bot with a window of 0 and one candidate,
so it never races: the best reveal by the turn score of
:func:`trio_solver.decide.scoring.solver_score`, no leak penalty, and the expert's mid-turn
rule). ``turn:NAME=X:...`` changes the turn score of ``turn``: ``win``, ``trio``,
``goal`` are the weights of ``p_win``, ``p_trio`` and ``progress/goal`` (3, 1, 0.5);
``danger`` subtracts that weight times the chance that the first reveal shows a
value an opponent's trio would win with (the 7s included) and the turn then fails;
``hand`` adds that weight times, for each non-winning trio the reveal may take, the
mover's own cards of the values it links to (Picante; divided by the trios still
needed, as the goal term is); ``deny`` adds that weight times the chance of a trio
of a value an opponent's trio would win with; ``next`` subtracts that weight times
the chance of failure when the first reveal is a card the next player does not
know (not its own, not public). ``safe`` is the expert's mid-turn threshold instead
(:data:`trio_solver.decide.expert.QUIET_BELOW`): below that chance of a trio a card
everyone knows is revealed (``safe=0``: only with no chance at all). ``read`` is the weight the
bot's beliefs give a deal for each opponent choice it makes unlikely
(:data:`trio_solver.decide.expert.DEFAULT_READ`; ``read=0``: the opponents' choices are not read).
Each costs about what ``solver`` costs (a third of a second a game), so thousands of
games settle a question of a point or two that the expert's own benchmark cannot
afford. Figures: the variant's wins, its rate with the standard error over deals
(the games of a deal are played by the same cards) and the Wilson 95% interval,
and the wins by seat.

    python benchmarks/solver_variants.py --variants leak=0.5,leak=0,turn --deals 600 --workers 2 --seed 1
    python benchmarks/solver_variants.py --variants turn --against memory --deals 300 --seed 1
    python benchmarks/solver_variants.py --variants turn --players 4 --against memory --deals 200 --seed 1
    python benchmarks/solver_variants.py --mode picante --variants turn,turn:win=5,turn:danger=0.3 --deals 400 --workers 2 --seed 1
    python benchmarks/solver_variants.py --mode picante --variants turn:read=0,turn,turn:read=0.1 --deals 400 --workers 2 --seed 1

Game ``i`` of every seat is the same deal (``game_seed(seed, i)``) with the same first
player (``i mod players``), so results do not depend on ``--workers``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from strength import Duplicate  # noqa: E402
from trio_solver.decide.bots import Bot, SolverBot, make_bot  # noqa: E402
from trio_solver.decide.expert import DEFAULT_READ, QUIET_BELOW, TiesExpertBot  # noqa: E402
from trio_solver.decide.rollout import public_memory  # noqa: E402
from trio_solver.game.rules import SEVEN, Mode, Rules  # noqa: E402
from trio_solver.decide.search import Evaluation, live_links  # noqa: E402
from trio_solver.run.simulate import game_seed, play_game, wilson  # noqa: E402
from trio_solver.game.view import PlayerView  # noqa: E402


WEIGHTS = {"win": 3.0, "trio": 1.0, "goal": 0.5, "danger": 0.0, "hand": 0.0, "deny": 0.0, "next": 0.0,
           "safe": QUIET_BELOW, "read": DEFAULT_READ}


class TurnVariant(TiesExpertBot):
    """The ``turn`` bot with other weights in its turn score (``WEIGHTS`` by default: the expert's own)."""

    def __init__(self, rng: random.Random, weights: dict[str, float]) -> None:
        super().__init__(rng, window=0.0, candidates=1, read=weights["read"] or None)
        self.w = weights
        self.quiet_below = weights["safe"]

    def score(self, view: PlayerView, e: Evaluation) -> float:
        w, rules, seat = self.w, view.rules, view.seat or 0
        goal = max(rules.goal_distance(view.team_trios(seat)), 1)
        s = w["win"] * e.p_win + w["trio"] * e.p_trio + w["goal"] * e.progress / goal
        if (w["danger"] or w["deny"]) and not view.turn:
            theirs = set().union(*(rules.winning_values(view.team_trios(o)) for o in range(rules.players)
                                   if rules.team_of(o) != rules.team_of(seat)))
            s -= w["danger"] * sum(st.probability * (1 - st.p_trio) for st in e.plan if st.value in theirs)
            s += w["deny"] * sum(st.probability * st.p_trio for st in e.plan if st.value in theirs)
        if w["next"] and not view.turn and e.reveal.seat != (seat + 1) % rules.players \
                and not public_memory(view).knows(view, e.reveal):
            s -= w["next"] * (1 - e.p_trio)  # a failure shows the next player a card it did not know
        if w["hand"] and rules.mode is Mode.PICANTE:
            hand = view.hand or ()
            mine = rules.winning_values(view.team_trios(seat))
            for st in e.plan:
                if st.value in mine or st.value == SEVEN:
                    continue
                live = live_links(view, st.value)
                s += w["hand"] * st.probability * st.p_trio * sum(hand.count(u) for u in live) / goal
        return s


def variant(spec: str, rng: random.Random) -> Bot:
    """The bot a variant names (``leak=W``, ``turn`` or ``turn:NAME=X:...``); ``ValueError`` otherwise."""
    if spec == "turn":
        return TiesExpertBot(rng, window=0.0, candidates=1)
    if spec.startswith("turn:"):
        weights = dict(WEIGHTS)
        for part in spec[5:].split(":"):
            name, _, x = part.partition("=")
            if name not in weights:
                raise ValueError(f"unknown weight {name!r} in {spec!r} (known: {', '.join(WEIGHTS)})")
            weights[name] = float(x)
        return TurnVariant(rng, weights)
    if spec.startswith("leak="):
        return SolverBot(rng, leak_weight=float(spec[5:]))
    raise ValueError(f"unknown variant {spec!r} (known: leak=W, turn, turn:NAME=X:...)")


def play(task: tuple[str, str, int, str, int, int, int]) -> tuple[int, int, bool]:
    """(deal, seat, did the variant win) of one game."""
    spec, mode, players, against, seed, deal, seat = task
    rules = Rules(players, Mode(mode))
    bots = [variant(spec, random.Random(game_seed(seed, deal, 1 + s))) if s == seat
            else make_bot(against, random.Random(game_seed(seed, deal, 1 + s))) for s in range(players)]
    game = play_game(rules, bots, rng=random.Random(game_seed(seed, deal)), first_player=deal % players)
    return deal, seat, game.winner == seat


def measure(spec: str, mode: str, players: int, against: str, deals: int, seed: int,
            workers: int) -> Duplicate:
    """The variant's results over ``deals`` deals, each played with it in every seat."""
    variant(spec, random.Random(0))  # fail early on a bad name
    tasks = [(spec, mode, players, against, seed, d, s) for d in range(deals) for s in range(players)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            out = list(pool.map(play, tasks, chunksize=4))
    else:
        out = [play(t) for t in tasks]
    wins: dict[int, int] = {}
    games: dict[int, int] = {}
    by_seat = [0] * players
    for deal, seat, won in out:
        wins[deal] = wins.get(deal, 0) + int(won)
        games[deal] = games.get(deal, 0) + 1
        by_seat[seat] += int(won)
    return Duplicate(wins, games, by_seat, 0.0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variants", default="leak=0.5,leak=0,turn")
    ap.add_argument("--mode", default="simple", choices=["simple", "picante"])
    ap.add_argument("--players", type=int, default=3, choices=[3, 4, 5, 6])
    ap.add_argument("--against", default="solver", choices=["memory", "solver"])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    a = ap.parse_args(argv)
    print(f"variants against {a.players - 1} {a.against} bots, {a.players} players {a.mode}, "
          f"{a.deals} deals x {a.players} seats, seed {a.seed}")
    print(f"{'variant':18} {'wins':>11} {'rate':>7} {'± deals':>8} {'95% interval':>14}  by seat      s")
    for spec in a.variants.split(","):
        t = time.time()
        try:
            d = measure(spec, a.mode, a.players, a.against, a.deals, a.seed, a.workers)
        except ValueError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        w, n = d.total
        lo, hi = wilson(w, n)
        print(f"{spec:18} {w:>5}/{n:<5} {w / n:7.1%} {d.deal_stderr():8.4f} [{lo:5.1%}, {hi:5.1%}]  "
              f"{'/'.join(map(str, d.by_side))}  {time.time() - t:5.0f}")
    return 0


if __name__ == "__main__":
    from _script import run_script  # beside this script

    run_script(main, __file__)
