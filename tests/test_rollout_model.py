"""The rollout model's chances against obviously correct counts, and its choices against the exact advisor."""

from __future__ import annotations

import itertools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers_positions import ALL_RULES, random_position
from trio_solver import Rules
from trio_solver.decide.bots import make_bot
import numpy as np

from trio_solver import kernel
from trio_solver.decide.rollout import ModelBot
from trio_solver.decide.search import advise
from trio_solver.run.simulate import play_game
from trio_solver.game.view import PlayerView


@settings(deadline=None)  # the first call may load the compiled kernel
@given(st.lists(st.integers(0, 5), min_size=12, max_size=12).filter(lambda w: sum(w) > 0),
       st.integers(1, 4), st.booleans())
def test_the_end_of_a_run_is_its_smallest_or_largest_card(weights: list[int], m: int, lowest: bool) -> None:
    total = sum(weights)
    q = [0.0] + [w / total for w in weights]
    got = np.zeros(13)
    kernel.extreme(np.array(q), m, lowest, got)
    # every sequence of m independent draws, counted
    want = [0.0] * 13
    for draw in itertools.product(range(1, 13), repeat=m):
        p = 1.0
        for v in draw:
            p *= q[v]
        want[min(draw) if lowest else max(draw)] += p
    assert all(abs(a - b) < 1e-9 for a, b in zip(got, want))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ALL_RULES), st.integers(0, 10**6), st.integers(0, 60))
def test_the_spread_shares_the_unaccounted_cards_among_places_that_can_hold_them(
        rules: Rules, seed: int, before: int) -> None:
    game = random_position(rules, seed, before)
    if game.over:
        return
    view = game.view(game.to_move)
    sim = ModelBot.state(view)
    seat = game.to_move
    st_ = sim.st
    left = np.zeros(13, np.int64)
    kernel.unaccounted(st_, sim.rp, seat, left)
    rows = np.zeros((kernel.GROUPS, 13))
    run_g = np.full((kernel.MAXP, kernel.HMAX), -1, np.int64)
    run_m = np.zeros((kernel.MAXP, kernel.HMAX), np.int64)
    groups, slots, _ = kernel.spread(st_, sim.rp, seat, left, rows, run_g, run_m, np.zeros(13))
    # every unknown card of another hand lies in one run, whose two ends name it (group, size)
    runs: dict[int, list[tuple[int, int]]] = {}
    hidden = 0
    for s in range(rules.players):
        if s == seat:
            continue
        lo, hi = int(st_[kernel.O_LO + s]), int(st_[kernel.O_HI + s])
        size = int(st_[kernel.O_SIZE + s])
        pos = lo
        while pos < size - hi:
            if sim.known[s][pos]:
                pos += 1
                continue
            end = pos
            while end + 1 < size - hi and not sim.known[s][end + 1]:
                end += 1
            g = int(run_g[s, pos])
            assert g >= 0 and int(run_g[s, end]) == g and int(run_m[s, pos]) == end - pos + 1
            runs[g] = [(s, p) for p in range(pos, end + 1)]
            hidden += end - pos + 1
            pos = end + 1
    unseen = [i for i, c in enumerate(sim.centre)
              if c is not None and not sim.cknown[i] and not int(st_[kernel.O_UP]) >> i & 1]
    assert slots == len(unseen)
    assert groups == len(runs) + (1 if slots else 0)
    assert sorted(runs) == list(range(1 if slots else 0, groups))
    for g in range(groups):
        row = rows[g]
        assert abs(row.sum() - 1) < 1e-9 or row.sum() == 0
        assert row[0] == 0 and (row >= 0).all()
    # a run holds no value outside the range its known neighbours allow (the true cards are inside it)
    for g, places in runs.items():
        for s, pos in places:
            assert rows[g][game.hands[s][pos]] > 0
    if slots:
        for i in unseen:
            assert rows[0][game.centre[i]] > 0


def test_the_model_starts_its_turns_about_as_well_as_the_exact_advisor() -> None:
    """Over the start-of-turn decisions of games between ``solver`` bots, the model's first reveal loses
    little of the advisor's best turn score (3 p_win + p_trio, as ``solver`` weighs it)."""
    losses: list[float] = []
    for g in range(6):
        rules = Rules(3)

        def grab(game: object) -> None:
            from trio_solver.game.state import Game
            assert isinstance(game, Game)
            if game.turn or len(losses) >= 60:
                return
            view: PlayerView = game.view(game.to_move)
            scores = {e.reveal: 3 * e.p_win + e.p_trio for e in advise(view).evaluations}
            losses.append(max(scores.values()) - scores[ModelBot().choose_reveal(view)])

        bots = [make_bot("solver", random.Random(100 * g + s)) for s in range(3)]
        play_game(rules, bots, rng=random.Random(g), on_decision=grab)
    assert len(losses) >= 40
    # on these positions this model loses about 0.01; the previous model, which never started with
    # an unknown card and counted cards without the order of hands, lost 0.15
    assert sum(losses) / len(losses) < 0.06
