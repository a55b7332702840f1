"""Small helpers for text meant for people."""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["article", "plural", "one_of", "percent", "pm"]


def article(word: object) -> str:
    """``"a"`` or ``"an"`` before a number as it is read aloud: an 8, an 11, an 18%, a 7, a 100%."""
    digits = str(word).lstrip("<")
    eleven = digits[:2] in ("11", "18") and not (len(digits) > 2 and digits[2].isdigit())
    return "an" if digits.startswith("8") or eleven else "a"


def plural(n: int, noun: str, many: str | None = None) -> str:
    """``"1 trio"``, ``"2 trios"`` (``many``: an irregular plural)."""
    return f"{n} {noun if n == 1 else (many or noun + 's')}"


def one_of(choices: Sequence[str]) -> str:
    """The choices of a message, quoted as JSON writes them: ``"turn", "trio" or "win"``."""
    quoted = [f'"{c}"' for c in choices]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def percent(p: float, digits: int = 0) -> str:
    """A chance (a fraction 0 to 1) for people, the one format of every text and page: ``100%``,
    ``23%``, ``<1%``; with ``digits`` decimals ``23.4%``, ``<0.1%``. Halves round up (12.5% is
    ``13%``), exactly as the ``pct`` of the pages' scripts (``Math.round``), so a page's figures
    agree wherever they are written. A certainty reads ``100%`` and an exact zero ``0%`` (with
    ``digits``: ``0.0%``); anything between shows as neither."""
    scale = 10 ** digits
    x = p * 100 * scale
    whole = math.floor(x + 1e-9)
    n = whole + (1 if x - whole >= 0.5 - 1e-9 else 0)
    if p >= 1 - 1e-12:
        n = 100 * scale
    elif n >= 100 * scale:
        n = 100 * scale - 1  # not certain: never written as 100%
    if p > 0 and n == 0:
        return f"<{1 / scale:.{digits}f}%"
    return f"{n / scale:.{digits}f}%"


def pm(p: float, stderr: float | None, digits: int = 1) -> str:
    """``51.6% ± 2.1%``: a chance with the standard error of its estimate (``51.6%`` without one)."""
    if stderr is None:
        return percent(p, digits)
    return f"{percent(p, digits)} ± {percent(stderr, digits)}"
