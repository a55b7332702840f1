"""The ``trio-solver`` command, and ``python -m trio_solver``.

:func:`main` loads the command line (:mod:`trio_solver.doors.cli`) itself, so that a Ctrl-C while the
library loads, in the command's first second, is one line and status 130 like a Ctrl-C later on.
"""

from __future__ import annotations

import sys

__all__ = ["main"]


def main() -> int:
    """Run the command on ``sys.argv``; its exit status (see :func:`trio_solver.doors.cli.main`)."""
    try:
        from .doors.cli import main as command
    except KeyboardInterrupt:
        # the half-loaded modules may fail to clean up as the interpreter exits: nothing of that is shown
        sys.unraisablehook = lambda _unraisable: None
        if sys.stderr is not None:
            sys.stderr.write("trio-solver: interrupted\n")
        return 130
    return command()


if __name__ == "__main__":
    sys.exit(main())
