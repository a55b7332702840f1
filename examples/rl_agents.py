"""Evaluate a small policy in the learning environments (needs ``pip install 'trio-solver[rl]'``).

The policy reads only its observation: the action mask, the ``turn`` piece of the
observation vector, and the exact ``beliefs`` entry. It reveals the place likeliest to
show the value already face up (or, on a first reveal, the place it is surest about) and
never swaps. It plays

1. in the PettingZoo environment against trio_solver's ``memory`` bots (``BotAgent``),
2. as a trio_solver bot (``PolicyBot``) in ``simulate.play_game``, with a 95% interval,
3. and OpenSpiel's ISMCTSBot plays one game of ``python_trio`` against the same bots.

    .venv/bin/python examples/rl_agents.py 20
"""

from __future__ import annotations

import random
import sys

import numpy as np
import pyspiel
from open_spiel.python.algorithms.ismcts import ISMCTSBot

import trio_solver.doors.openspiel as tos
from trio_solver import Rules
from trio_solver.decide.bots import make_bot
from trio_solver.doors.envs import trio_v0
from trio_solver.doors.envs.agents import BotAgent, PolicyBot
from trio_solver.doors.envs.core import Encoder
from trio_solver.run.simulate import play_game, wilson

RULES = Rules(3, "simple")
ENCODER = Encoder(RULES)
R = ENCODER.codec.n_reveals


def greedy(obs: dict[str, np.ndarray], agent: str) -> int:
    """The legal reveal likeliest to match the turn (or surest, to start one); never swaps."""
    legal = np.flatnonzero(obs["action_mask"])
    if legal.max() >= R:  # a swap choice (team play only)
        return int(legal[-1])
    beliefs = obs["beliefs"]
    face_up = ENCODER.piece(obs["observation"], "turn")[0, :12]
    if face_up.any():
        v = int(np.argmax(face_up))
        score = beliefs[legal, v]
    else:
        score = beliefs[legal].max(axis=1)
    return int(legal[int(np.argmax(score))])


def pettingzoo_games(games: int) -> int:
    env = trio_v0.env(players=3, beliefs=True)
    wins = 0
    for g in range(games):
        env.reset(seed=g)
        bots = {f"player_{s}": BotAgent("memory", seed=100 * g + s) for s in (1, 2)}
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                if agent == "player_0" and reward > 0:
                    wins += 1
                env.step(None)
                continue
            env.step(greedy(obs, agent) if agent == "player_0" else bots[agent].act(env, agent))
    return wins


def simulate_games(games: int) -> int:
    wins = 0
    for g in range(games):
        bots = [PolicyBot(greedy, RULES, beliefs=True, name="greedy"),
                make_bot("memory", random.Random(2 * g)), make_bot("memory", random.Random(2 * g + 1))]
        game = play_game(RULES, bots, rng=random.Random(g), first_player=g % 3)
        wins += game.winner == 0
    return wins


def ismcts_game(budget: int) -> list[float]:
    game = tos.load(players=3)
    bots = [ISMCTSBot(game, tos.TrioEvaluator(), 2.0, budget, random_state=np.random.RandomState(0)),
            tos.TrioSpielBot("memory", seed=1), tos.TrioSpielBot("memory", seed=2)]
    state = game.new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return list(state.returns())


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    w = pettingzoo_games(games)
    print(f"PettingZoo: greedy-beliefs policy (player_0) vs 2 memory bots: {w}/{games} wins")
    w = simulate_games(games)
    lo, hi = wilson(w, games)
    print(f"simulate: greedy-beliefs PolicyBot vs 2 memory bots: {w}/{games} wins, "
          f"95% interval [{lo:.1%}, {hi:.1%}] (fair share 33.3%)")
    print(f"OpenSpiel: ISMCTSBot (10 simulations) vs 2 memory bots, returns {ismcts_game(10)}")


if __name__ == "__main__":
    main()
