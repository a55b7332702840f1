"""The rollout model as it is documented, in plain Python: the slow, readable reference that the
compiled kernel (:mod:`trio_solver.kernel`) is held equal to, choice for choice.

It keeps its own list-based copy of the state and of the turn rules, written for reading rather
than speed; the tests check it against the engine too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from trio_solver.kernel import ipow  # x ** m by repeated squaring: the same rounding in both models
from trio_solver.decide.memory import PublicMemory
from trio_solver.decide.rollout import CENTRE, HIGHEST, LOWEST, Action, to_action
from trio_solver.game.rules import COPIES, SEVEN, Mode, Rules
from trio_solver.game.view import PlayerView

MAX_TURNS = 3000




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


def _extreme(q: list[float], m: int, lowest: bool) -> list[float]:
    """Chance of each value for the smallest (``lowest``) or largest of ``m`` cards, each drawn with the
    chances ``q`` (index 0 unused)."""
    out = [0.0] * 13
    beyond = 1.0  # chance that one card is not beyond v
    for v in (range(1, 13) if lowest else range(12, 0, -1)):
        rest = max(beyond - q[v], 0.0)
        out[v] = ipow(beyond, m) - ipow(rest, m)
        beyond = rest
    return out


@dataclass(frozen=True)
class _Spread:
    """Per value chances of the unknown places (see :meth:`Sim._spread`): ``centre`` for one unknown
    centre card (``None``: none left), ``slots`` of them, the first at slot ``first``; ``rows[g]`` for
    one card of run ``g``; ``run_at[(seat, position)]`` the run and its size at each end of a run."""

    centre: list[float] | None
    slots: int
    first: int | None
    rows: list[list[float]]
    run_at: dict[tuple[int, int], tuple[int, int]]


#: chooses the next action for the seat to move: (sim, face value or 0) -> action or None (stuck)
Chooser = Callable[["ReferenceSim", int], "Action | None"]


class ReferenceSim:
    """A compact true state of a game, with what every player remembers, for fast playouts.

    Build it with :meth:`from_view` (a sampled placement behind a view) or
    :meth:`from_state`. :meth:`playout` plays the rollout model to the end.
    """

    __slots__ = ("rules", "n", "team_of", "hands", "known", "centre", "cknown", "trios", "to_move",
                 "winner", "lo", "hi", "up", "face", "turns", "_win", "_wv", "policy")

    def __init__(self, rules: Rules, hands: Sequence[Sequence[int]], centre: Sequence[int | None],
                 known: Sequence[Sequence[bool]], cknown: Sequence[bool], trios: Sequence[set[int]],
                 to_move: int, policy: str = "counting") -> None:
        self.rules = rules
        self.policy = policy  # "counting" or "scoring" (trio_solver.rollout.POLICIES)
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

    @classmethod
    def from_view(cls, view: PlayerView, memory: PublicMemory, hands: Sequence[Sequence[int]],
                  centre: Sequence[int | None], policy: str = "counting") -> ReferenceSim:
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
        sim = cls(rules, hands, centre, known, cknown, trios, view.to_move, policy)
        if view.over:
            sim.winner = view.winner
        for r, _ in memory.turn:
            sim.apply(to_action(r))
        return sim

    def copy(self) -> ReferenceSim:
        s = ReferenceSim.__new__(ReferenceSim)
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
        return s

    def key(self) -> tuple[object, ...]:
        """Everything the rest of the game depends on between two turns (hands, what the table
        remembers, centre, trios, seat to move, winner, turns played): two states with the same key
        play out the same under the rollout model."""
        return (tuple(map(tuple, self.hands)), tuple(map(tuple, self.known)), tuple(self.centre),
                tuple(self.cknown), tuple(frozenset(t) for t in self.trios), self.to_move, self.winner,
                self.turns)

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

    def swap(self, a: int, b: int, give_a: int, give_b: int) -> None:
        """A team swap between turns: seat ``a`` gives ``give_a`` to ``b`` and gets ``give_b``. Both
        hands are sorted again and what the table remembered of them is forgotten (as
        :func:`public_memory` does after a swap: the table does not know where the cards went)."""
        ha, hb = self.hands[a], self.hands[b]
        ha.remove(give_a)
        hb.remove(give_b)
        ha.append(give_b)
        hb.append(give_a)
        ha.sort()
        hb.sort()
        self.known[a] = [False] * len(ha)
        self.known[b] = [False] * len(hb)

    # -- the rollout model ---------------------------------------------------------------------------
    def give(self, seat: int) -> int | None:
        """The card ``seat`` gives its partner at a swap moment, by the rollout model: a single card (one
        copy in its hand) of the value its partner most likely holds more of, by counting (copies the
        table has seen in the partner's hand, then copies ``seat`` cannot place; ties: a 7, then the
        value nearest the middle). ``None`` (no swap) without a partner or a single card."""
        partner = self.rules.partner(seat)
        hand = self.hands[seat]
        if partner is None or not hand or not self.hands[partner]:
            return None
        singles = [v for v in sorted(set(hand)) if hand.count(v) == 1]
        if not singles:
            return None
        left = self._unaccounted(seat)
        seen = [0] * 13
        for v, k in zip(self.hands[partner], self.known[partner]):
            if k:
                seen[v] += 1
        return max(singles, key=lambda v: (seen[v], left[v], v == SEVEN, -abs(v - 6.5)))

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

    def _spread(self, seat: int, left: list[int]) -> _Spread:
        """Where ``seat`` expects the cards it cannot place: the chance of each value for one
        unknown centre card and for the cards of each run of unknown cards in a hand.

        Each run lies between two known cards of its hand (or an end), so it can only hold
        values between theirs; the unaccounted copies of each value are shared among the
        places that can hold them by iterative proportional fitting (a few rounds of scaling
        rows to the places' sizes and columns to the copies), which keeps, for instance, a
        12 that no hand can hold in the centre.
        """
        sizes: list[int] = []
        ranges: list[tuple[int, int]] = []
        unknown = [i for i, c in enumerate(self.centre) if c is not None and not self.cknown[i] and i not in self.up]
        slots = len(unknown)
        if slots:
            sizes.append(slots)
            ranges.append((1, 12))
        run_at: dict[tuple[int, int], tuple[int, int]] = {}  # (seat, position) -> (run, its size)
        for s in range(self.n):
            if s == seat:
                continue
            h, k = self.hands[s], self.known[s]
            a, b = self.lo[s], len(h) - 1 - self.hi[s]
            below = h[a - 1] if a > 0 else 1
            q = a
            while q <= b:
                if k[q]:
                    below = h[q]
                    q += 1
                    continue
                r = q
                while r <= b and not k[r]:
                    r += 1
                above = h[r] if r < len(h) else 12  # a known card, or one revealed this turn
                g = len(sizes)
                sizes.append(r - q)
                ranges.append((below, above))
                run_at[(s, q)] = run_at[(s, r - 1)] = (g, r - q)
                q = r
        rows = [[float(left[v]) if lo <= v <= hi else 0.0 for v in range(13)] for lo, hi in ranges]
        for _ in range(3):
            # whole rows at a time (a factor 1.0 leaves a value as it is): the same sums and products,
            # in the same order, as scaling value by value, at a fraction of the interpreter's work
            scale = [1.0] * 13
            for v, col in enumerate(zip(*rows)):
                if v:
                    total = sum(col)
                    if total > 0:
                        scale[v] = left[v] / total
            rows = [[x * f for x, f in zip(row, scale)] for row in rows]
            for g, row in enumerate(rows):
                tot = sum(row)
                if tot > 0:
                    f = 1.0 / tot
                    rows[g] = [x * f for x in row]
        return _Spread(rows[0] if slots else None, slots, unknown[0] if slots else None, rows, run_at)

    def _end_dist(self, seat: int, spread: _Spread, s: int, kind: int) -> tuple[list[float], list[float], int] | None:
        """For the unknown end ``kind`` of seat ``s``: the chance of each value there, the chance of
        each value for one card of its run, and the run's size (``None`` if that end is known or empty)."""
        h = self.hands[s]
        p = self.lo[s] if kind == LOWEST else len(h) - 1 - self.hi[s]
        run = spread.run_at.get((s, p))
        if run is None or self.known[s][p]:
            return None
        q = spread.rows[run[0]]
        return _extreme(q, run[1], kind == LOWEST), q, run[1]

    def _guess(self, seat: int, v: int, left: list[int]) -> tuple[float, Action | None]:
        """The unknown place likeliest to show ``v`` for ``seat``, and that chance."""
        spread = self._spread(seat, left)
        best: tuple[float, Action | None] = (-1.0, None)
        if spread.centre is not None and spread.first is not None:
            best = (spread.centre[v], (CENTRE, spread.first))  # all unknown slots look alike
        for s in range(self.n):
            if s == seat:
                continue
            for kind in (LOWEST, HIGHEST):
                d = self._end_dist(seat, spread, s, kind)
                if d is not None and d[0][v] > best[0]:
                    best = (d[0][v], (kind, s))
        return best

    def choose(self, face_value: int) -> Action | None:
        """The rollout model's next action for the seat to move (``face_value`` 0: start of turn)."""
        seat = self.to_move
        if not face_value:
            return self._start(seat)
        lst = self._reachable(seat).get(face_value)
        if lst:
            return lst[0]
        p, a = self._guess(seat, face_value, self._unaccounted(seat))
        if a is not None and not (self.policy == "scoring" and p <= 0.0):
            return a  # scoring: a place that cannot show the value is no better than a public card
        return self._harmless(seat)

    def _weights(self, seat: int) -> list[float]:
        """The weight of a trio of each value in ``seat``'s turn score. counting: 4 for a trio that wins
        the game, else 1. scoring: the ``solver`` bot's score of a sure trio of the value,
        3 * p_win + p_trio + 0.5 * goal weight / trios still needed (goal weight 1 for a win; simple
        0.5; Picante 0.25 per linked value no side holds, 7 aside)."""
        held = self.trios[self.team_of[seat]]
        wins = self._wv(held)
        if self.policy == "counting":
            return [0.0] + [4.0 if v in wins else 1.0 for v in range(1, 13)]
        goal = max(self.rules.goal_distance(held), 1)
        taken = set().union(*self.trios)
        out = [0.0]
        for v in range(1, 13):
            if v in wins:
                out.append(3.0 + 1.0 + 0.5 * 1.0 / goal)
            elif self.rules.mode is Mode.SIMPLE:
                out.append(1.0 + 0.5 * 0.5 / goal)
            else:
                live = [w for w in self.rules.link_graph.neighbors(v) if w not in taken and w != SEVEN]
                out.append(1.0 + 0.5 * 0.25 * len(live) / goal)
        return out

    def _start(self, seat: int) -> Action | None:
        """The first reveal of a turn: the first of the best-scored candidates of :meth:`start_scores`,
        else the first legal action."""
        best_score = -1.0
        best: Action | None = None
        for a, score in self.start_scores(seat):
            if score > best_score:
                best_score, best = score, a
        if best is not None:
            return best
        legal = self.legal()
        return legal[0] if legal else None

    def start_scores(self, seat: int) -> list[tuple[Action, float]]:
        """The candidate first reveals of a turn and their scores: the estimated chance of a trio (wins weighted).

        For each first reveal it could make (a card it knows: its own end card or a public
        card; one unknown centre card; an unknown end of another hand), the chance of a trio
        is the chance of each value the card may show (from :meth:`_spread`; the end of a
        hand is the smallest or largest card of its run) times the chance to find two more:
        1 with two known cards within reach, else the best guesses (the likeliest unknown
        places, including the card behind a known end; a second guess at the same end
        counts what the first showed), times the weight of a trio of the value (:meth:`_weights`).
        Under ``scoring`` a first card loses half the chance that it shows a value of which two cards
        every player knows are within reach, unless it is public itself (what the ``solver`` bot calls
        the leak). Among equals a public card goes before its own card.
        """
        left = self._unaccounted(seat)
        weight = self._weights(seat)
        reach = self._reachable(seat)
        public = {v: len(lst) for v, lst in self._reachable(-1).items()}  # every player knows these
        leaky = self.policy == "scoring"
        spread = self._spread(seat, left)
        centre = spread.centre
        # unknown ends of other hands: (action, chance of each value there, per card of its run, run size)
        ends: list[tuple[Action, list[float], list[float], int]] = []
        known: list[tuple[Action, int]] = [((CENTRE, i), c) for i, c in enumerate(self.centre)
                                           if c is not None and self.cknown[i]]
        behind = [0.0] * 13  # the best chance that the card behind a known end of v is a v too
        for s in range(self.n):
            h = self.hands[s]
            single = len(h) - self.lo[s] - self.hi[s] == 1
            for kind in (LOWEST, HIGHEST):
                if len(h) - self.lo[s] - self.hi[s] <= 0 or (single and kind == HIGHEST):
                    continue
                p = self.lo[s] if kind == LOWEST else len(h) - 1 - self.hi[s]
                if s == seat or self.known[s][p]:
                    v = h[p]
                    known.append(((kind, s), v))
                    run = spread.run_at.get((s, p + (1 if kind == LOWEST else -1)))
                    if s != seat and run is not None:
                        behind[v] = max(behind[v], 1.0 - ipow(1.0 - spread.rows[run[0]][v], run[1]))
                    continue
                d = self._end_dist(seat, spread, s, kind)
                if d is not None:
                    ends.append(((kind, s), *d))

        def two_more(v: int, lv: int, skip: Action | None, have: int) -> float:
            """Chance to find the cards of ``v`` still missing after ``have`` known ones (``lv`` copies unplaced)."""
            if have >= 2:
                return 1.0
            if lv <= 0:
                return 0.0
            scale = lv / left[v]
            qq = (lv - 1) / lv  # the chance that a second card is a v too, given the first was
            best1 = best2 = pair = 0.0
            guesses: list[tuple[float, float]] = []  # (chance, chance of a second v right behind it)
            if centre is not None:
                more = spread.slots - (1 if skip is not None and skip[0] == CENTRE else 0)
                if more:
                    c = centre[v] * scale
                    guesses.append((c, c * qq if more >= 2 else 0.0))
            for a, dist, q, m in ends:
                if a != skip:
                    second = 1.0 - ipow(1.0 - q[v] * qq, m - 1) if m > 1 else 0.0
                    guesses.append((dist[v] * scale, second))
            if behind[v]:
                guesses.append((behind[v] * scale, 0.0))
            for p, second in guesses:
                if p > best1:
                    best1, best2 = p, best1
                elif p > best2:
                    best2 = p
                pair = max(pair, p * second)
            if have == 1:
                return best1
            return max(best1 * best2 * qq, pair)

        out: list[tuple[Action, float]] = []
        for a, v in known:
            lst = reach.get(v, [])
            if not lst or lst[0] != a:
                continue  # the first card of its value is another one (public before own)
            score = two_more(v, left[v], a, len(lst) - 1) * weight[v]
            if leaky and public.get(v, 0) >= 2 and not self._public(a):
                score -= 0.5  # one's own card beside two public ones: the next player's trio if it fails
            out.append((a, score))
        firsts: list[tuple[Action, list[float]]] = [(a, d) for a, d, _, _ in ends]
        if centre is not None and spread.first is not None:
            firsts.append(((CENTRE, spread.first), centre))
        for a, dist in firsts:
            score = leak = 0.0
            for v in range(1, 13):
                if dist[v] > 0:
                    score += dist[v] * two_more(v, left[v] - 1, a, len(reach.get(v, ()))) * weight[v]
                    if public.get(v, 0) >= 2:  # shown beside two public v's: the next player's trio
                        leak += dist[v]
            if leaky:
                score -= 0.5 * leak
            out.append((a, score))
        return out

    def _harmless(self, seat: int) -> Action | None:
        """A legal action showing as little as possible: a public card, else any."""
        legal = self.legal()
        for a in legal:
            if self._public(a):
                return a
        return legal[0] if legal else None

    def play_turn(self, chooser: Chooser | None = None) -> None:
        """Play (or finish) the turn of the seat to move, with ``chooser`` or the rollout model."""
        pick = chooser or ReferenceSim.choose
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


