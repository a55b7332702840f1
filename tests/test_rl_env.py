"""The PettingZoo environment trio_v0: PettingZoo's own API and seed tests, masks against the
engine, observations against what a seat may see, rewards, beliefs, and trio_solver bots and
policies in both directions."""

from __future__ import annotations

import random
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from trio_solver import Game, Reveal, Rules
from trio_solver.decide.bots import make_bot
from trio_solver.doors.envs import trio_v0
from trio_solver.doors.envs.agents import BotAgent, PolicyBot, match_action
from trio_solver.doors.envs.core import ActionCodec, Encoder, TrioMatch, sample_game
from trio_solver.errors import IllegalMoveError, RulesError, ViewError
from trio_solver.game.rules import VALUES
from trio_solver.run.simulate import play_game

SETTINGS = [Rules(3), Rules(4, "picante"), Rules(5), Rules(6, "picante"),
            Rules(4, teams=True), Rules(6, "picante", teams=True)]
PROPS = settings(derandomize=True, database=None, deadline=None, max_examples=25)


def drive(match: TrioMatch, rng: random.Random, steps: int, smart: float = 0.6) -> None:
    """Random legal decisions mixed with the memory bot's, so trios (and swap moments) happen."""
    bot = make_bot("memory", rng)
    for _ in range(steps):
        if match.over:
            return
        if rng.random() < smart:
            match.apply(match_action(bot, match))
        else:
            match.apply(rng.choice(match.legal_actions()))


def expected_reveal_ids(rules: Rules, game: Game) -> set[int]:
    """The legal reveal ids by the documented formula (independent of ActionCodec)."""
    k, n = rules.centre_size, rules.players
    out = set()
    for r in game.legal_reveals():
        out.add(r.index if r.kind == "centre" else k + r.index if r.kind == "lowest" else k + n + r.index)
    return out


# -- PettingZoo's own checks -------------------------------------------------------------------

@pytest.mark.parametrize("kwargs", [dict(players=3), dict(players=5, mode="picante", max_reveals=40),
                                    dict(players=4, teams=True), dict(players=6, teams=True, max_reveals=60)])
def test_pettingzoo_api_test(kwargs: dict[str, object]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns that a Dict observation is not a Box
        api_test(trio_v0.env(**kwargs), num_cycles=150)


@pytest.mark.parametrize("kwargs", [dict(players=3), dict(players=4, teams=True)])
def test_pettingzoo_seed_test(kwargs: dict[str, object]) -> None:
    seed_test(lambda: trio_v0.env(**kwargs), num_cycles=150)


def test_spaces_and_agents() -> None:
    for players, teams, n_actions in [(3, False, 15), (4, False, 16), (5, False, 16), (6, False, 18),
                                      (4, True, 21), (6, True, 25)]:
        env = trio_v0.raw_env(players=players, teams=teams, beliefs=True)
        assert env.possible_agents == [f"player_{s}" for s in range(players)]
        assert env.action_space("player_0").n == n_actions
        space = env.observation_space("player_1")
        assert space["action_mask"].shape == (n_actions,)
        assert space["observation"].shape == (env.encoder.size,)
        assert space["beliefs"].shape == (n_actions - (13 if teams else 0), 12)
        layout = env.encoder.layout()
        assert max(stop for _, stop, _ in layout.values()) == env.encoder.size


@pytest.mark.parametrize("agent", ["player_9", "bob", 0, None])
def test_an_unknown_agent_is_one_line_everywhere(agent: object) -> None:
    """Every method that takes an agent names the agents on a wrong one (``view`` raised a bare KeyError)."""
    env = trio_v0.raw_env(players=3)
    env.reset(seed=1)
    calls = [env.observe, env.view, env.action_space, env.observation_space]
    for call in calls:
        with pytest.raises(ViewError, match="^agent: expected one of player_0, player_1, player_2, got "):
            call(agent)  # type: ignore[operator]


# -- masks ---------------------------------------------------------------------------------------

@PROPS
@given(st.sampled_from(SETTINGS), st.integers(0, 10**6), st.integers(0, 80))
def test_mask_is_engine_legality(rules: Rules, seed: int, steps: int) -> None:
    env = trio_v0.raw_env(players=rules.players, mode=rules.mode.value, teams=rules.teams)
    env.reset(seed=seed)
    match = env.match
    assert match is not None
    drive(match, random.Random(seed), steps)
    assume(not match.over)
    env.agent_selection = f"player_{match.current}"
    game = match.game
    codec = ActionCodec(rules)
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        seat = env.agent_name_mapping[agent]
        if seat != match.current:
            assert not mask.any()
            continue
        legal = set(np.flatnonzero(mask).tolist())
        if match.swap_phase:
            r = codec.n_reveals
            assert legal == {r + v - 1 for v in set(game.hands[seat])} | {r + 12}
        else:
            assert legal == expected_reveal_ids(rules, game)
            for a in range(codec.n_reveals):  # every id the mask forbids, the engine refuses
                assert bool(mask[a]) == game.is_legal(codec.reveal_of(a))
        for a in range(codec.n_actions):
            if not mask[a]:
                with pytest.raises(IllegalMoveError):
                    match.apply(a)


def test_illegal_actions() -> None:
    env = trio_v0.raw_env(players=3)
    with pytest.raises(IllegalMoveError, match="reset"):
        env.observe("player_0")
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0]) if (mask == 0).any() else 99
    with pytest.raises(IllegalMoveError):
        env.step(99)
    for junk in ("c0", 1.5, True, None):
        with pytest.raises(IllegalMoveError):
            env.step(junk)
    with pytest.raises(IllegalMoveError):
        env.step(bad if bad != 99 else 100)
    # the wrapped env, like PettingZoo's classic games: -1 to the offender, the game ends
    wrapped = trio_v0.env(players=3)
    wrapped.reset(seed=1)
    offender = wrapped.agent_selection
    raw = wrapped.unwrapped
    turn = raw.match.game.turn
    assert turn == []
    # slot 0 twice in one turn is never legal
    wrapped.step(0)
    if wrapped.agent_selection == offender:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            wrapped.step(0)
        assert wrapped.rewards[offender] == -1
        assert all(wrapped.terminations.values())


_WRAPPED_MISUSE = """
import numpy as np
from trio_solver.doors.envs import trio_v0
from trio_solver.errors import IllegalMoveError
e = trio_v0.env(players=3)
assert not hasattr(e, "agents") and str(e) == "trio_v0"
calls = [lambda: e.step(0), lambda: e.last(), lambda: e.observe("player_0"), lambda: e.render(),
         lambda: e.agent_iter(), lambda: e.rewards]
e2 = trio_v0.env(players=3)
e2.reset(seed=1)
print(e2.agent_selection)
calls += [lambda a=a: e2.step(a) for a in (15, -1, "x", 1.5, True, None)]
def loop_without_step():
    it = iter(e2.agent_iter())
    next(it)
    next(it)
calls.append(loop_without_step)
for call in calls:
    try:
        call()
    except IllegalMoveError as err:
        print(str(err))
    else:
        print("no error")
e2.step(np.int64(0))  # a numpy integer is an action id
print(e2.unwrapped.match.reveals)
"""


@pytest.mark.parametrize("optimise", [False, True])
def test_wrapped_env_misuse_is_one_line_error(optimise: bool) -> None:
    # PettingZoo's own checks are asserts (gone under python -O) and AttributeErrors; the wrapped env
    # refuses with the library's error either way
    flags = ["-O"] if optimise else []
    out = subprocess.run([sys.executable, *flags, "-c", _WRAPPED_MISUSE], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    mover, *lines = out.stdout.splitlines()
    assert lines[:5] == ["call reset() before step()", "agent_selection: call reset() first",
                         "call reset() before observe()", "call reset() before render()",
                         "call reset() before agent_iter()"]
    assert lines[5] == "rewards: call reset() first"
    for line, shown in zip(lines[6:11], ["15", "-1", '"x"', "1.5", "true"]):
        assert line == f"action: expected an action id from 0 to 14 for {mover}, got {shown}"
    assert lines[11] == f"action: {mover} must act: None is only for agents whose game is over"
    assert lines[12] == "agent_iter(): call step() for each agent the loop gives"
    assert lines[13] == "1"


def test_bad_settings() -> None:
    with pytest.raises(RulesError):
        trio_v0.env(players=7)
    with pytest.raises(RulesError):
        trio_v0.env(players=5, teams=True)
    with pytest.raises(RulesError):
        trio_v0.env(players=3, mode="hot")
    with pytest.raises(RulesError):
        trio_v0.env(players=3, render_mode="human")
    with pytest.raises(RulesError):
        trio_v0.env(players=3, max_reveals=0)


# -- observations --------------------------------------------------------------------------------

@PROPS
@given(st.sampled_from(SETTINGS), st.integers(0, 10**6), st.integers(0, 80), st.data())
def test_observation_is_what_the_seat_may_see(rules: Rules, seed: int, steps: int, data: st.DataObject) -> None:
    """Right about the true state, and blind to everything the seat may not see."""
    match = TrioMatch(Game.deal(rules, seed=seed))
    drive(match, random.Random(seed), steps)
    assume(not match.over)
    game = match.game
    enc = Encoder(rules)
    seat = data.draw(st.integers(0, rules.players - 1))
    view = match.view(seat)
    obs = enc.encode(view, current=match.current, swap_phase=match.swap_phase)
    # everything it says is true
    hand = enc.piece(obs, "hand")
    for v in VALUES:
        assert hand[v - 1].sum() == game.hands[seat].count(v)
    assert (enc.piece(obs, "sizes").sum(axis=1) == [len(h) for h in game.hands]).all()
    low, high = enc.piece(obs, "known_low"), enc.piece(obs, "known_high")
    for s in range(rules.players):
        h = game.hands[s]
        for d, v in zip(*np.nonzero(low[s])):
            assert h[d] == v + 1
        for d, v in zip(*np.nonzero(high[s])):
            assert h[len(h) - 1 - d] == v + 1
    assert (low[seat].sum() == len(game.hands[seat]))
    for i, v in zip(*np.nonzero(enc.piece(obs, "centre_known"))):
        assert game.centre[i] == v + 1
    assert (enc.piece(obs, "centre_present") == [c is not None for c in game.centre]).all()
    for j, shown in enumerate(game.turn):
        assert enc.piece(obs, "turn")[j, shown.value - 1] == 1
    trios = enc.piece(obs, "trios")
    assert trios.sum() == sum(len(t) for t in view.trios)
    # nothing it says depends on a card the seat has not seen: another deal behind the same view
    other = sample_game(view, random.Random(seed + 1))
    other_view = other.view(seat)
    assert (enc.encode(other_view, current=match.current, swap_phase=match.swap_phase) == obs).all()


@PROPS
@given(st.sampled_from(SETTINGS[:5]), st.integers(0, 10**6), st.integers(0, 70))
def test_beliefs_entry(rules: Rules, seed: int, steps: int) -> None:
    match = TrioMatch(Game.deal(rules, seed=seed))
    drive(match, random.Random(seed), steps)
    assume(not match.over)
    enc = Encoder(rules)
    seat = match.game.to_move
    b = enc.beliefs(match.view(seat))
    game = match.game
    for a in range(enc.codec.n_reveals):
        r = enc.codec.reveal_of(a)
        if not game.is_legal(r):
            assert not b[a].any()
            continue
        assert abs(b[a].sum() - 1) < 1e-6
        true = game.peek(r)
        assert b[a, true - 1] > 0  # the truth is never ruled out
        if r.seat == seat:
            assert b[a, true - 1] == pytest.approx(1.0)


def test_env_beliefs_and_render() -> None:
    env = trio_v0.env(players=3, beliefs=True, render_mode="ansi")
    env.reset(seed=4)
    obs, *_ = env.last()
    assert obs["beliefs"].shape == (15, 12)
    assert env.observation_space(env.agent_selection).contains(obs)
    text = env.render()
    assert isinstance(text, str) and "seat 0" in text and "to choose a reveal" in text
    plain = trio_v0.env(players=3)
    plain.reset(seed=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert plain.render() is None


def test_seeded_resets_repeat() -> None:
    env = trio_v0.raw_env(players=4, teams=True)
    env.reset(seed=9)
    first = env.observe("player_0")["observation"].copy()
    hands = [list(h) for h in env.game.hands]
    env.reset(seed=10)
    env.reset(seed=9)
    assert (env.observe("player_0")["observation"] == first).all()
    assert [list(h) for h in env.game.hands] == hands


# -- rewards and bots -------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", [Rules(3), Rules(5, "picante"), Rules(4, teams=True), Rules(6, teams=True)])
def test_bots_play_to_the_end_with_zero_sum_rewards(rules: Rules) -> None:
    env = trio_v0.env(players=rules.players, mode=rules.mode.value, teams=rules.teams)
    env.reset(seed=2)
    agents = {a: BotAgent("memory", seed=i) for i, a in enumerate(env.possible_agents)}
    total: dict[str, float] = {}
    for a in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        total[a] = reward
        env.step(None if term or trunc else agents[a].act(env, a))
    winner = env.unwrapped.game.winner
    assert winner is not None
    side = rules.teams_of_seats[rules.team_of(winner)]
    for s in range(rules.players):
        assert total[f"player_{s}"] == (1.0 if s in side else -len(side) / (rules.players - len(side)))
    assert sum(total.values()) == pytest.approx(0.0)


def test_bot_agent_plays_like_the_bot_in_simulate() -> None:
    """A game of bots through the env is the same game as simulate.play_game with those bots."""
    rules = Rules(4, teams=True)
    ref = play_game(rules, [make_bot("solver" if s % 2 else "memory", random.Random(s)) for s in range(4)],
                    rng=random.Random(21))
    env = trio_v0.raw_env(players=4, teams=True)
    env.reset(seed=0)
    env.match = TrioMatch(Game.deal(rules, rng=random.Random(21)))
    env.agent_selection = f"player_{env.match.current}"
    agents = {f"player_{s}": BotAgent(make_bot("solver" if s % 2 else "memory", random.Random(s)))
              for s in range(4)}
    while not env.match.over:
        env.step(agents[env.agent_selection].act(env, env.agent_selection))
    assert env.match.game.winner == ref.winner
    assert [str(e) for e in env.match.game.events] == [str(e) for e in ref.events]


def test_policy_bot_in_simulate_sees_the_env_observation() -> None:
    rules = Rules(3)
    seen: list[tuple[np.ndarray, np.ndarray]] = []

    def first_legal(obs: dict[str, np.ndarray], agent: str) -> int:
        seen.append((obs["observation"].copy(), obs["action_mask"].copy()))
        return int(np.flatnonzero(obs["action_mask"])[0])

    bots = [PolicyBot(first_legal, rules), make_bot("memory", random.Random(1)), make_bot("memory", random.Random(2))]
    game = play_game(rules, bots, rng=random.Random(3), first_player=0)
    assert game.over and seen
    # the first observation is the one the env gives seat 0 at the same deal
    env = trio_v0.raw_env(players=3)
    env.reset(seed=0)
    env.match = TrioMatch(Game.deal(rules, rng=random.Random(3), first_player=0))
    obs = env.observe("player_0")
    assert (obs["observation"] == seen[0][0]).all() and (obs["action_mask"] == seen[0][1]).all()


def test_policy_bot_refuses_a_masked_action() -> None:
    rules = Rules(3)
    bot = PolicyBot(lambda obs, agent: int(np.flatnonzero(obs["action_mask"] == 0)[0]), rules)
    game = Game.deal(rules, seed=1)
    game.reveal(Reveal.centre(0))
    with pytest.raises(IllegalMoveError, match="mask forbids"):
        bot.choose_reveal(game.view(game.to_move))


def test_truncation_is_a_draw() -> None:
    env = trio_v0.env(players=3, max_reveals=5)
    env.reset(seed=3)
    rng = random.Random(0)
    ends = {}
    for a in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            ends[a] = (reward, term, trunc)
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    if env.unwrapped.game.winner is None:
        assert ends == {a: (0.0, False, True) for a in env.possible_agents}
    assert env.unwrapped.match.reveals <= 5


@PROPS
@given(st.sampled_from(SETTINGS), st.integers(0, 10**6), st.integers(0, 150), st.data())
def test_incremental_memory_agrees_with_replayed_memory(rules: Rules, seed: int, steps: int,
                                                        data: st.DataObject) -> None:
    """The fast observation (MatchMemory, updated per action) equals the slow one (Memory.of replays the view)."""
    match = TrioMatch(Game.deal(rules, seed=seed))
    drive(match, random.Random(seed), steps, smart=data.draw(st.sampled_from([0.0, 0.6, 0.9])))
    enc = Encoder(rules)
    for seat in range(rules.players):
        view = match.view(seat)
        fast = enc.encode(view, current=match.current, swap_phase=match.swap_phase, memory=match.memory)
        slow = enc.encode(view, current=match.current, swap_phase=match.swap_phase)
        assert (fast == slow).all()


def test_example_script_runs() -> None:
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, str(root / "examples" / "rl_agents.py"), "2"], cwd=root,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "PettingZoo: greedy-beliefs policy" in done.stdout and "95% interval" in done.stdout
    assert "OpenSpiel: ISMCTSBot" in done.stdout
