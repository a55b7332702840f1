"""Bad arguments to the Python doors that take a user's own objects (bots, policies, streams, seeds):
one line of the library's own class, never an AttributeError or IndexError from deep inside, and seeds
that never deal another seed's games."""

from __future__ import annotations

import io
import random
from typing import Any

import numpy as np
import pytest

from trio_solver import Beliefs, Game, Record, Reveal, Rules
from trio_solver.decide.bots import make_bot
from trio_solver.doors import openspiel
from trio_solver.doors.envs import trio_v0
from trio_solver.doors.envs.agents import BotAgent, PolicyBot
from trio_solver import limits
from trio_solver.errors import IllegalMoveError, LimitError, RecordError, RunError, TrioError, ViewError
from trio_solver.run.simulate import game_seed, play_game, run_tournament

NOT_SEEDS = [True, 1.5, "x", b"x", None, 2**63, -(2**63) - 1]


@pytest.mark.parametrize("seed", [s for s in NOT_SEEDS if s is not None])
def test_a_seed_is_an_integer_of_64_bits(seed: Any) -> None:
    with pytest.raises(ViewError, match=r"^seed: expected an integer -9223372036854775808 to 9223372036854775807, got "):
        Game.deal(Rules(3), seed=seed)
    env = trio_v0.raw_env(players=3)
    with pytest.raises(ViewError, match=r"^seed: expected an integer"):
        env.reset(seed=seed)
    with pytest.raises(ViewError, match=r"^seed: expected an integer"):
        BotAgent("memory", seed=seed)
    with pytest.raises(ViewError, match=r"^seed: expected an integer"):
        openspiel.TrioSpielBot("memory", seed=seed)


def test_a_negative_seed_deals_games_of_its_own() -> None:
    """``random.Random`` takes -s as s: seeds 1 and -1 would deal the same game."""
    assert Game.deal(Rules(4), seed=1).dealt != Game.deal(Rules(4), seed=-1).dealt
    assert Game.deal(Rules(4), seed=-1).dealt == Game.deal(Rules(4), seed=-1).dealt
    deals = {repr(Game.deal(Rules(3), rng=random.Random(game_seed(s, i))).dealt) for s in (1, -1, 2, -2)
             for i in range(5)}
    assert len(deals) == 20


def test_game_seeds_never_repeat_another_seeds_games() -> None:
    """Seed s's game i + 1,000,003 was seed s + 1's game i: every (seed, game, stream) now has a seed of its
    own, and the games of the first 1,000,003 of each seed (every measured run) are the ones they were."""
    assert game_seed(3, 5, 2) == (3 * 1_000_003 + 5) * 101 + 2
    assert all(isinstance(game_seed(s, i), int) for s in (-1, 2) for i in (0, 2_000_000))  # seeds numpy too
    for s in (0, 7):
        for i in (0, 12):
            assert game_seed(s, i + 1_000_003) != game_seed(s + 1, i)
            assert game_seed(-s - 1, i) != game_seed(s + 1, i)
    seeds = {game_seed(s, i, k) for s in (-2, -1, 0, 1) for i in (0, 1, 1_000_002, 1_000_003, 2_000_006)
             for k in range(3)}
    assert len(seeds) == 4 * 5 * 3


class _NoName:
    def choose_reveal(self, view: Any) -> Any:
        return None

    def choose_swap(self, view: Any) -> Any:
        return None


def test_play_game_takes_only_bots() -> None:
    bots: list[Any] = [make_bot("random", random.Random(s)) for s in range(3)]
    with pytest.raises(ViewError, match=r"^bots\[1\]: expected a bot \(an object with a name, choose_reveal"):
        play_game(Rules(3), [bots[0], _NoName(), bots[2]], rng=random.Random(0))
    with pytest.raises(ViewError, match=r"^bots: expected a list of bots"):
        play_game(Rules(3), "random", rng=random.Random(0))  # type: ignore[arg-type]


@pytest.mark.parametrize("kwargs,error,needle", [
    ({"progress": 3}, RunError, "progress: expected true, false or a text stream, got 3"),
    ({"on_game": 3}, RunError, "on_game: expected a function or None, got 3"),
    ({"on_note": "x"}, RunError, 'on_note: expected a function or None, got "x"'),
    ({"keep_records": "yes"}, RunError, 'keep_records: expected true or false, got "yes"'),
    ({"budget": "x"}, ViewError, 'budget must be a number of playouts from 1 to 200000, got "x"'),
    ({"budget": 0}, ViewError, "budget must be a number of playouts from 1 to 200000, got 0"),
    ({"max_retries": "x"}, RunError, 'max_retries: expected an integer 0 to 1000, got "x"'),
])
def test_run_tournament_checks_its_arguments(kwargs: dict[str, Any], error: type[TrioError], needle: str) -> None:
    with pytest.raises(error) as e:
        run_tournament(Rules(3), ["random"] * 3, 2, 1, **kwargs)
    assert str(e.value) == needle


def test_run_tournament_takes_a_stream_for_progress() -> None:
    out = io.StringIO()
    assert run_tournament(Rules(3), ["random"] * 3, 2, 1, progress=out, workers=1).games == 2


def test_the_learning_doors_check_what_they_are_given() -> None:
    with pytest.raises(ViewError, match=r"^bot: expected a bot"):
        BotAgent(None)  # type: ignore[arg-type]
    with pytest.raises(ViewError, match=r"^bot: expected a bot"):
        openspiel.TrioSpielBot(None)  # type: ignore[arg-type]
    with pytest.raises(ViewError, match=r"^policy: expected a function"):
        PolicyBot(None, Rules(3))  # type: ignore[arg-type]
    with pytest.raises(ViewError, match=r"^rules: expected Rules, got NoneType"):
        PolicyBot(lambda obs, agent: 0, None)  # type: ignore[arg-type]
    game = openspiel.load(players=3)
    with pytest.raises(ViewError, match=r"^spiel_bot: expected an OpenSpiel bot"):
        openspiel.SpielBot(None, game)
    with pytest.raises(ViewError, match=r"^game: expected TrioGame, got NoneType"):
        openspiel.SpielBot(openspiel.TrioSpielBot("memory"), None)  # type: ignore[arg-type]

    # a policy made for 4 players, seated at a table of 3; a policy that answers with a reveal's name
    rules = Rules(3)
    four = PolicyBot(lambda obs, agent: 0, Rules(4))
    with pytest.raises(ViewError, match=r"^policy 'policy' was made for"):
        play_game(rules, [four] + [make_bot("random", random.Random(s)) for s in (1, 2)], rng=random.Random(0),
                  first_player=0)
    named = PolicyBot(lambda obs, agent: "c0", rules)
    with pytest.raises(IllegalMoveError, match=r"^policy 'policy' chose \"c0\", not an action id"):
        play_game(rules, [named] + [make_bot("random", random.Random(s)) for s in (1, 2)], rng=random.Random(0),
                  first_player=0)

    # an action id as a numpy integer or a 0-d array (a model's argmax) is an action id
    start = Game.deal(rules, seed=0)
    for wrap in (np.int64, np.array):
        first = PolicyBot(lambda obs, agent: wrap(int(np.flatnonzero(obs["action_mask"])[0])), rules)
        assert start.is_legal(first.choose_reveal(start.view(start.to_move)))
    with pytest.raises(IllegalMoveError, match=r"^policy 'policy' chose true, not an action id"):
        play_game(rules, [PolicyBot(lambda obs, agent: True, rules)] + [make_bot("random", random.Random(s))
                                                                         for s in (1, 2)],
                  rng=random.Random(0), first_player=0)

    env = trio_v0.raw_env(players=3)
    env.reset(seed=1)
    agent = BotAgent("memory", seed=1)
    with pytest.raises(ViewError, match=r"^agent: expected one of player_0, player_1, player_2, got \"nobody\""):
        agent.act(env, "nobody")
    with pytest.raises(ViewError, match=r"^env: expected a trio_v0 environment that was reset, got null"):
        agent.act(None, "player_0")
    for ask in (env.observe, env.action_space, env.observation_space):
        with pytest.raises(ViewError, match=r"^agent: expected one of player_0"):
            ask(["nobody"])  # type: ignore[arg-type]


def test_an_empty_file_name_is_named() -> None:
    with pytest.raises(RecordError, match=r"^path: an empty file name$"):
        Record.load("")


def test_a_centre_slot_not_at_the_table_is_named() -> None:
    beliefs = Beliefs(Game.deal(Rules(3), seed=1).view(0))
    assert beliefs.end(Reveal.centre(8)) and beliefs.end(Reveal.centre(0)) == beliefs.centre()[0]
    with pytest.raises(ViewError, match=r"^reveal: c99: no centre slot 99 at this table$"):
        beliefs.end(Reveal.centre(99))
    teams = Beliefs(Game.deal(Rules(4, teams=True), seed=1).view(0))  # team play has no centre
    with pytest.raises(ViewError, match=r"^reveal: c0: no centre slot 0 at this table$"):
        teams.end(Reveal.centre(0))


def test_a_tournament_stopped_by_a_time_limit_says_so() -> None:
    with pytest.raises(LimitError, match=r"^the tournament: stopped at the time limit of 0.5 s$"):
        with limits.time_limit(0.5):
            run_tournament(Rules(3), ["expert"] * 3, 4, 1, workers=1)
