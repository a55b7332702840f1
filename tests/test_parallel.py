"""The executor of many tasks (local backend): every result once, a bounded window, faults and errors."""

from __future__ import annotations

import itertools
import os
import signal
import time
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from trio_solver.errors import IllegalMoveError, RunError
from trio_solver.run.parallel import _SafePoints, available_cpus, run_tasks


def square(x: int) -> int:
    return x * x


def fail_on_five(x: int) -> int:
    if x == 5:
        raise IllegalMoveError("task 5 is illegal")
    return x


def die_once(task: tuple[str, int]) -> int:
    """Kill the worker process the first time task 3 runs (a marker file remembers it)."""
    marker, x = task
    if x == 3 and not os.path.exists(marker):
        Path(marker).write_text("died")
        os._exit(1)
    return x * x


def always_die(x: int) -> int:
    os._exit(1)


class Counted:
    """An endless stream of tasks that remembers how far it was read."""

    def __init__(self) -> None:
        self.taken = 0

    def __iter__(self) -> Iterator[int]:
        for i in itertools.count():
            self.taken = i + 1
            yield i


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("ordered", [False, True])
def test_every_result_once(workers: int, ordered: bool) -> None:
    got: list[int] = []
    info = run_tasks(square, range(40), got.append, workers=workers, ordered=ordered)
    assert sorted(got) == [i * i for i in range(40)]
    if ordered or workers == 1:
        assert got == [i * i for i in range(40)]
    assert info.tasks == 40 and info.backend == "local"
    assert info.workers == min(workers, available_cpus())


@pytest.mark.parametrize("workers", [1, 2])
def test_the_stream_is_read_a_window_at_a_time(workers: int) -> None:
    """A stream of a billion (here: endless) tasks is read only as far as the results handed out, plus a window."""
    stream = Counted()
    got: list[int] = []

    class Enough(Exception):
        pass

    def take(r: int) -> None:
        got.append(r)
        # at no time more tasks taken than results handed out plus the window (2 per worker)
        assert stream.taken <= len(got) + 2 * min(workers, available_cpus())
        if len(got) == 60:
            raise Enough

    with pytest.raises(Enough):
        run_tasks(square, stream, take, workers=workers, window=None)
    assert len(got) == 60
    assert stream.taken <= 60 + 4


def test_ordered_results_hold_back_within_the_window() -> None:
    stream = Counted()
    got: list[int] = []

    class Enough(Exception):
        pass

    def take(r: int) -> None:
        got.append(r)
        if len(got) == 30:
            raise Enough

    with pytest.raises(Enough):
        run_tasks(square, stream, take, workers=2, ordered=True, window=3)
    assert got == [i * i for i in range(30)]
    assert stream.taken <= 33


@pytest.mark.parametrize("workers", [1, 2])
def test_a_task_error_is_raised_as_it_was(workers: int) -> None:
    got: list[int] = []
    with pytest.raises(IllegalMoveError, match="task 5 is illegal"):
        run_tasks(fail_on_five, range(50), got.append, workers=workers)
    assert 5 not in got and len(got) < 50


def test_a_dead_worker_costs_only_its_task(tmp_path: Path) -> None:
    marker = str(tmp_path / "died")
    got: list[int] = []
    info = run_tasks(die_once, [(marker, i) for i in range(12)], got.append, workers=2, max_retries=2)
    assert os.path.exists(marker), "the worker of task 3 was killed"
    assert sorted(got) == [i * i for i in range(12)]
    assert info.retried is not None and info.retried >= 1


def test_a_task_that_kills_every_worker_gives_up(tmp_path: Path) -> None:
    with pytest.raises(RunError, match="died while running it, 2 times"):
        run_tasks(always_die, range(3), lambda r: None, workers=2, max_retries=1)


def test_notes_when_workers_are_capped() -> None:
    notes: list[str] = []
    cpus = available_cpus()
    run_tasks(square, range(3), lambda r: None, workers=cpus + 5, on_note=notes.append, total=3)
    assert any(f"--workers {cpus + 5} capped at {cpus}, the CPUs available" in n for n in notes)
    notes.clear()
    info = run_tasks(square, range(1), lambda r: None, workers=cpus, on_note=notes.append, total=1)
    assert info.workers == 1
    assert notes == [] if cpus == 1 else any("capped at 1, the number of games" in n for n in notes)


@pytest.mark.parametrize("kwargs,message", [
    ({"backend": "spark"}, "backend: expected one of local, ray"),
    ({"workers": 0}, "workers: expected a number of workers 1 to"),
    ({"window": 0}, "window: expected an integer 1 to"),
    ({"max_retries": -1}, "max_retries"),
    ({"ray_address": "auto"}, "a Ray address is for the ray backend"),
])
def test_bad_arguments(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(RunError, match=message):
        run_tasks(square, range(3), lambda r: None, **kwargs)  # type: ignore[arg-type]


def test_ray_missing_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    with pytest.raises(RunError) as e:
        run_tasks(square, range(3), lambda r: None, backend="ray")
    assert str(e.value) == ("the ray backend needs Ray, which is not installed: "
                            "pip install 'trio-solver[ray]'")


@pytest.mark.parametrize("address,message", [
    ("127.0.0.1:1", "cannot join the Ray cluster at \"127.0.0.1:1\": nothing answers at 127.0.0.1:1"),
    ("nonsense", "ray_address: expected \"auto\" or HOST:PORT, got \"nonsense\""),
])
def test_a_cluster_that_is_not_there_is_one_clear_error(address: str, message: str) -> None:
    """Ray alone would wait for minutes on an address where nothing answers."""
    with pytest.raises(RunError) as e:
        run_tasks(square, range(3), lambda r: None, backend="ray", ray_address=address)
    assert str(e.value).startswith(message) and "\n" not in str(e.value)


def test_ctrl_c_waits_for_a_safe_point_of_the_pool() -> None:
    """While a pool runs, Ctrl-C and SIGTERM are noted and acted on only at the loop's safe points (never
    inside the executor's own code); the caller's handlers are back afterwards."""
    terminated: list[int] = []

    def on_term(sig: int, frame: Any) -> None:
        terminated.append(sig)
        raise KeyboardInterrupt

    before_term = signal.signal(signal.SIGTERM, on_term)
    # Python's own Ctrl-C handler, whatever an earlier test in this process left in place
    before_int = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        for sig in (signal.SIGINT, signal.SIGTERM):
            with _SafePoints() as safe:
                os.kill(os.getpid(), sig)
                time.sleep(0.05)  # delivered, and held back
                with pytest.raises(KeyboardInterrupt):
                    safe.check()
                safe.check()  # acted on once
        assert terminated == [signal.SIGTERM]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        assert signal.getsignal(signal.SIGTERM) is on_term
    finally:
        signal.signal(signal.SIGTERM, before_term)
        signal.signal(signal.SIGINT, before_int)
