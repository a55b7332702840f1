"""The *rollout model* of how players play, and Python's handle on the compiled playouts.

:mod:`trio_solver.decide.evaluate` plays many games to their end from deals drawn exactly
from the posterior. They run in the compiled kernel (:mod:`trio_solver.kernel`: a
compact state, the turn rules, the win test and this model, in numba); this module
builds the kernel's arrays from a view (:func:`rules_array`, :func:`state_array`),
wraps one state as :class:`Sim` for tests and bots, and plays the model as a bot
(:class:`ModelBot`). The tests hold the kernel equal to the engine on random games
and the model equal, choice for choice, to a plain Python reference of it.

**The rollout model**, the documented model of play behind every
win chance of :mod:`trio_solver.decide.evaluate`. Each player knows exactly what a player
with perfect memory knows: its own hand, and every card place (centre slot, or
position of a hand counted from its ends) whose value was shown since the last
change to that place. It plays deterministically:

1. At the start of its turn it estimates, for every first reveal it could make (a
   card it knows: its own end card or a public card; an unknown centre card; the
   unknown end of another hand), the chance to take a trio this turn: the chance of
   each value that card may show, times the chance to find two more of it (1 with
   two known cards within reach, else its best guesses, counting that a second
   card at the same end follows the first). The chances come from counting: the
   unaccounted copies of each value are shared among the unknown places that can
   hold them (a run of unknown cards between two known cards of a sorted hand holds
   only values between theirs), and the end of a hand is the smallest or largest
   card of its run. Each chance is weighted by what a trio of that value is worth
   (below). It starts with the best; among equals, a public card before its own
   card. Three known cards within reach count as a certain trio (a likely winning
   trio may still come first).
2. With a value face up it reveals a known card of that value (public cards first),
   else the unknown place likeliest to hold it, by the same chances. With no
   unknown place left it reveals a place everyone already knows, so the failure
   teaches nothing.
3. In team play, :meth:`Sim.give` is the card a player gives its partner at a swap
   moment (the expert's swap search assumes it of the partner). No swaps are made
   during a playout (swaps already made are part of the sampled deal).

**Two policies** (:data:`POLICIES`) weigh the trios of step 1 differently:

* ``counting`` (the default, :data:`DEFAULT_POLICY`, the policy of :func:`~trio_solver.decide.evaluate.evaluate`,
  :func:`~trio_solver.decide.evaluate.advise_game` and the analysis): a trio that wins the game weighs
  four times, any other once; no leak.
* ``scoring`` (the ``expert``'s playouts): the ``solver`` bot's turn score
  ``3 p_win + p_trio + 0.5 progress / trios still needed`` applied to the counted
  chances: a trio that wins weighs 3 + 1 + 0.5 / needed; another weighs
  1 + 0.5 g / needed, with g = 0.5 in Simple and 0.25 per linked value no side
  holds (7 aside) in Picante. A first card that is not public loses half the chance
  that it shows a value of which two cards every player knows are within reach (the
  ``solver`` bot's leak: a failure would show the next player a trio). In the middle of a turn a
  place that cannot hold the value is no better than a public card.

As a bot, ``scoring`` is the ``playout`` bot (measured against ``solver`` in the design
notes); the ``expert`` plays its playouts with it, the ``expert-ties`` bot with ``counting``.

Powers ``x ** m`` in these chances are taken by repeated squaring
(:func:`trio_solver.kernel.ipow`). A playout longer than :data:`MAX_TURNS` turns is a
draw, split evenly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .. import kernel
from ..errors import ViewError
from ..kernel import MAX_TURNS
from ..game.reveal import Reveal
from ..game.rules import Mode, Rules
from ..game.view import PlayerView
from .memory import PublicMemory, public_memory

__all__ = ["Sim", "ModelBot", "PublicMemory", "public_memory", "MAX_TURNS", "Action", "CENTRE", "LOWEST", "HIGHEST",
           "to_action", "to_reveal"]

CENTRE, LOWEST, HIGHEST = kernel.CENTRE, kernel.LOWEST, kernel.HIGHEST
_KIND = {"centre": CENTRE, "lowest": LOWEST, "highest": HIGHEST}
_NAME = ("centre", "lowest", "highest")

#: An action of the compact state: (kind, slot or seat).
Action = tuple[int, int]


def to_action(r: Reveal) -> Action:
    return (_KIND[r.kind], r.index)


def to_reveal(a: Action) -> Reveal:
    kind, i = a
    return Reveal.centre(i) if kind == CENTRE else (Reveal.lowest(i) if kind == LOWEST else Reveal.highest(i))


#: The rollout policies by name: ``counting`` (the model described above) and ``scoring`` (the same
#: chances, first reveals scored as the ``solver`` bot scores them: its goal weights and the leak of a
#: failed turn).
POLICIES = {"counting": kernel.COUNTING, "scoring": kernel.SOLVER}
#: The policy of every playout unless another is asked for.
DEFAULT_POLICY = "counting"


def rules_array(rules: Rules, policy: str = DEFAULT_POLICY) -> np.ndarray:
    """The kernel's array of ``rules`` (:mod:`trio_solver.kernel`: players, mode, sides, partners, links)
    and the rollout ``policy`` (a name of :data:`POLICIES`)."""
    rp = np.zeros(kernel.RULES_SIZE, np.int64)
    rp[kernel.R_POLICY] = POLICIES[policy]
    n = rules.players
    rp[kernel.R_PLAYERS] = n
    rp[kernel.R_PICANTE] = 1 if rules.mode is Mode.PICANTE else 0
    rp[kernel.R_TEAMS] = len(rules.teams_of_seats)
    for s in range(n):
        rp[kernel.R_TEAMOF + s] = rules.team_of(s)
        partner = rules.partner(s)
        rp[kernel.R_PARTNER + s] = -1 if partner is None else partner
    for a, b in rules.link_graph.edges:
        rp[kernel.R_ADJ + a] |= 1 << b
        rp[kernel.R_ADJ + b] |= 1 << a
    return rp


def state_array(view: PlayerView, memory: PublicMemory, hands: Sequence[Sequence[int]],
                centre: Sequence[int | None]) -> np.ndarray:
    """The kernel's state behind ``view`` for the given current hands and centre (``None``: an empty
    slot; ``0`` anywhere: a card the state's user does not know), before the turn in progress is
    replayed (:attr:`PublicMemory.turn`)."""
    rules = view.rules
    st = np.zeros(kernel.STATE_SIZE, np.int64)
    for s, (h, known) in enumerate(zip(hands, memory.hands)):
        base = s * kernel.HMAX
        st[kernel.O_SIZE + s] = len(h)
        for p, (v, k) in enumerate(zip(h, known)):
            st[kernel.O_H + base + p] = v
            st[kernel.O_K + base + p] = k is not None
    st[kernel.O_NCENTRE] = len(centre)
    for i, (c, k) in enumerate(zip(centre, memory.slots)):
        st[kernel.O_C + i] = -1 if c is None else c
        st[kernel.O_CK + i] = k is not None
    for s, ts in enumerate(view.trios):
        for v in ts:
            st[kernel.O_TR + rules.team_of(s)] |= 1 << v
    st[kernel.O_TOMOVE] = view.to_move
    st[kernel.O_WINNER] = -1 if view.winner is None else view.winner
    return st


def turn_actions(memory: PublicMemory) -> np.ndarray:
    """The actions of the turn in progress, as kernel codes."""
    return np.array([kernel.encode(*to_action(r)) for r, _ in memory.turn], dtype=np.int64)


_STATUS = ("ongoing", "trio", "failure")

#: chooses the next action for the seat to move: (sim, face value or 0) -> action or None (stuck)
Chooser = Callable[["Sim", int], "Action | None"]


class Sim:
    """A compact true state of a game, with what every player remembers: a Python handle on the
    compiled kernel's state (:mod:`trio_solver.kernel`), for tests, bots and one-off playouts.

    Build it with :meth:`from_view` (a placement behind a view). :meth:`playout` plays the rollout
    model to the end. Batches of playouts go through :mod:`trio_solver.decide.evaluate`, which calls the
    kernel once per batch instead.
    """

    __slots__ = ("rules", "rp", "st")

    def __init__(self, rules: Rules, rp: np.ndarray, st: np.ndarray) -> None:
        self.rules = rules
        self.rp = rp
        self.st = st

    @classmethod
    def from_view(cls, view: PlayerView, memory: PublicMemory, hands: Sequence[Sequence[int]],
                  centre: Sequence[int | None], policy: str = DEFAULT_POLICY) -> Sim:
        """The state behind ``view`` for the given current hands and centre (e.g. a posterior sample),
        played by ``policy``.

        The turn in progress of the view is replayed, so the cards face up are face up here too.
        """
        sim = cls(view.rules, rules_array(view.rules, policy), state_array(view, memory, hands, centre))
        for a in turn_actions(memory):
            kernel.apply(sim.st, sim.rp, a)
        return sim

    def copy(self) -> Sim:
        return Sim(self.rules, self.rp, self.st.copy())

    def key(self) -> bytes:
        """Everything the rest of the game depends on: two states with the same key play out the same."""
        return self.st.tobytes()

    # -- what the state holds ----------------------------------------------------------------------
    @property
    def n(self) -> int:
        return self.rules.players

    @property
    def hands(self) -> list[list[int]]:
        st = self.st
        return [[int(v) for v in st[kernel.O_H + s * kernel.HMAX:][:st[kernel.O_SIZE + s]]] for s in range(self.n)]

    @property
    def known(self) -> list[list[bool]]:
        st = self.st
        return [[bool(k) for k in st[kernel.O_K + s * kernel.HMAX:][:st[kernel.O_SIZE + s]]] for s in range(self.n)]

    @property
    def centre(self) -> list[int | None]:
        st = self.st
        return [None if c < 0 else int(c) for c in st[kernel.O_C:kernel.O_C + st[kernel.O_NCENTRE]]]

    @property
    def cknown(self) -> list[bool]:
        st = self.st
        return [bool(k) for k in st[kernel.O_CK:kernel.O_CK + st[kernel.O_NCENTRE]]]

    @property
    def trios(self) -> list[set[int]]:
        """Each side's trios."""
        return [{v for v in range(1, 13) if int(self.st[kernel.O_TR + t]) >> v & 1}
                for t in range(len(self.rules.teams_of_seats))]

    @property
    def team_of(self) -> tuple[int, ...]:
        return tuple(self.rules.team_of(s) for s in range(self.n))

    @property
    def to_move(self) -> int:
        return int(self.st[kernel.O_TOMOVE])

    @property
    def winner(self) -> int | None:
        w = int(self.st[kernel.O_WINNER])
        return None if w < 0 else w

    @property
    def face(self) -> list[int]:
        """The values face up in the turn in progress."""
        return [int(self.st[kernel.O_FACE])] * int(self.st[kernel.O_NFACE])

    @property
    def turns(self) -> int:
        return int(self.st[kernel.O_TURNS])

    # -- the rules --------------------------------------------------------------------------------------
    def legal(self) -> list[Action]:
        """Every legal action now (none once the game is won)."""
        buf = np.empty(kernel.CMAX + 2 * kernel.MAXP, np.int64)
        n = kernel.legal(self.st, self.rp, buf)
        return [_action(int(a)) for a in buf[:n]]

    def value(self, a: Action) -> int:
        """The value action ``a`` would show now."""
        return int(kernel.value_of(self.st, kernel.encode(*a)))

    def apply(self, a: Action) -> str:
        """Make one reveal (assumed legal) and settle the turn: ``"ongoing"``, ``"trio"`` or ``"failure"``."""
        return _STATUS[kernel.apply(self.st, self.rp, kernel.encode(*a))]

    def swap(self, a: int, b: int, give_a: int, give_b: int) -> None:
        """A team swap between turns: seat ``a`` gives ``give_a`` to ``b`` and gets ``give_b``. Both
        hands are sorted again and what the table remembered of them is forgotten (as
        :func:`public_memory` does after a swap: the table does not know where the cards went)."""
        kernel.swap(self.st, a, b, give_a, give_b)

    # -- the rollout model ---------------------------------------------------------------------------
    def give(self, seat: int) -> int | None:
        """The card ``seat`` gives its partner at a swap moment, by the rollout model (``None``: no swap)."""
        v = int(kernel.give(self.st, self.rp, seat, kernel.workspace()))
        return None if v < 0 else v

    def choose(self) -> Action | None:
        """The rollout model's next action for the seat to move (``None``: no legal action)."""
        a = int(kernel.choose(self.st, self.rp, kernel.workspace()))
        return None if a < 0 else _action(a)

    def play_turn(self, chooser: Chooser | None = None) -> None:
        """Play (or finish) the turn of the seat to move, with ``chooser`` or the rollout model."""
        if chooser is None:
            kernel.play_turn(self.st, self.rp, kernel.workspace())
            return
        start = self.turns
        while self.turns == start and self.winner is None:
            a = chooser(self, self.face[0] if self.face else 0)
            if a is None:
                kernel.end_turn(self.st, self.rp)
                return
            self.apply(a)

    def play_plan(self, first: Action, offset: int, plan: np.ndarray) -> None:
        """Play the mover's turn as a candidate of :mod:`trio_solver.decide.evaluate` does: ``first``, then
        ``plan[v, k]`` (:func:`trio_solver.decide.evaluate.plan_array`: the ``k``-th reveal after the first once
        it showed ``v``) while legal, then the rollout model; ``offset`` reveals were made before."""
        kernel.play_turn_plan(self.st, self.rp, kernel.encode(*first), offset, plan, kernel.workspace())

    def playout(self) -> int | None:
        """Play the rollout model to the end; the winner (``None``: a draw after :data:`MAX_TURNS` turns)."""
        w = int(kernel.playout(self.st, self.rp, kernel.workspace()))
        return None if w < 0 else w


def _action(code: int) -> Action:
    return (kernel.kind_of(code), kernel.index_of(code))


class ModelBot:
    """The rollout model as a bot: what :mod:`trio_solver.decide.evaluate` assumes every player does.

    It builds a compact state from its view alone (unknown cards are placeholders the
    model never reads) and asks :meth:`Sim.choose` (at a swap moment, :meth:`Sim.give`).
    Deterministic. Used to test that evaluations are calibrated on games the model plays.
    """

    name = "model"

    def __init__(self, rng: object = None, policy: str = DEFAULT_POLICY) -> None:
        self.rng = rng
        self.policy = policy

    def choose_reveal(self, view: PlayerView) -> Reveal:
        sim = self.state(view, self.policy)
        a = sim.choose()
        if a is None:  # cannot happen in a dealt game: some reveal is always legal
            raise ViewError("no legal reveal")
        return to_reveal(a)

    @staticmethod
    def state(view: PlayerView, policy: str = DEFAULT_POLICY) -> Sim:
        """The compact state of ``view``, played by ``policy``: the viewer's hand, remembered cards,
        placeholders (0) elsewhere."""
        memory = public_memory(view)
        hands = [[v if v is not None else 0 for v in h] for h in memory.hands]
        if view.seat is not None and view.hand is not None:
            hands[view.seat] = list(view.hand)
        centre = [v if v is not None else (0 if here else None)
                  for v, here in zip(memory.slots, view.centre_present)]
        return Sim.from_view(view, memory, hands, centre, policy)

    def choose_swap(self, view: PlayerView) -> int | None:
        """At a swap moment: the card the policy gives its partner (:meth:`Sim.give`; ``None``: no swap)."""
        if view.seat is None:
            return None
        return self.state(view, self.policy).give(view.seat)
