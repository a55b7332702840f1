"""The lattice's fast parts against slow, obvious ones.

* Its transition weights (weighed for every set of flipping swap bits at once) equal the obvious
  loop of :mod:`reference_lattice`, on the arguments real positions give them and on made-up rows
  with large offsets (whose factorials outgrow 64-bit integers).
* Its compiled pass over a value's transitions (:func:`trio_solver.kernel.carry_table`) equals the
  slice-by-slice pass in numpy, both ways, on the tables of real positions; so do its compiled
  joint-event entries (:func:`trio_solver.kernel.entry_sums`): the same entries in the same order.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers_positions import ALL_RULES, collect_small_positions, random_position, viewers
from reference_lattice import reference_transitions
from trio_solver.infer import lattice
from trio_solver import Game, Record
from trio_solver.game.events import Swap
from trio_solver.infer.beliefs import Beliefs


CORPUS = Path(__file__).parent / "corpus"
TEAM_GAMES = sorted(CORPUS.glob("*_teams_bot.json"))


def _corpus_position(path: Path, reveals: int) -> Game:
    """A team game of bots (whose swaps the beliefs track: the bots' reveals tell about the hands) after
    ``reveals`` reveals."""
    record = Record.load(path)
    game = Game(record.rules, record.deal, record.first_player)
    done = 0
    for event in record.events:
        if isinstance(event, Swap):
            assert event.cards is not None
            game.swap(event.seats[0], event.seats[1], event.cards[0], event.cards[1])
            continue
        for r in event.reveals:
            if done == reveals or game.over:
                return game
            game.reveal(r.reveal)
            done += 1
    return game


def _calls(game: Game) -> list[tuple[Any, ...]]:
    """The arguments of every transition table the beliefs of every viewer of ``game`` ask for."""
    calls: list[tuple[Any, ...]] = []
    real = lattice._transitions

    def record(*args: Any) -> Any:
        calls.append(args)
        return real(*args)

    rules = game.rules
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(lattice, "_transitions", record)
        for seat in viewers(rules):
            Beliefs(game.view(seat))
    return calls


@settings(max_examples=10, deadline=None)
@given(st.integers(0, len(ALL_RULES) - 1), st.integers(0, 10**6), st.integers(0, 40))
def test_transitions_equal_the_reference_on_random_positions(rules_index: int, seed: int, reveals: int) -> None:
    calls = _calls(random_position(ALL_RULES[rules_index], seed, reveals))
    assert calls
    for args in calls:
        lattice._transitions.cache_clear()
        assert lattice._transitions(*args) == reference_transitions(*args), args


@settings(max_examples=4, deadline=None)
@given(st.sampled_from(TEAM_GAMES), st.integers(0, 80))
def test_transitions_equal_the_reference_in_team_games(path: Path, reveals: int) -> None:
    calls = _calls(_corpus_position(path, reveals))
    assert calls
    for args in calls:
        lattice._transitions.cache_clear()
        assert lattice._transitions(*args) == reference_transitions(*args), args


def test_team_positions_weigh_flipping_bits() -> None:
    """Team games of bots include tracked swaps: transitions that flip bits, with weights other than 1."""
    for path in TEAM_GAMES:
        calls = _calls(_corpus_position(path, 60))
        assert any(t[2] and t[3] > 1 for args in calls for t in lattice._transitions(*args)), path.name


def test_random_positions_weigh_dealt_counts_without_flags() -> None:
    """Values of positions without a tracked swap whose rows' dealt counts differ from their counts now
    (a swap a viewer saw in team play) take the Python-integer path of ``lattice._unflagged``, so the
    reference test on random positions above meets that path."""
    rules = next(r for r in ALL_RULES if r.players == 4 and r.teams)
    calls = [args for seed in range(4) for args in _calls(random_position(rules, seed, 40))]
    unflagged = [args for args in calls if args[3] == 0 and any(r[0] or r[1] for r in args[6])]
    assert unflagged
    assert any(t[3] > 0 for args in unflagged for t in lattice._transitions(*args))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_transitions_equal_the_reference_with_large_offsets(seed: int) -> None:
    """Made-up rows whose dealt counts reach past 20 (Python integers instead of 64-bit ones)."""
    rng = random.Random(seed)
    n_rows = rng.randint(1, 4)
    flags = rng.randint(0, 4)
    implicit = rng.random() < 0.7
    cdims = tuple(rng.randint(2, 12) for _ in range(n_rows - (1 if implicit else 0)))

    def terms() -> tuple[tuple[int, int], ...]:
        return tuple((rng.randrange(flags), rng.choice((-1, 1, 2))) for _ in range(rng.randint(0, 2))) if flags else ()

    rows = tuple((rng.randint(-2, 12), tuple(rng.randint(-1, 2) for _ in range(rng.randint(0, 2))), terms(),
                  tuple((rng.randrange(flags), rng.randint(-1, 3), terms()) for _ in range(rng.randint(0, 2)))
                  if flags else ())
                 for _ in range(n_rows))
    args = (rng.randint(1, 12), rng.randint(0, 3), cdims, flags, rng.random() < 0.2, implicit, rows)
    lattice._transitions.cache_clear()
    assert lattice._transitions(*args) == reference_transitions(*args)


def _compare_carries(game: Game, read: float | None = None) -> int:
    """Every non-plain value of every viewer's lattice (with passed-over choices read at ``read``) carried
    both ways on its own tables, compiled and in slices; the number of values compared."""
    compared = 0
    for seat in viewers(game.rules):
        lat = Beliefs(game.view(seat), read=read)._lat
        if not lat.feasible_counts:
            continue
        for u in range(1, 13):
            if lat._plain(u):
                continue
            for backward, table in ((False, lat.forward[u - 1]), (True, lat.backward[u])):
                fast = lat._carry(table, u, backward)
                slow = lat._carry_slices(table, u, backward)
                np.testing.assert_allclose(fast, slow, rtol=1e-12, atol=0, err_msg=f"seat {seat} value {u}")
                compared += 1
        for u in range(1, 13):
            fast_entries = lat._entries_compiled(u)
            slow_entries = lat._entries_slices(u)
            assert [e[:2] for e in fast_entries] == [e[:2] for e in slow_entries], (seat, u)
            np.testing.assert_allclose([e[2] for e in fast_entries], [e[2] for e in slow_entries], rtol=1e-12,
                                       atol=0, err_msg=f"seat {seat} value {u}")
    return compared


@settings(max_examples=8, deadline=None)
@given(st.integers(0, len(ALL_RULES) - 1), st.integers(0, 10**6), st.integers(0, 40), st.sampled_from([None, 0.02]))
def test_compiled_carry_equals_slices_on_random_positions(rules_index: int, seed: int, reveals: int,
                                                          read: float | None) -> None:
    _compare_carries(random_position(ALL_RULES[rules_index], seed, reveals), read)


@settings(max_examples=4, deadline=None)
@given(st.sampled_from(TEAM_GAMES), st.integers(0, 80), st.sampled_from([None, 0.02]))
def test_compiled_carry_equals_slices_in_team_games(path: Path, reveals: int, read: float | None) -> None:
    _compare_carries(_corpus_position(path, reveals), read)


def test_compiled_carry_meets_flags_and_read_choices() -> None:
    """The comparisons meet tracked swaps (flag bits), read choices (a factor per state) and entries of
    every category, the implicit hand's included (small positions: hands of a few cards)."""
    flags = reads = 0
    real = lattice.Lattice._entries_slices
    seen: set[tuple[int, ...]] = set()

    def record(self: lattice.Lattice, v: int) -> Any:
        out = real(self, v)
        seen.update(e[1] for e in out)
        return out

    for path in TEAM_GAMES[::2]:
        flags += _compare_carries(_corpus_position(path, 60))
    games = [_corpus_position(path, 30) for path in sorted(CORPUS.glob("p[3-6]_*_bot.json"))[::4]]
    games += [g for g, _ in collect_small_positions(8, max_hidden=9, min_hidden=3, seed=4)]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(lattice.Lattice, "_entries_slices", record)
        for game in games:
            for seat in viewers(game.rules):
                lat = Beliefs(game.view(seat), read=0.02)._lat
                reads += sum(1 for u in range(1, 13) if lat.avoid[u] and not lat._plain(u))
            _compare_carries(game, 0.02)
    assert flags > 0 and reads > 0
    assert {c for cats in seen for c in cats[:-1]} == {0, 1, 2, 3}
    assert {cats[-1] for cats in seen} == {0, 1, 2, 3}
