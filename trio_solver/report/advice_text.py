"""The advisor's answer in words, for ``trio-solver advise`` and the hints of ``play``.

Each reveal gets its chances (win this turn, trio this turn, and with
``--objective game`` the chance to win the game); the best one gets its plan spelled out, one line
per value it may show: ``if it shows 5 (40%): then h2 h1 -> trio 60%``. Every value the reveal can
show is listed (none folded away), and each line says only what can happen: a turn cannot stop
after its first card, and mid-turn any other value fails the turn.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .render import seat_name
from ..decide.search import Advice, Evaluation
from ..words import percent, pm

__all__ = ["advice_text", "plan_lines"]


def plan_lines(e: Evaluation, shown: int = 0, wins: Collection[int] = ()) -> list[str]:
    """The plan behind reveal ``e``: what happens and what to do next for each value it may show,
    likeliest first. ``shown`` is the number of cards already face up in the turn before this
    reveal; ``wins`` the values whose trio wins the game for the mover's side (marked as such)."""
    lines = []
    face = shown + 1  # cards face up once this reveal is made
    for st in sorted(e.plan, key=lambda st: (-st.probability, st.value)):
        if st.probability <= 0:
            continue
        head = f"if it shows {st.value} ({percent(st.probability)}): "
        win = " (wins the game)" if st.value in wins else ""
        if face == 3 or (st.p_trio >= 1 - 1e-9 and not st.then):
            lines.append(head + f"the trio of {st.value}s is made{win}")
        elif st.then:
            nxt = "then " + " ".join(str(r) for r in st.then)
            lines.append(head + f"{nxt} -> trio {percent(st.p_trio)}{win}")
        else:
            lines.append(head + f"no trio of {st.value}s can follow: the turn goes on and fails "
                         "at the first card that differs")
    if shown:
        rest = 1.0 - sum(st.probability for st in e.plan)
        if rest > 1e-9:
            lines.append(f"any other value ({percent(rest)}): the turn fails" if lines else
                         "it cannot show the value face up: the turn fails whatever it shows")
    return lines


#: What each objective ranks by, in the words of the advice's first line.
_RANKED = {"turn": "the turn's worth", "trio": "the trio chance", "win": "the chance to win now",
           "game": "the chance to win the game"}


def _fine(p: float) -> str:
    """A chance of the table: a second decimal below 1%, so that two rows ranked apart never read alike
    (as the board shows them)."""
    return percent(p, 2) if 0 < p < 0.01 else percent(p, 1)


def advice_text(advice: Advice, names: Sequence[str] | None = None, limit: int | None = None,
                wins: Collection[int] = ()) -> str:
    """Every legal reveal (or the first ``limit``) with its chances in the advice's order, then the
    best one's plan (``wins``: the values whose trio wins for the mover, see :func:`plan_lines`)."""
    ranked = _RANKED.get(advice.objective) if isinstance(advice.objective, str) else None
    head = f"Advice for {seat_name(advice.seat, names)}, best first by {ranked or 'its objective'}"
    if advice.turn:
        head += f" (face up: {' '.join(advice.turn)})"
    if advice.approximate:
        head += "  [approximate: secret swaps]"
    game = bool(advice.evaluations) and advice.evaluations[0].p_game is not None
    extra = f" {'win game':>15} {'gap ±':>6}" if game else ""
    lines = [head, f"  {'reveal':<7} {'win now':>8}  {'trio chance':>11}{extra}"]
    rows = advice.evaluations if limit is None else advice.evaluations[:limit]
    for i, e in enumerate(rows):
        # the chance and its error in columns of their own, so that the ± signs line up; the first row is
        # what the gaps are measured from, so it has none
        gap = "—" if i == 0 else percent(e.p_game_gap_stderr or 0.0, 1)
        cols = (f" {percent(e.p_game or 0.0, 1):>7} ± {percent(e.p_game_stderr or 0.0, 1):<5} "
                f"{gap:>6}" if game else "")
        lines.append(f"  {str(e.reveal):<7} {_fine(e.p_win):>8}  {_fine(e.p_trio):>11}{cols}")
    if limit is not None and len(advice.evaluations) > limit:
        lines.append(f"  ... {len(advice.evaluations) - limit} more")
    if game:
        lines.append("  (win game: the chance to win the game ± one standard error; gap ±: the standard error of "
                     "its difference from the first, on the same deals)")
        tied = [str(e.reveal) for e in advice.not_told_apart]
        if tied:
            lines.append(f"  Not told apart from {advice.best.reveal} by the playouts: {', '.join(tied)}; their "
                         "chances this turn (win now, trio chance) are exact.")
    b = advice.best
    game_part = f"win game {pm(b.p_game or 0.0, b.p_game_stderr or 0.0)}, " if game else ""
    lines.append(f"Best: {b.reveal} ({game_part}win now {_fine(b.p_win)}, trio chance {_fine(b.p_trio)})")
    lines.extend("  " + line for line in plan_lines(b, len(advice.turn), wins))
    return "\n".join(lines)
