"""Property tests over random games of every setting (seeded, deterministic).

A random game is driven by :class:`random.Random(seed)`: random swaps at every
swap moment (team play), random legal reveals otherwise. Every step is checked
against the rules; the game is then round-tripped through records and views.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trio_solver.game.state import Game, play_random_game
from trio_solver.errors import IllegalMoveError
from trio_solver.game.record import event_to_json, Record, replay_view
from trio_solver.game.reveal import Reveal, Revealed
from trio_solver.game.rules import COPIES, VALUES, Mode, Rules
from trio_solver.game.events import Swap, Turn, TurnStatus
from trio_solver.game import table as table_module
from trio_solver.errors import LimitError
from trio_solver.game.knowledge import PublicReader, knowledge
from trio_solver.game.table import Table, logged_steps, steps
from trio_solver.game.view import PlayerView
from trio_solver.infer.facts import extract

SETTINGS: list[Rules] = [
    Rules(p, mode, teams=teams)
    for p in (3, 4, 5, 6)
    for mode in (Mode.SIMPLE, Mode.PICANTE)
    for teams in (False, True)
    if not teams or p in (4, 6)
] + [Rules(5, Mode.PICANTE, links=[(1, 2), (3, 4)]), Rules(4, Mode.PICANTE, teams=True, links=[])]

FAST = settings(derandomize=True, database=None, deadline=None, max_examples=30,
                suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(FAST, max_examples=16)

rules_st = st.sampled_from(SETTINGS)
seed_st = st.integers(0, 2**32 - 1)


def state(game: Game) -> tuple[Any, ...]:
    t = game.table
    return (
        [h[:] for h in game.hands], game.centre[:], t.sizes, t.centre_present, t.centre_up, t.to_move,
        t.turn, [t.used(s) for s in range(game.rules.players)], t.trios, t.winner, t.swap_open, t.events, t.centre_seen,
    )


def accounted(game: Game) -> Counter[int]:
    counts = Counter(game.cards_in_play())
    for trios in game.table.trios:
        for v in trios:
            counts[v] += COPIES
    return counts


def candidates(rules: Rules) -> list[Reveal]:
    """Every reveal worth trying, the out-of-range ones included."""
    out = [Reveal.centre(i) for i in range(rules.centre_size + 1)]
    for s in range(rules.players + 1):
        out += [Reveal.lowest(s), Reveal.highest(s)]
    return out


def _show_centre(reveals: Iterable[Revealed], seen: list[int | None]) -> None:
    for r, v in reveals:
        if r.is_centre:
            seen[r.index] = v


class CentreScan:
    """The slow, obvious reading of what each centre slot last showed: every reveal of the history and of
    the turn in progress, in order (the table keeps it as it goes). The history only grows in a walk, so
    each event before the last is read once; the last (it may be the turn in progress) is read each time."""

    def __init__(self) -> None:
        self.read = 0
        self.seen: list[int | None] = []

    def __call__(self, view: PlayerView) -> tuple[int | None, ...]:
        if not self.seen:
            self.seen = [None] * len(view.centre_present)
        events = view.events
        assert self.read <= max(len(events) - 1, 0)
        for e in events[self.read:len(events) - 1]:
            if isinstance(e, Turn):
                _show_centre(e.reveals, self.seen)
        self.read = max(len(events) - 1, 0)
        seen = self.seen[:]
        if events and isinstance(events[-1], Turn):
            _show_centre(events[-1].reveals, seen)
        _show_centre(view.turn, seen)
        return tuple(v if here else None for v, here in zip(seen, view.centre_present))


def random_walk(rules: Rules, seed: int, check: bool = True, stop_after: int | None = None) -> Game:
    """Play a random game, checking every rule on the way (``stop_after``: stop early)."""
    rng = random.Random(seed)
    game = Game.deal(rules, rng=rng)
    n = rules.players
    full = {v: COPIES for v in VALUES}
    every = candidates(rules)
    scanned_centre_seen = CentreScan()
    steps = 0
    while not game.over:
        if stop_after is not None and steps >= stop_after:
            return game
        for a, b in game.swap_moment():
            assert game.hands[a] and game.hands[b]
            if rng.random() < 0.6:
                ha, hb = game.hands[a][:], game.hands[b][:]
                ca, cb = rng.choice(ha), rng.choice(hb)
                before = state(game)
                game.swap(a, b, ca, cb)
                ha.remove(ca)
                hb.remove(cb)
                assert game.hands[a] == sorted(ha + [cb]) and game.hands[b] == sorted(hb + [ca])
                if check:
                    after = state(game)
                    game.undo()
                    assert state(game) == before
                    game.swap(a, b, ca, cb)
                    assert state(game) == after
        legal = game.legal_reveals()
        assert legal, "a dealt game always has a legal reveal"
        if check and steps % 5 == 0:
            before = state(game)
            legal_set = set(legal)
            for r in every:
                if r in legal_set:
                    game.peek(r)
                else:
                    with pytest.raises(IllegalMoveError):
                        game.reveal(r)
                    assert state(game) == before
            assert len(legal_set) == len(legal)
        r = rng.choice(legal)
        seat = game.to_move
        before = state(game)
        t = game.table
        # the value a reveal shows is the card at that end of the pre-reveal hand
        if r.is_centre:
            expected = game.centre[r.index]
        elif r.kind == "lowest":
            expected = game.hands[r.index][t.used(r.index)[0]]
        else:
            expected = game.hands[r.index][-1 - t.used(r.index)[1]]
        shown_before = [x.value for x in t.turn]
        status = game.reveal(r).status
        steps += 1
        event = game.events[-1] if status is not TurnStatus.ONGOING else None
        last_value = (event.reveals[-1].value if isinstance(event, Turn) else game.turn[-1].value)
        assert last_value == expected
        assert status is not TurnStatus.STUCK  # never in a dealt game
        if shown_before and expected != shown_before[0]:
            assert status is TurnStatus.FAILURE
        elif len(shown_before) == 2:
            assert status is TurnStatus.TRIO
        else:
            assert status is TurnStatus.ONGOING
        if status is TurnStatus.ONGOING:
            assert game.to_move == seat and len(game.turn) == len(shown_before) + 1
        else:
            assert game.turn == []
            assert isinstance(event, Turn) and event.seat == seat
            assert [x.value for x in event.reveals] == shown_before + [expected]
            if not game.over:
                assert game.to_move == (seat + 1) % n  # no extra turn after a trio
            if status is TurnStatus.FAILURE:
                assert game.hands == before[0] and game.centre == before[1]  # cards back in place
                assert game.table.trios == before[8]
            else:
                assert game.table.trios[seat] == tuple(before[8][seat]) + (expected,)
                assert sum(len(h) for h in game.hands) + sum(v is not None for v in game.centre) == (
                    sum(len(h) for h in before[0]) + sum(v is not None for v in before[1]) - 3)
        # invariants
        assert accounted(game) == full
        assert all(h == sorted(h) for h in game.hands)
        assert game.table.sizes == tuple(len(h) for h in game.hands)
        assert game.table.centre_present == tuple(v is not None for v in game.centre)
        assert game.view(None).centre_seen() == scanned_centre_seen(game.view(None))
        if check:
            after = state(game)
            game.undo()
            assert state(game) == before
            game.reveal(r)
            assert state(game) == after
        assert steps < 50_000
    return game


@SLOW
@given(rules_st, seed_st)
def test_random_game_keeps_every_rule(rules: Rules, seed: int) -> None:
    game = random_walk(rules, seed)
    assert game.over and game.winner is not None
    last = game.events[-1]
    assert isinstance(last, Turn) and last.seat == game.winner and len(last.reveals) == 3
    team = rules.team_of(game.winner)
    assert rules.is_win(game.table.team_trios(team))
    for other in range(len(rules.teams_of_seats)):
        if other != team:
            assert not rules.is_win(game.table.team_trios(other))
    assert game.legal_reveals() == []
    with pytest.raises(IllegalMoveError):
        game.reveal(Reveal.lowest(0))


@FAST
@given(rules_st, seed_st)
def test_random_game_ends_with_a_winner(rules: Rules, seed: int) -> None:
    game = play_random_game(rules, random.Random(seed))
    assert game.over and game.winner is not None
    assert game.events[-1].seat == game.winner  # type: ignore[union-attr]
    assert accounted(game) == {v: COPIES for v in VALUES}


@FAST
@given(rules_st, seed_st)
def test_same_seed_same_game(rules: Rules, seed: int) -> None:
    a = play_random_game(rules, random.Random(seed))
    b = play_random_game(rules, random.Random(seed))
    assert a.dealt == b.dealt and a.events == b.events and a.winner == b.winner
    assert Game.deal(rules, seed=seed).dealt == Game.deal(rules, seed=seed).dealt
    assert Game.deal(rules, seed=seed).to_move == Game.deal(rules, seed=seed).to_move


@FAST
@given(rules_st, seed_st, st.integers(0, 400))
def test_copy_is_independent(rules: Rules, seed: int, stop: int) -> None:
    game = random_walk(rules, seed, check=False, stop_after=stop)
    rng = random.Random(seed + 1)
    original = state(game)
    twin = game.copy()
    assert state(twin) == original
    # play the copy to its end: the original does not move
    while not twin.over:
        for a, b in twin.swap_moment():
            twin.swap(a, b, twin.hands[a][0], twin.hands[b][-1])
        twin.reveal(rng.choice(twin.legal_reveals()))
    assert state(game) == original
    with pytest.raises(IllegalMoveError):
        twin.copy().undo()  # a copy has no undo history
    # and the other way round
    twin_end = state(twin)
    if not game.over:
        game.reveal(game.legal_reveals()[-1])
    assert state(twin) == twin_end


@FAST
@given(rules_st, seed_st, st.integers(0, 300))
def test_undo_everything_returns_to_the_deal(rules: Rules, seed: int, stop: int) -> None:
    game = random_walk(rules, seed, check=False, stop_after=stop)
    fresh = Game(rules, game.dealt, game.table.first_player)
    actions = len(game.turn) + sum(len(e.reveals) if isinstance(e, Turn) else 1 for e in game.events)
    for _ in range(actions):
        game.undo()
    assert state(game) == state(fresh)
    with pytest.raises(IllegalMoveError):
        game.undo()


def events_json(events: Any) -> list[dict[str, Any]]:
    return [event_to_json(e) for e in events]


@SLOW
@given(rules_st, seed_st, st.one_of(st.none(), st.integers(0, 300)), st.booleans())
def test_record_round_trip(rules: Rules, seed: int, stop: int | None, values: bool) -> None:
    game = random_walk(rules, seed, check=False, stop_after=stop)
    rec = Record.from_game(game, names=[f"P{s}é" for s in range(rules.players)])
    text = rec.dumps(values=values)
    back = Record.loads(text)
    assert back.rules == rules and back.deal == game.dealt and back.names == rec.names
    assert back.first_player == game.table.first_player
    replayed = back.game()
    assert state(replayed) == state(game)  # hands, centre, trios, winner, events, turn in progress
    assert list(back.events) == game.table.finished_events()
    assert back.winner == game.winner
    assert Record.loads(back.dumps(indent=2)).to_json() == back.to_json()
    # the intermediate states are the states the game went through
    states = back.states()
    assert len(states) == len(back.events) + 1
    assert state(states[-1]) == state(game)
    for k in [*range(0, len(back.events), max(1, len(back.events) // 5)), len(back.events)]:
        g_k = back.game(k)
        assert g_k.table.finished_events() == list(back.events[:k])
        assert state(states[k]) == state(g_k)


@SLOW
@given(rules_st, seed_st, st.one_of(st.none(), st.integers(0, 200)))
def test_views_agree_with_record_replay(rules: Rules, seed: int, stop: int | None) -> None:
    game = random_walk(rules, seed, check=False, stop_after=stop)
    seats: list[int | None] = [None, *range(rules.players)]
    for seat in seats:
        view = game.view(seat)
        if seat is None:
            replayed: PlayerView = replay_view(rules, view.events, first_player=game.table.first_player)
        else:
            assert view.hand == tuple(game.hands[seat])
            assert view.initial_hand == game.dealt.hands[seat]
            doc = {"format": "trio-record/1", "rules": rules.to_json(), "first_player": game.table.first_player,
                   "viewer": {"seat": seat, "hand": list(view.initial_hand or ())},
                   "events": events_json(view.events)}
            rec = Record.from_json(doc)
            replayed = rec.view()
            assert replayed.seat == seat
            if seat == game.to_move:
                # the same view through the full-deal record
                via_deal = Record.from_game(game).view(seat)
                assert via_deal.hand == view.hand and via_deal.events == view.events
        assert replayed.hand == view.hand
        assert replayed.sizes == view.sizes == tuple(len(h) for h in game.hands)
        assert replayed.to_move == view.to_move == game.to_move
        assert replayed.trios == view.trios == tuple(tuple(t) for t in game.table.trios)
        assert replayed.winner == view.winner == game.winner
        assert replayed.turn == view.turn == tuple(game.turn)
        assert replayed.centre_present == view.centre_present
        assert replayed.swap_open == view.swap_open
        assert replayed.events == view.events
        assert replayed.legal_reveals() == view.legal_reveals() == game.legal_reveals()
        assert replayed.centre_seen() == view.centre_seen()
        # other teams' swap values are hidden from this view
        for e in view.events:
            if isinstance(e, Swap):
                mine = seat is not None and rules.team_of(e.seats[0]) == rules.team_of(seat)
                assert (e.cards is not None) == mine


@pytest.mark.parametrize("rules", SETTINGS, ids=lambda r: f"p{r.players}-{r.mode.value}"
                         + ("-teams" if r.teams else "") + ("-links" if r.to_json().get("links") is not None else ""))
def test_every_setting_with_a_fixed_seed(rules: Rules) -> None:
    """Each setting at least once, whatever hypothesis draws: a checked game and its record."""
    game = random_walk(rules, 20260)
    assert game.over
    back = Record.loads(Record.from_game(game).dumps())
    assert state(back.game()) == state(game) and back.rules == rules


def _facts_of(view: PlayerView) -> tuple[Any, ...]:
    """Every field of the view's facts but the table (compared by its picture instead)."""
    f = extract(view, read=0.02)
    return (f.hidden, f.rows, f.known_slots, f.pool_slots, f.hand_facts, f.slot_facts, f.approximate, f.seat,
            f.hand, f.history, f.tracked, f.dropped, f.relaxed, f.read, f.table.sizes, f.table.centre_present)


@SLOW
@given(st.lists(st.tuples(st.sampled_from(SETTINGS), seed_st, st.integers(0, 60)), min_size=1, max_size=4))
def test_kept_steps_give_the_facts_of_a_fresh_replay(games: list[tuple[Rules, int, int]]) -> None:
    """The belief model's facts read from this thread's kept steps (a history that grows the one read last
    goes on from it; games, seats and positions here alternate, so it also starts again) equal the facts
    of a replay from the deal, at every position."""
    positions: list[PlayerView] = []
    for rules, seed, stop in games:
        game = random_walk(rules, seed, check=False, stop_after=stop)
        again = Game(rules, game.dealt, game.table.first_player)
        for event in game.events + ([Turn(game.to_move, tuple(game.turn))] if game.turn else []):
            if isinstance(event, Swap):
                assert event.cards is not None
                again.swap(event.seats[0], event.seats[1], event.cards[0], event.cards[1])
            else:
                for r, _ in event.reveals:
                    positions += [again.view(s) for s in range(rules.players)]
                    again.reveal(r)
        positions += [again.view(s) for s in range(rules.players)]
    warm = [_facts_of(v) for v in positions]
    for view in positions:  # the kept steps are the live replay's, with the mover's table after each step
        assert _kept(view) == _live(view)
    for view, want in zip(positions, warm):
        table_module._LOGS.log = None  # a fresh log: the steps replayed from the deal
        assert _facts_of(view) == want


def _live(view: PlayerView) -> list[tuple[Any, ...]]:
    """The steps of ``view``'s history from a replay of its own, as :class:`LoggedStep` keeps them."""
    return [(st.event, st.index, st.reveal, st.value, st.position, st.status, st.trio, st.swap,
             st.table.used(m), st.table.sizes[m])
            for st in steps(view.rules, view.first_player, view.events)
            for m in [view.events[st.event].seat if isinstance(view.events[st.event], Turn) else 0]]


def _kept(view: PlayerView) -> list[tuple[Any, ...]]:
    return [(k.event, k.index, k.reveal, k.value, k.position, k.status, k.trio, k.swap, k.mover_used, k.mover_size)
            for k in logged_steps(view.rules, view.first_player, view.events)]


def test_kept_steps_after_a_sibling_and_after_a_read_cut_short(monkeypatch: pytest.MonkeyPatch) -> None:
    """A position, then two others that grow it differently (a bot's search asks so), then the first again;
    and a read stopped part way (a time limit rings inside it): every answer is a fresh replay's."""
    game = random_walk(Rules(4), 5, check=False, stop_after=40)
    assert not game.over
    base = game.view(game.to_move)
    siblings = []
    for r in base.legal_reveals()[:3]:
        twin = game.copy()
        twin.reveal(r)
        siblings.append(twin.view(game.to_move))
    for view in [base, *siblings, base, siblings[0]]:
        assert _kept(view) == _live(view)
        assert knowledge(view) == knowledge(view, reader=PublicReader())
    later = game.copy()
    while not later.over and len(later.events) < len(game.events) + 8:
        later.reveal(later.legal_reveals()[0])
    target = later.view(None)
    calls = [0]
    apply = Table.apply_reveal

    def stopped(self: Table, reveal: Reveal, value: int) -> TurnStatus:
        calls[0] += 1
        if calls[0] == 5:
            raise LimitError("stopped at the time limit")
        return apply(self, reveal, value)

    for ask in (_kept, knowledge):
        monkeypatch.setattr(Table, "apply_reveal", stopped)
        calls[0] = 0
        with pytest.raises(LimitError):
            ask(target)
        monkeypatch.setattr(Table, "apply_reveal", apply)
    assert _kept(target) == _live(target)
    assert knowledge(target) == knowledge(target, reader=PublicReader())
