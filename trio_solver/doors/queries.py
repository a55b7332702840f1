"""The questions the doors ask of a record: one function each, called by the command line
(:mod:`~trio_solver.doors.cli`), the engine protocol (:mod:`~trio_solver.doors.protocol`) and,
through the protocol, the HTTP service, so the three doors give the same answers.

Each takes a :class:`~trio_solver.game.record.Record` and library arguments, checks them, and
returns the library's object and/or the JSON that ``--json`` prints and the protocol answers
(docs/INTERFACE.md). A ``seat`` is a seat, ``None`` (a spectator) or
:data:`~trio_solver.game.record.DEFAULT_SEAT`, resolved and checked by
:meth:`Record.seat <trio_solver.game.record.Record.seat>`. Errors are
:class:`~trio_solver.errors.TrioError` naming the library argument (``seat``, ``after``, ...).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, Literal

from .. import limits
from .._args import show
from ..decide.bots import make_bot
from ..decide.evaluate import DEFAULT_PRECISION, GameEvaluation, advise_game
from ..decide.evaluate import evaluate as _evaluate
from ..decide.evaluate import DEFAULT_SAMPLES as DEFAULT_EVALUATE_SAMPLES
from ..decide.search import OBJECTIVES, Advice, advise as _advise
from ..decide.stopping import DEFAULT_CONFIDENCE
from ..errors import RecordError
from ..game.events import Event, Turn
from ..game.record import DEFAULT_SEAT, Record, SeatChoice
from ..game.reveal import Reveal, Revealed
from ..game.knowledge import PublicReader
from ..game.rules import Rules
from ..game.state import Game
from ..game.view import PlayerView
from ..infer import csp
from ..infer.beliefs import Beliefs
from ..infer.facts import STATE_BUDGET
from ..infer.validate import Summary, check_record, contradiction_named, explain_contradiction
from ..words import one_of
from ..report.analysis import DEFAULT_SAMPLES as DEFAULT_ANALYSE_SAMPLES
from ..report.analysis import Analysis, analyse
from ..report.render import describe_event, frame, move_json

__all__ = ["OBJECTIVES", "validate", "replay", "replay_frames", "state", "beliefs", "placements", "advise", "evaluate", "analysis",
           "new_game", "add_reveal", "add_swap", "bot_reveal", "bot_swap", "warm_up", "warm_up_for"]



def validate(record: Record) -> Summary:
    """The summary of ``validate``: the record against the rules, and a deal that fits it."""
    return check_record(record)


def replay(record: Record, seat: SeatChoice | Literal["all"] = DEFAULT_SEAT,
           after: int | None = None) -> dict[str, Any]:
    """The JSON of ``replay --json``: the table after 0, 1, ... ``after`` events from ``seat``'s view
    (``"all"``: every hand, which is the default of a full-deal record without a keeper)."""
    frames: list[dict[str, Any]] = []
    chosen = replay_frames(record, frames.append, seat, after)
    return {"seat": chosen, "frames": frames}


def replay_frames(record: Record, visit: Callable[[dict[str, Any]], None],
                  seat: SeatChoice | Literal["all"] = DEFAULT_SEAT,
                  after: int | None = None) -> SeatChoice | Literal["all"]:
    """The frames of :func:`replay`, each handed to ``visit`` as it is made and none kept (a long record's
    frames need not all be held at once); returns the view shown."""
    chosen, last, shown = _as_seen(record, seat, after)
    reader = PublicReader()
    made = 0

    def add(position: Game | PlayerView) -> None:
        nonlocal made
        visit({**_step_of(shown, made, record.names), **frame(position, chosen, reader=reader)})
        made += 1

    record.walk(add, last)
    return chosen


def _as_seen(record: Record, seat: SeatChoice | Literal["all"],
             after: int | None) -> tuple[SeatChoice | Literal["all"], int, Sequence[Event]]:
    """For :func:`replay` and :func:`state`: the view shown (:meth:`Record.seat`), the number of events
    of the last position, and the events as that view saw them (other teams' swap values stay secret)."""
    chosen = record.seat(seat, after, every_hand=True)
    last = len(record.events) if after is None else after
    return chosen, last, record.events if chosen == "all" else record.view(chosen).events


def _step_of(shown: Sequence[Event], k: int, names: Sequence[str] | None) -> dict[str, Any]:
    """The head of a frame of :func:`replay`: which event led to the position after ``k`` events."""
    if k == 0:
        return {"after": 0, "event": None, "description": "start", "move": None}
    return {"after": k, "event": k - 1, "description": describe_event(shown[k - 1], names),
            "move": move_json(shown[k - 1])}


def state(record: Record, seat: SeatChoice | Literal["all"] = DEFAULT_SEAT,
          after: int | None = None) -> dict[str, Any]:
    """One frame of :func:`replay` (the position after ``after`` events) with ``legal``, the legal
    reveals, and ``events``, the number of events of the record."""
    chosen, last, shown = _as_seen(record, seat, after)
    position = record.position(last)
    out: dict[str, Any] = {"seat": chosen, **_step_of(shown, last, record.names),
                           **frame(position, chosen)}
    view = record.view(None, after)
    out["legal"] = [] if view.over else [str(r) for r in view.legal_reveals()]
    out["events"] = len(record.events)
    return out


def beliefs(record: Record, seat: SeatChoice = DEFAULT_SEAT, after: int | None = None,
            swap_budget: int | None = None) -> Beliefs:
    """The :class:`~trio_solver.infer.beliefs.Beliefs` of ``beliefs``: raises the explained contradiction
    when no deal fits. Its ``to_json(after)`` is the JSON of ``beliefs --json``."""
    view = record.view(seat, after)
    found = Beliefs(view, swap_budget=STATE_BUDGET if swap_budget is None else swap_budget)
    if not found.consistent:
        raise explain_contradiction(record)
    return found


def placements(found: Beliefs, limit: int, swap_budget: int = STATE_BUDGET) -> dict[str, Any]:
    """``beliefs --list``: ``placement_count``, and ``placements``: every possible placement of the hidden
    cards, most likely first, if at most ``limit`` fit, else the first ``limit`` found, each with its exact
    probability (``None`` for one that hides secret swap cards: its weight sums over them)."""
    count = found.placement_count()
    if count <= limit:
        listed = [{"probability": float(p), "rows": _matrix_json(m)} for p, m in csp.placements(found.facts, limit)]
        return {"placement_count": count, "placements": listed}
    total = Fraction(Beliefs(found.view, exact=True, swap_budget=swap_budget).total_weight)  # exact
    listed = []
    for m, bits in csp.solutions(found.facts):
        p = None if bits else float(Fraction(csp.weight(found.facts, m, bits)) / total)
        listed.append({"probability": p, "rows": _matrix_json({k: c for k, c in m.items() if c})})
        if len(listed) >= limit:
            break
    return {"placement_count": count, "placements": listed}


def _matrix_json(m: dict[tuple[int, int], int]) -> dict[str, list[int]]:
    rows: dict[str, list[int]] = {}
    for (key, v), c in sorted(m.items()):
        name = "unseen centre slots" if key < 0 else f"seat {key}"
        rows.setdefault(name, []).extend([v] * c)
    return rows


def advise(record: Record, seat: SeatChoice = DEFAULT_SEAT, after: int | None = None, objective: str = "turn", *,
           samples: int | None = None, seed: int = 0, confidence: float | None = None) -> tuple[Advice, dict[str, Any]]:
    """The :class:`~trio_solver.decide.search.Advice` for the seat to move and the JSON of ``advise --json``.

    ``objective`` is one of :data:`OBJECTIVES`; ``game`` ranks by the chance to win the game, from at most
    ``samples`` posterior deals (``None``: the library's default for the table) drawn from ``seed``, until the
    ranking is clear at ``confidence``."""
    if seat is None:
        raise RecordError("seat", "advice is for the seat to move, whose hand must be known")
    if objective not in OBJECTIVES:
        raise RecordError("objective", f"expected {one_of(OBJECTIVES)}, got {show(objective)}")
    view = record.view(seat, after)
    if view.seat is None:  # the record's own view is a spectator's: it knows no hand
        raise RecordError("seat", "advice is for the seat to move, whose hand must be known")
    if not view.over and view.seat != view.to_move:  # named as the argument that chose the view
        raise RecordError("seat", f"advice is for the seat to move (seat {view.to_move}), not seat {view.seat}")
    with contradiction_named(record):
        if objective == "game":
            advice = advise_game(view, samples=samples, seed=seed,
                                 confidence=DEFAULT_CONFIDENCE if confidence is None else confidence)
        else:
            advice = _advise(view, objective)
    data = advice.to_json()
    data["after"] = len(view.events) if after is None else after
    return advice, data


def evaluate(record: Record, seat: SeatChoice = DEFAULT_SEAT, after: int | None = None, *,
             samples: int | None = None, seed: int = 0,
             precision: float | None = None) -> tuple[GameEvaluation, dict[str, Any]]:
    """The :class:`~trio_solver.decide.evaluate.GameEvaluation` of ``evaluate`` and its JSON (``evaluate --json``):
    at most ``samples`` playouts, fewer once each side's standard error is at most ``precision``."""
    view = record.view(seat, after)
    with contradiction_named(record):
        result = _evaluate(view, samples=DEFAULT_EVALUATE_SAMPLES if samples is None else samples, seed=seed,
                           precision=DEFAULT_PRECISION if precision is None else precision)
    data: dict[str, Any] = result.to_json(len(view.events) if after is None else after)
    return result, data


def analysis(record: Record, progress: Callable[[int, int], None] | None = None, *,
             samples: int | None = None, seed: int = 0, confidence: float | None = None) -> Analysis:
    """The :class:`~trio_solver.report.analysis.Analysis` of ``analyse``; its ``to_json()`` is ``analyse --json``.

    ``samples``: the most posterior deals per candidate reveal (``None``: the default; ``0``: judge by
    the turn only); ``confidence``: at which each label counts as clear (``None``: the default)."""
    return analyse(record, progress, samples=DEFAULT_ANALYSE_SAMPLES if samples is None else samples, seed=seed,
                   confidence=DEFAULT_CONFIDENCE if confidence is None else confidence)


def new_game(rules: Rules, seed: int, first_player: int | None = None,
             names: Sequence[str] | None = None) -> dict[str, Any]:
    """A new full-deal record with no events, dealt from ``seed``: ``{"record", "seed"}``."""
    game = Game.deal(rules, seed, first_player=first_player)
    record = Record.from_game(game, names)
    return {"record": record.to_json(values=False), "seed": seed}


def _status(record: Record) -> str:
    view = record.view(None)
    if view.winner is not None:
        return "won"
    if view.turn:
        return "continue"
    last = record.events[-1]
    assert isinstance(last, Turn)
    return "trio" if last.took_trio else "failed"


def _open_spectator(record: Record, op: str) -> PlayerView:
    spectator = record.view(None)
    if spectator.over:
        raise RecordError(op, f"the game is over (seat {spectator.winner} won)")
    return spectator


def add_reveal(record: Record, reveal: Reveal | Revealed) -> dict[str, Any]:
    """The record with one more reveal (a :class:`Revealed`, with the value it showed, for a record
    without the deal): ``{"record", "value", "status", "to_move"}``."""
    spectator = _open_spectator(record, "move")
    entry = {**reveal.reveal.to_json(), "value": reveal.value} if isinstance(reveal, Revealed) else reveal.to_json()
    doc = record.to_json()
    events: list[Any] = doc["events"]
    if spectator.turn:
        events[-1]["reveals"].append(entry)
    else:
        events.append({"turn": spectator.to_move, "reveals": [entry]})
    new = Record.from_json(doc)
    value = new.events[-1].reveals[-1].value  # type: ignore[union-attr]
    return {"record": new.to_json(), "value": value, "status": _status(new), "to_move": new.view(None).to_move}


def add_swap(record: Record, seats: Any, cards: Any) -> dict[str, Any]:
    """The record with one more team swap (``cards``: ``None`` when they are secret to the record):
    ``{"record", "value": None, "status": "swap", "to_move"}``; the record's rules check it."""
    _open_spectator(record, "move")
    doc = record.to_json()
    doc["events"].append({"swap": seats, "cards": cards})
    new = Record.from_json(doc)
    return {"record": new.to_json(), "value": None, "status": "swap", "to_move": new.view(None).to_move}


def bot_reveal(record: Record, name: str, seed: int = 0, budget: int | None = None) -> dict[str, Any]:
    """The reveal the bot ``name`` chooses for the seat to move, from that seat's view only:
    ``{"reveal", "seat"}``."""
    spectator = _open_spectator(record, "bot")
    view = record.view(spectator.to_move)
    bot = make_bot(name, random.Random(seed), budget=budget)
    with contradiction_named(record):
        return {"reveal": str(bot.choose_reveal(view)), "seat": view.to_move}


def bot_swap(record: Record, name: str, seat: int, seed: int = 0, budget: int | None = None) -> dict[str, Any]:
    """The card the bot ``name`` gives at the swap moment of ``seat``'s team, from that seat's view only:
    ``{"card": the value, or None not to swap, "seat"}``. The team swaps when both partners give a card
    (:func:`add_swap`). Raises :class:`RecordError` naming ``swap_seat`` when that team has no swap now."""
    _open_spectator(record, "bot")
    view = record.view(record.seat(seat))
    if not any(seat in team for team in view.swap_open):
        raise RecordError("swap_seat", f"seat {seat}'s team has no swap moment now (only at the start of the "
                          "game and after another team's trio, before the next reveal)")
    bot = make_bot(name, random.Random(seed), budget=budget)
    with contradiction_named(record):
        return {"card": bot.choose_swap(view), "seat": seat}


#: The small games :func:`warm_up` plays: a 3-player game with the searching expert and the playout bot, and a
#: 4-player team game with swaps; the number of reveals each plays before the game-level questions are asked.
_WARM_GAMES = ((Rules(3), ("expert", "solver", "playout")),
               (Rules(4, teams=True), ("expert", "playout", "expert", "solver")))
_WARM_REVEALS = 12


def warm_up_for(time_limit: float | None) -> None:
    """Before a session whose every request or decision has ``time_limit`` seconds (``None``: no limit,
    nothing done): check the limit (:class:`~trio_solver.errors.LimitError` unless a number of seconds
    above 0 and at most :data:`~trio_solver.limits.MAX_SECONDS`) and :func:`warm_up`, since a limit is
    checked between steps of the work and cannot cut the kernel's build short."""
    if time_limit is not None:
        limits.as_deadline(time_limit, "time limit")
        warm_up()


def warm_up() -> None:
    """Load the compiled playout kernel's functions that the questions use, from numba's disk cache (a
    second or two), or build them on a machine's first run (about a minute of CPU). A door that answers
    under a time limit calls it before its first question, so that no question pays for the build: a
    few reveals and swaps of the bots that search, then ``evaluate`` and ``advise --objective game`` on
    small budgets, at a 3-player table and a 4-player team table (the analysis plays the same functions)."""
    for rules, names in _WARM_GAMES:
        game = Game.deal(rules, seed=0)
        bots = [make_bot(name, random.Random(seat), budget=8) for seat, name in enumerate(names)]
        for _ in range(_WARM_REVEALS):
            if game.over:
                break
            for a, b in game.swap_moment():
                give_a, give_b = bots[a].choose_swap(game.view(a)), bots[b].choose_swap(game.view(b))
                if give_a is not None and give_b is not None:
                    game.swap(a, b, give_a, give_b)
            game.reveal(bots[game.to_move].choose_reveal(game.view(game.to_move)))
        if not game.over:
            view = game.view(game.to_move)
            _evaluate(view, samples=16)
            advise_game(view, samples=16)
