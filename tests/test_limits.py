"""Time limits (trio_solver.limits) reach the long loops; the caps are enforced and documented."""

from __future__ import annotations

import contextlib
import io
import json
import math
import time
from pathlib import Path

import pytest

from trio_solver import Beliefs, Deadline, LimitError, Record, TrioError, time_limit
from trio_solver.doors import cli
from trio_solver.game.events import read_events
from trio_solver.game.table import steps
from trio_solver.infer import csp
from trio_solver.infer.facts import MAX_STATE_BUDGET, MAX_SWAP_BUDGET
from trio_solver.limits import MAX_SECONDS, as_deadline, check, named
from trio_solver.report.analysis import analyse
from trio_solver.infer.validate import check_record

ROOT = Path(__file__).resolve().parent.parent
FULL = str(ROOT / "examples" / "full_deal_4p.json")
VIEWER = str(ROOT / "examples" / "viewer_3p_picante.json")
INTERFACE_MD = (ROOT / "docs/INTERFACE.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("bad", [0, -1, math.nan, math.inf, MAX_SECONDS * 2, True, "5", None, [1]])
def test_deadline_refuses_what_is_not_a_duration(bad: object) -> None:
    with pytest.raises(LimitError, match="^deadline: "):
        Deadline(bad)  # type: ignore[arg-type]


def test_as_deadline_names_the_argument() -> None:
    assert as_deadline(None) is None
    d = Deadline(3)
    assert as_deadline(d) is d
    assert isinstance(as_deadline(2.5), Deadline)
    with pytest.raises(LimitError, match="^time limit: "):
        as_deadline(-3, "time limit")


def test_check_raises_only_after_the_moment() -> None:
    d = Deadline(0.05)
    d.check("x")
    check("x", d)
    assert not d.expired and d.remaining() > 0
    time.sleep(0.08)
    assert d.expired
    with pytest.raises(LimitError, match="^x: stopped at the time limit of 0.05 s$"):
        check("x", d)


def test_time_limits_nest_and_end_with_their_block() -> None:
    with time_limit(60) as outer:
        assert outer is not None
        with time_limit(0.01):
            time.sleep(0.03)
            with pytest.raises(LimitError):
                check("inner")
        check("after the inner block")  # the outer minute has not passed
    with time_limit(None) as none:
        assert none is None
        check("no limit at all")


def test_beliefs_stop_at_their_deadline_and_not_without_one() -> None:
    view = Record.load(VIEWER).view()
    with pytest.raises(LimitError, match="^beliefs: stopped at the time limit"):
        Beliefs(view, deadline=1e-9)
    with time_limit(1e-9), pytest.raises(LimitError):
        Beliefs(view)
    b = Beliefs(view, deadline=60)
    assert b.consistent
    time.sleep(0.01)
    assert b.lowest(1)  # the construction's deadline does not bound later queries


def test_state_budget_is_capped() -> None:
    view = Record.load(FULL).view(0)
    for bad in (0, MAX_STATE_BUDGET + 1, 10**5000, 2.5, "big"):
        with pytest.raises(TrioError, match="^state_budget: "):
            Beliefs(view, state_budget=bad)  # type: ignore[arg-type]
        # the old name of the keyword is still accepted, and errors name it
        with pytest.raises(TrioError, match="^swap_budget: "):
            Beliefs(view, swap_budget=bad)
    assert MAX_SWAP_BUDGET == MAX_STATE_BUDGET
    old, new = Beliefs(view, swap_budget=64), Beliefs(view, state_budget=64)
    assert old.state_budget == new.swap_budget == 64 and old.to_json(view=True) == new.to_json(view=True)
    assert new.to_json(view=True)["swap_budget"] == 64  # the JSON keeps its key
    with pytest.raises(TrioError, match="^swap_budget: the old name"):
        Beliefs(view, swap_budget=64, state_budget=128)


def test_list_enumeration_and_validate_stop_at_the_deadline() -> None:
    record = Record.load(FULL)
    facts = Beliefs(record.view(1, 15)).facts
    assert csp.placements(facts, 40, deadline=60)
    with pytest.raises(LimitError, match="^placements: "):
        csp.placements(facts, 40, deadline=1e-9)
    with pytest.raises(LimitError, match="^limit: expected 0 to 100000"):
        csp.placements(facts, csp.MAX_PLACEMENTS + 1)
    viewer = Record.load(VIEWER)
    assert check_record(viewer, deadline=60).events == len(viewer.events)
    with pytest.raises(LimitError):
        check_record(viewer, deadline=1e-9)


def test_reading_and_replaying_the_events_stop_at_a_time_limit() -> None:
    """A record's events are read, and its history replayed for the beliefs, under the time limit: every
    event is a check, so a long record stops near the limit, not after it."""
    doc = json.loads(Path(FULL).read_text())
    record = Record.load(FULL)
    view = record.view(1, len(record.events))
    assert read_events(doc["events"], 4, need_values=False) and list(steps(view.rules, view.first_player, view.events))
    with time_limit(1e-6):
        time.sleep(0.01)
        with pytest.raises(LimitError, match="^read the record: "):
            read_events(doc["events"], 4, need_values=False)
        with pytest.raises(LimitError, match="^replay: "):
            next(steps(view.rules, view.first_player, view.events))


def _main(argv: list[str], started: float | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(argv, started=started)
    return status, out.getvalue(), err.getvalue()


def test_cli_time_limit_before_or_after_the_command() -> None:
    for argv in (["--time-limit", "30", "beliefs", VIEWER], ["beliefs", VIEWER, "--time-limit", "30"]):
        status, out, err = _main(argv)
        assert (status, err) == (0, "") and out
    for bad in ("0", "-1", "nan", "inf", "1e9", "x", "9" * 5000):
        status, out, err = _main(["beliefs", VIEWER, "--time-limit", bad])
        assert status == 2 and out == "" and "--time-limit" in err and len(err) < 400


def test_cli_time_limit_counts_from_the_process_start(monkeypatch: pytest.MonkeyPatch) -> None:
    # the time the library took to load counts: a command started 10 s ago has used up a 5 s limit
    status, out, err = _main(["validate", VIEWER, "--time-limit", "5"], started=time.monotonic() - 10)
    assert status == 1 and out == "" and "stopped at the time limit of 5 s" in err
    assert _main(["validate", VIEWER, "--time-limit", "15"], started=time.monotonic() - 10)[0] == 0
    # the program's entry point hands the command its own start, read before the library loads
    import trio_solver.__main__ as entry

    seen: list[float | None] = []
    monkeypatch.setattr(cli, "main", lambda argv=None, started=None: seen.append(started) or 0)
    before = time.monotonic()
    assert entry.main() == 0
    assert len(seen) == 1 and seen[0] is not None and before <= seen[0] <= time.monotonic()


def test_cli_time_limit_passing_is_one_line_and_status_1(monkeypatch: pytest.MonkeyPatch) -> None:
    from trio_solver import limits

    real = limits.Deadline.__init__

    def instant(self: Deadline, seconds: float, start: float | None = None) -> None:  # every limit passes at once
        real(self, seconds, start)
        self._end = 0.0

    monkeypatch.setattr(limits.Deadline, "__init__", instant)
    for argv in (["beliefs", VIEWER], ["validate", VIEWER], ["analyse", FULL], ["advise", str(ROOT / "examples" / "in_progress_5p.json")],
                 ["beliefs", FULL, "--after", "15", "--seat", "1", "--list", "40"]):
        status, out, err = _main([*argv, "--time-limit", "5"])
        assert status == 1 and out == ""
        assert err.count("\n") == 1 and "stopped at the time limit of 5 s" in err


def test_interface_md_documents_the_caps() -> None:
    from trio_solver.game.events import MAX_EVENTS
    from trio_solver.game.record import MAX_RECORD_BYTES

    text = " ".join(INTERFACE_MD.split())
    assert "## Limits" in INTERFACE_MD
    assert f"{MAX_EVENTS:,}" in text and f"{MAX_RECORD_BYTES // (1024 * 1024)} MB" in text
    assert f"{MAX_STATE_BUDGET:,}" in text and f"{csp.MAX_PLACEMENTS:,}" in text
    assert f"at most {MAX_SECONDS:g}" in text


def test_evaluate_and_the_game_analysis_stop_at_a_time_limit() -> None:
    """The playout loops of ``evaluate``, ``advise_game`` and ``analyse`` check the active limit."""
    import time as _time

    from trio_solver import Record, analyse
    from trio_solver.decide.evaluate import advise_game, evaluate
    from trio_solver.limits import time_limit

    rec = Record.load(Path(__file__).resolve().parent.parent / "examples" / "full_deal_4p.json")
    view = rec.view("default", after=3)  # the seat to move
    for run in (lambda: evaluate(view, samples=200_000, precision=0),
                lambda: advise_game(view, samples=200_000, confidence=1),
                lambda: analyse(rec, samples=10**4, confidence=1)):
        start = _time.monotonic()
        with pytest.raises(LimitError, match="time limit of 0.5 s"):
            with time_limit(0.5):
                run()
        assert _time.monotonic() - start < 10  # stopped near the limit, not after the work


# -- sessions: the engine and a game at the terminal bound each request or bot decision -----------------


class _Clock:
    """A monotonic clock for :mod:`trio_solver.limits` that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_the_engine_bounds_each_request_not_the_session() -> None:
    """A request past the limit is answered with an error; the next ones get the whole limit again
    (a limit on the whole session failed every request once the session had lasted that long)."""
    import json
    import subprocess
    import sys

    from trio_solver.doors.protocol import handle

    full, viewer = (json.loads(Path(p).read_text(encoding="utf-8")) for p in (FULL, VIEWER))
    lines = [{"id": 1, "op": "analyse", "record": full, "samples": 10**4, "confidence": 1},  # minutes of playouts
             {"id": 2, "op": "beliefs", "record": viewer},
             {"id": 3, "op": "analyse", "record": full, "samples": 0},  # about 0.3 s on an idle core
             {"id": 4, "op": "advise", "record": full, "after": 3, "objective": "game", "samples": 10**5}]
    proc = subprocess.run([sys.executable, "-m", "trio_solver", "--time-limit", "1", "engine"],
                          input="".join(json.dumps(x) + "\n" for x in lines).encode(), capture_output=True,
                          timeout=300)
    out = [json.loads(x) for x in proc.stdout.decode().splitlines()]
    assert proc.returncode == 0 and [r["id"] for r in out] == [1, 2, 3, 4]
    assert not out[0]["ok"] and out[0]["error"] == "analyse: stopped at the time limit of 1 s"
    # the operation is named, not the step of its work that the limit stopped
    assert out[3] == {"id": 4, "ok": False, "error": "advise: stopped at the time limit of 1 s"}
    assert out[1] == {"id": 2, "ok": True, "result": handle("beliefs", {"record": viewer})}
    assert out[2]["ok"] and out[2]["result"]["decisions"]


def test_the_engine_refuses_a_bad_limit_before_reading() -> None:
    from trio_solver.doors.protocol import run_engine

    stdin, stdout = io.BytesIO(b'{"op": "version"}\n'), io.BytesIO()
    for bad in (0, -1.0, math.inf):
        with pytest.raises(LimitError, match="^time limit: "):
            run_engine(stdin, stdout, time_limit=bad)
    assert stdin.tell() == 0 and stdout.getvalue() == b""


class _SlowPerson(io.StringIO):
    """A person who takes 100 s over every line (the clock moves), offering the reveals of a cycle."""

    def __init__(self, clock: _Clock, lines: list[str], limit: int) -> None:
        super().__init__()
        self.clock, self.lines, self.limit, self.i = clock, lines, limit, 0

    def readline(self, *args: object) -> str:  # type: ignore[override]
        self.clock.now += 100.0
        if self.i >= self.limit:
            return ""
        self.i += 1
        return self.lines[(self.i - 1) % len(self.lines)] + "\n"


def test_play_bounds_the_bots_decisions_not_the_persons(monkeypatch: pytest.MonkeyPatch) -> None:
    from trio_solver import limits

    clock = _Clock()
    monkeypatch.setattr(limits, "time", clock)
    person = _SlowPerson(clock, ["c0", "c1", "c2", "c3", "l1", "h1", "l2", "h2", "l0", "h0"], 60)
    monkeypatch.setattr("sys.stdin", person)
    status, out, err = _main(["--time-limit", "5", "play", "--players", "3", "--bots", "solver,solver",
                              "--seed", "3"])
    assert (status, err) == (0, "")
    assert "time limit" not in out and person.i > 2
    # the bots kept deciding after the person's first slow line: a bot reveal follows a reveal of the person
    lines = out.splitlines()
    first_mine = next(i for i, line in enumerate(lines) if line.startswith("  You reveal"))
    assert any(" reveals " in line and not line.startswith("  You") for line in lines[first_mine:])


def test_a_bot_past_the_limit_stops_the_game_and_it_is_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    from trio_solver import Game, Rules, limits

    clock = _Clock()
    monkeypatch.setattr(limits, "time", clock)
    rules = Rules(3)
    seed = next(s for s in range(100) if Game.deal(rules, rng=random.Random(s)).to_move == 1)  # a bot starts

    real_check = Deadline.check

    def slow(self: Deadline, what: str = "the computation") -> None:  # every check of a bot takes 10 s
        clock.now += 10.0
        real_check(self, what)

    monkeypatch.setattr(Deadline, "check", slow)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    save = tmp_path / "game.json"
    status, out, err = _main(["--time-limit", "5", "play", "--players", "3", "--bots", "solver,solver",
                              "--seed", str(seed), "--save", str(save)])
    assert status == 1 and err == "trio-solver: bot solver 1: stopped at the time limit of 5 s\n"  # named by the bot
    assert "Stopped." in out and f"Game saved to {save}" in out
    assert Record.load(str(save)).events == ()  # the first decision was a bot's


def test_play_with_a_limit_loads_the_kernel_before_the_first_bot_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading (on a first run, building) the compiled kernel is not charged to the first bot's decision."""
    import random

    from trio_solver import Game, Rules
    from trio_solver.doors import play, queries

    calls: list[str] = []
    monkeypatch.setattr(queries, "warm_up", lambda: calls.append("kernel loaded"))
    decide = play._Timed.choose_reveal

    def noted(self: play._Timed, view: object) -> object:
        calls.append("bot decides")
        return decide(self, view)  # type: ignore[arg-type]

    monkeypatch.setattr(play._Timed, "choose_reveal", noted)
    rules = Rules(3)
    seed = next(s for s in range(100) if Game.deal(rules, rng=random.Random(s)).to_move == 1)  # a bot starts
    for limit in (5.0, None):
        calls.clear()
        play.play_terminal(rules, 0, ["solver", "solver"], seed, stdin=io.StringIO(""), stdout=io.StringIO(),
                           time_limit=limit)
        if limit is None:
            assert calls == []  # no limit: nothing loaded ahead, no bot wrapped
        else:
            assert calls[0] == "kernel loaded" and calls.count("kernel loaded") == 1 and "bot decides" in calls

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    calls.clear()  # a person at a terminal: loaded (or built) before the deal, not while a bot or a hint waits
    play.play_terminal(rules, 0, ["solver", "solver"], seed, stdin=Terminal(""), stdout=io.StringIO())
    assert calls == ["kernel loaded"]


def test_an_analysis_stopped_by_its_time_limit_names_the_analysis() -> None:
    """The step that ran out of time (`advise for the game`, `beliefs`) is the analysis a person asked for;
    an error that is not a time limit passes through `named` unchanged."""
    record = Record.load(FULL)
    with time_limit(0.05), pytest.raises(LimitError) as stopped:
        analyse(record, samples=256)
    assert str(stopped.value) == "analyse: stopped at the time limit of 0.05 s"
    with pytest.raises(LimitError, match="^swap budget: too large$"), named("analyse"):
        raise LimitError("swap budget: too large")
