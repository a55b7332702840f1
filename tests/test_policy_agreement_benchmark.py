"""The policy-agreement benchmark: the rollout policies judged against ``solver``'s first reveals."""

from __future__ import annotations

import random

import pytest

from helpers_benchmarks import load_benchmark
from trio_solver.decide.bots import SolverBot
from trio_solver.game.rules import Rules
from trio_solver.game.state import Game

agreement = load_benchmark("policy_agreement")


@pytest.mark.parametrize("seed", [1, 2])
def test_solver_plays_the_first_of_its_own_best_scores(seed: int) -> None:
    """``SolverBot.scores`` is what the bot ranks by: its choice is the first reveal with the best score,
    the leak penalty counted at the start of a turn (so the score differs from the turn score there)."""
    game = Game.deal(Rules(3), seed=seed)
    bot = SolverBot(random.Random(0))
    scored = bot.scores(game.view(game.to_move))
    best = max(x for x, _ in scored)
    assert bot.choose_reveal(game.view(game.to_move)) == next(e.reveal for x, e in scored if x == best)
    assert {e.reveal for _, e in scored} == set(game.view(game.to_move).legal_reveals())


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
