"""Analysis of many games: one summary per player name across a collection of records.

:func:`analyse_files` analyses every record (on local processes or Ray tasks, through
:func:`trio_solver.run.parallel.run_tasks`, the executor tournaments use too) and
:class:`Collection` sums the per-seat figures of each game by the player's
name: games, wins (a team win counts for every partner), scored decisions,
accuracy, average loss and the counts by label. A record that cannot be read
or analysed is listed with its one-line reason and left out of the sums.
"""

from __future__ import annotations

import csv
import io
import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .parallel import run_tasks
from ..report.analysis import DEFAULT_SAMPLES, Analysis, analyse, judged_by_text
from ..words import percent, plural
from ..decide.stopping import DEFAULT_CONFIDENCE
from .._text import blank as shows_nothing, csv_cell, name_key, pad, width
from ..errors import RecordError, TrioError
from ..game.record import Record

__all__ = ["PlayerTotals", "GameOutcome", "Collection", "analyse_files", "record_paths", "report_stems"]

T = TypeVar("T")
R = TypeVar("R")


def record_paths(args: Sequence[str]) -> list[str]:
    """The record files named by ``args``: files as given, directories as every entry whose name ends
    in ``.json``, sorted. An entry that is not a readable regular file (a dangling or looping symbolic
    link, a folder, a FIFO) is kept, so that :func:`analyse_files` lists it as skipped with its reason.
    A file named twice (or reached through two names) is kept once, where it first comes."""
    out: list[str] = []
    seen: set[str] = set()
    for a in args:
        names = sorted(os.path.join(a, f) for f in os.listdir(a) if f.endswith(".json")) if os.path.isdir(a) else [a]
        for name in names:
            key = os.path.realpath(name)
            if key not in seen:
                seen.add(key)
                out.append(name)
    return out


def report_stems(paths: Sequence[str]) -> list[str]:
    """A distinct file name stem per path, for one report each: the file's own name without ``.json``;
    a name already taken gets ``-2``, ``-3``... (``g.json`` of two folders: ``g``, then ``g-2``)."""
    taken: set[str] = set()
    out = []
    for p in paths:
        stem = os.path.splitext(os.path.basename(p))[0]
        name, n = stem, 1
        while name in taken:
            n += 1
            name = f"{stem}-{n}"
        taken.add(name)
        out.append(name)
    return out


@dataclass(frozen=True)
class GameOutcome:
    """One file of the collection: its analysis, or why there is none."""

    path: str
    analysis: Analysis | None
    error: str | None = None
    named: bool = True
    """Whether the record names its players; an unnamed seat (``seat 2``) is a player of this file only."""
    blank: tuple[int, ...] = ()
    """The seats whose name is blank: unnamed seats too."""


def _analyse_path(job: tuple[str, int, int, float]) -> GameOutcome:
    path, samples, seed, confidence = job
    try:
        mode = os.stat(path).st_mode  # follows symbolic links: a dangling or looping one fails here
        if not stat.S_ISREG(mode):
            what = "a folder" if stat.S_ISDIR(mode) else "a FIFO, device or socket"
            return GameOutcome(path, None, f"not a record file: {what}")
        record = Record.load(path)
        if not record.known_seats():
            return GameOutcome(path, None, "no seat's hand is known (a spectator record)")
        return GameOutcome(path, analyse(record, samples=samples, seed=seed, confidence=confidence),
                           named=record.names is not None,
                           blank=tuple(s for s, n in enumerate(record.names or ()) if shows_nothing(n)))
    except TrioError as e:  # the file is named once, by the note that lists it
        named = f"{RecordError(path, '').where}: "  # the path as an error names it
        return GameOutcome(path, None, str(e).removeprefix(named))
    except OSError as e:
        reason = e.strerror or str(e)
        if os.path.islink(path):
            reason = f"a symbolic link that leads to no file ({reason})"
        return GameOutcome(path, None, reason)


@dataclass
class PlayerTotals:
    """One player name's figures summed over the games it played (with a known hand)."""

    name: str
    games: int = 0
    wins: int = 0
    unfinished: int = 0
    """Games of ``games`` that stopped before anyone won (neither won nor lost)."""
    decisions: int = 0
    accurate: int = 0
    loss_sum: float = 0.0
    inaccuracies: int = 0
    mistakes: int = 0
    blunders: int = 0

    @property
    def accuracy(self) -> float | None:
        """Share of scored decisions with a loss below 0.01 (``None`` without any)."""
        return self.accurate / self.decisions if self.decisions else None

    @property
    def average_loss(self) -> float | None:
        return self.loss_sum / self.decisions if self.decisions else None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "games": self.games, "wins": self.wins, "unfinished": self.unfinished,
                "decisions": self.decisions,
                "accuracy": self.accuracy, "average_loss": self.average_loss,
                "inaccuracies": self.inaccuracies, "mistakes": self.mistakes, "blunders": self.blunders}


@dataclass
class Collection:
    """The games of a collection and the totals per player name."""

    outcomes: list[GameOutcome] = field(default_factory=list)
    samples: int = 0
    """Playouts per reveal of every game's analysis (0: judged by the turn)."""
    seed: int = 0
    confidence: float = DEFAULT_CONFIDENCE

    @property
    def judged_by(self) -> str:
        """``"game"`` or ``"turn"``, as an analysis's own ``judged_by``."""
        return "game" if self.samples > 0 else "turn"

    @property
    def analysed(self) -> list[GameOutcome]:
        return [o for o in self.outcomes if o.analysis is not None]

    @property
    def failed(self) -> list[GameOutcome]:
        return [o for o in self.outcomes if o.analysis is None]

    def players(self) -> list[PlayerTotals]:
        """Totals per player name, most games first, then by name; two names that look the same or differ
        only in capitals (the same :func:`~trio_solver._text.name_key`) are one player, under the spelling
        met first. The seats of a
        record without names, and seats with a blank name, are players of that file only (``seat 2 in games/g.json``)."""
        totals: dict[str, PlayerTotals] = {}
        for o in self.analysed:
            a = o.analysis
            assert a is not None
            for s in a.seats:
                named = o.named and s.seat not in o.blank
                name = a.players[s.seat] if named else f"{a.players[s.seat]} in {o.path}"
                t = totals.setdefault(name_key(name) if named else "\0" + o.path + name, PlayerTotals(name))
                t.games += 1
                t.wins += int(s.won)
                t.unfinished += int(a.winner is None)
                scored = [d for d in a.decisions if d.seat == s.seat and d.scored]
                t.decisions += len(scored)
                t.accurate += s.accurate
                t.loss_sum += sum(d.loss for d in scored)
                t.inaccuracies += s.inaccuracies
                t.mistakes += s.mistakes
                t.blunders += s.blunders
        return sorted(totals.values(), key=lambda t: (-t.games, t.name))

    def to_json(self) -> dict[str, Any]:
        return {
            "games": len(self.analysed),
            "judged_by": self.judged_by, "samples": self.samples, "seed": self.seed, "confidence": self.confidence,
            "players": [t.to_json() for t in self.players()],
            "files": [{"path": o.path, "result": o.analysis.result() if o.analysis else None,
                       "error": o.error} for o in self.outcomes],
        }

    def csv(self) -> str:
        """One row per player name, with a header row. A name that starts like a spreadsheet formula
        (``=``, ``+``, ``-``, ``@``) is written with a leading ``'`` (:func:`trio_solver._text.csv_cell`),
        so that a spreadsheet shows it as text instead of running it."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["name", "games", "wins", "unfinished", "decisions", "accuracy", "average_loss",
                    "inaccuracies", "mistakes", "blunders"])
        for t in self.players():
            w.writerow([csv_cell(t.name), t.games, t.wins, t.unfinished, t.decisions,
                        "" if t.accuracy is None else f"{t.accuracy:.4f}",
                        "" if t.average_loss is None else f"{t.average_loss:.4f}",
                        t.inaccuracies, t.mistakes, t.blunders])
        return buf.getvalue()

    def text(self) -> str:
        players = self.players()
        w = max([width(t.name) for t in players] + [6])
        n, unfinished = len(self.analysed), sum(o.analysis.winner is None for o in self.analysed if o.analysis)
        lines = [f"{plural(n, 'game')} analysed"
                 + (f" ({unfinished} unfinished: neither won nor lost)" if unfinished else "")
                 + (f", {plural(len(self.failed), 'file')} skipped" if self.failed else "")]
        lines.append(f"Judged by: {judged_by_text(self.samples, self.confidence, self.seed)}")
        lines.append("Choices: reveals that were a real choice. Accuracy: the share of them with no label and a "
                     "small loss. Avg loss: the mean loss per choice.")
        lines.append(f"  {'player':<{w}}  {'games':>5}  {'wins':>4}  {'unfin.':>6}  {'choices':>7}  {'accuracy':>8}  "
                     f"{'avg loss':>8}  {'inacc.':>6}  {'mistakes':>8}  {'blunders':>8}")
        for t in players:
            acc = "-" if t.accuracy is None else f"{t.accuracy:.0%}"
            loss = "-" if t.average_loss is None else percent(t.average_loss, 1)
            lines.append(f"  {pad(t.name, w)}  {t.games:>5}  {t.wins:>4}  {t.unfinished:>6}  {t.decisions:>7}  "
                         f"{acc:>8}  {loss:>8}  {t.inaccuracies:>6}  {t.mistakes:>8}  {t.blunders:>8}")
        for o in self.failed:
            lines.append(f"  skipped {o.path}: {o.error}")
        return "\n".join(lines)


def analyse_files(paths: Sequence[str], *, workers: int | None = None,
                  progress: Callable[[int, int], None] | None = None, samples: int = DEFAULT_SAMPLES,
                  seed: int = 0, confidence: float | None = None, backend: str = "local",
                  ray_address: str | None = None, on_note: Callable[[str], None] | None = None) -> Collection:
    """Analyse every record of ``paths`` (in order) as :func:`~trio_solver.report.analysis.analyse` does with
    ``samples``, ``seed`` and ``confidence`` (``None``: the default); ``progress(done, total)`` after each.

    The games run through :func:`trio_solver.run.parallel.run_tasks` (``backend`` ``"local"``: processes of
    this machine, ``"ray"``: Ray tasks, retried if a worker dies); the results do not depend on the
    backend or on ``workers``."""
    out = Collection(samples=samples, seed=seed, confidence=DEFAULT_CONFIDENCE if confidence is None else confidence)
    jobs = [(p, samples, seed, out.confidence) for p in paths]

    def done(outcome: GameOutcome) -> None:
        out.outcomes.append(outcome)
        if progress is not None:
            progress(len(out.outcomes), len(paths))

    run_tasks(_analyse_path, jobs, done, backend=backend, workers=workers, ray_address=ray_address,
              ordered=True, total=len(jobs), on_note=on_note)
    return out
