"""Test options: ``--fuzz-long`` runs the fuzz suite (tests/test_fuzz*.py) 20 times longer, and every
property test on examples drawn afresh.

The session starts two jobs in processes of their own before any test runs, and the tests that need
them wait for their end:

* the compiled kernel's build (:func:`trio_solver.doors.queries.warm_up`): on a fresh checkout numba's
  disk cache is empty, and the build takes one core for about half a minute. Without it each worker,
  and each command a test starts, would build the same functions at the same time. Every test but
  those of :data:`KERNEL_FREE` waits for it (a second or two once the cache is full);
* ``mypy`` (the package's strict type check), whose result tests/test_types.py reads.

The tests of :data:`KERNEL_FREE` (the rules engine, the golden games) never call the kernel: they run first,
beside the build. A test there that does call it fails, and says so.

Under pytest-xdist (``-n 3``, set in pyproject.toml) the modules of :data:`ONE_WORKER` run on one
worker each: their module-wide fixtures (brute-force positions, a browser, a server, a Ray instance)
are then built once, not once per worker. They come next, longest first; every other test goes to
whichever worker is free.

The suite writes Python's bytecode caches (``__pycache__``) even where ``PYTHONDONTWRITEBYTECODE`` is set (the
project's development machine sets it), and the session compiles the package before its processes start: else every test
process and every command a test starts compiles the package's source again, and each worker rewrites
and compiles every test module (collecting the tests takes 7.7 s of CPU instead of 3.2 s per process).
"""

from __future__ import annotations

import compileall
import functools
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

# bytecode caches are written by this process and by those the tests start (the module docstring says
# why), numba's and numpy's below included: the test processes then find them written
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

import numba  # noqa: E402
import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

from trio_solver import kernel  # noqa: E402

#: Property tests that do not set their own number of examples run 25 each (hypothesis's default is
#: 100), so that the whole suite stays within its time on a 2-core machine; a test that needs more sets
#: ``max_examples`` itself. The examples are the same on every run and machine (``derandomize``), so
#: that a run's verdict depends on the code alone; ``--fuzz-long`` draws new ones each run and
#: multiplies the fuzz suite's cases.
settings.register_profile("suite", max_examples=25, derandomize=True)
settings.register_profile("explore", max_examples=25)

#: Test modules whose tests share a costly module-wide fixture or ``lru_cache``, longest first.
ONE_WORKER = (
    "test_web.py", "test_service.py", "test_beliefs_reference.py", "test_service_hostile.py",
    "test_contradictions.py", "test_collection.py", "test_read_choices.py", "test_ray.py",
    "test_report_browser.py", "test_analysis_report.py", "test_analysis_game.py",
)

#: Tests (by the start of their node ids) that never call the compiled kernel, in this process or in a
#: process they start: they run first, while the kernel is built.
KERNEL_FREE = (
    "tests/test_engine_properties.py", "tests/test_corpus.py", "tests/test_knowledge.py",
    "tests/test_view_push.py", "tests/test_history.py", "tests/test_rules.py", "trio_solver/game/",
)

ROOT = Path(__file__).resolve().parent.parent


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--fuzz-long", action="store_true", default=False,
                     help="run 20 times the fuzz cases (same as TRIO_FUZZ_LONG=1)")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--fuzz-long", default=False):
        os.environ["TRIO_FUZZ_LONG"] = "1"
    settings.load_profile("explore" if os.environ.get("TRIO_FUZZ_LONG", "") not in ("", "0") else "suite")
    # pytest-xdist would hand out the modules of ONE_WORKER first, by their number of tests; the order
    # of the collection (pytest_collection_modifyitems) is kept instead
    config.option.loadscopereorder = False


#: The environment variables that name the files where the session's background jobs write their
#: output; a job's exit status follows in the same name with ``.rc`` once it is done (:func:`result_of`).
MYPY_RESULT = "TRIO_TEST_MYPY_RESULT"
KERNEL_RESULT = "TRIO_TEST_KERNEL_RESULT"
#: The type check: mypy with the project's settings (pyproject.toml: strict, the package).
MYPY = [sys.executable, "-m", "mypy"]
#: The kernel's build: every compiled function the questions use, into numba's disk cache.
BUILD_KERNEL = [sys.executable, "-c", "from trio_solver.doors.queries import warm_up; warm_up()"]
#: Each background job's command, by the environment variable that names its output.
JOBS = {MYPY_RESULT: MYPY, KERNEL_RESULT: BUILD_KERNEL}
#: Seconds a test waits for a background job (each takes about half a minute of CPU).
WAIT = 900

_RUN_JOB = """import subprocess, sys
out, rc = sys.argv[1], sys.argv[1] + ".rc"
with open(out, "w") as f:
    code = subprocess.run(sys.argv[2:], stdout=f, stderr=subprocess.STDOUT).returncode
with open(rc + ".part", "w") as f:
    f.write(str(code))
import os; os.replace(rc + ".part", rc)
"""
_JOBS = pytest.StashKey[list[subprocess.Popen[bytes]]]()


def pytest_sessionstart(session: pytest.Session) -> None:
    """Start the background jobs in the controlling process, before pytest-xdist starts its workers (they
    inherit where the jobs write). A session inside another one's run waits for that run's jobs."""
    if hasattr(session.config, "workerinput") or session.config.option.collectonly:
        return
    compileall.compile_dir(ROOT / "trio_solver", quiet=1)
    jobs = session.config.stash.setdefault(_JOBS, [])
    for env, command in JOBS.items():
        if env not in os.environ and (env != MYPY_RESULT or _selects_the_type_test(session.config)):
            jobs.append(_start(env, command))


def _selects_the_type_test(config: pytest.Config) -> bool:
    """Whether the run's paths hold tests/test_types.py (the whole suite does; one other file does not)."""
    wanted = ROOT / "tests" / "test_types.py"
    for arg in config.args:
        path = (config.invocation_params.dir / arg.split("::", 1)[0]).resolve()
        if path == wanted or wanted.is_relative_to(path):
            return True
    return False


def _start(env: str, command: list[str]) -> subprocess.Popen[bytes]:
    """Start ``command`` in a process that writes its output, then its exit status, where ``env`` says."""
    fd, out = tempfile.mkstemp(prefix="trio-test-", suffix=".txt")
    os.close(fd)
    os.environ[env] = out
    return subprocess.Popen([sys.executable, "-c", _RUN_JOB, out, *command], cwd=ROOT)


def result_of(env: str) -> tuple[int, str] | None:
    """The exit status and output of the session's background job that ``env`` names, once it has ended
    (waiting at most :data:`WAIT` seconds, then :class:`TimeoutError`); ``None`` when no job was started."""
    out = os.environ.get(env)
    if not out or not os.path.exists(out):
        return None
    deadline = time.monotonic() + WAIT
    while not os.path.exists(out + ".rc"):
        if time.monotonic() > deadline:
            raise TimeoutError(f"{' '.join(JOBS[env])} did not end within {WAIT} s")
        time.sleep(0.1)
    return int(Path(out + ".rc").read_text()), Path(out).read_text()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The background jobs are waited for and their files removed."""
    for proc in session.config.stash.get(_JOBS, []):
        try:
            proc.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            proc.kill()
    for env in JOBS:
        out = os.environ.get(env, "")
        for path in (out, out + ".rc", out + ".rc.part"):
            if path and os.path.exists(path):
                os.remove(path)


def _kernel_free(item: pytest.Item) -> bool:
    return item.nodeid.startswith(KERNEL_FREE)


def _run_order(item: pytest.Item) -> int:
    """The tests of KERNEL_FREE first, then the modules of ONE_WORKER in their order, then the rest."""
    if _kernel_free(item):
        return 0
    name = os.path.basename(item.nodeid.split("::", 1)[0])
    return 1 + ONE_WORKER.index(name) if name in ONE_WORKER else 1 + len(ONE_WORKER)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_run_order)


@functools.cache
def _kernel_build() -> None:
    """Wait for the session's kernel build (once per process); its failure fails every test that waits."""
    result = result_of(KERNEL_RESULT)
    if result is not None and result[0] != 0:
        raise RuntimeError(f"the compiled kernel's build failed (exit status {result[0]}):\n{result[1]}")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test outside :data:`KERNEL_FREE` starts once the kernel is built, before its fixtures."""
    if not _kernel_free(item):
        _kernel_build()


#: The kernel's functions that this process had loaded once it had collected the tests: none, unless a
#: module calls the kernel on import, and so builds it in every test process beside the session's build
#: (tests/test_suite_setup.py checks it).
LOADED_ON_COLLECTION: dict[str, int] = {}


def pytest_collection_finish() -> None:
    LOADED_ON_COLLECTION.update(_kernel_loaded())


def _kernel_loaded() -> dict[str, int]:
    """The number of the kernel's compiled functions that this process has built or loaded, by name."""
    return {name: len(f.overloads) for name, f in vars(kernel).items()
            if isinstance(f, numba.core.dispatcher.Dispatcher) and f.overloads}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """A test of :data:`KERNEL_FREE` that calls the kernel fails: it would build the kernel alongside the
    session's build. (It runs before any other test of its process, so none has loaded the kernel.)"""
    before = _kernel_loaded() if _kernel_free(item) else None
    yield
    if before is not None and (called := sorted(set(_kernel_loaded()) - set(before))):
        raise AssertionError(f"{item.nodeid} calls the compiled kernel ({', '.join(called)}): remove its "
                             "module from KERNEL_FREE in tests/conftest.py")


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
