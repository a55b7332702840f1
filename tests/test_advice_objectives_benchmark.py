"""The benchmark of the advice's objectives: what each puts first, on the decisions of bot games."""

from __future__ import annotations

import sys

import pytest

from helpers_benchmarks import load_benchmark
from trio_solver.decide.search import Evaluation, advise
from trio_solver.game.reveal import Reveal

objectives = load_benchmark("advice_objectives")


def _e(reveal: str, p_trio: float, p_win: float) -> Evaluation:
    return Evaluation(Reveal.from_str(reveal), p_trio, p_win, (), None, 0.0)


def test_a_trio_given_up_for_a_sliver_of_a_win() -> None:
    sure, sliver = _e("l0", 1.0, 0.0), _e("h1", 0.05, 0.004)
    assert objectives.trades_trio_for_a_sliver(sliver, (sure, sliver), 0.10)
    assert not objectives.trades_trio_for_a_sliver(sure, (sure, sliver), 0.10)
    # a real chance to win (more than 0.01 above) is no sliver, and a trio chance within the gap is not given up
    assert not objectives.trades_trio_for_a_sliver(_e("h1", 0.05, 0.03), (sure, _e("h1", 0.05, 0.03)), 0.10)
    assert not objectives.trades_trio_for_a_sliver(_e("h1", 0.95, 0.004), (sure, _e("h1", 0.95, 0.004)), 0.10)


def test_the_script_counts_what_each_objective_puts_first(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["advice_objectives.py", "--games", "2", "--seed", "2", "--gap", "0.05"])
    assert objectives.main() == 0
    lines = capsys.readouterr().out.splitlines()
    rows = {line.split()[0]: line.split() for line in lines[2:]}
    assert set(rows) == {"turn", "trio", "win"}
    # the counts, made again here from the same decisions
    views = objectives.positions(2, 3, 2)
    assert int(lines[0].split()[0]) == len(views)
    for objective, row in rows.items():
        given_up = sum(objectives.trades_trio_for_a_sliver(a.evaluations[0], a.evaluations, 0.05)
                       for a in (advise(v, objective) for v in views))
        assert row[1:4] == [str(given_up), "of", str(len(views))]
    assert int(rows["win"][1]) > 0  # ranked by the chance to win now, some trio is given up on these games
