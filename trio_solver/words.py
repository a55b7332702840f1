"""Small helpers for text meant for people."""

from __future__ import annotations

import math

__all__ = ["article", "plural", "percent"]


def article(word: object) -> str:
    """``"a"`` or ``"an"`` before a number as it is read aloud: an 8, an 11, an 18%, a 7, a 100%."""
    digits = str(word).lstrip("<")
    eleven = digits[:2] in ("11", "18") and not (len(digits) > 2 and digits[2].isdigit())
    return "an" if digits.startswith("8") or eleven else "a"


def plural(n: int, noun: str, many: str | None = None) -> str:
    """``"1 trio"``, ``"2 trios"`` (``many``: an irregular plural)."""
    return f"{n} {noun if n == 1 else (many or noun + 's')}"


def percent(p: float) -> str:
    """A chance for people: ``100%``, ``23%``, ``<1%``. Halves round up (12.5% is ``13%``), exactly as
    the ``pct`` of the HTML report's script (``Math.round``), so a page's figures agree wherever
    they are written."""
    if p >= 1 - 1e-9:
        return "100%"
    if 0 < p < 0.005:
        return "<1%"
    x = p * 100
    whole = math.floor(x)
    return f"{whole + (1 if x - whole >= 0.5 else 0)}%"
