"""``Log``/``History`` behave as the tuple of their items, however they were grown, cut and shared, and the
positions of one game share one history instead of copying it."""

from __future__ import annotations

import pickle
import random
import threading

import numpy as np
import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from trio_solver import Game, Record, Rules
from trio_solver.game.history import History, Log
from trio_solver.game.events import Turn
from trio_solver.game.reveal import Reveal
from trio_solver.game.view import PlayerView, replay_view


def _same(log: Log[int], model: tuple[int, ...], rng: random.Random) -> None:
    """Every way of reading ``log`` gives what the tuple ``model`` gives."""
    assert len(log) == len(model)
    assert list(log) == list(model) and list(reversed(log)) == list(reversed(model))
    assert log == model and model == log and not (log != model) and hash(log) == hash(model)
    assert pickle.loads(pickle.dumps(log)) == model
    for _ in range(4):
        if model:
            i = rng.randrange(-len(model), len(model))
            assert log[i] == model[i]
        a, b = rng.randrange(-3, len(model) + 3), rng.randrange(-3, len(model) + 3)
        step = rng.choice([None, None, 1, 2, -1])
        assert tuple(log[a:b:step]) == model[a:b:step]
        assert tuple(log[a:]) == model[a:] and tuple(log[:b]) == model[:b]
    if model:
        assert log[np.int64(0)] == model[0]
    other = model[:-1] + (model[-1] + 1,) if model else (0,)
    assert (log < other) == (model < other) and (log >= other) == (model >= other)
    assert sorted([log, other]) == sorted([model, other])
    m = rng.randrange(len(model) + 1)
    cut = log.prefix(m)
    assert isinstance(cut, Log) and cut == model[:m] and log[:m] == model[:m]
    assert (5,) + log == (5,) + model and isinstance((5,) + log, tuple)
    with pytest.raises(TypeError):
        [5] + log  # type: ignore[operator]  # as [5] + a tuple
    grown = [5]
    grown += log
    assert grown == [5, *model]


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.tuples(st.sampled_from(["grow", "cut", "again", "merge"]),
                                                 st.integers(0, 40), st.integers(0, 40)), max_size=60))
def test_a_log_is_the_tuple_of_its_items(seed: int, ops: list[tuple[str, int, int]]) -> None:
    """Logs grown from one another in any order (appends short and long, prefixes, a fork that appends
    the very items another log went on with, two logs joined) each equal the tuple built the same way,
    for equality both ways, hashing, indexing, slicing, reversing, prefixes and pickling."""
    rng = random.Random(seed)
    pool: list[tuple[Log[int], tuple[int, ...]]] = [(Log(), ())]
    fresh = iter(range(1000, 10**9))
    for op, a, b in ops:
        log, model = pool[a % len(pool)]
        if op == "grow":  # new items, a few or many (past the private tail)
            more = tuple(next(fresh) for _ in range(b % 25))
            pool.append((log + more, model + more))
        elif op == "cut":
            m = b % (len(model) + 1)
            pool.append((log[:m], model[:m]))  # type: ignore[arg-type]
        elif op == "again":  # from a prefix, go on with the items another log holds there
            m = b % (len(model) + 1)
            rest = model[m:]
            pool.append((log.prefix(m) + rest, model))
        else:
            other, other_model = pool[b % len(pool)]
            pool.append((log + other, model + other_model))
        for lg, md in pool[-3:] + [pool[rng.randrange(len(pool))]]:
            _same(lg, md, rng)
    for lg, md in pool:
        _same(lg, md, rng)


def test_logs_grown_from_one_in_many_threads_stay_their_own() -> None:
    """Eight threads grow forks of one log at once, each far past the private tail: each fork holds
    exactly its own items, and the shared start is unchanged."""
    start = Log(range(100))
    out: dict[int, Log[int]] = {}

    def grow(k: int) -> None:
        log = start
        for j in range(400):
            log = log + (k * 10_000 + j,)
        out[k] = log

    threads = [threading.Thread(target=grow, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert start == tuple(range(100))
    for k, log in out.items():
        assert log == tuple(range(100)) + tuple(k * 10_000 + j for j in range(400))


def _long_record(turns: int) -> Record:
    """A whole-deal record of ``turns`` failed turns, each showing centre slot 0 and another value."""
    game = Game.deal(Rules(3), seed=5)
    other = next(j for j in range(1, len(game.centre)) if game.centre[j] != game.centre[0])
    return Record.from_json({"format": "trio-record/1", **game.to_json(),
                             "events": [{"turn": k % 3, "reveals": [{"centre": 0}, {"centre": other}]}
                                        for k in range(turns)]})


def test_the_positions_of_a_walk_share_one_history() -> None:
    """Every position of a record's walk, and the views taken of them, hold their histories in one shared
    list: a walk over ``n`` events copies no history, where tuples cost ``n`` per position."""
    record = _long_record(300)
    lists: list[list[object]] = []  # the positions' lists, kept (an id alone could be reused)

    def seen(position: Game | PlayerView) -> None:
        view = position.view(1) if isinstance(position, Game) else position
        assert isinstance(view.events, History)
        lists.append(view.events._shared)

    kept = {k: v for k, v in record.to_json().items() if k != "deal"}  # the record keeper's, seat 0
    kept["viewer"] = {"seat": 0, "hand": list(record.deal.hands[0])}  # type: ignore[union-attr]
    for walked in (record, Record.from_json(kept)):
        lists.clear()
        walked.walk(seen)
        assert len(lists) == 301
        assert all(x is lists[1] for x in lists[1:])  # the start is a position of its own


def test_a_team_view_hides_other_teams_swaps_in_its_own_shared_history() -> None:
    """In team play each team's view of the same moment holds its own history (the other team's swap
    cards secret), and the views of one team at successive moments share one list."""
    game = Game.deal(Rules(4, teams=True), seed=3)
    a, b = game.rules.teams_of_seats[0]
    other = next(s for s in range(4) if s not in (a, b))
    game.swap(a, b, game.hands[a][0], game.hands[b][-1])
    views = []
    while not game.over and len(views) < 30:
        views.append([game.view(s) for s in (a, other, None)])
        game.reveal(game.view(None).legal_reveals()[0])
    mine, theirs, spectator = zip(*views)
    assert mine[0].events[0].cards is not None  # type: ignore[union-attr]
    assert theirs[0].events[0].cards is None and spectator[0].events[0].cards is None  # type: ignore[union-attr]
    finished = [v for v in mine if not v.turn]
    assert len({id(v.events._shared) for v in finished}) == 1


def test_views_taken_in_the_middle_of_turns_copy_no_history() -> None:
    """A view taken before every reveal of a long game (its turn in progress stands at the end of its
    history) leaves the table's log in one list, and every finished event goes on in that list."""
    game = Game.deal(Rules(3), seed=5)
    other = next(j for j in range(1, len(game.centre)) if game.centre[j] != game.centre[0])
    start = game.table.events
    for k in range(60):  # 60 failed turns, each seen before its second reveal
        game.reveal(Reveal.centre(0))
        view = game.view(game.to_move)
        assert len(view.events) == k + 1 and view.events[-1] == Turn(game.to_move, ((Reveal.centre(0), game.centre[0]),))
        game.reveal(Reveal.centre(other))
    assert game.table.events._shared is start._shared and len(game.table.events) == 60
    assert all(isinstance(e, Turn) and len(e.reveals) == 2 for e in game.table.events)


def test_a_history_replays_as_the_tuple_it_equals() -> None:
    """``Game.replay`` and ``replay_view`` take a position's history as they take the tuple of its events."""
    game = Game.deal(Rules(4, teams=True), seed=9)
    rng = random.Random(2)
    for _ in range(40):
        if game.over:
            break
        game.reveal(rng.choice(game.legal_reveals()))
    events = game.table.events
    assert isinstance(events, History)
    assert Game.replay(game.rules, game.dealt, events, game.first_player) == \
        Game.replay(game.rules, game.dealt, tuple(events), game.first_player)
    view = game.view(1)
    again = replay_view(game.rules, view.events, seat=1, hand=view.initial_hand, first_player=game.first_player)
    assert again == view and again.events == tuple(view.events)
