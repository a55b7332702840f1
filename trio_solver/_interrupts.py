"""What a Ctrl-C leaves behind: :func:`after_interrupt` tells whether one lies behind an error.

Standard library only, so that :mod:`trio_solver.__main__` can use it before the command line loads.
"""

from __future__ import annotations

__all__ = ["after_interrupt"]


def after_interrupt(e: BaseException) -> bool:
    """Whether a Ctrl-C lies behind error ``e``: a ``KeyboardInterrupt`` is ``e`` itself or in its chain of
    causes and contexts (a clean-up that failed on the interrupt's way out, say a lock released in a
    library's ``finally``, or an interrupt Python turned into another error while a class was built)."""
    seen: set[int] = set()
    cur: BaseException | None = e
    while cur is not None and id(cur) not in seen:
        if isinstance(cur, KeyboardInterrupt):
            return True
        seen.add(id(cur))
        cur = cur.__cause__ or cur.__context__
    return False
