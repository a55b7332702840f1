"""Annotating a saved game: every decision against the best reveal, in the mover's chance to win.

A *decision* is one reveal made by a seat whose hand the record knows (every
seat in a full-deal record, the record keeper in a viewer record), judged on
that seat's own information at that moment.

**Judged by the game** (the default, ``samples > 0``): the loss of a decision is
the drop in the mover's chance to win the *game*, best reveal minus reveal
played, as a chess analysis judges by win-% loss. Every legal reveal is played
out on common deals drawn exactly from the mover's posterior (the advisor's plan
for the rest of the turn, then the rollout model of :mod:`trio_solver.decide.rollout`;
:class:`trio_solver.decide.evaluate.Race`), in doubling batches
(:class:`trio_solver.decide.stopping.Stopping`) until the decision's label is clear at
``confidence``: the confidence interval of its loss (paired differences on
common deals, :func:`trio_solver.decide.evaluate.paired_gap`) lies between two
thresholds. A reveal that is behind the leader at that confidence is dropped
from later batches. A decision is labelled only when its loss is above the
label's threshold at that confidence; when the cap of ``samples`` deals comes
first, or more deals would most likely neither raise its label nor make it clear
(:func:`judge_loss`), the decision says it is not sure (:attr:`Decision.sure`). Labels by game
loss: inaccuracy >= 0.05, mistake >= 0.10, blunder >= 0.20
(:data:`GAME_THRESHOLDS`). A reveal of a card the mover knew is worth the next decision's best reveal
when the plan's follow-up was clearly worse (:func:`_with_follow_ups`: one error is not charged to
two reveals). The chance that each seat wins the game is also
estimated after every turn (:func:`trio_solver.decide.evaluate.evaluate` from a
spectator's view in a full-deal record, else the record keeper's): the curve of
the chart, where luck (a card that happened to be there) shows as a jump that
no decision lost or won. The same record, options and seed give the same
figures and labels at every door.

**Judged by the turn** (``samples=0``, ``--quick``): the value of a reveal is
``p_trio + p_win`` on the mover's exact beliefs (a trio that wins counts twice);
the loss is the highest value of any legal reveal (``advise(view).best_value``)
minus the value of the reveal played. These turn-level figures are kept as
columns in both modes (``turn_loss``).

Only real choices are scored. A reveal is shown but not scored when every legal
reveal had the same value (nothing to choose), or when it was the one sensible
option: the reveal played was the best and every other reveal would have lost
at least 0.30 (a blunder's worth). Playing anything else in such a spot is
scored, and is a blunder.

Labels by turn loss:

========== ==========
loss        label
========== ==========
>= 0.05     inaccuracy
>= 0.15     mistake
>= 0.30     blunder
========== ==========

Accuracy is the share of scored decisions with no label and a loss below
0.01 by the turn, or below 0.02 (or not told apart from 0 at the confidence) by the game; ``None`` for
a seat that had no real choice. A trio taken in a turn whose own decision was
labelled, and whose reveal made the trio less likely than the best one, is told as luck, not skill. In team play a win belongs to the team;
swap choices are not judged.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .._text import blank, name_key, pad, width
from .. import _args, limits
from ..infer.beliefs import Beliefs
from ..infer.validate import contradiction_named
from ..game.state import Game
from ..errors import RecordError, ViewError
from ..decide.evaluate import MAX_SAMPLES, Posterior, Race, distinct_moves, evaluate
from ..game.record import Record
from ..game.reveal import Reveal
from ..game.rules import Rules
from ..decide.search import Advice, advise
from .analysis_html import page, played_best
from .render import won_with
from .seen import seen_frame
from ..game.knowledge import PublicReader
from ..decide.stopping import DEFAULT_CONFIDENCE, Stopping
from ..game.view import PlayerView
from ..words import article, plural
from ..words import percent as _pct
from ..words import pm as _pm
from .._display import html_of

__all__ = ["THRESHOLDS", "GAME_THRESHOLDS", "judged_by_text", "DEFAULT_SAMPLES", "DEFAULT_CONFIDENCE", "CURVE_SAMPLES", "ONLY_OPTION", "Decision", "SeatSummary", "Moment", "Analysis", "analyse",
           "label_for", "player_names"]

#: (minimum loss, label), largest first.
THRESHOLDS: tuple[tuple[float, str], ...] = ((0.30, "blunder"), (0.15, "mistake"), (0.05, "inaccuracy"))
#: (minimum loss in the chance to win the game, label), largest first.
GAME_THRESHOLDS: tuple[tuple[float, str], ...] = ((0.20, "blunder"), (0.10, "mistake"), (0.05, "inaccuracy"))
#: A decision whose loss is below this counts as accurate (judged by the turn).
ACCURATE = 0.01
#: The same, judged by the game.
ACCURATE_GAME = 0.02
#: The most posterior deals per candidate reveal when judging by the game.
DEFAULT_SAMPLES = 256
#: Deals of the first batch of a decision's race (then doubling up to ``samples``).
FIRST_BATCH = 32
#: The most playouts behind each point of the curve of win chances after every turn ...
CURVE_SAMPLES = 1000
#: ... which stops once each side's standard error is at most this.
CURVE_PRECISION = 0.03
#: Every other option losing at least this much makes the best reveal the only sensible one.
ONLY_OPTION = 0.30
#: At most this many decisions are told as key moments.
KEY_MOMENTS = 5

_ORDINAL = ("1st", "2nd", "3rd")


def judged_by_text(samples: int, confidence: float, seed: int) -> str:
    """How an analysis with ``samples`` playouts per reveal (0: by the turn only) judges, in words: ``the loss
    in the mover's chance to win the game (up to 256 playouts per reveal, ...; seed 0)`` or ``the chances
    of this turn ...``."""
    if samples > 0:
        return (f"the loss in the mover's chance to win the game (up to {samples} playouts per reveal, "
                f"until each label is clear at {confidence:.0%} confidence; seed {seed})")
    return "the chances of this turn (trio chance + win now), not the whole game"


def label_for(loss: float, thresholds: tuple[tuple[float, str], ...] = THRESHOLDS) -> str | None:
    """The label of a loss, or ``None`` below the inaccuracy threshold."""
    for threshold, name in thresholds:
        if loss >= threshold - 1e-12:
            return name
    return None


def player_names(record: Record) -> tuple[str, ...]:
    """One distinct name per seat: the record's names (``Ann (seat 2)`` where two look the same or differ
    only in capitals, by :func:`~trio_solver._text.name_key`), else ``seat N`` (for a blank name too, which
    no table could show)."""
    if not record.names:
        return tuple(f"seat {s}" for s in range(record.rules.players))
    named = [f"seat {s}" if blank(n) else n for s, n in enumerate(record.names)]
    keys = [name_key(n) for n in named]
    return tuple(f"{n} (seat {s})" if keys.count(keys[s]) > 1 else n for s, n in enumerate(named))


@dataclass(frozen=True)
class Decision:
    """One reveal made by a seat whose hand is known, with the advisor's verdict.

    ``event`` and ``reveal_index`` index the record's events and that turn's reveals
    (from 0); ``turn`` counts the game's turns from 1. ``scored`` is false for a
    reveal that was no real choice (see the module's text); its ``label`` is then ``None``.
    ``position`` is the table as the mover saw it (:func:`~trio_solver.report.seen.seen_frame`).
    """

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
    turn: int = 0
    scored: bool = True
    options: int = 1
    position: dict[str, Any] | None = None
    turn_loss: float = 0.0
    """The loss by the turn (``p_trio + p_win``), in both modes."""
    best_turn: Reveal | None = None
    """The best reveal by the turn."""
    p_game_played: float | None = None
    """The mover's chance to win the game after the reveal played (judged by the game)."""
    p_game_best: float | None = None
    loss_stderr: float | None = None
    """Standard error of a game loss (paired over the same playouts)."""
    sure: bool = True
    """Whether the label is clear at the analysis's confidence (judged by the game: the confidence
    interval of the loss lies between two thresholds); ``False`` when the cap on playouts came first."""
    loss_low: float | None = None
    """Judged by the game: the lower end of the loss's confidence interval (the label is that of this
    end: a decision is labelled only when its loss is above the label's threshold at the confidence)."""
    loss_high: float | None = None
    """Judged by the game: the upper end of the loss's confidence interval."""
    follow_up: Reveal | None = None
    """Judged by the game, for a reveal of a card the mover knew (its own, or one every player knew) that
    the turn went on from: the best next reveal of the turn, when the advisor's plan after it (the best
    chance of a trio) was clearly worse for the game. ``p_game_played`` is then the chance with this
    follow-up (the next decision's best), and the loss is measured from it: see :func:`_with_follow_ups`."""

    @property
    def within_noise(self) -> bool:
        """Judged by the game: a loss above zero that its confidence interval cannot tell from zero (no
        better reveal is named for it)."""
        return self.loss > 0 and self.loss_low is not None and self.loss_low <= 1e-12

    @property
    def verdict(self) -> str:
        """The verdict in words, the same in every view (tables, key moments, the board, the report):
        the label; ``"within noise"`` when the loss is not told apart from 0 (its interval reaches 0, however
        far up it goes: no better reveal is named); ``"inaccuracy (perhaps a blunder)"`` or ``"perhaps a
        mistake"`` when the loss is told apart from 0, the playouts stopped before its label was sure and the
        upper end of the loss reaches a worse label (never for the best reveal played); ``"clear choice"`` (the one sensible reveal) or ``"no
        choice"`` when not scored; ``""`` for a decision with no label."""
        if not self.scored:
            return "clear choice" if self.options > 1 else "no choice"
        if self.within_noise:
            return "within noise"
        label = self.label or ""
        if self.played == self.best:  # the best reveal was played: no doubt to cast on it
            return label
        worse = None if self.sure or self.loss_high is None else label_for(self.loss_high, GAME_THRESHOLDS)
        if worse is None or worse == self.label:
            return label
        perhaps = f"perhaps {'an' if worse[0] in 'aeiou' else 'a'} {worse}"
        return f"{label} ({perhaps})" if label else perhaps

    def to_json(self) -> dict[str, Any]:
        return {
            "event": self.event, "reveal_index": self.reveal_index, "turn": self.turn, "seat": self.seat,
            "played": self.played.to_json(), "shown": self.shown, "best": self.best.to_json(),
            "played_text": str(self.played), "best_text": str(self.best),
            "p_trio_played": self.p_trio_played, "p_win_played": self.p_win_played,
            "p_trio_best": self.p_trio_best, "p_win_best": self.p_win_best,
            "loss": self.loss, "label": self.label, "verdict": self.verdict, "scored": self.scored,
            "options": self.options,
            "turn_loss": self.turn_loss, "best_turn": (self.best_turn or self.best).to_json(),
            "p_game_played": self.p_game_played, "p_game_best": self.p_game_best, "loss_stderr": self.loss_stderr,
            "sure": self.sure, "loss_low": self.loss_low, "loss_high": self.loss_high,
            "follow_up": None if self.follow_up is None else str(self.follow_up),
            "face_up": list(self.face_up), "approximate": self.approximate, "position": self.position,
        }


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    decisions: int
    """Scored decisions (real choices)."""
    accuracy: float | None
    """Share of scored decisions with a loss below 0.01; ``None`` without any."""
    average_loss: float | None
    """Mean loss over scored decisions; ``None`` without any."""
    inaccuracies: int
    mistakes: int
    blunders: int
    name: str = ""
    reveals: int = 0
    """Every reveal of the seat that was looked at, scored or not."""
    trios: tuple[int, ...] = ()
    won: bool = False
    """The seat won, alone or with its team."""
    accurate: int = 0
    """Scored decisions that count as accurate."""

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "decisions": self.decisions, "reveals": self.reveals,
                "accuracy": self.accuracy, "average_loss": self.average_loss,
                "inaccuracies": self.inaccuracies, "mistakes": self.mistakes, "blunders": self.blunders,
                "trios": list(self.trios), "won": self.won}


@dataclass(frozen=True)
class Moment:
    """A key moment: the decision (``kind`` ``"decision"``) or trio (``"trio"``) at ``event``."""

    event: int
    reveal_index: int
    turn: int
    seat: int
    kind: str
    text: str
    decision: int | None = None
    """Index into :attr:`Analysis.decisions` of the decision told, if any."""

    def to_json(self) -> dict[str, Any]:
        return {"event": self.event, "reveal_index": self.reveal_index, "turn": self.turn, "seat": self.seat,
                "kind": self.kind, "text": self.text, "decision": self.decision}

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class CurvePoint:
    """Each seat's chance to win the game after ``turns`` turns (``event``: the last event then, -1 at the start).

    ``decisions`` is the number of decisions analysed before this point (where the
    chart puts it); ``position`` the table as seen from the analysis's perspective.
    """

    turns: int
    event: int
    decisions: int
    win_chance: tuple[float, ...]
    stderr: tuple[float, ...]
    position: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"turns": self.turns, "event": self.event, "decisions": self.decisions,
                "win_chance": list(self.win_chance), "stderr": list(self.stderr), "position": self.position}


@dataclass(frozen=True)
class Analysis:
    """A whole game annotated."""

    decisions: tuple[Decision, ...]
    seats: tuple[SeatSummary, ...]
    moments: tuple[Moment, ...]
    winner: int | None
    names: tuple[str, ...] | None
    players: tuple[str, ...] = ()
    """One distinct display name per seat (:func:`player_names`)."""
    rules: dict[str, Any] | None = None
    teams: tuple[tuple[int, ...], ...] = ()
    turns: int = 0
    trios: tuple[tuple[int, int, int, int], ...] = ()
    """``(event, turn, seat, value)`` of every trio taken."""
    to_move: int | None = None
    judged_by: str = "turn"
    """``"game"``: losses in the mover's chance to win the game; ``"turn"``: in ``p_trio + p_win``."""
    samples: int = 0
    seed: int = 0
    confidence: float = DEFAULT_CONFIDENCE
    curve: tuple[CurvePoint, ...] = ()
    """Each seat's chance to win the game at the start and after every turn (judged by the game)."""
    viewer: int | None = None
    """Whose information the curve uses: ``None`` (a spectator) for a full-deal record, else the record keeper."""
    in_turn: bool = False
    """Whether the record stops in the middle of its last turn (counted in ``turns``)."""

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats credited with the win (the whole team in team play)."""
        if self.winner is None:
            return ()
        for team in self.teams:
            if self.winner in team:
                return tuple(team)
        return (self.winner,)

    def result(self) -> str:
        """One line: who won, or that the game is unfinished."""
        p = self.players
        turns = plural(self.turns, "turn")
        if self.winner is None:
            who = f"; {p[self.to_move]} to move" if self.to_move is not None and p else ""
            return (f"unfinished in turn {self.turns}" if self.in_turn else f"unfinished after {turns}") + who
        trios = [v for (_, _, s, v) in self.trios if s in self.winners]
        said = won_with(Rules.from_json(self.rules), trios) if self.rules else won_with(Rules(3), trios)
        what = f"with {said} " if said else ""
        if len(self.winners) > 1:
            team = " & ".join(p[s] for s in self.winners)
            return f"team {team} wins {what}after {turns} ({p[self.winner]} took the last trio)"
        return f"{p[self.winner]} wins {what}after {turns}"

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "names": list(self.players),
            "teams": [list(t) for t in self.teams],
            "winner": self.winner,
            "winners": list(self.winners),
            "result": self.result(),
            "turns": self.turns,
            "in_turn": self.in_turn,
            "trios": [{"event": e, "turn": t, "seat": s, "value": v} for (e, t, s, v) in self.trios],
            "judged_by": self.judged_by,
            "viewer": self.viewer,
            "samples": self.samples,
            "seed": self.seed,
            "confidence": self.confidence,
            "thresholds": {name: t for t, name in (GAME_THRESHOLDS if self.judged_by == "game" else THRESHOLDS)},
            "accuracy_rule": self.accuracy_rule(),
            "curve": [c.to_json() for c in self.curve],
            "decisions": [d.to_json() for d in self.decisions],
            "seats": [s.to_json() for s in self.seats],
            "moments": [m.to_json() for m in self.moments],
        }

    def accuracy_rule(self) -> str:
        """What counts as an accurate choice in this analysis, in words (the pages' legend)."""
        if self.judged_by == "game":
            return (f"the share of choices with no label and a loss below {ACCURATE_GAME:.0%}, or a loss the "
                    f"playouts do not tell apart from 0 at {self.confidence:.0%} confidence")
        return f"the share of choices with a loss below {ACCURATE:.0%}"

    def header(self) -> str:
        """Who played, the mode, the result, how the decisions were judged, and (for a record keeper's record
        or team play) whose and which decisions were."""
        r = self.rules or {}
        mode = f"{r.get('players', len(self.players))} players, {r.get('mode', '?')}"
        if self.teams and len(self.teams[0]) > 1:
            mode += ", teams " + " vs ".join(" & ".join(self.players[s] for s in t) for t in self.teams)
        how = "Judged by: " + self.judged_by_text() + ("; turn-level chances as columns" if self.judged_by == "game" else "")
        lines = [f"Players: {', '.join(self.players)}", f"Game: {mode}", f"Result: {self.result()}", how]
        whose = (f"only {self.players[self.viewer]}'s reveals (the one hand the record knows)"
                 if self.viewer is not None and self.players else "")
        if self.teams and len(self.teams[0]) > 1:
            lines.append("Judged: " + (whose + "; swaps are not judged" if whose else "every reveal; swaps are not judged"))
        elif whose:
            lines.append("Judged: " + whose)
        return "\n".join(lines)

    def judged_by_text(self) -> str:
        """How the decisions were judged, in words (:func:`judged_by_text`)."""
        return judged_by_text(self.samples, self.confidence, self.seed)

    def summary_text(self) -> str:
        """The per-player table."""
        w = max([width(s.name) for s in self.seats] + [6])
        lines = [f"  {'player':<{w}}  {'choices':>7}  {'accuracy':>8}  {'avg loss':>8}  {'inacc.':>6}  "
                 f"{'mistakes':>8}  {'blunders':>8}  trios"]
        for s in self.seats:
            acc = "-" if s.accuracy is None else f"{s.accuracy:.0%}"
            loss = "-" if s.average_loss is None else _pct(s.average_loss, 1)
            trios = ", ".join(map(str, s.trios)) or "-"
            won = "  (won)" if s.won else ""
            lines.append(f"  {pad(s.name, w)}  {s.decisions:>7}  {acc:>8}  {loss:>8}  {s.inaccuracies:>6}  "
                         f"{s.mistakes:>8}  {s.blunders:>8}  {trios}{won}")
        return "\n".join(lines)

    def table_text(self) -> str:
        """Every reveal looked at, one line each, with headings."""
        w = max([width(n) for n in self.players] + [6])
        game = self.judged_by == "game"
        lines = [
            "Trio chance: the chance of taking a trio this turn, for the reveal played / the best reveal.",
            "Win now: the chance of winning the game this turn, the same way.",
        ]
        if game:
            lines += ["Win game: the mover's chance to win the game, for the reveal played / the best by it.",
                      "Loss: the drop in the chance to win the game, ± one standard error (a label goes by the "
                      f"loss's likely range, at {self.confidence:.0%}). 'Clear choice' (the one "
                      "sensible reveal) and 'no choice' are not scored;",
                      "'within noise': the loss is not told apart from 0, so no better reveal is named, nor its "
                      "chances (best: '-');",
                      "'perhaps a ...': the playouts stopped (at their cap, or where more would most likely "
                      f"change nothing) before the label was clear at {self.confidence:.0%}; it may be that bad."]
        else:
            lines += ["Loss: best minus played, counting a trio once and a trio that wins twice.",
                      "'Clear choice' (the one sensible reveal) and 'no choice' are not scored."]
        lines.append(f"  {'turn':>4} {'reveal':>6}  {'player':<{w}}  {'played':<7} {'best':<6} {'trio chance':>11}  "
                     f"{'win now':>9}  " + (f"{'win game':>9}  " if game else "") + f"{'loss':>13}  label")
        for d in self.decisions:
            label = d.verdict
            lines.append(
                f"  {d.turn:>4} {_ORDINAL[d.reveal_index]:>6}  {pad(self.players[d.seat], w)}  "
                f"{str(d.played) + '=' + str(d.shown):<7} {'-' if d.within_noise else str(d.best):<6} "
                f"{played_best(d, d.p_trio_played, d.p_trio_best, '/'):>11}  "
                f"{played_best(d, d.p_win_played, d.p_win_best, '/'):>9}  "
                + (f"{played_best(d, d.p_game_played, d.p_game_best, '/'):>9}  " if game else "")
                + f"{_pm(d.loss, d.loss_stderr):>13}  {label}".rstrip())
        return "\n".join(lines)

    def text(self, all_decisions: bool = False) -> str:
        """The human report: header, per-player summary, key moments; the full table if ``all_decisions``."""
        out = [self.header(), "", "Per player (choices: reveals that were a real choice):", self.summary_text(), ""]
        if self.moments:
            out.append("Key moments:")
            out.extend(f"  {m.text}" for m in self.moments)
        else:
            out.append("Key moments: none (no labelled decision, no winning trio).")
        if all_decisions:
            out += ["", "Every reveal:", self.table_text()]
        else:
            out += ["", "(--all lists every reveal)"]
        return "\n".join(out)

    def _repr_html_(self) -> str:
        """The summary in a notebook (:func:`trio_solver.report.notebook.analysis_summary_html`)."""
        return html_of(self)

    def html(self, title: str = "Trio game analysis") -> str:
        """A self-contained page: the report, a chart with clickable points, and the positions.

        ``title`` (a string; :class:`~trio_solver.errors.ViewError` otherwise) is shown with its
        control characters escaped, as every text of the page is."""
        return page(self, _args.instance("title", title, str, ViewError))


@dataclass(frozen=True)
class _GameVerdict:
    """A decision judged by the game: the chances to win after the reveal played and after the best, the
    best reveal, the loss (point estimate, its paired error and its confidence interval)."""

    p_played: float
    p_best: float
    best: Reveal
    loss: float
    stderr: float
    low: float
    high: float
    played_stderr: float
    best_stderr: float
    knew: bool
    """Whether the mover knew the card it revealed (its own, or one every player knew)."""


def _band(loss: float) -> int:
    """Which of the label bands a loss falls in (0: no label ... 3: blunder)."""
    return sum(1 for t, _ in GAME_THRESHOLDS if loss >= t - 1e-12)


def _judge_by_game(view: PlayerView, beliefs: Beliefs, adv: Advice, played: Reveal, stopping: Stopping,
                   seed: int) -> _GameVerdict:
    """Race every distinct legal reveal on common posterior deals until the loss of ``played`` is clear
    (:func:`judge_loss`)."""
    post = Posterior(view, beliefs)
    firsts = distinct_moves(view, post.memory, adv.evaluations)
    rep = post.memory.alike(view, played)
    mine = next(i for i, e in enumerate(firsts) if post.memory.alike(view, e.reveal) == rep)
    race = Race.on(post, firsts, seed)
    best, lead, lead_se, low, high = judge_loss(race, mine, stopping)
    p_played, played_se = race.estimate(mine)
    p_best, best_se = race.estimate(best)
    knew = view.own_value(played) is not None or post.memory.knows(view, played)
    return _GameVerdict(p_played, p_best, played if best == mine else firsts[best].reveal,
                        lead, lead_se, low, high, played_se, best_se, knew)


def judge_loss(race: Race, mine: int, stopping: Stopping) -> tuple[int, float, float, float, float]:
    """Run ``race`` until the loss of candidate ``mine`` is clear at ``stopping.confidence`` (its confidence
    interval within one label band), the cap, or futility (more deals would most likely neither raise
    the label nor make it clear: see ``futile`` below): (the best candidate, the loss, its paired standard error,
    the interval's ends). The loss is the lead of the best candidate over ``mine`` (0 when none leads);
    the interval, the widest of the leads of the candidates still in the race at ``z`` paired standard
    errors, within 0 and 1."""

    def gaps(r: Race) -> list[tuple[float, float]]:
        """The lead over ``mine`` of every other candidate still in the race, with its paired error."""
        return [r.gap(i, mine) for i in r.alive if i != mine]

    def bounds(leads: list[tuple[float, float]], z: float) -> tuple[float, float]:
        low = high = 0.0
        for gap, se in leads:
            low, high = max(low, gap - z * se), max(high, gap + z * se)
        return min(low, 1.0), min(high, 1.0)

    thresholds = sorted(t for t, _ in GAME_THRESHOLDS)

    def futile(leads: list[tuple[float, float]], low: float, n: int) -> bool:
        """Whether more deals would most likely change nothing: the loss's lower end (``low``) would need
        to pass the next threshold above it, or its upper end to get under that threshold (the label
        would be sure), and the leading gap is out of reach of both
        (:meth:`~trio_solver.decide.stopping.Stopping.out_of_reach`: two movements for a higher label,
        one for a sure one)."""
        higher = [t for t in thresholds if t > low]
        if not leads or not higher:
            return False
        lead, se = max(leads)
        return (stopping.out_of_reach(lead, se, n, lambda half: [(higher[0] + half, math.inf)])
                and stopping.out_of_reach(lead, se, n, lambda half: [(-math.inf, higher[0] - half)], reach=1.0))

    def decided(r: Race, z: float) -> bool:
        leads = gaps(r)
        low, high = bounds(leads, z)
        return _band(low) == _band(high) or futile(leads, low, r.tallies[mine].samples)

    race.run(stopping, decided, keep=[mine])
    low, high = bounds(gaps(race), stopping.z())
    best, lead, lead_se = mine, 0.0, 0.0
    for i in race.alive:
        if i != mine:
            gap, se = race.gap(i, mine)
            if gap > lead:
                best, lead, lead_se = i, gap, se
    return best, (lead if lead >= 1e-12 else 0.0), lead_se, low, high


@dataclass(frozen=True)
class _Judgement:
    """A decision, with what :func:`_with_follow_ups` reads: whether the mover knew the card it revealed, and
    the standard errors of its two chances to win the game (``None`` when not judged by the game)."""

    decision: Decision
    knew: bool
    played_stderr: float | None = None
    best_stderr: float | None = None


def _decide(view: PlayerView, played: Reveal, shown: int, event: int, j: int, turn: int,
            names: Sequence[str], stopping: Stopping | None = None, seed: int = 0,
            reader: PublicReader | None = None) -> _Judgement:
    """Judge one reveal: by the turn always, by the game when ``stopping`` is given and it is a real choice."""
    beliefs = Beliefs(view)
    adv = advise(view, "trio", beliefs=beliefs)
    best = adv.best_value
    mine = adv.get(played)
    top = best.p_trio + best.p_win
    loss = max(0.0, top - (mine.p_trio + mine.p_win))
    if loss < 1e-12:
        loss = 0.0
    # a reveal as good as the best is the best: no other reveal, nor its figures, is named for a loss of 0
    top_reveal = played if loss == 0.0 else best.reveal
    top_figures = mine if loss == 0.0 else best
    values = [e.p_trio + e.p_win for e in adv.evaluations]
    distinct = len({round(v, 9) for v in values})
    others = [v for e, v in zip(adv.evaluations, values) if e.reveal != played]
    only = loss == 0.0 and bool(others) and max(others) <= top - ONLY_OPTION + 1e-12
    scored = distinct > 1 and not only
    position = seen_frame(view, names, reader=reader)
    face = tuple(str(x) for x in view.turn)
    if stopping is not None and scored:
        v = _judge_by_game(view, beliefs, adv, played, stopping, seed)
        label = label_for(v.low, GAME_THRESHOLDS)
        return _Judgement(Decision(event, j, view.to_move, played, shown, v.best, mine.p_trio, mine.p_win,
                                adv.get(v.best).p_trio, adv.get(v.best).p_win, v.loss, label, face,
                                adv.approximate, turn, scored, distinct, position, loss, top_reveal,
                                v.p_played, v.p_best, v.stderr, _band(v.low) == _band(v.high), v.low, v.high),
                           v.knew, v.played_stderr, v.best_stderr)
    return _Judgement(Decision(event, j, view.to_move, played, shown, top_reveal, mine.p_trio, mine.p_win,
                            top_figures.p_trio, top_figures.p_win, loss, label_for(loss) if scored else None,
                            face, adv.approximate, turn, scored, distinct, position, loss, top_reveal), False)


def _with_follow_ups(judged: Sequence[_Judgement], z: float) -> list[Decision]:
    """The decisions, a reveal of a card the mover knew judged by its best follow-up in the turn.

    Each reveal is played out with the advisor's plan for the rest of its turn (the best chance of a trio).
    Where the mover knew the card it revealed (its own, or one every player knew), the position after the reveal
    is the one the next decision of the turn judges, on the same knowledge: the reveal is worth that decision's
    best reveal. When that is clearly more (by more than ``z`` standard errors of the difference) than the
    plan gave, the plan's follow-up was a mistake of its own, which the next decision is charged with; the reveal
    before it takes the chance with the best follow-up (``follow_up``), and its loss, interval and label are
    measured from it (the errors of two independent races: no pairing). Read from the turn's last reveal back,
    so that a follow-up itself judged by its own best follow-up counts as that."""
    out = [j.decision for j in judged]
    best_se = [j.best_stderr for j in judged]
    for k in range(len(out) - 2, -1, -1):
        d, e, j = out[k], out[k + 1], judged[k]
        if not (j.knew and e.event == d.event and e.reveal_index == d.reveal_index + 1):
            continue
        follow, follow_se = e.p_game_best, best_se[k + 1]
        if (d.p_game_played is None or d.p_game_best is None or follow is None or follow_se is None
                or j.played_stderr is None or j.best_stderr is None):
            continue
        if follow - d.p_game_played <= z * math.hypot(follow_se, j.played_stderr):
            continue  # the plan's follow-up is not told apart from the best one
        if follow >= d.p_game_best:  # the reveal played, with its best follow-up, is the best reveal
            out[k] = replace(d, best=d.played, p_trio_best=d.p_trio_played, p_win_best=d.p_win_played,
                             loss=0.0, label=None, p_game_played=follow, p_game_best=follow, loss_stderr=0.0,
                             sure=True, loss_low=0.0, loss_high=0.0, follow_up=e.best)
            best_se[k] = follow_se
            continue
        loss, se = d.p_game_best - follow, math.hypot(j.best_stderr, follow_se)
        low, high = max(loss - z * se, 0.0), min(loss + z * se, 1.0)
        out[k] = replace(d, loss=loss, label=label_for(low, GAME_THRESHOLDS), p_game_played=follow,
                         loss_stderr=se, sure=_band(low) == _band(high), loss_low=low, loss_high=high,
                         follow_up=e.best)
    return out


def _is_turn(event: object) -> bool:
    return hasattr(event, "reveals")


def analyse(record: Record, progress: Callable[[int, int], None] | None = None, *,
            samples: int = DEFAULT_SAMPLES, seed: int = 0, confidence: float = DEFAULT_CONFIDENCE) -> Analysis:
    """Judge every decision of every seat whose hand ``record`` knows.

    ``samples > 0`` judges by the mover's chance to win the game, with at most that many posterior
    deals per candidate reveal, stopping once each label is clear at ``confidence`` (1: always
    ``samples``), and adds the curve of win chances after every turn; ``samples=0`` judges by the
    chances of the turn only (fast). The same arguments give the same figures. ``progress(done,
    total)`` is called after each decision and each point of the curve. The positions are walked
    forward one event at a time, never replayed from the start. Stopped by a time limit
    (:mod:`trio_solver.limits`), it raises :class:`~trio_solver.errors.LimitError` naming ``analyse``.
    A record that knows no seat's hand (a spectator's) raises :class:`~trio_solver.errors.RecordError`.
    """
    with limits.named("analyse"):
        with contradiction_named(record):
            return _analyse(record, progress, samples=samples, seed=seed, confidence=confidence)


def _analyse(record: Record, progress: Callable[[int, int], None] | None, *,
             samples: int, seed: int, confidence: float) -> Analysis:
    """:func:`analyse`'s work."""
    if not isinstance(record, Record):
        raise ViewError(f"record: expected a Record, got {type(record).__name__}")
    if progress is not None and not callable(progress):
        raise ViewError(f"progress: expected a function of (done, total) or null, got {_args.show(progress)}")
    _args.int_in("samples", samples, 0, MAX_SAMPLES, ViewError, "a number of deals")
    _args.int_in("seed", seed, *_args.SEED_RANGE, ViewError)
    stopping = Stopping(confidence, max(samples, 1), FIRST_BATCH)
    judge = stopping if samples > 0 else None
    known = set(record.known_seats())
    if not known:
        raise RecordError("record", "no seat's hand is known: a spectator record cannot be analysed")
    names = player_names(record)
    # events are turns (with ``reveals``) or swaps (with ``seats``); read by their fields, so this module
    # does not depend on where the event classes live
    all_events: list[Any] = list(record.events)
    total = sum(len(e.reveals) for e in all_events if _is_turn(e) and e.seat in known)
    if samples > 0:
        total += 1 + sum(1 for e in record.events if _is_turn(e))
    judged: list[_Judgement] = []
    trios: list[tuple[int, int, int, int]] = []
    curve: list[CurvePoint] = []
    done = 0
    turn = 0
    game = Game(record.rules, record.deal, record.first_player) if record.deal is not None else None
    walk: PlayerView | None = None
    if game is None and record.viewer is not None:  # a viewer's record (a spectator's is refused above)
        walk = PlayerView.start(record.rules, record.viewer.seat, record.viewer.hand, record.first_player)

    # one reader per seat's view: the frames of the whole game cost one replay each
    readers: dict[int | None, PublicReader] = {}

    def tick() -> None:
        nonlocal done
        limits.check("analyse")
        done += 1
        if progress is not None:
            progress(done, total)

    def now(seat: int | None) -> PlayerView:
        """The position now: ``seat``'s in a full-deal record (``None``: a spectator's), else the keeper's."""
        if game is not None:
            return game.view(seat)
        assert walk is not None
        return walk

    def point(k: int) -> None:
        if samples <= 0:
            return
        view = now(None)
        ev = evaluate(view, samples=CURVE_SAMPLES, seed=seed * 7 + 3 + k, precision=CURVE_PRECISION)
        curve.append(CurvePoint(turn, k, len(judged), ev.win_chance, ev.stderr,
                                seen_frame(view, names, reader=readers.setdefault(None, PublicReader()))))
        tick()

    point(-1)
    for k, event in enumerate(all_events):
        if not _is_turn(event):
            if game is not None:
                assert event.cards is not None
                game.swap(event.seats[0], event.seats[1], event.cards[0], event.cards[1])
            else:
                assert walk is not None
                walk = walk.push_swap(event.seats, event.cards)
            continue
        turn += 1
        if event.took_trio:
            trios.append((k, turn, event.seat, event.reveals[0].value))
        for j, shown in enumerate(event.reveals):
            if event.seat in known:
                judged.append(_decide(now(event.seat), shown.reveal, shown.value, k, j, turn, names, judge,
                                      seed * 1_000_003 + len(judged),
                                      readers.setdefault(event.seat, PublicReader())))
                tick()
            if game is not None:
                game.reveal(shown.reveal)
            else:
                assert walk is not None
                walk = walk.push(shown.reveal, shown.value)
        point(k)
    teams = record.rules.teams_of_seats
    winner = record.winner
    winners: set[int] = set()
    if winner is not None:
        winners = next((set(t) for t in teams if winner in t), {winner})
    seats = []
    by_game = samples > 0

    z = stopping.z()
    decisions = _with_follow_ups(judged, z) if by_game else [j.decision for j in judged]

    def accurate(d: Decision) -> bool:
        if d.label is not None:
            return False
        if by_game:
            return d.loss < ACCURATE_GAME or d.loss <= z * (d.loss_stderr or 0.0)
        return d.loss < ACCURATE

    for s in sorted(known):
        mine = [d for d in decisions if d.seat == s]
        scored = [d for d in mine if d.scored]
        n = len(scored)
        seats.append(SeatSummary(
            s, n,
            sum(1 for d in scored if accurate(d)) / n if n else None,
            sum(d.loss for d in scored) / n if n else None,
            sum(1 for d in scored if d.label == "inaccuracy"),
            sum(1 for d in scored if d.label == "mistake"),
            sum(1 for d in scored if d.label == "blunder"),
            names[s], len(mine), tuple(v for (_, _, t, v) in trios if t == s), s in winners,
            sum(1 for d in scored if accurate(d)),
        ))
    final = record.game() if record.deal is not None else record.view()
    return Analysis(tuple(decisions), tuple(seats), tuple(_moments(record, decisions, trios, names)), winner,
                    record.names, names, record.rules.to_json(), teams, turn, tuple(trios),
                    None if winner is not None else final.to_move, "game" if by_game else "turn", samples, seed,
                    confidence, tuple(curve), None if game is not None or record.viewer is None else record.viewer.seat,
                    winner is None and bool(final.turn))


def _reason(d: Decision) -> str:
    """Why the best reveal was better: the chance to win the game (judged by it), and this turn's chances."""
    def chance(p_trio: float, p_win: float) -> str:
        if p_win >= 1 - 1e-9:
            return "a certain win"
        trio = ("a certain trio" if p_trio >= 1 - 1e-9 else "no chance of a trio" if p_trio <= 1e-9
                else f"{article(_pct(p_trio))} {_pct(p_trio)} chance of a trio")
        return trio + (f" ({_pct(p_win)} to win the game now)" if p_win > 0.005 else "")

    turn = (f"{d.best} would have given {chance(d.p_trio_best, d.p_win_best)}, "
            f"{d.played} gave {chance(d.p_trio_played, d.p_win_played)}")
    if d.p_game_played is None or d.p_game_best is None:
        return turn
    why = "; less chance of a trio now, more of the game" if d.p_trio_best < d.p_trio_played - 1e-9 else ""
    then = f" with {d.follow_up} next, the best follow-up" if d.follow_up is not None else ""
    return (f"with {d.best} the chance to win the game would have been {_pct(d.p_game_best)}, with {d.played} "
            f"it was {_pct(d.p_game_played)}{then} (this turn: {turn}){why}")


def _verdict(d: Decision) -> str:
    """The verdict and the loss in words, with one range: ``Mistake (perhaps a blunder), loss 14.0% (likely 10.1%
    to 17.9%).`` (the confidence interval the label goes by; the standard error stays in the JSON). A loss
    known exactly (the turn decides the game, no playout needed) has no range: ``Blunder, loss 36.1%.``"""
    words = d.verdict.capitalize()
    if d.loss_low is None or d.loss_high is None or _pct(d.loss_low, 1) == _pct(d.loss_high, 1):
        return f"{words}, loss {_pct(d.loss, 1)}."
    return f"{words}, loss {_pct(d.loss, 1)} (likely {_pct(d.loss_low, 1)} to {_pct(d.loss_high, 1)})."


def _place(reveal: Reveal, names: Sequence[str], mover: int) -> str:
    """The card a reveal asks for, as a player says it: ``Dan's highest card``, ``Bob's own lowest card``,
    ``a centre card``."""
    if reveal.is_centre:
        return "a centre card"
    end = "lowest" if reveal.kind == "lowest" else "highest"
    own = " own" if reveal.index == mover else ""
    return f"{names[reveal.index]}'s{own} {end} card"


def _moments(record: Record, decisions: list[Decision], trios: list[tuple[int, int, int, int]],
             names: Sequence[str]) -> list[Moment]:
    """The few largest losses, the trios that came from a poor decision, and the winning trio, in order."""
    worst = sorted((i for i, d in enumerate(decisions) if d.label is not None),
                   key=lambda i: -decisions[i].loss)[:KEY_MOMENTS]
    out: list[Moment] = []
    for i in worst:
        d = decisions[i]
        text = (f"Turn {d.turn}, {names[d.seat]}, {_ORDINAL[d.reveal_index]} reveal: played {d.played} "
                f"({_place(d.played, names, d.seat)}, showed {d.shown}), better {d.best} "
                f"({_place(d.best, names, d.seat)}) - {_reason(d)}. {_verdict(d)}")
        out.append(Moment(d.event, d.reveal_index, d.turn, d.seat, "decision", text, i))
    last = len(record.events) - 1
    for (k, turn, seat, value) in trios:
        # luck: a poor decision of the turn that made the trio less likely than the best reveal would have
        poor = [d for d in decisions if d.event == k and d.label is not None
                and d.p_trio_played < min(d.p_trio_best, 1.0) - 1e-9]
        wins = record.winner == seat and k == last
        if not (poor or wins):
            continue
        text = f"Turn {turn}, {names[seat]} takes the trio of {value}s" + (" and wins the game" if wins else "")
        if poor:
            text += (f" - luck, not skill: the turn's {_ORDINAL[poor[0].reveal_index]} reveal "
                     f"({poor[0].played}) was {'an' if poor[0].label == 'inaccuracy' else 'a'} {poor[0].label}")
        out.append(Moment(k, 3, turn, seat, "trio", text + "."))
    out.sort(key=lambda m: (m.event, m.reveal_index))
    return out
