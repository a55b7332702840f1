"""The benchmark of the advice's objectives: what each puts first, on the decisions of bot games."""

from __future__ import annotations

import sys

import pytest

from helpers_benchmarks import load_benchmark
from trio_solver.decide.search import Evaluation
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


def test_the_script_counts_every_objective(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["advice_objectives.py", "--games", "2", "--seed", "3"])
    assert objectives.main() == 0
    lines = capsys.readouterr().out.splitlines()
    decisions = int(lines[0].split()[0])
    rows = {line.split()[0]: line.split() for line in lines[2:]}
    assert set(rows) == {"turn", "trio", "win"}
    for row in rows.values():
        assert row[2] == "of" and int(row[3]) == decisions and 0 <= int(row[1]) <= decisions
    # ranked by the chance of a trio first, the first reveal never gives a trio up
    assert rows["trio"][1] == "0"
