"""The commands of game-level evaluation: evaluate, advise --objective game, simulate --budget."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trio_solver.doors.cli import main
from trio_solver.decide.evaluate import advise_game, evaluate
from trio_solver.game.record import Record
from trio_solver.game.reveal import Reveal
from trio_solver.words import percent

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_evaluate_json(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES / "full_deal_4p.json")
    code, out, err = run(capsys, "evaluate", path, "--after", "5", "--seat", "1", "--samples", "50", "--seed", "3",
                         "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert set(data) == {"seat", "after", "to_move", "win_chance", "stderr", "samples"}
    assert data["seat"] == 1 and data["after"] == 5 and data["samples"] == 50
    assert set(data["win_chance"]) == set(data["stderr"]) == {"0", "1", "2", "3"}
    assert abs(sum(data["win_chance"].values()) - 1) < 1e-9
    view = Record.load(path).view(1, 5)
    assert data == evaluate(view, samples=50, seed=3).to_json(5)
    assert data["to_move"] == view.to_move
    # the same seed, the same figures; the text form names every seat
    assert run(capsys, "evaluate", path, "--after", "5", "--seat", "1", "--samples", "50", "--seed", "3",
               "--json")[1] == out
    code, out, _ = run(capsys, "evaluate", path, "--after", "5", "--seat", "none", "--samples", "20")
    assert code == 0 and "spectator" in out and out.count("±") == 4


def test_evaluate_teams_give_partners_the_same_chance(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "evaluate", str(EXAMPLES / "teams_4p.json"), "--after", "6", "--samples", "30",
                       "--json")
    assert code == 0
    wc = json.loads(out)["win_chance"]
    assert wc["0"] == wc["2"] and wc["1"] == wc["3"] and abs(wc["0"] + wc["1"] - 1) < 1e-9


def test_advise_objective_game(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES / "full_deal_4p.json")
    code, out, err = run(capsys, "advise", path, "--after", "4", "--objective", "game", "--samples", "30",
                         "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["objective"] == "game"
    games = [e["p_game"] for e in data["reveals"]]
    assert games == sorted(games, reverse=True)
    assert all({"reveal", "p_trio", "p_win", "p_game", "p_game_stderr"} <= set(e) for e in data["reveals"])
    view = Record.load(path).view(None, 4)
    view = Record.load(path).view(view.to_move, 4)
    assert [e["reveal"] for e in data["reveals"]] == [
        e.reveal.to_json() for e in advise_game(view, samples=30).evaluations]
    code, out, _ = run(capsys, "advise", path, "--after", "4", "--objective", "game", "--samples", "30")
    assert code == 0 and "win game" in out and "Best:" in out
    # each row ends in its gap's error, but the first, which the gaps are measured from
    rows = out.splitlines()[2:2 + len(data["reveals"])]
    assert [row.split()[-1] for row in rows] == ["—"] + [
        percent(e["p_game_gap_stderr"], 1) for e in data["reveals"][1:]]
    # the reveals at most twice their gap's error below the first are named as not told apart from it
    first = data["reveals"][0]
    tied = [Reveal.from_json(e["reveal"]) for e in data["reveals"][1:]
            if first["p_game"] - e["p_game"] <= 2 * e["p_game_gap_stderr"]]
    assert tied, "no reveal within noise of the first at this position"
    assert [Reveal.from_json(r) for r in data["not_told_apart"]] == tied
    assert (f"  Not told apart from {Reveal.from_json(first['reveal'])} by the playouts: {', '.join(map(str, tied))}; "
            "their chances this turn (win now, trio chance) are exact.") in out.splitlines()


@pytest.mark.parametrize("option", [["--samples", "30"], ["--confidence", "0.9"]])
def test_game_options_are_refused_for_the_turn_objectives(capsys: pytest.CaptureFixture[str],
                                                          option: list[str]) -> None:
    code, out, err = run(capsys, "advise", str(EXAMPLES / "full_deal_4p.json"), "--after", "4", *option)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"{option[0]} is for --objective game" in err


def test_simulate_budget(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", "--players", "3", "--bots", "expert,memory,memory", "--games", "2",
                         "--budget", "12", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["bots"] == ["expert", "memory", "memory"] and data["games"] == 2


@pytest.mark.parametrize("argv", [
    ["evaluate", "EX", "--samples", "0"],
    ["evaluate", "EX", "--samples", "x"],
    ["simulate", "--players", "3", "--budget", "0"],
    ["advise", "EX", "--objective", "game", "--samples", "-2"],
])
def test_bad_numbers_are_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    argv = [str(EXAMPLES / "full_deal_4p.json") if a == "EX" else a for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("trio-solver: ")


def test_evaluate_refuses_all_seats(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "evaluate", str(EXAMPLES / "full_deal_4p.json"), "--seat", "all")
    assert code == 1 and out == "" and "--seat" in err and err.count("\n") == 1


def test_game_advice_explains_itself(capsys: pytest.CaptureFixture[str]) -> None:
    from trio_solver.decide.evaluate import explain

    path = str(EXAMPLES / "full_deal_4p.json")
    view = Record.load(path).view(0, 4)
    adv = advise_game(view, samples=40)
    lines = explain(view, adv)
    assert len(lines) >= 3
    for e, line in zip(adv.evaluations[:3], lines):
        assert line.startswith(f"{e.reveal}: wins the game {e.p_game:.1%}")
        assert f"trio this turn {e.p_trio:.1%}" in line and "failure" in line
    code, out, _ = run(capsys, "advise", path, "--after", "4", "--objective", "game", "--samples", "40")
    assert code == 0 and lines[0] in out


def test_game_advice_says_when_the_turn_best_loses_the_game_and_by_how_sure() -> None:
    """Where the best reveal for the turn is not the best for the game, the advice says by how much,
    with the error of that difference, and calls it noise when it is below twice that error."""
    from trio_solver.decide.evaluate import explain

    record = Record.load(str(EXAMPLES / "full_deal_4p.json"))
    found = 0
    for after in range(0, 12):
        view = record.view("default", after)  # the seat to move (a full-deal record)
        assert view.seat == view.to_move and not view.over
        adv = advise_game(view, samples=40)
        best = adv.evaluations[0]
        turn_best = max(adv.evaluations, key=lambda e: (round(e.p_trio + e.p_win, 12), -adv.evaluations.index(e)))
        line = next((x for x in explain(view, adv) if "is best for this turn alone" in x), None)
        assert (line is None) == (turn_best.reveal == best.reveal)
        if line is None:
            continue
        gap = (best.p_game or 0.0) - (turn_best.p_game or 0.0)
        se = turn_best.p_game_gap_stderr or 0.0
        if gap < 0.0005:
            assert line.endswith(f"wins the game as often as {best.reveal}.")
            continue
        assert f"{gap:.1%} ± {se:.1%} less often than {best.reveal}" in line
        assert ("within the noise" in line) == (gap < 2 * se)
        found += 1
    assert found >= 2


@pytest.mark.parametrize("name", ["full_deal_4p.json", "teams_4p.json", "in_progress_5p.json"])
def test_evaluate_text_lines_up(capsys: pytest.CaptureFixture[str], name: str) -> None:
    """One row per seat, the chances in one column whatever the names' lengths."""
    code, out, _ = run(capsys, "evaluate", str(EXAMPLES / name), "--samples", "64", "--precision", "0")
    assert code == 0
    rows = out.splitlines()[1:]
    assert len(rows) == Record.load(EXAMPLES / name).rules.players
    assert len({row.index("±") for row in rows}) == 1 and len({row.index("%") for row in rows}) == 1
