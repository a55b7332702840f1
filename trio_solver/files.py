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
from pathlib import Path

__all__ = ["write_text", "new_file_mode"]


def new_file_mode() -> int:
    """The mode ``open(path, "w")`` gives a new file: 0666 less the umask."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically, with an ordinary file's mode."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=".trio-", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, new_file_mode())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
