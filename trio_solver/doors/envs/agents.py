"""trio_solver bots as agents of the learning environments, and their agents as trio_solver bots.

* :class:`BotAgent` — any :class:`trio_solver.decide.bots.Bot` (or a bot name) acting in the
  PettingZoo environment (``agent.act(env, agent_name)``) or, through
  :func:`bot_action`, in any :class:`~trio_solver.doors.envs.core.TrioMatch`; the OpenSpiel
  side is :class:`trio_solver.doors.openspiel.TrioSpielBot`.
* :class:`PolicyBot` — a PettingZoo policy (a function of one agent's observation
  dict) as a trio_solver bot, so :func:`trio_solver.run.simulate.play_game` can seat it.
  It builds exactly the observation the environment would give (same encoder, same
  mask), from the bot's :class:`~trio_solver.game.view.PlayerView` alone.
* The OpenSpiel direction (an OpenSpiel bot such as ``ISMCTSBot`` as a trio_solver bot)
  is :class:`trio_solver.doors.openspiel.SpielBot`.

This module needs neither PettingZoo nor OpenSpiel.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable
from typing import Any

import numpy as np

from ...decide.bots import Bot, make_bot
from ... import _args
from ...errors import IllegalMoveError, ViewError
from ...game.reveal import Reveal
from ...game.rules import Rules
from ...game.view import PlayerView
from .core import ActionCodec, Encoder, TrioMatch

__all__ = ["BotAgent", "PolicyBot", "bot_action", "view_mask", "Policy"]

#: A PettingZoo-style policy: (observation dict of one agent, agent name) -> action id.
Policy = Callable[[dict[str, np.ndarray], str], int]


def bot_action(bot: Bot, codec: ActionCodec, view: PlayerView, swap_phase: bool) -> int:
    """The action id of ``bot``'s decision for the seat of ``view`` (a swap choice if ``swap_phase``)."""
    if swap_phase:
        value = bot.choose_swap(view)
        if value is not None and value not in (view.hand or ()):
            raise IllegalMoveError(f"bot {bot.name!r} offered a {value} it does not hold")
        return codec.swap_id(value)
    reveal = bot.choose_reveal(view)
    if not isinstance(reveal, Reveal):
        raise IllegalMoveError(f"bot {bot.name!r} chose {reveal!r}, which is not a reveal")
    return codec.reveal_id(reveal)


def match_action(bot: Bot, match: TrioMatch) -> int:
    """``bot``'s action for the seat to decide in ``match``."""
    seat = match.current
    if seat is None:
        raise IllegalMoveError("the game is over")
    return bot_action(bot, match.codec, match.view(seat), match.swap_phase)


class BotAgent:
    """A trio_solver bot acting in the PettingZoo environment.

    >>> from trio_solver.doors.envs import trio_v0
    >>> env = trio_v0.env(players=3); env.reset(seed=1)
    >>> agents = {a: BotAgent("memory", seed=i) for i, a in enumerate(env.possible_agents)}
    >>> for a in env.agent_iter():
    ...     obs, r, term, trunc, info = env.last()
    ...     env.step(None if term or trunc else agents[a].act(env, a))
    """

    def __init__(self, bot: Bot | str, seed: int | None = 0) -> None:
        rng = random.Random() if seed is None else _args.seeded("seed", seed, ViewError)
        self.bot: Bot = make_bot(bot, rng) if isinstance(bot, str) else _args.bot("bot", bot, ViewError)

    def act(self, env: Any, agent: str) -> int:
        """The action of ``agent`` (which must be the agent to act) in the (wrapped) trio_v0 ``env``."""
        raw: Any = getattr(env, "unwrapped", None)
        match: TrioMatch | None = getattr(raw, "match", None)
        if not isinstance(match, TrioMatch):
            raise ViewError(f"env: expected a trio_v0 environment that was reset, got {_args.show(env)}")
        if match.current is None:
            raise IllegalMoveError("the game is over or not started")
        if raw.agent_name_mapping[raw._agent(agent)] != match.current:  # the env's own check of the name
            raise IllegalMoveError(f"{agent} is not the agent to act")
        return match_action(self.bot, match)


def view_mask(codec: ActionCodec, view: PlayerView, swap_phase: bool) -> np.ndarray:
    """The action mask the environment gives the seat of ``view`` when it is to decide."""
    mask = np.zeros(codec.n_actions, dtype=np.int8)
    if swap_phase:
        for v in set(view.hand or ()):
            mask[codec.swap_id(v)] = 1
        mask[codec.swap_id(None)] = 1
    else:
        for r in view.legal_reveals():
            mask[codec.reveal_id(r)] = 1
    return mask


class PolicyBot:
    """A PettingZoo-style policy playing as a trio_solver bot (in ``simulate.play_game`` and tournaments).

    ``policy(obs, agent)`` receives the observation dict trio_v0 would give (``observation``,
    ``action_mask`` and, with ``beliefs=True``, ``beliefs``) and returns an action id.
    """

    def __init__(self, policy: Policy, rules: Rules, *, beliefs: bool = False, name: str = "policy") -> None:
        if not callable(policy):
            raise ViewError(f"policy: expected a function of (observation, agent), got {_args.show(policy)}")
        _args.instance("rules", rules, Rules, ViewError)
        self.rules = rules
        self.policy = policy
        self.encoder = Encoder(rules)
        self.codec = self.encoder.codec
        self.with_beliefs = _args.boolean("beliefs", beliefs, ViewError)
        self.name = _args.check_text("name", name, ViewError, "a name")

    def observation(self, view: PlayerView, swap_phase: bool) -> dict[str, np.ndarray]:
        """The observation dict of the seat of ``view``, as the environment builds it."""
        assert view.seat is not None
        current = view.seat if swap_phase else view.to_move
        obs = {
            "observation": self.encoder.encode(view, current=current, swap_phase=swap_phase),
            "action_mask": view_mask(self.codec, view, swap_phase),
        }
        if self.with_beliefs:
            obs["beliefs"] = self.encoder.beliefs(view)
        return obs

    def _act(self, view: PlayerView, swap_phase: bool) -> int:
        if view.rules != self.rules:
            raise ViewError(f"policy {self.name!r} was made for {self.rules}, not for {view.rules}")
        obs = self.observation(view, swap_phase)
        chosen = self.policy(obs, f"player_{view.seat}")
        try:  # an int, or anything that is one (a numpy integer, a 0-d array or tensor of one); not a bool
            if isinstance(chosen, (bool, np.bool_)):
                raise TypeError
            action = operator.index(chosen)
        except TypeError:
            raise IllegalMoveError(f"policy {self.name!r} chose {_args.show(chosen)}, not an action id") from None
        if not 0 <= action < self.codec.n_actions or not obs["action_mask"][action]:
            raise IllegalMoveError(f"policy {self.name!r} chose action {action}, which the mask forbids")
        return action

    def choose_reveal(self, view: PlayerView) -> Reveal:
        return self.codec.reveal_of(self._act(view, False))

    def choose_swap(self, view: PlayerView) -> int | None:
        return self.codec.swap_of(self._act(view, True))
