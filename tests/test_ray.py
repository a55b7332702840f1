"""The Ray backend on a local Ray instance: the same results as the local pool, resume, a killed worker survived."""

from __future__ import annotations

import io
import random
import logging
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import ray

from trio_solver.errors import ViewError
from trio_solver.game.record import Record
from trio_solver.run.parallel import run_tasks
from trio_solver.game.rules import Mode, Rules
from trio_solver.run.simulate import GameResult, GameTask, play_task, run_tournament


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[None]:
    """One local Ray instance with 2 CPUs for the whole module (starting one takes seconds)."""
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level=logging.WARNING)
    try:
        yield
    finally:
        ray.shutdown()


def _stable(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "games_per_second"}


@pytest.mark.parametrize("rules,bots", [
    (Rules(4), ["solver", "memory", "random", "memory"]),
    (Rules(4, Mode.PICANTE, teams=True), ["memory", "random"] * 2),
])
def test_every_backend_gives_the_same_tournament(ray_instance: None, rules: Rules, bots: list[str]) -> None:
    one = run_tournament(rules, bots, 10, seed=13, workers=1, keep_records=True)
    two = run_tournament(rules, bots, 10, seed=13, workers=2, keep_records=True)
    on_ray = run_tournament(rules, bots, 10, seed=13, backend="ray", keep_records=True)
    assert _stable(one.to_json()) == _stable(two.to_json()) == _stable(on_ray.to_json())
    assert one.results == two.results == on_ray.results  # the records too, byte for byte
    assert on_ray.played == 10 and on_ray.to_json()["games_per_second"] > 0
    assert on_ray.run is not None and (on_ray.run.backend, on_ray.run.workers, on_ray.run.tasks) == ("ray", 2, 10)
    assert one.run is not None and (one.run.backend, one.run.workers) == ("local", 1)


def test_ray_ordered_and_as_completed(ray_instance: None) -> None:
    tasks = [GameTask(Rules(3), ("memory", "random", "memory"), 2, i) for i in range(12)]
    ordered: list[GameResult] = []
    info = run_tasks(play_task, tasks, ordered.append, backend="ray", ordered=True, window=3)
    assert [r.index for r in ordered] == list(range(12))
    assert info.backend == "ray" and info.tasks == 12 and info.workers == 2
    loose: list[GameResult] = []
    run_tasks(play_task, iter(tasks), loose.append, backend="ray")
    assert sorted(loose, key=lambda r: r.index) == ordered
    local: list[GameResult] = []
    run_tasks(play_task, tasks, local.append)
    assert local == ordered


def test_a_task_error_on_ray_is_raised_as_it_was(ray_instance: None) -> None:
    bad = [GameTask(Rules(3), ("memory", "memory", "oracle"), 1, i) for i in range(4)]
    with pytest.raises(ViewError, match="oracle") as e:
        run_tasks(play_task, bad, lambda r: None, backend="ray")
    assert "\n" not in str(e.value)


def test_resume_on_ray(ray_instance: None, tmp_path: Path) -> None:
    rules, bots = Rules(5), ["memory", "random", "memory", "random", "memory"]
    whole = run_tournament(rules, bots, 24, seed=8)
    path = tmp_path / "run.jsonl"

    class Stop(Exception):
        pass

    seen: list[int] = []

    def stop_after_9(r: GameResult) -> None:
        if len(seen) == 9:
            raise Stop
        seen.append(r.index)

    with pytest.raises(Stop):
        run_tournament(rules, bots, 24, seed=8, backend="ray", results_file=str(path), on_game=stop_after_9)
    again = run_tournament(rules, bots, 24, seed=8, backend="ray", results_file=str(path))
    assert again.played == 15
    assert _stable(again.to_json()) == _stable(whole.to_json())
    # and a file begun on Ray is finished by the local pool the same way
    path2 = tmp_path / "run2.jsonl"
    seen.clear()
    with pytest.raises(Stop):
        run_tournament(rules, bots, 24, seed=8, backend="ray", results_file=str(path2), on_game=stop_after_9)
    local = run_tournament(rules, bots, 24, seed=8, workers=2, results_file=str(path2))
    assert _stable(local.to_json()) == _stable(whole.to_json())


def test_progress_bar_on_ray(ray_instance: None) -> None:
    out = io.StringIO()
    run_tournament(Rules(3), ["memory", "random", "random"], 6, seed=1, backend="ray", progress=out)
    text = out.getvalue()
    assert "6/6 games" in text and "games/s" in text and text.endswith("\n")


def _busy_ray_workers() -> list[int]:
    """The processes of Ray workers running a game now (Ray titles them ``ray::play_task``)."""
    pids = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes()
        except OSError:
            continue
        if cmdline.startswith(b"ray::play_task"):
            pids.append(int(name))
    return pids


def test_a_killed_worker_costs_only_its_game(ray_instance: None) -> None:
    """SIGKILL a Ray worker in the middle of a game: Ray plays that game again; the summary is unchanged."""
    rules, bots = Rules(4), ["solver", "solver", "memory", "memory"]
    undisturbed = run_tournament(rules, bots, 12, seed=17)
    killed: list[int] = []
    indices: list[int] = []

    def kill_one(r: GameResult) -> None:
        indices.append(r.index)
        if len(indices) >= 3 and not killed:
            busy = _busy_ray_workers()
            if busy:
                os.kill(busy[0], signal.SIGKILL)
                killed.append(busy[0])

    disturbed = run_tournament(rules, bots, 12, seed=17, backend="ray", on_game=kill_one)
    assert killed, "a worker was found in the middle of a game and killed"
    assert sorted(indices) == list(range(12)), "every game finished exactly once"
    assert _stable(disturbed.to_json()) == _stable(undisturbed.to_json())
    assert disturbed.results == undisturbed.results


def test_a_collection_analysed_on_ray_is_the_local_one(ray_instance: None, tmp_path: Path) -> None:
    """``analyse DIR --backend ray`` gives the summary of the local pool, game for game."""
    from trio_solver.decide.bots import make_bot
    from trio_solver.run.collection import analyse_files
    from trio_solver.run.simulate import play_game

    paths = []
    for k in range(2):  # games between memory bots: a few dozen turns (random bots play hundreds)
        bots = [make_bot("memory", random.Random(10 * k + s)) for s in range(3)]
        game = play_game(Rules(3), bots, rng=random.Random(k))
        path = tmp_path / f"g{k}.json"
        Record.from_game(game, names=["Ann", "Ben", "Cy"]).save(path)
        paths.append(str(path))
    local = analyse_files(paths, samples=0, workers=1).to_json()
    on_ray = analyse_files(paths, samples=0, backend="ray").to_json()
    assert on_ray == local and local["games"] == 2
