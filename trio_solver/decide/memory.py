"""What a player with perfect memory knows of the table: every card shown since its place last changed.

One reader of the public history, :class:`MemoryTracker`, follows a game step by step (a trio takes
its cards out of what is remembered, a secret swap wipes both hands), so that bots do not replay
the history at every decision. It answers in two shapes:

* :class:`Memory` — per hand, the values known counted from each end (``low``/``high``), and the
  known centre slots: what the ``memory`` and ``solver`` bots reason on (:meth:`MemoryTracker.update`
  adds the viewer's own hand);
* :class:`PublicMemory` — per hand, the value known at each sorted position, the known slots and the
  turn in progress: the kernel's state and the experts' races start from it (:func:`public_memory`).

:class:`Remembering` is a bot's tracker of the game its views come from.

The ``memory`` bot's opening rule lives here too (:func:`trio_in_sight`, :func:`promise`,
:func:`memory_openings`): the bot plays it, and the ``expert``'s reading of opponents checks their
first reveals against it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..game.reveal import Reveal
from ..game.rules import COPIES, SEVEN, VALUES
from ..game.table import StepReader
from ..game.view import PlayerView

__all__ = ["Memory", "MemoryTracker", "Remembering", "PublicMemory", "public_memory", "remember_at",
           "reach", "reachable", "unaccounted", "trio_in_sight", "promise", "promises", "opening_scores", "memory_openings"]


@dataclass
class Memory:
    """What a player with perfect memory (and no probability) knows from a view.

    ``low[s]`` / ``high[s]`` list the values known at sorted positions 0, 1, ... from each
    end of seat ``s``'s hand as it is now; ``slots`` the known centre slots.
    """

    low: list[list[int | None]] = field(default_factory=list)
    high: list[list[int | None]] = field(default_factory=list)
    slots: dict[int, int] = field(default_factory=dict)

    @classmethod
    def of(cls, view: PlayerView) -> Memory:
        """Replay the public history of ``view`` and remember every card shown."""
        return MemoryTracker(view).update(view)

    def known(self, view: PlayerView, r: Reveal) -> int | None:
        """The value ``r`` would show now, if remembered."""
        if r.is_centre:
            return self.slots.get(r.index)
        pos = view.position(r)
        s = r.index
        if r.kind == "lowest":
            depth, lst = pos, self.low[s]
        else:
            depth, lst = view.sizes[s] - 1 - pos, self.high[s]
        return lst[depth] if depth < len(lst) else None


class MemoryTracker:
    """The public memory of one game, kept up to date one step at a time as the game's views come in
    (:meth:`update`), so that a bot does not replay the history at every decision."""

    def __init__(self, view: PlayerView) -> None:
        n = view.rules.players
        self.rules, self.first_player = view.rules, view.first_player
        self.reader = StepReader(view.rules, view.first_player)
        self.public = Memory([[] for _ in range(n)], [[] for _ in range(n)], {})

    def follows(self, view: PlayerView) -> bool:
        """Whether ``view`` is a later position of the game followed so far."""
        return (view.rules == self.rules and view.first_player == self.first_player
                and self.reader.follows(view.events))

    def public_of(self, view: PlayerView) -> Memory:
        """What every player remembers at ``view`` (which must :meth:`follow <follows>`): the public
        memory, updated with the steps since the last update. Valid until the next update."""
        mem = self.public
        for step in self.reader.read(view.events):
            if step.swap is not None:
                for s in step.swap.seats:
                    mem.low[s] = []
                    mem.high[s] = []
                continue
            r, v = step.reveal, step.value
            assert r is not None and v is not None
            if step.depth is None:
                mem.slots[r.index] = v
            else:
                remember_at(mem.low[r.index] if r.kind == "lowest" else mem.high[r.index], step.depth, v)
            trio = step.trio
            if trio is not None:
                sizes = step.table.sizes  # after the trio left
                for s, lo, hi in trio.hands:
                    mem.low[s] = mem.low[s][lo:][:sizes[s]]
                    mem.high[s] = mem.high[s][hi:][:sizes[s]]
                for c in trio.slots:
                    mem.slots.pop(c, None)
        return mem

    def update(self, view: PlayerView) -> Memory:
        """What ``view``'s seat remembers now (``view`` must :meth:`follow <follows>`): the public memory
        (:meth:`public_of`) and the seat's own hand. Valid until the next update."""
        mem = self.public_of(view)
        if view.hand is None or view.seat is None:
            return mem
        low, high = mem.low[:], mem.high[:]
        low[view.seat] = list(view.hand)
        high[view.seat] = list(reversed(view.hand))
        return Memory(low, high, mem.slots)


class Remembering:
    """A bot's perfect memory: its :class:`MemoryTracker` of the game its views come from, updated step
    by step (a view of another game starts it afresh)."""

    def __init__(self) -> None:
        self._tracker: MemoryTracker | None = None

    def __call__(self, view: PlayerView) -> Memory:
        if self._tracker is None or not self._tracker.follows(view):
            self._tracker = MemoryTracker(view)
        return self._tracker.update(view)


def remember_at(lst: list[int | None], depth: int, value: int) -> None:
    """Remember ``value`` at ``depth`` of one end's list (``None`` fills what is not known)."""
    while len(lst) <= depth:
        lst.append(None)
    lst[depth] = value


@dataclass(frozen=True)
class PublicMemory:
    """What every player remembers from the public history of a view.

    ``hands[s][p]`` is the value known at sorted position ``p`` of seat ``s``'s hand as
    it is now (``None``: not known); ``slots[i]`` likewise for centre slot ``i``.
    ``turn`` is the turn in progress: the reveals with the values they showed.
    """

    hands: tuple[tuple[int | None, ...], ...]
    slots: tuple[int | None, ...]
    turn: tuple[tuple[Reveal, int], ...]

    def knows(self, view: PlayerView, r: Reveal) -> bool:
        """Whether the card ``r`` would show now is already known to everyone (``view``: the position
        this memory was read from)."""
        if r.is_centre:
            return self.slots[r.index] is not None
        return self.hands[r.index][view.position(r)] is not None

    def alike(self, view: PlayerView, r: Reveal) -> Reveal | None:
        """What ``r`` is the same move as: ``None`` for every centre card no one has seen (the
        posterior cannot tell them apart, so they have the same chances for the turn and the game),
        else ``r`` itself."""
        return None if r.is_centre and not self.knows(view, r) else r


def public_memory(view: PlayerView) -> PublicMemory:
    """What every player remembers of ``view``'s table, by position (:class:`MemoryTracker` over the
    public history, its two ends read as one hand), and the turn in progress."""
    mem = MemoryTracker(view).public_of(view)
    hands: list[tuple[int | None, ...]] = []
    for s, size in enumerate(view.sizes):
        low, high = mem.low[s], mem.high[s]
        hands.append(tuple(low[p] if p < len(low) and low[p] is not None
                           else (high[size - 1 - p] if size - 1 - p < len(high) else None) for p in range(size)))
    slots = tuple(mem.slots.get(i) if here else None for i, here in enumerate(view.centre_present))
    return PublicMemory(tuple(hands), slots, tuple((r.reveal, r.value) for r in view.turn))


def unaccounted(view: PlayerView, mem: Memory) -> dict[int, int]:
    """Copies of each value not in a trio, not in the viewer's hand, not in a remembered place."""
    left = {v: COPIES for v in VALUES}
    for t in view.trios:
        for v in t:
            left[v] = 0
    for v in view.hand or ():
        left[v] -= 1
    for slot, v in mem.slots.items():
        if view.centre_present[slot]:
            left[v] -= 1
    for s in range(view.rules.players):
        if s == view.seat:
            continue
        size = view.sizes[s]
        low, high = mem.low[s], mem.high[s]
        for depth, known in enumerate(low):
            if known is not None:
                left[known] -= 1
        for depth, known in enumerate(high):
            # a card remembered from both ends is counted once
            mirror = size - 1 - depth
            if known is not None and not (0 <= mirror < len(low) and low[mirror] is not None):
                left[known] -= 1
    return {v: max(c, 0) for v, c in left.items()}


def reach(view: PlayerView, mem: Memory) -> list[tuple[int, Reveal | None]]:
    """For each value ``v`` (index 0 unused): :func:`reachable`'s answer, in one pass over the table.

    From one end of a hand only the run of the value at that end can be revealed one after the other,
    so a hand adds to at most two values; the centre adds each remembered slot still there and not
    shown this turn. The first reveal of a value is the first such slot, else the first hand end (by
    seat, its lowest card first) that starts a run of it."""
    count = [0] * (len(VALUES) + 1)
    first: list[Reveal | None] = [None] * (len(VALUES) + 1)
    shown = {r.reveal.index for r in view.turn if r.reveal.is_centre}
    for slot, val in mem.slots.items():
        if view.centre_present[slot] and slot not in shown:
            count[val] += 1
            if first[val] is None:
                first[val] = Reveal.centre(slot)
    for s in range(view.rules.players):
        acc = view.accessible(s)
        if acc <= 0:
            continue
        low = Reveal.lowest(s)
        high = Reveal.highest(s)
        depth_low = view.position(low)
        depth_high = view.sizes[s] - 1 - view.position(high)
        v_low, k_low = _run(mem.low[s], depth_low, acc)
        if k_low:
            count[v_low] += k_low
            first[v_low] = first[v_low] or low
        v_high, k_high = _run(mem.high[s], depth_high, acc)
        k_high = min(k_high, acc - (k_low if v_high == v_low else 0))  # the low run took its share
        if k_high > 0:
            count[v_high] += k_high
            first[v_high] = first[v_high] or high
    return list(zip(count, first))


def _run(lst: list[int | None], depth: int, cap: int) -> tuple[int, int]:
    """The value remembered at ``depth`` of one end's list (0: none) and how many copies of it follow
    one another from there, at most ``cap``."""
    v = lst[depth] if depth < len(lst) else None
    if v is None:
        return 0, 0
    k = 0
    while depth + k < len(lst) and lst[depth + k] == v and k < cap:
        k += 1
    return v, k


def reachable(view: PlayerView, mem: Memory, v: int) -> tuple[int, Reveal | None]:
    """How many remembered cards of ``v`` can be revealed one after the other now, and a first one
    (:func:`reach` answers for every value at once)."""
    return reach(view, mem)[v]


def trio_in_sight(view: PlayerView, mem: Memory,
                  counts: list[tuple[int, Reveal | None]] | None = None) -> Reveal | None:
    """The first reveal of a trio the viewer can see: the value with the most remembered cards that can be
    revealed one after the other (a 7 on a tie with the best so far), when there are three of them, or two
    and a first one to reveal; else ``None``. ``counts``: :func:`reach`'s answer for this view, if at hand."""
    best_v, best_n, start = None, 0, None
    if counts is None:
        counts = reach(view, mem)
    for v in VALUES:
        n, first = counts[v]
        if n > best_n or (n == best_n and best_v is not None and v == SEVEN):
            best_v, best_n, start = v, n, first
    if best_n >= 3 or (best_n == 2 and start is not None):
        return start
    return None


def promise(view: PlayerView, mem: Memory, v: int) -> float:
    """How promising a turn on value ``v`` looks to a counting player: the remembered cards of ``v`` it can
    reveal in sequence, plus a tenth of the copies of ``v`` not accounted for."""
    return promises(view, mem, [v])[0]


def promises(view: PlayerView, mem: Memory, values: list[int],
             counts: list[tuple[int, Reveal | None]] | None = None) -> list[float]:
    """:func:`promise` of each of ``values``, the table counted once (``counts``: :func:`reach`'s answer
    for this view, if at hand)."""
    if counts is None:
        counts = reach(view, mem)
    left = unaccounted(view, mem)
    return [counts[v][0] + left.get(v, 0) / 10 for v in values]


def opening_scores(view: PlayerView, mem: Memory,
                   legal: list[Reveal]) -> tuple[Reveal | None, list[Reveal], list[float]]:
    """The ``memory`` bot's turn start at ``view`` (``legal``: its legal reveals), the table counted once:
    the start of a trio in sight, else ``None`` with its own end cards among ``legal`` and their
    :func:`promise`."""
    counts = reach(view, mem)
    start = trio_in_sight(view, mem, counts)
    if start is not None:
        return start, [], []
    own = [r for r in legal if r.seat == view.seat]
    return None, own, promises(view, mem, [mem.known(view, r) or 0 for r in own], counts)


def memory_openings(view: PlayerView, mem: Memory) -> list[Reveal]:
    """The first reveals the ``memory`` bot chooses among at a turn start of ``view`` (``mem``: what it
    remembers), each as likely: the start of a trio in sight; else its own end cards of the most
    :func:`promise`; else (an empty hand) the places not remembered, or any legal reveal."""
    legal = view.legal_reveals()
    start, own, scores = opening_scores(view, mem, legal)
    if start is not None:
        return [start]
    if own:
        top = max(scores)
        return [r for r, x in zip(own, scores) if x == top]
    return [r for r in legal if mem.known(view, r) is None] or legal
