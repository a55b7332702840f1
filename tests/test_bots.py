"""Bots: legal moves in every setting, and decisions that depend only on their own view."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers_positions import ALL_RULES, random_position, random_swaps
from trio_solver.infer.sampling import sample_game
from trio_solver.infer.beliefs import Beliefs
from trio_solver.decide.bots import BOT_NAMES, Bot, Memory, MemoryBot, MemoryTracker, RandomBot, SolverBot, make_bot
from trio_solver.game.state import Game
from trio_solver.errors import ViewError
from trio_solver.game.record import Record
from trio_solver.game.reveal import Reveal
from trio_solver.game.rules import Mode, Rules
from trio_solver.run.simulate import play_game
from trio_solver.game.events import Swap, TurnStatus
from trio_solver.game.view import PlayerView
from trio_solver.decide.search import advise

ALL_RULES = tuple(
    Rules(n, mode, teams)
    for n in (3, 4, 5, 6)
    for mode in (Mode.SIMPLE, Mode.PICANTE)
    for teams in ((False, True) if n in (4, 6) else (False,))
)


def _ids(rules: Rules) -> str:
    return f"{rules.players}-{rules.mode.value}{'-teams' if rules.teams else ''}"


# ---------------------------------------------------------------------------
# full games: play_game raises IllegalMoveError on any illegal reveal or swap


def _lineups(rules: Rules) -> list[list[str]]:
    n = rules.players
    mixed = [["solver", "memory", "random"][s % 3] for s in range(n)]
    alternating = [["solver", "memory"][s % 2] for s in range(n)]
    return [["random"] * n, ["memory"] * n, mixed, alternating]


@pytest.mark.parametrize("rules", ALL_RULES, ids=_ids)
def test_bots_play_legal_games_to_the_end(rules: Rules) -> None:
    for k, names in enumerate(_lineups(rules)):
        for seed in range(1 if "solver" in names else 3):
            bots = [make_bot(name, random.Random(100 * seed + s)) for s, name in enumerate(names)]
            game = play_game(rules, bots, rng=random.Random(1000 * k + seed), first_player=seed % rules.players)
            assert game.over, (names, seed)
            winner = game.winner
            assert winner is not None
            assert rules.is_win(game.table.team_trios(rules.team_of(winner)))
            # the record of the game replays through the validating reader, with the same winner
            rec = Record.loads(Record.from_game(game).dumps())
            assert rec.winner == winner
            assert rec.events == tuple(game.events)
            if rules.teams:
                # swaps happen only at the moments the rules allow (checked by the engine);
                # each one is between partners
                for e in game.events:
                    if isinstance(e, Swap):
                        assert rules.partner(e.seats[0]) == e.seats[1]


@pytest.mark.parametrize("rules", ALL_RULES, ids=_ids)
def test_every_bot_chooses_a_legal_reveal_and_swap(rules: Rules) -> None:
    stages: set[int] = set()
    for seed in range(6):
        game = random_position(rules, seed, 3 + 11 * seed)
        if game.over:
            continue
        view = game.view(game.to_move)
        stages.add(len(view.turn))
        legal = view.legal_reveals()
        for name in BOT_NAMES:
            bot = _bot(name, random.Random(seed))
            assert bot.choose_reveal(view) in legal, (name, seed)
            # a swap choice is a card of the bot's own hand, or None
            for s in range(rules.players):
                card = _bot(name, random.Random(seed)).choose_swap(game.view(s))
                assert card is None or card in game.hands[s], (name, s, card)
    assert 0 in stages and (1 in stages or 2 in stages)


def test_make_bot_names() -> None:
    assert set(BOT_NAMES) >= {"random", "memory", "solver"}
    rng = random.Random(0)
    assert isinstance(make_bot("random", rng), RandomBot)
    assert isinstance(make_bot("memory", rng), MemoryBot)
    assert isinstance(make_bot("solver", rng), SolverBot)
    for name in BOT_NAMES:
        bot = make_bot(name, rng)
        assert isinstance(bot, Bot) and bot.name == name
    with pytest.raises(ViewError, match="unknown bot"):
        make_bot("grandmaster", rng)


def _bot(name: str, rng: random.Random) -> Bot:
    """A bot by name; the expert with a small budget (what is checked here holds at any budget)."""
    return make_bot(name, rng, budget=16)


# ---------------------------------------------------------------------------
# bots see only their view: two true deals behind one view give the same choices


def _same_view(a: PlayerView, b: PlayerView) -> bool:
    return (a.events == b.events and a.hand == b.hand and a.initial_hand == b.initial_hand
            and a.sizes == b.sizes and a.turn == b.turn and a.to_move == b.to_move)


def _twin(game: Game, seat: int, seed: int) -> Game:
    """Another true state behind the view of ``seat`` (drawn from its exact posterior)."""
    view = game.view(seat)
    other = sample_game(Beliefs(view), random.Random(seed))
    assert _same_view(view, other.view(seat))
    return other


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bot_reveal_depends_only_on_its_view(name: str) -> None:
    differ = 0
    checked = 0
    for rules in [r for r in ALL_RULES if not r.teams]:
        for seed in range(6):
            game = random_position(rules, seed, 4 + 9 * seed)
            if game.over:
                continue
            s = game.to_move
            twin = _twin(game, s, seed)
            differ += twin.dealt != game.dealt
            a = _bot(name, random.Random(seed)).choose_reveal(game.view(s))
            b = _bot(name, random.Random(seed)).choose_reveal(twin.view(s))
            assert a == b, (name, rules, seed)
            checked += 1
    assert checked >= 30
    assert differ >= checked // 2, "the twin deals should usually differ from the true one"


@pytest.mark.slow
@pytest.mark.parametrize("name", BOT_NAMES)
def test_bot_swap_and_reveal_depend_only_on_its_view_in_team_play(name: str) -> None:
    checked_swaps = 0
    checked_reveals = 0
    for players in (4, 6):
        for mode in (Mode.SIMPLE, Mode.PICANTE):
            rules = Rules(players, mode, teams=True)
            for seed in range(2):
                # the start of the game: every team may swap, nothing is shown yet
                game = Game.deal(rules, rng=random.Random(seed))
                for a, b in game.swap_moment():
                    for s in (a, b):
                        twin = _twin(game, s, seed)
                        x = _bot(name, random.Random(seed)).choose_swap(game.view(s))
                        y = _bot(name, random.Random(seed)).choose_swap(twin.view(s))
                        assert x == y
                        checked_swaps += 1
                # later: only the viewer's team swaps (its cards are known to it), so an
                # exact twin deal exists; test at swap moments after trios and at reveals
                rng = random.Random(seed)
                viewer_team = rules.team_of(game.to_move)
                for step in range(45):
                    if game.over:
                        break
                    if not game.turn:
                        for a, b in game.swap_moment():
                            if rules.team_of(a) != viewer_team:
                                continue
                            for s in (a, b):
                                twin = _twin(game, s, seed + step)
                                x = _bot(name, random.Random(step)).choose_swap(game.view(s))
                                y = _bot(name, random.Random(step)).choose_swap(twin.view(s))
                                assert x == y
                                checked_swaps += 1
                            if game.hands[a] and game.hands[b]:
                                game.swap(a, b, rng.choice(game.hands[a]), rng.choice(game.hands[b]))
                    s = game.to_move
                    if rules.team_of(s) == viewer_team:
                        twin = _twin(game, s, seed + step)
                        x = _bot(name, random.Random(step)).choose_reveal(game.view(s))
                        y = _bot(name, random.Random(step)).choose_reveal(twin.view(s))
                        assert x == y
                        checked_reveals += 1
                    game.reveal(rng.choice(game.legal_reveals()))
    assert checked_swaps >= 20
    assert checked_reveals >= 40


# ---------------------------------------------------------------------------
# what the bots do with certain information


def _certain_trio_game(own_trio: int) -> Game:
    """3 players; seat 0 holds three ``own_trio`` at the low end of its hand."""
    rest = [v for v in range(1, 13) if v != own_trio for _ in range(3)]
    hand0 = [own_trio] * 3 + rest[:6]
    hands = [hand0, rest[6:15], rest[15:24]]
    centre = rest[24:33]
    return Game.from_deal(Rules(3), hands, centre, first_player=0)


@pytest.mark.parametrize("name", ["memory", "solver", "expert"])
@pytest.mark.parametrize("value", [1, 7])
def test_bots_take_a_certain_trio(name: str, value: int) -> None:
    game = _certain_trio_game(value)
    bot = _bot(name, random.Random(0))
    for _ in range(3):
        status = game.reveal(bot.choose_reveal(game.view(0))).status
    assert status is TurnStatus.TRIO
    assert game.table.trios[0] == (value,)
    assert game.over == (value == 7)


def test_memory_bot_completes_a_remembered_trio() -> None:
    # seat 1 shows two 5s from the centre and fails; seat 2 has the third 5 as its lowest...
    rules = Rules(3)
    hands = [[1, 1, 2, 2, 3, 3, 4, 4, 6], [6, 6, 7, 7, 7, 8, 8, 8, 9], [5, 9, 9, 10, 10, 10, 11, 11, 11]]
    centre = [5, 5, 12, 12, 12, 1, 2, 3, 4]
    game = Game.from_deal(rules, hands, centre, first_player=1)
    for r in (Reveal.centre(0), Reveal.centre(1), Reveal.centre(2)):  # 5, 5, 12: failure
        game.reveal(r)
    game.reveal(Reveal.lowest(2))  # seat 2 shows its 5 ...
    game.reveal(Reveal.highest(2))  # ... then its 11: failure
    assert game.to_move == 0 and not game.turn
    bot = make_bot("memory", random.Random(1))
    shown = []
    for _ in range(3):
        r = bot.choose_reveal(game.view(0))
        shown.append(r)
        status = game.reveal(r).status
    assert status is TurnStatus.TRIO, shown
    assert game.table.trios[0] == (5,)
    assert set(shown) == {Reveal.centre(0), Reveal.centre(1), Reveal.lowest(2)}


def test_random_bot_is_uniform_over_legal_reveals() -> None:
    game = Game.deal(Rules(3), seed=5)
    view = game.view(game.to_move)
    legal = view.legal_reveals()
    bot = RandomBot(random.Random(3))
    counts = {r: 0 for r in legal}
    n = 6000
    for _ in range(n):
        counts[bot.choose_reveal(view)] += 1
    expected = n / len(legal)
    # every reveal appears, none far from its share (chi-square-like bound, fixed seed)
    assert all(abs(c - expected) < 5 * expected ** 0.5 for c in counts.values()), counts


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ALL_RULES), st.integers(0, 10**6))
def test_memory_kept_step_by_step_is_the_memory_replayed(rules: Rules, seed: int) -> None:
    """A tracker fed the views of one seat during a game, one decision after another, remembers what a
    replay of each view from the start remembers; a view of another game starts it afresh."""
    rng = random.Random(seed)
    game = Game.deal(rules, rng=rng)
    seat = rng.randrange(rules.players)
    tracker = MemoryTracker(game.view(seat))
    for _ in range(80):
        if game.over:
            break
        random_swaps(game, rng)
        game.reveal(rng.choice(game.legal_reveals()))
        if rng.random() < 0.5:
            continue  # the tracker skips some positions, as a bot does between its turns
        view = game.view(seat)
        assert tracker.follows(view)
        assert tracker.update(view) == Memory.of(view)
    other = Game.deal(rules, seed=seed + 1).view(seat)
    assert not tracker.follows(other) or not other.events


def test_the_memory_bot_never_hands_back_what_its_partner_gave_it() -> None:
    """Over whole team games of memory bots, no bot gives at a swap a card its partner gave it at an earlier
    one (perfect memory: the partner had no use for it)."""
    swaps = 0
    for seed in range(30):
        rules = Rules(4 if seed % 2 else 6, teams=True)
        game = play_game(rules, [make_bot("memory", random.Random(seed * 7 + s)) for s in range(rules.players)],
                         rng=random.Random(seed))
        received: dict[int, set[int]] = {s: set() for s in range(rules.players)}
        for e in game.events:
            if isinstance(e, Swap) and e.cards is not None:
                (a, b), (va, vb) = e.seats, e.cards
                assert va not in received[a] and vb not in received[b], (seed, e)
                received[a].add(vb)
                received[b].add(va)
                swaps += 1
    assert swaps > 30


def test_every_bot_refuses_a_position_left_with_no_card() -> None:
    """A position built by hand whose last trio took every card in play: no reveal is legal and the game is
    not won. Every bot says so in one line of the library's own error, not with a crash."""
    game = Game.constructed(Rules(3), [[1, 1, 1], [], []], [None] * 9)
    for _ in range(3):
        game.reveal(Reveal.lowest(0))
    assert not game.over and game.legal_reveals() == []
    for name in BOT_NAMES:
        with pytest.raises(ViewError, match="no card is left in play") as caught:
            make_bot(name, random.Random(1)).choose_reveal(game.view(game.to_move))
        assert "\n" not in str(caught.value)
    with pytest.raises(ViewError, match="no card is left in play"):
        advise(game.view(game.to_move))
