"""Steps per second of the learning environments (prints a table).

Each row plays games of uniformly random legal actions (taken from the action mask or
``legal_actions``) for ``--seconds`` and counts steps (decisions):

* ``pettingzoo``: ``trio_v0.env`` (wrapped, as an agent sees it), one ``env.last()`` and
  one ``env.step()`` per step;
* ``pettingzoo+beliefs``: the same with ``beliefs=True`` (exact posterior every step);
* ``openspiel``: ``python_trio`` states, ``legal_actions()`` + ``apply_action()`` per step,
  plus ``observation_tensor()`` of the player to act;
* ``match``: the shared decision flow alone (no observation), for reference.

    .venv/bin/python benchmarks/env_speed.py --seconds 3
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np
import pyspiel

import trio_solver.doors.openspiel  # noqa: F401  (registers python_trio)
from trio_solver import Game, Rules
from trio_solver.doors.envs import trio_v0
from trio_solver.doors.envs.core import TrioMatch

SETTINGS = [(3, False), (4, False), (6, False), (4, True), (6, True)]


def timed(run_game: Callable[[int], int], seconds: float) -> tuple[float, int]:
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += run_game(games)
        games += 1
    return steps / (time.perf_counter() - start), games


def pettingzoo_game(players: int, teams: bool, beliefs: bool, max_reveals: int) -> Callable[[int], int]:
    env = trio_v0.env(players=players, teams=teams, beliefs=beliefs, max_reveals=max_reveals)

    def run(i: int) -> int:
        env.reset(seed=i)
        rng = random.Random(i)
        steps = 0
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
        return steps
    return run


def openspiel_game(players: int, teams: bool, max_reveals: int) -> Callable[[int], int]:
    game = pyspiel.load_game("python_trio", {"players": players, "teams": teams, "max_reveals": max_reveals})

    def run(i: int) -> int:
        rng = random.Random(i)
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            state.observation_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps
    return run


def match_game(players: int, teams: bool, max_reveals: int) -> Callable[[int], int]:
    rules = Rules(players, teams=teams)

    def run(i: int) -> int:
        rng = random.Random(i)
        m = TrioMatch(Game.deal(rules, rng=rng), max_reveals)
        steps = 0
        while not m.over:
            m.apply(rng.choice(m.legal_actions()))
            steps += 1
        return steps
    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="per row")
    ap.add_argument("--max-reveals", type=int, default=1000)
    a = ap.parse_args()
    print(f"random legal actions, {a.seconds:g} s per row, max_reveals {a.max_reveals}")
    print(f"{'setting':<12} {'match':>10} {'pettingzoo':>11} {'+beliefs':>10} {'openspiel':>10}   (steps/s)")
    for players, teams in SETTINGS:
        label = f"{players}p{' teams' if teams else ''}"
        row = [timed(match_game(players, teams, a.max_reveals), a.seconds)[0],
               timed(pettingzoo_game(players, teams, False, a.max_reveals), a.seconds)[0],
               timed(pettingzoo_game(players, teams, True, a.max_reveals), a.seconds)[0],
               timed(openspiel_game(players, teams, a.max_reveals), a.seconds)[0]]
        print(f"{label:<12} " + " ".join(f"{x:>10,.0f}" for x in row), flush=True)


if __name__ == "__main__":
    from _script import run_script  # beside this script

    run_script(main, __file__)
