"""Whole-record validation: the rules (by replay) and, for records without a deal,
whether any deal fits everything shown.

:func:`check_record` returns a :class:`Summary` or raises
:class:`~trio_solver.errors.ContradictionError` naming the first event after
which no deal fits and a minimal set of facts that clash.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from .. import limits
from .beliefs import Beliefs
from ..limits import Deadline, time_limit
from ..errors import ContradictionError, RecordError, ViewError
from .facts import HandFact, SlotFact, TrioChange
from ..game.events import where
from .._json import strict_loads
from ..game.record import Record, read_source
from ..game.rules import VALUES
from ..game.events import Swap, Turn
from ..game.view import PlayerView
from ..words import plural

__all__ = ["Summary", "check_record", "contradiction_named", "explain_contradiction", "read_record", "load_record"]


@dataclass(frozen=True)
class Summary:
    """The one-line summary of a valid record."""

    players: int
    mode: str
    teams: bool
    events: int
    trios: tuple[tuple[int, ...], ...]
    winner: int | None
    to_move: int
    in_progress: bool
    has_deal: bool
    approximate: bool
    viewer: int | None = None
    """The record keeper's seat (a viewer record); ``None`` with no deal: a spectator's record."""

    def __str__(self) -> str:
        setting = f"{self.players} players, {self.mode}" + (", teams" if self.teams else "")
        taken = sum(len(t) for t in self.trios)
        state = f"seat {self.winner} won" if self.winner is not None else (
            f"seat {self.to_move} to move" + (" (turn in progress)" if self.in_progress else ""))
        kind = ("full deal" if self.has_deal else "spectator record" if self.viewer is None
                else f"viewer record, seat {self.viewer}")
        return f"valid: {setting}; {plural(self.events, 'event')}, {plural(taken, 'trio')}; {state} [{kind}]"

    def to_json(self) -> dict[str, Any]:
        return {
            "valid": True, "players": self.players, "mode": self.mode, "teams": self.teams,
            "events": self.events, "trios": [list(t) for t in self.trios], "winner": self.winner,
            "to_move": self.to_move, "in_progress": self.in_progress, "has_deal": self.has_deal,
            "approximate": self.approximate,
        }


def _view_for_check(record: Record, after: int | None) -> PlayerView:
    return record.view(record.viewer.seat if record.viewer is not None else None, after)


@contextmanager
def contradiction_named(record: Record) -> Iterator[None]:
    """Inside the block, a view of ``record`` that no deal fits is refused as :func:`check_record` refuses the
    record (the first event no deal fits, the reveal to blame and the facts that clash), not with a bare "no
    deal fits this view"; any other :class:`~trio_solver.errors.ViewError` goes on as it was."""
    try:
        yield
    except ViewError:
        check_record(record)  # raises the named contradiction when no deal fits the record
        raise


def check_record(record: Record, *, deadline: Deadline | float | None = None) -> Summary:
    """Check that some deal fits ``record``; raise :class:`ContradictionError` if none does, and
    :class:`~trio_solver.errors.LimitError` if ``deadline`` (or an active
    :func:`~trio_solver.limits.time_limit`) passes first."""
    if not isinstance(record, Record):
        raise RecordError("record", f"expected a Record, got {type(record).__name__}")
    with time_limit(deadline):
        return _check_record(record)


def _check_record(record: Record) -> Summary:
    view = _view_for_check(record, None)
    approximate = False
    if record.deal is None:
        beliefs = Beliefs(view)
        approximate = beliefs.approximate
        if not beliefs.consistent:
            raise explain_contradiction(record)
    return Summary(
        record.rules.players, record.rules.mode.value, record.rules.teams, len(record.events),
        view.trios, view.winner, view.to_move, bool(view.turn), record.deal is not None, approximate,
        None if record.viewer is None else record.viewer.seat,
    )


def read_record(doc: Any) -> Record:
    """:meth:`Record.from_json <trio_solver.game.record.Record.from_json>`, whose error names the first
    event after which no deal fits. Reading checks each reveal of a record without the deal against what
    was seen by counting, which sees some contradictions only a few events after the first event no deal
    fits (a fourth 12 once four 12s are in known places, where a search over the deals sees it when the
    places are first pinned); when reading refuses event ``k`` and no deal fits the events before it, the
    error is that earlier event's (:func:`explain_contradiction`)."""
    try:
        return Record.from_json(doc)
    except RecordError as e:
        raise _earliest(doc, e) from None


def load_record(path: str) -> Record:
    """:meth:`Record.load <trio_solver.game.record.Record.load>`, whose error names the first event after
    which no deal fits, as :func:`read_record`'s. The input is read once (a pipe or standard input too)."""
    data = read_source(path)
    try:
        return Record.loads(data)
    except RecordError as e:
        if e.event is None:
            raise
        # parsed once already: only its events were refused, so the text is JSON
        text = data.decode("utf-8-sig") if isinstance(data, bytes) else data.removeprefix("\ufeff")
        raise _earliest(strict_loads(text), e) from None


def _earliest(doc: Any, error: RecordError) -> RecordError:
    k = error.event
    events = doc.get("events") if isinstance(doc, dict) else None
    if not k or not isinstance(events, list) or doc.get("deal") is not None:
        return error
    try:
        prefix = Record.from_json({**doc, "events": events[:k]})
    except RecordError:
        return error
    if Beliefs(_view_for_check(prefix, None)).consistent:
        return error
    return explain_contradiction(prefix)


def explain_contradiction(record: Record) -> ContradictionError:
    """The error for a record no deal fits: first failing event and a minimal set of clashing facts."""
    lo, hi = 0, len(record.events)  # consistent after lo events, inconsistent after hi
    if not Beliefs(_view_for_check(record, 0)).consistent:
        return ContradictionError("viewer.hand", "no deal fits the viewer's hand", event=None)
    while hi - lo > 1:
        limits.check("validate")
        mid = (lo + hi) // 2
        if Beliefs(_view_for_check(record, mid)).consistent:
            lo = mid
        else:
            hi = mid
    k = hi - 1  # the event after which nothing fits
    view = _view_for_check(record, hi)
    base = Beliefs(view)
    facts: list[HandFact | SlotFact] = [*base.facts.hand_facts, *base.facts.slot_facts]
    everything = frozenset(range(len(facts)))
    if not Beliefs(view, _drop=everything).consistent:
        counts = base.facts.hidden
        short = [v for v in VALUES if counts[v] < 0]
        why = (f"more than three cards of value {short[0]} are accounted for" if short
               else "the cards left cannot fill the hands and slots")
        core: list[int] = []
    else:
        dropped: set[int] = set()
        for idx in reversed(range(len(facts))):
            limits.check("validate")
            trial = frozenset(dropped | {idx})
            if not Beliefs(view, _drop=trial).consistent:
                dropped.add(idx)
        core = [i for i in range(len(facts)) if i not in dropped]
        why = ""
    event = record.events[k]
    core_facts = [facts[i] for i in core]
    reveal_idx = _culprit_reveal(record, k, core_facts)
    clash = "; ".join(_describe(f, base.facts.history) for f in core_facts)
    reason = "no deal fits what was shown: " + (clash if clash else why)
    if clash and why:
        reason += f" ({why})"
    if record.viewer is not None and clash:
        reason += f"; with the viewer's hand {list(record.viewer.hand)}"
    return ContradictionError(where(k, event, reveal_idx), reason, event=k)


def _describe(fact: HandFact | SlotFact, history: list[tuple[int, TrioChange | Swap]]) -> str:
    """A fact in words, with what its hand gave away since (the trios and swaps it took part in)."""
    text = fact.describe()
    if not isinstance(fact, HandFact):
        return text
    gave = []
    for ev, change in history:
        if ev < fact.event:
            continue
        if isinstance(change, TrioChange) and fact.seat in change.cards:
            count = change.cards[fact.seat]
            gave.append(f"{', '.join([str(change.value)] * count)} to the trio at event {ev}")
        elif isinstance(change, Swap) and fact.seat in change.seats:
            gave.append(f"a card in the swap at event {ev}")
    if gave:
        text += f", then seat {fact.seat} gave " + " and ".join(gave)
    return text


def _culprit_reveal(record: Record, k: int, core: list[HandFact | SlotFact]) -> int | None:
    """The reveal of event ``k`` to blame: a clashing fact of that event, else the first reveal
    that touches a hand or slot of the clash."""
    latest = [f for f in core if f.event == k]
    if latest:
        last = latest[-1]
        if isinstance(last, HandFact):
            return last.reveal_index
        return _slot_reveal(record, k, last.slot)
    e = record.events[k]
    if not isinstance(e, Turn):
        return None
    seats = {f.seat for f in core if isinstance(f, HandFact)}
    slots = {f.slot for f in core if isinstance(f, SlotFact)}
    for j, r in enumerate(e.reveals):
        if (r.reveal.is_centre and r.reveal.index in slots) or (not r.reveal.is_centre and r.reveal.index in seats):
            return j
    return None


def _slot_reveal(record: Record, k: int, slot: int) -> int | None:
    e = record.events[k]
    if isinstance(e, Turn):
        for j, r in enumerate(e.reveals):
            if r.reveal.is_centre and r.reveal.index == slot:
                return j
    return None
