"""The advice a person reads: its default order and its sentences, checked on generated positions
(every setting, team and Picante games included), not on the bundled examples."""

from __future__ import annotations

import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers_positions import ALL_RULES, random_game
from trio_solver.report.advice_text import advice_text, plan_lines
from trio_solver.game.state import Game
from trio_solver.decide.evaluate import advise_game, explain
from trio_solver.game.knowledge import knowledge
from trio_solver.game.rules import Rules
from trio_solver.decide.search import Advice, advise
from trio_solver.game.view import PlayerView

PLAN_LINE = re.compile(r"^if it shows (\d+) \((<?\d+)%\): (.*)$")


def _position(rules: Rules, seed: int, reveals: int) -> tuple[Game, PlayerView]:
    game = random_game(rules, random.Random(seed), reveals, trio_rate=0.3)
    return game, game.view(game.to_move)


def _check_plan(advice: Advice, view: PlayerView) -> None:
    wins = view.rules.winning_values(view.team_trios(advice.seat))
    shown = len(view.turn)
    for e in advice.evaluations[:6]:
        lines = plan_lines(e, shown, wins)
        seen = set()
        for line in lines:
            assert "stop" not in line  # a turn never stops while the values match
            m = PLAN_LINE.match(line)
            if m is None:
                assert shown and (line.startswith("any other value (") and line.endswith("): the turn fails")
                                  or lines == ["it cannot show the value face up: the turn fails whatever it shows"])
                continue
            v = int(m.group(1))
            step = next(st for st in e.plan if st.value == v)
            seen.add(v)
            rest = m.group(3)
            assert ("(wins the game)" in rest) == (v in wins and "the turn goes on and fails" not in rest)
            if rest.startswith("the trio of"):
                assert step.p_trio >= 1 - 1e-9 and shown + 1 == 3 or (step.p_trio >= 1 - 1e-9 and not step.then)
            elif rest.startswith("then "):
                assert step.then and shown + 1 < 3
            else:
                assert step.p_trio == 0 and shown + 1 < 3
        # every value the reveal can show is listed: nothing (a 7 that wins, say) is folded away
        assert seen == {st.value for st in e.plan if st.probability > 0}
        if shown:
            other = 1 - sum(st.probability for st in e.plan)
            assert any(line.startswith(("any other value", "it cannot show")) for line in lines) == (other > 1e-9)


@settings(derandomize=True, max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(ALL_RULES), seed=st.integers(0, 10**6), reveals=st.integers(0, 60))
def test_default_advice_ranks_by_the_turns_worth_and_win_by_the_chance_to_win(rules: Rules, seed: int,
                                                                              reveals: int) -> None:
    game, view = _position(rules, seed, reveals)
    if game.over:
        return
    advice = advise(view)
    assert advice.objective == "turn"
    top = advice.evaluations[0]
    goal = max(view.rules.goal_distance(view.team_trios(advice.seat)), 1)
    worth = [round(3 * e.p_win + e.p_trio + 0.5 * e.progress / goal, 12) for e in advice.evaluations]
    assert worth == sorted(worth, reverse=True)
    # "win" never ranks a lower chance to win first, and among the reveals that win as often, the trio next
    win = advise(view, "win")
    first = win.evaluations[0]
    assert first.p_win >= max(e.p_win for e in win.evaluations) - 1e-12
    same = [e for e in win.evaluations if abs(e.p_win - first.p_win) < 1e-12]
    assert first.p_trio >= max(e.p_trio for e in same) - 1e-12
    _check_plan(advice, view)
    text = advice_text(advice, None, wins=view.rules.winning_values(view.team_trios(advice.seat)))
    assert text.splitlines()[-1 - len(plan_lines(top, len(view.turn)))].startswith(f"Best: {top.reveal} (win now")
    assert "+-" not in text and not re.search(r"\d\.\d+(?![\d.]*%)", text)  # percentages, never fractions


@settings(derandomize=True, max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(ALL_RULES), seed=st.integers(0, 10**6), reveals=st.integers(1, 60))
def test_mid_turn_without_a_chance_the_advice_turns_a_card_everyone_knows(rules: Rules, seed: int,
                                                                           reveals: int) -> None:
    game, view = _position(rules, seed, reveals)
    if game.over or not view.turn:
        return
    advice = advise(view)
    top = advice.evaluations[0]
    public = knowledge(view, spectator=True)
    ties = [e for e in advice.evaluations if abs(e.p_win - top.p_win) < 1e-12 and abs(e.p_trio - top.p_trio) < 1e-12
            and abs(e.progress - top.progress) < 1e-12]
    quiet = [e for e in ties if public.public_value(view, e.reveal) is not None]
    if quiet:
        assert public.public_value(view, top.reveal) is not None
    elif any(e.reveal.seat != view.seat for e in ties):
        assert top.reveal.seat != view.seat  # the own hidden card comes last


@settings(derandomize=True, max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(ALL_RULES), seed=st.integers(0, 10**6), reveals=st.integers(0, 40))
def test_the_game_objective_sentences_are_true(rules: Rules, seed: int, reveals: int) -> None:
    game, view = _position(rules, seed, reveals)
    if game.over:
        return
    advice = advise_game(view, samples=4, seed=seed)
    lines = explain(view, advice, limit=len(advice.evaluations))
    for e, line in zip(advice.evaluations, lines):
        assert line.startswith(f"{e.reveal}: wins the game ")
        if e.p_trio >= 1 - 1e-9:
            assert "nothing goes back" in line and "fails" not in line
        else:
            assert "the turn fails" in line
        m = re.search(r"most likely an? (\d+): ", line)
        if m:
            assert not view.turn  # mid-turn the failing card is any value but the one face up
            step = next(st for st in e.plan if st.value == int(m.group(1)))
            assert step.p_trio < 1 - 1e-9 and step.probability > 0  # that value can fail the turn
    _check_plan(advice, view)
