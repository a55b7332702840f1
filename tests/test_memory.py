"""Perfect memory (:mod:`trio_solver.decide.memory`): the kernel's positional memory equals a plain
replay of the public history that follows each card by its position."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers_positions import ALL_RULES, random_position
from trio_solver.decide.bots import make_bot
from trio_solver.decide.memory import Memory, MemoryTracker, promises, public_memory, reach, unaccounted
from trio_solver.game.reveal import Reveal
from trio_solver.game.rules import VALUES, Rules
from trio_solver.game.table import steps
from trio_solver.game.view import PlayerView
from trio_solver.run.simulate import play_game


def _replayed(view: PlayerView) -> tuple[list[list[int | None]], list[int | None]]:
    """Each card shown, followed by its sorted position: a swap forgets both hands, a trio takes its
    cards off the ends (and its centre cards out)."""
    rules = view.rules
    hands: list[list[int | None]] = [[None] * rules.hand_size for _ in range(rules.players)]
    slots: list[int | None] = [None] * rules.centre_size
    for step in steps(rules, view.first_player, view.events):
        if step.swap is not None:
            for s in step.swap.seats:
                hands[s] = [None] * len(hands[s])
            continue
        assert step.reveal is not None
        if step.position is None:
            slots[step.reveal.index] = step.value
        else:
            hands[step.reveal.index][step.position] = step.value
        if step.trio is not None:
            for s, lo, hi in step.trio.hands:
                hands[s] = hands[s][lo:len(hands[s]) - hi]
            for i in step.trio.slots:
                slots[i] = None
    return hands, [v if here else None for v, here in zip(slots, view.centre_present)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ALL_RULES), st.integers(0, 10**6), st.integers(0, 90), st.booleans())
def test_public_memory_is_the_positional_replay(rules: Rules, seed: int, before: int, spectator: bool) -> None:
    game = random_position(rules, seed, before)
    view = game.view(None if spectator else game.to_move)
    memory = public_memory(view)
    hands, slots = _replayed(view)
    assert [list(h) for h in memory.hands] == hands and list(memory.slots) == slots
    assert [len(h) for h in memory.hands] == list(view.sizes)
    assert memory.turn == tuple((r.reveal, r.value) for r in view.turn)
    for s, h in enumerate(memory.hands):  # what is remembered is true
        assert all(v is None or v == game.hands[s][p] for p, v in enumerate(h))


def _reachable_by_scan(view: PlayerView, mem: Memory, v: int) -> tuple[int, Reveal | None]:
    """The obvious count for one value: the remembered centre slots of ``v`` still there and not shown this
    turn, then each hand's lowest cards while they are ``v``, then its highest, never more cards than the
    hand has within reach; the first of them in that order."""
    count = 0
    first: Reveal | None = None
    for slot, val in mem.slots.items():
        if val == v and view.centre_present[slot] and not any(
                r.reveal.is_centre and r.reveal.index == slot for r in view.turn):
            count += 1
            first = first or Reveal.centre(slot)
    for s in range(view.rules.players):
        acc = view.accessible(s)
        got = 0
        for r, lst in ((Reveal.lowest(s), mem.low[s]), (Reveal.highest(s), mem.high[s])):
            if got >= acc:
                break
            pos = view.position(r)
            depth = pos if r.kind == "lowest" else view.sizes[s] - 1 - pos
            k = 0
            while depth + k < len(lst) and lst[depth + k] == v and got + k < acc:
                k += 1
            if k and first is None:
                first = r
            got += k
        count += got
    return count, first


def _bot_game_views(rules: Rules, seed: int) -> list[PlayerView]:
    """Every seat's view before every reveal of a game of ``memory`` bots: they reveal the runs they
    remember, so hands shrink to known cards and ends meet."""
    views: list[PlayerView] = []
    bots = [make_bot("memory", random.Random(seed * 10 + s)) for s in range(rules.players)]
    play_game(rules, bots, rng=random.Random(seed),
              on_decision=lambda g: views.extend(g.view(s) for s in range(rules.players)))
    return views


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
def test_reach_counts_every_value_as_a_scan_of_that_value(rules: Rules) -> None:
    checked = 0
    for seed in range(3):
        for view in _bot_game_views(rules, seed):
            for mem in (Memory.of(view), MemoryTracker(view).public_of(view)):
                counts = reach(view, mem)
                assert counts[0] == (0, None)
                for v in VALUES:
                    assert counts[v] == _reachable_by_scan(view, mem, v), (v, view.to_json())
                    checked += counts[v][0] > 0
    assert checked > 100  # the positions remember cards within reach


def test_promises_count_the_table_once_as_a_scan_per_value() -> None:
    # the memory bot's opening score of every value: the remembered run it can reveal plus a tenth of the
    # copies unaccounted for, from one count of the table
    checked = 0
    for view in _bot_game_views(Rules(players=4), 1):
        mem = Memory.of(view)
        left = unaccounted(view, mem)
        got = promises(view, mem, list(VALUES))
        assert got == [_reachable_by_scan(view, mem, v)[0] + left.get(v, 0) / 10 for v in VALUES]
        checked += any(x >= 1 for x in got)
    assert checked > 20


def test_reach_never_counts_a_card_shown_this_turn_from_the_other_end() -> None:
    # a hand remembered whole as one value, whose highest card this turn already showed: its lowest
    # cards can be revealed one after the other up to the cards still within reach, no further
    found = 0
    for view in _bot_game_views(Rules(players=3), 0):
        shown = [r.reveal.index for r in view.turn if r.reveal.kind == "highest"]
        for s in shown:
            size = view.sizes[s]
            value = next(r.value for r in view.turn if r.reveal == Reveal.highest(s))
            mem = Memory(low=[[value] * size if t == s else [] for t in range(3)],
                         high=[[value] * size if t == s else [] for t in range(3)])
            counts = reach(view, mem)
            assert counts[value] == _reachable_by_scan(view, mem, value)
            assert counts[value][0] == view.accessible(s) < size
            found += 1
    assert found
