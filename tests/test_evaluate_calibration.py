"""Evaluations are calibrated: on games the modelled players play, predicted chances match results.

Games are played by the rollout model itself (every seat), on the compact state, and
replayed on the engine up to one random position per game; the mover's view of that
position is evaluated and the prediction compared with who won. With 1300 positions
the standard error of the mean gap is about 0.011, so the test fails at a gap above
about 0.033: a systematic error of 0.05 (4.5 standard errors) would be seen.
"""

from __future__ import annotations

import math
import random

from trio_solver import Game, Rules
from trio_solver.decide.evaluate import evaluate
from trio_solver.decide.rollout import Action, Sim, public_memory, to_reveal
from trio_solver.game.rules import Mode
from trio_solver.run.simulate import wilson


def model_game(rules: Rules, seed: int) -> tuple[Game, list[Action], list[int], int]:
    """A game the model plays to its end: the dealt game, its actions, the action index of each turn start."""
    game = Game.deal(rules, seed=seed)
    sim = Sim.from_view(game.view(None), public_memory(game.view(None)), game.hands, game.centre)
    actions: list[Action] = []
    starts: list[int] = []
    while sim.winner is None:
        starts.append(len(actions))
        start = sim.turns
        while sim.turns == start and sim.winner is None:
            a = sim.choose()
            assert a is not None
            actions.append(a)
            sim.apply(a)
    return game, actions, starts, sim.winner


def test_predicted_chances_match_results() -> None:
    rng = random.Random(2024)
    preds: list[float] = []
    wins: list[int] = []
    for i, rules in enumerate([Rules(3)] * 900 + [Rules(4, Mode.PICANTE)] * 400):
        game, actions, starts, winner = model_game(rules, 10_000 + i)
        cut = rng.choice(starts)
        for a in actions[:cut]:
            game.reveal(to_reveal(a))
        seat = game.to_move
        ev = evaluate(game.view(seat), samples=24, seed=i)
        preds.append(ev.win_chance[seat])
        wins.append(1 if winner == seat else 0)
    n = len(preds)
    gap = sum(w - p for w, p in zip(wins, preds)) / n
    se = math.sqrt(sum(p * (1 - p) for p in preds)) / n
    print(f"calibration: {n} positions, mean gap {gap:+.4f}, standard error {se:.4f}")
    assert abs(gap) < 3 * se, (gap, se)
    # binned: the observed rate of each bin's 99.7% interval holds the bin's mean prediction
    for lo, hi in ((0.0, 0.2), (0.2, 0.4), (0.4, 0.6), (0.6, 1.01)):
        idx = [k for k, p in enumerate(preds) if lo <= p < hi]
        if len(idx) < 30:
            continue
        mean_p = sum(preds[k] for k in idx) / len(idx)
        w = sum(wins[k] for k in idx)
        a, b = wilson(w, len(idx), z=3.0)
        assert a - 0.01 <= mean_p <= b + 0.01, (lo, hi, len(idx), w, mean_p)
