"""From a player view to the constraints on the hidden cards.

The hidden cards are described by a count matrix: for every hidden *row* (a
hand the viewer cannot see, and the pool of centre slots never shown) and every
value, how many cards of that value it holds now. Every public fact becomes a
bound on a row's cumulative count ``C(u)`` (its number of cards of value at most
``u``):

* a hand reveal that showed ``v`` at sorted position ``p`` of the hand *at that
  time* means ``C_then(v-1) <= p < C_then(v)``. The hand then and the hand now
  differ by the cards that left it in trios (known values), by the viewer's own
  team's swaps (known values), and by the other teams' secret swaps: each of
  those moves one unknown card out (value ``g``) and one in (value ``h``), so
  ``C_then(u) = C_now(u) + [g <= u] - [h <= u]``. The belief model tracks
  ``[g <= u]`` and ``[h <= u]`` as two bits of its state (a *tracked* swap), which
  keeps the beliefs exact;
* a secret swap that comes before any fact about either partner's hand changes
  nothing anyone knows (a uniformly chosen card swapped between two hands nothing
  is known of leaves them uniformly dealt), so it is left out exactly;
* beyond a budget of lattice states (the state grows fourfold with each tracked
  swap), the oldest ones are *relaxed*: the bounds of earlier facts are widened by one on each
  side. That is sound (it never excludes a possible deal) but approximate, and is
  reported as such;
* a centre slot that showed a value holds it until a trio takes it;
* trios taken and the viewer's own hand fix how many copies of each value are
  still hidden.

The prior weighs the hands *as dealt* (a uniform shuffle) and every swap card as
chosen uniformly from its hand; :mod:`trio_solver.infer.beliefs` turns both into
weights of the lattice's transitions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ..game.reveal import Reveal
from ..game.rules import COPIES, Rules
from ..game.events import Swap, Turn, TurnStatus
from ..game.table import LoggedStep, Table, logged_steps
from ..game.view import PlayerView

__all__ = ["HandFact", "SlotFact", "TrioChange", "Row", "Tracked", "Facts", "extract", "POOL", "STATE_BUDGET",
           "MAX_STATE_BUDGET", "MAX_SWAP_BUDGET"]

#: Row key of the pool of centre slots never shown.
POOL = -1
#: Largest lattice state (count states x 4 per tracked swap) for which secret swaps are tracked exactly.
STATE_BUDGET = 40_000
#: The largest state budget accepted: beyond it one position can take minutes (6-player team play).
MAX_STATE_BUDGET = 4_000_000
#: The old name of :data:`MAX_STATE_BUDGET`.
MAX_SWAP_BUDGET = MAX_STATE_BUDGET

#: A term of a tracked swap: (flag bit, coefficient): bit ``2j`` is ``[g_j <= u]``, bit ``2j+1`` is ``[h_j <= u]``.
FlagTerm = tuple[int, int]


@dataclass(frozen=True)
class HandFact:
    """A hand reveal: ``seat`` showed ``value`` at sorted ``position`` during ``event``."""

    event: int
    reveal_index: int
    seat: int
    reveal: Reveal
    position: int
    value: int
    #: Cumulative count shift D(u), u = 0..12, from known changes: C_then(u) = C_now(u) + shift[u] + flags.
    shift: tuple[int, ...]
    #: Terms of tracked secret swaps between then and now.
    flags: tuple[FlagTerm, ...]
    #: Relaxed secret swaps between then and now (each widens the bound by one on each side).
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


@dataclass(frozen=True)
class Tracked:
    """A secret swap the model tracks exactly: ``seats[0]`` gave a card ``g`` (bit ``2*index``) and
    ``seats[1]`` a card ``h`` (bit ``2*index + 1``)."""

    index: int
    event: int
    seats: tuple[int, int]


@dataclass(frozen=True)
class TrackedChoice:
    """A tracked swap in which a row chose the card to give (flag bit ``bit``).

    When ``bit`` flips at value ``u`` the row held ``x + extra[u] + sum(terms at u)`` cards
    of ``u`` at the time of the swap (``x``: its count now).
    """

    bit: int
    extra: tuple[int, ...]
    terms: tuple[FlagTerm, ...]


@dataclass
class Row:
    """One hidden row: a hand (``key`` = seat) or the pool of unseen centre slots (``key`` = POOL).

    ``lower``/``upper`` bound the cumulative count C(u), u = 0..12 (facts without tracked
    swaps after them); ``flagged`` holds the bounds of facts followed by tracked swaps, as
    ``(u, lower, upper, terms)``: ``lower <= C(u) + sum(coef * bit) <= upper``.
    ``offset[v]`` is the number of cards of value v the hand held *as dealt* beyond what it
    holds now through known changes; ``dealt_terms`` adds the tracked swaps' part (bits
    flipping at the value). ``choices`` are the known swaps in which this hand chose the
    card: ``(value, extra)`` means it held ``x + extra`` of them then. ``tracked_choices``
    are the same for tracked swaps.
    """

    key: int
    size: int
    lower: list[int] = field(default_factory=list)
    upper: list[int] = field(default_factory=list)
    flagged: list[tuple[int, int | None, int | None, tuple[FlagTerm, ...]]] = field(default_factory=list)
    offset: list[int] = field(default_factory=lambda: [0] * 13)
    dealt_terms: list[FlagTerm] = field(default_factory=list)
    choices: list[tuple[int, int]] = field(default_factory=list)
    tracked_choices: list[TrackedChoice] = field(default_factory=list)
    #: Read choices (:func:`extract` with ``read``): each ``(v, k1, k2)`` weighs by ``Facts.read`` the
    #: deals where ``C(v-1) <= k1`` and ``C(v) >= k2`` (a card of value v at a position the hand passed over).
    avoid: list[tuple[int, int, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.lower:
            self.lower = [0] * 12 + [self.size]
            self.upper = [0] + [self.size] * 12

    def bound(self, u: int, lo: int | None = None, hi: int | None = None,
              terms: tuple[FlagTerm, ...] = ()) -> None:
        if terms:
            self.flagged.append((u, lo, hi, terms))
            return
        if lo is not None and lo > self.lower[u]:
            self.lower[u] = lo
        if hi is not None and hi < self.upper[u]:
            self.upper[u] = hi


@dataclass
class Facts:
    """Everything the belief model needs, derived from one view."""

    #: Copies of each value still hidden (index 1..12; index 0 unused). May be negative on a contradiction.
    hidden: list[int]
    #: Hidden rows; hands in seat order (empty hands only when a tracked swap needs them), then the pool.
    rows: list[Row]
    #: Centre slots whose card is known: slot -> value.
    known_slots: dict[int, int]
    #: Centre slots that were never shown (they form the pool), in order.
    pool_slots: list[int]
    hand_facts: list[HandFact]
    slot_facts: list[SlotFact]
    #: Whether relaxed secret swaps make the beliefs approximate.
    approximate: bool
    #: Seat whose hand is known, and that hand now.
    seat: int | None
    hand: tuple[int, ...] | None
    table: Table
    #: The hand changes in order, with their event index: trios taken and swaps (cards ``None`` when secret).
    history: list[tuple[int, TrioChange | Swap]]
    #: Secret swaps tracked exactly (their values are part of the lattice state).
    tracked: list[Tracked] = field(default_factory=list)
    #: Secret swaps left out because nothing was known of either hand before them.
    dropped: int = 0
    #: Secret swaps relaxed (beyond the tracking budget).
    relaxed: int = 0
    #: Weight of a deal per choice it makes unlikely (``Row.avoid``); ``None``: choices are not read.
    read: float | None = None

    @property
    def flag_bits(self) -> int:
        return 2 * len(self.tracked)


class _Change(NamedTuple):
    """A change of a hand: ``known`` (``delta`` = cards given - received, per value), ``tracked``
    (secret swap ``j``; ``role`` 0 gave ``g``, 1 gave ``h``) or ``relaxed``."""

    kind: str
    delta: dict[int, int]
    j: int = -1
    role: int = -1


def _terms(j: int, role: int) -> tuple[FlagTerm, FlagTerm]:
    """C_before(u) - C_after(u) for a hand in tracked swap j: [given <= u] - [received <= u]."""
    give, get = (2 * j, 2 * j + 1) if role == 0 else (2 * j + 1, 2 * j)
    return ((give, 1), (get, -1))


def extract(view: PlayerView, *, drop: frozenset[int] = frozenset(), budget: int = STATE_BUDGET,
            read: float | None = None) -> Facts:
    """The constraints of ``view``; facts whose index (in hand facts then slot facts) is in ``drop`` are left out.

    ``drop`` serves the search for a minimal set of clashing facts; ``budget`` bounds the
    lattice state when choosing how many secret swaps to track exactly.

    ``read`` (``0 < read <= 1``) also reads the other players' choices, under a model of how
    they play, not a rule: a player in the middle of its turn whose own lowest or highest
    card not yet face up has the turn's value shows it rather than ask for another card
    (``solver`` did in all 1,075 such moments of 200 Picante games). Each other choice
    weighs the deals in which that card had the turn's value by ``read`` (``Row.avoid``).
    Only the choices of other teams than the viewer's are read (in play without teams, every
    other player's), and none across a secret swap not known exactly.
    """
    rules = view.rules
    n = rules.players
    seat = view.seat
    team = None if seat is None else rules.team_of(seat)

    # First pass: which secret swaps carry information (some fact or change of either hand before them).
    touched = [False] * n
    informative: list[int] = []  # event indices of secret swaps that matter
    for i, event in enumerate(view.events):
        if isinstance(event, Swap):
            a, b = event.seats
            if event.cards is None and rules.team_of(a) != team:
                if touched[a] or touched[b]:
                    informative.append(i)
                    touched[a] = touched[b] = True
            else:
                touched[a] = touched[b] = True
            continue
        for r, _ in event.reveals:
            if not r.is_centre:
                touched[r.index] = True
    secret_total = sum(1 for e in view.events if isinstance(e, Swap) and e.cards is None
                       and rules.team_of(e.seats[0]) != team)

    # How many to track: the most recent ones, while the state stays within the budget.
    base = 1
    sizes_now = view.sizes
    hidden_sizes = sorted((sizes_now[s] for s in range(n) if s != seat and sizes_now[s] > 0), reverse=True)
    for sz in hidden_sizes[1:]:
        base *= sz + 1
    k = 0
    while k < len(informative) and base * 4 ** (k + 1) <= budget:
        k += 1
    tracked_events = informative[len(informative) - k:] if k else []
    tracked = [Tracked(j, ev, view.events[ev].seats) for j, ev in enumerate(tracked_events)]  # type: ignore[union-attr]
    tracked_of = {t.event: t for t in tracked}

    # Second pass: the changes of every hand and the facts.
    changes: list[list[_Change]] = [[] for _ in range(n)]
    gave: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # (change index, value given) for known swaps
    raw_hand: list[tuple[int, int, int, Reveal, int, int, int]] = []
    slot_last: dict[int, tuple[int, int]] = {}
    history: list[tuple[int, TrioChange | Swap]] = []
    relaxed = 0
    table = view.table_copy()  # the public table now (the same as at the end of the replay)
    # (seat, positions its own ends had, the turn's value, its change epoch) of each choice read
    passed: list[tuple[int, tuple[int, ...], int, int]] = []
    pending: tuple[int, tuple[int, ...]] | None = None  # (event, the mover's own end positions)
    for step in logged_steps(rules, view.first_player, view.events):
        i = step.event
        if read is not None:
            pending = _read_step(step, view.events[i], pending, rules, team, passed, changes)
        swap = step.swap
        if swap is not None:
            a, b = swap.seats
            if swap.cards is not None:
                ga, gb = swap.cards
                gave[a].append((len(changes[a]), ga))
                gave[b].append((len(changes[b]), gb))
                changes[a].append(_Change("known", {ga: 1, gb: -1} if ga != gb else {}))
                changes[b].append(_Change("known", {gb: 1, ga: -1} if ga != gb else {}))
            elif i in tracked_of:
                j = tracked_of[i].index
                changes[a].append(_Change("tracked", {}, j, 0))
                changes[b].append(_Change("tracked", {}, j, 1))
            elif i in informative:
                changes[a].append(_Change("relaxed", {}))
                changes[b].append(_Change("relaxed", {}))
                relaxed += 1
            history.append((i, swap))
            continue
        reveal, value = step.reveal, step.value
        assert reveal is not None and value is not None
        if step.position is None:
            slot_last[reveal.index] = (i, value)
        else:
            s = reveal.index
            raw_hand.append((i, step.index, s, reveal, step.position, value, len(changes[s])))
        trio = step.trio
        if trio is not None:
            taken: dict[int, int] = {}
            for s, lo, hi in trio.hands:
                changes[s].append(_Change("known", {value: lo + hi}))
                taken[s] = lo + hi
            for c in trio.slots:
                slot_last.pop(c, None)
            history.append((i, TrioChange(value, taken, trio.slots)))

    def after(s: int, epoch: int) -> tuple[tuple[int, ...], tuple[FlagTerm, ...], int]:
        known: dict[int, int] = {}
        terms: dict[int, int] = {}
        rx = 0
        for ch in changes[s][epoch:]:
            if ch.kind == "known":
                for v, c in ch.delta.items():
                    known[v] = known.get(v, 0) + c
            elif ch.kind == "tracked":
                for bit, coef in _terms(ch.j, ch.role):
                    terms[bit] = terms.get(bit, 0) + coef
            else:
                rx += 1
        cum = [0] * 13
        run = 0
        for u in range(1, 13):
            run += known.get(u, 0)
            cum[u] = run
        return tuple(cum), tuple(sorted((b, c) for b, c in terms.items() if c)), rx

    hand_facts = []
    for (i, j2, s, reveal, pos, value, epoch) in raw_hand:
        shift, terms, rx = after(s, epoch)
        hand_facts.append(HandFact(i, j2, s, reveal, pos, value, shift, terms, rx))
    slot_facts = [SlotFact(i, slot, v) for slot, (i, v) in sorted(slot_last.items())]

    nh = len(hand_facts)
    kept_hand = [f for k2, f in enumerate(hand_facts) if k2 not in drop]
    kept_slots = [f for k2, f in enumerate(slot_facts) if nh + k2 not in drop]

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
    # A hand that is empty now still gets a (zero-size) row when something constrains it:
    # facts about it, shifted by the known cards it gave, must still fit.
    constrained = {s for t in tracked for s in t.seats} | {f.seat for f in kept_hand}
    rows: list[Row] = []
    for s in range(n):
        if s == seat or (table.sizes[s] == 0 and s not in constrained):
            continue
        rows.append(Row(s, table.sizes[s]))
    row_of = {r.key: r for r in rows}
    for row in rows:
        s_changes = changes[row.key]
        for idx, ch in enumerate(s_changes):
            if ch.kind == "known":
                for v, c in ch.delta.items():
                    row.offset[v] += c
            elif ch.kind == "tracked":
                row.dealt_terms.extend(_terms(ch.j, ch.role))
                # the hand chose the card it gave, from its hand just before the swap
                shift, terms, _ = after(row.key, idx)
                extra = tuple(shift[u] - shift[u - 1] if u else 0 for u in range(13))
                row.tracked_choices.append(TrackedChoice(2 * ch.j + ch.role, extra, terms))
        for k2, value in gave[row.key]:
            shift, terms, _ = after(row.key, k2)
            row.choices.append((value, shift[value] - shift[value - 1]))
    for f in kept_hand:
        if f.seat == seat:
            continue  # the viewer's own hand is known; replay checked these
        row2 = row_of[f.seat]
        v, p, d, rx = f.value, f.position, f.shift, f.relax
        row2.bound(v - 1, hi=p - d[v - 1] + rx, terms=f.flags)
        row2.bound(v, lo=p + 1 - d[v] - rx, terms=f.flags)
    for s, positions, v, epoch in passed:
        shift, terms, rx = after(s, epoch)
        if s in row_of and not terms and not rx:
            for p in positions:  # position p of the hand then held v: C_then(v-1) <= p < C_then(v)
                row_of[s].avoid.append((v, p - shift[v - 1], p + 1 - shift[v]))
    pool_slots = [c for c, here in enumerate(table.centre_present) if here and c not in known_slots]
    if pool_slots:
        rows.append(Row(POOL, len(pool_slots)))
    approximate = relaxed > 0
    return Facts(hidden, rows, known_slots, pool_slots, hand_facts, slot_facts, approximate, seat, own, table,
                 history, tracked, secret_total - len(informative), relaxed, read)


def _read_step(step: LoggedStep, event: object, pending: tuple[int, tuple[int, ...]] | None,
               rules: Rules, team: int | None, passed: list[tuple[int, tuple[int, ...], int, int]],
               changes: list[list[_Change]]) -> tuple[int, tuple[int, ...]] | None:
    """One step of :func:`extract`'s reading: if the mover (of another team than the viewer's)
    passed over its own accessible ends (``pending``: the event and the ends' positions, taken
    after the step before) for another card, note it in ``passed``; return the event and the
    mover's end positions after this step if its turn goes on."""
    r = step.reveal
    if r is None or not isinstance(event, Turn):
        return None
    mover = event.seat
    if pending is not None and pending[0] == step.event and rules.team_of(mover) != team \
            and (r.is_centre or r.index != mover):
        passed.append((mover, pending[1], event.reveals[0][1], len(changes[mover])))
    if step.status != TurnStatus.ONGOING:
        return None
    lo, hi = step.mover_used
    size = step.mover_size
    if lo + hi >= size:
        return None
    return (step.event, tuple(sorted({lo, size - 1 - hi})))
