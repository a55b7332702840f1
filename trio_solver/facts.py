"""From a player view to the constraints on the hidden cards.

The hidden cards are described by a count matrix: for every hidden *row* (a
hand the viewer cannot see, and the pool of centre slots never shown) and every
value, how many cards of that value it holds now. Every public fact becomes a
bound on a row's cumulative count ``C(u)`` (its number of cards of value at most
``u``):

* a hand reveal that showed ``v`` at sorted position ``p`` of the hand *at that
  time* means ``C_then(v-1) <= p < C_then(v)``; the hand then and now differ by
  known cards (trios taken from it, the viewer's own team swaps), so the bound is
  shifted onto ``C_now``; a swap whose cards the viewer did not see widens it by
  one on each side (a sound relaxation, reported as approximate);
* a centre slot that showed a value holds it until a trio takes it;
* trios taken and the viewer's own hand fix how many copies of each value are
  still hidden.

:func:`extract` returns these as plain data; :mod:`trio_solver.beliefs` solves
them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .reveal import Reveal
from .rules import COPIES
from .table import Swap, Table, Turn
from .view import PlayerView

__all__ = ["HandFact", "SlotFact", "TrioChange", "Row", "Facts", "extract", "POOL"]

#: Row key of the pool of centre slots never shown.
POOL = -1


@dataclass(frozen=True)
class HandFact:
    """A hand reveal: ``seat`` showed ``value`` at sorted ``position`` during ``event``."""

    event: int
    reveal_index: int
    seat: int
    reveal: Reveal
    position: int
    value: int
    #: Cumulative count shift D(u), u = 0..12: C_then(u) = C_now(u) + shift[u] (known part).
    shift: tuple[int, ...]
    #: Swaps with secret cards between then and now (each widens the bound by one).
    relax: int

    def describe(self) -> str:
        end = "lowest" if self.reveal.kind == "lowest" else "highest"
        return f"event {self.event}: seat {self.seat}'s {end} card showed {self.value} ({self.reveal}={self.value})"


@dataclass(frozen=True)
class SlotFact:
    """A centre slot that showed ``value`` and still holds that card."""

    event: int
    slot: int
    value: int

    def describe(self) -> str:
        return f"event {self.event}: centre slot {self.slot} showed {self.value}"


@dataclass(frozen=True)
class TrioChange:
    """A trio taken: ``cards[seat]`` cards of ``value`` left that hand; ``slots`` left the centre."""

    value: int
    cards: dict[int, int]
    slots: tuple[int, ...]


@dataclass
class Row:
    """One hidden row: a hand (``key`` = seat) or the pool of unseen centre slots (``key`` = POOL).

    ``lower``/``upper`` bound the cumulative count C(u), u = 0..12. ``offset[v]`` is the
    number of cards of value v the hand held *as dealt* beyond what it holds now (cards it
    gave in trios and known swaps, minus cards it received): the prior weighs the dealt
    hand. ``choices`` lists, for each known swap in which this hand chose the card to give,
    ``(value, extra)``: the hand held ``C_now(v) - C_now(v-1) + extra`` cards of that value
    when it chose one, which weighs the choice of a uniformly random card.
    """

    key: int
    size: int
    lower: list[int] = field(default_factory=list)
    upper: list[int] = field(default_factory=list)
    offset: list[int] = field(default_factory=lambda: [0] * 13)
    choices: list[tuple[int, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.lower:
            self.lower = [0] * 12 + [self.size]
            self.upper = [0] + [self.size] * 12

    def bound(self, u: int, lo: int | None = None, hi: int | None = None) -> None:
        if lo is not None and lo > self.lower[u]:
            self.lower[u] = lo
        if hi is not None and hi < self.upper[u]:
            self.upper[u] = hi


@dataclass
class Facts:
    """Everything the belief model needs, derived from one view."""

    #: Copies of each value still hidden (index 1..12; index 0 unused). May be negative on a contradiction.
    hidden: list[int]
    #: Hidden rows; hands in seat order, then the pool (if any).
    rows: list[Row]
    #: Centre slots whose card is known: slot -> value.
    known_slots: dict[int, int]
    #: Centre slots that were never shown (they form the pool), in order.
    pool_slots: list[int]
    hand_facts: list[HandFact]
    slot_facts: list[SlotFact]
    #: Whether secret swaps made the bounds a relaxation (beliefs approximate).
    approximate: bool
    #: Seat whose hand is known, and that hand now.
    seat: int | None
    hand: tuple[int, ...] | None
    table: Table
    #: The hand changes in order: trios taken and swaps (cards ``None`` when secret).
    history: list[TrioChange | Swap]


def _cumulative(counts: dict[int, int]) -> list[int]:
    out = [0] * 13
    run = 0
    for u in range(1, 13):
        run += counts.get(u, 0)
        out[u] = run
    return out


def extract(view: PlayerView, *, drop: frozenset[int] = frozenset()) -> Facts:
    """The constraints of ``view``; facts whose index (in hand facts then slot facts) is in ``drop`` are left out.

    ``drop`` serves the search for a minimal set of clashing facts.
    """
    rules = view.rules
    n = rules.players
    table = Table(rules, view.first_player)
    # per seat: list of changes, each (known delta counts or None for a secret swap)
    changes: list[list[dict[int, int] | None]] = [[] for _ in range(n)]
    # per seat: (index into its changes, value it chose to give) for every known swap
    gave: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    raw_hand: list[tuple[int, int, int, Reveal, int, int, int]] = []  # event, j, seat, reveal, pos, value, epoch
    slot_last: dict[int, tuple[int, int]] = {}
    seat = view.seat
    history: list[TrioChange | Swap] = []
    for i, event in enumerate(view.events):
        if isinstance(event, Swap):
            a, b = event.seats
            if event.cards is None:
                changes[a].append(None)
                changes[b].append(None)
            else:
                ga, gb = event.cards
                # X_before = X_after + given - received
                da: dict[int, int] = {}
                da[ga] = da.get(ga, 0) + 1
                da[gb] = da.get(gb, 0) - 1
                db: dict[int, int] = {}
                db[gb] = db.get(gb, 0) + 1
                db[ga] = db.get(ga, 0) - 1
                gave[a].append((len(changes[a]), ga))
                gave[b].append((len(changes[b]), gb))
                changes[a].append(da)
                changes[b].append(db)
            table.apply_swap(event.seats, event.cards)
            history.append(event)
            continue
        assert isinstance(event, Turn)
        for j, (reveal, value) in enumerate(event.reveals):
            if reveal.is_centre:
                slot_last[reveal.index] = (i, value)
            else:
                s = reveal.index
                raw_hand.append((i, j, s, reveal, table.position(reveal), value, len(changes[s])))
            status = table.apply_reveal(reveal, value)
            if status.value == "trio":
                taken: dict[int, int] = {}
                for s in range(n):
                    k = table.last_lo[s] + table.last_hi[s]
                    if k:
                        changes[s].append({value: k})
                        taken[s] = k
                for c in table.last_centre:
                    slot_last.pop(c, None)
                history.append(TrioChange(value, taken, tuple(table.last_centre)))

    hand_facts: list[HandFact] = []
    for (i, j, s, reveal, pos, value, epoch) in raw_hand:
        later = changes[s][epoch:]
        known: dict[int, int] = {}
        relax = 0
        for ch in later:
            if ch is None:
                relax += 1
            else:
                for v, c in ch.items():
                    known[v] = known.get(v, 0) + c
        hand_facts.append(HandFact(i, j, s, reveal, pos, value, tuple(_cumulative(known)), relax))
    slot_facts = [SlotFact(i, slot, v) for slot, (i, v) in sorted(slot_last.items())]

    nh = len(hand_facts)
    kept_hand = [f for k, f in enumerate(hand_facts) if k not in drop]
    kept_slots = [f for k, f in enumerate(slot_facts) if nh + k not in drop]

    hidden = [0] + [COPIES] * 12
    for v in table.taken_values():
        hidden[v] -= COPIES
    own = view.hand if seat is not None else None
    if own is not None:
        for v in own:
            hidden[v] -= 1
    known_slots = {f.slot: f.value for f in kept_slots}
    for v in known_slots.values():
        hidden[v] -= 1
    rows: list[Row] = []
    for s in range(n):
        if s == seat or table.sizes[s] == 0:
            continue
        rows.append(Row(s, table.sizes[s]))
    row_of = {r.key: r for r in rows}
    for hand_row in rows:
        s_changes = changes[hand_row.key]
        for ch in s_changes:
            if ch is not None:
                for v, c in ch.items():
                    hand_row.offset[v] += c
        for k, value in gave[hand_row.key]:
            extra = sum(ch.get(value, 0) for ch in s_changes[k:] if ch is not None)
            hand_row.choices.append((value, extra))
    for f in kept_hand:
        if f.seat == seat:
            continue  # the viewer's own hand is known; replay checked these
        row = row_of.get(f.seat)
        if row is None:
            continue  # the hand is empty now: nothing hidden there
        v, p, d, rx = f.value, f.position, f.shift, f.relax
        row.bound(v - 1, hi=p - d[v - 1] + rx)
        row.bound(v, lo=p + 1 - d[v] - rx)
    pool_slots = [c for c, here in enumerate(table.centre) if here and c not in known_slots]
    if pool_slots:
        rows.append(Row(POOL, len(pool_slots)))
    approximate = any(f.relax for f in kept_hand)
    return Facts(hidden, rows, known_slots, pool_slots, hand_facts, slot_facts, approximate, seat, own, table,
                 history)
