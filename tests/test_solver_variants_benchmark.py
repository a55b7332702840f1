"""The solver-variants benchmark: a variant in every seat of each deal against ``solver`` bots."""

from __future__ import annotations

import random

import pytest

from helpers_benchmarks import load_benchmark
from trio_solver.decide.bots import SolverBot
from trio_solver.decide.expert import TiesExpertBot
from trio_solver.game.rules import Rules
from trio_solver.run.simulate import game_seed, play_game

variants = load_benchmark("solver_variants")


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
    assert isinstance(variants.variant("turn", random.Random(0)), TiesExpertBot)
    bot = variants.variant("leak=1.5", random.Random(0))
    assert isinstance(bot, SolverBot) and bot.leak_weight == 1.5
    with pytest.raises(ValueError, match="unknown variant"):
        variants.variant("bogus", random.Random(0))
    assert variants.main(["--variants", "bogus", "--deals", "1"]) == 2


def test_turn_weights_are_parsed_and_default_to_the_expert_score() -> None:
    from helpers_positions import random_position
    from trio_solver.decide.expert import solver_score
    from trio_solver.game.rules import Mode
    from trio_solver.decide.search import advise

    bot = variants.variant("turn:win=5:danger=0.3", random.Random(0))
    assert isinstance(bot, variants.TurnVariant)
    assert bot.w == {**variants.WEIGHTS, "win": 5.0, "danger": 0.3}
    with pytest.raises(ValueError, match="unknown weight"):
        variants.variant("turn:wins=5", random.Random(0))
    same = variants.variant("turn:win=3", random.Random(0))
    hand = variants.variant("turn:hand=1", random.Random(0))
    # the bot reads the opponents' choices as the expert does; read=0 turns reading off
    assert isinstance(same, TiesExpertBot) and same.read == variants.DEFAULT_READ
    off = variants.variant("turn:read=0", random.Random(0))
    assert isinstance(off, TiesExpertBot) and off.read is None
    checked = 0
    for seed in range(12):
        game = random_position(Rules(3, Mode.PICANTE), seed, 2 * seed)
        if game.over:
            continue
        view = game.view(game.to_move)
        for e in advise(view).evaluations:
            assert same.score(view, e) == solver_score(view, e)
            # the hand term only adds, and only for a reveal that may take a trio
            assert hand.score(view, e) >= solver_score(view, e)
            if e.p_trio == 0:
                assert hand.score(view, e) == solver_score(view, e)
            checked += 1
    assert checked > 50


def test_deny_and_next_move_the_score_one_way_and_safe_reveals_a_known_card_mid_turn() -> None:
    from helpers_positions import random_position
    from trio_solver.decide.expert import solver_score
    from trio_solver.decide.rollout import public_memory
    from trio_solver.game.rules import Mode
    from trio_solver.decide.search import advise

    deny = variants.variant("turn:deny=1", random.Random(0))
    nxt = variants.variant("turn:next=1", random.Random(0))
    safe = variants.variant("turn:safe=0.99", random.Random(0))
    plain = TiesExpertBot(random.Random(0), window=0.0, candidates=1)
    scored = quiet = 0
    for seed in range(40):
        game = random_position(Rules(3, Mode.PICANTE), seed, seed)
        if game.over:
            continue
        view = game.view(game.to_move)
        if not view.turn:
            for e in advise(view).evaluations:
                assert deny.score(view, e) >= solver_score(view, e) >= nxt.score(view, e)
                scored += 1
            continue
        memory = public_memory(view)
        known = [r for r in view.legal_reveals() if memory.knows(view, r)]
        best = max(e.p_trio for e in advise(view).evaluations)
        choice = safe.choose_reveal(view)
        if known and best < 0.99:
            assert choice in known
            quiet += 1
        else:
            assert choice == plain.choose_reveal(view)
    assert scored > 20 and quiet > 0
