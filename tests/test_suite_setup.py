"""The suite's own set-up (tests/conftest.py), as its docstring says: the options every run gets keep the
modules with costly module-wide fixtures on one worker; the tests that never call the compiled kernel run
first, while it is built, and one of them that does call it fails."""

from __future__ import annotations

import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

import conftest
from conftest import KERNEL_FREE, KERNEL_RESULT, ONE_WORKER, pytest_xdist_make_scheduler

ROOT = Path(__file__).resolve().parent.parent


class _Options:
    """The part of a pytest config the scheduler reads: ``--dist`` and ``-n`` as the suite's addopts set them."""

    def __init__(self, addopts: list[str]) -> None:
        self.values = {"dist": addopts[addopts.index("--dist") + 1] if "--dist" in addopts else "no",
                       "tx": [f"{addopts[addopts.index('-n') + 1]}*popen"]}

    def getvalue(self, name: str) -> Any:
        return self.values[name]


def test_the_suite_s_options_run_each_costly_module_on_one_worker() -> None:
    addopts = shlex.split(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
                          ["addopts"])
    assert "-n" in addopts
    scheduler = pytest_xdist_make_scheduler(_Options(addopts), None)  # type: ignore[arg-type]
    assert scheduler is not None, "the suite's --dist bypasses the scheduler of conftest.py"
    for name in ONE_WORKER:
        assert (ROOT / "tests" / name).is_file(), name
        first, second = (f"tests/{name}::test_a", f"tests/{name}::test_b[1]")
        assert scheduler._split_scope(first) == scheduler._split_scope(second) == f"tests/{name}"
    assert scheduler._split_scope("tests/test_kernel.py::test_a") == "tests/test_kernel.py::test_a"


class _Item:
    def __init__(self, nodeid: str) -> None:
        self.nodeid = nodeid


def test_the_tests_that_need_no_kernel_come_first_then_the_costly_modules_longest_first() -> None:
    for start in KERNEL_FREE:
        assert (ROOT / start).exists(), start
    ids = ["tests/test_bots.py::test_a", "tests/test_ray.py::test_b", "tests/test_rules.py::test_c",
           "trio_solver/game/rules.py::trio_solver.game.rules", "tests/test_web.py::test_d",
           "tests/test_beliefs.py::test_e", "tests/test_web.py::test_f"]
    items = [_Item(i) for i in ids]
    conftest.pytest_collection_modifyitems(items)  # type: ignore[arg-type]
    assert [i.nodeid for i in items] == [
        "tests/test_rules.py::test_c", "trio_solver/game/rules.py::trio_solver.game.rules",
        "tests/test_web.py::test_d", "tests/test_web.py::test_f", "tests/test_ray.py::test_b",
        "tests/test_bots.py::test_a", "tests/test_beliefs.py::test_e"]


_CALL = """import sys
sys.path.insert(0, sys.argv[1])
import conftest
from trio_solver import kernel

class Item:
    nodeid = sys.argv[2]

run = conftest.pytest_runtest_call(Item())
next(run)
if sys.argv[3] == "calls":
    kernel.popcount(7)
try:
    next(run)
except StopIteration:
    print("passed")
except AssertionError as e:
    print(e)
"""


@pytest.mark.parametrize(("nodeid", "calls", "said"), [
    ("tests/test_rules.py::test_x", "calls", "tests/test_rules.py::test_x calls the compiled kernel (popcount): "
                                             "remove its module from KERNEL_FREE in tests/conftest.py"),
    ("tests/test_rules.py::test_x", "no", "passed"),
    ("tests/test_bots.py::test_x", "calls", "passed"),
])
def test_a_test_said_to_need_no_kernel_fails_when_it_calls_it(nodeid: str, calls: str, said: str) -> None:
    """In a process of its own, where no kernel function is loaded yet (as in a worker, where these tests
    come first)."""
    out = subprocess.run([sys.executable, "-c", _CALL, str(ROOT / "tests"), nodeid, calls], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == said


def test_no_test_module_calls_the_kernel_on_import() -> None:
    """In the process that runs this test, collecting the tests loaded no compiled function (the whole
    suite's collection imports every test module)."""
    assert conftest.LOADED_ON_COLLECTION == {}


def test_a_failed_kernel_build_fails_the_tests_that_wait_for_it(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "build.txt"
    out.write_text("numba.core.errors.TypingError: no such thing\n")
    (tmp_path / "build.txt.rc").write_text("1")
    monkeypatch.setenv(KERNEL_RESULT, str(out))
    with pytest.raises(RuntimeError, match=r"build failed \(exit status 1\):\nnumba.core.errors.TypingError"):
        conftest._kernel_build.__wrapped__()
