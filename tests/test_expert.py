"""The expert bot: legal, deterministic per seed, its budget, and whole games in every setting."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers_positions import ALL_RULES, random_position, swap_views
from trio_solver.decide.bots import make_bot
from trio_solver.game.state import Game
from trio_solver.errors import ViewError
from trio_solver.infer.beliefs import Beliefs
from trio_solver.decide.expert import (CAP_BATCH, DEFAULT_BUDGET, DEFAULT_READ, DEFAULT_WINDOW, QUIET_BELOW, SEARCH_WINDOW,
                                       SWAP_OPTIONS, ExpertBot, TiesExpertBot, bot_order, default_budget,
                                       solver_score)
from trio_solver.game.reveal import Reveal
from trio_solver.decide.evaluate import playouts_played
from trio_solver.decide.rollout import public_memory
from trio_solver.game.rules import Mode, Rules
from trio_solver.decide.search import Advice, advise
from trio_solver.run.simulate import play_game, run_tournament
from trio_solver.decide.swaps import pairing_order, pairing_swap
from trio_solver.game.view import PlayerView
from trio_solver.infer.sampling import sample_game


def _advice(view: PlayerView, read: float | None = DEFAULT_READ) -> Advice:
    """The advice the bot plays on: on beliefs that read the opponents' choices (by default)."""
    return advise(view, beliefs=Beliefs(view, read=read))


def test_expert_is_deterministic_per_seed() -> None:
    picks = []
    for seed in range(8):
        game = random_position(Rules(3), seed, 3 * seed)
        if game.over:
            continue
        view = game.view(game.to_move)
        a = ExpertBot(random.Random(seed), budget=60).choose_reveal(view)
        b = ExpertBot(random.Random(seed), budget=60).choose_reveal(view)
        assert a == b and a in view.legal_reveals()
        picks.append(a)
    assert len(picks) >= 6


def test_budget_is_a_parameter_everywhere() -> None:
    bot = make_bot("expert", random.Random(0), budget=30)
    assert isinstance(bot, ExpertBot) and bot.budget == 30
    # by default the budget follows the table: the same playout work per decision at every size
    default = make_bot("expert", random.Random(0))
    assert isinstance(default, ExpertBot) and default.budget is None
    assert default_budget(3) == DEFAULT_BUDGET
    assert [default_budget(n) for n in (4, 5, 6)] == [1080, 691, 480]  # the documented (3/players)² scale
    assert isinstance(make_bot("expert", random.Random(0)), ExpertBot)
    for bad in (0, -3, 2.5, True):
        with pytest.raises(ViewError, match="budget"):
            ExpertBot(random.Random(0), budget=bad)  # type: ignore[arg-type]
    with pytest.raises(ViewError, match="budget"):
        run_tournament(Rules(3), ["expert", "memory", "memory"], 1, 0, budget=0)
    t1 = run_tournament(Rules(3), ["expert", "memory", "memory"], 2, 5, budget=20)
    t2 = run_tournament(Rules(3), ["expert", "memory", "memory"], 2, 5, budget=20, workers=2)
    assert [r.winner for r in t1.results] == [r.winner for r in t2.results]


@pytest.mark.parametrize("rules", [r for r in ALL_RULES if (r.mode is Mode.SIMPLE or r.players == 3)
                                   and not (r.teams and r.players == 6)],
                         ids=lambda r: f"{r.players}-{r.mode.value}{'-teams' if r.teams else ''}")
def test_expert_plays_whole_games(rules: Rules) -> None:
    """Games to the end with a small budget (play_game raises on any illegal reveal or swap)."""
    seats = set(rules.teams_of_seats[0])
    bots = [make_bot("expert" if s in seats else "solver", random.Random(s), budget=16)
            for s in range(rules.players)]
    game = play_game(rules, bots, rng=random.Random(rules.players))
    assert game.over


def test_expert_prefers_a_certain_trio_to_a_search() -> None:
    # seat 0 holds three 4s at its low end: the trio is certain (p_trio = 1), and taken
    rest = [v for v in range(1, 13) if v != 4 for _ in range(3)]
    game = Game.from_deal(Rules(3), [[4, 4, 4] + rest[:6], rest[6:15], rest[15:24]], rest[24:33])
    assert ExpertBot(random.Random(1), budget=10).choose_reveal(game.view(0)) == Reveal.lowest(0)


def test_a_likely_win_beats_a_sure_trio_that_does_not_win() -> None:
    """A Picante position from a game against ``solver`` bots: seat 0 can take a trio for certain
    (it does not win) or try a reveal that wins the game at once about two times in three. The bot
    plays the reveal with the best turn score, the likely win; a sure trio is only taken when it is
    the best (a trio ends the turn, so taking the sure one gives the likely win up)."""
    game = Game.from_json(json.loads((Path(__file__).parent / "positions" / "likely_win_over_sure_trio.json")
                                     .read_text()))
    view = game.view(0)
    assert game.to_move == 0 and not game.turn
    evals = _advice(view).evaluations
    sure = [e for e in evals if e.p_trio >= 1 - 1e-9]
    best = max(evals, key=lambda e: solver_score(view, e))
    assert sure and all(e.p_win == 0 for e in sure)
    assert best.p_win > 0.6 and best.p_trio < 1
    for seed in range(3):
        assert TiesExpertBot(random.Random(seed), budget=20).choose_reveal(view) == best.reveal
        # the searching expert races every reveal; 200 playouts tell the likely win from the sure trio
        assert ExpertBot(random.Random(seed), budget=200, policy_reading=False).choose_reveal(view) == best.reveal
        # reading the opponents' first reveals may prefer another likely win, never the sure trio
        pick = ExpertBot(random.Random(seed), budget=200).choose_reveal(view)
        assert pick not in {e.reveal for e in sure}
        assert next(e for e in evals if e.reveal == pick).p_win > 0.6


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ALL_RULES), st.integers(0, 10**6), st.integers(0, 50),
       st.sampled_from([DEFAULT_WINDOW, None, 0.05, 0.3]))
def test_the_race_has_one_unknown_centre_card_and_a_quiet_reveal(rules: Rules, seed: int, before: int,
                                                                  window: float | None) -> None:
    game = random_position(rules, seed, before)
    if game.over:
        return
    view = game.view(game.to_move)
    bot = ExpertBot(random.Random(0), window=window)
    ranked = bot.ranked(view, _advice(view))
    cands = bot.candidates_of(view, ranked)
    memory = public_memory(view)
    legal = set(view.legal_reveals())
    assert cands and all(e.reveal in legal for e in cands)
    assert len({e.reveal for e in cands}) == len(cands)
    unknown_centre = [e for e in cands if e.reveal.is_centre and not memory.knows(view, e.reveal)]
    assert len(unknown_centre) <= 1
    # the best reveals by the turn score are raced (of the unknown centre cards, only the best ranked),
    # those within the window of the best turn score when there is a window
    unknown = [i for i, e in enumerate(ranked) if e.reveal.is_centre and not memory.knows(view, e.reveal)]
    top = [e for i, e in enumerate(ranked) if i not in unknown[1:]]
    assert cands[0] == top[0]
    if window is not None:
        best = max(solver_score(view, e) for e in ranked)
        top = [e for e in top if solver_score(view, e) >= best - window - 1e-12]
        assert all(solver_score(view, e) >= best - window - 1e-12 for e in cands)
    quiet = [e for e in top if memory.knows(view, e.reveal)][:1]
    assert cands == top[:bot.candidates] + [e for e in quiet if e not in top[:bot.candidates]]


def test_window_is_checked() -> None:
    for bad in (-0.1, 11, "0.05", True):
        with pytest.raises(ViewError, match="window"):
            TiesExpertBot(random.Random(0), window=bad)  # type: ignore[arg-type]
    assert TiesExpertBot(random.Random(0)).window == DEFAULT_WINDOW
    assert TiesExpertBot(random.Random(0), window=None).window is None
    assert ExpertBot(random.Random(0)).window == SEARCH_WINDOW > DEFAULT_WINDOW


def test_read_is_checked() -> None:
    for bad in (0, -0.1, 1.5, "0.02", True):
        with pytest.raises(ViewError, match="read"):
            ExpertBot(random.Random(0), read=bad)  # type: ignore[arg-type]
    assert ExpertBot(random.Random(0)).read == DEFAULT_READ


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(swap_views(40), st.integers(0, 10**6))
def test_the_swap_search_gives_a_single_card_or_none(at: tuple[Game, int], seed: int) -> None:
    game, seat = at
    view = game.view(seat)
    bot = ExpertBot(random.Random(seed), budget=24)
    beliefs = Beliefs(view, read=bot.read)  # the bot's own beliefs, which read the opponents
    options = bot.swap_options(view, beliefs)
    # the solver's choice first, then the next single cards in its order, then no swap
    assert options == [*pairing_order(view, beliefs)[:SWAP_OPTIONS], None]
    assert options[0] == pairing_swap(view, beliefs)
    pick = bot.choose_swap(view)
    assert pick in options
    assert pick == ExpertBot(random.Random(seed), budget=24).choose_swap(view)  # deterministic per seed
    hand = game.hands[seat]
    assert pick is None or hand.count(pick) == 1  # never breaks a pair


def test_the_swap_search_sees_only_its_view() -> None:
    """Two deals behind the same view (seat 0's hand, nothing revealed): the same swap."""
    rules = Rules(4, Mode.SIMPLE, True)
    rng = random.Random(7)
    deck = [v for v in range(1, 13) for _ in range(3)]
    rng.shuffle(deck)
    own, rest = sorted(deck[:9]), deck[9:]
    picks = []
    for k in range(3):
        random.Random(k).shuffle(rest)
        game = Game.from_deal(rules, [own, sorted(rest[:9]), sorted(rest[9:18]), sorted(rest[18:])], [])
        picks.append(ExpertBot(random.Random(1), budget=40).choose_swap(game.view(0)))
    assert len(set(picks)) == 1 and (picks[0] is None or own.count(picks[0]) == 1)


def test_reveals_that_leave_the_same_state_share_a_playout() -> None:
    """Racing the candidates together gives each the tally it gets alone (sharing a playout between
    reveals that leave the same state never changes a result), with fewer playouts when some do."""
    from trio_solver.decide.evaluate import Posterior, playout_tallies, playout_tally, playouts_played

    shared = checked = 0
    for seed in range(30):
        game = random_position(Rules(3), seed, 24)
        while game.turn and not game.over:
            game.reveal(game.legal_reveals()[0])
        if game.over:
            continue
        view = game.view(game.to_move)
        bot = ExpertBot(random.Random(0), window=None)  # every distinct reveal
        cands = bot.candidates_of(view, bot.ranked(view, _advice(view)))
        post = Posterior(view)
        alone = [playout_tally(post, e, 7, range(25)) for e in cands]
        before = playouts_played()
        together = playout_tallies(post, cands, 7, range(25))
        count = playouts_played() - before
        assert together == alone
        assert count <= 25 * len(cands)
        shared += count < 25 * len(cands)
        checked += 1
        if checked == 8:
            break
    assert checked == 8 and shared >= 3


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(0, 40), st.sampled_from([DEFAULT_READ, None]))
def test_with_a_window_of_zero_and_one_candidate_the_bot_plays_the_best_turn_score(seed: int, before: int,
                                                                                    read: float | None) -> None:
    """At the start of a turn: a certain trio if one has the highest turn score, else the first reveal
    in the bots' order (:func:`bot_order`) with the highest turn score, without a playout, unless a card everyone
    knows ties with it (then those two are raced). The advice is on the bot's beliefs: reading the
    opponents' choices, or (``read=None``) the exact public posterior."""
    game = random_position(Rules(3), seed, before)
    while game.turn and not game.over:
        game.reveal(game.legal_reveals()[0])
    if game.over:
        return
    view = game.view(game.to_move)
    evals = _advice(view, read).evaluations
    top = max(round(solver_score(view, e), 12) for e in evals)
    # the first of the equals in the bots' own tie order
    best = next(e for e in bot_order(view, evals) if round(solver_score(view, e), 12) == top)
    certain = [e for e in evals
               if e.p_trio >= 1 - 1e-9 and solver_score(view, e) >= solver_score(view, best) - 1e-9]
    bot = TiesExpertBot(random.Random(seed), window=0.0, candidates=1, read=read)
    raced = bot.candidates_of(view, bot.ranked(view, _advice(view, read)))
    assert raced[0].reveal == best.reveal
    assert all(abs(solver_score(view, e) - solver_score(view, best)) < 1e-9 for e in raced)
    before_count = playouts_played()
    pick = bot.choose_reveal(view)
    played = [playouts_played() - before_count]
    if certain:
        assert pick in {e.reveal for e in certain} and played[0] == 0
    elif len(raced) == 1:
        assert pick == best.reveal and played[0] == 0
    else:
        assert pick in {e.reveal for e in raced} and played[0] > 0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(0, 40), st.sampled_from([Mode.SIMPLE, Mode.PICANTE]))
def test_mid_turn_the_expert_plays_the_best_chance_or_a_known_card_when_the_chance_is_tiny(
        seed: int, before: int, mode: Mode) -> None:
    """In the middle of a turn: a reveal with the best chance of a trio, unless every chance is below
    QUIET_BELOW and some card everyone knows can be revealed; then one of those (the failure shows
    nothing new)."""
    game = random_position(Rules(3, mode), seed, before)
    if game.over:
        return
    if not game.turn:
        game.reveal(game.legal_reveals()[seed % len(game.legal_reveals())])
    if game.over or not game.turn:
        return
    view = game.view(game.to_move)
    evals = _advice(view).evaluations
    best = max(e.p_trio for e in evals)
    memory = public_memory(view)
    known = {r for r in view.legal_reveals() if memory.knows(view, r)}
    pick = TiesExpertBot(random.Random(seed)).choose_reveal(view)
    assert pick in view.legal_reveals()
    chance = {e.reveal: e.p_trio for e in evals}
    if best < QUIET_BELOW and known:
        assert pick in known
    else:
        assert chance[pick] >= best - 1e-9


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ALL_RULES), st.integers(0, 10**6), st.integers(0, 40), st.integers(0, 10**6))
def test_the_searching_expert_depends_only_on_its_view(rules: Rules, seed: int, before: int, other: int) -> None:
    """Two deals behind one view (the second drawn from the view's posterior): the same reveal, a legal
    one, at the start of a turn and in its middle."""
    game = random_position(rules, seed, before)
    if game.over:
        return
    view = game.view(game.to_move)
    beliefs = Beliefs(view)
    if beliefs.approximate:
        return
    twin = sample_game(beliefs, random.Random(other))
    assert twin.view(game.to_move) == view
    picks = [ExpertBot(random.Random(seed), budget=48).choose_reveal(g.view(g.to_move)) for g in (game, twin)]
    assert picks[0] == picks[1] and picks[0] in view.legal_reveals()


def test_the_searching_expert_takes_a_certain_winning_trio() -> None:
    """The mover holds the three 7s at its low end (a trio of 7s wins the game at once), in every table
    size and mode: the expert takes it, without a playout."""
    for rules in (Rules(3), Rules(4, Mode.PICANTE), Rules(6, Mode.SIMPLE, teams=True)):
        for seed in range(2):
            deck = [v for v in range(1, 13) if v != 7 for _ in range(3)]
            random.Random(seed).shuffle(deck)
            high = sorted(v for v in deck if v > 7)
            size, centre = rules.hand_size, rules.centre_size
            own = [7, 7, 7] + high[:size - 3]
            rest = list(deck)
            for v in own[3:]:
                rest.remove(v)
            hands = [own] + [sorted(rest[k * size:(k + 1) * size]) for k in range(rules.players - 1)]
            game = Game.from_deal(rules, hands, rest[(rules.players - 1) * size:][:centre])
            view = game.view(0)
            before_count = playouts_played()
            assert ExpertBot(random.Random(seed)).choose_reveal(view) == Reveal.lowest(0)
            assert playouts_played() == before_count


def test_a_time_cap_not_reached_changes_nothing_and_a_cap_reached_stops_the_race() -> None:
    """The race with a cap plays the same deals in batches: with a cap it never reaches, every decision is
    the one without a cap (the same seed on any machine); with a cap of 0 the race stops after its first
    batch and plays the leader of that batch."""
    raced = 0
    for seed in range(40):
        game = random_position(Rules(3), seed, 2 * seed)
        if game.over:
            continue
        view = game.view(game.to_move)
        before = playouts_played()
        plain = ExpertBot(random.Random(seed), budget=400).choose_reveal(view)
        if playouts_played() == before:
            continue  # no race at this position: nothing for a cap to stop
        capped = ExpertBot(random.Random(seed), budget=400, time_cap=3600).choose_reveal(view)
        assert capped == plain
        hurried = ExpertBot(random.Random(seed), budget=400, time_cap=0).choose_reveal(view)
        assert hurried in view.legal_reveals()
        raced += 1
        if raced == 6:
            break
    assert raced == 6
    played: list[range] = []

    def play_round(alive: list[int], deals: range) -> dict[int, float]:
        played.append(deals)
        return {i: float(i == 2) for i in alive}  # candidate 2 leads

    bot = ExpertBot(random.Random(0), time_cap=0)
    assert bot._halving(5, 4000, play_round) == 2
    assert played == [range(0, CAP_BATCH)]  # one batch, then the cap
    played.clear()
    assert ExpertBot(random.Random(0))._halving(5, 4000, play_round) == 2
    assert len(played) == 3 and played[0] == range(0, 4000 // 3 // 5)  # three rounds of successive halving
    for bad in (-1, "2", True, float("nan"), 10**9):
        with pytest.raises(ViewError, match="time_cap"):
            make_bot("expert", random.Random(0), time_cap=bad)
