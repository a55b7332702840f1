"""The OpenSpiel game python_trio: loading, OpenSpiel's random simulation test, the chance
nodes of the deal, observers, exact resampling, ISMCTSBot, and bots in both directions."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms.ismcts import ISMCTSBot

import trio_solver.doors.openspiel as tos
from trio_solver import Rules
from trio_solver.decide.bots import make_bot
from trio_solver.doors.envs import trio_v0
from trio_solver.doors.envs.agents import match_action
from trio_solver.errors import RulesError
from trio_solver.game.rules import COPIES, VALUES
from trio_solver.run.simulate import play_game


def deal(state: pyspiel.State, rng: random.Random) -> None:
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(actions, probs)[0])


def advance(state: pyspiel.State, rng: random.Random, decisions: int, smart: float = 0.6) -> None:
    """Random legal decisions mixed with the memory bot's (so trios and swap moments happen)."""
    bot = make_bot("memory", rng)
    for _ in range(decisions):
        if state.is_terminal():
            return
        if rng.random() < smart:
            state.apply_action(match_action(bot, state.match))
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_load_and_parameters() -> None:
    game = pyspiel.load_game("python_trio", {"players": 3})
    assert game.num_players() == 3 and game.num_distinct_actions() == 15
    assert game.max_chance_outcomes() == 12
    assert game.get_type().short_name == "python_trio"
    team = pyspiel.load_game("python_trio", {"players": 6, "mode": "picante", "teams": True})
    assert team.num_distinct_actions() == 12 + 13 and team.min_utility() == -0.5
    assert pyspiel.load_game("python_trio").num_players() == 3
    assert tos.load(players=4).num_distinct_actions() == 16
    with pytest.raises(RulesError):
        tos.load(players=7)
    with pytest.raises(RulesError):
        tos.load(players=5, teams=True)
    with pytest.raises(RulesError):
        pyspiel.load_game("python_trio", {"players": 4, "mode": "spicy"})


@pytest.mark.parametrize("kwargs, message", [
    ({"players": "4"}, 'rules.players: expected an integer 3 to 6, got "4"'),
    ({"players": 3.5}, "rules.players: expected an integer 3 to 6, got 3.5"),
    ({"teams": "yes"}, 'rules.teams: expected true or false, got "yes"'),
    ({"max_reveals": "10"}, 'max_reveals: expected a number of reveals 1 to 2147483647, got "10"'),
    ({"max_reveals": True}, "max_reveals: expected a number of reveals 1 to 2147483647, got true"),
    ({"max_reveals": 2**31}, "max_reveals: expected a number of reveals 1 to 2147483647, got 2147483648"),
])
def test_load_refuses_a_wrong_type_in_one_line(kwargs: dict[str, object], message: str) -> None:
    """``load`` checks its parameters' types itself, rather than converting them (``int(3.5)``, ``bool("yes")``)
    or leaving them to OpenSpiel's own error."""
    with pytest.raises(RulesError) as caught:
        tos.load(**kwargs)  # type: ignore[arg-type]
    assert str(caught.value) == message


@pytest.mark.parametrize("params", [{"players": 3, "max_reveals": 120},
                                    {"players": 5, "mode": "picante", "max_reveals": 80},
                                    {"players": 4, "teams": True, "max_reveals": 120},
                                    {"players": 6, "teams": True, "max_reveals": 60}])
def test_openspiel_random_sim_test(params: dict[str, object]) -> None:
    game = pyspiel.load_game("python_trio", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_deal_chance_nodes() -> None:
    game = pyspiel.load_game("python_trio", {"players": 4})
    state = game.new_initial_state()
    assert state.is_chance_node()
    first = state.chance_outcomes()
    assert [a for a, _ in first] == list(range(12)) and all(p == pytest.approx(1 / 12) for _, p in first)
    state.apply_action(6)  # a 7
    state.apply_action(6)
    probs = dict(state.chance_outcomes())
    assert probs[6] == pytest.approx(1 / 34) and probs[0] == pytest.approx(3 / 34)
    state.apply_action(6)
    assert 6 not in dict(state.chance_outcomes())
    rng = random.Random(1)
    for _ in range(33):
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        actions, probs_ = zip(*outcomes)
        state.apply_action(rng.choices(actions, probs_)[0])
    assert state.chance_outcomes() == [(s, 0.25) for s in range(4)]  # the first player
    state.apply_action(2)
    assert not state.is_chance_node() and state.current_player() == 2
    g = state.match.game
    assert sorted(g.cards_in_play()) == sorted(v for v in VALUES for _ in range(COPIES))
    assert g.hands[0].count(7) == 3


def test_observations_match_the_pettingzoo_env() -> None:
    game = pyspiel.load_game("python_trio", {"players": 4, "teams": True})
    state = game.new_initial_state()
    rng = random.Random(5)
    deal(state, rng)
    advance(state, rng, 30)
    env = trio_v0.raw_env(players=4, teams=True)
    env.reset(seed=0)
    env.match = state.match
    for p in range(4):
        obs = np.asarray(state.observation_tensor(p))
        assert (obs == env.observe(f"player_{p}")["observation"]).all()
        info = np.asarray(state.information_state_tensor(p))
        assert info.shape == (game.information_state_tensor_size(),)
        assert (info[: obs.size] == obs).all() and info[obs.size:].sum() == 9
        assert state.information_state_string(p).startswith(f"p{p} 4p simple teams dealt [")
    strings = {state.information_state_string(p) for p in range(4)}
    assert len(strings) == 4


@pytest.mark.parametrize("params,decisions", [({"players": 3}, 25), ({"players": 5}, 40),
                                              ({"players": 4, "teams": True}, 15),
                                              ({"players": 6, "teams": True}, 30)])
def test_resample_from_infostate(params: dict[str, object], decisions: int) -> None:
    game = pyspiel.load_game("python_trio", params)
    for seed in range(4):
        rng = random.Random(seed)
        state = game.new_initial_state()
        deal(state, rng)
        advance(state, rng, decisions + seed * 7)
        if state.is_terminal():
            continue
        for p in range(game.num_players()):
            key = state.information_state_string(p)
            seen = set()
            for k in range(4):
                other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
                assert other.information_state_string(p) == key
                assert other.current_player() == state.current_player()
                assert other.match.game.hands[p] == state.match.game.hands[p]
                assert sorted(other.match.game.cards_in_play()) == sorted(state.match.game.cards_in_play())
                seen.add(tuple(tuple(h) for h in other.match.game.hands))
            assert len(seen) > 1  # the hidden cards are drawn, not copied


def test_resample_during_the_deal() -> None:
    game = pyspiel.load_game("python_trio", {"players": 3})
    state = game.new_initial_state()
    for a in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]:  # seat 0 has 9 cards, seat 1 three
        state.apply_action(a)
    other = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.dealt[:9] == state.dealt[:9] and len(other.dealt) == 12
    assert other.information_state_string(0) == state.information_state_string(0)


def test_ismcts_plays_a_game() -> None:
    game = pyspiel.load_game("python_trio", {"players": 3, "max_reveals": 120})
    bots = [ISMCTSBot(game, tos.TrioEvaluator(), 2.0, 8, random_state=np.random.RandomState(s)) for s in range(3)]
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            deal(state, rng)
            continue
        state.apply_action(bots[state.current_player()].step(state))
    assert sum(state.returns()) == pytest.approx(0.0)
    assert state.match.over


def test_ismcts_in_team_play_with_swap_choices() -> None:
    game = pyspiel.load_game("python_trio", {"players": 4, "teams": True, "max_reveals": 40})
    bot = ISMCTSBot(game, tos.TrioEvaluator(), 2.0, 6, random_state=np.random.RandomState(0))
    state = game.new_initial_state()
    rng = random.Random(8)
    deal(state, rng)
    assert state.match.swap_phase
    swaps = 0
    while not state.is_terminal():
        if state.match.swap_phase:
            swaps += 1
        state.apply_action(bot.step(state))
    assert swaps >= 4


def test_trio_bots_in_openspiel() -> None:
    game = pyspiel.load_game("python_trio", {"players": 4, "teams": True})
    bots = [tos.TrioSpielBot("solver" if s % 2 else "memory", seed=s) for s in range(4)]
    state = game.new_initial_state()
    rng = random.Random(2)
    deal(state, rng)
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert state.match.game.winner is not None
    assert sorted(state.returns()) == [-1.0, -1.0, 1.0, 1.0]


@pytest.mark.parametrize("rules", [Rules(3), Rules(4, teams=True)])
def test_openspiel_bot_as_trio_bot(rules: Rules) -> None:
    game = tos.load(players=rules.players, teams=rules.teams)
    ism = tos.SpielBot(ISMCTSBot(game, tos.TrioEvaluator(), 2.0, 5, random_state=np.random.RandomState(0)),
                       game, seed=1, name="ismcts")
    bots = [ism] + [make_bot("memory", random.Random(s)) for s in range(1, rules.players)]
    result = play_game(rules, bots, rng=random.Random(4))
    assert result.over


def test_state_from_view_is_indistinguishable() -> None:
    game = pyspiel.load_game("python_trio", {"players": 4, "teams": True})
    rng = random.Random(11)
    state = game.new_initial_state()
    deal(state, rng)
    advance(state, rng, 35)
    assert not state.is_terminal()
    seat = state.current_player()
    view = state.match.view(seat)
    built = tos.state_from_view(game, view, swap=state.match.swap_phase, rng=random.Random(0))
    assert built.current_player() == seat
    assert built.legal_actions() == state.legal_actions()
    assert built.observation_string(seat) == state.observation_string(seat)
    assert built.match.view(seat).events == view.events
