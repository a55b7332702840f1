"""How a benchmark script ends: its figures, or one line on standard error.

Every script of ``benchmarks/`` runs its ``main`` through :func:`run_script`, so that bad input (an error
of the library's own class, a path that cannot be read or written, a file another run holds) or a Ctrl-C
ends the script with one line naming it, never a traceback.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import NoReturn

from trio_solver._interrupts import after_interrupt
from trio_solver.errors import TrioError


def run_script(main: Callable[[], int | None], path: str) -> NoReturn:
    """Run ``main`` and exit with its status (0 for ``None``); exit 2 with ``NAME: message`` for an error of
    the library's class or an operating-system error, 130 for a Ctrl-C (``NAME``: the script's file name
    from ``path``)."""
    name = os.path.basename(path)
    try:
        code = main()
    except TrioError as e:
        if after_interrupt(e):
            _end(name, "interrupted", 130)
        _end(name, str(e), 2)
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        _end(name, f"{where}{e.strerror or e}", 2)
    except KeyboardInterrupt:
        _end(name, "interrupted", 130)
    sys.exit(code or 0)


def _end(name: str, message: str, status: int) -> NoReturn:
    line = " ".join(message.split())  # one line, whatever the message holds
    print(f"{name}: {line}", file=sys.stderr)
    sys.exit(status)
