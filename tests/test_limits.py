"""Time limits (trio_solver.limits) reach the long loops; the caps are enforced and documented."""

from __future__ import annotations

import contextlib
import io
import math
import time
from pathlib import Path

import pytest

from trio_solver import Beliefs, Deadline, LimitError, Record, TrioError, time_limit
from trio_solver.doors import cli
from trio_solver.infer import csp
from trio_solver.infer.facts import MAX_SWAP_BUDGET
from trio_solver.limits import MAX_SECONDS, as_deadline, check
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


def test_swap_budget_is_capped() -> None:
    view = Record.load(FULL).view(0)
    for bad in (0, MAX_SWAP_BUDGET + 1, 10**5000, 2.5, "big"):
        with pytest.raises(TrioError, match="^swap_budget: "):
            Beliefs(view, swap_budget=bad)  # type: ignore[arg-type]


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


def _main(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(argv)
    return status, out.getvalue(), err.getvalue()


def test_cli_time_limit_before_or_after_the_command() -> None:
    for argv in (["--time-limit", "30", "beliefs", VIEWER], ["beliefs", VIEWER, "--time-limit", "30"]):
        status, out, err = _main(argv)
        assert (status, err) == (0, "") and out
    for bad in ("0", "-1", "nan", "inf", "1e9", "x", "9" * 5000):
        status, out, err = _main(["beliefs", VIEWER, "--time-limit", bad])
        assert status == 2 and out == "" and "--time-limit" in err and len(err) < 400


def test_cli_time_limit_passing_is_one_line_and_status_1(monkeypatch: pytest.MonkeyPatch) -> None:
    from trio_solver import limits

    real = limits.Deadline.__init__

    def instant(self: Deadline, seconds: float) -> None:  # every limit passes at once
        real(self, seconds)
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
    assert f"{MAX_SWAP_BUDGET:,}" in text and f"{csp.MAX_PLACEMENTS:,}" in text
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
