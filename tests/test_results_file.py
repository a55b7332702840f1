"""Results files and resumable tournaments: torn lines, other parameters, the same summary as one run."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from trio_solver.errors import RunError
from trio_solver.run.results import ResultsFile
from trio_solver.game.rules import Mode, Rules
from trio_solver.run.simulate import GameResult, run_tournament

RULES = Rules(4, Mode.PICANTE)
BOTS = ["memory", "random", "memory", "random"]


def _stable(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "games_per_second"}


class Stop(Exception):
    pass


def _interrupted(path: Path, games: int, after: int, **kwargs: Any) -> None:
    """A run that dies after ``after`` games have been written."""
    seen: list[int] = []

    def on_game(r: GameResult) -> None:
        if len(seen) == after:
            raise Stop
        seen.append(r.index)

    with pytest.raises(Stop):
        run_tournament(RULES, BOTS, games, seed=21, results_file=str(path), on_game=on_game, **kwargs)


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_file_holds_a_header_and_one_line_per_game(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    t = run_tournament(RULES, BOTS, 15, seed=21, results_file=str(path))
    header, *games = _lines(path)
    assert header["format"] == "trio-results/1" and header["kind"] == "tournament"
    assert header["params"] == {"players": 4, "mode": "picante", "teams": False, "bots": BOTS, "seed": 21}
    assert header["command"] == ("trio-solver simulate --players 4 --mode picante "
                                 "--bots memory,random,memory,random --games 15 --seed 21")
    assert sorted(g["game"] for g in games) == list(range(15))
    by_game = {g["game"]: g for g in games}
    for r in t.results:
        assert by_game[r.index] == {"game": r.index, "winner": r.winner, "turns": r.turns}


@pytest.mark.parametrize("workers", [1, 2])
def test_resume_gives_the_uninterrupted_summary(tmp_path: Path, workers: int) -> None:
    whole = run_tournament(RULES, BOTS, 30, seed=21)
    path = tmp_path / "run.jsonl"
    _interrupted(path, 30, after=11, workers=workers)
    assert 1 + 11 == len(path.read_text().splitlines())
    played: list[int] = []
    notes: list[str] = []
    again = run_tournament(RULES, BOTS, 30, seed=21, results_file=str(path), workers=workers,
                           on_game=lambda r: played.append(r.index), on_note=notes.append)
    assert len(played) == 19 and again.played == 19, "the 11 games in the file were not played again"
    assert any("11 of 30 games read back" in n for n in notes)
    assert _stable(again.to_json()) == _stable(whole.to_json())
    assert [(r.index, r.winner, r.turns) for r in again.results] == \
        [(r.index, r.winner, r.turns) for r in whole.results]
    # a third run plays nothing and says the same
    third = run_tournament(RULES, BOTS, 30, seed=21, results_file=str(path), on_game=lambda r: played.append(-1))
    assert -1 not in played and third.played == 0
    assert _stable(third.to_json()) == _stable(whole.to_json())
    assert sorted(g["game"] for g in _lines(path)[1:]) == list(range(30))


def test_a_torn_last_line_is_ignored_and_cut_off(tmp_path: Path) -> None:
    whole = run_tournament(RULES, BOTS, 20, seed=21)
    path = tmp_path / "run.jsonl"
    _interrupted(path, 20, after=7)
    text = path.read_text()
    last_game = json.loads(text.splitlines()[-1])["game"]
    for torn in ('{"game":1', '{"game":19,"winner":0,"turns":12}', "\0\0\0\0"):
        path.write_text(text + torn)  # the process died in the middle of writing a line
        seen: list[int] = []
        again = run_tournament(RULES, BOTS, 20, seed=21, results_file=str(path), on_game=lambda r: seen.append(r.index))
        assert _stable(again.to_json()) == _stable(whole.to_json())
        assert len(seen) == 13 and last_game not in seen
        lines = path.read_text().splitlines()
        assert all(json.loads(line) for line in lines), "the torn line was cut off, not left in the middle"
        assert sorted(g["game"] for g in _lines(path)[1:]) == list(range(20))


def test_a_bad_line_in_the_middle_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    run_tournament(RULES, BOTS, 5, seed=21, results_file=str(path))
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:3] + ["garbage"] + lines[3:]) + "\n")
    with pytest.raises(RunError, match="line 4 is not a results line"):
        run_tournament(RULES, BOTS, 5, seed=21, results_file=str(path))
    path.write_text("\n".join(lines[:3] + ['{"game": 2, "winner": 9, "turns": 3}'] + lines[3:]) + "\n")
    with pytest.raises(RunError, match="line 4 is not a game of this tournament"):
        run_tournament(RULES, BOTS, 5, seed=21, results_file=str(path))
    path.write_text("\n".join(lines + [lines[2]]) + "\n")
    with pytest.raises(RunError, match="game .* is already in the file"):
        run_tournament(RULES, BOTS, 5, seed=21, results_file=str(path))
    # a whole last line (its end written) that is not a results line is no torn write: refused, the file kept
    for last in ("garbage", "\x01\x02"):
        path.write_text("\n".join(lines[:3] + [last]) + "\n")
        before = path.read_bytes()
        with pytest.raises(RunError, match="line 4 is not a results line"):
            run_tournament(RULES, BOTS, 5, seed=21, results_file=str(path))
        assert path.read_bytes() == before


@pytest.mark.parametrize("change,message", [
    ({"seed": 22}, "seed 21 there, 22 here"),
    ({"bots": ["random", "memory", "memory", "random"]}, "bots"),
    ({"rules": Rules(4, Mode.SIMPLE)}, 'mode "picante" there, "simple" here'),
    ({"rules": Rules(4, Mode.PICANTE, teams=True)}, "teams false there, true here"),
])
def test_other_parameters_are_refused(tmp_path: Path, change: dict[str, Any], message: str) -> None:
    path = tmp_path / "run.jsonl"
    run_tournament(RULES, BOTS, 4, seed=21, results_file=str(path))
    before = path.read_bytes()
    args: dict[str, Any] = {"rules": RULES, "bots": BOTS, "seed": 21, **change}
    with pytest.raises(RunError, match="written by a run with other parameters") as e:
        run_tournament(args["rules"], args["bots"], 4, seed=args["seed"], results_file=str(path))
    assert message in str(e.value) and "\n" not in str(e.value)
    assert path.read_bytes() == before, "a refused resume leaves the file alone"


def test_a_file_that_is_not_a_results_file_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("my precious notes\nline two\n")
    with pytest.raises(RunError, match="not a trio-solver results file"):
        run_tournament(RULES, BOTS, 3, seed=21, results_file=str(path))
    assert path.read_text() == "my precious notes\nline two\n"


def test_a_torn_header_starts_the_file_again(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    path.write_text('{"format":"trio-res')
    t = run_tournament(RULES, BOTS, 3, seed=21, results_file=str(path))
    assert _lines(path)[0]["format"] == "trio-results/1" and t.games == 3


def test_more_games_extend_a_run_and_fewer_count_only_theirs(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    run_tournament(RULES, BOTS, 10, seed=21, results_file=str(path))
    played: list[int] = []
    longer = run_tournament(RULES, BOTS, 16, seed=21, results_file=str(path), on_game=lambda r: played.append(r.index))
    assert sorted(played) == list(range(10, 16))
    assert _stable(longer.to_json()) == _stable(run_tournament(RULES, BOTS, 16, seed=21).to_json())
    notes: list[str] = []
    shorter = run_tournament(RULES, BOTS, 6, seed=21, results_file=str(path), on_note=notes.append)
    assert shorter.played == 0
    assert _stable(shorter.to_json()) == _stable(run_tournament(RULES, BOTS, 6, seed=21).to_json())
    assert any("10 games of" in n and "beyond --games 6" in n for n in notes)


def test_two_runs_cannot_write_one_file(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    with ResultsFile(str(path), "tournament", {"seed": 1}, lambda n, e: None) as first:
        first.append({"game": 0, "winner": 1, "turns": 3})
        with pytest.raises(RunError, match="another run is writing"):
            ResultsFile(str(path), "tournament", {"seed": 1}, lambda n, e: None)
    seen: list[tuple[int, dict[str, Any]]] = []
    with ResultsFile(str(path), "tournament", {"seed": 1}, lambda n, e: seen.append((n, e))):
        pass
    assert seen == [(2, {"game": 0, "winner": 1, "turns": 3})]


def test_results_file_in_a_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(RunError, match="no such folder"):
        run_tournament(RULES, BOTS, 3, seed=21, results_file=str(tmp_path / "nope" / "run.jsonl"))


def test_a_results_file_is_a_regular_file_named_by_a_path(tmp_path: Path) -> None:
    """A device or a pipe is refused in one line naming it, and left as it is; a name that is not a path
    is refused as an argument."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for path in (str(fifo), "/dev/null"):
        with pytest.raises(RunError, match="is not a regular file"):
            run_tournament(Rules(3), ["memory"] * 3, 1, 0, results_file=path)
    assert fifo.is_fifo()
    class BytesPath(os.PathLike):  # type: ignore[type-arg]
        def __fspath__(self) -> bytes:
            return b"run.jsonl"

    for bad in (5, "", "a\x00b", BytesPath()):
        with pytest.raises(RunError, match="results_file: expected a file name"):
            run_tournament(Rules(3), ["memory"] * 3, 1, 0, results_file=bad)  # type: ignore[arg-type]


def test_zero_games_refused() -> None:
    with pytest.raises(RunError, match="^games: expected 1 or more"):
        run_tournament(RULES, BOTS, 0, seed=1)


def test_a_billion_games_are_streamed_not_built() -> None:
    """The games are handed out as workers free up: a billion-game run starts at once and keeps no list."""
    seen: list[int] = []

    def on_game(r: GameResult) -> None:
        seen.append(r.index)
        if len(seen) == 25:
            raise Stop

    for workers in (1, 2):
        seen.clear()
        with pytest.raises(Stop):
            run_tournament(RULES, BOTS, 10**9, seed=3, workers=workers, keep_results=False, on_game=on_game)
        assert len(seen) == 25 and max(seen) < 25 + 4


def test_keep_results_false_keeps_totals_only() -> None:
    a = run_tournament(RULES, BOTS, 12, seed=4, keep_results=False)
    b = run_tournament(RULES, BOTS, 12, seed=4)
    assert a.results == () and len(b.results) == 12
    assert _stable(a.to_json()) == _stable(b.to_json())


def test_progress_bar_counts_resumed_games(tmp_path: Path) -> None:
    import io

    path = tmp_path / "run.jsonl"
    run_tournament(RULES, BOTS, 4, seed=21, results_file=str(path))
    out = io.StringIO()
    run_tournament(RULES, BOTS, 9, seed=21, results_file=str(path), workers=2, progress=out)
    text = out.getvalue()
    # a stream that is not a terminal gets plain lines, the first at once (the 4 games read back count)
    lines = text.splitlines()
    assert "\r" not in text and text.endswith("\n") and "9/9 games" in lines[-1] and "games/s" in lines[-1]
    counts = [int(line.split("/")[0].split()[-1]) for line in lines]
    assert counts == sorted(counts) and counts[0] == 4 and counts[-1] == 9


def test_a_forked_worker_neither_keeps_the_file_nor_its_lock(tmp_path: Path) -> None:
    """Worker processes forked while a results file is open (a process pool) close their copy at once,
    and the file is free for the next run as soon as the first is closed, with the workers still alive."""
    path = tmp_path / "run.jsonl"
    sink = ResultsFile(str(path), "tournament", {"x": 1}, lambda n, e: None)
    fd = sink._fd
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # the worker: is the results file still open here?
        try:
            os.fstat(fd)
            os.write(write, b"open")
        except OSError:
            os.write(write, b"closed")
        time.sleep(30)
        os._exit(0)
    try:
        os.close(write)
        assert os.read(read, 16) == b"closed"
        sink.close()
        again = ResultsFile(str(path), "tournament", {"x": 1}, lambda n, e: None)  # not "another run"
        again.close()
    finally:
        os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
        os.close(read)
