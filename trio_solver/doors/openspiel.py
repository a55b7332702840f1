"""Trio as an OpenSpiel game: ``import trio_solver.doors.openspiel`` registers ``python_trio``.

>>> import pyspiel
>>> import trio_solver.doors.openspiel
>>> game = pyspiel.load_game("python_trio", {"players": 3, "mode": "picante"})
>>> state = game.new_initial_state()          # a chance node: the deal

Parameters: ``players`` (3..6, default 3), ``mode`` (``"simple"`` or ``"picante"``),
``teams`` (``False``; team play needs 4 or 6 players), ``max_reveals`` (1000: a game
with no winner after that many reveals ends as a draw).

**Chance.** The deal is 36 chance nodes, one card at a time from the cards not yet
dealt: seat 0's hand, then seat 1's, ..., then the centre slots in order. A chance
outcome is a card value minus one (0..11) with probability (copies left)/(cards left),
so ``chance_outcomes`` is small and exact. A last chance node draws the first player
uniformly (outcome = seat).

**Decisions** are those of :class:`trio_solver.doors.envs.core.TrioMatch` with its action ids
(one reveal per decision; in team play each partner's secret swap choice is a decision
of its own). Returns: +1 to the winning side's seats, ``-w/l`` to the others, 0 on a
draw (zero-sum).

**Observations.** ``observation_tensor`` is the 0/1 vector of
:class:`trio_solver.doors.envs.core.Encoder` (own hand, every card shown that is still in play
and where, centre slots known, the turn so far, trios, whose decision it is);
``observation_string`` says the same in words. ``information_state_string`` is the
whole history the player saw (own hand as dealt, every public event with the values
shown, own team's swap cards, own pending swap choice), so it identifies the
information state; ``information_state_tensor`` is the observation tensor followed by
the own hand as dealt (a fixed-size summary, not the whole history).

**Resampling.** ``resample_from_infostate`` draws the hidden cards exactly from the
posterior of :class:`trio_solver.Beliefs` (a uniform shuffle conditioned on everything
the player saw) and replays the history on them, so OpenSpiel's ``ISMCTSBot`` can play.
Another team's swap cards are drawn from the same posterior; a partner's choice at a
swap moment still in progress is drawn uniformly from their hand.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from typing import Any

import numpy as np
import pyspiel

from .. import _args
from .._args import show
from ..infer.beliefs import Beliefs
from ..infer.sampling import initial_deal
from ..decide.bots import Bot, make_bot
from ..game.state import Deal, Game
from .envs.agents import match_action
from .envs.core import DEFAULT_MAX_REVEALS, Encoder, TrioMatch, sample_game, utility_bounds
from ..errors import IllegalMoveError, RulesError, ViewError
from ..game.record import Record
from ..game.reveal import Reveal
from ..game.rules import COPIES, VALUES, Rules
from ..game.events import Swap, Turn
from ..game.view import PlayerView
from ..report.render import frame, render_frame

__all__ = ["GAME_TYPE", "TrioGame", "TrioState", "TrioObserver", "TrioEvaluator", "TrioSpielBot", "SpielBot",
           "state_from_view", "load"]

SHORT_NAME = "python_trio"

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Trio",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 3, "mode": "simple", "teams": False,
                             "max_reveals": DEFAULT_MAX_REVEALS},
)

#: The largest integer an OpenSpiel game parameter holds (a C++ ``int``).
_MAX_INT_PARAMETER = 2**31 - 1

#: Beliefs kept per game object for resampling (keyed by information state).
_BELIEF_CACHE = 64


def _rules_of(params: dict[str, Any]) -> tuple[Rules, int]:
    rules = Rules(int(params.get("players", 3)), str(params.get("mode", "simple")),
                  bool(params.get("teams", False)))
    max_reveals = int(params.get("max_reveals", DEFAULT_MAX_REVEALS))
    if max_reveals < 1:
        raise RulesError(f"max_reveals: expected a positive integer, got {max_reveals}")
    return rules, max_reveals


class TrioGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game ``python_trio`` (see the module doc)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        rules, max_reveals = _rules_of(dict(params or {}))
        encoder = Encoder(rules)
        lo, hi = utility_bounds(rules)
        # swap choices: at most one moment at the start and one after each of the 12 trios
        swap_decisions = 13 * rules.players if rules.teams else 0
        info = pyspiel.GameInfo(
            num_distinct_actions=encoder.codec.n_actions,
            max_chance_outcomes=max(12, rules.players),
            num_players=rules.players,
            min_utility=lo,
            max_utility=hi,
            utility_sum=0.0,
            max_game_length=max_reveals + swap_decisions,
        )
        super().__init__(GAME_TYPE, info, params or {})
        self.rules = rules
        self.max_reveals = max_reveals
        self.encoder = encoder
        self.codec = encoder.codec
        self._beliefs: OrderedDict[tuple[int, str], Beliefs] = OrderedDict()

    def new_initial_state(self) -> TrioState:
        return TrioState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> TrioObserver:
        return TrioObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)

    def beliefs_for(self, player: int, key: str, view: PlayerView) -> Beliefs:
        """The beliefs of ``player`` at the information state ``key`` (cached)."""
        k = (player, key)
        b = self._beliefs.get(k)
        if b is None:
            b = Beliefs(view)
            self._beliefs[k] = b
            if len(self._beliefs) > _BELIEF_CACHE:
                self._beliefs.popitem(last=False)
        else:
            self._beliefs.move_to_end(k)
        return b


class TrioState(pyspiel.State):  # type: ignore[misc]
    """A state of ``python_trio``: the deal so far, then a :class:`TrioMatch`."""

    def __init__(self, game: TrioGame) -> None:
        super().__init__(game)
        self.dealt: list[int] = []
        self.match: TrioMatch | None = None

    def _game(self) -> TrioGame:
        game: TrioGame = self.get_game()
        return game

    # -- the OpenSpiel API ---------------------------------------------------------------
    def current_player(self) -> int:
        m = self.match
        if m is None:
            return int(pyspiel.PlayerId.CHANCE)
        if m.over:
            return int(pyspiel.PlayerId.TERMINAL)
        cur = m.current
        assert cur is not None
        return cur

    def _legal_actions(self, player: int) -> list[int]:
        if self.match is None or player != self.match.current:
            return []
        return self.match.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.match is not None:
            return []
        if len(self.dealt) < 36:
            left = 36 - len(self.dealt)
            return [(v - 1, (COPIES - self.dealt.count(v)) / left) for v in VALUES
                    if self.dealt.count(v) < COPIES]
        n = self._game().rules.players
        return [(s, 1.0 / n) for s in range(n)]

    def _apply_action(self, action: int) -> None:
        if self.match is None:
            outcomes = dict(self.chance_outcomes())
            if action not in outcomes:
                raise IllegalMoveError(f"chance outcome {action} is not possible now")
            if len(self.dealt) < 36:
                self.dealt.append(action + 1)
                return
            rules = self._game().rules
            h = rules.hand_size
            hands = [self.dealt[s * h:(s + 1) * h] for s in range(rules.players)]
            centre = self.dealt[rules.players * h:]
            self.match = TrioMatch(Game.from_deal(rules, hands, centre, action), self._game().max_reveals)
            return
        self.match.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.match is None and len(self.dealt) >= 36:
                return f"first player {action}"
            return f"deal {action + 1}"
        return self._game().codec.name(action)

    def is_terminal(self) -> bool:
        return self.match is not None and self.match.over

    def returns(self) -> list[float]:
        if self.match is None:
            return [0.0] * self._game().rules.players
        return self.match.returns()

    def __str__(self) -> str:
        if self.match is None:
            return f"dealing: {len(self.dealt)} of 36 cards dealt"
        return render_frame(frame(self.match.game, "all"))

    # -- pieces for observers ---------------------------------------------------------------
    def own_dealt(self, player: int) -> list[int]:
        """The cards dealt to ``player`` so far."""
        h = self._game().rules.hand_size
        return self.dealt[player * h:(player + 1) * h]

    def view(self, player: int) -> PlayerView:
        """What ``player`` may see now (after the deal)."""
        if self.match is None:
            raise ViewError("the cards are still being dealt")
        return self.match.view(player)

    def info_string(self, player: int) -> str:
        """The information state of ``player`` in words (see the module doc)."""
        rules = self._game().rules
        head = f"p{player} {rules.players}p {rules.mode.value}{' teams' if rules.teams else ''}"
        if self.match is None:
            return f"{head} dealt [{' '.join(map(str, sorted(self.own_dealt(player))))}] dealing {len(self.dealt)}"
        m = self.match
        view = m.view(player)
        parts = [head, f"dealt [{' '.join(map(str, view.initial_hand or ()))}]", f"first {view.first_player}"]
        for e in view.events:
            if isinstance(e, Turn):
                parts.append(f"s{e.seat}:" + ",".join(str(r) for r in e.reveals))
            else:
                assert isinstance(e, Swap)
                cards = "?" if e.cards is None else f"{e.cards[0]}/{e.cards[1]}"
                parts.append(f"swap{e.seats[0]}{e.seats[1]}:{cards}")
        chose, offer = m.pending_offer(player)
        if chose:
            parts.append(f"offered {'none' if offer is None else offer}")
        parts.append(self._status())
        return " ".join(parts)

    def _status(self) -> str:
        m = self.match
        assert m is not None
        if m.over:
            return "draw" if m.truncated else f"won by {m.game.winner}"
        return f"{'swap' if m.swap_phase else 'reveal'} by {m.current}"

    def obs_string(self, player: int) -> str:
        """What ``player`` sees now, without the history (the observation tensor in words)."""
        rules = self._game().rules
        if self.match is None:
            return f"p{player} dealt [{' '.join(map(str, sorted(self.own_dealt(player))))}]"
        view = self.match.view(player)
        mem = self.match.memory
        hand = list(view.hand or ())
        parts = [f"p{player}", self._status(), f"hand [{' '.join(map(str, hand))}]"]
        for s in range(rules.players):
            lows = hand if s == player else mem.low[s]
            highs = hand[::-1] if s == player else mem.high[s]
            low = "".join("?" if v is None else f"{v}." for v in lows).rstrip("?") or "-"
            high = "".join("?" if v is None else f"{v}." for v in highs).rstrip("?") or "-"
            parts.append(f"s{s}:{view.sizes[s]} low {low} high {high} trios {list(view.trios[s])}")
        if rules.centre_size:
            cells = []
            for i, here in enumerate(view.centre_present):
                seen = mem.slots.get(i)
                cells.append("-" if not here else "?" if seen is None else str(seen))
            parts.append("centre " + " ".join(cells))
        if view.turn:
            parts.append("turn " + " ".join(str(r) for r in view.turn))
        return " | ".join(parts)

    # -- resampling -----------------------------------------------------------------------------
    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TrioState:
        """A state drawn from the posterior over states ``player_id`` cannot tell from this one."""
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        g = self._game()
        new = g.new_initial_state()
        if self.match is None:
            h = g.rules.hand_size
            own = set(range(player_id * h, (player_id + 1) * h))
            rest = [v for v in VALUES for _ in range(COPIES)]
            for i in own:
                if i < len(self.dealt):
                    rest.remove(self.dealt[i])
            rng.shuffle(rest)
            for i in range(len(self.dealt)):
                new.apply_action((self.dealt[i] if i in own else rest.pop()) - 1)
            return new
        m = self.match
        view = m.view(player_id)
        beliefs = g.beliefs_for(player_id, self.info_string(player_id), view)
        tries = 1 if not beliefs.approximate else 200
        for _ in range(tries):
            # relaxed swaps (long team games) may draw a deal that does not fit: draw again
            try:
                deal, swap_cards = initial_deal(beliefs.facts, beliefs.sample(rng), rng)
                new = self._replay(player_id, deal, swap_cards, rng)
            except (ViewError, IllegalMoveError):
                continue
            if not beliefs.approximate or new.info_string(player_id) == self.info_string(player_id):
                return new
        raise ViewError("could not draw a deal that fits this history (too many secret swaps)")

    def _replay(self, player_id: int, deal: Deal, swap_cards: dict[int, tuple[int, int]],
                rng: random.Random) -> TrioState:
        """This state's decisions replayed on ``deal``, with the choices ``player_id`` did not see redrawn."""
        m = self.match
        assert m is not None
        g = self._game()
        new = g.new_initial_state()
        for hand in deal.hands:
            for v in hand:
                new.apply_action(v - 1)
        for v in deal.centre:
            new.apply_action(v - 1)
        new.apply_action(m.game.view(None).first_player)
        rules = g.rules
        codec = g.codec
        pending = sum(1 for s in range(rules.players) if m.pending_offer(s)[0])
        first_pending = len(m.decisions) - pending
        for i, d in enumerate(m.decisions):
            action = d.action
            if codec.is_swap(action) and d.seat != player_id:
                if i >= first_pending:
                    assert new.match is not None
                    action = codec.swap_id(rng.choice(new.match.game.hands[d.seat]))
                elif d.swapped_event is None:
                    action = codec.swap_id(None)
                elif rules.team_of(d.seat) != rules.team_of(player_id):
                    ga, gb = swap_cards[d.swapped_event]  # the first seat of the swap gave ga
                    e = m.game.events[d.swapped_event]
                    assert isinstance(e, Swap)
                    action = codec.swap_id(ga if e.seats[0] == d.seat else gb)
            new.apply_action(action)
        return new


class TrioObserver:
    """Observation (``perfect_recall=False``) or information state (``True``) of ``python_trio``."""

    def __init__(self, game: TrioGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise RulesError(f"python_trio observers take no parameters, got {show(params)}")
        self.game = game
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        enc = game.encoder
        size = enc.size + (36 if self.perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        for name, (start, stop, shape) in enc.layout().items():
            self.dict[name] = self.tensor[start:stop].reshape(shape)
        if self.perfect_recall:
            self.dict["dealt_hand"] = self.tensor[enc.size:].reshape(12, 3)
        self._buf = enc.empty()

    def set_from(self, state: TrioState, player: int) -> None:
        enc = self.game.encoder
        buf = self._buf
        buf[:] = 0
        m = state.match
        if m is None:
            enc.encode_hand(buf, player, state.own_dealt(player))
        else:
            enc.encode(m.view(player), current=m.current, swap_phase=m.swap_phase, memory=m.memory, out=buf)
        self.tensor[: enc.size] = buf
        if self.perfect_recall:
            dealt = state.own_dealt(player)
            d = self.dict["dealt_hand"]
            d[:] = 0
            for v in VALUES:
                d[v - 1, : dealt.count(v)] = 1

    def string_from(self, state: TrioState, player: int) -> str:
        return state.info_string(player) if self.perfect_recall else state.obs_string(player)


class TrioEvaluator:
    """An ISMCTS/MCTS evaluator for ``python_trio`` that needs no rollout.

    A terminal state is worth its returns. Otherwise each seat's value is its side's
    progress toward the goal (the share of the trios it still needs that it already holds),
    minus the mean progress of all seats, scaled into [-1, 1]. Priors are uniform.
    Random rollouts are a poor fit for Trio: a game of random reveals lasts thousands of
    reveals.
    """

    def evaluate(self, state: TrioState) -> np.ndarray:
        if state.is_terminal():
            return np.asarray(state.returns(), dtype=np.float64)
        m = state.match
        game: TrioGame = state.get_game()
        n = game.rules.players
        if m is None:
            return np.zeros(n)
        rules = game.rules
        full = 3 if rules.mode.value == "simple" else 2
        view = m.game.view(None)
        prog = np.array([1.0 - rules.goal_distance(view.team_trios(s)) / full for s in range(n)])
        value: np.ndarray = (prog - prog.mean()) * 0.9
        return value

    def prior(self, state: TrioState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


class TrioSpielBot(pyspiel.Bot):  # type: ignore[misc]
    """A trio_solver bot (or bot name) as an OpenSpiel bot of ``python_trio``.

    It sees only its :class:`~trio_solver.game.view.PlayerView` of the state it is given.
    """

    def __init__(self, bot: Bot | str, seed: int | None = 0) -> None:
        pyspiel.Bot.__init__(self)
        rng = random.Random() if seed is None else _args.seeded("seed", seed, ViewError)
        self.bot: Bot = make_bot(bot, rng) if isinstance(bot, str) else _args.bot("bot", bot, ViewError)

    def step(self, state: TrioState) -> int:
        m = state.match
        if m is None or m.current is None:
            raise IllegalMoveError("a bot acts only at a player's decision")
        return match_action(self.bot, m)

    def restart_at(self, state: TrioState) -> None:
        pass

    def inform_action(self, state: TrioState, player_id: int, action: int) -> None:
        pass


def state_from_view(game: TrioGame, view: PlayerView, *, swap: bool, rng: random.Random) -> TrioState:
    """A ``python_trio`` state at the decision of ``view.seat`` that the seat cannot tell from the real one.

    The hidden cards (and other teams' swap cards) are drawn from the exact posterior of
    the view; decisions the view does not show (a partner's pending swap choice) are drawn
    uniformly. ``swap``: the decision is a swap choice, else a reveal.
    """
    seat = view.seat
    if seat is None:
        raise ViewError("a state for a bot needs the view of a seat")
    rules = game.rules
    if view.rules != rules:
        raise ViewError("the view's rules are not the game's")
    target = sample_game(view, rng)
    record = Record.from_game(target)
    assert record.deal is not None
    state = game.new_initial_state()
    for hand in record.deal.hands:
        for v in hand:
            state.apply_action(v - 1)
    for v in record.deal.centre:
        state.apply_action(v - 1)
    state.apply_action(record.first_player)
    m = state.match
    assert m is not None
    codec = game.codec
    steps: list[Any] = []
    for e in target.events:
        if isinstance(e, Turn):
            steps.extend(r.reveal for r in e.reveals)
        else:
            steps.append(e)
    steps.extend(r.reveal for r in target.turn)
    i = 0
    while True:
        cur = m.current
        if cur is None:
            raise ViewError("the view's game is over")
        done = i >= len(steps)
        if m.swap_phase:
            moment: list[Swap] = []
            j = i
            while j < len(steps) and isinstance(steps[j], Swap):
                moment.append(steps[j])
                j += 1
            if done and swap and cur == seat:
                return state
            mine = [e for e in moment if cur in e.seats]
            if mine:
                e = mine[0]
                assert e.cards is not None
                action = codec.swap_id(e.cards[0] if e.seats[0] == cur else e.cards[1])
            elif done:
                action = codec.swap_id(rng.choice(m.game.hands[cur]))  # a pending choice we did not see
            else:
                action = codec.swap_id(None)
            state.apply_action(action)
            if not m.swap_phase:  # the moment closed: its swaps are done
                i = j
            continue
        if done:
            if swap or cur != seat:
                raise ViewError("the view is not at a decision of its seat")
            return state
        step = steps[i]
        if isinstance(step, Swap):
            raise ViewError("a swap outside a swap moment")
        state.apply_action(codec.reveal_id(step))
        i += 1


class SpielBot:
    """An OpenSpiel bot of ``python_trio`` (for example ``ISMCTSBot``) as a trio_solver bot.

    At each decision it is given a state drawn by :func:`state_from_view`: one the seat
    cannot tell from the real one, so a bot that uses only the information state (as
    ``ISMCTSBot`` does, by resampling) plays exactly as it would in OpenSpiel.
    """

    def __init__(self, spiel_bot: Any, game: TrioGame, *, seed: int | None = 0, name: str = "openspiel") -> None:
        if not callable(getattr(spiel_bot, "step", None)):
            raise ViewError(f"spiel_bot: expected an OpenSpiel bot (with step), got {_args.show(spiel_bot)}")
        _args.instance("game", game, TrioGame, ViewError)
        self.spiel_bot = spiel_bot
        self.game = game
        self.rng = random.Random() if seed is None else _args.seeded("seed", seed, ViewError)
        self.name = _args.check_text("name", name, ViewError, "a name")

    def _act(self, view: PlayerView, swap: bool) -> int:
        state = state_from_view(self.game, view, swap=swap, rng=self.rng)
        action = int(self.spiel_bot.step(state))
        if action not in state.legal_actions():
            raise IllegalMoveError(f"OpenSpiel bot {self.name!r} chose an illegal action {action}")
        return action

    def choose_reveal(self, view: PlayerView) -> Reveal:
        return self.game.codec.reveal_of(self._act(view, False))

    def choose_swap(self, view: PlayerView) -> int | None:
        return self.game.codec.swap_of(self._act(view, True))


def load(players: int = 3, mode: str = "simple", teams: bool = False,
         max_reveals: int = DEFAULT_MAX_REVEALS) -> TrioGame:
    """``pyspiel.load_game("python_trio", {...})`` with checked parameters: a :class:`RulesError` of one line
    for a value of the wrong type or out of range (``pyspiel.load_game`` itself refuses a wrong type with an
    OpenSpiel error)."""
    rules = Rules(players, mode, teams)  # checks the types of the three, as the PettingZoo env does
    _args.int_in("max_reveals", max_reveals, 1, _MAX_INT_PARAMETER, RulesError, "a number of reveals")
    game: TrioGame = pyspiel.load_game(SHORT_NAME, {"players": rules.players, "mode": rules.mode.value,
                                                    "teams": rules.teams, "max_reveals": max_reveals})
    return game


pyspiel.register_game(GAME_TYPE, TrioGame)
