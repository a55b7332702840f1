"""The strength benchmark's duplicate format: every deal with the tested bot in each side."""

from __future__ import annotations

import argparse
import fcntl
import math
import os
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from helpers_benchmarks import BENCHMARKS, load_benchmark
from trio_solver.game.rules import Mode, Rules
from trio_solver.run.simulate import run_tournament

strength = load_benchmark("strength")


def test_identical_bots_win_exactly_the_fair_share() -> None:
    """With the same bot everywhere each deal is the same game in every side, so exactly one side wins it."""
    for rules, games in ((Rules(3, Mode.SIMPLE), 12), (Rules(4, Mode.PICANTE, teams=True), 8)):
        d = strength.duplicate(rules, "memory", "memory", games, 7, workers=1, budget=None)
        wins, n = d.total
        sides = len(rules.teams_of_seats)
        assert n == games and len(d.games) == games // sides
        assert all(d.games[i] == sides and d.wins[i] == 1 for i in d.games)
        assert wins * sides == games and d.deal_stderr() == 0.0


def test_sides_play_the_same_deals_and_add_up() -> None:
    """Side ``k``'s games are the tournament with the tested bot in seat ``k``, on deals 0..n-1."""
    rules = Rules(3, Mode.SIMPLE)
    d = strength.duplicate(rules, "memory", "random", 10, 3, workers=1, budget=None)
    assert sorted(d.games) == list(range(4)) and sum(d.games.values()) == 10
    assert [d.games[i] for i in range(4)] == [3, 3, 3, 1]  # 10 games: 4 + 3 + 3 over the three sides
    for side in range(3):
        t = run_tournament(rules, strength.lineup(rules, "memory", "random", side), 4 if side == 0 else 3, 3)
        assert d.by_side[side] == t.seat_wins()[side]
    assert sum(d.by_side) == d.total[0] == sum(d.wins.values())


def test_fixed_seat_is_the_plain_tournament() -> None:
    """Seat 0 only: the plain tournament, and each game its own deal (the binomial error, n - 1 divisor)."""
    rules = Rules(3, Mode.SIMPLE)
    d = strength.duplicate(rules, "memory", "memory", 12, 5, workers=1, budget=None, fixed_seat=True)
    t = run_tournament(rules, ["memory"] * 3, 12, 5)
    wins = t.seat_wins()[0]
    assert d.total == (wins, 12) and d.by_side == [wins] and 0 < wins < 12
    p = wins / 12
    assert abs(d.deal_stderr() - math.sqrt(p * (1 - p) / 11)) < 1e-12


def test_a_run_with_results_files_resumes_to_the_same_figures(tmp_path: Path) -> None:
    rules = Rules(3, Mode.SIMPLE)
    full = strength.duplicate(rules, "memory", "random", 9, 4, workers=1, budget=None)
    part = strength.duplicate(rules, "memory", "random", 6, 4, workers=1, budget=None, results=tmp_path)
    assert len(list(tmp_path.glob("3p-simple-*-seed4.jsonl"))) == 3  # one file per side
    again = strength.duplicate(rules, "memory", "random", 9, 4, workers=1, budget=None, results=tmp_path)
    assert (again.wins, again.games, again.by_side) == (full.wins, full.games, full.by_side)
    assert part.total[1] == 6
    lines = [f.read_text().splitlines() for f in sorted(tmp_path.glob("*.jsonl"))]
    assert sum(len(x) for x in lines) == 9 + 3  # each file: a header line and its games, none played twice


def test_seeds_parse_as_lists_and_ranges_and_bad_text_is_refused() -> None:
    assert strength.parse_seeds("5") == [5]
    assert strength.parse_seeds("11-13,1,12") == [11, 12, 13, 1]
    assert strength.parse_seeds(" -2 - 0 ") == [-2, -1, 0]
    for bad in ("", "a", "3-1", "1,,2", "1-2-3", "0-10000"):
        with pytest.raises(argparse.ArgumentTypeError, match="expected seeds"):
            strength.parse_seeds(bad)


def test_pooled_seeds_add_up_and_count_each_seeds_deals_apart() -> None:
    """Two seeds pooled: the wins, games and sides add up, and the error over deals is the one of all
    deals of both seeds (deal 0 of seed 4 and deal 0 of seed 5 are two deals)."""
    rules = Rules(3, Mode.SIMPLE)
    a = strength.duplicate(rules, "memory", "random", 9, 4, workers=1, budget=None)
    b = strength.duplicate(rules, "memory", "random", 6, 5, workers=1, budget=None)
    both = strength.Duplicate.pooled([a, b])
    assert both.total == (a.total[0] + b.total[0], 15)
    assert both.by_side == [x + y for x, y in zip(a.by_side, b.by_side)]
    assert len(both.games) == len(a.games) + len(b.games) == 5
    assert abs(both.turns * 15 - (a.turns * 9 + b.turns * 6)) < 1e-9
    rate = both.total[0] / 15
    resid = [w - rate * n for d in (a, b) for w, n in ((d.wins[k], d.games[k]) for k in d.games)]
    assert abs(both.deal_stderr() - math.sqrt(sum(r * r for r in resid) / 4 / 5) / 3) < 1e-12
    one = strength.Duplicate.pooled([a])
    assert (one.total, one.by_side, one.deal_stderr()) == (a.total, a.by_side, a.deal_stderr())


def test_several_seeds_print_a_row_each_and_a_pooled_row(capsys: pytest.CaptureFixture[str]) -> None:
    strength.main(["--bot", "memory", "--against", "random", "--only", "3p-simple", "--games", "6",
                   "--workers", "1", "--seed", "4-5"])
    out = capsys.readouterr().out.splitlines()
    rows = {line.split()[0]: line.split() for line in out if line.startswith("3p-simple")}
    assert list(rows) == ["3p-simple:4", "3p-simple:5", "3p-simple:all"]
    wins = [int(rows[k][2]) for k in rows]
    assert wins[2] == wins[0] + wins[1]
    assert "seeds 4,5" in out[0] and "pooled over the seeds" in out[-1]


def test_paired_difference_is_the_mean_over_deals_of_the_difference() -> None:
    """The same deals played by two bots: the paired difference is the mean over deals of the difference
    of their win shares; the same bot twice differs by exactly 0 with no error."""
    rules = Rules(3, Mode.SIMPLE)
    a = strength.duplicate(rules, "memory", "random", 9, 6, workers=1, budget=None)
    b = strength.duplicate(rules, "random", "random", 9, 6, workers=1, budget=None)
    diff, se = strength.paired(a, b)
    shares = [a.wins[d] / a.games[d] - b.wins[d] / b.games[d] for d in a.games]
    assert diff == pytest.approx(sum(shares) / 3) and diff == pytest.approx(a.total[0] / 9 - b.total[0] / 9)
    assert se == pytest.approx(statistics.stdev(shares) / math.sqrt(3))
    assert strength.paired(a, a) == (0.0, 0.0)


def test_results_of_another_version_are_read_back_and_paired(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """``--paired-results`` reads the games another run saved (nothing is played): the same figures as
    that run, a zero difference against itself, and a one-line exit when a game is missing."""
    rules = Rules(3, Mode.SIMPLE)
    saved = strength.duplicate(rules, "memory", "random", 9, 4, workers=1, budget=None, results=tmp_path)
    read = strength.read_duplicate(rules, "memory", "random", 9, 4, tmp_path)
    assert read.wins == saved.wins and read.games == saved.games and read.by_side == saved.by_side
    assert math.isclose(read.turns, saved.turns)
    assert strength.paired(saved, read) == (0.0, 0.0)
    strength.main(["--bot", "memory", "--against", "random", "--only", "3p-simple", "--games", "9", "--seed", "4",
                   "--workers", "1", "--results", str(tmp_path), "--paired-results", str(tmp_path)])
    assert f"this code - {tmp_path.name}, same deals: +0.000" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="3 of 4 games"):
        strength.read_duplicate(rules, "memory", "random", 12, 4, tmp_path)


def _script(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCHMARKS / "strength.py"), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_bad_input_ends_the_script_with_one_line(tmp_path: Path) -> None:
    """A results file another run holds, a --results path that is a file, an unknown setting: one line on
    standard error, status 2, no traceback, nothing written."""
    folder = tmp_path / "runs"
    folder.mkdir()
    held = folder / "3p-simple-solver-memory-memory-seed1.jsonl"
    fd = os.open(held, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        done = _script("--games", "3", "--workers", "1", "--only", "3p-simple", "--results", str(folder),
                       cwd=tmp_path)
    finally:
        os.close(fd)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"strength.py: {held}: another run is writing to this results file"]
    assert held.read_bytes() == b""

    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine\n")
    done = _script("--games", "3", "--only", "3p-simple", "--results", str(a_file), cwd=tmp_path)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert done.stderr.startswith(f"strength.py: {a_file}: ") and "Traceback" not in done.stderr
    assert a_file.read_text() == "mine\n"

    done = _script("--games", "3", "--only", "3p-simple,9p-simple", cwd=tmp_path)
    assert done.returncode == 2 and "unknown setting 9p-simple" in done.stderr and done.stdout == ""
