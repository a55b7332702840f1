"""The package passes ``mypy --strict`` (the settings of pyproject.toml). The session starts the check
in a process of its own (tests/conftest.py) and this test reads its result; a run that did not start
it (a single worker's rerun, say) runs the check here."""

from __future__ import annotations

import subprocess

from conftest import MYPY, MYPY_RESULT, ROOT, WAIT, result_of


def test_the_package_passes_mypy_strict() -> None:
    result = result_of(MYPY_RESULT)
    if result is None:
        done = subprocess.run(MYPY, cwd=ROOT, capture_output=True, text=True, timeout=WAIT)
        result = done.returncode, done.stdout + done.stderr
    code, text = result
    assert code == 0, text
    assert text.startswith("Success: no issues found"), text
