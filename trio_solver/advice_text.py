"""The advisor's answer in words, for ``trio-solver advise`` and the hints of ``play``.

Each reveal gets its chances (trio this turn, win this turn, and with
``--objective game`` the chance to win the game); the best one gets its plan spelled out, one line
per value it may show: ``if it shows 5 (40%): then h2 h1 -> trio 60%``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .render import seat_name
from .search import Advice, Evaluation

__all__ = ["advice_text", "plan_lines"]


def plan_lines(e: Evaluation, limit: int = 6) -> list[str]:
    """The plan behind a reveal: what to do next for each value it may show, likeliest first."""
    lines = []
    steps = sorted((st for st in e.plan if st.probability >= 0.005), key=lambda st: -st.probability)
    for st in steps[:limit]:
        if st.then:
            nxt = "then " + " ".join(str(r) for r in st.then)
            lines.append(f"if it shows {st.value} ({st.probability:.0%}): {nxt} -> trio {st.p_trio:.0%}")
        else:
            lines.append(f"if it shows {st.value} ({st.probability:.0%}): "
                         + ("the trio is made" if st.p_trio >= 1 - 1e-9 else "stop (the turn fails)"))
    rest = sum(st.probability for st in e.plan) - sum(st.probability for st in steps[:limit])
    if rest >= 0.005:
        lines.append(f"other values ({rest:.0%}): no better plan")
    return lines


def advice_text(advice: Advice, names: Sequence[str] | None = None, limit: int | None = None) -> str:
    """Every legal reveal (or the first ``limit``) with its chances, then the best one's plan."""
    head = f"Advice for {seat_name(advice.seat, names)}, objective {advice.objective}"
    if advice.turn:
        head += f" (face up: {' '.join(advice.turn)})"
    if advice.approximate:
        head += "  [approximate: secret swaps]"
    game = bool(advice.evaluations) and advice.evaluations[0].p_game is not None
    extra = (f" {'win game':>9} {'±':>6} {'gap ±':>6}  (p_game, the chance to win the game; gap ±: the error "
             "of its difference from the first, on the same deals)") if game else ""
    lines = [head, f"  {'reveal':<7} {'trio chance':>11} {'win now':>8}{extra}"]
    rows = advice.evaluations if limit is None else advice.evaluations[:limit]
    for e in rows:
        cols = f" {e.p_game or 0.0:9.1%} {e.p_game_stderr or 0.0:6.1%} {e.p_game_gap_stderr or 0.0:6.1%}" if game else ""
        lines.append(f"  {str(e.reveal):<7} {e.p_trio:11.1%} {e.p_win:8.1%}{cols}")
    if limit is not None and len(advice.evaluations) > limit:
        lines.append(f"  ... {len(advice.evaluations) - limit} more")
    b = advice.best
    game_part = f"win game {b.p_game or 0.0:.1%} ± {b.p_game_stderr or 0.0:.1%}, " if game else ""
    lines.append(f"Best: {b.reveal} ({game_part}trio chance {b.p_trio:.1%}, win now {b.p_win:.1%})")
    lines.extend("  " + line for line in plan_lines(b))
    return "\n".join(lines)
