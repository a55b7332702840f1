"""The package passes ``mypy --strict`` (the settings of pyproject.toml). The session starts the check
while it builds the kernel (tests/conftest.py) and this test reads its result; a run that did not start
it (a single worker's rerun, say) runs the check here."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from conftest import MYPY, MYPY_RESULT

ROOT = Path(__file__).resolve().parent.parent
#: Seconds the test waits for the session's type check (about 10 s of CPU on a 2-core machine).
WAIT = 600


def test_the_package_passes_mypy_strict() -> None:
    out = os.environ.get(MYPY_RESULT)
    if out and os.path.exists(out):
        deadline = time.monotonic() + WAIT
        while not os.path.exists(out + ".rc"):
            assert time.monotonic() < deadline, f"the type check did not end within {WAIT} s"
            time.sleep(0.2)
        code, text = int(Path(out + ".rc").read_text()), Path(out).read_text()
    else:
        done = subprocess.run(MYPY, cwd=ROOT, capture_output=True, text=True, timeout=WAIT)
        code, text = done.returncode, done.stdout + done.stderr
    assert code == 0, text
    assert text.startswith("Success: no issues found"), text
