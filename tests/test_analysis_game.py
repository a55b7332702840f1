"""Analysis judged by the chance to win the game: the figures are the evaluate API's, a winning trio
is never a mistake, labels need the loss to stand out of its noise, and the curve of win chances."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from trio_solver import Turn
from trio_solver.report.analysis import GAME_THRESHOLDS, analyse, label_for
from trio_solver.decide.bots import make_bot
from trio_solver.game.state import Game
from trio_solver.decide.evaluate import advise_game
from trio_solver.game.record import Record
from trio_solver.game.reveal import Reveal
from trio_solver.game.rules import Mode, Rules
from trio_solver.run.simulate import play_game

ROOT = Path(__file__).resolve().parent.parent

SAMPLES = 6


def _bot_game(rules: Rules, seed: int) -> Record:
    bots = [make_bot(k, random.Random(seed * 10 + s)) for s, k in enumerate(["memory", "random", "solver",
                                                                              "memory"][:rules.players])]
    game = play_game(rules, bots, rng=random.Random(seed))
    return Record.loads(Record.from_game(game, names=["Ann", "Ben", "Cat", "Dan"][:rules.players]).dumps())


@pytest.fixture(scope="module")
def short_game() -> tuple[Record, object]:
    record = _bot_game(Rules(3, Mode.PICANTE), 4)
    return record, analyse(record, samples=SAMPLES, seed=3)


@pytest.fixture(scope="module")
def every_deal() -> tuple[Record, object]:
    record = _bot_game(Rules(3, Mode.PICANTE), 4)
    return record, analyse(record, samples=SAMPLES, seed=3, confidence=1)


def test_game_figures_are_the_evaluate_apis(every_deal: tuple[Record, object]) -> None:
    """At confidence 1 every reveal is played on every deal: the figures are those of ``advise_game``
    on the same deals."""
    record, a = every_deal
    assert a.judged_by == "game" and a.samples == SAMPLES  # type: ignore[attr-defined]
    game = Game(record.rules, record.deal, record.first_player)  # type: ignore[arg-type]
    decisions = iter(a.decisions)  # type: ignore[attr-defined]
    index = 0
    checked = 0
    for e in record.events:
        assert isinstance(e, Turn)
        for r in e.reveals:
            d = next(decisions)
            if d.scored and checked < 6:
                view = game.view(e.seat)
                adv = advise_game(view, samples=SAMPLES, seed=3 * 1_000_003 + index, confidence=1)
                by = {x.reveal: x for x in adv.evaluations}
                assert d.p_game_played == pytest.approx(by[r.reveal].p_game, abs=1e-12)
                assert d.p_game_best == pytest.approx(max(x.p_game or 0.0 for x in adv.evaluations), abs=1e-12)
                # the played reveal is the best when no reveal beats it (alike unseen centre cards)
                beaten = (adv.best.p_game or 0.0) > (by[r.reveal].p_game or 0.0)
                assert d.best == (adv.best.reveal if beaten else r.reveal)
                assert (d.loss == 0.0) == (d.best == r.reveal)
                assert d.loss == pytest.approx(max(0.0, d.p_game_best - d.p_game_played), abs=1e-12)
                # the error of the paired difference (both were played on the same deals)
                se = 0.0 if d.best == r.reveal else by[r.reveal].p_game_gap_stderr
                assert d.loss_stderr == pytest.approx(se, abs=1e-12)
                checked += 1
            if not d.scored:
                assert d.p_game_played is None and d.label is None
            index += 1
            game.reveal(r.reveal)
    assert checked > 0


def _band(loss: float) -> int:
    return sum(1 for t, _ in GAME_THRESHOLDS if loss >= t - 1e-12)


@pytest.mark.parametrize("confidence", [0.95, 0.8])
def test_labels_need_the_loss_to_stand_out(confidence: float) -> None:
    """A label is the band of the lower end of the loss's confidence interval; the decision is sure when
    both ends fall in one band; the interval holds the estimate and narrows with a lower confidence."""
    record = _bot_game(Rules(3, Mode.PICANTE), 4)
    a = analyse(record, samples=64, seed=3, confidence=confidence)
    judged = 0
    for d in a.decisions:
        if d.scored:
            assert d.loss_low is not None and d.loss_high is not None
            assert 0.0 <= d.loss_low <= d.loss + 1e-12 <= d.loss_high + 2e-12
            assert d.label == label_for(d.loss_low, GAME_THRESHOLDS)
            assert d.sure == (_band(d.loss_low) == _band(d.loss_high))
            judged += 1
        else:
            assert d.label is None and d.loss_low is None and d.sure
        # the turn-level figures stay as columns
        assert d.turn_loss >= 0.0 and d.best_turn is not None
    assert judged > 5 and a.confidence == confidence


def test_curve_after_every_turn(short_game: tuple[Record, object]) -> None:
    record, a = short_game
    curve = a.curve  # type: ignore[attr-defined]
    turns = sum(1 for e in record.events if isinstance(e, Turn))
    assert [c.turns for c in curve] == list(range(turns + 1))
    for c in curve:
        assert sum(c.win_chance) == pytest.approx(1.0, abs=1e-9)
        assert c.position is not None and c.position["to_move"] is not None
    assert record.winner is not None
    assert curve[-1].win_chance[record.winner] == 1.0 and curve[-1].stderr == (0.0, 0.0, 0.0)
    # where each point sits: after all decisions of the turns before it
    for c in curve:
        assert c.decisions == sum(1 for d in a.decisions if d.turn <= c.turns)  # type: ignore[attr-defined]


def test_same_seed_same_analysis() -> None:
    record = _bot_game(Rules(3), 1)
    one = json.dumps(analyse(record, samples=3, seed=5).to_json())
    assert one == json.dumps(analyse(record, samples=3, seed=5).to_json())


def test_a_winning_trio_of_sevens_is_never_a_mistake() -> None:
    # Picante: seat 0 holds the three 7s at its low end; l0 l0 l0 takes them and wins at once
    hands = [[7, 7, 7, 8, 9, 10, 11, 12, 12], [1, 1, 1, 2, 2, 2, 3, 3, 3], [4, 4, 4, 5, 5, 5, 6, 6, 6]]
    centre = [8, 8, 9, 9, 10, 10, 11, 11, 12]
    game = Game.from_deal(Rules(3, Mode.PICANTE), hands, centre, first_player=0)
    for _ in range(3):
        game.reveal(Reveal.lowest(0))
    assert game.winner == 0
    a = analyse(Record.loads(Record.from_game(game, names=["Ann", "Ben", "Cat"]).dumps()), samples=8)
    assert len(a.decisions) == 3
    for d in a.decisions:
        assert d.label is None and d.loss == 0.0
        assert d.p_game_played in (None, 1.0)
    assert a.seats[0].blunders == a.seats[0].mistakes == a.seats[0].inaccuracies == 0
    assert "Ann wins" in a.result()
    trio = [m for m in a.moments if m.kind == "trio"]
    assert len(trio) == 1 and "wins the game" in trio[0].text and "luck" not in trio[0].text


def test_bad_samples_are_refused() -> None:
    from trio_solver.errors import ViewError

    record = _bot_game(Rules(3), 2)
    for bad in (-1, 10**9, True, 1.5):
        with pytest.raises(ViewError):
            analyse(record, samples=bad)  # type: ignore[arg-type]


def test_progress_counts_every_position() -> None:
    record = _bot_game(Rules(3), 2)
    calls: list[tuple[int, int]] = []
    a = analyse(record, lambda d, t: calls.append((d, t)), samples=2)
    total = len(a.decisions) + len(a.curve)
    assert calls == [(k, total) for k in range(1, total + 1)]
    calls.clear()
    quick = analyse(record, lambda d, t: calls.append((d, t)), samples=0)
    assert calls == [(k, len(quick.decisions)) for k in range(1, len(quick.decisions) + 1)] and not quick.curve


def test_moments_say_why_and_call_luck_only_a_less_likely_trio(short_game: tuple[Record, object]) -> None:
    """A better reveal with a smaller trio chance now is explained by the game; a trio is luck only when the
    reveal played made it less likely than the best would have (not merely when the game judged it poorly)."""
    _, a = short_game
    decisions = a.decisions  # type: ignore[attr-defined]
    for m in a.moments:  # type: ignore[attr-defined]
        if m.kind == "decision":
            d = decisions[m.decision]
            assert ("less chance of a trio now, more of the game" in m.text) == (d.p_trio_best < d.p_trio_played - 1e-9)
        else:
            luck = [d for d in decisions if d.event == m.event and d.label is not None
                    and d.p_trio_played < d.p_trio_best - 1e-9]
            assert ("luck, not skill" in m.text) == bool(luck)


def test_a_loss_known_exactly_is_told_without_a_range(short_game: tuple[Record, object]) -> None:
    """A loss the turn decides (its range is one figure) reads "Blunder, loss 36.1%.", not "likely 36.1% to
    36.1%"; a loss with a range keeps it."""
    from dataclasses import replace

    from trio_solver.report.analysis import _verdict
    from trio_solver.words import percent

    _, a = short_game
    d = next(d for d in a.decisions if d.label is not None)  # type: ignore[attr-defined]
    exact = replace(d, loss_low=d.loss, loss_high=d.loss, loss_stderr=0.0)
    assert _verdict(exact) == f"{d.verdict.capitalize()}, loss {percent(d.loss, 1)}."
    ranged = replace(d, loss_low=d.loss / 2, loss_high=d.loss * 1.5)
    assert f"(likely {percent(d.loss / 2, 1)} to {percent(d.loss * 1.5, 1)})" in _verdict(ranged)


# -- a reveal of a card the mover knew, judged by its best follow-up in the turn --------------------------------


def _judged(decision: object, knew: bool, played_se: float, best_se: float) -> object:
    from trio_solver.report.analysis import _Judgement

    return _Judgement(decision, knew, played_se, best_se)  # type: ignore[arg-type]


def test_a_known_card_s_reveal_is_worth_the_next_decision_s_best() -> None:
    """Made up figures on two real decisions of one turn: the first reveal (the mover's own card) gave 6% with
    the plan's follow-up, the best first reveal 57%, and the next decision's best reveal 43%. The first is
    judged from 43% (a loss of 14%, not 51%), naming that follow-up; not when the mover did not know its card,
    nor when the next best is not clearly above the plan's (the race's figures stay)."""
    from dataclasses import replace

    from trio_solver.report.analysis import _reason, _with_follow_ups

    a = analyse(Record.load(ROOT / "examples" / "teams_4p.json"), samples=32)
    k = next(i for i, (d, e) in enumerate(zip(a.decisions, a.decisions[1:]))
             if e.event == d.event and e.reveal_index == d.reveal_index + 1)
    d = replace(a.decisions[k], p_game_played=0.06, p_game_best=0.57, loss=0.51, best=Reveal.highest(2),
                label="blunder", loss_low=0.30, loss_high=0.72, loss_stderr=0.08, follow_up=None)
    e = replace(a.decisions[k + 1], p_game_played=0.24, p_game_best=0.43, best=Reveal.highest(2))
    z = 1.96
    first, second = _with_follow_ups([_judged(d, True, 0.03, 0.03), _judged(e, True, 0.03, 0.03)], z)  # type: ignore[list-item]
    assert second == e  # the next decision keeps its own figures and label
    assert first.follow_up == e.best and first.p_game_played == pytest.approx(0.43)
    se = (0.03 ** 2 + 0.03 ** 2) ** 0.5
    assert first.loss == pytest.approx(0.14) and first.loss_stderr == pytest.approx(se)
    assert (first.loss_low, first.loss_high) == (pytest.approx(0.14 - z * se), pytest.approx(0.14 + z * se))
    assert first.label == label_for(0.14 - z * se, GAME_THRESHOLDS) and first.best == d.best
    assert "it was 43% with h2 next, the best follow-up" in _reason(first)  # the story names it
    # a card the mover did not know, or a next best within the noise: the race's figures stay
    assert _with_follow_ups([_judged(d, False, 0.03, 0.03), _judged(e, True, 0.03, 0.03)], z)[0] == d  # type: ignore[list-item]
    assert _with_follow_ups([_judged(d, True, 0.2, 0.2), _judged(e, True, 0.2, 0.2)], z)[0] == d  # type: ignore[list-item]
    # with its best follow-up the reveal played is the best: no loss, no label
    e_high = replace(e, p_game_best=0.60)
    top = _with_follow_ups([_judged(d, True, 0.03, 0.03), _judged(e_high, True, 0.03, 0.03)], z)[0]  # type: ignore[list-item]
    assert (top.loss, top.label, top.best, top.p_game_played, top.p_game_best) == (0.0, None, d.played, 0.60, 0.60)


def test_the_teams_example_does_not_blame_an_own_card_for_the_plan_s_follow_up() -> None:
    """In the bundled team game East's first reveal of turn 2 (its own lowest card) was a blunder by the plan's
    follow-up; the next decision's best reveal puts it far higher. Every follow-up the analysis names is the next
    decision's best, its chance that decision's best chance, and the loss measured from it."""
    a = analyse(Record.load(ROOT / "examples" / "teams_4p.json"))
    named = [(d, e) for d, e in zip(a.decisions, a.decisions[1:]) if d.follow_up is not None]
    assert named, "the plan's follow-up of an own card is mended somewhere in this game"
    for d, e in named:
        assert e.event == d.event and e.reveal_index == d.reveal_index + 1 and d.played.index == d.seat
        assert d.follow_up == e.best and d.p_game_played == e.p_game_best
        assert d.p_game_best is not None and d.loss == pytest.approx(max(d.p_game_best - e.p_game_best, 0.0))  # type: ignore[operator]
    first = next(d for d in a.decisions if d.turn == 2 and d.reveal_index == 0)
    assert first.follow_up is not None and first.label != "blunder"
