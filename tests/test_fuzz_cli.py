"""The commands at their edges: hostile paths, full disk, closed or broken streams, Ctrl-C, huge numbers.

Every case checks the promised exit status, that standard error is at most one line and never a
traceback, and that no partial or temporary file is left behind. ``--fuzz-long`` (or
``TRIO_FUZZ_LONG=1``) runs 20 times the in-process command-line cases.
"""

from __future__ import annotations

import io
import os
import stat
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trio_solver import Record, TrioError
from trio_solver.doors import cli, queries

from fuzz_settings import FUZZ_SCALE
from helpers_cli import run_main as _main

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"
FULL = str(EX / "full_deal_4p.json")
VIEWER = str(EX / "viewer_3p_picante.json")
TEAMS6 = str(ROOT / "tests" / "corpus" / "p6_simple_teams_bot.json")
BIG = "9" * 5000


def _run(args: list[str], *, shell_suffix: str = "", stdin: str | None = None,
         timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -m trio_solver ARGS`` (through the shell when redirections are given)."""
    if shell_suffix:
        cmd = " ".join([sys.executable, "-m", "trio_solver", *(_q(a) for a in args)]) + " " + shell_suffix
        return subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=timeout, cwd=ROOT,
                              input=stdin)
    return subprocess.run([sys.executable, "-m", "trio_solver", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, input=stdin)


def _q(a: str) -> str:
    return "'" + a.replace("'", "'\\''") + "'"


def _one_line_error(stderr: str) -> str:
    assert "Traceback" not in stderr and "Exception ignored" not in stderr, stderr[-2000:]
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr[-2000:]
    assert lines[0].startswith("trio-solver: ") and len(lines[0]) < 400, lines[0][:500]
    return lines[0]


def _no_temp_files(folder: Path) -> None:
    assert not [p.name for p in folder.iterdir() if p.name.startswith(".trio-")]


# -- standard streams -------------------------------------------------------------------------

def test_full_disk_is_one_line_and_status_1() -> None:
    r = _run(["replay", FULL], shell_suffix="> /dev/full")
    assert r.returncode == 1
    assert "No space left" in _one_line_error(r.stderr)


def test_closed_stdout_is_one_line_and_status_1() -> None:
    r = _run(["validate", FULL], shell_suffix=">&-")
    assert r.returncode == 1
    assert "standard output is closed" in _one_line_error(r.stderr)


def test_reader_going_away_ends_quietly() -> None:
    # `| head -1` and a reader that reads nothing at all: status 0, nothing on standard error
    for reader in ("head -1", "true"):
        r = _run(["replay", FULL], shell_suffix=f"| {reader}; exit ${{PIPESTATUS[0]}}")
        assert r.returncode == 0, r.stderr
        assert r.stderr == ""


def test_closed_stdin_is_one_line() -> None:
    r = _run(["validate", "-"], shell_suffix="<&-")
    assert r.returncode == 1
    _one_line_error(r.stderr)


def test_play_with_closed_stdin_and_a_huge_slot_number() -> None:
    r = _run(["play", "--players", "3", "--seed", "1"], shell_suffix="<&-")
    assert "Traceback" not in r.stderr and r.returncode in (0, 1)
    r = _run(["play", "--players", "3", "--seed", "1"], stdin=f"c{BIG}\nl{BIG}\n")
    assert "Traceback" not in r.stderr and r.returncode in (0, 1)
    assert all(len(line) < 400 for line in (r.stdout + r.stderr).splitlines())


# -- hostile output paths --------------------------------------------------------------------------

def _unwritable(tmp_path: Path) -> Path:
    """A folder no one may write in: a read-only folder, or (as root, who may write anywhere) /proc."""
    if os.geteuid() == 0:
        return Path("/proc")
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    return ro


@pytest.mark.parametrize("where", ["read-only", "directory", "missing"])
def test_record_save_at_hostile_paths(tmp_path: Path, where: str) -> None:
    record = Record.load(FULL)
    target = {"read-only": _unwritable(tmp_path) / "x.json", "directory": tmp_path,
              "missing": tmp_path / "no" / "such" / "x.json"}[where]
    with pytest.raises(TrioError) as err:
        record.save(target)
    assert "\n" not in str(err.value)
    _no_temp_files(tmp_path)
    if where == "directory":
        assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_record_save_replaces_a_file_atomically(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    target.write_text("old")
    Record.load(FULL).save(target)
    assert Record.load(target) == Record.load(FULL)
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_a_link_is_written_through_and_a_pipe_is_left_alone(tmp_path: Path) -> None:
    """A symbolic link keeps pointing to the file, which gets the report; a named pipe (like a device) is
    not a file to replace: one line, exit 1, the pipe still there and nothing else written."""
    report = tmp_path / "reports" / "r.html"
    report.parent.mkdir()
    report.write_text("old")
    link = tmp_path / "link.html"
    link.symlink_to(report)
    r = _run(["analyse", "--quick", str(EX / "full_deal_4p.json"), "--html", str(link)])
    assert r.returncode == 0, r.stderr
    assert link.is_symlink() and link.resolve() == report.resolve()
    assert report.read_text().startswith("<!DOCTYPE html>")
    pipe = tmp_path / "out.fifo"
    os.mkfifo(pipe)
    r = _run(["analyse", "--quick", str(EX / "full_deal_4p.json"), "--html", str(pipe)])
    assert r.returncode == 1
    _one_line_error(r.stderr)
    assert "is not a regular file" in r.stderr
    assert stat.S_ISFIFO(os.stat(pipe).st_mode)
    _no_temp_files(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.html", "out.fifo", "reports"]
    # links that lead nowhere: round in a circle (refused, both links kept), into a missing folder
    (tmp_path / "a.html").symlink_to(tmp_path / "b.html")
    (tmp_path / "b.html").symlink_to(tmp_path / "a.html")
    r = _run(["analyse", "--quick", str(EX / "full_deal_4p.json"), "--html", str(tmp_path / "a.html")])
    assert r.returncode == 1 and "is a symbolic link that loops" in r.stderr
    _one_line_error(r.stderr)
    assert (tmp_path / "a.html").is_symlink() and (tmp_path / "b.html").is_symlink()
    (tmp_path / "far.json").symlink_to(tmp_path / "missing" / "g.json")
    r = _run(["play", "--players", "3", "--seed", "1", "--save", str(tmp_path / "far.json")], shell_suffix="<&-")
    assert r.returncode == 1 and r.stdout == ""  # refused before the game, not after it
    _one_line_error(r.stderr)
    _no_temp_files(tmp_path)


def test_the_report_never_replaces_the_record_analysed(tmp_path: Path) -> None:
    """``--html`` naming the record analysed, by its own name, another spelling or a link to it: one line,
    exit 1, the record as it was and nothing else written."""
    game = tmp_path / "g.json"
    game.write_bytes((EX / "full_deal_4p.json").read_bytes())
    (tmp_path / "link.json").symlink_to(game)
    for record, out in [(game, game), (tmp_path / "link.json", tmp_path / "." / "g.json"),
                        (game, tmp_path / "link.json")]:
        r = _run(["analyse", "--quick", str(record), "--html", str(out)])
        assert r.returncode == 1, r.stderr
        _one_line_error(r.stderr)
        assert "is the record analysed" in r.stderr
        assert game.read_bytes() == (EX / "full_deal_4p.json").read_bytes()
        assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json", "link.json"]
    # another file of the same content is another file: written
    r = _run(["analyse", "--quick", str(game), "--html", str(tmp_path / "g.html")])
    assert r.returncode == 0 and (tmp_path / "g.html").read_text().startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("where", ["read-only", "directory", "missing"])
def test_analyse_html_at_hostile_paths(tmp_path: Path, where: str) -> None:
    """A report path that cannot be written is refused before the analysis, which here would take hours."""
    record = TEAMS6
    target = {"read-only": _unwritable(tmp_path) / "r.html", "directory": tmp_path,
              "missing": tmp_path / "nope" / "r.html"}[where]
    r = _run(["analyse", record, "--samples", "200000", "--confidence", "1", "--html", str(target)], timeout=60)
    assert r.returncode == 1
    _one_line_error(r.stderr)
    assert r.stderr.startswith(f"trio-solver: {target}") and str(record) not in r.stderr  # the output is at fault
    assert r.stdout == ""
    _no_temp_files(tmp_path)


@pytest.mark.parametrize("where", ["read-only", "in a read-only folder", "missing"])
def test_analyse_reports_at_hostile_paths(tmp_path: Path, where: str) -> None:
    """A ``--reports`` folder that cannot be written is refused before the collection's analysis, which here
    would take hours."""
    games = tmp_path / "games"
    games.mkdir()
    for k in range(2):
        (games / f"g{k}.json").write_text(Path(TEAMS6).read_text())
    target = {"read-only": _unwritable(tmp_path), "in a read-only folder": _unwritable(tmp_path) / "reports",
              "missing": tmp_path / "nope" / "reports"}[where]
    r = _run(["analyse", str(games), "--samples", "200000", "--confidence", "1", "--reports", str(target)],
             timeout=60)
    assert r.returncode == 1
    assert _one_line_error(r.stderr).startswith(f"trio-solver: --reports {target}")
    assert r.stdout == ""
    _no_temp_files(tmp_path)


@pytest.mark.parametrize("where", ["read-only", "directory", "missing", "existing file"])
@pytest.mark.parametrize("command", ["simulate", "play"])
def test_save_options_at_hostile_paths(tmp_path: Path, where: str, command: str) -> None:
    """``simulate --save DIR`` and ``play --save FILE`` (standard input closed: the game is abandoned)."""
    existing = tmp_path / "existing"
    existing.write_text("x")
    target = {"read-only": _unwritable(tmp_path) / "out", "directory": tmp_path,
              "missing": tmp_path / "no" / "such" / "out", "existing file": existing}[where]
    args = (["simulate", "--players", "3", "--games", "2", "--save", str(target)] if command == "simulate"
            else ["play", "--players", "3", "--seed", "1", "--save", str(target)])
    r = _run(args, shell_suffix="<&-")
    assert "Traceback" not in r.stderr
    _no_temp_files(tmp_path)
    if command == "simulate" and where == "directory":  # a folder (made if missing; not its missing folders)
        assert r.returncode == 0
        assert len([p for p in target.iterdir() if p.name.startswith("game_")]) == 2
    elif command == "play" and where == "existing file":  # a file is replaced
        assert r.returncode == 0
        Record.load(existing)
    else:
        assert r.returncode == 1
        _one_line_error(r.stderr)
        if command == "play" and where == "directory":
            assert r.stdout == ""  # refused before the game starts, not after it is played


def test_successful_play_save_leaves_no_temporary_file(tmp_path: Path) -> None:
    r = _run(["play", "--players", "3", "--seed", "1", "--save", str(tmp_path / "g.json")], shell_suffix="<&-")
    assert r.returncode == 0 and "Traceback" not in r.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]
    Record.load(tmp_path / "g.json")


# -- interruption and time limits ----------------------------------------------------------------

def _ctrl_c_after(seconds: float, start: list[str] | None = None, env: dict[str, str] | None = None) -> None:
    """Start a default analysis that would take hours of CPU (200,000 deals for every reveal), press
    Ctrl-C after ``seconds``, and check the command's answer: status 130, one line, no output."""
    # SIG_DFL: Ctrl-C works even when the tests run in the background, where the shell starts them with
    # SIGINT ignored (and children inherit that)
    proc = subprocess.Popen([*(start or [sys.executable, "-m", "trio_solver"]), "analyse", TEAMS6,
                             "--samples", "200000", "--confidence", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        time.sleep(seconds)
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=60)
    finally:  # a command the Ctrl-C did not stop would analyse for hours: it must not outlive the test
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, stderr[-2000:]
    assert _one_line_error(stderr) == "trio-solver: interrupted"
    assert stdout == ""


def test_ctrl_c_exits_130_in_one_line() -> None:
    _ctrl_c_after(5.0)  # imports done, deep in the playouts


@pytest.mark.parametrize("how", ["python -m", "script"])
@pytest.mark.parametrize("after", [0.25, 0.5])
def test_ctrl_c_while_the_command_loads_exits_130_in_one_line(how: str, after: float) -> None:
    """A Ctrl-C in the command's first moments, while the library is still being imported (the first
    second or so), is one line and status 130 too, through the installed script as through ``-m``."""
    _ctrl_c_after(after, None if how == "python -m" else [str(Path(sys.executable).with_name("trio-solver"))])


#: Run in a fresh interpreter: the command, with a Ctrl-C that lands, while the command line loads, in a callback
#: (a weak reference's, as llvmlite's destructors and the import locks' are), where it cannot unwind.
_LOST_WHILE_LOADING = """
import sys, weakref

class Finder:
    def find_spec(self, name, path, target=None):
        if name == "trio_solver.doors.cli":
            class Obj:
                pass
            def interrupted(ref):
                raise KeyboardInterrupt
            obj = Obj()
            ref = weakref.ref(obj, interrupted)
            del obj
        return None
"""
#: The same, with a Ctrl-C that Python turns into another error on its way (as it does while a class is built).
_TURNED_WHILE_LOADING = """
import sys

class Finder:
    def find_spec(self, name, path, target=None):
        if name == "trio_solver.doors.cli":
            raise RuntimeError("Error calling __set_name__") from KeyboardInterrupt()
        return None
"""
#: The same, with a real Ctrl-C (SIGINT) while a library loads, which that library's own start-up code turns into an
#: error that no longer says it was an interrupt (numpy's "failed to import", seen on a 2-core machine under load).
_SIGNAL_WHILE_LOADING = """
import os, signal, sys, time

class Finder:
    def find_spec(self, name, path, target=None):
        if name == "trio_solver.doors.cli":
            failed = False
            try:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.2)
            except KeyboardInterrupt:
                failed = True
            if failed:
                raise ImportError("numpy._core.umath failed to import")
        return None
"""
#: What the scripts then run: the command, which would analyse for hours.
_COMMAND = """

sys.meta_path.insert(0, Finder())
sys.argv = ["trio-solver", "analyse", sys.argv[1], "--samples", "200000", "--confidence", "1"]
from trio_solver.__main__ import main
sys.exit(main())
"""


@pytest.mark.parametrize("how", [_LOST_WHILE_LOADING, _TURNED_WHILE_LOADING, _SIGNAL_WHILE_LOADING],
                         ids=["lost", "turned", "signal"])
def test_a_ctrl_c_lost_in_a_callback_while_the_command_loads_still_ends_it(how: str) -> None:
    """A Ctrl-C that Python can only report as ignored (it landed in a callback while the library loaded), or that
    it turned into another error, ends the command all the same, with its one line and status 130, instead of
    hours of analysis or a traceback."""
    # SIG_DFL: the Ctrl-C works even when the tests run in the background, where the shell starts them with
    # SIGINT ignored (and children inherit that)
    proc = subprocess.run([sys.executable, "-c", how + _COMMAND, TEAMS6], capture_output=True, text=True,
                          cwd=ROOT, timeout=60, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert (proc.returncode, proc.stdout, proc.stderr) == (130, "", "trio-solver: interrupted\n")


@pytest.mark.parametrize("after", [2.0, 4.0])
def test_ctrl_c_while_numba_compiles_exits_130_in_one_line(tmp_path: Path, after: float) -> None:
    """On a fresh machine the first run compiles the playout kernel, and numba's compiler calls back into
    Python from native code, where a KeyboardInterrupt cannot unwind. A Ctrl-C there still ends the
    command with one line and status 130. An empty numba cache makes the compilation happen at every
    run (it takes longer than ``after``)."""
    _ctrl_c_after(after, env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)})


def test_a_terminal_is_told_while_the_kernel_is_built(tmp_path: Path) -> None:
    """The first run after an install builds the compiled kernel for the machine, about a minute: a person
    at a terminal reads one line saying so (over the progress bar) instead of a bar stuck at 0. An empty
    numba cache makes the build happen on this run; the command is stopped once the line is there."""
    master, slave = pty.openpty()  # standard error is a terminal; standard output a pipe
    proc = subprocess.Popen([sys.executable, "-m", "trio_solver", "analyse", FULL], stdout=subprocess.PIPE,
                            stderr=slave, stdin=subprocess.DEVNULL, cwd=ROOT,
                            env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)})
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 60
    try:
        while cli.COMPILE_NOTICE.encode() not in seen and time.monotonic() < deadline and proc.poll() is None:
            if select.select([master], [], [], 0.5)[0]:
                seen += os.read(master, 4096)
    finally:
        proc.kill()
        proc.communicate()
        os.close(master)
    text = seen.decode()
    assert text.count(cli.COMPILE_NOTICE) == 1, text[-2000:]
    assert "Traceback" not in text


@pytest.mark.parametrize("then", ["fails", "goes on"])
@pytest.mark.parametrize("how", ["ctrl-c", "sigterm in the background"])
def test_an_interrupt_inside_a_native_callback_still_stops_the_command(monkeypatch: pytest.MonkeyPatch,
                                                                         then: str, how: str) -> None:
    """A Ctrl-C that lands in Python code called back from native code (as numba's compiler does) is
    printed by Python as an ignored exception, and the native code either fails with an error of its own
    or goes on. Either way the command says it was interrupted, in one line, and stops. So does a
    SIGTERM that stands for a Ctrl-C (as during ``simulate``) in a run started in the background, where
    Ctrl-C is ignored."""
    import ctypes

    from trio_solver.doors import queries as queries_module

    calls: list[str] = []
    signum = signal.SIGINT if how == "ctrl-c" else signal.SIGTERM

    def compiling(record: object, **kwargs: object) -> None:
        with cli._terminate_as_interrupt():
            callback = ctypes.CFUNCTYPE(None)(lambda: signal.raise_signal(signum))
            callback()  # the KeyboardInterrupt raised in there cannot leave the callback
            calls.append("after the callback")
            if then == "fails":
                raise RuntimeError("no compiled object yet")
            end = time.monotonic() + 10.0
            while time.monotonic() < end:  # the interrupt, delivered again, stops this
                time.sleep(0.001)
            calls.append("ran to its end")

    monkeypatch.setattr(queries_module, "check_record", compiling)
    monkeypatch.delenv("TRIO_DEBUG", raising=False)
    hook = sys.unraisablehook
    # Ctrl-C as at a terminal, or ignored as in a background run
    handler = signal.default_int_handler if how == "ctrl-c" else signal.SIG_IGN
    before = signal.signal(signal.SIGINT, handler)
    try:
        status, out, err = _main(["validate", FULL])
        after = signal.getsignal(signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, before)
    assert calls == ["after the callback"]
    assert status == 130 and out == ""
    assert _one_line_error(err) == "trio-solver: interrupted"
    assert after is handler and sys.unraisablehook is hook  # both put back as they were


@pytest.mark.parametrize("stage", ["write", "replace"])
def test_interrupted_atomic_write_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 stage: str) -> None:
    """Ctrl-C while an output file is written: the old file is untouched and no temporary file is left."""
    from trio_solver.game import record as record_module

    target = tmp_path / "game.json"
    target.write_text("old")

    def interrupt(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    if stage == "replace":
        monkeypatch.setattr(record_module.os, "replace", interrupt)
    else:
        monkeypatch.setattr(record_module.os, "fdopen", interrupt)
    with pytest.raises(KeyboardInterrupt):
        Record.load(FULL).save(target)
    monkeypatch.undo()
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
    assert target.read_text() == "old"


def test_write_errors_in_cli_are_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk while an output file is written: one line, status 1, no file, no temporary file."""
    import errno

    from trio_solver.game import record as record_module

    real_fdopen = os.fdopen

    class Full(io.StringIO):
        def write(self, text: str) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

    def fdopen(fd: int, *args: object, **kwargs: object) -> io.StringIO:
        real_fdopen(fd).close()
        return Full()

    monkeypatch.setattr(record_module.os, "fdopen", fdopen)
    with pytest.raises(TrioError, match="No space left"):
        Record.load(FULL).save(tmp_path / "x.json")
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args, limit", [
    (["beliefs", TEAMS6, "--swap-budget", "4000000"], "0.2"),  # about 2 s of lattice
    (["analyse", TEAMS6, "--samples", "200000", "--confidence", "1"], "1"),  # hours of playouts
])
def test_time_limit_stops_a_long_computation(args: list[str], limit: str) -> None:
    """The limit stops hours of work within seconds. The command runs with the playout kernel on disk:
    loaded here first, so that on a fresh machine the test does not time the kernel's one build, which
    the limit does not cut short (docs/INTERFACE.md)."""
    queries.warm_up()  # this process builds the kernel if no other did yet, and numba keeps it on disk
    start = time.monotonic()
    r = _run(args + ["--time-limit", limit])
    assert r.returncode == 1
    assert f"time limit of {limit} s" in _one_line_error(r.stderr)
    assert time.monotonic() - start < 30
    assert r.stdout == ""


# -- huge numbers in options --------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["beliefs", FULL, "--after", BIG], ["beliefs", FULL, "--seat", BIG], ["beliefs", FULL, "--list", BIG],
    ["beliefs", FULL, "--swap-budget", BIG], ["replay", FULL, "--after", BIG], ["advise", FULL, "--seat", BIG],
    ["validate", FULL, "--time-limit", BIG], ["simulate", "--players", "3", "--games", BIG],
    ["play", "--seat", BIG], ["beliefs", FULL, "--after", "1" + "0" * 15], ["beliefs", FULL, "--swap-budget",
                                                                             "4000001"],
])
def test_huge_numbers_in_options_in_process(args: list[str]) -> None:
    status, out, err = _main(args)
    assert status in (1, 2)
    assert out == ""
    _one_line_error(err)


# -- arbitrary command lines, in process ------------------------------------------------------------

_TOKENS = ["validate", "replay", "beliefs", "advise", "--seat", "--after", "--json", "--list", "--swap-budget",
           "--objective", "--time-limit", "trio", "win", "none", "all", "default", "0", "1", "3", "7", "-1",
           "99", BIG, "1e9", "nan", "inf", "0.5", "", "-", "x", FULL, VIEWER, str(EX / "in_progress_5p.json"),
           str(EX / "teams_4p.json"), "/nonexistent/x.json", "/", "/dev/null", "--help-me", "é", "\x00"]


@settings(max_examples=60 * FUZZ_SCALE, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(argv=st.lists(st.sampled_from(_TOKENS), min_size=1, max_size=7))
def test_arbitrary_command_lines(argv: list[str]) -> None:
    """Any command line of my commands: status 0, 1 or 2; an error is one line and prints no output."""
    if argv[0] not in ("validate", "replay", "beliefs", "advise"):
        argv = ["beliefs", *argv]
    argv = [*argv, "--time-limit", "20"] if "--time-limit" not in argv else argv
    status, out, err = _main(argv)
    assert status in (0, 1, 2), (status, err)
    if status:
        assert out == ""
        line = _one_line_error(err)
        assert "internal error" not in line
    else:
        assert err == ""


def test_a_bug_is_one_line_and_status_70(monkeypatch: pytest.MonkeyPatch) -> None:
    import trio_solver.doors.queries as queries_module

    def broken(record: object, **kwargs: object) -> None:
        raise RuntimeError("boom\nsecond line")

    # the library function the command calls, where the command's question looks it up
    monkeypatch.setattr(queries_module, "check_record", broken)
    monkeypatch.delenv("TRIO_DEBUG", raising=False)
    status, out, err = _main(["validate", FULL])
    assert status == 70 and out == ""
    assert "internal error (RuntimeError" in _one_line_error(err)
    monkeypatch.setenv("TRIO_DEBUG", "1")
    with pytest.raises(RuntimeError):
        cli.main(["validate", FULL])


def test_a_ctrl_c_the_command_handles_leaves_a_later_error_what_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C the command catches and goes on from (``play`` stops a game with it, then saves) does not
    turn a later, unrelated error into an interruption: it is still an internal error, status 70."""
    from trio_solver.doors import queries as queries_module

    def handles(record: object, **kwargs: object) -> None:
        try:
            signal.raise_signal(signal.SIGINT)
        except KeyboardInterrupt:
            pass  # handled, as play handles it
        raise RuntimeError("a bug after it")

    monkeypatch.setattr(queries_module, "check_record", handles)
    monkeypatch.delenv("TRIO_DEBUG", raising=False)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        status, out, err = _main(["validate", FULL])
    finally:
        signal.signal(signal.SIGINT, before)
    assert status == 70 and out == ""
    assert 'internal error (RuntimeError: "a bug after it")' in _one_line_error(err)


def test_no_interrupt_is_raised_once_the_command_reports_one() -> None:
    """An interrupt lost in a native callback is delivered again a moment later, unless the command has
    meanwhile reported its interruption (:meth:`cli._Interrupts.settle`): then nothing is raised while
    it writes the line, so one Ctrl-C never becomes a second, unhandled one."""
    import ctypes

    callback = ctypes.CFUNCTYPE(None)(lambda: signal.raise_signal(signal.SIGINT))
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with cli._interrupts_kept(quiet_after=False) as state:
            callback()  # lost in the callback: delivered again in 10 ms, unless settled
            assert state.seen
            state.settle()
            time.sleep(0.2)  # nothing is raised here
            signal.raise_signal(signal.SIGINT)  # nor by a Ctrl-C now: the command is already ending
    finally:
        signal.signal(signal.SIGINT, before)


@pytest.mark.parametrize("quiet_after", [True, False])
def test_a_half_built_object_freed_after_the_interruption_is_not_printed(
        monkeypatch: pytest.MonkeyPatch, quiet_after: bool) -> None:
    """An interrupt can stop a library's constructor half-way (numba's compiler, on a first run): the
    object is freed with the exception, after the command has written its one line, and its clean-up
    fails. Run as the program (``quiet_after``), that failure is not printed, and after the block the
    hook stays one that prints nothing; otherwise the hook found is put back. Before the command
    reports its interruption, such a failure is printed as usual, even once an interrupt was seen
    (``play`` handles a Ctrl-C itself and goes on)."""
    printed: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", printed.append)

    class HalfBuilt:
        def __del__(self) -> None:
            raise AttributeError("no handle yet")

    with cli._interrupts_kept(quiet_after=quiet_after) as state:
        HalfBuilt()  # not interrupted: printed
        assert len(printed) == 1
        state.seen = True  # an interrupt seen, the command going on
        HalfBuilt()
        assert len(printed) == 2
        state.settle()
        HalfBuilt()  # freed while the interruption is reported
        assert len(printed) == (2 if quiet_after else 3)
    assert sys.unraisablehook == (cli._ignore if quiet_after else printed.append)


@pytest.mark.parametrize("chained", ["context", "cause"])
def test_an_error_raised_while_ctrl_c_unwinds_is_still_an_interruption(monkeypatch: pytest.MonkeyPatch,
                                                                       chained: str) -> None:
    """A library's clean-up that fails while a Ctrl-C goes through it (a lock released in a ``finally``)
    replaces the ``KeyboardInterrupt``: the command still says it was interrupted, with status 130."""
    from trio_solver.doors import queries as queries_module

    def interrupted(record: object, **kwargs: object) -> None:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as e:
            if chained == "cause":
                raise RuntimeError("release unlocked lock") from e
            raise RuntimeError("release unlocked lock")  # noqa: B904 (the context is what is tested)

    monkeypatch.setattr(queries_module, "check_record", interrupted)
    monkeypatch.delenv("TRIO_DEBUG", raising=False)
    status, out, err = _main(["validate", FULL])
    assert status == 130 and out == ""
    assert _one_line_error(err) == "trio-solver: interrupted"
