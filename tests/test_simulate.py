"""Tournaments: reproducible, the same with several processes, honest intervals, the CLI contract."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from trio_solver.game.state import Game
from trio_solver.errors import ViewError
from trio_solver.game.record import Record
from trio_solver.game.rules import Mode, Rules
from trio_solver.run.simulate import game_seed, run_tournament, wilson
from trio_solver.game.events import Turn

ROOT = Path(__file__).resolve().parent.parent


def _stable(data: dict) -> dict:
    """The JSON of a tournament without its timing."""
    return {k: v for k, v in data.items() if k != "games_per_second"}


# ---------------------------------------------------------------------------
# reproducibility


@pytest.mark.parametrize("rules,bots", [
    (Rules(3), ["memory", "random", "memory"]),
    (Rules(4, Mode.PICANTE), ["random", "memory", "random", "memory"]),
    (Rules(4, Mode.SIMPLE, teams=True), ["memory", "random", "memory", "random"]),
    (Rules(6, Mode.PICANTE, teams=True), ["random", "memory"] * 3),
])
def test_same_seed_same_records(rules: Rules, bots: list[str]) -> None:
    a = run_tournament(rules, bots, 12, seed=5, keep_records=True)
    b = run_tournament(rules, bots, 12, seed=5, keep_records=True)
    assert a.results == b.results
    assert all(r.record is not None for r in a.results)
    assert [r.record for r in a.results] == [r.record for r in b.results]
    assert _stable(a.to_json()) == _stable(b.to_json())
    assert a.to_json()["wins"] == b.to_json()["wins"]
    c = run_tournament(rules, bots, 12, seed=6, keep_records=True)
    assert [r.record for r in c.results] != [r.record for r in a.results], "another seed, other games"


def test_keep_records_does_not_change_the_games() -> None:
    rules = Rules(5, Mode.PICANTE)
    bots = ["memory", "random", "memory", "random", "memory"]
    a = run_tournament(rules, bots, 10, seed=9, keep_records=True)
    b = run_tournament(rules, bots, 10, seed=9, keep_records=False)
    assert [(r.winner, r.turns) for r in a.results] == [(r.winner, r.turns) for r in b.results]
    assert all(r.record is None for r in b.results)


def test_workers_give_the_same_results() -> None:
    rules = Rules(4)
    bots = ["solver", "memory", "random", "memory"]
    one = run_tournament(rules, bots, 8, seed=11, workers=1, keep_records=True)
    two = run_tournament(rules, bots, 8, seed=11, workers=2, keep_records=True)
    assert one.results == two.results
    assert _stable(one.to_json()) == _stable(two.to_json())


def test_tournament_rotates_first_player_and_counts_wins() -> None:
    rules = Rules(3)
    bots = ["memory", "random", "random"]
    t = run_tournament(rules, bots, 9, seed=2, keep_records=True)
    for r in t.results:
        rec = Record.loads(r.record)  # type: ignore[arg-type]
        assert rec.first_player == r.index % rules.players
        assert rec.winner == r.winner
        assert r.turns == sum(1 for e in rec.events if isinstance(e, Turn))
        assert rec.names == tuple(f"{b}@{s}" for s, b in enumerate(bots))
    data = t.to_json()
    winners = [r.winner for r in t.results]
    assert [p["wins"] for p in data["per_seat"]] == [winners.count(s) for s in range(3)]
    assert data["wins"] == {"memory": winners.count(0), "random": winners.count(1) + winners.count(2)}
    assert data["avg_turns"] == pytest.approx(sum(r.turns for r in t.results) / 9)
    for p in data["per_seat"]:
        assert p["win_rate"] == pytest.approx(p["wins"] / 9)
        lo, hi = wilson(p["wins"], 9)
        assert p["ci95"] == [round(lo, 4), round(hi, 4)]


def test_team_wins_count_for_both_partners() -> None:
    rules = Rules(4, Mode.SIMPLE, teams=True)
    bots = ["memory", "random", "memory", "random"]
    t = run_tournament(rules, bots, 10, seed=4)
    data = t.to_json()
    team0 = sum(1 for r in t.results if r.winner in (0, 2))
    team1 = sum(1 for r in t.results if r.winner in (1, 3))
    assert team0 + team1 == 10
    assert [p["wins"] for p in data["per_seat"]] == [team0, team1, team0, team1]
    assert data["wins"] == {"memory": team0, "random": team1}


def test_game_seeds_are_distinct() -> None:
    seeds = {game_seed(s, i, k) for s in range(5) for i in range(200) for k in range(7)}
    assert len(seeds) == 5 * 200 * 7


def test_run_tournament_refuses_bad_bots() -> None:
    with pytest.raises(ViewError):
        run_tournament(Rules(3), ["memory", "memory"], 1, seed=0)
    with pytest.raises(ViewError):
        run_tournament(Rules(3), ["memory", "memory", "oracle"], 1, seed=0)


# ---------------------------------------------------------------------------
# Wilson intervals


def test_wilson_known_values() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(10, 10)
    assert hi == 1.0 and lo == pytest.approx(0.7225, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("n", [1, 7, 40, 400, 5000])
def test_wilson_sanity(n: int) -> None:
    prev_lo = -1.0
    for k in range(0, n + 1, max(1, n // 50)):
        lo, hi = wilson(k, n)
        p = k / n
        assert 0.0 <= lo <= p <= hi <= 1.0
        # symmetric under exchanging wins and losses
        lo2, hi2 = wilson(n - k, n)
        assert lo == pytest.approx(1 - hi2, abs=1e-12) and hi == pytest.approx(1 - lo2, abs=1e-12)
        # the independent closed form
        z = 1.959964
        c = (p + z * z / (2 * n)) / (1 + z * z / n)
        h = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        assert lo == pytest.approx(max(0.0, c - h), abs=1e-12)
        assert hi == pytest.approx(min(1.0, c + h), abs=1e-12)
        assert lo >= prev_lo
        prev_lo = lo
    # more games, narrower intervals
    if n >= 40:
        lo1, hi1 = wilson(n // 4, n)
        lo2, hi2 = wilson(n, 4 * n)
        assert hi2 - lo2 < hi1 - lo1


def test_wilson_coverage() -> None:
    """The 95% interval covers the true rate about 95% of the time (exact binomial sum)."""
    for n, p in ((30, 0.3), (100, 0.25), (200, 0.5)):
        cover = 0.0
        for k in range(n + 1):
            lo, hi = wilson(k, n)
            if lo <= p <= hi:
                cover += math.comb(n, k) * p ** k * (1 - p) ** (n - k)
        assert 0.92 < cover < 0.98, (n, p, cover)


# ---------------------------------------------------------------------------
# the command line


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "trio_solver", *args], capture_output=True, text=True,
                          cwd=cwd or ROOT, env=env, timeout=300)


INTERFACE_KEYS = {"players", "mode", "teams", "games", "seed", "bots", "wins", "per_seat", "avg_turns",
                  "games_per_second"}


def test_cli_simulate_json_contract() -> None:
    proc = _cli("simulate", "--players", "3", "--games", "4", "--seed", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert set(data) == INTERFACE_KEYS
    assert data["players"] == 3 and data["mode"] == "simple" and data["teams"] is False
    assert data["games"] == 4 and data["seed"] == 1
    assert len(data["bots"]) == 3 and all(isinstance(b, str) for b in data["bots"])
    assert set(data["wins"]) == set(data["bots"])
    assert sum(data["wins"].values()) == 4  # no team play: one winner per game, one bot name each
    assert len(data["per_seat"]) == 3
    for s, p in enumerate(data["per_seat"]):
        assert set(p) == {"seat", "bot", "wins", "win_rate", "ci95"}
        assert p["seat"] == s and p["bot"] == data["bots"][s]
        assert p["win_rate"] == pytest.approx(p["wins"] / 4)
        lo, hi = p["ci95"]
        assert 0 <= lo <= p["win_rate"] <= hi <= 1
    assert sum(p["wins"] for p in data["per_seat"]) == 4
    assert data["avg_turns"] > 0 and data["games_per_second"] > 0
    # the same as the library with the same settings
    t = run_tournament(Rules(3), data["bots"], 4, seed=1)
    assert _stable(t.to_json()) == _stable(data)


def test_cli_simulate_save_keeps_other_runs_apart(tmp_path: Path) -> None:
    """A folder that holds another run's records is refused (its games would be overwritten one by one and
    mixed with this run's); a missing folder is made, not its missing folders; a run resumed with --results
    writes into its own folder again."""
    out = tmp_path / "games"
    first = _cli("simulate", "--players", "3", "--games", "2", "--seed", "3", "--save", str(out),
                 "--results", str(tmp_path / "r.jsonl"))
    assert first.returncode == 0, first.stderr
    again = _cli("simulate", "--players", "3", "--games", "2", "--seed", "4", "--save", str(out))
    assert again.returncode == 1 and again.stderr.strip() == (
        f"trio-solver: --save {out}: already holds game records (game_00000.json, ...); give a new or empty "
        "folder (a run resumed with --results may write into its own)")
    resumed = _cli("simulate", "--players", "3", "--games", "3", "--seed", "3", "--save", str(out),
                   "--results", str(tmp_path / "r.jsonl"))
    assert resumed.returncode == 0, resumed.stderr
    assert sorted(p.name for p in out.iterdir()) == ["game_00000.json", "game_00001.json", "game_00002.json"]
    deep = _cli("simulate", "--players", "3", "--games", "2", "--save", str(tmp_path / "no" / "such"))
    assert deep.returncode == 1 and f"no such folder: {tmp_path / 'no'}" in deep.stderr
    assert not (tmp_path / "no").exists()


def test_cli_simulate_save_writes_records_that_replay(tmp_path: Path) -> None:
    out = tmp_path / "games"
    bots = "memory,random,memory,random"
    proc = _cli("simulate", "--players", "4", "--mode", "picante", "--bots", bots, "--games", "5",
                "--seed", "3", "--save", str(out), "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    files = sorted(os.listdir(out))
    assert files == [f"game_{i:05d}.json" for i in range(5)]
    t = run_tournament(Rules(4, Mode.PICANTE), bots.split(","), 5, seed=3)
    wins = {"memory": 0, "random": 0}
    for i, name in enumerate(files):
        rec = Record.load(out / name)
        assert rec.deal is not None and rec.rules == Rules(4, Mode.PICANTE)
        # replay the deal through the engine, reveal by reveal
        game = Game(rec.rules, rec.deal, rec.first_player)
        for e in rec.events:
            assert isinstance(e, Turn)
            for shown in e.reveals:
                assert game.peek(shown.reveal) == shown.value
                game.reveal(shown.reveal)
        assert game.over
        assert game.winner == rec.winner == t.results[i].winner
        wins[bots.split(",")[game.winner]] += 1
    assert wins == data["wins"]


def test_cli_simulate_errors() -> None:
    proc = _cli("simulate", "--players", "3", "--bots", "memory,memory", "--games", "1", "--json")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1
    proc = _cli("simulate", "--players", "3", "--frobnicate")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    proc = _cli("simulate", "--players", "3", "--teams", "--games", "1")
    assert proc.returncode == 2 and "team" in proc.stderr
