"""Positions walked forward one reveal at a time equal the same history replayed from the start."""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers_positions import ALL_RULES, random_swaps, viewers
from trio_solver import Game, Rules
from trio_solver.errors import IllegalMoveError
from trio_solver.game.events import Turn
from trio_solver.game.view import PlayerView, replay_view


def _same(a: PlayerView, b: PlayerView) -> None:
    """Two positions are the same value and answer every question of the public table alike."""
    assert a == b and a.key() == b.key()
    assert (a.to_move, a.winner, a.sizes, a.centre_present, a.turn, a.trios, a.hand, a.swap_open) == \
           (b.to_move, b.winner, b.sizes, b.centre_present, b.turn, b.trios, b.hand, b.swap_open)
    assert a.legal_reveals() == b.legal_reveals()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ALL_RULES), st.integers(0, 10**6), st.data())
def test_push_walks_the_game_and_pop_walks_back(rules: Rules, seed: int, data: st.DataObject) -> None:
    """Every reveal and swap of a random game pushed onto the viewer's start position: after each step
    the position equals the engine's view and a replay of the same history; popping back gives the
    positions passed through, in reverse."""
    rng = random.Random(seed)
    game = Game.deal(rules, rng=rng)
    seat = data.draw(st.sampled_from(viewers(rules)))
    view = PlayerView.start(rules, seat, None if seat is None else game.hands[seat], game.first_player)
    seen = [view]
    for _ in range(60):
        if game.over:
            break
        def swapped(a: int, b: int, ga: int, gb: int) -> None:
            nonlocal view
            mine = seat is not None and rules.team_of(seat) == rules.team_of(a)
            view = view.push_swap((a, b), (ga, gb) if mine else None)
            seen.append(view)

        random_swaps(game, rng, on_swap=swapped)
        r = rng.choice(game.legal_reveals())
        shown = game.reveal(r)
        view = view.push(r, shown.value)
        seen.append(view)
        _same(view, game.view(seat))
    _same(view, replay_view(rules, view.events, seat=seat, hand=view.initial_hand, first_player=game.first_player))
    for before in reversed(seen[:-1]):
        view = view.pop()
        assert view is before


def test_pop_of_a_replayed_position_replays_one_step_less() -> None:
    rng = random.Random(4)
    game = Game.deal(Rules(4), rng=rng)
    for _ in range(9):
        game.reveal(rng.choice(game.legal_reveals()))
    view = game.view(1)
    back = view.pop()
    last = view.events[-1]
    assert isinstance(last, Turn)
    assert back.push(last.reveals[-1].reveal, last.reveals[-1].value) == view
    with pytest.raises(IllegalMoveError, match="nothing to take back"):
        PlayerView.start(Rules(3)).pop()


def test_push_refuses_what_a_replay_refuses() -> None:
    """A value that contradicts what the position knows is refused with the replay's reason, and the
    position pushed onto is unchanged."""
    game = Game.deal(Rules(3), seed=9)
    view = game.view(0)
    v1 = view.push("l1", 5)
    with pytest.raises(IllegalMoveError, match="lowest card showed 5"):
        v1.push("l1", 5).push("c0=6").push("l1", 4)  # seat 1's lowest showed 5, nothing moved since
    seven = [r for r in range(1, 13) if game.hands[0].count(r) == 3]
    if seven:
        with pytest.raises(IllegalMoveError, match="fourth card"):
            view.push("c0", seven[0])
    with pytest.raises(IllegalMoveError):
        view.push("l0", 12 if game.hands[0][0] != 12 else 1)  # the viewer's own lowest card is known
    assert view == game.view(0) and not view.events  # unchanged by the refused pushes
    last = v1.events[-1]
    assert isinstance(last, Turn) and last.seat == game.to_move and len(v1.events) == 1


def test_a_long_push_chain_pickles_as_the_position_alone() -> None:
    """A position reached by a long chain of pushes (random reveals) pickles and deep-copies to the same
    value, as small as the same position replayed (the chain of earlier positions is not kept), and pops
    as the original does."""
    rules = Rules(3)
    game = Game.deal(rules, seed=4)
    rng = random.Random(4)
    view = PlayerView.start(rules, 0, game.hands[0], game.first_player)
    pushes = 0
    while pushes < 1000 and not game.over:
        reveal = rng.choice(game.legal_reveals())
        view = view.push(reveal, game.reveal(reveal).value)
        pushes += 1
    assert pushes >= 800  # deeper than pickle's recursion allowed with the chain kept
    fresh = replay_view(rules, view.events, seat=0, hand=view.initial_hand, first_player=view.first_player)
    again = pickle.loads(pickle.dumps(view))
    _same(again, view)
    _same(copy.deepcopy(view), view)
    assert len(pickle.dumps(view)) <= len(pickle.dumps(fresh)) + 200
    _same(again.pop(), view.pop())
