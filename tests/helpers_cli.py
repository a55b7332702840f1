"""The command line run in this process, its output captured, for the tests."""

from __future__ import annotations

import contextlib
import io

from trio_solver.doors import cli


def run_main(argv: list[str]) -> tuple[int, str, str]:
    """Run :func:`trio_solver.doors.cli.main` on ``argv``: its exit status, standard output and standard error."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(argv)
    return status, out.getvalue(), err.getvalue()
