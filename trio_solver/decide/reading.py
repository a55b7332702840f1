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
  ``exp(score_k / T) / sum_j exp(score_j / T)`` with the temperature ``T`` =
  :data:`DEFAULT_TEMPERATURE`, fitted on games of ``solver`` bots by maximum likelihood
  (``benchmarks/fit_temperature.py``; docs/MEASUREMENTS.md). A card the player knew counts as
  its value's candidate; an unseen centre card as the centre's.

The weight is a product over the turns of the game, so it cannot be folded into the lattice
(whose weights factor by value); it is applied to sampled deals instead (importance weights,
:class:`PolicyReading`): the past of each deal is rebuilt from its current hands (the cards
that left in trios are public, so the deal at the start follows) and replayed in the compiled
kernel, scoring every watched turn start on the way.

Only games without teams are read this way: in team play the secret swaps change the hands
between turns in ways the current deal does not tell, and every deal keeps the weight 1. The
analysis and the advice keep the public posterior (they judge the play against what anyone
could know); the ``expert`` bot plays on the read one.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _args, kernel
from ..errors import ViewError
from ..game.events import Swap, Turn
from ..game.view import PlayerView
from ..kernel import (CENTRE, HIGHEST, HMAX, LOWEST, MAXP, O_C, O_CK, O_H, O_HI, O_K, O_LO, O_NCENTRE, O_NFACE,
                      O_SIZE, O_TOMOVE, O_WINNER, STATE_SIZE, Work, compiled)
from .evaluate import Posterior
from .rollout import rules_array, to_action

__all__ = ["DEFAULT_TEMPERATURE", "PolicyReading", "candidate_of", "start_log_chance"]

#: The temperature of the softmax over the model's turn-start scores (fitted by
#: ``benchmarks/fit_temperature.py`` on games of ``solver`` bots).
DEFAULT_TEMPERATURE = 0.1


# -- compiled: the likelihood of a deal's past ------------------------------------------------------

@compiled
def _knows(st: np.ndarray, seat: int, a: int) -> bool:
    """Whether ``seat`` knows the card action ``a`` shows now (its own end card, or a remembered place)."""
    i = a & 15
    if a >> 4 == CENTRE:
        return bool(st[O_CK + i] != 0)
    if i == seat:
        return True
    return bool(st[O_K + i * HMAX + kernel.end_position(st, a)] != 0)


@compiled
def candidate_of(st: np.ndarray, seat: int, a: int, acts: np.ndarray, n: int) -> int:
    """The index among the model's ``n`` candidates ``acts`` (:func:`trio_solver.kernel.start_scores` for
    ``seat``) that the first reveal ``a`` counts as: a card ``seat`` knows is its value's candidate, an
    unseen centre card the centre's, an unknown end its own (the highest card of a hand with one card
    left is its lowest); -1 if none (never for a legal ``a``)."""
    if _knows(st, seat, a):
        v = kernel.value_of(st, a)
        for k in range(n):
            if _knows(st, seat, acts[k]) and kernel.value_of(st, acts[k]) == v:
                return k
        return -1
    if a >> 4 == CENTRE:
        for k in range(n):
            if acts[k] >> 4 == CENTRE and not _knows(st, seat, acts[k]):
                return k
        return -1
    s = a & 15
    if kernel.accessible(st, s) == 1:
        a = LOWEST * 16 + s
    for k in range(n):
        if acts[k] == a:
            return k
    return -1


@compiled
def start_log_chance(st: np.ndarray, rp: np.ndarray, a: int, inv_temp: float, ws: Work) -> float:
    """The log of the chance that the seat to move, at the start of its turn, opens with ``a`` under the
    softmax of the model's scores (0: the model has no candidate for it, the choice tells nothing)."""
    seat = st[O_TOMOVE]
    n = kernel.start_scores(st, rp, seat, ws)
    acts, scores = ws[12], ws[13]
    j = candidate_of(st, seat, a, acts, n)
    if j < 0:
        return 0.0
    top = scores[0]
    for k in range(1, n):
        top = max(top, scores[k])
    total = 0.0
    for k in range(n):
        total += math.exp((scores[k] - top) * inv_temp)
    return float((scores[j] - top) * inv_temp - math.log(total))


@compiled
def initial_state(cur: np.ndarray, removed: np.ndarray, centre_removed: np.ndarray, first: int,
                  players: int) -> np.ndarray:
    """The state at the deal behind the current state ``cur``: each hand is its current cards and the
    ones it lost in trios (``removed[seat, value]`` copies), sorted; each centre slot its current card,
    or the one a trio took (``centre_removed[slot]``, -1: none); nothing remembered, no trio, ``first``
    to move."""
    st = np.zeros(STATE_SIZE, np.int64)
    count = np.zeros(13, np.int64)
    for s in range(players):
        base = s * HMAX
        for v in range(13):
            count[v] = removed[s, v]
        for p in range(cur[O_SIZE + s]):
            count[cur[O_H + base + p]] += 1
        n = 0
        for v in range(1, 13):
            for _ in range(count[v]):
                st[O_H + base + n] = v
                n += 1
        st[O_SIZE + s] = n
    st[O_NCENTRE] = cur[O_NCENTRE]
    for i in range(cur[O_NCENTRE]):
        st[O_C + i] = centre_removed[i] if centre_removed[i] >= 0 else cur[O_C + i]
    st[O_TOMOVE] = first
    st[O_WINNER] = -1
    return st


@compiled
def history_log_likelihood(st: np.ndarray, rp: np.ndarray, history: np.ndarray, watch: np.ndarray,
                           inv_temp: float, ws: Work) -> float:
    """Replay ``history`` (kernel actions, every reveal since the deal) from the state ``st`` (changed in
    place); the sum of :func:`start_log_chance` over the turns that a seat with ``watch[seat]`` set
    opened."""
    total = 0.0
    for k in range(history.shape[0]):
        a = history[k]
        if st[O_NFACE] == 0 and watch[st[O_TOMOVE]]:
            total += start_log_chance(st, rp, a, inv_temp, ws)
        kernel.apply(st, rp, a)
    return total


@compiled
def run_log_likelihoods(lat_f: np.ndarray, lat_i: np.ndarray, lat_comp_x: np.ndarray, lat_avoid: np.ndarray,
                        base: np.ndarray, rp: np.ndarray, row_key: np.ndarray, pool_slots: np.ndarray,
                        turn: np.ndarray, seed: np.uint64, deals: np.ndarray, removed: np.ndarray,
                        centre_removed: np.ndarray, first: int, history: np.ndarray, watch: np.ndarray,
                        inv_temp: float, out: np.ndarray) -> None:
    """``out[k]``: the log-likelihood of the watched first reveals of ``history`` on posterior deal
    ``deals[k]`` (:func:`history_log_likelihood` from the deal's :func:`initial_state`)."""
    ws = kernel.workspace()
    for k in range(deals.shape[0]):
        cur = kernel.draw_state(lat_f, lat_i, lat_comp_x, lat_avoid, base, rp, row_key, pool_slots, turn, seed,
                                deals[k])
        st = initial_state(cur, removed, centre_removed, first, rp[kernel.R_PLAYERS])
        out[k] = history_log_likelihood(st, rp, history, watch, inv_temp, ws)


# -- Python: what the history says, and the weights --------------------------------------------------

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
        values = {r.value for r in e.reveals}
        if len(e.reveals) == 3 and len(values) == 1:
            for r in e.reveals:
                if r.reveal.is_centre:
                    centre_removed[r.reveal.index] = r.value
                else:
                    removed[r.reveal.index, r.value] += 1
    return np.array(history, dtype=np.int64), removed, centre_removed


class PolicyReading:
    """The policy weights of the posterior deals of ``post`` (:class:`~trio_solver.decide.evaluate.Posterior`,
    deal ``j`` of a seed as everywhere): the likelihood of the first reveals of every seat but the
    viewer (every seat for a spectator) under the softmax of the model's scores at ``temperature``."""

    def __init__(self, post: Posterior, temperature: float = DEFAULT_TEMPERATURE) -> None:
        if not isinstance(post, Posterior):
            raise ViewError(f"post: expected a Posterior, got {type(post).__name__}")
        temperature = _args.number_in("temperature", temperature, 0.001, 1000, ViewError)
        view = post.view
        if not readable(view):
            raise ViewError("the policy reading needs a game without teams")
        self.post = post
        self.temperature = float(temperature)
        self.history, self.removed, self.centre_removed = history_arrays(view)
        self.watch = np.array([s != view.seat for s in range(MAXP)], dtype=np.bool_)
        self.rules = rules_array(view.rules, "scoring")

    def log_likelihoods(self, seed: int, deals: range) -> np.ndarray:
        """The log-likelihood of the watched first reveals on each posterior deal of ``deals``."""
        args = self.post._args(seed)
        out = np.zeros(len(deals))
        idx = np.arange(deals.start, deals.stop, dtype=np.int64)
        kernel_args = (*args[:5], self.rules, *args[6:])
        run_log_likelihoods(*kernel_args, idx, self.removed, self.centre_removed, self.post.view.first_player,
                            self.history, self.watch, 1.0 / self.temperature, out)
        return out

    def weights(self, seed: int, deals: range) -> np.ndarray:
        """Each deal's weight, normalised to sum to 1."""
        ll = self.log_likelihoods(seed, deals)
        w = np.exp(ll - ll.max()) if len(ll) else ll
        return w / w.sum() if len(w) else w

    def resample(self, seed: int, pool: int, size: int) -> np.ndarray:
        """``size`` deal indices drawn from the first ``pool`` deals of ``seed`` in proportion to their
        weights (systematic resampling, then shuffled), with a generator derived from ``seed``: deals
        that follow this distribution, for the races that take deals by position."""
        w = self.weights(seed, range(pool))
        rng = np.random.default_rng([abs(int(seed)) % (1 << 63), pool, size, 0x7E4D])
        points = (rng.random() + np.arange(size)) / size
        idx = np.searchsorted(np.cumsum(w), points, side="right")
        idx = np.minimum(idx, pool - 1).astype(np.int64)
        rng.shuffle(idx)
        return idx

    def effective_size(self, seed: int, pool: int) -> float:
        """Kish's effective sample size of the weights of the first ``pool`` deals: how many unweighted
        deals they are worth."""
        w = self.weights(seed, range(pool))
        return float(1.0 / (w ** 2).sum())
