"""The ``trio-solver`` command, and ``python -m trio_solver``.

:func:`main` loads the command line (:mod:`trio_solver.doors.cli`) itself, so that a Ctrl-C while the
library loads, in the command's first second, is one line and status 130 like a Ctrl-C later on.
"""

from __future__ import annotations

import os
import sys

__all__ = ["main"]


def main() -> int:
    """Run the command on ``sys.argv``; its exit status (see :func:`trio_solver.doors.cli.main`). A Ctrl-C
    before the command line is loaded ends the process there, with its one line and status 130."""
    try:
        from .doors.cli import main as command
    except KeyboardInterrupt:
        # Nothing has been done yet, so the process ends at once: an orderly exit would run the clean-up of
        # half-loaded modules, and Python may still end it by SIGINT, having seen the interrupt pass
        # through a library's own start-up code, whatever status is returned.
        if sys.stderr is not None:
            sys.stderr.write("trio-solver: interrupted\n")
            sys.stderr.flush()
        os._exit(130)
    return command()


if __name__ == "__main__":
    sys.exit(main())
