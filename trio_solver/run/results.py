"""Results files: one JSON line per finished task, appended as it ends, so a run can resume.

The first line is a header that records the run's parameters::

    {"format": "trio-results/1", "kind": "tournament", "params": {...}, "command": "trio-solver ..."}

and every further line is one finished task (for a tournament,
``{"game": 17, "winner": 2, "turns": 31}``). A line is written with one
``write`` and flushed at once; the file is synced to disk at least every
:data:`SYNC_SECONDS` and when it is closed. A process killed while writing
leaves at most one torn last line: reading ignores a last line that has no
line end, and the next append first cuts it off. Any other bad
line is an error. A resume whose parameters differ from the header's is refused
(``kind`` and ``params`` must be equal; ``command`` is for people). The file
is locked while a run appends to it, so two runs cannot interleave their lines; worker processes
forked meanwhile do not keep it (they close their copy at once), and closing unlocks it explicitly.
"""

from __future__ import annotations

import fcntl
import json
import os
import stat
import time
import weakref
from collections.abc import Callable
from typing import Any

from ..errors import RunError
from ..files import output_target

__all__ = ["FORMAT", "ResultsFile"]

FORMAT = "trio-results/1"

#: The longest line read back (a task line is tens of bytes; a header a few hundred).
MAX_LINE = 1 << 20

#: How often, at most, appended lines are synced to disk (every line is flushed to the OS at once).
SYNC_SECONDS = 1.0

#: The results files open in this process: a forked child closes its copies at once.
_OPEN: weakref.WeakSet[ResultsFile] = weakref.WeakSet()


def _close_copies_in_child() -> None:
    for f in list(_OPEN):
        if f._fd >= 0:
            try:
                os.close(f._fd)  # the child's copy only: the parent's lock stays
            except OSError:
                pass
            f._fd = -1
    _OPEN.clear()


os.register_at_fork(after_in_child=_close_copies_in_child)


def _run_error(where: str, reason: str) -> RunError:
    return RunError(f"{where}: {reason}")


class ResultsFile:
    """An open results file, read back and ready to append to.

    ``ResultsFile(path, kind, params, on_entry, command=...)`` creates the file
    with its header, or reads an existing one: checks its header against
    ``kind`` and ``params`` (:class:`~trio_solver.errors.RunError` naming the
    first difference if they differ), calls ``on_entry(line_number, entry)`` for
    every task line in file order, and cuts off a torn last line. Then
    :meth:`append` adds lines; :meth:`close` (or ``with``) syncs and unlocks.
    """

    def __init__(self, path: str, kind: str, params: dict[str, Any],
                 on_entry: Callable[[int, dict[str, Any]], None], *, command: str | None = None) -> None:
        output_target(path, name="results_file", error=_run_error)
        path = self.path = os.fspath(path)
        header = {"format": FORMAT, "kind": kind, "params": params}
        if command is not None:
            header["command"] = command
        try:
            self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise RunError(f"{path}: cannot open ({e.strerror})") from None
        try:
            if not stat.S_ISREG(os.fstat(self._fd).st_mode):
                raise RunError(f"{path}: is not a regular file (a device, a pipe or a socket): it is left as it is")
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                raise RunError(f"{path}: another run is writing to this results file") from None
            end = self._read(kind, params, on_entry)
            if end is None:
                os.ftruncate(self._fd, 0)
                os.lseek(self._fd, 0, os.SEEK_SET)
                self._write(_line(header))
                os.fsync(self._fd)
            else:
                os.ftruncate(self._fd, end)  # drop a torn last line
                os.lseek(self._fd, end, os.SEEK_SET)
        except BaseException:
            os.close(self._fd)
            raise
        self._synced = time.monotonic()
        _OPEN.add(self)

    def _read(self, kind: str, params: dict[str, Any],
              on_entry: Callable[[int, dict[str, Any]], None]) -> int | None:
        """Read the file; the offset after its last good line, or None if it has no complete header."""
        with os.fdopen(os.dup(self._fd), "rb") as f:
            f.seek(0)
            first = f.readline(MAX_LINE)
            if not first.endswith(b"\n"):
                if first.strip(b"\0 \t\r\n"):
                    # a header cut off while being written is the only thing that may be here
                    _parse_header(self.path, first, kind, params, torn_ok=True)
                return None
            _parse_header(self.path, first, kind, params, torn_ok=False)
            good = f.tell()
            number = 1
            while True:
                raw = f.readline(MAX_LINE)
                if not raw:
                    return good
                number += 1
                entry = _parse_entry(raw)
                torn = not raw.endswith(b"\n")  # a line is written in one piece, its end last
                if entry is None or torn:
                    if not torn or f.read(1):  # a whole line that is not a results line, or one before others
                        raise RunError(f"{self.path}: line {number} is not a results line")
                    return good  # a torn last line: ignored, cut off before the next append
                on_entry(number, entry)
                good = f.tell()

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            n = os.write(self._fd, view)
            view = view[n:]

    def append(self, entry: dict[str, Any]) -> None:
        """Add one task line (written whole, flushed to the OS at once, synced at least every second)."""
        self._write(_line(entry))
        now = time.monotonic()
        if now - self._synced >= SYNC_SECONDS:
            os.fsync(self._fd)
            self._synced = now

    def close(self) -> None:
        """Sync, unlock and close (idempotent)."""
        if self._fd < 0:
            return
        _OPEN.discard(self)
        try:
            os.fsync(self._fd)
        finally:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_UN)  # released now, whatever process still holds a copy
            finally:
                os.close(self._fd)
                self._fd = -1

    def __enter__(self) -> ResultsFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _line(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, separators=(",", ":"), ensure_ascii=True) + "\n").encode("ascii")


def _parse_entry(raw: bytes) -> dict[str, Any] | None:
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def _parse_header(path: str, raw: bytes, kind: str, params: dict[str, Any], *, torn_ok: bool) -> None:
    data = _parse_entry(raw)
    if data is None or data.get("format") != FORMAT:
        start = b'{"format":"trio-results/'
        if torn_ok and (raw.startswith(start) or start.startswith(raw)):
            return  # our own header, cut off while it was being written
        raise RunError(f"{path}: not a trio-solver results file (its first line is not a {FORMAT} header); "
                       "give a new file name")
    if data.get("kind") != kind:
        raise RunError(f"{path}: a results file of a {data.get('kind')!r} run, not of a {kind!r} run")
    theirs = data.get("params")
    if not isinstance(theirs, dict) or theirs != params:
        theirs = theirs if isinstance(theirs, dict) else {}
        diffs = [f"{k} {json.dumps(theirs.get(k))} there, {json.dumps(params.get(k))} here"
                 for k in sorted(set(theirs) | set(params)) if theirs.get(k) != params.get(k)]
        raise RunError(f"{path}: written by a run with other parameters ({'; '.join(diffs)[:300]}); "
                       "resume with the same parameters or give a new file name")
