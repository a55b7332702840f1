"""The ``trio-solver`` command, and ``python -m trio_solver``.

:func:`main` loads the command line (:mod:`trio_solver.doors.cli`) itself, so that a Ctrl-C while the
library loads, in the command's first second, is one line and status 130 like a Ctrl-C later on.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
from typing import Any, NoReturn

from ._interrupts import after_interrupt

__all__ = ["main"]


def main() -> int:
    """Run the command on ``sys.argv``; its exit status (see :func:`trio_solver.doors.cli.main`). A Ctrl-C
    before the command line is loaded (also one that lands in a callback, where it cannot unwind) ends the
    process there, with its one line and status 130; so does an interrupted command that started no worker
    process."""
    started = time.monotonic()  # --time-limit counts the library's loading too
    lost: list[object] = []
    previous_hook = sys.unraisablehook

    def keep_lost_interrupt(u: Any) -> None:
        # a Ctrl-C that lands in a callback while the library loads (a destructor of llvmlite's, an import
        # lock's) cannot unwind from it: Python would print it as ignored and go on loading, the command
        # would then run as if never interrupted
        if isinstance(u.exc_value, KeyboardInterrupt):
            lost.append(u)
        else:
            previous_hook(u)

    sys.unraisablehook = keep_lost_interrupt
    # While the libraries load, a Ctrl-C only takes note: raised inside their start-up code it can turn into
    # another error (numpy's "failed to import") or land where it cannot unwind. Noted, it ends the process
    # once the loading is over (about a second).
    noted = _note_interrupts()
    try:
        try:
            from .doors.cli import main as command
        finally:
            noted.restore()
        if lost or noted.seen:
            raise KeyboardInterrupt
    except Exception as e:  # an interrupt that Python turned into another error on its way (a class being built)
        if not after_interrupt(e):
            raise
        _end_interrupted()
    except KeyboardInterrupt:
        _end_interrupted()
    sys.unraisablehook = previous_hook
    status = command(started=started)
    if status == 130 and _nothing_to_clean_up():
        # Interrupted, its line written and its files settled: the same reasons end the process at once
        # (an interrupt that came while a library loaded, the compiled kernel say, can still make an orderly
        # exit end by SIGINT or crash in the clean-up). Worker processes are left to the orderly exit.
        for stream in (sys.stdout, sys.stderr):
            try:
                if stream is not None:
                    stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(130)
    return status


class _Noted:
    """A Ctrl-C handler that only notes the interrupt (``seen``); :meth:`restore` puts back the one before."""

    def __init__(self, previous: Any) -> None:
        self.previous = previous
        self.seen = False

    def note(self, signum: int, frame: object) -> None:
        self.seen = True

    def restore(self) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
            self.previous = None


def _note_interrupts() -> _Noted:
    """Note Ctrl-C instead of raising it, while Python's own handler is the one in place (a Ctrl-C that the
    shell has the process ignore, as in a background job, stays ignored)."""
    try:
        if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
            return _Noted(None)
        noted = _Noted(signal.default_int_handler)
        signal.signal(signal.SIGINT, noted.note)
    except ValueError:  # not the main thread: signals are not ours to handle
        return _Noted(None)
    return noted


def _end_interrupted() -> NoReturn:
    """End the process interrupted while the command line loads. Nothing has been done yet, so it ends at once:
    an orderly exit would run the clean-up of half-loaded modules, and Python may still end it by SIGINT,
    having seen the interrupt pass through a library's own start-up code, whatever status is returned."""
    if sys.stderr is not None:
        sys.stderr.write("trio-solver: interrupted\n")
        sys.stderr.flush()
    os._exit(130)


def _nothing_to_clean_up() -> bool:
    """Whether the process started no worker process and holds no semaphore of theirs: then an orderly exit
    has nothing of its own to end (else it ends the workers and frees what they shared)."""
    if multiprocessing.active_children():
        return False
    tracker = sys.modules.get("multiprocessing.resource_tracker")
    if tracker is None:  # never loaded: nothing registered with it
        return True
    state = getattr(tracker, "_resource_tracker", None)
    return state is not None and getattr(state, "_pid", 0) is None  # it never started: nothing registered


if __name__ == "__main__":
    sys.exit(main())
