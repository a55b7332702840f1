"""Annotating a saved game: every decision against the advisor's best reveal.

A *decision* is one reveal made by a seat whose hand the record knows (every
seat in a full-deal record, the record keeper in a viewer record), judged on
that seat's own exact beliefs at that moment. The value of a reveal is
``p_trio + p_win`` (a trio that wins counts twice); the *loss* of a decision is
the highest value of any legal reveal (``advise(view).best_value``) minus the
value of the reveal played.
Labels, by loss:

========== ==========
loss        label
========== ==========
>= 0.05     inaccuracy
>= 0.15     mistake
>= 0.30     blunder
========== ==========

Swap choices in team play are not judged.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .engine import Game
from .record import Record, replay_view
from .reveal import Reveal
from .search import advise
from .events import Swap, Turn
from .view import PlayerView

__all__ = ["THRESHOLDS", "Decision", "SeatSummary", "Analysis", "analyse", "label_for"]

#: (minimum loss, label), largest first.
THRESHOLDS: tuple[tuple[float, str], ...] = ((0.30, "blunder"), (0.15, "mistake"), (0.05, "inaccuracy"))
#: A decision whose loss is below this counts as accurate.
ACCURATE = 0.01


def label_for(loss: float) -> str | None:
    """The label of a loss, or ``None`` below the inaccuracy threshold."""
    for threshold, name in THRESHOLDS:
        if loss >= threshold - 1e-12:
            return name
    return None


@dataclass(frozen=True)
class Decision:
    """One reveal made by a seat whose hand is known, with the advisor's verdict."""

    event: int
    reveal_index: int
    seat: int
    played: Reveal
    shown: int
    best: Reveal
    p_trio_played: float
    p_win_played: float
    p_trio_best: float
    p_win_best: float
    loss: float
    label: str | None
    face_up: tuple[str, ...]
    approximate: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "event": self.event, "reveal_index": self.reveal_index, "seat": self.seat,
            "played": self.played.to_json(), "shown": self.shown, "best": self.best.to_json(),
            "p_trio_played": self.p_trio_played, "p_win_played": self.p_win_played,
            "p_trio_best": self.p_trio_best, "p_win_best": self.p_win_best,
            "loss": self.loss, "label": self.label, "face_up": list(self.face_up),
        }


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    decisions: int
    accuracy: float
    """Share of decisions with a loss below 0.01."""
    average_loss: float
    inaccuracies: int
    mistakes: int
    blunders: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "decisions": self.decisions, "accuracy": self.accuracy,
                "average_loss": self.average_loss, "inaccuracies": self.inaccuracies,
                "mistakes": self.mistakes, "blunders": self.blunders}


@dataclass(frozen=True)
class Analysis:
    """A whole game annotated."""

    decisions: tuple[Decision, ...]
    seats: tuple[SeatSummary, ...]
    moments: tuple[str, ...]
    winner: int | None
    names: tuple[str, ...] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "thresholds": {name: t for t, name in THRESHOLDS},
            "decisions": [d.to_json() for d in self.decisions],
            "seats": [s.to_json() for s in self.seats],
            "moments": list(self.moments),
        }

    def text(self) -> str:
        """The human report."""
        lines = []
        names = self.names

        def who(s: int) -> str:
            return f"seat {s} ({names[s]})" if names else f"seat {s}"

        lines.append(f"{'event':>5} {'seat':>4} {'played':>7} {'best':>6} {'p_trio':>13} {'p_win':>13} "
                     f"{'loss':>6}  label")
        for d in self.decisions:
            lines.append(
                f"{d.event:>5} {d.seat:>4} {str(d.played) + '=' + str(d.shown):>7} {str(d.best):>6} "
                f"{d.p_trio_played:6.3f}/{d.p_trio_best:<6.3f} {d.p_win_played:6.3f}/{d.p_win_best:<6.3f} "
                f"{d.loss:6.3f}  {d.label or ''}")
        lines.append("")
        lines.append("Moments that decided the game:")
        lines.extend(f"  {m}" for m in self.moments)
        lines.append("")
        lines.append("Per seat: decisions, accuracy, average loss, inaccuracies/mistakes/blunders")
        for s in self.seats:
            lines.append(f"  {who(s.seat)}: {s.decisions} decisions, accuracy {s.accuracy:.0%}, average loss "
                         f"{s.average_loss:.3f}, {s.inaccuracies}/{s.mistakes}/{s.blunders}")
        if self.winner is not None:
            lines.append(f"Winner: {who(self.winner)}")
        return "\n".join(lines)

    def html(self, title: str = "Trio game analysis") -> str:
        """A self-contained page: the report and a chart of the chances through the game."""
        return _html(self, title)


def _decide(view: PlayerView, played: Reveal, shown: int, event: int, j: int) -> Decision:
    adv = advise(view, "trio")
    best = adv.best_value
    mine = adv.get(played)
    loss = max(0.0, (best.p_trio + best.p_win) - (mine.p_trio + mine.p_win))
    if loss < 1e-12:
        loss = 0.0
    return Decision(event, j, view.to_move, played, shown, best.reveal, mine.p_trio, mine.p_win,
                    best.p_trio, best.p_win, loss, label_for(loss), tuple(str(x) for x in view.turn),
                    adv.approximate)


def analyse(record: Record, progress: Callable[[int, int], None] | None = None) -> Analysis:
    """Judge every decision of every seat whose hand ``record`` knows."""
    known = set(record.known_seats())
    total = sum(len(e.reveals) for e in record.events if isinstance(e, Turn) and e.seat in known)
    decisions: list[Decision] = []
    done = 0
    game = Game(record.rules, record.deal, record.first_player) if record.deal is not None else None
    for k, event in enumerate(record.events):
        if isinstance(event, Swap):
            if game is not None:
                assert event.cards is not None
                game.swap(event.seats[0], event.seats[1], event.cards[0], event.cards[1])
            continue
        for j, shown in enumerate(event.reveals):
            if event.seat in known:
                if game is not None:
                    view = game.view(event.seat)
                else:
                    assert record.viewer is not None
                    partial = list(record.events[:k]) + ([Turn(event.seat, event.reveals[:j])] if j else [])
                    view = replay_view(record.rules, partial, seat=record.viewer.seat, hand=record.viewer.hand,
                                       first_player=record.first_player)
                decisions.append(_decide(view, shown.reveal, shown.value, k, j))
                done += 1
                if progress is not None:
                    progress(done, total)
            if game is not None:
                game.reveal(shown.reveal)
    seats = []
    for s in sorted(known):
        mine = [d for d in decisions if d.seat == s]
        n = len(mine)
        seats.append(SeatSummary(
            s, n,
            sum(1 for d in mine if d.loss < ACCURATE) / n if n else 1.0,
            sum(d.loss for d in mine) / n if n else 0.0,
            sum(1 for d in mine if d.label == "inaccuracy"),
            sum(1 for d in mine if d.label == "mistake"),
            sum(1 for d in mine if d.label == "blunder"),
        ))
    return Analysis(tuple(decisions), tuple(seats), tuple(_moments(record, decisions)), record.winner, record.names)


def _moments(record: Record, decisions: list[Decision]) -> list[str]:
    out: list[str] = []
    for k, e in enumerate(record.events):
        if isinstance(e, Turn) and len(e.reveals) == 3 and len({r.value for r in e.reveals}) == 1:
            won = record.winner == e.seat and k == len(record.events) - 1
            out.append(f"event {k}: seat {e.seat} takes the trio of {e.reveals[0].value}s"
                       + (" and wins" if won else ""))
    for d in decisions:
        if d.label in ("mistake", "blunder"):
            out.append(f"event {d.event}: seat {d.seat} plays {d.played} ({d.label}, loss {d.loss:.2f}); "
                       f"{d.best} gave p_trio {d.p_trio_best:.2f}")
    missed = [d for d in decisions if d.p_trio_best >= 0.999 and d.p_trio_played < 0.999]
    for d in missed:
        out.append(f"event {d.event}: seat {d.seat} had a certain trio with {d.best} and played {d.played}")
    out.sort(key=lambda m: int(m.split(":")[0].split()[1]))
    seen: set[str] = set()
    return [m for m in out if not (m in seen or seen.add(m))]  # type: ignore[func-returns-value]


_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")


def _html(a: Analysis, title: str) -> str:
    width, height, pad = 760, 260, 36
    n = max(len(a.decisions), 1)
    pts_best: list[str] = []
    circles: list[str] = []
    for i, d in enumerate(a.decisions):
        x = pad + (width - 2 * pad) * (i / max(n - 1, 1))
        yb = height - pad - (height - 2 * pad) * min(d.p_trio_best, 1.0)
        yp = height - pad - (height - 2 * pad) * min(d.p_trio_played, 1.0)
        pts_best.append(f"{x:.1f},{yb:.1f}")
        colour = _COLOURS[d.seat % len(_COLOURS)]
        tip = html.escape(f"event {d.event}, seat {d.seat}: {d.played} (p_trio {d.p_trio_played:.3f}), "
                          f"best {d.best} ({d.p_trio_best:.3f}){', ' + d.label if d.label else ''}")
        r = 5 if d.label in ("mistake", "blunder") else 3
        circles.append(f'<circle cx="{x:.1f}" cy="{yp:.1f}" r="{r}" fill="{colour}"><title>{tip}</title></circle>')
    axis = (f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#888"/>'
            f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="#888"/>'
            f'<text x="4" y="{pad + 4}" font-size="11">1.0</text><text x="4" y="{height - pad}" font-size="11">0</text>'
            f'<text x="{width / 2 - 60}" y="{height - 6}" font-size="11">decisions through the game</text>')
    legend = "".join(
        f'<span style="color:{_COLOURS[s.seat % len(_COLOURS)]}">&#9679; seat {s.seat}</span> ' for s in a.seats)
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
           f'aria-label="chance of a trio at each decision">{axis}'
           f'<polyline points="{" ".join(pts_best)}" fill="none" stroke="#bbb" stroke-width="1.5"/>'
           f'{"".join(circles)}</svg>')
    rows = "".join(
        f"<tr class='{d.label or ''}'><td>{d.event}</td><td>{d.seat}</td><td>{d.played}={d.shown}</td>"
        f"<td>{d.best}</td><td>{d.p_trio_played:.3f}</td><td>{d.p_trio_best:.3f}</td>"
        f"<td>{d.p_win_played:.3f}</td><td>{d.p_win_best:.3f}</td><td>{d.loss:.3f}</td><td>{d.label or ''}</td></tr>"
        for d in a.decisions)
    seats = "".join(
        f"<tr><td>{s.seat}</td><td>{s.decisions}</td><td>{s.accuracy:.0%}</td><td>{s.average_loss:.3f}</td>"
        f"<td>{s.inaccuracies}</td><td>{s.mistakes}</td><td>{s.blunders}</td></tr>" for s in a.seats)
    moments = "".join(f"<li>{html.escape(m)}</li>" for m in a.moments)
    data = html.escape(json.dumps(a.to_json()))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; font-size: 13px; }} td, th {{ padding: 2px 8px; border-bottom: 1px solid #eee; }}
tr.blunder {{ background: #fdd; }} tr.mistake {{ background: #fed; }} tr.inaccuracy {{ background: #ffe; }}
</style></head><body>
<h1>{html.escape(title)}</h1>
<p>Winner: {'seat ' + str(a.winner) if a.winner is not None else 'none yet'}.
Grey line: the best chance of a trio at each decision; dots: the chance of the reveal played (big dots: mistakes and blunders).</p>
{svg}
<p>{legend}</p>
<h2>Moments that decided the game</h2><ul>{moments}</ul>
<h2>Per seat</h2>
<table><tr><th>seat</th><th>decisions</th><th>accuracy</th><th>average loss</th><th>inaccuracies</th><th>mistakes</th><th>blunders</th></tr>{seats}</table>
<h2>Decisions</h2>
<table><tr><th>event</th><th>seat</th><th>played</th><th>best</th><th>p_trio</th><th>best p_trio</th><th>p_win</th><th>best p_win</th><th>loss</th><th>label</th></tr>{rows}</table>
<script type="application/json" id="analysis">{data}</script>
</body></html>
"""
