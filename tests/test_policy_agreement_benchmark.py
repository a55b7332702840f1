"""The policy-agreement benchmark: the rollout policies judged against ``solver``'s first reveals."""

from __future__ import annotations

import random

import pytest

from helpers_benchmarks import load_benchmark
from helpers_positions import random_position
from trio_solver.decide.bots import SolverBot
from trio_solver.decide.expert import solver_score
from trio_solver.game.rules import Rules

agreement = load_benchmark("policy_agreement")


def test_solver_plays_the_first_of_its_own_best_scores() -> None:
    """``SolverBot.scores`` is what the bot ranks by: at start-of-turn positions after some play, its choice
    is the first reveal with the best score, and the scores cover every legal reveal. Its leak penalty
    is counted there: at some of these positions a score differs from the turn score without it."""
    bot = SolverBot(random.Random(0))
    leaky = 0
    checked = 0
    for seed in range(40):
        game = random_position(Rules(3), seed, 12 + seed % 9)
        if game.over or game.turn:
            continue
        view = game.view(game.to_move)
        scored = bot.scores(view)
        best = max(x for x, _ in scored)
        assert bot.choose_reveal(view) == next(e.reveal for x, e in scored if x == best)
        assert {e.reveal for _, e in scored} == set(view.legal_reveals())
        leaky += any(abs(x - solver_score(view, e)) > 1e-9 for x, e in scored)
        checked += 1
    assert checked >= 10 and leaky >= 1


def test_the_benchmark_finds_solver_agreeing_with_itself(capsys: pytest.CaptureFixture[str]) -> None:
    """On a few positions, ``solver`` judged by its own score always has the best score (loss 0), while
    by the score without its leak it may not; every rollout policy gets a row in both tables."""
    assert agreement.main(["--positions", "6", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    own_table = out.split("by solver's own score")[1]
    solver_row = next(line for line in own_table.splitlines() if line.startswith("solver "))
    assert solver_row.split()[1:3] == ["100.0%", "0.0000"]
    for name in ("counting", "scoring"):
        assert sum(line.startswith(name + " ") for line in out.splitlines()) == 2
