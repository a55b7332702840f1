"""Read choices (``Beliefs(view, read=w)``) against a brute force over shuffles.

The reference replays every deal that fits the public history with the engine and
weighs it by ``w`` for every card of the turn's value that a player (not the viewer)
passed over in the middle of its turn: its own accessible lowest or highest card,
while it asked for another card (:func:`helpers_positions.brute_force` with
``read``). It shares nothing with ``facts.py`` or the lattice. The model's ends,
counts, joint events and samples must match it exactly.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import lru_cache

import pytest

from helpers_positions import ALL_RULES, NO_TEAM_RULES, BruteForce, assert_beliefs_match, assert_sampler_matches, \
    brute_force, close_dist, collect_small_positions
from trio_solver.infer.beliefs import Beliefs
from trio_solver.game.state import Game
from trio_solver.errors import ViewError
from trio_solver.infer.facts import extract
from trio_solver.game.reveal import Reveal

READ = 0.25  # exact in binary, so the exact model's Fraction(READ) is 1/4
ALL_TEAM_RULES = tuple(r for r in ALL_RULES if r.teams)


@lru_cache(maxsize=None)
def read_positions() -> tuple[tuple[Game, int | None, BruteForce, BruteForce], ...]:
    """Small positions with passed-over cards (and more than one deal that fits), with both references."""
    out = []
    for g, seat in collect_small_positions(80, max_hidden=9, min_hidden=2, seed=7, rules_pool=NO_TEAM_RULES):
        view = g.view(seat)
        plain = brute_force(view, limit=4000)
        if plain is None or len(plain.placements) < 2:
            continue
        read = brute_force(view, limit=4000, read=Fraction(READ))
        assert read is not None
        if read.distribution(lambda p: p) != plain.distribution(lambda p: p):
            out.append((g, seat, plain, read))
        if len(out) >= 8:
            break
    return tuple(out)


def test_positions_exist_and_vary() -> None:
    pos = read_positions()
    assert len(pos) >= 8
    assert len({g.rules.players for g, _, _, _ in pos}) >= 3


@pytest.mark.parametrize("index", range(8))
def test_read_beliefs_equal_brute_force(index: int) -> None:
    g, seat, plain, bf = read_positions()[index]
    view = g.view(seat)
    b = Beliefs(view, read=READ)
    assert b.consistent
    exact = Beliefs(view, exact=True, read=READ)
    centre_slots = [i for i, c in enumerate(g.centre) if c is not None]
    assert_beliefs_match(view, b, exact, bf, centre_slots, random.Random(index), 20)
    # read=1 weighs nothing: the exact public posterior
    one = Beliefs(view, read=1)
    for s in b.hidden_seats():
        for k in range(view.sizes[s]):
            close_dist(one.position_distribution(s, k), plain.distribution(lambda p, s=s, k=k: p.hands[s][k]),
                       f"read=1 {s}@{k}")


@pytest.mark.parametrize("index", range(3))
def test_read_sampler_is_exact(index: int) -> None:
    """sample() draws with the read posterior's frequencies (chi-square against the brute force)."""
    g, seat, _, bf = sorted(read_positions(), key=lambda p: -len(p[3].placements))[index]
    assert_sampler_matches(Beliefs(g.view(seat), read=READ), bf, random.Random(99 + index))


@pytest.mark.parametrize("bad", [0, -0.5, 1.5, True, "0.1", float("nan")])
def test_bad_read_is_refused(bad: object) -> None:
    view = Game.deal(NO_TEAM_RULES[0], 1).view(0)
    with pytest.raises(ViewError, match="read"):
        Beliefs(view, read=bad)  # type: ignore[arg-type]


def test_only_other_teams_are_read_and_a_read_halves_the_odds() -> None:
    """Team play: seat 0 sees a 1 from seat 1, then asks seat 3 while its own lowest card is a 1.
    Seats 1 and 3 (the other team) read it: the odds that seat 0's lowest is a 1 are multiplied by
    ``read`` exactly; its partner (seat 2) and seat 0 itself read nothing."""
    rules = next(r for r in ALL_TEAM_RULES if r.players == 4)
    h = rules.hand_size
    rest = [v for v in range(2, 13) for _ in range(3)]
    hands = [[1] + rest[:h - 1], [1] + rest[h - 1:2 * h - 2], [1] + rest[2 * h - 2:3 * h - 3], rest[3 * h - 3:4 * h - 3]]
    game = Game.from_deal(rules, hands, rest[4 * h - 3:], 0)
    game.reveal(Reveal.lowest(1))
    game.reveal(Reveal.highest(3))  # seat 0 passes over its own 1
    assert rules.partner(0) == 2
    for viewer in range(4):
        facts = extract(game.view(viewer), read=0.5)
        read_rows = {row.key for row in facts.rows if row.avoid}
        assert read_rows == ({0} if rules.team_of(viewer) != rules.team_of(0) else set()), viewer
    for viewer in (1, 3):
        view = game.view(viewer)
        plain = Beliefs(view).position_distribution(0, 0)[1]
        read = Beliefs(view, read=0.5).position_distribution(0, 0)[1]
        assert 0 < plain < 1
        assert abs(read / (1 - read) - 0.5 * plain / (1 - plain)) < 1e-12
