"""Bots: players that see only their :class:`~trio_solver.game.view.PlayerView`.

A bot is anything with the two methods of :class:`Bot`; a frontend can implement
the same protocol for a human. Every random choice of a bot goes through the
:class:`random.Random` it was built with, so a seeded game is reproducible.

* :class:`RandomBot` — a uniformly random legal reveal.
* :class:`MemoryBot` — the strongest kind of bot found in the open-source Trio
  programs: perfect memory of every card shown, its own hand, takes a trio it
  can see, otherwise guesses the likeliest place by counting the cards not yet
  accounted for.
* :class:`SolverBot` — the advisor's exact probabilities, plus the game beyond
  the turn: the mode's goal, and what a failed turn would show the next players.
* :class:`PlayoutBot` (``playout``) — the ``scoring`` rollout policy of the playouts as a
  bot: perfect memory, chances by counting, the ``solver``'s turn score.
* ``expert`` and ``expert-ties`` (:mod:`trio_solver.decide.expert`) — play for the game:
  playouts to the end over exact posterior samples, among the reveals within a window of the
  best turn score (``expert``) or among those tied with it (``expert-ties``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from .. import _args
from .._args import show as _show
from ..errors import ViewError
from .expert import ExpertBot, TiesExpertBot, check_budget
from .swaps import pairing_swap
from ..game.events import Swap
from ..game.reveal import Reveal
from ..game.rules import SEVEN
from .scoring import LEAK_WEIGHT, solver_choice, solver_scores
from .search import Evaluation, check_decision_view
from .memory import Memory, MemoryTracker, Remembering, opening_scores, unaccounted
from .rollout import ModelBot
from ..game.view import PlayerView

__all__ = ["Bot", "RandomBot", "MemoryBot", "SolverBot", "make_bot", "BOT_NAMES", "Memory", "MemoryTracker"]


@runtime_checkable
class Bot(Protocol):
    """What the game loop asks of a player."""

    name: str

    def choose_reveal(self, view: PlayerView) -> Reveal:
        """The next reveal for the seat to move (``view.seat == view.to_move``)."""
        ...

    def choose_swap(self, view: PlayerView) -> int | None:
        """At a swap moment of this seat's team: the value of the card to give, or ``None`` not to swap."""
        ...


class RandomBot:
    """Uniformly random legal reveals; swaps a random card half of the time."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose_reveal(self, view: PlayerView) -> Reveal:
        check_decision_view(view, True)
        return self.rng.choice(view.legal_reveals())

    def choose_swap(self, view: PlayerView) -> int | None:
        check_decision_view(view, False)
        if not view.hand or self.rng.random() < 0.5:
            return None
        return self.rng.choice(view.hand)


class MemoryBot:
    """Perfect memory, takes any trio it can see, else the likeliest guess by counting cards; at a team swap,
    a single card at random, never one its partner gave it (else no swap)."""

    name = "memory"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._remember = Remembering()

    def choose_reveal(self, view: PlayerView) -> Reveal:
        check_decision_view(view, True)
        mem = self._remember(view)
        legal = view.legal_reveals()
        face = view.turn
        if face:
            return self._continue(view, mem, legal, face[0].value)
        start, own, scores = opening_scores(view, mem, legal)
        if start is not None:
            return start
        # else start with a card of the value it holds most of at its own ends (memory_openings: the ties)
        if own:
            return max(zip(own, scores), key=lambda rs: (rs[1], self.rng.random()))[0]
        return self._guess(view, mem, legal, None)

    def _continue(self, view: PlayerView, mem: Memory, legal: list[Reveal], v: int) -> Reveal:
        for r in legal:
            if mem.known(view, r) == v:
                return r
        return self._guess(view, mem, legal, v)

    def _guess(self, view: PlayerView, mem: Memory, legal: list[Reveal], v: int | None) -> Reveal:
        left = unaccounted(view, mem)
        unknown_total = sum(left.values())
        # avoid places remembered to hold another value
        options = [r for r in legal if mem.known(view, r) is None]
        if not options:
            return self.rng.choice(legal)
        if v is None:
            return self.rng.choice(options)
        scored = []
        for r in options:
            scored.append((_guess_prob(view, r, v, left, unknown_total), self.rng.random(), r))
        scored.sort(reverse=True)
        return scored[0][2]

    def choose_swap(self, view: PlayerView) -> int | None:
        check_decision_view(view, False)
        hand = view.hand or ()
        if not hand:
            return None
        singles = [v for v in hand if hand.count(v) == 1 and v != SEVEN]
        # with perfect memory it never hands back a card its partner gave it (the partner had no use for it)
        received = {cards[1 - k] for e in view.events if isinstance(e, Swap) and (cards := e.cards) is not None
                    for k, s in enumerate(e.seats) if s == view.seat}
        singles = [v for v in singles if v not in received]
        return self.rng.choice(singles) if singles else None


def _guess_prob(view: PlayerView, r: Reveal, v: int, left: dict[int, int], total: int) -> float:
    """Chance that an unremembered place shows ``v``, counting unaccounted cards only."""
    if total <= 0:
        return 0.0
    if r.is_centre:
        return left.get(v, 0) / total
    n = view.accessible(r.index)
    below = sum(c for u, c in left.items() if u < v)
    above = sum(c for u, c in left.items() if u > v)
    k = left.get(v, 0)
    side = below if r.kind == "lowest" else above
    n = min(n, total)

    def comb(a: int, b: int) -> int:
        return math.comb(a, b) if 0 <= b <= a else 0

    return (comb(total - side, n) - comb(total - side - k, n)) / max(comb(total, n), 1)


# ---------------------------------------------------------------------------------------------
# Solver


class SolverBot:
    """The advisor, aware of the mode's goal and of what a failed turn shows the next player.

    At each decision it ranks the legal reveals by ``p_win`` weighted strongly, then
    ``p_trio`` weighted by how much that trio serves the goal, minus the chance that
    a failure hands the next player a trio they can then see for certain.
    """

    name = "solver"

    def __init__(self, rng: random.Random, *, leak_weight: float = LEAK_WEIGHT) -> None:
        self.rng = rng
        self.leak_weight = leak_weight
        self._remember = Remembering()

    def choose_reveal(self, view: PlayerView) -> Reveal:
        check_decision_view(view, True)
        return self.first_best(self.scores(view))

    @staticmethod
    def first_best(scored: Sequence[tuple[float, Evaluation]]) -> Reveal:
        """The reveal this bot plays among ``scored`` (as :meth:`scores` gives them): the first of the best."""
        return solver_choice(scored)

    def scores(self, view: PlayerView) -> list[tuple[float, Evaluation]]:
        """Every legal reveal's evaluation with the score this bot ranks it by, in the bots' order of
        ties (:func:`~trio_solver.decide.scoring.bot_order`); the bot plays the first of the best
        (:meth:`first_best`). See :func:`~trio_solver.decide.scoring.solver_scores`."""
        return solver_scores(view, leak_weight=self.leak_weight, remember=self._remember)

    def choose_swap(self, view: PlayerView) -> int | None:
        check_decision_view(view, False)
        return pairing_swap(view)




BOT_NAMES = ("random", "memory", "solver", "playout", "expert-ties", "expert")


class PlayoutBot(ModelBot):
    """The ``expert``'s playout policy (``scoring``, :mod:`trio_solver.decide.rollout`) as a bot: perfect
    memory, chances by counting, first reveals scored as ``solver`` scores them; deterministic."""

    name = "playout"

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng, ExpertBot.policy)

    def choose_reveal(self, view: PlayerView) -> Reveal:
        check_decision_view(view, True)
        return super().choose_reveal(view)

    def choose_swap(self, view: PlayerView) -> int | None:
        check_decision_view(view, False)
        return super().choose_swap(view)


def make_bot(name: str, rng: random.Random, *, budget: int | None = None, time_cap: float | None = None) -> Bot:
    """A bot by name (one of :data:`BOT_NAMES`) drawing its random choices from ``rng``.

    ``budget`` is the experts' playouts per decision (``None``: their default) and ``time_cap``
    the seconds after which their search stops with the leader so far (``None``: no cap, so the
    same seed gives the same choices on any machine); the other bots ignore both. Raises
    :class:`~trio_solver.errors.ViewError` for an unknown name, an ``rng`` that is not a
    :class:`random.Random` or a budget that is not a number of playouts. The bot's
    ``choose_reveal``/``choose_swap`` raise :class:`ViewError` for anything but a
    :class:`PlayerView` of the seat to decide."""
    if not isinstance(name, str) or name not in BOT_NAMES:
        raise ViewError(f"unknown bot {_show(name)} (known: {', '.join(BOT_NAMES)})")
    _args.rng("rng", rng, ViewError)
    if budget is not None:  # checked for every bot, so that a bad budget is an error whoever is seated
        check_budget(budget)
    factories: dict[str, Callable[[random.Random], Bot]] = {
        "random": RandomBot, "memory": MemoryBot, "solver": SolverBot, "playout": PlayoutBot,
        "expert-ties": (lambda r: TiesExpertBot(r, budget=budget, time_cap=time_cap)),
        "expert": (lambda r: ExpertBot(r, budget=budget, time_cap=time_cap)),
    }
    return factories[name](rng)
