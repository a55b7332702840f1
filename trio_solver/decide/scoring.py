"""The ``solver`` bot's turn score: what it ranks the legal reveals by, as a function of one view.

The ``solver`` bot (:class:`trio_solver.decide.bots.SolverBot`) plays the first best of
:func:`solver_scores`; the experts order their candidates by :func:`solver_score` (the same score
without the leak), and the policy reading (:mod:`trio_solver.decide.reading`) asks what ``solver``
would have opened a past turn with on a deal. One place, so that the three cannot drift apart.

* :func:`solver_score` — ``3 p_win + p_trio + 0.5 progress / goal``: the chance of a win this turn
  first, then of a trio, then how far the trio takes the mover towards the mode's goal;
* :func:`leak` — at a turn's start, the chance that the reveal fails and shows a card that completes
  a trio the next player can see (on remembered cards);
* :func:`bot_order` — the order in which the bots break ties of their scores.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..game.reveal import Reveal
from ..game.view import PlayerView
from ..infer.beliefs import Beliefs
from ..kernel import LEAK_WEIGHT
from .memory import Memory, Remembering, reach
from .search import Evaluation, advise, turn_score

__all__ = ["LEAK_WEIGHT", "bot_order", "leak", "solver_choice", "solver_score", "solver_scores"]

def solver_score(view: PlayerView, e: Evaluation) -> float:
    """The turn-level score that orders the candidates: ``p_win`` first, then ``p_trio`` and the goal
    (:func:`~trio_solver.decide.search.turn_score`, the advice's ``"turn"`` objective)."""
    return turn_score(view, e)


def bot_order(view: PlayerView, evaluations: Sequence[Evaluation]) -> list[Evaluation]:
    """``evaluations`` in the order the bots break ties of their scores: the chance of a trio, of a win
    now, the goal, then the mover's own known card first, then the order of the legal reveals. This is
    the bots' own order, kept apart from the advice's presentation order
    (:func:`trio_solver.decide.search.advise`, which puts a card everyone knows first), so that the
    ``solver`` bot every measurement plays against does not change with the presentation."""
    legal = {r: i for i, r in enumerate(view.legal_reveals())}
    seat = view.seat

    def key(e: Evaluation) -> tuple[float, ...]:
        own = 1.0 if (e.reveal.seat == seat and e.known_value is not None) else 0.0
        return (-round(e.p_trio, 12), -round(e.p_win, 12), -round(e.progress, 12), -own, legal[e.reveal])

    return sorted(evaluations, key=key)


def leak(view: PlayerView, reveal: Reveal, beliefs: Beliefs, mem: Memory,
         counts: Sequence[tuple[int, Reveal | None]] | None = None) -> float:
    """Chance that this first reveal fails and shows a card that completes a trio the next player can see.

    Approximated on remembered cards: after a failed turn the shown card's value ``v``
    is public; if two other copies of ``v`` are already remembered and reachable, the
    next player sees a trio. ``counts``: :func:`~trio_solver.decide.memory.reach` of ``view`` and
    ``mem``, if already computed.
    """
    counts = reach(view, mem) if counts is None else counts
    if reveal.seat == view.seat:
        dist = {view.own_value(reveal) or 0: 1.0}
    elif reveal.is_centre:
        dist = beliefs.centre().get(reveal.index, {})
    else:
        dist = beliefs.end(reveal)
    total = 0.0
    for v, p in dist.items():
        if mem.known(view, reveal) == v:
            continue  # already public: nothing new is shown
        if counts[v][0] >= 2:
            total += p
    return total


def solver_scores(view: PlayerView, *, leak_weight: float = LEAK_WEIGHT, beliefs: Beliefs | None = None,
                  remember: Remembering | None = None) -> list[tuple[float, Evaluation]]:
    """Every legal reveal's exact evaluation (:func:`~trio_solver.decide.search.advise`, objective
    ``trio``) with the score the ``solver`` bot ranks it by, in the bots' order of ties
    (:func:`bot_order`): :func:`solver_score`, less ``leak_weight`` times :func:`leak` at the start of
    a turn. ``beliefs``: the view's beliefs if already built (else the public posterior);
    ``remember``: a tracker of the game the view comes from, to spare replaying its history."""
    beliefs = Beliefs(view) if beliefs is None else beliefs
    adv = advise(view, "trio", beliefs=beliefs)
    mem = None
    if leak_weight and not view.turn:
        mem = (remember or Remembering())(view)
        counts = reach(view, mem)
    scored = []
    for e in bot_order(view, adv.evaluations):
        score = solver_score(view, e)
        if mem is not None:
            score -= leak_weight * leak(view, e.reveal, beliefs, mem, counts)
        scored.append((score, e))
    return scored


def solver_choice(scored: Sequence[tuple[float, Evaluation]]) -> Reveal:
    """The reveal the ``solver`` bot plays among ``scored`` (as :func:`solver_scores` gives them): the
    first of the best."""
    return max(scored, key=lambda t: t[0])[1].reveal
