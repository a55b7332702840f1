"""Reading the opponents by their whole policy: posterior deals weighted by how likely each makes
the first reveals the other players chose.

The posterior of :mod:`trio_solver.infer.beliefs` counts every deal that fits what was shown,
and reads one kind of choice exactly (a passed-over end card of the turn's value, the
``read`` weight). A player's *first* reveal of a turn says more: someone holding two 9s
at an end rarely opens on the centre. Following policy-based inference (Rebstock et al.
2019, "Policy Based Inference in Trick-Taking Card Games"), a deal drawn from the
posterior is weighted by the likelihood of every first reveal the watched players made,
under a model of their play:

* **the model** is the rollout model's turn start (:func:`trio_solver.kernel.start_scores`,
  the ``scoring`` policy: the ``solver`` bot's turn score on counted chances), seen from the
  player who chose, with what it knew then (its own hand and what the table remembered);
* **the choice** is a softmax over the model's candidates (one per value among the cards the
  player knew, each unknown end, the unseen centre as one): the chance of candidate ``k`` is
  ``exp(score_k / T) / sum_j exp(score_j / T)``. A card the player knew counts as its value's
  candidate; an unseen centre card as the centre's;
* **the temperature** ``T`` is chosen for each player from :data:`TEMPERATURES` by the evidence of
  its own first reveals so far (the mean likelihood over the posterior deals), and a player whose
  reveals a uniform choice among the candidates explains better is not read at all. The first of the
  grid, :data:`DEFAULT_TEMPERATURE` = 0.1, is the maximum-likelihood fit on the first reveals of
  ``solver`` bots with the whole deal known (``benchmarks/fit_temperature.py``; 0.1 at 3 players
  simple and Picante and at 4 players); ``memory`` bots fit 0.5.

The weight is a product over the turns of the game, so it cannot be folded into the lattice
(whose weights factor by value); it is applied to sampled deals instead (importance weights,
:class:`PolicyReading`): the past of each deal is rebuilt from its current hands (the cards
that left in trios are public, so the deal at the start follows) and replayed in the compiled
kernel, scoring every watched turn start on the way. The ``expert`` uses the weights twice: its
turn figures (``p_trio``, ``p_win``, the goal) become the exact ones plus the weighted minus the
plain mean of each turn's outcome on the same deals (:meth:`PolicyReading.reweigh`), and its races
play deals resampled by weight (:meth:`PolicyReading.resample`).

**The exact reading** (``exact``, the ``expert``'s at a turn start) reads the opponents that play close
to ``solver`` (read at a temperature below :data:`EXACT_BELOW`) by the ``solver`` bot's own choice,
not the model's: on each deal, the last turn start of each such opponent is replayed in the engine and
:func:`~trio_solver.decide.scoring.solver_scores` is asked what it would have opened with from that
opponent's view then; a deal on which it would have opened otherwise weighs :data:`EXACT_MISS` for
that opponent, on top of the softmax. Each check is an exact advice from that view (about 10 ms), so
it is made on a pool of :data:`EXACT_POOL` deals, an opponent's hand seen twice is checked once, and the
``expert`` reads this way at tables of at most :data:`EXACT_MAX_PLAYERS` players.

**The memory rule** (``memory``, the ``expert``'s at a turn start too) offers every opponent a second model:
the ``memory`` bot's own opening rule (:func:`~trio_solver.decide.memory.memory_openings`: the start of a
trio in sight, else its own end cards of the most promise, each of its choices as likely). On each deal
the deal's past is replayed and every turn start of the opponent checked against the rule (no advice is
asked: a check costs a replay step, so the ``expert`` offers it on :data:`MEMORY_POOL` deals): a first
reveal that ``hits`` of the rule's ``k`` choices are the same move as has the likelihood ``hits / k``, one
the rule does not make :data:`EXACT_MISS`. An opponent is read by the rule when its evidence on the
deals (the mean likelihood over them) beats that of the softmax at the opponent's temperature (with the
exact reading's term when it is read exactly too), and then by the rule alone: a model chosen per
opponent by how well it explains that opponent's own play. ``memory`` bots are taken; ``solver`` bots
sometimes are, when their few first reveals so far are the rule's too (docs/MEASUREMENTS.md).

Only games without teams are read this way: in team play the secret swaps change the hands
between turns in ways the current deal does not tell, and every deal keeps the weight 1. The
analysis and the advice keep the public posterior (they judge the play against what anyone
could know); the ``expert`` bot plays on the read one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from .. import _args, kernel, limits
from ..errors import ViewError
from ..game.events import Swap, Turn
from ..game.reveal import Reveal
from ..game.state import Game
from ..game.view import PlayerView
from ..kernel import MAXP, run_log_likelihoods, run_turn_values
from .evaluate import MAX_SAMPLES, Posterior, deal_chunks, plan_array
from .memory import Remembering, memory_openings, public_memory
from .rollout import rules_array, to_action
from .scoring import solver_choice, solver_scores
from .search import Evaluation, goal_weights

__all__ = ["DEFAULT_TEMPERATURE", "TEMPERATURES", "EXACT_BELOW", "EXACT_MAX_PLAYERS", "EXACT_MISS", "EXACT_POOL",
           "MEMORY_POOL", "EXACT", "MEMORY",
           "PolicyReading", "readable", "history_arrays", "sharp_seats"]

#: The temperature of the softmax over the model's turn-start scores that fits the first reveals of
#: ``solver`` bots best (``benchmarks/fit_temperature.py``).
DEFAULT_TEMPERATURE = 0.1
#: The temperatures a player may be read at (:class:`PolicyReading` chooses one per player, or none).
TEMPERATURES = (DEFAULT_TEMPERATURE, 0.2, 0.5)
#: A seat read at a temperature below this plays close to ``solver`` (whose reveals fit 0.1, those of
#: ``memory`` bots 0.5): the exact reading (:class:`PolicyReading`'s ``exact``) may read it by the
#: ``solver`` bot's own choice.
EXACT_BELOW = 0.5
#: The weight of a deal for each seat read exactly whose last first reveal is not the one the
#: ``solver`` bot would have made from that seat's view on the deal.
EXACT_MISS = 0.01
#: The largest table the ``expert`` reads exactly: at 5 and 6 players an exact advice from an opponent's
#: view costs several times more and there are more opponents, and its decisions then took 3 to 9 s at
#: the 95th percentile, beyond the 2 s target (docs/MEASUREMENTS.md).
EXACT_MAX_PLAYERS = 4
#: The two rules :meth:`PolicyReading.rule_log_terms` checks first reveals against: the ``solver`` bot's
#: choice at a seat's last turn start (the exact reading) and the ``memory`` bot's at every one.
EXACT, MEMORY = 0, 1
#: The deals the ``expert`` offers the memory rule on at a turn start (a check is a replay step, about 1 ms a
#: deal): the pool of the turn figures and of the race's resampling when the rule takes an opponent and no
#: other opponent is read exactly.
MEMORY_POOL = 256
#: The deals the exact reading checks at a turn start (each check is an exact advice from the
#: opponent's view, about 10 ms), the pool of the turn figures and of the race's resampling.
EXACT_POOL = 32


# -- Python: what the history says, and the weights --------------------------------------------------

#: A read chance that was not certain stays at least this far from 0 and 1 (:meth:`PolicyReading.reweigh`).
UNCERTAIN = 1e-3


def _read_chance(exact: float, shift: float) -> float:
    """An exact chance moved by the reading: certain figures stay, others stay uncertain."""
    if exact <= 0.0 or exact >= 1.0:
        return exact
    return min(max(exact + shift, UNCERTAIN), 1.0 - UNCERTAIN)

def _evidence(log_likelihoods: np.ndarray) -> np.ndarray:
    """The log of the mean likelihood over deals (the evidence for a model; along the first axis, deal
    ``k`` at row ``k``), from log-likelihoods."""
    top = log_likelihoods.max(axis=0)
    return top + np.log(np.exp(log_likelihoods - top).mean(axis=0))  # type: ignore[no-any-return]


def _same_move(view: PlayerView, a: Reveal, b: Reveal) -> bool:
    """Whether reveals ``a`` and ``b`` are one move at ``view``: the same card of a hand (the lowest and the
    highest of a one-card hand are), or two centre cards no one has seen (no deal can tell them apart)."""
    if a == b:
        return True
    if a.is_centre or b.is_centre:
        memory = public_memory(view)
        return memory.alike(view, a) == memory.alike(view, b)
    return a.index == b.index and view.position(a) == view.position(b)


def sharp_seats(temperatures: Sequence[float | None]) -> list[int]:
    """The seats read at a temperature below :data:`EXACT_BELOW` (``temperatures`` by seat, as
    :meth:`PolicyReading.temperatures` gives them): those the exact reading may read by ``solver``'s
    own choice."""
    return [s for s, t in enumerate(temperatures) if t is not None and t < EXACT_BELOW]


def readable(view: PlayerView) -> bool:
    """Whether ``view``'s game can be read by policy: no teams (hence no secret swaps)."""
    return not view.rules.teams and not any(isinstance(e, Swap) for e in view.events)


def history_arrays(view: PlayerView) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the public history of ``view`` says for the rebuilding of a deal's past: every reveal as a
    kernel action, the cards each seat lost in trios (``[seat, value]`` copies) and the card each
    centre slot lost to a trio (-1: none)."""
    history: list[int] = []
    removed = np.zeros((MAXP, 13), np.int64)
    centre_removed = np.full(kernel.CMAX, -1, np.int64)
    for e in view.events:
        if not isinstance(e, Turn):
            continue
        history.extend(kernel.encode(*to_action(r.reveal)) for r in e.reveals)
        if e.took_trio:
            for r in e.reveals:
                if r.reveal.is_centre:
                    centre_removed[r.reveal.index] = r.value
                else:
                    removed[r.reveal.index, r.value] += 1
    return np.array(history, dtype=np.int64), removed, centre_removed


class PolicyReading:
    """The policy weights of the posterior deals of ``post`` (:class:`~trio_solver.decide.evaluate.Posterior`,
    deal ``j`` of a seed as everywhere): the likelihood of the first reveals of every seat but the
    viewer (every seat for a spectator) under the softmax of the model's scores.

    With a ``temperature`` every watched seat is read at it. Without one (``None``, the default) each
    seat is read at the temperature of :data:`TEMPERATURES` under which its own first reveals are the
    most likely on the deals weighed (the largest mean likelihood over them: the evidence for that
    temperature), or not read at all when a uniform choice among the model's candidates explains them
    better: a player who does not play like the model tells little through it, and a reading that
    trusted the model would mislead.

    ``exact``: a list of watched seats also read by the ``solver`` bot's own choice at their last turn
    start (the exact reading, :meth:`rule_log_terms`; :class:`~trio_solver.errors.ViewError` for the
    viewer's seat, an empty seat or anything but a list or tuple of seat numbers). The seats' softmax
    terms stay, each at the temperature chosen on the deals weighed.

    ``memory``: a list of watched seats (the same errors) offered the ``memory`` bot's opening rule as
    their model: a seat whose first reveals that rule explains better on the deals weighed than its
    softmax (at its temperature, or the uniform choice when that won; with the exact reading's term
    when the seat is in ``exact`` too) is read by the rule on every turn start of its own instead
    (:meth:`memory_seats`). With ``gated=False`` every seat of ``memory`` is read by the rule (the seats
    were chosen already: the ``expert`` chooses them on a larger pool than its exact reading's)."""

    def __init__(self, post: Posterior, temperature: float | None = None, *, exact: Sequence[int] = (),
                 memory: Sequence[int] = (), gated: bool = True) -> None:
        if not isinstance(post, Posterior):
            raise ViewError(f"post: expected a Posterior, got {type(post).__name__}")
        if temperature is not None:
            temperature = _args.number_in("temperature", temperature, 0.001, 1000, ViewError)
        view = post.view
        if not readable(view):
            raise ViewError("the policy reading needs a game without teams")
        self.post = post
        self.temperature = temperature
        self.history, self.removed, self.centre_removed = history_arrays(view)
        self.watch = np.array([s != view.seat and s < view.rules.players for s in range(MAXP)], dtype=np.bool_)
        self.exact = self._watched_seats("exact", exact)
        self.memory = self._watched_seats("memory", memory)
        if not isinstance(gated, bool):
            raise ViewError(f"gated: expected true or false, got {_args.show(gated)}")
        self.gated = gated
        self._past = [e for e in view.events if isinstance(e, Turn)]
        last = {t.seat: i for i, t in enumerate(self._past)}
        self._exact_at = {last[s] for s in self.exact if s in last}  # the turns of each exact seat's last start
        self._memory_at = {i for i, t in enumerate(self._past) if t.seat in self.memory}
        # (turn, the mover's hand, EXACT or MEMORY): the log-term of the turn's first reveal
        self._checks: dict[tuple[int, tuple[int, ...], int], float] = {}
        self._rules_table: tuple[tuple[int, range, bytes], np.ndarray] | None = None
        self._remember: dict[int, Remembering] = {}  # by turn: every deal's past has the same public history
        self._table: tuple[tuple[int, range, bytes], np.ndarray] | None = None
        self.rules = rules_array(view.rules, "scoring")
        #: the temperatures of the table's columns (:meth:`seat_log_likelihoods`), the uniform choice's after them
        self._grid: list[float] = [temperature] if temperature is not None else list(TEMPERATURES)
        self._last: tuple[tuple[int, range, bytes], np.ndarray] | None = None
        self._inv = np.array([1.0 / t for t in self._grid] + ([] if temperature is not None else [0.0]))

    def _watched_seats(self, name: str, seats: object) -> tuple[int, ...]:
        """``seats`` checked to be a list or tuple of watched seat numbers (else :class:`ViewError` naming the
        argument ``name``), sorted without repeats."""
        if not isinstance(seats, (list, tuple)) or not all(type(s) is int and 0 <= s < MAXP and self.watch[s]
                                                            for s in seats):
            raise ViewError(f"{name}: expected a list of watched seats, got {_args.show(seats)}")
        return tuple(sorted(set(seats)))

    def _key(self, seed: int, deals: range) -> tuple[int, range, bytes]:
        """What a cached table or weight stands for: the seed, the positions, and the deals behind them
        (:meth:`Posterior.follow` maps positions to other deals)."""
        deal_map = self.post.deal_map
        return seed, deals, b"" if deal_map is None else deal_map.tobytes()

    def _positions(self, deals: object) -> range:
        if not isinstance(deals, range) or deals.step != 1 or deals.start < 0:
            raise ViewError(f"deals: expected a range of deal numbers from 0 up, got {_args.show(deals)}")
        return deals

    def seat_log_likelihoods(self, seed: int, deals: range) -> np.ndarray:
        """``[k, seat, t]``: the log-likelihood of ``seat``'s first reveals on posterior deal ``deals[k]`` (the
        posterior's position, :meth:`Posterior.follow` included) at temperature ``t`` of the reading's grid
        (its ``temperature``, or :data:`TEMPERATURES` then a uniform choice)."""
        deals = self._positions(deals)
        key = self._key(seed, deals)
        if self._table is not None and self._table[0] == key:
            return self._table[1]
        args = self.post._args(seed)
        out = np.zeros((len(deals), MAXP, len(self._inv)))
        for part in deal_chunks(deals):
            limits.check("the policy reading")
            x = np.zeros((len(part), MAXP, len(self._inv)))
            run_log_likelihoods(*args[:5], self.rules, *args[6:], self.post._deals(part), self.removed,
                                self.centre_removed, self.post.view.first_player, self.history, self.watch,
                                self._inv, x)
            out[part.start - deals.start:part.stop - deals.start] = x
        out.setflags(write=False)
        self._table = (key, out)
        return out

    def temperatures(self, seed: int, deals: range) -> list[float | None]:
        """The temperature each seat is read at on ``deals`` (``None``: not read; see the class), by seat."""
        return self._choose(self.seat_log_likelihoods(seed, deals))

    def _choose(self, table: np.ndarray) -> list[float | None]:
        """Each seat's temperature: the reading's own, or the grid's with the largest evidence on the deals
        of ``table`` (``None``: not watched, no first reveal of its own yet, or the uniform choice won)."""
        n = table.shape[0]
        out: list[float | None] = []
        for s in range(MAXP):
            if not self.watch[s] or not n or not table[:, s, :].any():
                out.append(None)
            elif self.temperature is not None:
                out.append(self.temperature)
            else:
                t = int(np.argmax(_evidence(table[:, s, :])))
                out.append(TEMPERATURES[t] if t < len(TEMPERATURES) else None)
        return out

    def log_likelihoods(self, seed: int, deals: range) -> np.ndarray:
        """The log-likelihood of the watched first reveals on each posterior deal of ``deals``: each seat
        at its temperature (:meth:`temperatures`, chosen on these deals), plus the exact reading's term
        for each seat of ``exact``; a seat of :meth:`memory_seats` by the ``memory`` bot's rule instead of
        the softmax (:meth:`rule_log_terms`)."""
        table = self.seat_log_likelihoods(seed, deals)
        chosen = self._choose(table)
        out = np.zeros(len(deals))
        by_rule = self._by_memory(seed, deals, table, chosen)
        terms = self.rule_log_terms(seed, deals) if self.exact or by_rule else None
        for s, t in enumerate(chosen):
            if s in by_rule:
                assert terms is not None
                out += terms[:, s, MEMORY]
                continue
            if t is not None:
                out += table[:, s, self._grid.index(t)]
            if s in self.exact:
                assert terms is not None
                out += terms[:, s, EXACT]
        return out

    def memory_seats(self, seed: int, deals: range) -> list[int]:
        """The seats of ``memory`` read by the ``memory`` bot's rule on ``deals``: those whose first reveals it
        explains better (the larger mean likelihood over the deals, as :meth:`temperatures` chooses) than
        the softmax at the seat's temperature, or than the uniform choice when that one won."""
        table = self.seat_log_likelihoods(seed, deals)
        return self._by_memory(seed, deals, table, self._choose(table))

    def _by_memory(self, seed: int, deals: range, table: np.ndarray, chosen: list[float | None]) -> list[int]:
        if not self.memory or not len(deals):
            return []
        if not self.gated:
            return list(self.memory)
        terms = self.rule_log_terms(seed, deals)
        out = []
        for s in self.memory:
            if not terms[:, s, MEMORY].any() and not table[:, s, :].any():
                continue  # no first reveal of its own yet
            t = chosen[s]
            base = table[:, s, self._grid.index(t)] if t is not None else table[:, s, -1]
            if s in self.exact:
                base = base + terms[:, s, EXACT]
            if float(_evidence(terms[:, s, MEMORY])) > float(_evidence(base)):
                out.append(s)
        return out

    def rule_log_terms(self, seed: int, deals: range) -> np.ndarray:
        """``[k, seat, rule]``: the terms the bots' own rules give posterior deal ``deals[k]`` on the deal's
        past (:meth:`deal_log_terms`; ``rule``: :data:`EXACT` or :data:`MEMORY`), read-only, kept for the last
        ``seed`` and ``deals`` asked."""
        deals = self._positions(deals)
        key = self._key(seed, deals)
        if self._rules_table is not None and self._rules_table[0] == key:
            return self._rules_table[1]
        out = np.zeros((len(deals), MAXP, 2))
        for k, j in enumerate(deals):
            limits.check("the policy reading")
            sim = self.post.sim(seed, j)
            out[k] = self.deal_log_terms(sim.hands, [c if c is not None else -1 for c in sim.centre])
        out.setflags(write=False)
        self._rules_table = (key, out)
        return out

    def deal_log_terms(self, hands: Sequence[Sequence[int]], centre: Sequence[int]) -> np.ndarray:
        """``[seat, rule]``: the bots' own rules' log-terms of the deal whose hands and centre are ``hands``
        and ``centre`` now (a centre slot a trio took: any value, -1 say). Its start is rebuilt with the
        cards the trios took (public) and its past replayed by the engine:

        * ``[seat, EXACT]``, a seat of ``exact``: ``log`` :data:`EXACT_MISS` if its last first reveal is not
          the one the ``solver`` bot (:func:`~trio_solver.decide.scoring.solver_scores`) chooses from that
          seat's view then, 0 if it is;
        * ``[seat, MEMORY]``, a seat of ``memory``: the sum over its turn starts of the log-likelihood of its
          first reveal under the ``memory`` bot's rule (:func:`~trio_solver.decide.memory.memory_openings`:
          each of the rule's choices as likely), ``log`` :data:`EXACT_MISS` for one the rule does not choose.

        Every other entry is 0."""
        view = self.post.view
        out = np.zeros((MAXP, 2))
        checked = self._exact_at | self._memory_at
        if not checked:
            return out
        start = [list(h) + [v for v in range(1, 13) for _ in range(int(self.removed[s, v]))]
                 for s, h in enumerate(hands)]
        slots = [int(self.centre_removed[i]) if self.centre_removed[i] >= 0 else int(c)
                 for i, c in enumerate(centre)]
        game = Game.from_deal(view.rules, start, slots, first_player=view.first_player)
        for i, t in enumerate(self._past[:max(checked) + 1]):
            if i in checked:
                seat_view = game.view(t.seat)
                hand = tuple(seat_view.hand or ())
                for rule in (EXACT, MEMORY):
                    if i in (self._exact_at if rule == EXACT else self._memory_at):
                        key = (i, hand, rule)
                        if key not in self._checks:
                            self._checks[key] = self._check(i, seat_view, t.reveals[0].reveal, rule)
                        out[t.seat, rule] += self._checks[key]
            for r in t.reveals:
                game.reveal(r.reveal)
        return out

    def _check(self, turn: int, seat_view: PlayerView, chosen: Reveal, rule: int) -> float:
        """The log-term of first reveal ``chosen`` at the start of turn ``turn`` (numbered among the turns)
        under ``rule`` (:data:`EXACT` or :data:`MEMORY`), from its mover's ``seat_view`` on a deal."""
        tracker = self._remember.setdefault(turn, Remembering())
        if rule == EXACT:
            choice = solver_choice(solver_scores(seat_view, remember=tracker))
            return 0.0 if _same_move(seat_view, choice, chosen) else math.log(EXACT_MISS)
        options = memory_openings(seat_view, tracker(seat_view))
        hits = sum(_same_move(seat_view, r, chosen) for r in options)
        return math.log(hits / len(options)) if hits else math.log(EXACT_MISS)

    def weights(self, seed: int, deals: range) -> np.ndarray:
        """Each deal's weight, normalised to sum to 1 (read-only; kept for the last ``seed`` and ``deals``
        asked)."""
        key = self._key(seed, self._positions(deals))
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        ll = self.log_likelihoods(seed, deals)
        w = np.exp(ll - ll.max()) if len(ll) else ll
        w = w / w.sum() if len(w) else w
        w.setflags(write=False)
        self._last = (key, w)
        return w

    def _pool(self, pool: object) -> int:
        return _args.int_in("pool", pool, 1, MAX_SAMPLES, ViewError, "a number of deals")

    def resample(self, seed: int, pool: int, size: int) -> np.ndarray:
        """``size`` deal numbers drawn from the first ``pool`` deals of ``seed`` in proportion to their
        weights (systematic resampling, then shuffled), with a generator derived from ``seed``: deals
        that follow this distribution, for the races that take deals by position."""
        pool = self._pool(pool)
        size = _args.int_in("size", size, 1, MAX_SAMPLES, ViewError, "a number of deals")
        w = self.weights(seed, range(pool))
        rng = np.random.default_rng([abs(int(seed)) % (1 << 63), pool, size, 0x7E4D])
        points = (rng.random() + np.arange(size)) / size
        c = np.cumsum(w)
        c /= c[-1]  # ends at 1 exactly: a point never falls past the last deal that weighs anything
        idx = np.searchsorted(c, points, side="right").astype(np.int64)
        rng.shuffle(idx)
        return idx

    def reweigh(self, evaluations: Sequence[Evaluation], seed: int, pool: int) -> list[Evaluation]:
        """The mover's ``evaluations`` with ``p_trio``, ``p_win`` and ``progress`` under the read posterior:
        each exact figure plus the weighted minus the plain mean of its turn's outcome over the first
        ``pool`` deals of ``seed`` (the same deals, so most of the sampling noise cancels). The turn is
        played with each evaluation's plan. A certain figure (0 or 1) stays what it is; an uncertain one
        stays within :data:`UNCERTAIN` of 0 and 1, since the weights cannot make it certain."""
        view = self.post.view
        if view.seat is None or view.seat != view.to_move:
            raise ViewError("reweigh: the evaluations are the mover's, from its own view")
        pool = self._pool(pool)
        if not evaluations:
            return []
        w = self.weights(seed, range(pool))
        firsts = np.array([kernel.encode(*to_action(e.reveal)) for e in evaluations], dtype=np.int64)
        plans = np.stack([plan_array(e) for e in evaluations])
        values = np.zeros((len(evaluations), pool), np.int64)
        args = self.post._args(seed)
        for part in deal_chunks(range(pool)):
            limits.check("the policy reading")
            x = np.zeros((len(evaluations), len(part)), np.int64)
            run_turn_values(*args[:5], self.rules, *args[6:], self.post._deals(part), firsts, plans, x)
            values[:, part.start:part.stop] = x
        trio = (values != 0).astype(float)
        win = (values < 0).astype(float)
        goal = np.array(goal_weights(view, view.seat))[np.abs(values)]
        shift = w - 1.0 / pool
        out = []
        for e, dt, dw, dg in zip(evaluations, trio @ shift, win @ shift, goal @ shift):
            p_trio = _read_chance(e.p_trio, float(dt))
            p_win = min(_read_chance(e.p_win, float(dw)), p_trio)
            out.append(replace(e, p_trio=p_trio, p_win=p_win, progress=max(e.progress + float(dg), 0.0)))
        return out

    def effective_size(self, seed: int, pool: int) -> float:
        """Kish's effective sample size of the weights of the first ``pool`` deals: how many unweighted
        deals they are worth."""
        w = self.weights(seed, range(pool))
        return float(1.0 / (w ** 2).sum())
