"""``trio-solver play`` in a real terminal (tmux): input typed while the bots move is dropped."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from trio_solver.game.state import Game
from trio_solver.game.rules import Rules

TMUX = shutil.which("tmux")
CLI = str(Path(sys.executable).with_name("trio-solver"))


@pytest.fixture
def session() -> Iterator[str]:
    if TMUX is None:
        pytest.fail("tmux is needed for the terminal tests of play (apt-get install tmux)")
    # a tmux server of its own (-L, its socket's name) for each test: tests running side by side never
    # meet a server that another one's last session is shutting down
    name = f"trio-test-{uuid.uuid4().hex[:8]}"
    yield name
    subprocess.run([TMUX, "-L", name, "kill-server"], capture_output=True)


def _pane(name: str) -> str:
    assert TMUX is not None
    return subprocess.run([TMUX, "-L", name, "capture-pane", "-p", "-J", "-S", "-3000", "-t", name],
                          capture_output=True, text=True, check=True).stdout


def _wait(name: str, ok: Callable[[str], bool], seconds: float = 60) -> str:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        text = _pane(name)
        if ok(text):
            return text
        time.sleep(0.1)
    raise AssertionError(f"the terminal never showed what was expected:\n{_pane(name)}")


def test_input_typed_while_the_bots_move_is_dropped(session: str) -> None:
    assert TMUX is not None
    rules = Rules(3)
    # a deal where two bots move before the person (seat 2) does
    seed = next(s for s in range(200) if Game.deal(rules, rng=random.Random(s)).to_move == 0)
    subprocess.run([TMUX, "-L", session, "new-session", "-d", "-s", session, "-x", "160", "-y", "60",
                    f"{CLI} play --players 3 --seat 2 --bots memory,memory --seed {seed} --delay 0.6; sleep 30"],
                   check=True)
    _wait(session, lambda t: "Turn of" in t)
    # typed while the bots are still playing: must not become the person's move
    subprocess.run([TMUX, "-L", session, "send-keys", "-t", session, "c0", "Enter"], check=True)
    text = _wait(session, lambda t: "Your move" in t and t.rstrip().endswith(">"))
    assert "You reveal" not in text
    assert "what you typed before this prompt was dropped" in text
    # typed at the prompt: taken
    subprocess.run([TMUX, "-L", session, "send-keys", "-t", session, "c0", "Enter"], check=True)
    text = _wait(session, lambda t: "You reveal c0" in t)
    subprocess.run([TMUX, "-L", session, "send-keys", "-t", session, "quit", "Enter"], check=True)
    _wait(session, lambda t: "Stopped." in t)


def test_simulate_shows_progress_at_a_terminal(session: str, tmp_path: Path) -> None:
    assert TMUX is not None
    log = tmp_path / "out.txt"
    subprocess.run([TMUX, "-L", session, "new-session", "-d", "-s", session, "-x", "160", "-y", "20",
                    f"{CLI} simulate --players 3 --bots memory,memory,memory --games 4 > {log}; sleep 30"], check=True)
    text = _wait(session, lambda t: "4/4 games" in t)
    assert "games/s" in text
    end = time.monotonic() + 30
    while time.monotonic() < end and "games per second" not in (log.read_text() if log.exists() else ""):
        time.sleep(0.1)
    assert log.read_text().startswith("4 games, 3 players")  # the report itself is on standard output


def test_simulate_progress_flag_writes_lines_to_a_pipe() -> None:
    run = subprocess.run([CLI, "simulate", "--players", "3", "--bots", "memory,memory,memory", "--games", "3",
                          "--progress", "--json"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    assert lines[0].endswith("0/3 games, the first game is being played") and "3/3 games" in lines[-1]
    assert "\r" not in run.stderr  # a pipe gets plain lines, not a redrawn bar
    quiet = subprocess.run([CLI, "simulate", "--players", "3", "--bots", "memory,memory,memory", "--games", "2",
                            "--json"], capture_output=True, text=True, timeout=120)
    assert quiet.returncode == 0 and quiet.stderr == ""
