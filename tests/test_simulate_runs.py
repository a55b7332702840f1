"""``trio-solver simulate`` as a long run: bounded memory, Ctrl-C, resume, backends, refusals (subprocesses)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BOTS = "memory,random,memory,random"


def _env(extra_path: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    paths = [p for p in (extra_path, str(ROOT), env.get("PYTHONPATH")) if p]
    env["PYTHONPATH"] = os.pathsep.join(paths)
    return env


def _cli(*args: str, extra_path: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "trio_solver", *args], capture_output=True, text=True,
                          cwd=ROOT, env=_env(extra_path), timeout=300)


def _stable(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "games_per_second"}


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _game_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def test_usage_errors() -> None:
    for args, text in ((["--games", "0"], "--games"), (["--games", "-5"], "--games"),
                       (["--workers", "0"], "--workers"), (["--ray-address", "auto"], "--ray-address is for"),
                       (["--backend", "spark"], "--backend")):
        proc = _cli("simulate", "--players", "3", *args)
        assert proc.returncode == 2, (args, proc.stderr)
        assert text in proc.stderr and "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1
        assert proc.stdout == ""


def test_workers_capped_with_a_note() -> None:
    proc = _cli("simulate", "--players", "4", "--bots", BOTS, "--games", "3", "--workers", "500", "--json")
    assert proc.returncode == 0, proc.stderr
    assert "note: --workers 500 capped at" in proc.stderr and "the CPUs available" in proc.stderr
    assert json.loads(proc.stdout)["games"] == 3


def test_a_billion_games_in_bounded_memory_then_ctrl_c_then_resume(tmp_path: Path) -> None:
    results = tmp_path / "run.jsonl"
    cmd = [sys.executable, "-m", "trio_solver", "simulate", "--players", "4", "--bots", BOTS, "--seed", "5",
           "--games", "1000000000", "--workers", "2", "--results", str(results), "--json"]
    # start_new_session: a process group of its own; SIG_DFL: Ctrl-C works even when the tests run in
    # the background, where the shell starts them with SIGINT ignored (and children inherit that)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=_env(),
                            start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        time.sleep(2.5)
        first = _rss_kb(proc.pid)
        time.sleep(2.5)
        second = _rss_kb(proc.pid)
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C at a terminal reaches the whole process group
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert second < first + 20_000, f"memory grew from {first} kB to {second} kB"
    assert second < 300_000
    assert proc.returncode == 130, err
    assert "Traceback" not in err and err.rstrip().endswith("trio-solver: interrupted")
    assert f"finished games are kept in {results}" in err
    assert out == "", "no summary, no partial output"
    games = _game_lines(results)  # every line whole
    assert len(games) >= 10, "games were played in 5 seconds"
    assert len({g["game"] for g in games}) == len(games)
    # resume, extending the run to a size one can wait for: the games in the file are not played again
    top = max(g["game"] for g in games) + 6
    proc2 = _cli("simulate", "--players", "4", "--bots", BOTS, "--seed", "5", "--games", str(top),
                 "--workers", "2", "--results", str(results), "--json")
    assert proc2.returncode == 0, proc2.stderr
    assert f"note: {len(games)} of {top} games read back" in proc2.stderr
    fresh = _cli("simulate", "--players", "4", "--bots", BOTS, "--seed", "5", "--games", str(top), "--json")
    assert _stable(json.loads(proc2.stdout)) == _stable(json.loads(fresh.stdout))
    assert sorted(g["game"] for g in _game_lines(results)) == list(range(top))


def test_other_parameters_refused_in_one_line(tmp_path: Path) -> None:
    results = tmp_path / "run.jsonl"
    assert _cli("simulate", "--players", "3", "--games", "2", "--seed", "1", "--bots", "memory,random,random",
                "--results", str(results)).returncode == 0
    before = results.read_bytes()
    proc = _cli("simulate", "--players", "3", "--games", "2", "--seed", "2", "--bots", "memory,random,random",
                "--results", str(results))
    assert proc.returncode == 1 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "written by a run with other parameters (seed 1 there, 2 here)" in proc.stderr
    assert results.read_bytes() == before


def test_ray_not_installed_is_one_line(tmp_path: Path) -> None:
    shim = tmp_path / "shim" / "ray"
    shim.mkdir(parents=True)
    (shim / "__init__.py").write_text("raise ImportError('No module named ray')\n")
    proc = _cli("simulate", "--players", "3", "--games", "2", "--backend", "ray", extra_path=str(shim.parent))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr == ("trio-solver: the ray backend needs Ray, which is not installed: "
                           "pip install 'trio-solver[ray]'\n")


def test_cli_ray_backend_stopped_by_sigterm_then_resumed(tmp_path: Path) -> None:
    """A Ray run stopped with SIGTERM exits 130 cleanly (Ray's own handler would dump a stack and die);
    its results file is finished by the local backend with the summary of one uninterrupted run."""
    results = tmp_path / "run.jsonl"
    base = ["simulate", "--players", "4", "--mode", "picante", "--bots", BOTS, "--seed", "9", "--json"]
    proc = subprocess.Popen([sys.executable, "-m", "trio_solver", *base, "--games", "1000000",
                             "--backend", "ray", "--workers", "2", "--results", str(results)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=_env())
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and (not results.exists() or len(results.read_text().splitlines()) < 6):
            time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert err.rstrip().endswith("trio-solver: interrupted") and "SIGTERM received" not in err
    assert "Traceback" not in err and out == ""
    games = _game_lines(results)
    assert len(games) >= 5
    top = max(g["game"] for g in games) + 4
    local = _cli(*base, "--games", str(top), "--workers", "2", "--results", str(results))
    assert local.returncode == 0, local.stderr
    fresh = _cli(*base, "--games", str(top))
    assert _stable(json.loads(local.stdout)) == _stable(json.loads(fresh.stdout))
    assert sorted(g["game"] for g in _game_lines(results)) == list(range(top))


def test_cli_joins_a_running_cluster_by_address(tmp_path: Path) -> None:
    """A cluster started apart (as 'ray start --head' would), joined with --ray-address HOST:PORT."""
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 2, "include_dashboard": False})
    try:
        args = ["simulate", "--players", "3", "--bots", "memory,random,random", "--games", "6", "--seed", "4",
                "--json"]
        joined = _cli(*args, "--backend", "ray", "--ray-address", cluster.address)
        assert joined.returncode == 0, joined.stderr
        local = _cli(*args)
        assert _stable(json.loads(joined.stdout)) == _stable(json.loads(local.stdout))
    finally:
        cluster.shutdown()
