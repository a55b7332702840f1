"""Test options: ``--fuzz-long`` runs the fuzz suite (tests/test_fuzz*.py) 20 times longer.

Before any test runs, the session loads the compiled kernel once (:func:`trio_solver.doors.queries.warm_up`):
on a fresh checkout numba's disk cache is empty, and without this each worker, and each command a
test starts, would build the same functions at the same time. The build takes one core for about half
a minute; ``mypy`` (the package's strict type check) runs on the other meanwhile, and
tests/test_types.py reads its result.

Under ``-n 2`` (pytest-xdist) the modules of :data:`ONE_WORKER` run on one worker each: their
module-wide fixtures (brute-force positions, a browser, a server, a Ray instance) are then built
once, not once per worker. Every other test goes to whichever worker is free.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from trio_solver.doors.queries import warm_up

#: Property tests that do not set their own number of examples run 25 each (hypothesis's default is
#: 100), so that the whole suite stays within its time on a 2-core machine; a test that needs more sets
#: ``max_examples`` itself, and ``--fuzz-long`` still multiplies the fuzz suite's cases.
settings.register_profile("suite", max_examples=25)
settings.load_profile("suite")

#: Test modules whose tests share a costly module-wide fixture or ``lru_cache``.
ONE_WORKER = frozenset({
    "test_analysis_game.py", "test_analysis_report.py", "test_beliefs_reference.py", "test_collection.py",
    "test_contradictions.py", "test_ray.py", "test_read_choices.py", "test_report_browser.py", "test_web.py",
})


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--fuzz-long", action="store_true", default=False,
                     help="run 20 times the fuzz cases (same as TRIO_FUZZ_LONG=1)")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--fuzz-long", default=False):
        os.environ["TRIO_FUZZ_LONG"] = "1"


#: The environment variable that names the file where the type check started by the session writes its
#: output; its exit status follows in the same name with ``.rc`` once it is done (tests/test_types.py).
MYPY_RESULT = "TRIO_TEST_MYPY_RESULT"
#: The command of the type check: mypy with the project's settings (pyproject.toml: strict, the package).
MYPY = [sys.executable, "-m", "mypy"]
_RUN_MYPY = """import subprocess, sys
out, rc = sys.argv[1], sys.argv[1] + ".rc"
with open(out, "w") as f:
    code = subprocess.run(sys.argv[2:], stdout=f, stderr=subprocess.STDOUT).returncode
with open(rc + ".part", "w") as f:
    f.write(str(code))
import os; os.replace(rc + ".part", rc)
"""


def pytest_sessionstart(session: pytest.Session) -> None:
    """Build or load the compiled kernel in the controlling process, before pytest-xdist starts its
    workers (its own session start runs last): every worker and command then loads it from the cache.
    The type check starts first, in a process of its own, and the workers inherit where it writes."""
    if hasattr(session.config, "workerinput") or session.config.option.collectonly:
        return
    if _selects_the_type_test(session.config):
        _start_type_check(session)
    warm_up()


def _selects_the_type_test(config: pytest.Config) -> bool:
    """Whether the run's paths hold tests/test_types.py (the whole suite does; one other file does not)."""
    wanted = Path(__file__).resolve().parent / "test_types.py"
    for arg in config.args:
        path = (config.invocation_params.dir / arg.split("::", 1)[0]).resolve()
        if path == wanted or wanted.is_relative_to(path):
            return True
    return False


def _start_type_check(session: pytest.Session) -> None:
    """Start mypy in a process that writes its output, then its exit status (:data:`MYPY_RESULT`)."""
    fd, out = tempfile.mkstemp(prefix="trio-mypy-", suffix=".txt")
    os.close(fd)
    os.environ[MYPY_RESULT] = out
    session.config.stash[_MYPY_KEY] = subprocess.Popen([sys.executable, "-c", _RUN_MYPY, out, *MYPY],
                                                       cwd=Path(__file__).resolve().parent.parent)


_MYPY_KEY = pytest.StashKey[subprocess.Popen[bytes]]()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The type check's process is waited for and its files removed."""
    proc = session.config.stash.get(_MYPY_KEY, None)
    if proc is None:
        return
    try:
        proc.wait(timeout=600)
    except subprocess.TimeoutExpired:
        proc.kill()
    out = os.environ.get(MYPY_RESULT, "")
    for path in (out, out + ".rc", out + ".rc.part"):
        if path and os.path.exists(path):
            os.remove(path)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """The ``load`` distribution, but a module of :data:`ONE_WORKER` is one unit of work. (``--dist
    loadgroup`` with ``xdist_group`` marks would do this, but pytest-xdist 3.8 renames the tests by
    setting ``item._nodeid``, which pytest 9 no longer reads: the groups are silently ignored.)"""
    if config.getvalue("dist") != "load":
        return None  # another distribution asked for on the command line: xdist's own
    from xdist.scheduler import LoadScopeScheduling

    class OneWorkerModules(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return path if os.path.basename(path) in ONE_WORKER else nodeid

    return OneWorkerModules(config, log)
