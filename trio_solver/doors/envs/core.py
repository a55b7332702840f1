"""What the learning environments share: action ids, the decision flow and the encodings.

Nothing here imports PettingZoo or OpenSpiel; :mod:`trio_solver.doors.envs.trio_v0` and
:mod:`trio_solver.doors.openspiel` are thin adapters over these three pieces.

**Action ids** (:class:`ActionCodec`). For ``n`` players with ``k`` centre slots,
``R = k + 2n`` reveal actions cover every reveal that can ever be legal:

====================  ==========================================
id                    meaning
====================  ==========================================
``0 .. k-1``          centre slot ``i``  (``c<i>``)
``k .. k+n-1``        lowest card of seat ``s``  (``l<s>``)
``k+n .. k+2n-1``     highest card of seat ``s``  (``h<s>``)
``R + v - 1``         team play only: offer a card of value ``v`` (1..12) for the swap
``R + 12``            team play only: do not swap
====================  ==========================================

So 3 players have 15 actions, 4 players 16, 5 players 16, 6 players 18; team play
4 players 8 + 13 = 21, 6 players 12 + 13 = 25.

**The decision flow** (:class:`TrioMatch`). Decisions come one at a time. At a swap
moment (before the first turn, and after a trio for the other teams; docs/RULES.md, "Team
play") every open team whose partners both hold a card decides, first seat then
partner, each choosing a card of their own hand or "no swap" without seeing the
other's choice; the team swaps when both offered a card. Otherwise the seat to move
chooses a reveal. A game that reaches ``max_reveals`` reveals without a winner
stops as a draw (truncated): a policy can fail turns forever.

**Returns** (:meth:`TrioMatch.returns`): +1 to each seat of the winning side, and
``-w/l`` to each other seat (``w`` winning seats, ``l`` losing ones), so the returns
add up to 0: ``-1/(n-1)`` without teams, ``-1`` in 4-player team play, ``-1/2`` in
6-player team play. A draw gives 0 to everyone.

**The observation** (:class:`Encoder`) is a flat vector of 0/1 entries holding
exactly what one seat may see; :meth:`Encoder.layout` names its pieces. ``H`` is the
number of cards per hand.

=================  ============  ======================================================
piece              shape         entry is 1 when
=================  ============  ======================================================
``seat``           ``n``         this is the observing seat
``to_move``        ``n``         this seat plays the turn now (or next, at a swap moment)
``phase``          ``2``         [0]: a reveal is being chosen; [1]: a swap choice
``acting``         ``1``         the observing seat makes the current decision
``hand``           ``12 x 3``    the observer holds at least ``j+1`` cards of value ``v``
``sizes``          ``n x H``     seat ``s`` holds at least ``j+1`` cards (face-up ones too)
``known_low``      ``n x H x 12``  the card ``d`` places from the low end of seat ``s`` is known to be ``v``
``known_high``     ``n x H x 12``  likewise from the high end
``centre_present`` ``k``         centre slot ``i`` still holds a card
``centre_known``   ``k x 12``    slot ``i`` holds a card known (seen before) to be ``v``
``turn``           ``2 x (12+R)``  face-up card ``j`` of the turn in progress has value ``v`` / came from action ``a``
``trios``          ``n x 12``    seat ``s`` took a trio of ``v``
=================  ============  ======================================================

``known_low``/``known_high`` are what a player with perfect memory knows of every
hand now (:class:`trio_solver.decide.bots.Memory`): every card shown that is still in play,
where it is now, own hand included. The optional beliefs (:meth:`Encoder.beliefs`)
add the exact posterior of the value each reveal action would show: an ``R x 12``
array whose row ``a`` is the distribution of the value reveal ``a`` shows now (all
zeros where the reveal is not legal).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..._args import show
from ...infer import sampling
from ...infer.beliefs import Beliefs
from ...decide.memory import Memory, remember_at
from ...game.state import Game
from ...errors import IllegalMoveError, TrioError, ViewError
from ...game.reveal import Reveal, Revealed
from ...game.rules import VALUES, Rules
from ...game.view import PlayerView

__all__ = ["ActionCodec", "TrioMatch", "Encoder", "MatchMemory", "NO_SWAP_OFFSET", "DEFAULT_MAX_REVEALS",
           "utility_bounds", "sample_game"]

#: Reveals after which a game without a winner stops as a draw.
DEFAULT_MAX_REVEALS = 1000
#: ``R + NO_SWAP_OFFSET`` is the "do not swap" action in team play.
NO_SWAP_OFFSET = 12


class ActionCodec:
    """The fixed action ids of one setting of the rules (see the module's table)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        n, k = rules.players, rules.centre_size
        self.n_reveals = k + 2 * n
        self.n_actions = self.n_reveals + (13 if rules.teams else 0)
        self._reveals: tuple[Reveal, ...] = (
            tuple(Reveal.centre(i) for i in range(k))
            + tuple(Reveal.lowest(s) for s in range(n))
            + tuple(Reveal.highest(s) for s in range(n))
        )
        self._ids = {r: i for i, r in enumerate(self._reveals)}

    def reveal_id(self, reveal: Reveal) -> int:
        """The action id of a reveal (raises :class:`IllegalMoveError` if no such place exists)."""
        try:
            return self._ids[reveal]
        except KeyError:
            raise IllegalMoveError(f"{reveal} is no place of a {self.rules.players}-player game") from None

    def reveal_of(self, action: int) -> Reveal:
        """The reveal of a reveal action id."""
        if not 0 <= action < self.n_reveals:
            raise IllegalMoveError(f"action {action} is not a reveal (reveals are 0 to {self.n_reveals - 1})")
        return self._reveals[action]

    def is_swap(self, action: int) -> bool:
        return self.rules.teams and self.n_reveals <= action < self.n_actions

    def swap_id(self, value: int | None) -> int:
        """The action id of offering ``value`` for a swap (``None``: do not swap)."""
        if not self.rules.teams:
            raise IllegalMoveError("swap choices exist only in team play")
        if value is None:
            return self.n_reveals + NO_SWAP_OFFSET
        if value not in VALUES:
            raise IllegalMoveError(f"a swap offers a card value 1 to 12, got {show(value)}")
        return self.n_reveals + value - 1

    def swap_of(self, action: int) -> int | None:
        """The value offered by a swap action id (``None``: do not swap)."""
        if not self.is_swap(action):
            raise IllegalMoveError(f"action {action} is not a swap choice")
        off = action - self.n_reveals
        return None if off == NO_SWAP_OFFSET else off + 1

    def name(self, action: int) -> str:
        """Short text of an action: ``c3``, ``l2``, ``h0``, ``swap 5``, ``no swap``."""
        if 0 <= action < self.n_reveals:
            return str(self._reveals[action])
        if self.is_swap(action):
            v = self.swap_of(action)
            return "no swap" if v is None else f"swap {v}"
        return f"invalid action {action}"


class MatchMemory(Memory):
    """The public :class:`~trio_solver.decide.memory.Memory` of a match, kept from the true game one
    action at a time: the same as :meth:`Memory.of <trio_solver.decide.memory.Memory.of>` on a
    spectator's view, in constant time per action instead of a read of the history (the tests check
    the two agree)."""

    def __init__(self, players: int) -> None:
        super().__init__([[] for _ in range(players)], [[] for _ in range(players)], {})

    def copy(self) -> MatchMemory:
        other = MatchMemory(0)
        other.low = [x[:] for x in self.low]
        other.high = [x[:] for x in self.high]
        other.slots = dict(self.slots)
        return other

    def on_reveal(self, game: Game, reveal: Reveal, value: int, turn_before: Sequence[Revealed]) -> None:
        """Record ``reveal`` showing ``value`` (``game`` is the state after it; ``turn_before`` the face-up cards before)."""
        if reveal.is_centre:
            self.slots[reveal.index] = value
        else:
            s = reveal.index
            same = sum(1 for r in turn_before if r.reveal == reveal)
            remember_at(self.low[s] if reveal.kind == "lowest" else self.high[s], same, value)
        if game.turn or len(turn_before) != 2 or any(r.value != value for r in turn_before):
            return  # the turn goes on, or failed: every card goes back where it was
        shown = list(turn_before) + [Revealed(reveal, value)]
        for s in range(len(self.low)):
            lo = sum(1 for r in shown if r.reveal.kind == "lowest" and r.reveal.index == s)
            hi = sum(1 for r in shown if r.reveal.kind == "highest" and r.reveal.index == s)
            if lo or hi:
                size = len(game.hands[s])
                self.low[s] = self.low[s][lo:][:size]
                self.high[s] = self.high[s][hi:][:size]
        for r in shown:
            if r.reveal.is_centre:
                self.slots.pop(r.reveal.index, None)

    def on_swap(self, a: int, b: int) -> None:
        """A swap between ``a`` and ``b``: what was known of both hands is lost."""
        self.low[a], self.high[a], self.low[b], self.high[b] = [], [], [], []


@dataclass(frozen=True)
class _Decision:
    """One decision made in a match, kept so a match can be replayed on another deal."""

    seat: int
    action: int
    swapped_event: int | None = None  # for a swap choice: index in game.events of the swap it led to


@dataclass
class TrioMatch:
    """A game driven one decision at a time, with swap choices as decisions (see the module doc)."""

    game: Game
    max_reveals: int = DEFAULT_MAX_REVEALS
    codec: ActionCodec = field(init=False)
    reveals: int = 0
    decisions: list[_Decision] = field(default_factory=list)
    _queue: list[int] = field(default_factory=list)
    _offers: dict[int, int | None] = field(default_factory=dict)
    memory: MatchMemory = field(init=False)

    def __post_init__(self) -> None:
        if self.game.events or self.game.turn:
            raise IllegalMoveError("a match starts from a game that has not started")
        self.codec = ActionCodec(self.game.rules)
        self.memory = MatchMemory(self.game.rules.players)
        self._open_moment()

    # -- state ---------------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return self.game.rules

    @property
    def over(self) -> bool:
        """The game has a winner or was stopped at ``max_reveals``."""
        return self.game.over or self.truncated

    @property
    def truncated(self) -> bool:
        """Stopped as a draw at ``max_reveals`` reveals."""
        return not self.game.over and self.reveals >= self.max_reveals

    @property
    def swap_phase(self) -> bool:
        return bool(self._queue) and not self.over

    @property
    def current(self) -> int | None:
        """The seat that makes the next decision (``None`` once over)."""
        if self.over:
            return None
        return self._queue[0] if self._queue else self.game.to_move

    def pending_offer(self, seat: int) -> tuple[bool, int | None]:
        """Whether ``seat`` already chose at the swap moment in progress, and what (secret to others)."""
        return (seat in self._offers, self._offers.get(seat))

    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may see now."""
        return self.game.view(seat)

    def _open_moment(self) -> None:
        self._queue = []
        self._offers = {}
        if self.game.over:
            return
        for a, b in self.game.swap_moment():
            if self.game.hands[a] and self.game.hands[b]:
                self._queue += [a, b]

    # -- actions -------------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        """The legal action ids of the current decision, ascending (empty once over)."""
        seat = self.current
        if seat is None:
            return []
        if self._queue:
            ids = [self.codec.swap_id(v) for v in sorted(set(self.game.hands[seat]))]
            return ids + [self.codec.swap_id(None)]
        return sorted(self.codec.reveal_id(r) for r in self.game.legal_reveals())

    def mask(self) -> np.ndarray:
        """The legal actions of the current decision as a 0/1 ``int8`` vector."""
        m = np.zeros(self.codec.n_actions, dtype=np.int8)
        m[self.legal_actions()] = 1
        return m

    def apply(self, action: int) -> None:
        """Make the current decision (raises :class:`IllegalMoveError` if ``action`` is not legal)."""
        seat = self.current
        if seat is None:
            raise IllegalMoveError("the game is over")
        if not isinstance(action, (int, np.integer)) or isinstance(action, bool):
            raise IllegalMoveError(f"an action is an integer id, got {show(action)}")
        action = int(action)
        codec = self.codec
        if self._queue:
            legal = codec.is_swap(action) and (
                codec.swap_of(action) is None or codec.swap_of(action) in self.game.hands[seat])
        else:
            legal = 0 <= action < codec.n_reveals and self.game.is_legal(codec.reveal_of(action))
        if not legal:
            raise IllegalMoveError(f"action {action} ({codec.name(action)}) is not legal for seat {seat} now")
        if self._queue:
            self._queue.pop(0)
            self._offers[seat] = self.codec.swap_of(action)
            partner = self.rules.partner(seat)
            assert partner is not None
            if partner in self._offers:
                a, b = (partner, seat)  # the partner chose first
                va, vb = self._offers[a], self._offers[b]
                if va is not None and vb is not None:
                    event = len(self.game.events)
                    self.game.swap(a, b, va, vb)
                    self.memory.on_swap(a, b)
                    self.decisions.append(_Decision(seat, action, event))
                    for j in range(len(self.decisions) - 2, -1, -1):
                        if self.decisions[j].seat == a:
                            self.decisions[j] = _Decision(a, self.decisions[j].action, event)
                            break
                    del self._offers[a], self._offers[b]
                    return
                del self._offers[a], self._offers[b]
            self.decisions.append(_Decision(seat, action))
            return
        self.decisions.append(_Decision(seat, action))
        reveal = codec.reveal_of(action)
        value = self.game.peek(reveal)
        before = self.game.turn
        self.game.reveal(reveal)
        self.memory.on_reveal(self.game, reveal, value, before)
        self.reveals += 1
        if not self.game.turn and self.game.swap_moment():
            self._open_moment()

    def __deepcopy__(self, memo: dict[int, object]) -> TrioMatch:
        """A cheap independent copy (OpenSpiel clones states with :func:`copy.deepcopy`)."""
        other = TrioMatch.__new__(TrioMatch)
        other.game = self.game.copy()
        other.max_reveals = self.max_reveals
        other.codec = self.codec
        other.reveals = self.reveals
        other.decisions = self.decisions[:]
        other._queue = self._queue[:]
        other._offers = dict(self._offers)
        other.memory = self.memory.copy()
        return other

    def returns(self) -> list[float]:
        """Each seat's return: see the module doc (0 for everyone until the game has a winner)."""
        n = self.rules.players
        winner = self.game.winner
        if winner is None:
            return [0.0] * n
        side = set(self.rules.teams_of_seats[self.rules.team_of(winner)])
        lose = -len(side) / (n - len(side))
        return [1.0 if s in side else lose for s in range(n)]


def sample_game(view: PlayerView, rng: random.Random, tries: int = 200) -> Game:
    """A true state consistent with ``view``, drawn from the exact posterior of :class:`~trio_solver.Beliefs`.

    When too many secret swaps make the beliefs approximate, placements of the relaxed
    model are drawn until one reproduces the history (raises
    :class:`~trio_solver.errors.ViewError` after ``tries`` misses).
    """
    beliefs = Beliefs(view)
    if not beliefs.approximate:
        return sampling.sample_game(beliefs, rng)
    for _ in range(tries):
        try:
            return sampling.game_from_placement(view, beliefs.facts, beliefs.sample(rng), rng)
        except ViewError:
            continue
    raise ViewError("could not draw a deal that fits this history (too many secret swaps)")


def utility_bounds(rules: Rules) -> tuple[float, float]:
    """The lowest and highest return of one seat."""
    side = 2 if rules.teams else 1
    return (-side / (rules.players - side), 1.0)


# ---------------------------------------------------------------------------------------------
# Encodings


class Encoder:
    """The flat 0/1 observation of one seat (layout: see the module doc) and the beliefs array."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.codec = ActionCodec(rules)
        n, h, k, r = rules.players, rules.hand_size, rules.centre_size, self.codec.n_reveals
        pieces: list[tuple[str, tuple[int, ...]]] = [
            ("seat", (n,)), ("to_move", (n,)), ("phase", (2,)), ("acting", (1,)),
            ("hand", (12, 3)), ("sizes", (n, h)),
            ("known_low", (n, h, 12)), ("known_high", (n, h, 12)),
            ("centre_present", (k,)), ("centre_known", (k, 12)),
            ("turn", (2, 12 + r)), ("trios", (n, 12)),
        ]
        self._slices: dict[str, tuple[slice, tuple[int, ...]]] = {}
        at = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self._slices[name] = (slice(at, at + size), shape)
            at += size
        self.size = at

    def layout(self) -> dict[str, tuple[int, int, tuple[int, ...]]]:
        """Each piece's ``(start, stop, shape)`` in the flat vector."""
        return {k: (s.start, s.stop, shape) for k, (s, shape) in self._slices.items()}

    def piece(self, vec: np.ndarray, name: str) -> np.ndarray:
        """A view of one named piece of an observation vector, in its shape."""
        s, shape = self._slices[name]
        return vec[s].reshape(shape)

    def empty(self, dtype: type = np.int8) -> np.ndarray:
        return np.zeros(self.size, dtype=dtype)

    def encode_hand(self, out: np.ndarray, seat: int, hand: Sequence[int]) -> None:
        """Fill only ``seat`` and ``hand`` (used while cards are still being dealt)."""
        self.piece(out, "seat")[seat] = 1
        hp = self.piece(out, "hand")
        for v in VALUES:
            c = min(hand.count(v), 3)
            hp[v - 1, :c] = 1

    def encode(self, view: PlayerView, *, current: int | None, swap_phase: bool,
               memory: MatchMemory | None = None, out: np.ndarray | None = None) -> np.ndarray:
        """The observation of ``view.seat`` (a seat, not a spectator), written into ``out`` if given.

        ``memory``: the match's :class:`MatchMemory` (faster); without it the view's
        history is replayed (:meth:`trio_solver.decide.bots.Memory.of`).
        """
        if view.seat is None:
            raise IllegalMoveError("an observation belongs to a seat, not to a spectator")
        vec = self.empty() if out is None else out
        vec[:] = 0
        rules = self.rules
        n, h = rules.players, rules.hand_size
        self.encode_hand(vec, view.seat, view.hand or ())
        if not view.over and current is not None:
            self.piece(vec, "to_move")[view.to_move] = 1
            self.piece(vec, "phase")[1 if swap_phase else 0] = 1
            self.piece(vec, "acting")[0] = 1 if current == view.seat else 0
        sizes = self.piece(vec, "sizes")
        for s, size in enumerate(view.sizes):
            sizes[s, : min(size, h)] = 1
        if memory is not None:
            low_lists, high_lists, slots = memory.low[:], memory.high[:], memory.slots
            hand = list(view.hand or ())
            low_lists[view.seat] = list(hand)
            high_lists[view.seat] = list(reversed(hand))
        else:
            mem = Memory.of(view)
            low_lists, high_lists, slots = mem.low, mem.high, mem.slots
        low, high = self.piece(vec, "known_low"), self.piece(vec, "known_high")
        for s in range(n):
            for d, v in enumerate(low_lists[s][:h]):
                if v is not None:
                    low[s, d, v - 1] = 1
            for d, v in enumerate(high_lists[s][:h]):
                if v is not None:
                    high[s, d, v - 1] = 1
        present = self.piece(vec, "centre_present")
        known = self.piece(vec, "centre_known")
        for i, here in enumerate(view.centre_present):
            present[i] = 1 if here else 0
            seen = slots.get(i)
            if here and seen is not None:
                known[i, seen - 1] = 1
        turn = self.piece(vec, "turn")
        for j, shown in enumerate(view.turn[:2]):
            turn[j, shown.value - 1] = 1
            turn[j, 12 + self.codec.reveal_id(shown.reveal)] = 1
        trios = self.piece(vec, "trios")
        for s, ts in enumerate(view.trios):
            for v in ts:
                trios[s, v - 1] = 1
        return vec

    def beliefs(self, view: PlayerView, beliefs: Beliefs | None = None) -> np.ndarray:
        """``R x 12`` float32: row ``a`` is the exact distribution of the value reveal ``a`` shows now."""
        out = np.zeros((self.codec.n_reveals, 12), dtype=np.float32)
        if view.over:
            return out
        try:
            b = beliefs if beliefs is not None else Beliefs(view)
            centre = b.centre() if self.rules.centre_size else {}
            for r in view.legal_reveals():
                row = out[self.codec.reveal_id(r)]
                own = view.own_value(r)
                if own is not None:
                    dist = {own: 1.0}
                elif r.is_centre:
                    dist = centre.get(r.index, {})
                else:
                    dist = b.end(r)
                for v, p in dist.items():
                    row[v - 1] = p
        except TrioError:
            out[:] = 0  # no consistent deal (never in a dealt game): no beliefs
        return out
