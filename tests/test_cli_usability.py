"""The small things a new user met: --version, defaults in --help, beliefs listed by value
in plain English, --list N, '1 trio', --games 0, teams in simulate, files that can be shared."""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import pytest

from trio_solver import __version__
from trio_solver.doors.cli import main
from trio_solver.game.state import Game
from trio_solver.game.record import Record
from trio_solver.game.reveal import Reveal
from trio_solver.game.rules import Mode, Rules

ROOT = Path(__file__).resolve().parent.parent
FULL = str(ROOT / "examples" / "full_deal_4p.json")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0  # argparse's exit becomes main's status
    assert capsys.readouterr().out.strip() == f"trio-solver {__version__}"


def test_defaults_are_shown_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for option, default in (("--games", "100"), ("--seed", "0"), ("--players", "4"), ("--workers", "1")):
        assert re.search(re.escape(option) + r" \S+ .*?\(?default " + default, text), option
    assert main(["play", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "default 4" in text and "a random one, printed" in text


def test_beliefs_by_value_and_articles(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "beliefs", FULL, "--after", "15", "--seat", "1")
    assert code == 0
    for line in out.splitlines():
        pairs = re.findall(r"\b(\d+):(\d\.\d{3})", line)
        if line.strip().startswith(("c", "l", "h")) and pairs:
            values = [int(v) for v, _ in pairs]
            assert values == sorted(values), line
    assert not re.search(r"\ba (8|11|18)\b", out)
    assert re.search(r"\ban (8|11)\b", out)


def test_list_prints_the_first_placements(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "beliefs", FULL, "--after", "15", "--seat", "1", "--list", "5", "--json")
    assert code == 0
    some = json.loads(out)
    code, out, _ = run(capsys, "beliefs", FULL, "--after", "15", "--seat", "1", "--list", "100", "--json")
    every = json.loads(out)
    assert some["placement_count"] == every["placement_count"] == len(every["placements"]) > 5
    assert len(some["placements"]) == 5
    full = {json.dumps(p["rows"], sort_keys=True): p["probability"] for p in every["placements"]}
    for p in some["placements"]:
        assert p["probability"] == pytest.approx(full[json.dumps(p["rows"], sort_keys=True)], abs=1e-12)
    code, text, _ = run(capsys, "beliefs", FULL, "--after", "15", "--seat", "1", "--list", "5")
    assert f"the first 5 of {every['placement_count']}" in text


def test_validate_counts_in_english(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    hands = [[7, 7, 7, 8, 9, 10, 11, 12, 12], [1, 1, 1, 2, 2, 2, 3, 3, 3], [4, 4, 4, 5, 5, 5, 6, 6, 6]]
    game = Game.from_deal(Rules(3, Mode.PICANTE), hands, [8, 8, 9, 9, 10, 10, 11, 11, 12], first_player=0)
    for _ in range(3):
        game.reveal(Reveal.lowest(0))
    path = tmp_path / "one.json"
    Record.from_game(game).save(path)
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 0 and "1 event, 1 trio;" in out


def test_simulate_refuses_no_games_and_shows_teams(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "simulate", "--games", "0")
    assert code == 2 and "--games" in err and "Traceback" not in err
    code, out, _ = run(capsys, "simulate", "--players", "4", "--teams", "--bots", "solver,memory,memory,memory",
                       "--games", "4", "--seed", "3")
    assert code == 0
    assert "0 & 2    solver + memory" in out and "1 & 3    memory + memory" in out
    wins = [int(line.split()[-4]) for line in out.splitlines() if re.match(r"\s+\d & \d", line)]
    assert sum(wins) == 4  # a team's win counts once
    assert "some teams mix bots" in out
    code, out, _ = run(capsys, "simulate", "--players", "4", "--teams", "--json", "--games", "4", "--seed", "3")
    data = json.loads(out)
    assert sum(t["wins"] for t in data["team_wins"]) == 4 and [t["seats"] for t in data["team_wins"]] == [[0, 2],
                                                                                                       [1, 3]]


def test_written_files_can_be_shared(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        game = Game.deal(Rules(3), seed=1)
        Record.from_game(game).save(tmp_path / "r.json")
        assert run(capsys, "simulate", "--players", "3", "--games", "2", "--save", str(tmp_path / "sim"))[0] == 0
        assert run(capsys, "analyse", FULL, "--quick", "--html", str(tmp_path / "r.html"))[0] == 0
        for p in [tmp_path / "r.json", tmp_path / "r.html", *sorted((tmp_path / "sim").iterdir())]:
            assert stat.S_IMODE(os.stat(p).st_mode) == 0o644, p
        assert not [p for p in tmp_path.rglob(".trio-*")]  # no temporary file left behind
    finally:
        os.umask(old)


def test_a_budget_no_bot_uses_is_noted(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "simulate", "--players", "3", "--games", "1", "--budget", "10", "--workers", "1")
    assert code == 0 and "note: --budget sets the expert bots' playouts; no expert plays here" in err
    code, _, err = run(capsys, "simulate", "--players", "3", "--games", "1", "--workers", "1")
    assert code == 0 and "--budget" not in err
