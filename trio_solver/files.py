"""Writing files whole: complete or untouched, with the permissions of an ordinary new file.

:func:`write_text` writes to a temporary file beside the target and renames it
over the target, so a reader never sees half a file. The temporary file is
created private (mode 0600) by :func:`tempfile.mkstemp`; before the rename it
gets the mode an ordinary ``open(path, "w")`` would give (0666 less the
process's umask), so saved games, simulation records and reports can be shared.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ._args import show
from ._text import describe
from .errors import RecordError, TrioError

__all__ = ["output_target", "writable_target", "output_folder", "same_file", "write_text", "new_file_mode"]


def new_file_mode() -> int:
    """The mode ``open(path, "w")`` gives a new file: 0666 less the umask."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def same_file(a: str, b: str) -> bool:
    """Whether paths ``a`` and ``b`` name one existing file (through links or other names: the same device
    and inode); ``False`` when either cannot be looked at."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def output_target(path: Any, *, name: str = "path",
                  error: Callable[[str, str], TrioError] = RecordError) -> Path:
    """The file that writing ``path`` replaces: ``path`` itself, or the file a symbolic link points to (the
    link stays). Raises ``error(where, reason)`` (a :class:`~trio_solver.errors.RecordError` unless told
    otherwise) naming the path, or the argument ``name`` when ``path`` is not a file name at all, when it
    is a link that loops, a directory or another file that is not a regular one (a device, a pipe), or when
    its folder is missing: checked before a long job, so that the job's end is not lost."""
    try:
        text = os.fspath(path) if isinstance(path, (str, os.PathLike)) else None
    except TypeError:  # a path object whose __fspath__ gives neither text nor bytes
        text = None
    if not isinstance(text, str) or not text or "\x00" in text:
        raise error(name, f"expected a file name, got {show(path)}")
    target = Path(text)
    if target.is_symlink():  # the link stays: the file it points to is written
        target = Path(os.path.realpath(target))
        if target.is_symlink():  # realpath stops where links go round in a circle
            raise error(text, "is a symbolic link that loops")
    if target.is_dir():
        raise error(text, "is a directory")
    if target.exists() and not target.is_file():
        raise error(text, "is not a regular file (a device, a pipe or a socket): it is left as it is")
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise error(text, f"no such folder: {parent}")
    return target


def writable_target(path: Any, *, name: str = "path",
                    error: Callable[[str, str], TrioError] = RecordError) -> Path:
    """:func:`output_target`, and a check that its folder takes a new file (a scratch file made there and
    removed at once): what :func:`write_text` needs, checked before a long job whose text it will write, so
    that a read-only folder is told at once, not once the job is done. Raises as :func:`output_target`
    does, or ``error(path, "cannot write: ...")``; the folder is left as it was."""
    target = output_target(path, name=name, error=error)
    _probe(target.parent, os.fspath(path), error)
    return target


def _probe(folder: Path, path: str, error: Callable[[str, str], TrioError]) -> None:
    """Raise ``error(path, "cannot write: ...")`` unless a new file can be made in ``folder`` (one is made
    and removed at once)."""
    try:
        fd, scratch = tempfile.mkstemp(prefix=".trio-", suffix=".tmp", dir=folder)
    except OSError as e:
        raise error(path, f"cannot write: {e.strerror or e}") from None
    os.close(fd)
    os.unlink(scratch)


def output_folder(path: str, error: Callable[[str, str], TrioError] = RecordError, *, make: bool = True) -> Path:
    """The folder ``path``, made if it is missing (its own folder must exist: a mistyped path is not made
    level after level). Raises ``error(path, reason)`` for a path that is a file, whose folder is missing,
    or that cannot be made. ``make=False`` only checks, before a long computation whose results go there,
    that the folder (or its folder, where it is still to be made) takes a new file."""
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise error(path, "exists and is not a directory")
    if not target.exists():
        parent = target.parent if str(target.parent) else Path(".")
        if not parent.is_dir():
            raise error(path, f"no such folder: {parent}")
        if not make:
            _probe(parent, path, error)
            return target
        try:
            target.mkdir()
        except OSError as e:
            raise error(path, f"cannot make the directory: {e.strerror or e}") from None
    elif not make:
        _probe(target, path, error)
    return target


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically, with an ordinary file's mode.

    A symbolic link is followed: the file it points to is replaced, the link stays.
    Raises :class:`~trio_solver.errors.RecordError` in one line, naming the path, for a path
    :func:`output_target` refuses, a file that cannot be written (read-only folder, full disk) or ``text`` is not Unicode text (a lone surrogate); no temporary file
    survives any outcome.
    """
    target = output_target(path)
    parent = target.parent
    try:
        fd, tmp = tempfile.mkstemp(prefix=".trio-", suffix=".tmp", dir=parent)
    except OSError as e:
        raise RecordError(str(path), f"cannot write: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, new_file_mode())
        os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise RecordError(str(path), f"cannot write: {e.strerror or e}") from None
        if isinstance(e, UnicodeEncodeError):  # a lone surrogate: not Unicode text
            raise RecordError(str(path), f"cannot write: the text holds {describe(e.object[e.start])}") from None
        raise
