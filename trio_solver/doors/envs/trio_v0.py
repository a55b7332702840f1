"""Trio as a PettingZoo AEC environment, following the conventions of PettingZoo's classic games.

>>> from trio_solver.doors.envs import trio_v0
>>> env = trio_v0.env(players=4, mode="simple", teams=False)
>>> env.reset(seed=42)
>>> for agent in env.agent_iter():
...     obs, reward, termination, truncation, info = env.last()
...     action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
...     env.step(action)
>>> env.close()

=====================  =============================================================
Agents                 ``player_0`` ... ``player_{n-1}`` (seat ``s`` is ``player_s``)
Action space           ``Discrete(R)``; ``Discrete(R + 13)`` in team play (ids: :mod:`trio_solver.doors.envs.core`)
Observation space      ``Dict(observation=Box(0, 1, (N,), int8), action_mask=Box(0, 1, (A,), int8)
                       [, beliefs=Box(0, 1, (R, 12), float32)])``
Rewards                +1 to each seat of the winning side, ``-w/l`` to the others (``-1/(n-1)``
                       without teams); 0 to all on a draw
=====================  =============================================================

**Actions.** One id for every reveal that can ever be legal for the player count: each
centre slot, the lowest and the highest card of each seat; in team play 13 more: offer a
card of value 1..12 for a swap, or do not swap. ``action_mask`` is 1 exactly for the
actions the rules engine allows the agent to take now (all zeros for agents not to
act). The decision order is :class:`trio_solver.doors.envs.core.TrioMatch`'s: at a team swap
moment each partner of each open team chooses in turn (secretly); otherwise the seat
to move chooses one reveal at a time, so a turn is one to three steps of one agent.

**Observation.** ``observation`` is the flat 0/1 vector of
:class:`trio_solver.doors.envs.core.Encoder` (own hand, hand sizes, every card shown that
is still in play and where it is now, the centre slots known, the turn so far, the
trios taken, whose decision it is); ``env.unwrapped.encoder.layout()`` names its
slices. With ``beliefs=True`` an entry ``beliefs`` adds the exact posterior of the value
each reveal action would show now (:class:`trio_solver.Beliefs`; costs a few ms a step).

**End.** ``terminations`` when a side wins; ``truncations`` for every agent when
``max_reveals`` reveals pass without a winner (a draw). ``env()`` wraps ``raw_env`` as
the classic games do: an illegal action ends the game with -1 for the agent that took it
and 0 for the others; ``raw_env`` itself raises :class:`trio_solver.errors.IllegalMoveError`.
Misuse of either (a call before ``reset``, an action outside the action space) is an
:class:`~trio_solver.errors.IllegalMoveError` of one line, also under ``python -O``.

``render_mode="ansi"``: :meth:`raw_env.render` returns the whole table as text (every
hand shown: it is for people watching, not for the agents).
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env import AECIterable, AECIterator
from pettingzoo.utils import wrappers

from ... import _args
from ..._args import show
from ...game.state import Game
from ...errors import IllegalMoveError, RulesError, ViewError
from ...report.render import frame, render_frame
from ...game.rules import Rules
from ...game.view import PlayerView
from .core import DEFAULT_MAX_REVEALS, Encoder, TrioMatch

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> AECEnv:
    """``raw_env(**kwargs)`` wrapped as PettingZoo's classic games are (illegal action: -1 and the game ends).

    The outer wrapper is PettingZoo's order check with the library's errors: a call before
    :meth:`~raw_env.reset`, or an action outside the action space, raises an
    :class:`~trio_solver.errors.IllegalMoveError` (one line; also under ``python -O``, which drops
    PettingZoo's own ``assert`` checks)."""
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    return _Checked(e)


class _NotReset(IllegalMoveError, AttributeError):
    """An attribute read before :meth:`raw_env.reset`: an :class:`IllegalMoveError` that ``hasattr`` takes
    for a missing attribute, as PettingZoo's order check does."""


_BEFORE_RESET = frozenset({"rewards", "terminations", "truncations", "infos", "agent_selection",
                           "num_agents", "agents"})


class _Checked(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """:class:`pettingzoo.utils.wrappers.OrderEnforcingWrapper` whose refusals are the library's one-line
    errors, with the action checked against the action space (PettingZoo's ``AssertOutOfBoundsWrapper``)."""

    def __str__(self) -> str:
        return str(self.env)  # named as the env it wraps, as PettingZoo's own order check is

    def _ready(self, what: str) -> None:
        if not self._has_reset:
            raise IllegalMoveError(f"call reset() before {what}")

    def __getattr__(self, name: str) -> Any:
        if name in _BEFORE_RESET and not self.__dict__.get("_has_reset", False):
            raise _NotReset(f"{name}: call reset() first")
        return super().__getattr__(name)

    def step(self, action: Any) -> None:
        self._ready("step()")
        agent = self.agent_selection
        if self.agents:
            over = self.terminations[agent] or self.truncations[agent]
            if over and action is not None:
                raise IllegalMoveError(f"action: {agent}'s game is over, so its action must be None, "
                                       f"got {show(action)}")
            if not over and action is None:
                raise IllegalMoveError(f"action: {agent} must act: None is only for agents whose game is over")
            if not over and (isinstance(action, bool) or not self.action_space(agent).contains(action)):
                n = self.action_space(agent).n
                raise IllegalMoveError(f"action: expected an action id from 0 to {n - 1} for {agent}, "
                                       f"got {show(action)}")
        super().step(action)

    def observe(self, agent: Any) -> Any:
        self._ready("observe()")
        return super().observe(agent)

    def state(self) -> Any:
        self._ready("state()")
        return super().state()

    def render(self) -> Any:
        self._ready("render()")
        return super().render()

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        self._ready("agent_iter()")
        return _CheckedIterable(self, max_iter)


class _CheckedIterable(AECIterable):  # type: ignore[misc]
    def __iter__(self) -> _CheckedIterator:
        return _CheckedIterator(self.env, self.max_iter)


class _CheckedIterator(AECIterator):  # type: ignore[misc]
    """PettingZoo's loop over ``agent_iter`` that asks for a step between two agents, with a one-line error."""

    def __next__(self) -> str:
        agent: str = super().__next__()
        if not self.env._has_updated:
            raise IllegalMoveError("agent_iter(): call step() for each agent the loop gives")
        self.env._has_updated = False
        return agent


class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801  (PettingZoo's naming)
    """The Trio AEC environment (see the module doc)."""

    metadata = {"render_modes": ["ansi"], "name": "trio_v0", "is_parallelizable": False}

    def __init__(self, players: int = 4, mode: str = "simple", teams: bool = False, *,
                 beliefs: bool = False, max_reveals: int = DEFAULT_MAX_REVEALS,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.rules = Rules(players, mode, teams)  # Rules checks and converts
        if render_mode is not None and render_mode != "ansi":
            raise RulesError(f'render_mode: only "ansi" is supported, got {show(render_mode)}')
        if not isinstance(max_reveals, int) or isinstance(max_reveals, bool) or max_reveals < 1:
            raise RulesError(f"max_reveals: expected a positive integer, got {show(max_reveals)}")
        self.render_mode = render_mode
        self.with_beliefs = bool(beliefs)
        self.max_reveals = max_reveals
        self.encoder = Encoder(self.rules)
        self.codec = self.encoder.codec
        self.possible_agents = [f"player_{s}" for s in range(self.rules.players)]
        self.agents = self.possible_agents[:]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        n_actions = self.codec.n_actions
        obs: dict[str, spaces.Space[Any]] = {
            "observation": spaces.Box(0, 1, (self.encoder.size,), dtype=np.int8),
            "action_mask": spaces.Box(0, 1, (n_actions,), dtype=np.int8),
        }
        if self.with_beliefs:
            obs["beliefs"] = spaces.Box(0.0, 1.0, (self.codec.n_reveals, 12), dtype=np.float32)
        self.observation_spaces = {a: spaces.Dict(dict(obs)) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self._rng = random.Random()
        self.match: TrioMatch | None = None
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    # -- spaces --------------------------------------------------------------------------
    def _agent(self, agent: Any) -> str:
        if not isinstance(agent, str) or agent not in self.agent_name_mapping:
            raise ViewError(f"agent: expected one of {', '.join(self.possible_agents)}, got {show(agent)}")
        return str(agent)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[self._agent(agent)]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[self._agent(agent)]

    # -- the game ---------------------------------------------------------------------------
    def _require(self) -> TrioMatch:
        if self.match is None:
            raise IllegalMoveError("call reset() before using the environment")
        return self.match

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: from ``seed`` if one is given (an integer of 64 bits with its sign, as everywhere in
        the library), else from the env's generator."""
        if seed is not None:
            self._rng = _args.seeded("seed", seed, ViewError)
        self.match = TrioMatch(Game.deal(self.rules, rng=self._rng), self.max_reveals)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._agent_of(self.match.current)

    def _agent_of(self, seat: int | None) -> str:
        return self.possible_agents[0 if seat is None else seat]

    @property
    def game(self) -> Game:
        """The true state of the game in progress (for tools and tests; agents get observations)."""
        return self._require().game

    def view(self, agent: str) -> PlayerView:
        """What ``agent`` may see now, as a :class:`~trio_solver.game.view.PlayerView` (for trio_solver bots)."""
        return self._require().view(self.agent_name_mapping[self._agent(agent)])

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        match = self._require()
        seat = self.agent_name_mapping[self._agent(agent)]
        view = match.view(seat)
        out = {
            "observation": self.encoder.encode(view, current=match.current, swap_phase=match.swap_phase,
                                               memory=match.memory),
            "action_mask": match.mask() if match.current == seat else np.zeros(self.codec.n_actions, np.int8),
        }
        if self.with_beliefs:
            out["beliefs"] = self.encoder.beliefs(view)
        return out

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match = self._require()
        if action is None:
            raise IllegalMoveError(f"{agent} must act: None is only for agents whose game is over")
        self._cumulative_rewards[agent] = 0.0
        match.apply(action)
        if match.over:
            returns = match.returns()
            for a in self.agents:
                self.rewards[a] = returns[self.agent_name_mapping[a]]
            if match.truncated:
                self.truncations = {a: True for a in self.agents}
            else:
                self.terminations = {a: True for a in self.agents}
            self._accumulate_rewards()
            seat = (self.agent_name_mapping[agent] + 1) % self.rules.players
            self.agent_selection = self._agent_of(seat)
        else:
            self._clear_rewards()
            self.agent_selection = self._agent_of(match.current)

    def render(self) -> str | None:
        """The whole table as text (``render_mode="ansi"``); ``None`` with a warning otherwise."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        match = self._require()
        g = match.game
        head = f"trio_v0: {self.rules.players} players, {self.rules.mode.value}" + (", teams" if self.rules.teams else "")
        if match.over:
            status = "draw (max_reveals)" if match.truncated else f"winner: player_{g.winner}"
        else:
            what = "swap choice" if match.swap_phase else "reveal"
            status = f"{self._agent_of(match.current)} to choose a {what}; {match.reveals} reveals so far"
        return head + "\n" + render_frame(frame(g, "all")) + "\n  " + status

    def close(self) -> None:
        pass
