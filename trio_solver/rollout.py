"""Fast playouts: a compact copy of the true state and the *rollout model* of how players play.

:mod:`trio_solver.evaluate` plays many games to their end from deals drawn exactly
from the posterior. :class:`~trio_solver.engine.Game` keeps an undo history and a
public table for every reveal, which costs more than the playouts can afford, so
this module holds a small state of its own (hands, centre, who knows which card)
and plays turns on it with the same rules. The tests check it against the engine
on random games.

**The rollout model** (``model="memory"``), the documented model of play behind every
win chance of :mod:`trio_solver.evaluate`. Each player knows exactly what a player
with perfect memory knows: its own hand, and every card place (centre slot, or
position of a hand counted from its ends) whose value was shown since the last
change to that place. It plays deterministically:

1. If it can reach three known cards of one value in one turn, it takes that trio
   (a winning value first, then the value that serves its goal).
2. Otherwise it starts with the value it holds the best chances on: two known
   reachable cards and the likeliest unknown third, else one known card (its own
   end card, or a public one) and two guesses. Known public cards are revealed
   before its own cards, and its own cards before guesses, so a failure shows as
   little as possible.
3. With a value face up it reveals a known card of that value, else the unknown
   place likeliest to hold it by counting the unaccounted cards (a centre slot:
   unaccounted copies over unaccounted cards; the end of a hand: the chance that
   the end of that many unaccounted cards is the value). With no unknown place
   left it reveals a place everyone already knows, so the failure teaches nothing.

No swaps are made during a playout (swaps already made are part of the sampled
deal). A playout longer than :data:`MAX_TURNS` turns is a draw, split evenly.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .errors import ViewError
from .replay import steps
from .reveal import Reveal
from .rules import COPIES, SEVEN, Mode, Rules
from .view import PlayerView

__all__ = ["Sim", "ModelBot", "PublicMemory", "public_memory", "MAX_TURNS", "Action", "CENTRE", "LOWEST", "HIGHEST",
           "to_action", "to_reveal"]

#: Turns after which a playout stops as a draw (never reached by the rollout model in practice).
MAX_TURNS = 3000

CENTRE, LOWEST, HIGHEST = 0, 1, 2
_KIND = {"centre": CENTRE, "lowest": LOWEST, "highest": HIGHEST}
_NAME = ("centre", "lowest", "highest")

#: An action of the compact state: (kind, slot or seat).
Action = tuple[int, int]


def to_action(r: Reveal) -> Action:
    return (_KIND[r.kind], r.index)


def to_reveal(a: Action) -> Reveal:
    kind, i = a
    return Reveal.centre(i) if kind == CENTRE else (Reveal.lowest(i) if kind == LOWEST else Reveal.highest(i))


@dataclass(frozen=True)
class PublicMemory:
    """What every player remembers from the public history of a view.

    ``hands[s][p]`` is the value known at sorted position ``p`` of seat ``s``'s hand as
    it is now (``None``: not known); ``slots[i]`` likewise for centre slot ``i``.
    ``turn`` is the turn in progress as actions with the values they showed.
    """

    hands: tuple[tuple[int | None, ...], ...]
    slots: tuple[int | None, ...]
    turn: tuple[tuple[Action, int], ...]

    def knows(self, view: PlayerView, r: Reveal) -> bool:
        """Whether the card ``r`` would show now is already known to everyone (``view``: the position
        this memory was read from)."""
        if r.is_centre:
            return self.slots[r.index] is not None
        return self.hands[r.index][view.position(r)] is not None


def public_memory(view: PlayerView) -> PublicMemory:
    """Replay the public history of ``view`` (through :func:`trio_solver.replay.steps`) and remember
    every card shown, and where it is now."""
    rules = view.rules
    hands: list[list[int | None]] = [[None] * rules.hand_size for _ in range(rules.players)]
    slots: list[int | None] = [None] * rules.centre_size
    in_progress: list[tuple[Action, int]] = []
    last = len(view.events) - 1 if view.turn else -1
    for step in steps(rules, view.first_player, view.events):
        if step.swap is not None:  # both hands changed in a way the table may not know
            for s in step.swap.seats:
                hands[s] = [None] * len(hands[s])
            continue
        r, v = step.reveal, step.value
        assert r is not None and v is not None
        if step.position is None:
            slots[r.index] = v
        else:
            hands[r.index][step.position] = v
        if step.event == last:
            in_progress.append((to_action(r), v))
        if step.trio is not None:
            for s, lo, hi in step.trio.hands:
                h = hands[s]
                hands[s] = h[lo:len(h) - hi]
            for i in step.trio.slots:
                slots[i] = None
    if [len(h) for h in hands] != list(view.sizes):
        raise ViewError("the public history does not account for the hand sizes of this view")
    return PublicMemory(tuple(tuple(h) for h in hands),
                        tuple(v if p else None for v, p in zip(slots, view.centre_present)), tuple(in_progress))


def _win_test(rules: Rules) -> Callable[[set[int]], bool]:
    if rules.mode is Mode.SIMPLE:
        return lambda held: SEVEN in held or len(held) >= 3
    adj = {v: set(rules.link_graph.neighbors(v)) for v in range(1, 13)}
    return lambda held: SEVEN in held or any(adj[v] & held for v in held)


def _winning_values(rules: Rules) -> Callable[[set[int]], set[int]]:
    if rules.mode is Mode.SIMPLE:
        return lambda held: set(range(1, 13)) - held if len(held) >= 2 else {SEVEN} - held
    adj = {v: set(rules.link_graph.neighbors(v)) for v in range(1, 13)}

    def wv(held: set[int]) -> set[int]:
        out = {SEVEN}
        for v in held:
            out |= adj[v]
        return out - held
    return wv


def _comb(a: int, b: int) -> int:
    return math.comb(a, b) if 0 <= b <= a else 0


#: chooses the next action for the seat to move: (sim, face value or 0) -> action or None (stuck)
Chooser = Callable[["Sim", int], "Action | None"]


class Sim:
    """A compact true state of a game, with what every player remembers, for fast playouts.

    Build it with :meth:`from_view` (a sampled placement behind a view) or
    :meth:`from_state`. :meth:`playout` plays the rollout model to the end.
    """

    __slots__ = ("rules", "n", "team_of", "hands", "known", "centre", "cknown", "trios", "to_move",
                 "winner", "lo", "hi", "up", "face", "turns", "_win", "_wv", "_links")

    def __init__(self, rules: Rules, hands: Sequence[Sequence[int]], centre: Sequence[int | None],
                 known: Sequence[Sequence[bool]], cknown: Sequence[bool], trios: Sequence[set[int]],
                 to_move: int) -> None:
        self.rules = rules
        self.n = rules.players
        self.team_of = tuple(rules.team_of(s) for s in range(self.n))
        self.hands = [list(h) for h in hands]
        self.known = [list(k) for k in known]
        self.centre = list(centre)
        self.cknown = list(cknown)
        self.trios = [set(t) for t in trios]  # per team
        self.to_move = to_move
        self.winner: int | None = None
        self.lo = [0] * self.n
        self.hi = [0] * self.n
        self.up: list[int] = []
        self.face: list[int] = []
        self.turns = 0
        self._win = _win_test(rules)
        self._wv = _winning_values(rules)
        self._links = {v: set(rules.link_graph.neighbors(v)) for v in range(1, 13)}

    @classmethod
    def from_view(cls, view: PlayerView, memory: PublicMemory, hands: Sequence[Sequence[int]],
                  centre: Sequence[int | None]) -> Sim:
        """The state behind ``view`` for the given current hands and centre (e.g. a posterior sample).

        The turn in progress of the view is replayed, so the cards face up are face up here too.
        """
        rules = view.rules
        teams = len(rules.teams_of_seats)
        trios: list[set[int]] = [set() for _ in range(teams)]
        for s, ts in enumerate(view.trios):
            trios[rules.team_of(s)].update(ts)
        known = [[v is not None for v in h] for h in memory.hands]
        cknown = [v is not None for v in memory.slots]
        sim = cls(rules, hands, centre, known, cknown, trios, view.to_move)
        if view.over:
            sim.winner = view.winner
        for act, _ in memory.turn:
            sim.apply(act)
        return sim

    def copy(self) -> Sim:
        s = Sim.__new__(Sim)
        s.rules = self.rules
        s.n = self.n
        s.team_of = self.team_of
        s.hands = [h[:] for h in self.hands]
        s.known = [k[:] for k in self.known]
        s.centre = self.centre[:]
        s.cknown = self.cknown[:]
        s.trios = [set(t) for t in self.trios]
        s.to_move = self.to_move
        s.winner = self.winner
        s.lo = self.lo[:]
        s.hi = self.hi[:]
        s.up = self.up[:]
        s.face = self.face[:]
        s.turns = self.turns
        s._win = self._win
        s._wv = self._wv
        s._links = self._links
        return s

    # -- the rules ------------------------------------------------------------------------------
    def legal(self) -> list[Action]:
        """Every legal action now (none once the game is won)."""
        if self.winner is not None:
            return []
        out: list[Action] = [(CENTRE, i) for i, v in enumerate(self.centre) if v is not None and i not in self.up]
        for s in range(self.n):
            if len(self.hands[s]) - self.lo[s] - self.hi[s] > 0:
                out.append((LOWEST, s))
                out.append((HIGHEST, s))
        return out

    def value(self, a: Action) -> int:
        """The value action ``a`` would show now."""
        kind, i = a
        if kind == CENTRE:
            v = self.centre[i]
            assert v is not None
            return v
        h = self.hands[i]
        return h[self.lo[i]] if kind == LOWEST else h[len(h) - 1 - self.hi[i]]

    def apply(self, a: Action) -> str:
        """Make one reveal (assumed legal) and settle the turn: ``"ongoing"``, ``"trio"`` or ``"failure"``."""
        kind, i = a
        v: int | None
        if kind == CENTRE:
            v = self.centre[i]
            assert v is not None
            self.up.append(i)
            self.cknown[i] = True
        elif kind == LOWEST:
            p = self.lo[i]
            v = self.hands[i][p]
            self.known[i][p] = True
            self.lo[i] = p + 1
        else:
            h = self.hands[i]
            p = len(h) - 1 - self.hi[i]
            v = h[p]
            self.known[i][p] = True
            self.hi[i] += 1
        face = self.face
        if face and v != face[0]:
            self._end_turn()
            return "failure"
        face.append(v)
        if len(face) == 3:
            for s in range(self.n):
                lo, hi = self.lo[s], self.hi[s]
                if lo or hi:
                    h = self.hands[s]
                    self.hands[s] = h[lo:len(h) - hi]
                    k = self.known[s]
                    self.known[s] = k[lo:len(k) - hi]
            for c in self.up:
                self.centre[c] = None
                self.cknown[c] = False
            team = self.team_of[self.to_move]
            self.trios[team].add(v)
            if self._win(self.trios[team]):
                self.winner = self.to_move
            self._end_turn()
            return "trio"
        if not self._any_legal():
            self._end_turn()
            return "failure"
        return "ongoing"

    def _any_legal(self) -> bool:
        if any(v is not None and i not in self.up for i, v in enumerate(self.centre)):
            return True
        return any(len(h) - lo - hi > 0 for h, lo, hi in zip(self.hands, self.lo, self.hi))

    def _end_turn(self) -> None:
        n = self.n
        self.lo = [0] * n
        self.hi = [0] * n
        self.up = []
        self.face = []
        self.turns += 1
        if self.winner is None:
            self.to_move = (self.to_move + 1) % n

    # -- the rollout model ---------------------------------------------------------------------------
    def knows(self, seat: int, a: Action) -> int | None:
        """The value ``a`` would show, if ``seat`` knows it (its own hand, or a remembered place)."""
        kind, i = a
        if kind == CENTRE:
            return self.centre[i] if self.cknown[i] else None
        h = self.hands[i]
        p = self.lo[i] if kind == LOWEST else len(h) - 1 - self.hi[i]
        if i == seat or self.known[i][p]:
            return h[p]
        return None

    def _public(self, a: Action) -> bool:
        kind, i = a
        if kind == CENTRE:
            return self.cknown[i]
        h = self.hands[i]
        p = self.lo[i] if kind == LOWEST else len(h) - 1 - self.hi[i]
        return self.known[i][p]

    def _unaccounted(self, seat: int) -> list[int]:
        """Copies of each value that ``seat`` cannot place (index 0 unused)."""
        left = [COPIES] * 13
        left[0] = 0
        for team in self.trios:
            for v in team:
                left[v] = 0
        for s in range(self.n):
            h = self.hands[s]
            if s == seat:
                for v in h:
                    left[v] -= 1
            else:
                for v, k in zip(h, self.known[s]):
                    if k:
                        left[v] -= 1
        for c, k in zip(self.centre, self.cknown):
            if k and c is not None:
                left[c] -= 1
        return left

    def _reachable(self, seat: int) -> dict[int, list[Action]]:
        """For each value, known cards of it that ``seat`` can reveal one after the other, public ones first."""
        out: dict[int, list[Action]] = {}
        for i, v in enumerate(self.centre):
            if v is not None and self.cknown[i] and i not in self.up:
                out.setdefault(v, []).append((CENTRE, i))
        for s in range(self.n):
            h = self.hands[s]
            acc = len(h) - self.lo[s] - self.hi[s]
            if acc <= 0:
                continue
            k = self.known[s]
            own = s == seat
            got = 0
            p = self.lo[s]
            if own or k[p]:
                v = h[p]
                lst = out.setdefault(v, [])
                while got < acc and h[p + got] == v and (own or k[p + got]):
                    lst.append((LOWEST, s))
                    got += 1
            q = len(h) - 1 - self.hi[s]
            if got < acc and (own or k[q]):
                v = h[q]
                lst = out.setdefault(v, [])
                j = 0
                while got < acc and h[q - j] == v and (own or k[q - j]):
                    lst.append((HIGHEST, s))
                    got += 1
                    j += 1
        for v, lst in out.items():
            lst.sort(key=lambda a: (a[1] == seat and a[0] != CENTRE))  # public cards before own cards
        return out

    def _guess(self, seat: int, v: int, left: list[int]) -> tuple[float, Action | None]:
        """The unknown place likeliest to show ``v`` for ``seat``, and that chance."""
        total = sum(left)
        best: tuple[float, Action | None] = (-1.0, None)
        if total <= 0:
            return best
        k = left[v]
        for i, c in enumerate(self.centre):
            if c is not None and not self.cknown[i] and i not in self.up:
                best = max(best, (k / total, (CENTRE, i)), key=lambda t: t[0])
                break  # all unknown slots look alike
        below = sum(left[1:v])
        above = sum(left[v + 1:])
        for s in range(self.n):
            if s == seat:
                continue
            h = self.hands[s]
            lo, hi = self.lo[s], self.hi[s]
            if len(h) - lo - hi <= 0:
                continue
            kn = self.known[s]
            unknown = sum(1 for x in kn[lo:len(kn) - hi] if not x)
            n = min(unknown, total)
            denom = _comb(total, n)
            if denom <= 0:
                continue
            for kind, p, side in ((LOWEST, lo, below), (HIGHEST, len(h) - 1 - hi, above)):
                if kn[p]:
                    continue
                prob = (_comb(total - side, n) - _comb(total - side - k, n)) / denom
                if prob > best[0]:
                    best = (prob, (kind, s))
        return best

    def choose(self, face_value: int) -> Action | None:
        """The rollout model's next action for the seat to move (``face_value`` 0: start of turn)."""
        seat = self.to_move
        reach = self._reachable(seat)
        if face_value:
            lst = reach.get(face_value)
            if lst:
                return lst[0]
            left = self._unaccounted(seat)
            p, a = self._guess(seat, face_value, left)
            if a is not None:
                return a
            return self._harmless(seat)
        team = self.team_of[seat]
        held = self.trios[team]
        wins = self._wv(held)
        left = self._unaccounted(seat)
        total = max(sum(left), 1)
        best_score = -1.0
        best: Action | None = None
        for v in sorted(reach):
            lst = reach[v]
            c = len(lst)
            if c >= 3:
                score = 10.0
            elif c == 2:
                score = self._guess(seat, v, left)[0] * 1.0
            else:
                score = 0.5 * (left[v] / total) * max(left[v] - 1, 0) / total * 3
            if v in wins:
                score *= 2.0
            elif any(w in held for w in self._links[v]) or v == SEVEN:
                score *= 1.2
            if score > best_score:
                best_score, best = score, lst[0]
        if best is not None:
            return best
        legal = self.legal()
        return legal[0] if legal else None

    def _harmless(self, seat: int) -> Action | None:
        """A legal action showing as little as possible: a public card, else any."""
        legal = self.legal()
        for a in legal:
            if self._public(a):
                return a
        return legal[0] if legal else None

    def play_turn(self, chooser: Chooser | None = None) -> None:
        """Play (or finish) the turn of the seat to move, with ``chooser`` or the rollout model."""
        pick = chooser or Sim.choose
        start = self.turns
        while self.turns == start and self.winner is None:
            a = pick(self, self.face[0] if self.face else 0)
            if a is None:
                self._end_turn()
                return
            self.apply(a)

    def playout(self) -> int | None:
        """Play the rollout model to the end; the winner (``None``: a draw after :data:`MAX_TURNS` turns)."""
        while self.winner is None and self.turns < MAX_TURNS:
            self.play_turn()
        return self.winner


class ModelBot:
    """The rollout model as a bot: what :mod:`trio_solver.evaluate` assumes every player does.

    It builds a compact state from its view alone (unknown cards are placeholders the
    model never reads) and asks :meth:`Sim.choose`. Deterministic; makes no swaps.
    Used to test that evaluations are calibrated on games the model plays.
    """

    name = "model"

    def __init__(self, rng: object = None) -> None:
        self.rng = rng

    def choose_reveal(self, view: PlayerView) -> Reveal:
        sim = self.state(view)
        a = sim.choose(sim.face[0] if sim.face else 0)
        if a is None:  # cannot happen in a dealt game: some reveal is always legal
            raise ViewError("no legal reveal")
        return to_reveal(a)

    @staticmethod
    def state(view: PlayerView) -> Sim:
        """The compact state of ``view``: the viewer's hand, remembered cards, placeholders (0) elsewhere."""
        memory = public_memory(view)
        hands = [[v if v is not None else 0 for v in h] for h in memory.hands]
        if view.seat is not None and view.hand is not None:
            hands[view.seat] = list(view.hand)
        centre = [v if v is not None else (0 if here else None)
                  for v, here in zip(memory.slots, view.centre_present)]
        return Sim.from_view(view, memory, hands, centre)

    def choose_swap(self, view: PlayerView) -> int | None:
        return None
