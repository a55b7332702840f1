"""Whole deals drawn from the exact posterior: the bridge from beliefs back to the true state.

:mod:`trio_solver.infer.beliefs` samples a :class:`~trio_solver.infer.beliefs.Placement` of the
cards in play; this module rebuilds the deal that leads to it through the view's
history (trios given back, swaps undone) and replays that history on a
:class:`~trio_solver.game.state.Game`, so that search and evaluation can play on from
a position consistent with everything the viewer knows.
"""

from __future__ import annotations

import random

from .beliefs import Beliefs, Placement
from ..game.state import Deal, Game
from ..errors import IllegalMoveError, ViewError
from ..game.events import Swap
from .facts import Facts, TrioChange
from ..game.view import PlayerView

__all__ = ["sample_game", "initial_deal", "game_from_placement"]


def sample_game(beliefs: Beliefs, rng: random.Random) -> Game:
    """A full game state at the moment of ``beliefs.view``, drawn exactly from the posterior and
    replayed from its deal.

    Secret swaps are drawn too (the tracked ones from the posterior, those nothing was known
    about uniformly). Raises :class:`~trio_solver.errors.ViewError` when relaxed swaps make the
    beliefs approximate.
    """
    if not isinstance(beliefs, Beliefs):
        raise ViewError(f"beliefs: expected Beliefs, got {type(beliefs).__name__}")
    if not isinstance(rng, random.Random):
        raise ViewError(f"rng: expected random.Random, got {type(rng).__name__}")
    if beliefs.approximate:
        raise ViewError("too many secret swaps to track: the deal behind this view cannot be sampled exactly")
    return game_from_placement(beliefs.view, beliefs.facts, beliefs.sample(rng), rng)


def initial_deal(facts: Facts, placement: Placement,
                 rng: random.Random | None = None) -> tuple[Deal, dict[int, tuple[int, int]]]:
    """The deal that leads to ``placement`` through the view's history, and the cards of every swap.

    Swaps the viewer did not see take their cards from ``placement.swaps``; a secret swap
    that nothing was known about before it is undone by choosing, uniformly with ``rng``,
    which card of each hand came from the other (exact under uniformly chosen swap cards).
    """
    hands = [list(h) for h in placement.hands]
    centre = list(placement.centre)
    sampled = dict(placement.swaps)
    cards_of: dict[int, tuple[int, int]] = {}
    for i, change in reversed(facts.history):
        if isinstance(change, TrioChange):
            for s, k in change.cards.items():
                hands[s].extend([change.value] * k)
            for c in change.slots:
                centre[c] = change.value
            continue
        (a, b) = change.seats
        cards = change.cards if change.cards is not None else sampled.get(i)
        if cards is None:
            if rng is None:
                raise ViewError(f"event {i}: the cards of this secret swap are unknown")
            # a uniformly chosen card of each hand now came from the other hand
            cards = (rng.choice(hands[b]), rng.choice(hands[a]))
        ga, gb = cards  # a gave ga and received gb
        if gb not in hands[a] or ga not in hands[b]:
            raise ViewError(f"event {i}: the placement cannot undo the swap {list(cards)}")
        hands[a].remove(gb)
        hands[a].append(ga)
        hands[b].remove(ga)
        hands[b].append(gb)
        cards_of[i] = (ga, gb)
    if any(c is None for c in centre):
        raise ViewError("placement leaves a centre slot empty")
    deal = Deal(tuple(tuple(sorted(h)) for h in hands), tuple(c for c in centre if c is not None))
    return deal, cards_of


def game_from_placement(view: PlayerView, facts: Facts, placement: Placement,
                        rng: random.Random | None = None) -> Game:
    """Rebuild the deal behind ``placement`` and replay the view's history on it.

    Raises :class:`~trio_solver.errors.ViewError` if the placement does not reproduce
    every value the view shows.
    """
    deal, cards_of = initial_deal(facts, placement, rng)
    game = Game(view.rules, deal, view.first_player)
    for i, e in enumerate(view.events):
        if isinstance(e, Swap):
            ga, gb = cards_of[i]
            try:
                game.swap(e.seats[0], e.seats[1], ga, gb)
            except IllegalMoveError as err:
                raise ViewError(f"event {i}: the placement cannot make this swap: {err}") from None
        else:
            for r, v in e.reveals:
                if game.peek(r) != v:
                    raise ViewError(f"the placement does not reproduce {r}={v}")
                game.reveal(r)
    return game
