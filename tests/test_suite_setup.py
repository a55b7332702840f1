"""The suite's own set-up: the options every run gets keep the modules with costly module-wide fixtures
on one worker (tests/conftest.py), as its docstring says."""

from __future__ import annotations

import shlex
import tomllib
from pathlib import Path
from typing import Any

from conftest import ONE_WORKER, pytest_xdist_make_scheduler

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
