"""The solver-variants benchmark: a variant in every seat of each deal against ``solver`` bots."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

from trio_solver.bots import SolverBot
from trio_solver.expert import ExpertBot
from trio_solver.rules import Rules
from trio_solver.simulate import game_seed, play_game

_PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "solver_variants.py"
_spec = importlib.util.spec_from_file_location("solver_variants_benchmark", _PATH)
assert _spec is not None and _spec.loader is not None
variants = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = variants
_spec.loader.exec_module(variants)


def test_solver_as_a_variant_wins_exactly_the_fair_share() -> None:
    """``leak=0.5`` is ``solver`` itself: every deal is the same game in every seat, so one seat wins it."""
    d = variants.measure("leak=0.5", "simple", 3, "solver", 3, 4, workers=1)
    assert d.total == (3, 9) and all(d.wins[i] == 1 and d.games[i] == 3 for i in range(3))
    assert d.deal_stderr() == 0.0


def test_each_game_is_the_deal_with_the_variant_in_that_seat() -> None:
    d = variants.measure("leak=0", "simple", 3, "solver", 2, 9, workers=2)
    for deal in range(2):
        won = 0
        for seat in range(3):
            bots = [SolverBot(random.Random(0), leak_weight=0.0) if s == seat else SolverBot(random.Random(0))
                    for s in range(3)]
            game = play_game(Rules(3), bots, rng=random.Random(game_seed(9, deal)), first_player=deal % 3)
            won += game.winner == seat
        assert d.wins[deal] == won


def test_variants_are_named() -> None:
    assert isinstance(variants.variant("turn", random.Random(0)), ExpertBot)
    bot = variants.variant("leak=1.5", random.Random(0))
    assert isinstance(bot, SolverBot) and bot.leak_weight == 1.5
    with pytest.raises(ValueError, match="unknown variant"):
        variants.variant("bogus", random.Random(0))
    assert variants.main(["--variants", "bogus", "--deals", "1"]) == 2
