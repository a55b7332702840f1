"""The compiled playout kernel: the compact game state, its rules and the rollout model, in numba.

Everything that runs inside a playout lives here, compiled with numba
(``@njit(cache=True)``: machine code built on the first call and kept on disk, so
later processes load it in a fraction of a second). :mod:`trio_solver.decide.rollout`
wraps it for Python callers and documents the model of play;
:mod:`trio_solver.decide.evaluate` runs whole batches of deals through
:func:`run_tallies` and :func:`run_outcomes` in one call.

**The state** is one flat ``int64`` array (:data:`STATE_SIZE` entries; the
offsets ``O_*`` below): every hand sorted (value ``0`` is a card the owner of the
state does not know, for a bot's own view), a public *known* flag per hand position
and centre slot (what a player with perfect memory knows), the centre (``-1``: an
empty slot), each team's trios as a bit mask of values, the seat to move, the
winner (``-1``: none yet), and the turn in progress (cards asked from each end of
each hand, centre slots face up as a bit mask, the value face up and how many).

**The rules** of a table are a second small array (``R_*``): players, mode, the
team of each seat, each seat's partner and the Picante links as a bit mask per
value. The turn rules are those of :mod:`trio_solver.game.table` and the win test that
of :meth:`trio_solver.game.rules.Rules.is_win`; the tests hold this kernel equal to the
engine on random games of every setting.

**Actions** are small integers: ``kind * 16 + index`` with kind 0 a centre slot, 1
the lowest card of a seat, 2 its highest (:func:`encode`). ``-1`` is no action.

**Randomness** comes from a counter-based generator (SplitMix64): posterior deal
``j`` of seed ``s`` uses a stream keyed by ``(s, j)`` alone, so a deal is the same
whatever batch it is drawn in, on any number of workers.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
from collections.abc import Callable, Iterator
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit
from numba.core import options as _numba_options

__all__ = ["MAXP", "HMAX", "CMAX", "STATE_SIZE", "CENTRE", "LOWEST", "HIGHEST", "NO_ACTION", "MAX_TURNS",
           "encode", "kind_of", "index_of"]

#: Largest table, hand and centre the kernel holds (the engine's own limits).
MAXP, HMAX, CMAX = 6, 36, 9
CENTRE, LOWEST, HIGHEST = 0, 1, 2
NO_ACTION = -1
#: Turns after which a playout stops as a draw (never reached by the rollout model in practice).
MAX_TURNS = 3000
ONGOING, TRIO, FAILURE = 0, 1, 2

_F = TypeVar("_F", bound=Callable[..., Any])


def compiled(fn: _F) -> _F:
    """``numba.njit(cache=True)``: compiled on the first call, kept on disk for later processes (the
    Python signature stays what type checkers see)."""
    return cast(_F, njit(cache=True)(fn))


#: ``np.int64`` and ``np.bool_`` for constants passed to compiled functions: numba types a literal
#: (``-1``, ``False``) as a type of its own and compiles the callee once more for it (and every
#: function it calls); through these it compiles one version.
#: Type checkers see plain ``int`` and ``bool``.
as_int = cast(Callable[[int], int], np.int64)
as_bool = cast(Callable[[bool], bool], np.bool_)


#: Whether this numba compiles a function without reference counting (its ``_nrt`` option).
_UNCOUNTED = hasattr(getattr(_numba_options, "DefaultOptions", None), "_nrt")


def borrowing(fn: _F) -> _F:
    """:func:`compiled`, without numba's reference counting (its ``_nrt=False``), for the functions
    that only read and write the arrays they are given: every array they touch is kept alive by a
    caller that counts (numba refuses to compile an allocation, or the return of an array made
    inside, without counting). Counting the references of every array argument at every call, the
    workspace's seventeen included, took a third of a playout's time. (A numba without the option
    compiles them as :func:`compiled` does.)"""
    if _UNCOUNTED:
        return cast(_F, njit(cache=True, _nrt=False)(fn))
    return compiled(fn)


def inlined(fn: _F) -> _F:
    """:func:`compiled`, and inlined into its callers (a small helper called in the inner loops: no call,
    no reference counting of its array arguments)."""
    return cast(_F, njit(cache=True, inline="always")(fn))


@contextlib.contextmanager
def first_compile_announced(announce: Callable[[], None]) -> Iterator[None]:
    """While the block runs, call ``announce`` once, as the first function of this kernel starts to
    compile in this process (numba tells only of compilations: a function loaded from the disk cache
    calls nothing; a process forked meanwhile, a worker of ``simulate --workers``, inherits the
    listener but stays silent)."""
    from numba.core import event

    done = [False]
    here = os.getpid()

    class _Listener(event.Listener):  # type: ignore[misc]
        def on_start(self, ev: event.Event) -> None:
            dispatcher = ev.data.get("dispatcher") if isinstance(ev.data, dict) else None
            if done[0] or os.getpid() != here:
                return
            if getattr(getattr(dispatcher, "py_func", None), "__module__", None) == __name__:
                done[0] = True
                announce()

        def on_end(self, ev: event.Event) -> None:
            pass

    with event.install_listener("numba:compile", _Listener()):
        yield


# -- state layout -------------------------------------------------------------------------------
O_H = 0                        # hands: MAXP x HMAX values, sorted, then 0s
O_K = O_H + MAXP * HMAX        # known flags, aligned with the hands
O_SIZE = O_K + MAXP * HMAX     # hand sizes
O_LO = O_SIZE + MAXP           # cards face up from each hand's lowest end this turn
O_HI = O_LO + MAXP             # ... from its highest end
O_C = O_HI + MAXP              # centre slots: value, -1 empty
O_CK = O_C + CMAX              # centre known flags
O_TR = O_CK + CMAX             # trios per team: bit v set for a trio of v
O_NCENTRE = O_TR + MAXP        # number of centre slots at this table
O_TOMOVE = O_NCENTRE + 1
O_WINNER = O_TOMOVE + 1        # -1: none
O_UP = O_WINNER + 1            # centre slots face up this turn (bit mask)
O_FACE = O_UP + 1              # the value face up this turn (0: none)
O_NFACE = O_FACE + 1           # how many cards face up this turn
O_TURNS = O_NFACE + 1          # turns played
STATE_SIZE = O_TURNS + 1

# -- rules layout -------------------------------------------------------------------------------
R_PLAYERS = 0
R_PICANTE = 1                  # 0 simple, 1 Picante
R_TEAMS = 2                    # number of sides
R_TEAMOF = 3                   # MAXP entries
R_PARTNER = R_TEAMOF + MAXP    # MAXP entries, -1: none
R_ADJ = R_PARTNER + MAXP       # 13 entries: bit mask of the values linked to v
R_POLICY = R_ADJ + 13          # the rollout policy: COUNTING or SOLVER
RULES_SIZE = R_POLICY + 1

#: The rollout policies (see :mod:`trio_solver.decide.rollout`): the counting model, and the counting model
#: scoring first reveals as the ``solver`` bot does (goal weights and the leak of a failed turn).
COUNTING, SOLVER = 0, 1
#: The ``solver`` bot's turn score: ``WIN_WEIGHT * p_win + p_trio + GOAL_WEIGHT * progress / goal -
#: LEAK_WEIGHT * leak`` (:func:`trio_solver.decide.scoring.solver_score`, :class:`trio_solver.decide.bots.SolverBot`).
WIN_WEIGHT, GOAL_WEIGHT, LEAK_WEIGHT = 3.0, 0.5, 0.5

SEVEN_BIT = 1 << 7
#: ``(lv - 1) / lv`` for ``lv`` copies of a value unplaced (at most 3; index 0 unused).
RATIOS = np.array([0.0, 0.0, 1.0 / 2.0, 2.0 / 3.0])


def encode(kind: int, index: int) -> int:
    """The action code of a reveal of ``kind`` (:data:`CENTRE`, :data:`LOWEST`, :data:`HIGHEST`) at ``index``."""
    return kind * 16 + index


def kind_of(action: int) -> int:
    return action >> 4


def index_of(action: int) -> int:
    return action & 15


# -- the rules ------------------------------------------------------------------------------------

@inlined
def popcount(m: int) -> int:
    c = 0
    while m:
        m &= m - 1
        c += 1
    return c


@borrowing
def is_win(rp: np.ndarray, held: int) -> bool:
    """The win test of :meth:`trio_solver.game.rules.Rules.is_win` on a bit mask of trio values."""
    if held & SEVEN_BIT:
        return True
    if rp[R_PICANTE] == 0:
        return popcount(held) >= 3
    for v in range(1, 13):
        if held >> v & 1 and rp[R_ADJ + v] & held:
            return True
    return False


@borrowing
def goal_distance(rp: np.ndarray, held: int) -> int:
    """Trios a side holding ``held`` still needs, the trio of 7s aside
    (:meth:`trio_solver.game.rules.Rules.goal_distance`)."""
    if is_win(rp, held):
        return 0
    if rp[R_PICANTE] == 0:
        return 3 - popcount(held)
    for v in range(1, 13):
        if held >> v & 1 and rp[R_ADJ + v]:
            return 1
    return 2


@borrowing
def value_weights(st: np.ndarray, rp: np.ndarray, seat: int, out: np.ndarray) -> None:
    """The weight of a trio of each value in the turn score of ``seat``: under :data:`COUNTING` 4 for a
    winning trio, else 1; under :data:`SOLVER` the ``solver`` bot's ``WIN_WEIGHT`` for a win, plus 1,
    plus ``GOAL_WEIGHT`` times how much the trio serves the goal (1 for a win; simple: 0.5; Picante:
    0.25 per linked value no side has taken, 7 aside) over the trios still needed."""
    held = st[O_TR + rp[R_TEAMOF + seat]]
    wins = winning_values(rp, held)
    out[0] = 0.0
    if rp[R_POLICY] == COUNTING:
        for v in range(1, 13):
            out[v] = 4.0 if wins >> v & 1 else 1.0
        return
    goal = max(goal_distance(rp, held), 1)
    taken = 0
    for t in range(rp[R_TEAMS]):
        taken |= st[O_TR + t]
    for v in range(1, 13):
        if wins >> v & 1:
            out[v] = WIN_WEIGHT + 1.0 + GOAL_WEIGHT * 1.0 / goal
        elif rp[R_PICANTE] == 0:
            out[v] = 1.0 + GOAL_WEIGHT * 0.5 / goal
        else:
            live = rp[R_ADJ + v] & ~taken & ~SEVEN_BIT
            out[v] = 1.0 + GOAL_WEIGHT * (0.25 * popcount(live)) / goal


@borrowing
def winning_values(rp: np.ndarray, held: int) -> int:
    """Bit mask of the values whose trio would win now for a side holding ``held``."""
    if rp[R_PICANTE] == 0:
        if popcount(held) >= 2:
            return 0x1FFE & ~held
        return SEVEN_BIT & ~held
    out = SEVEN_BIT
    for v in range(1, 13):
        if held >> v & 1:
            out |= rp[R_ADJ + v]
    return out & ~held


@inlined
def accessible(st: np.ndarray, s: int) -> int:
    return st[O_SIZE + s] - st[O_LO + s] - st[O_HI + s]


@inlined
def end_position(st: np.ndarray, a: int) -> int:
    """The hand position a hand action reveals now."""
    s = a & 15
    if a >> 4 == LOWEST:
        return st[O_LO + s]
    return st[O_SIZE + s] - 1 - st[O_HI + s]


@borrowing
def legal(st: np.ndarray, rp: np.ndarray, out: np.ndarray) -> int:
    """Write every legal action into ``out`` (centre slots, then each seat's lowest and highest); their number."""
    if st[O_WINNER] >= 0:
        return 0
    n = 0
    up = st[O_UP]
    for i in range(st[O_NCENTRE]):
        if st[O_C + i] >= 0 and not (up >> i & 1):
            out[n] = i
            n += 1
    for s in range(rp[R_PLAYERS]):
        if accessible(st, s) > 0:
            out[n] = LOWEST * 16 + s
            out[n + 1] = HIGHEST * 16 + s
            n += 2
    return n


@borrowing
def is_legal(st: np.ndarray, rp: np.ndarray, a: int) -> bool:
    if st[O_WINNER] >= 0 or a < 0:
        return False
    k, i = a >> 4, a & 15
    if k == CENTRE:
        return i < st[O_NCENTRE] and st[O_C + i] >= 0 and not (st[O_UP] >> i & 1)
    if k > HIGHEST or i >= rp[R_PLAYERS]:
        return False
    return accessible(st, i) > 0


@borrowing
def any_legal(st: np.ndarray, rp: np.ndarray) -> bool:
    up = st[O_UP]
    for i in range(st[O_NCENTRE]):
        if st[O_C + i] >= 0 and not (up >> i & 1):
            return True
    for s in range(rp[R_PLAYERS]):
        if accessible(st, s) > 0:
            return True
    return False


@borrowing
def value_of(st: np.ndarray, a: int) -> int:
    """The value action ``a`` would show now."""
    if a >> 4 == CENTRE:
        return st[O_C + (a & 15)]
    return st[O_H + (a & 15) * HMAX + end_position(st, a)]


@borrowing
def end_turn(st: np.ndarray, rp: np.ndarray) -> None:
    for s in range(rp[R_PLAYERS]):
        st[O_LO + s] = 0
        st[O_HI + s] = 0
    st[O_UP] = 0
    st[O_FACE] = 0
    st[O_NFACE] = 0
    st[O_TURNS] += 1
    if st[O_WINNER] < 0:
        st[O_TOMOVE] = (st[O_TOMOVE] + 1) % rp[R_PLAYERS]


@borrowing
def _take_trio(st: np.ndarray, rp: np.ndarray, v: int) -> None:
    """The cards face up leave play; the mover's side scores ``v``."""
    for s in range(rp[R_PLAYERS]):
        lo, hi = st[O_LO + s], st[O_HI + s]
        if lo or hi:
            base = s * HMAX
            size = st[O_SIZE + s]
            keep = size - lo - hi
            for p in range(keep):
                st[O_H + base + p] = st[O_H + base + lo + p]
                st[O_K + base + p] = st[O_K + base + lo + p]
            for p in range(keep, size):
                st[O_H + base + p] = 0
                st[O_K + base + p] = 0
            st[O_SIZE + s] = keep
    up = st[O_UP]
    for i in range(st[O_NCENTRE]):
        if up >> i & 1:
            st[O_C + i] = -1
            st[O_CK + i] = 0
    team = rp[R_TEAMOF + st[O_TOMOVE]]
    st[O_TR + team] |= 1 << v
    if is_win(rp, st[O_TR + team]):
        st[O_WINNER] = st[O_TOMOVE]


@borrowing
def apply(st: np.ndarray, rp: np.ndarray, a: int) -> int:
    """Make one reveal (assumed legal) and settle the turn: :data:`ONGOING`, :data:`TRIO` or :data:`FAILURE`."""
    k, i = a >> 4, a & 15
    if k == CENTRE:
        v = st[O_C + i]
        st[O_UP] |= 1 << i
        st[O_CK + i] = 1
    else:
        p = end_position(st, a)
        v = st[O_H + i * HMAX + p]
        st[O_K + i * HMAX + p] = 1
        if k == LOWEST:
            st[O_LO + i] += 1
        else:
            st[O_HI + i] += 1
    if st[O_NFACE] and v != st[O_FACE]:
        end_turn(st, rp)
        return FAILURE
    st[O_FACE] = v
    st[O_NFACE] += 1
    if st[O_NFACE] == 3:
        _take_trio(st, rp, v)
        end_turn(st, rp)
        return TRIO
    if not any_legal(st, rp):
        end_turn(st, rp)
        return FAILURE
    return ONGOING


@borrowing
def swap(st: np.ndarray, a: int, b: int, give_a: int, give_b: int) -> None:
    """A team swap between turns: seat ``a`` gives ``give_a`` to ``b`` and gets ``give_b``; both hands are
    sorted again and what the table remembered of them is forgotten."""
    _replace_card(st, a, give_a, give_b)
    _replace_card(st, b, give_b, give_a)


@borrowing
def _replace_card(st: np.ndarray, s: int, out: int, into: int) -> None:
    base = O_H + s * HMAX
    size = st[O_SIZE + s]
    p = 0
    while p < size and st[base + p] != out:
        p += 1
    if p == size:
        return
    for q in range(p, size - 1):  # remove
        st[base + q] = st[base + q + 1]
    q = size - 1                  # insert, keeping the hand sorted (after equal values)
    while q > 0 and st[base + q - 1] > into:
        st[base + q] = st[base + q - 1]
        q -= 1
    st[base + q] = into
    for p in range(size):
        st[O_K + s * HMAX + p] = 0


# -- scratch space ------------------------------------------------------------------------------------

#: Groups of unknown places at most: the unseen centre slots and every run of a hand (6 x 18).
GROUPS = 1 + MAXP * (HMAX // 2)
#: Actions at most: every centre slot and both ends of every hand.
ACTIONS = CMAX + 2 * MAXP
#: Candidate first reveals at most (:func:`start_scores`): one known card per value, every unknown end, the
#: unseen centre.
CANDIDATES = 12 + 2 * MAXP + 1


@compiled
def workspace() -> tuple[np.ndarray, ...]:
    """Scratch arrays for the rollout model, allocated once per batch of playouts: the group chances
    (``GROUPS x 13``), the run of each hand position (group, size), per value counts (left, known cards
    within reach, the first of them, the first of one's own, then the same for public cards), per
    unknown end its action and its extreme-value chances, per value ratios ``(lv - 1) / lv`` and
    floats, the known cards a turn may start with (action, value), a list of actions, and the best
    guesses per value (see :func:`start_choice`), then the candidate first reveals and their scores
    (see :func:`start_scores`), then the number of groups, unseen centre slots and first of them of the
    last spread (see :func:`guess_spread`), and per value the chances to find two more after an unknown
    first reveal (see :func:`_more_after_end`), and an empty plan (see :func:`play_turn`)."""
    return (np.empty((GROUPS, 13)), np.empty((MAXP, HMAX), np.int64), np.empty((MAXP, HMAX), np.int64),
            np.empty((7, 13), np.int64), np.empty((3, 2 * MAXP), np.int64), np.empty((2 * MAXP, 13)),
            np.empty((2, 13)), np.empty((6, 13)), np.empty((2, ACTIONS), np.int64),
            np.empty(ACTIONS, np.int64), np.empty((2, 13, 5)), np.empty((2, 13, 5), np.int64),
            np.empty(CANDIDATES, np.int64), np.empty(CANDIDATES), np.empty(3, np.int64),
            np.empty((13, 5)), np.zeros((13, 0), np.int64))


#: The type of :func:`workspace`'s value (numba types it itself).
Work = tuple[np.ndarray, ...]


# -- what a seat can count ------------------------------------------------------------------------

@inlined
def ipow(x: float, m: int) -> float:
    """``x ** m`` for a whole ``m >= 0`` by repeated squaring (the same operations in the reference model)."""
    result = 1.0
    base = x
    while m > 0:
        if m & 1:
            result *= base
        base *= base
        m >>= 1
    return result


@borrowing
def unaccounted(st: np.ndarray, rp: np.ndarray, seat: int, left: np.ndarray) -> None:
    """Copies of each value that ``seat`` cannot place (``left[0]`` unused): not in a trio, not in its
    hand, not in a place the table remembers."""
    for v in range(13):
        left[v] = 3
    left[0] = 0
    for t in range(rp[R_TEAMS]):
        m = st[O_TR + t]
        for v in range(1, 13):
            if m >> v & 1:
                left[v] = 0
    for s in range(rp[R_PLAYERS]):
        base = s * HMAX
        size = st[O_SIZE + s]
        if s == seat:
            for p in range(size):
                left[st[O_H + base + p]] -= 1
        else:
            for p in range(size):  # a known flag is 0 or 1
                left[st[O_H + base + p]] -= st[O_K + base + p]
    for i in range(st[O_NCENTRE]):
        c = st[O_C + i]
        if st[O_CK + i] and c >= 0:
            left[c] -= 1


@inlined
def _reach_add(cnt: np.ndarray, first_pub: np.ndarray, first_own: np.ndarray, v: int, a: int, own: bool) -> None:
    cnt[v] += 1
    if own:
        if first_own[v] < 0:
            first_own[v] = a
    elif first_pub[v] < 0:
        first_pub[v] = a


@borrowing
def reachable(st: np.ndarray, rp: np.ndarray, seat: int, cnt: np.ndarray, first: np.ndarray,
              first_own: np.ndarray) -> None:
    """For each value: how many known cards of it ``seat`` can reveal one after the other (``cnt``) and
    the first to reveal (``first``; public cards before its own cards, else in the order of
    :func:`legal`). ``first_own`` is scratch."""
    for v in range(13):
        cnt[v] = 0
        first[v] = -1
        first_own[v] = -1
    up = st[O_UP]
    for i in range(st[O_NCENTRE]):
        v = st[O_C + i]
        if v >= 0 and st[O_CK + i] and not (up >> i & 1):
            _reach_add(cnt, first, first_own, v, i, False)
    for s in range(rp[R_PLAYERS]):
        acc = accessible(st, s)
        if acc <= 0:
            continue
        base = s * HMAX
        own = s == seat
        got = 0
        p = st[O_LO + s]
        if own or st[O_K + base + p]:
            v = st[O_H + base + p]
            while got < acc and st[O_H + base + p + got] == v and (own or st[O_K + base + p + got]):
                _reach_add(cnt, first, first_own, v, LOWEST * 16 + s, own)
                got += 1
        q = st[O_SIZE + s] - 1 - st[O_HI + s]
        if got < acc and (own or st[O_K + base + q]):
            v = st[O_H + base + q]
            j = 0
            while got < acc and st[O_H + base + q - j] == v and (own or st[O_K + base + q - j]):
                _reach_add(cnt, first, first_own, v, HIGHEST * 16 + s, own)
                got += 1
                j += 1
    for v in range(13):
        if first[v] < 0:
            first[v] = first_own[v]


@borrowing
def reach_first(st: np.ndarray, rp: np.ndarray, seat: int, v: int) -> int:
    """:func:`reachable`'s first card of the one value ``v`` (-1: none within reach): the first card of ``v``
    every player knows, in the order of :func:`legal`, else the first of ``seat``'s own. An end shows
    ``v`` only if it is known; the highest end of a hand whose lowest end is not a ``v`` is within reach
    unless the run of equal known cards from the lowest end covers the whole hand, and then the highest
    end is not a ``v`` either."""
    up = st[O_UP]
    for i in range(st[O_NCENTRE]):
        if st[O_C + i] == v and st[O_CK + i] and not (up >> i & 1):
            return i
    own_first = -1
    for s in range(rp[R_PLAYERS]):
        if accessible(st, s) <= 0:
            continue
        base = s * HMAX
        own = s == seat
        p = st[O_LO + s]
        q = st[O_SIZE + s] - 1 - st[O_HI + s]
        a = -1
        if st[O_H + base + p] == v and (own or st[O_K + base + p]):
            a = LOWEST * 16 + s
        elif st[O_H + base + q] == v and (own or st[O_K + base + q]):
            a = HIGHEST * 16 + s
        if a >= 0:
            if not own:
                return a
            if own_first < 0:
                own_first = a
    return own_first


@borrowing
def spread(st: np.ndarray, rp: np.ndarray, seat: int, left: np.ndarray, rows: np.ndarray,
           run_g: np.ndarray, run_m: np.ndarray, scale: np.ndarray) -> tuple[int, int, int]:
    """Where ``seat`` expects the cards it cannot place: per value chances for one card of each group of
    unknown places, by iterative proportional fitting (three rounds).

    The groups are the never-seen centre slots (row 0 when there are any) and each run of unknown
    cards of another hand between two known cards (or an end), which can hold only values between
    theirs. ``run_g[s, p]`` / ``run_m[s, p]`` give the group and size of the run that starts or ends
    at position ``p`` of seat ``s`` (``-1``: none; only positions of other hands from their lowest
    card face down on are set). Returns (groups, unseen centre slots, the first of them or -1).
    """
    slots = 0
    first = -1
    up = st[O_UP]
    for i in range(st[O_NCENTRE]):
        if st[O_C + i] >= 0 and not st[O_CK + i] and not (up >> i & 1):
            if slots == 0:
                first = i
            slots += 1
    g = 0
    if slots:
        rows[0, 0] = 0.0
        for v in range(1, 13):
            rows[0, v] = float(left[v])
        g = 1
    for s in range(rp[R_PLAYERS]):
        if s == seat:
            continue
        base = s * HMAX
        size = st[O_SIZE + s]
        a = st[O_LO + s]
        b = size - 1 - st[O_HI + s]
        below = st[O_H + base + a - 1] if a > 0 else 1
        q = a
        while q <= b:
            run_g[s, q] = -1
            if st[O_K + base + q]:
                below = st[O_H + base + q]
                q += 1
                continue
            r = q
            while r <= b and not st[O_K + base + r]:
                run_g[s, r] = -1
                r += 1
            above = st[O_H + base + r] if r < size else 12
            for v in range(13):
                rows[g, v] = float(left[v]) if below <= v <= above else 0.0
            run_g[s, q] = g
            run_m[s, q] = r - q
            run_g[s, r - 1] = g
            run_m[s, r - 1] = r - q
            g += 1
            q = r
    for _ in range(3):
        scale[0] = 1.0
        for v in range(1, 13):
            scale[v] = 1.0
            total = 0.0
            for k in range(g):
                total += rows[k, v]
            if total > 0:
                scale[v] = left[v] / total
        for k in range(g):
            tot = 0.0
            for v in range(13):
                rows[k, v] = rows[k, v] * scale[v]
                tot += rows[k, v]
            if tot > 0:
                f = 1.0 / tot
                for v in range(13):
                    rows[k, v] = rows[k, v] * f
    return g, slots, first


@borrowing
def extreme(q: np.ndarray, m: int, lowest: bool, out: np.ndarray) -> None:
    """Chance of each value for the smallest (``lowest``) or largest of ``m`` cards, each drawn with the
    chances ``q`` (index 0 unused)."""
    out[0] = 0.0
    beyond = 1.0
    power = 1.0  # beyond ** m: each power serves two values
    for j in range(12):
        v = j + 1 if lowest else 12 - j
        if q[v] == 0.0 or beyond == 0.0:  # beyond ** m - beyond ** m, exactly
            out[v] = 0.0
            continue
        rest = max(beyond - q[v], 0.0)
        after = ipow(rest, m)
        out[v] = power - after
        beyond = rest
        power = after


@borrowing
def extreme_at(q: np.ndarray, m: int, lowest: bool, v: int) -> float:
    """:func:`extreme`'s chance for the one value ``v``."""
    beyond = 1.0
    for j in range(12):
        u = j + 1 if lowest else 12 - j
        rest = max(beyond - q[u], 0.0)
        if u == v:
            if q[u] == 0.0 or beyond == 0.0:
                return 0.0
            return ipow(beyond, m) - ipow(rest, m)
        beyond = rest
    return 0.0


# -- the rollout model ------------------------------------------------------------------------------

@inlined
def _push(tops: np.ndarray, tops_i: np.ndarray, col: int, v: int, off: int, size: int, p: float, k: int) -> None:
    """Keep ``tops[col, v, off:off + size]`` the largest values seen (their indices in ``tops_i``), largest first."""
    j = off + size - 1
    if not p > tops[col, v, j]:
        return
    while j > off and p > tops[col, v, j - 1]:
        tops[col, v, j] = tops[col, v, j - 1]
        tops_i[col, v, j] = tops_i[col, v, j - 1]
        j -= 1
    tops[col, v, j] = p
    tops_i[col, v, j] = k


@inlined
def _two_more(v: int, col: int, skip_end: int, skip_centre: bool, have: int, left: np.ndarray,
              ratio: np.ndarray, rows: np.ndarray, slots: int, tops: np.ndarray, tops_i: np.ndarray,
              behind: np.ndarray) -> float:
    """Chance to find the cards of ``v`` still missing after ``have`` known ones, ``lv = left[v] - col``
    copies unplaced, by the two best guesses (or one guess and the card right behind it): the unseen
    centre cards (one fewer when the first reveal is a centre card, ``skip_centre``), every unknown end
    but the first reveal's own (``skip_end``, -1: none; the likeliest ends are ``tops``, see
    :func:`start_choice`) and the card behind a known end. ``ratio[c, v]`` is ``(lv - 1) / lv`` for
    ``lv = left[v] - c``."""
    if have >= 2:
        return 1.0
    lv = left[v] - col
    if lv <= 0:
        return 0.0
    scale = 1.0 if col == 0 else ratio[0, v]  # lv / left[v]
    q = ratio[col, v]
    best1 = 0.0
    best2 = 0.0
    pair = 0.0
    got = 0
    for t in range(3):  # the two likeliest ends but the first reveal's own
        if got == 2 or tops_i[col, v, t] < 0:
            break
        if tops_i[col, v, t] == skip_end:
            continue
        p = tops[col, v, t]
        if p > best1:
            best2 = best1
            best1 = p
        elif p > best2:
            best2 = p
        got += 1
    for t in range(3, 5):
        if tops_i[col, v, t] >= 0 and tops_i[col, v, t] != skip_end:
            pair = max(pair, tops[col, v, t])
            break
    more = slots - (1 if skip_centre else 0) if slots else 0
    return _more_of(best1, best2, pair, more, rows[0, v] * scale, behind[v] * scale, q, have)


@inlined
def _more_of(e1: float, e2: float, pair: float, centre: int, pc: float, pb: float, q: float, have: int) -> float:
    """The end of :func:`_two_more`: ``e1 >= e2`` the two likeliest ends to guess and ``pair`` the likeliest
    end to give two cards, joined by ``centre`` unseen centre cards of chance ``pc`` each and the card
    behind a known end, of chance ``pb`` (0: none)."""
    best1 = e1
    best2 = e2
    if centre:
        if pc > best1:
            best2 = best1
            best1 = pc
        elif pc > best2:
            best2 = pc
        if centre >= 2:
            pair = max(pair, pc * (pc * q))
    if pb > best1:
        best2 = best1
        best1 = pb
    elif pb > best2:
        best2 = pb
    if have == 1:
        return best1
    return max(best1 * best2 * q, pair)


@inlined
def _more_after_end(v: int, have: int, left: np.ndarray, ratio: np.ndarray, rows: np.ndarray, slots: int,
                    tops: np.ndarray, tops_i: np.ndarray, behind: np.ndarray, out: np.ndarray) -> None:
    """:func:`_two_more` for ``v`` after an unknown first reveal showed a ``v`` (``col`` 1), for every first
    reveal at once: ``out[v, 0]`` for an end that is none of ``v``'s likeliest (``tops_i[1, v]`` 0, 1
    and 3), ``out[v, 1]``, ``out[v, 2]``, ``out[v, 3]`` for those three ends (each left out of the
    guesses) and ``out[v, 4]`` for an unseen centre card. The ends' chances are in ``tops[1, v]``,
    largest first (0 past the last), so leaving one out keeps the first two of the others."""
    if have >= 2 or left[v] - 1 <= 0:
        x = 1.0 if have >= 2 else 0.0
        for c in range(5):
            out[v, c] = x
        return
    scale = ratio[0, v]  # lv / left[v]
    q = ratio[1, v]
    e0, e1, e2 = tops[1, v, 0], tops[1, v, 1], tops[1, v, 2]
    p3, p4 = tops[1, v, 3], tops[1, v, 4]
    i3 = tops_i[1, v, 3]
    pc = rows[0, v] * scale if slots else 0.0
    pb = behind[v] * scale
    out[v, 0] = _more_of(e0, e1, p3, slots, pc, pb, q, have)
    out[v, 1] = _more_of(e1, e2, p4 if i3 == tops_i[1, v, 0] else p3, slots, pc, pb, q, have)
    out[v, 2] = _more_of(e0, e2, p4 if i3 == tops_i[1, v, 1] else p3, slots, pc, pb, q, have)
    out[v, 3] = _more_of(e0, e1, p4, slots, pc, pb, q, have)
    out[v, 4] = _more_of(e0, e1, p3, slots - 1, pc, pb, q, have)


@borrowing
def _known_tops(v: int, left: np.ndarray, ratio: np.ndarray, rows: np.ndarray, ends: np.ndarray,
                ends_d: np.ndarray, n_ends: int, tops: np.ndarray, tops_i: np.ndarray) -> None:
    """``tops[0, v]`` (see :func:`start_choice`): the likeliest unknown ends to show ``v`` and to show two of
    them, with all ``left[v]`` copies unplaced (a known first card of ``v``)."""
    for t in range(5):
        tops[0, v, t] = 0.0
        tops_i[0, v, t] = -1
    for k in range(n_ends):
        d = ends_d[k, v]
        if d > 0:
            _push(tops, tops_i, 0, v, 0, 3, d, k)
            m = ends[2, k]
            if m > 1:
                second = 1.0 - ipow(1.0 - rows[ends[1, k], v] * ratio[0, v], m - 1)
                _push(tops, tops_i, 0, v, 3, 2, d * second, k)


@borrowing
def start_choice(st: np.ndarray, rp: np.ndarray, seat: int, ws: Work) -> int:
    """The first reveal of a turn under the rollout model (see :mod:`trio_solver.decide.rollout`): the
    first of the best-scored candidates of :func:`start_scores`, else the first legal action."""
    n = start_scores(st, rp, seat, ws)
    acts, scores = ws[12], ws[13]
    best_score = -1.0
    best = -1
    for k in range(n):
        if scores[k] > best_score:
            best_score = scores[k]
            best = acts[k]
    if best >= 0:
        return best
    buf = ws[9]
    n = legal(st, rp, buf)
    return buf[0] if n else -1


@borrowing
def start_scores(st: np.ndarray, rp: np.ndarray, seat: int, ws: Work) -> int:
    """The rollout model's candidate first reveals for ``seat`` and their scores, into ``ws[12]`` /
    ``ws[13]``; their number. The candidates come in the model's order: for each value ``seat`` can
    reach among the cards it knows, the first of them (the centre, then seat by seat, lowest end before
    highest; a card every player knows before its own); then every unknown end; then the unseen
    centre (its first slot stands for all of them)."""
    (rows, run_g, run_m, counts, ends, ends_d, ratio, floats, known, buf, tops, tops_i, acts, scores, spread_of,
     more_tab) = ws[:16]
    left, cnt, first, first_own = counts[0], counts[1], counts[2], counts[3]
    behind, scale, ready = floats[0], floats[1], floats[2]
    second, weight = floats[3], floats[4]
    P = rp[R_PLAYERS]
    unaccounted(st, rp, seat, left)
    value_weights(st, rp, seat, weight)
    leaky = rp[R_POLICY] == SOLVER
    reachable(st, rp, seat, cnt, first, first_own)
    public = counts[4]  # cards of each value within reach that every player knows: the leak
    if leaky:
        reachable(st, rp, as_int(-1), public, counts[5], counts[6])
    g, slots, cfirst = spread(st, rp, seat, left, rows, run_g, run_m, scale)
    spread_of[0] = g
    spread_of[1] = slots
    spread_of[2] = cfirst
    for v in range(13):
        behind[v] = 0.0
        ready[v] = 0.0
        for c in range(2):
            lv = left[v] - c
            ratio[c, v] = RATIOS[lv] if lv > 0 else 0.0
        for t in range(5):  # (tops[0, v] is made where it is read, by _known_tops)
            tops[1, v, t] = 0.0
            tops_i[1, v, t] = -1
    n_ends = as_int(0)
    n_known = 0
    last_group = -1
    for i in range(st[O_NCENTRE]):
        c = st[O_C + i]
        if c >= 0 and st[O_CK + i]:
            known[0, n_known] = i
            known[1, n_known] = c
            n_known += 1
    for s in range(P):
        acc = accessible(st, s)
        if acc <= 0:
            continue
        base = s * HMAX
        lo_p = st[O_LO + s]
        hi_p = st[O_SIZE + s] - 1 - st[O_HI + s]
        for kind in range(LOWEST, HIGHEST + 1):
            if acc == 1 and kind == HIGHEST:
                continue
            p = lo_p if kind == LOWEST else hi_p
            if s == seat or st[O_K + base + p]:
                v = st[O_H + base + p]
                known[0, n_known] = kind * 16 + s
                known[1, n_known] = v
                n_known += 1
                nb = p + 1 if kind == LOWEST else p - 1
                if s != seat and lo_p <= nb <= hi_p and not st[O_K + base + nb]:
                    gr = run_g[s, nb]
                    behind[v] = max(behind[v], 1.0 - ipow(1.0 - rows[gr, v], run_m[s, nb]))
                continue
            gr = run_g[s, p]
            m = run_m[s, p]
            k = n_ends
            ends[0, k] = kind * 16 + s
            extreme(rows[gr], m, kind == LOWEST, ends_d[k])
            if gr != last_group:  # both ends of one run share their chances of a second card
                last_group = gr
                for v in range(1, 13):
                    second[v] = 0.0
                    if m > 1 and left[v] > 1:
                        second[v] = 1.0 - ipow(1.0 - rows[gr, v] * ratio[1, v], m - 1)
            ends[1, k] = gr
            ends[2, k] = m
            for v in range(1, 13):  # the likeliest ends to show v, and to show two of them, after a v shown
                d = ends_d[k, v]
                if d > 0 and left[v] > 1:
                    pc = d * ratio[0, v]
                    _push(tops, tops_i, 1, v, 0, 3, pc, k)
                    if m > 1:
                        _push(tops, tops_i, 1, v, 3, 2, pc * second[v], k)
            n_ends += 1
    n = 0
    for k in range(n_known):
        a = known[0, k]
        v = known[1, k]
        if cnt[v] == 0 or first[v] != a:
            continue  # the first card of its value is another one (public before own)
        if cnt[v] < 3 and left[v] > 0:  # the likeliest ends for all the copies of v unplaced
            _known_tops(v, left, ratio, rows, ends, ends_d, n_ends, tops, tops_i)
        score = _two_more(v, 0, -1, a >> 4 == CENTRE, cnt[v] - 1, left, ratio, rows, slots, tops, tops_i,
                          behind) * weight[v]
        if leaky and public[v] >= 2 and not is_public(st, a):  # one's own card beside two public ones
            score -= LEAK_WEIGHT
        acts[n] = a
        scores[n] = score
        n += 1
    for k in range(n_ends + (1 if slots else 0)):
        score = 0.0
        leak = 0.0
        for v in range(1, 13):
            d = ends_d[k, v] if k < n_ends else rows[0, v]
            if d > 0:
                if leaky and public[v] >= 2:  # a failure shows a v beside two public ones: the next player's trio
                    leak += d
                if not ready[v]:
                    _more_after_end(v, cnt[v], left, ratio, rows, slots, tops, tops_i, behind, more_tab)
                    ready[v] = 1.0
                if k == n_ends:
                    more = more_tab[v, 4]
                elif k == tops_i[1, v, 0]:
                    more = more_tab[v, 1]
                elif k == tops_i[1, v, 1]:
                    more = more_tab[v, 2]
                elif k == tops_i[1, v, 3]:
                    more = more_tab[v, 3]
                else:
                    more = more_tab[v, 0]
                score += d * more * weight[v]
        if leaky:
            score -= LEAK_WEIGHT * leak
        acts[n] = ends[0, k] if k < n_ends else cfirst
        scores[n] = score
        n += 1
    return n


@inlined
def is_public(st: np.ndarray, a: int) -> bool:
    """Whether everyone already knows the card ``a`` would show."""
    if a >> 4 == CENTRE:
        return st[O_CK + (a & 15)] != 0
    return st[O_K + (a & 15) * HMAX + end_position(st, a)] != 0


@borrowing
def harmless(st: np.ndarray, rp: np.ndarray, buf: np.ndarray) -> int:
    """A legal action showing as little as possible: a public card, else the first legal one."""
    n = legal(st, rp, buf)
    for k in range(n):
        if is_public(st, buf[k]):
            return buf[k]
    return buf[0] if n else -1


@borrowing
def guess(st: np.ndarray, rp: np.ndarray, seat: int, v: int, ws: Work) -> int:
    """The unknown place likeliest to show ``v`` for ``seat`` (-1: none); its chance in ``ws[7][5, 0]``."""
    return guess_spread(st, rp, seat, v, ws, as_bool(False))


@borrowing
def guess_spread(st: np.ndarray, rp: np.ndarray, seat: int, v: int, ws: Work, fresh: bool) -> int:
    """:func:`guess`; ``fresh``: ``ws`` already holds the spread of ``st`` for ``seat`` (its rows and runs,
    and in ``ws[14]`` its groups, unseen centre slots and first of them), else it is made there."""
    rows, run_g, run_m, counts, floats, spread_of = ws[0], ws[1], ws[2], ws[3], ws[7], ws[14]
    if not fresh:
        unaccounted(st, rp, seat, counts[0])
        g, slots, cfirst = spread(st, rp, seat, counts[0], rows, run_g, run_m, floats[1])
        spread_of[0] = g
        spread_of[1] = slots
        spread_of[2] = cfirst
    slots, cfirst = spread_of[1], spread_of[2]
    best_p = -1.0
    best = -1
    if slots:
        best_p = rows[0, v]
        best = cfirst
    for s in range(rp[R_PLAYERS]):
        if s == seat or accessible(st, s) <= 0:
            continue
        for kind in range(LOWEST, HIGHEST + 1):
            p = st[O_LO + s] if kind == LOWEST else st[O_SIZE + s] - 1 - st[O_HI + s]
            if st[O_K + s * HMAX + p]:
                continue
            d = extreme_at(rows[run_g[s, p]], run_m[s, p], kind == LOWEST, v)
            if d > best_p:
                best_p = d
                best = kind * 16 + s
    floats[5, 0] = best_p
    return best


@borrowing
def choose(st: np.ndarray, rp: np.ndarray, ws: Work) -> int:
    """The rollout model's next action for the seat to move (-1: no legal action)."""
    return choose_fresh(st, rp, ws, as_bool(False))[0]


@borrowing
def choose_fresh(st: np.ndarray, rp: np.ndarray, ws: Work, fresh: bool) -> tuple[int, bool]:
    """:func:`choose`, ``fresh`` as in :func:`guess_spread`; also whether ``ws`` holds the spread of ``st``
    for the mover after the call."""
    seat = st[O_TOMOVE]
    if not st[O_NFACE]:
        return start_choice(st, rp, seat, ws), True
    face = st[O_FACE]
    a = reach_first(st, rp, seat, face)
    if a >= 0:
        return a, fresh
    a = guess_spread(st, rp, seat, face, ws, fresh)
    # under SOLVER a place that cannot show the value is no better than a card everyone knows, which
    # shows the table nothing (solver's ties go to such a card)
    if a >= 0 and not (rp[R_POLICY] == SOLVER and ws[7][5, 0] <= 0.0):
        return a, True
    return harmless(st, rp, ws[9]), True


@borrowing
def give(st: np.ndarray, rp: np.ndarray, seat: int, ws: Work) -> int:
    """The card ``seat`` gives its partner at a swap moment under the rollout model (-1: no swap)."""
    partner = rp[R_PARTNER + seat]
    if partner < 0 or st[O_SIZE + seat] == 0 or st[O_SIZE + partner] == 0:
        return -1
    counts = ws[3]
    count, left, seen = counts[1], counts[0], counts[2]
    for v in range(13):
        count[v] = 0
        seen[v] = 0
    base = O_H + seat * HMAX
    for p in range(st[O_SIZE + seat]):
        count[st[base + p]] += 1
    unaccounted(st, rp, seat, left)
    pb = partner * HMAX
    for p in range(st[O_SIZE + partner]):
        if st[O_K + pb + p]:
            seen[st[O_H + pb + p]] += 1
    best = -1
    for v in range(1, 13):
        if count[v] != 1:
            continue
        if best < 0:
            best = v
            continue
        # max by (seen, left, v == 7, -|v - 6.5|), the first of equals kept
        if seen[v] != seen[best]:
            better = seen[v] > seen[best]
        elif left[v] != left[best]:
            better = left[v] > left[best]
        elif (v == 7) != (best == 7):
            better = v == 7
        else:
            better = -abs(v - 6.5) > -abs(best - 6.5)
        if better:
            best = v
    return best


@borrowing
def play_turn(st: np.ndarray, rp: np.ndarray, ws: Work) -> None:
    """Play (or finish) the turn of the seat to move with the rollout model (the empty plan of the
    workspace)."""
    play_turn_plan(st, rp, as_int(NO_ACTION), as_int(0), ws[16], ws)


@borrowing
def play_turn_plan(st: np.ndarray, rp: np.ndarray, first_action: int, offset: int, plan: np.ndarray,
                   ws: Work) -> None:
    """Play the mover's turn: ``first_action`` (-1: the model's) once ``offset`` cards are face up, then
    ``plan[v, k]`` (the ``k``-th reveal after the first once it showed ``v``, -1 past the plan) while
    legal, then the rollout model."""
    start = st[O_TURNS]
    seat = st[O_TOMOVE]
    fresh = as_bool(False)  # whether ws holds the spread of st for the mover (see choose_fresh)
    while st[O_TURNS] == start and st[O_WINNER] < 0:
        made = st[O_NFACE] - offset
        a = -1
        if made <= 0:
            a = first_action
        elif made - 1 < plan.shape[1]:
            a = plan[st[O_FACE], made - 1]
            if a >= 0 and not is_legal(st, rp, a):
                a = -1
        if a < 0:
            a, fresh = choose_fresh(st, rp, ws, fresh)
        if a < 0:
            end_turn(st, rp)
            return
        # a card the mover knew (its own or one every player knows) changes neither the cards it cannot
        # place nor the places they may be in: the spread holds after it
        fresh = fresh and ((a >> 4 != CENTRE and a & 15 == seat) or is_public(st, a))
        apply(st, rp, a)


@borrowing
def playout(st: np.ndarray, rp: np.ndarray, ws: Work) -> int:
    """Play the rollout model to the end; the winner (-1: a draw after :data:`MAX_TURNS` turns). (It calls
    :func:`play_turn_plan` itself, not :func:`play_turn`: one level less of compiled calls, whose
    compile time adds up.)"""
    while st[O_WINNER] < 0 and st[O_TURNS] < MAX_TURNS:
        play_turn_plan(st, rp, as_int(NO_ACTION), as_int(0), ws[16], ws)
    return st[O_WINNER]


# -- randomness ---------------------------------------------------------------------------------------

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)


@compiled
def _mix(z: np.uint64) -> np.uint64:
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@compiled
def stream(seed: np.uint64, index: int) -> np.ndarray:
    """The generator state of deal ``index`` of ``seed`` (a one-element array, advanced by :func:`uniform`)."""
    out = np.empty(1, np.uint64)
    out[0] = _mix(seed ^ _mix(np.uint64(index) * _GOLDEN + _GOLDEN))
    return out


@borrowing
def uniform(state: np.ndarray) -> float:
    """A uniform float in [0, 1) (53 bits) from the SplitMix64 stream ``state``."""
    state[0] += _GOLDEN
    return float(_mix(state[0]) >> _S11) * (1.0 / 9007199254740992.0)


def seed64(seed: int) -> np.uint64:
    """A Python integer seed (any size, any sign) folded into the kernel's 64-bit seed: the hash of its
    decimal digits, or of its bytes beyond 4,000 digits (Python refuses longer decimal conversions)."""
    n = int(seed)
    if n.bit_length() < 13_000:
        text = str(n).encode()
    else:
        text = b"b" + n.to_bytes(n.bit_length() // 8 + 1, "little", signed=True)
    digest = hashlib.blake2b(text, digest_size=8, person=b"trio-deal").digest()
    return np.uint64(int.from_bytes(digest, "little"))


# -- posterior deals ------------------------------------------------------------------------------------

@compiled
def sample_counts(alpha: np.ndarray, strides: np.ndarray, R: int, F: int, final: np.ndarray,
                  comp_off: np.ndarray, comp_x: np.ndarray, comp_rest: np.ndarray, comp_phi: np.ndarray,
                  comp_w: np.ndarray, avoid_off: np.ndarray, avoid: np.ndarray, read: float,
                  placed: np.ndarray, state: np.ndarray, m: np.ndarray, bits: np.ndarray) -> None:
    """One count matrix drawn exactly from the lattice's posterior into ``m[row, value]`` (explicit rows,
    then the implicit one in row ``R`` when there is one): the walk of
    :meth:`trio_solver.infer.beliefs.Beliefs.sample`, backwards from the final state, each value's
    transition chosen with probability proportional to the forward weight of its source. ``bits[b]``
    is set to the value at which tracked swap bit ``b`` flips (the card's value)."""
    D = R + F
    s = final.copy()
    key = np.empty(D, np.int64)
    ncomp = comp_x.shape[0]
    weights = np.empty(max(ncomp, 1))
    for u in range(12, 0, -1):
        c0, c1 = comp_off[u], comp_off[u + 1]
        total = 0.0
        for c in range(c0, c1):
            wt = 0.0
            ok = True
            for i in range(R):
                if s[i] - comp_x[c, i] < 0:
                    ok = False
                    break
            phi = comp_phi[c]
            if ok:
                for b in range(F):
                    if phi >> b & 1 and s[R + b] != 1:
                        ok = False
                        break
            if ok:
                flat = 0
                for i in range(R):
                    flat += (s[i] - comp_x[c, i]) * strides[i]
                for b in range(F):
                    fb = 0 if phi >> b & 1 else s[R + b]
                    flat += fb * strides[R + b]
                wt = alpha[u - 1, flat] * comp_w[c]
                if avoid_off[u + 1] > avoid_off[u]:
                    below = 0
                    for i in range(R):
                        below += s[i] - comp_x[c, i]
                    f = 1.0
                    for e in range(avoid_off[u], avoid_off[u + 1]):
                        i, k1, k2 = avoid[e, 0], avoid[e, 1], avoid[e, 2]
                        if i < R:
                            src = s[i] - comp_x[c, i]
                            xi = comp_x[c, i]
                        else:
                            src = placed[u - 1] - below
                            xi = comp_rest[c]
                        if src <= k1 and src + xi >= k2:
                            f = f * read
                    wt = wt * f
            weights[c - c0] = wt
            total += wt
        r = uniform(state) * total
        acc = 0.0
        pick = -1
        last = -1
        for c in range(c0, c1):
            w = weights[c - c0]
            if w > 0:
                last = c
                acc += w
                if r < acc:
                    pick = c
                    break
        if pick < 0:
            pick = last
        for i in range(R):
            m[i, u] = comp_x[pick, i]
            s[i] -= comp_x[pick, i]
        m[R, u] = comp_rest[pick]
        phi = comp_phi[pick]
        for b in range(F):
            if phi >> b & 1:
                s[R + b] = 0
                bits[b] = u


@compiled
def deal_state(base: np.ndarray, rp: np.ndarray, m: np.ndarray, row_key: np.ndarray, pool_slots: np.ndarray,
               rng: np.ndarray, turn: np.ndarray) -> np.ndarray:
    """A full state: ``base`` (what the viewer knows, unknown cards 0) with the hidden rows filled from the
    count matrix ``m`` (a hand sorted, the pool shuffled into its slots), and the turn in progress
    (``turn``, actions) replayed."""
    st = base.copy()
    cards = np.empty(36, np.int64)
    for r in range(row_key.shape[0]):
        n = 0
        for v in range(1, 13):
            for _ in range(m[r, v]):
                cards[n] = v
                n += 1
        key = row_key[r]
        if key < 0:
            for i in range(n - 1, 0, -1):  # Fisher-Yates, as random.shuffle
                j = int(uniform(rng) * (i + 1))
                t = cards[i]
                cards[i] = cards[j]
                cards[j] = t
            for k in range(pool_slots.shape[0]):
                st[O_C + pool_slots[k]] = cards[k]
        else:
            for p in range(n):
                st[O_H + key * HMAX + p] = cards[p]
    for k in range(turn.shape[0]):
        apply(st, rp, turn[k])
    return st


@inlined
def _outcome(winner: int, rp: np.ndarray, team: int) -> float:
    """1 if ``team`` won, 0 if another side did, 1/sides for a draw."""
    if winner < 0:
        return 1.0 / rp[R_TEAMS]
    return 1.0 if rp[R_TEAMOF + winner] == team else 0.0


@compiled
def unpack(lat_i: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                       np.ndarray]:
    """The parts of a packed lattice's integer array (:class:`trio_solver.infer.lattice.Packed`): after the
    header (R, F, states, transitions, avoid entries), the strides of the state array, the final
    state, the transitions' offsets per value, their implicit counts and flag masks, the avoid
    entries' offsets per value and the cards placed up to each value."""
    D, NC = lat_i[0] + lat_i[1], lat_i[3]
    a = 5
    b = a + D
    c = b + D
    d = c + 14
    e = d + NC
    f = e + NC
    g = f + 14
    return lat_i[a:b], lat_i[b:c], lat_i[c:d], lat_i[d:e], lat_i[e:f], lat_i[f:g], lat_i[g:g + 13]


@inlined
def _count_support(table: np.ndarray, cdims: np.ndarray, n_flag_states: int, lo: np.ndarray, hi: np.ndarray) -> bool:
    """The smallest box of count states (``lo[i]..hi[i]`` per count axis) outside which ``table`` (flat:
    the count axes, then the flag states) is zero; ``False`` when it is zero everywhere."""
    R = cdims.shape[0]
    for i in range(R):
        lo[i] = cdims[i]
        hi[i] = -1
    coords = np.zeros(R, np.int64)
    first = np.zeros(R, np.int64)
    last = cdims - 1
    any_weight = False
    c = 0
    while True:
        nonzero = False
        for m in range(n_flag_states):
            if table[c * n_flag_states + m] != 0.0:
                nonzero = True
                break
        if nonzero:
            any_weight = True
            for i in range(R):
                if coords[i] < lo[i]:
                    lo[i] = coords[i]
                if coords[i] > hi[i]:
                    hi[i] = coords[i]
        c += 1
        if not _next_in_box(coords, first, last):
            return any_weight


@inlined
def _transition_box(t: int, comp_x: np.ndarray, cdims: np.ndarray, src_lo: np.ndarray, src_hi: np.ndarray,
                    dst_lo: np.ndarray, dst_hi: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> bool:
    """The source count states of transition ``t`` whose source lies in the box ``src_lo..src_hi`` and
    whose target in ``dst_lo..dst_hi``, as the box ``lo..hi``; ``False`` when there is none."""
    for i in range(cdims.shape[0]):
        x = comp_x[t, i]
        lo[i] = max(src_lo[i], dst_lo[i] - x)
        hi[i] = min(src_hi[i], dst_hi[i] - x, cdims[i] - 1 - x)
        if lo[i] > hi[i]:
            return False
    return True


@inlined
def _next_in_box(coords: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> bool:
    """Step ``coords`` to the next count state of the box ``lo..hi`` in C order; ``False`` past the last."""
    i = coords.shape[0] - 1
    while i >= 0:
        coords[i] += 1
        if coords[i] <= hi[i]:
            return True
        coords[i] = lo[i]
        i -= 1
    return False


@inlined
def _box_flat(coords: np.ndarray, strides: np.ndarray) -> int:
    """The flat index of the count state ``coords`` with every flag clear."""
    flat = 0
    for i in range(coords.shape[0]):
        flat += coords[i] * strides[i]
    return flat


@inlined
def _flag_offsets(strides: np.ndarray, R: int, F: int) -> np.ndarray:
    """The flat offset of every setting of the ``F`` flag bits (axes ``R`` on, of strides ``strides``)."""
    offsets = np.zeros(1 << F, np.int64)
    for m in range(1 << F):
        for b in range(F):
            if m >> b & 1:
                offsets[m] += strides[R + b]
    return offsets


@inlined
def _read_factor(coords: np.ndarray, t: int, comp_x: np.ndarray, comp_rest: np.ndarray, avoid: np.ndarray,
                 read: float, placed_before: int) -> float:
    """The weight ``read`` per read choice ``avoid[e] = (row, k1, k2)`` that transition ``t`` makes unlikely
    from the count state ``coords``: the row held at most ``k1`` cards up to the value before and holds
    at least ``k2`` after (the implicit row, ``R``, holds ``placed_before`` minus the explicit counts)."""
    R = coords.shape[0]
    below = 0
    for i in range(R):
        below += coords[i]
    factor = 1.0
    for e in range(avoid.shape[0]):
        row, k1, k2 = avoid[e, 0], avoid[e, 1], avoid[e, 2]
        if row < R:
            src = coords[row]
            xi = comp_x[t, row]
        else:
            src = placed_before - below
            xi = comp_rest[t]
        if src <= k1 and src + xi >= k2:
            factor = factor * read
    return factor


@compiled
def carry_table(table: np.ndarray, new: np.ndarray, cdims: np.ndarray, strides: np.ndarray, F: int,
                comp_x: np.ndarray, comp_rest: np.ndarray, comp_phi: np.ndarray, comp_w: np.ndarray,
                avoid: np.ndarray, read: float, placed_before: int, backward: bool) -> None:
    """One value's transitions applied to a lattice table (flat, C order: the count axes ``cdims``, then
    ``F`` flag axes of length 2), added into ``new``: :meth:`trio_solver.infer.lattice.Lattice._carry`
    in floats. Transition ``t`` moves a state's counts up by ``comp_x[t]`` and sets the flag bits
    ``comp_phi[t]`` (clear before it), with weight ``comp_w[t]`` times ``read`` per read choice
    ``avoid[e] = (row, k1, k2)`` it makes unlikely (the row held at most ``k1`` cards up to the value
    before, and at least ``k2`` after; the implicit row, ``R``, holds ``placed_before`` minus the
    explicit counts, and gets ``comp_rest[t]``). Forward, each target sums its sources; ``backward``,
    each source sums its targets."""
    R = cdims.shape[0]
    n_masks = 1 << F
    mask_offset = _flag_offsets(strides, R, F)
    coords = np.zeros(R, np.int64)
    # where the table has weight: the sources forward, the targets backward
    known_lo = np.zeros(R, np.int64)
    known_hi = np.zeros(R, np.int64)
    if not _count_support(table, cdims, n_masks, known_lo, known_hi):
        return
    open_lo = np.zeros(R, np.int64)
    open_hi = cdims - 1
    lo = np.zeros(R, np.int64)
    hi = np.zeros(R, np.int64)
    for t in range(comp_x.shape[0]):
        if backward:
            found = _transition_box(t, comp_x, cdims, open_lo, open_hi, known_lo, known_hi, lo, hi)
        else:
            found = _transition_box(t, comp_x, cdims, known_lo, known_hi, open_lo, open_hi, lo, hi)
        if not found:
            continue
        phi = comp_phi[t]
        free = (n_masks - 1) & ~phi
        shift = mask_offset[phi]
        move = 0
        for i in range(R):
            move += comp_x[t, i] * strides[i]
        w = comp_w[t]
        for i in range(R):
            coords[i] = lo[i]
        flat = _box_flat(coords, strides)
        while True:
            f = w
            if avoid.shape[0] > 0:
                f = w * _read_factor(coords, t, comp_x, comp_rest, avoid, read, placed_before)
            # every flag setting with the bits of phi clear: the submasks of ``free``
            sub = free
            while True:
                a = flat + mask_offset[sub]
                b2 = a + move + shift
                if backward:
                    new[a] += f * table[b2]
                else:
                    new[b2] += f * table[a]
                if sub == 0:
                    break
                sub = (sub - 1) & free
            if not _next_in_box(coords, lo, hi):
                break
            flat = _box_flat(coords, strides)


@compiled
def entry_sums(forward: np.ndarray, backward: np.ndarray, cdims: np.ndarray, strides: np.ndarray, F: int,
               comp_x: np.ndarray, comp_rest: np.ndarray, comp_phi: np.ndarray, comp_w: np.ndarray,
               avoid: np.ndarray, read: float, placed_before: int, placed_now: int, implicit_hand: int
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The weight of one value's transitions split by what end requests can see:
    :meth:`trio_solver.infer.lattice.Lattice._entries` in floats, on the flat tables ``forward`` (the
    forward table of the value before) and ``backward`` (the backward table of this value); the
    transitions and read choices are those of :func:`carry_table`.

    For each transition ``t`` and each category code with weight, in that order (the implicit row's
    category, then the explicit rows' code, ascending), one entry: ``(t, code of the explicit rows
    (4 ** j per row j of those that get cards of the value), implicit category, weight)``. A row's
    category is 1 when the value's cards are its lowest, 2 its highest, 3 its whole hand, else 0; the
    implicit row has one only when it is a hand (``implicit_hand``: its size, else -1) and gets cards."""
    R = cdims.shape[0]
    n_masks = 1 << F
    mask_offset = _flag_offsets(strides, R, F)
    coords = np.zeros(R, np.int64)
    n_bins = 4 ** (R + 1)
    bins = np.zeros(n_bins)
    out_t = []
    out_code = []
    out_imp = []
    out_w = []
    fwd_lo = np.zeros(R, np.int64)
    fwd_hi = np.zeros(R, np.int64)
    bwd_lo = np.zeros(R, np.int64)
    bwd_hi = np.zeros(R, np.int64)
    lo = np.zeros(R, np.int64)
    hi = np.zeros(R, np.int64)
    weighed = _count_support(forward, cdims, n_masks, fwd_lo, fwd_hi) and \
        _count_support(backward, cdims, n_masks, bwd_lo, bwd_hi)
    for t in range(comp_x.shape[0]):
        if not weighed or not _transition_box(t, comp_x, cdims, fwd_lo, fwd_hi, bwd_lo, bwd_hi, lo, hi):
            continue
        phi = comp_phi[t]
        free = (n_masks - 1) & ~phi
        shift = mask_offset[phi]
        move = 0
        moved = 0
        for i in range(R):
            move += comp_x[t, i] * strides[i]
            moved += comp_x[t, i]
        rest = comp_rest[t]
        split = implicit_hand >= 0 and rest > 0
        n_s = 0
        for i in range(R):
            if comp_x[t, i] > 0:
                n_s += 1
        used = 4 ** n_s * 4
        for k in range(used):
            bins[k] = 0.0
        for i in range(R):
            coords[i] = lo[i]
        while True:
            flat = _box_flat(coords, strides)
            total = 0.0
            sub = free
            while True:
                a = flat + mask_offset[sub]
                total += forward[a] * backward[a + move + shift]
                if sub == 0:
                    break
                sub = (sub - 1) & free
            if total != 0.0:
                below = 0
                for i in range(R):
                    below += coords[i]
                if avoid.shape[0] > 0:
                    total = total * _read_factor(coords, t, comp_x, comp_rest, avoid, read, placed_before)
                code = 0
                j = 0
                for i in range(R):
                    if comp_x[t, i] > 0:
                        cat = 0
                        if coords[i] == 0:
                            cat += 1
                        if coords[i] == cdims[i] - 1 - comp_x[t, i]:
                            cat += 2
                        code += cat * 4 ** j
                        j += 1
                imp = 0
                if split:
                    if placed_before - below == 0:
                        imp += 1
                    if placed_now - below - moved == implicit_hand:
                        imp += 2
                bins[imp * 4 ** n_s + code] += total
            if not _next_in_box(coords, lo, hi):
                break
        for k in range(used):
            if bins[k] != 0.0:
                out_t.append(t)
                out_code.append(k % 4 ** n_s)
                out_imp.append(k // 4 ** n_s)
                out_w.append(bins[k] * comp_w[t])
    n = len(out_t)
    ts = np.empty(n, np.int64)
    codes = np.empty(n, np.int64)
    imps = np.empty(n, np.int64)
    ws = np.empty(n)
    for k in range(n):
        ts[k] = out_t[k]
        codes[k] = out_code[k]
        imps[k] = out_imp[k]
        ws[k] = out_w[k]
    return ts, codes, imps, ws


@compiled
def draw_state(lat_f: np.ndarray, lat_i: np.ndarray, lat_comp_x: np.ndarray, lat_avoid: np.ndarray,
          base: np.ndarray, rp: np.ndarray, row_key: np.ndarray, pool_slots: np.ndarray, turn: np.ndarray,
          seed: np.uint64, j: int) -> np.ndarray:
    """The state behind posterior deal ``j`` of ``seed``.

    The lattice comes packed (:class:`trio_solver.infer.lattice.Packed`): ``lat_f`` = the 13 forward
    tables, flat, then the transitions' weights and the read weight; ``lat_i`` = :func:`unpack`'s
    integers; ``lat_comp_x`` the transitions' counts of the explicit rows; ``lat_avoid`` the read
    choices ``(row, k1, k2)``."""
    R, F, N, NC = lat_i[0], lat_i[1], lat_i[2], lat_i[3]
    strides, final, comp_off, comp_rest, comp_phi, avoid_off, placed = unpack(lat_i)
    alpha = lat_f[:13 * N].reshape((13, N))
    comp_w = lat_f[13 * N:13 * N + NC]
    read = lat_f[13 * N + NC]
    rng = stream(seed, j)
    m = np.zeros((R + 1, 13), np.int64)
    bits = np.zeros(max(F, 1), np.int64)
    sample_counts(alpha, strides, R, F, final, comp_off, lat_comp_x, comp_rest, comp_phi, comp_w, avoid_off,
                  lat_avoid, read, placed, rng, m, bits)
    return deal_state(base, rp, m, row_key, pool_slots, rng, turn)


@compiled
def run_outcomes(lat_f: np.ndarray, lat_i: np.ndarray, lat_comp_x: np.ndarray, lat_avoid: np.ndarray,
                 base: np.ndarray, rp: np.ndarray, row_key: np.ndarray, pool_slots: np.ndarray, turn: np.ndarray,
                 seed: np.uint64, deals: np.ndarray, out: np.ndarray) -> None:
    """For each deal index in ``deals``: the rollout model plays the game out; ``out[k, t]`` is 1 for
    the winning side ``t`` (a draw split evenly)."""
    T = rp[R_TEAMS]
    ws = workspace()
    for k in range(deals.shape[0]):
        st = draw_state(lat_f, lat_i, lat_comp_x, lat_avoid, base, rp, row_key, pool_slots, turn, seed, deals[k])
        w = playout(st, rp, ws)
        for t in range(T):
            out[k, t] = _outcome(w, rp, t)


@compiled
def run_tallies(lat_f: np.ndarray, lat_i: np.ndarray, lat_comp_x: np.ndarray, lat_avoid: np.ndarray,
                base: np.ndarray, rp: np.ndarray, row_key: np.ndarray, pool_slots: np.ndarray, turn: np.ndarray,
                seed: np.uint64, deals: np.ndarray, firsts: np.ndarray, plans: np.ndarray,
                strata: np.ndarray, results: np.ndarray) -> int:
    """Each candidate ``c`` (first action ``firsts[c]``, then ``plans[c]`` for the rest of the turn, see
    :func:`play_turn_plan`) on each deal ``deals[k]``: ``strata[c, k]`` is what the mover's turn did (0
    failed, 1 a trio, 2 won the game) and ``results[c, k]`` 1 if the mover's side won the game (a draw
    1/sides). On one deal, candidates that leave the same state after the turn share one playout
    (the model is deterministic). Returns the number of playouts played."""
    C = firsts.shape[0]
    offset = turn.shape[0]
    after = np.empty((C, STATE_SIZE), np.int64)
    ws = workspace()
    played = 0
    for k in range(deals.shape[0]):
        st0 = draw_state(lat_f, lat_i, lat_comp_x, lat_avoid, base, rp, row_key, pool_slots, turn, seed, deals[k])
        mover = st0[O_TOMOVE]
        team = rp[R_TEAMOF + mover]
        before = popcount(st0[O_TR + team])
        for c in range(C):
            st = st0.copy()
            play_turn_plan(st, rp, firsts[c], offset, plans[c], ws)
            if st[O_WINNER] >= 0:
                strata[c, k] = 2
            elif popcount(st[O_TR + team]) > before:
                strata[c, k] = 1
            else:
                strata[c, k] = 0
            after[c] = st
            same = -1
            for d in range(c):
                eq = True
                for x in range(STATE_SIZE):
                    if after[d, x] != st[x]:
                        eq = False
                        break
                if eq:
                    same = d
                    break
            if same >= 0:
                results[c, k] = results[same, k]
            else:
                results[c, k] = _outcome(playout(st, rp, ws), rp, team)
                played += 1
    return played


@compiled
def run_swaps(lat_f: np.ndarray, lat_i: np.ndarray, lat_comp_x: np.ndarray, lat_avoid: np.ndarray,
              base: np.ndarray, rp: np.ndarray, row_key: np.ndarray, pool_slots: np.ndarray, turn: np.ndarray,
              seed: np.uint64, deals: np.ndarray, seat: int, gives: np.ndarray, results: np.ndarray) -> None:
    """At a swap moment: for each option ``gives[c]`` (-1: no swap) and deal ``deals[k]``, ``results[c, k]``
    is 1 if ``seat``'s side wins after giving it to its partner, who gives what the rollout model gives
    (the team swaps when both give a card)."""
    partner = rp[R_PARTNER + seat]
    team = rp[R_TEAMOF + seat]
    ws = workspace()
    for k in range(deals.shape[0]):
        st0 = draw_state(lat_f, lat_i, lat_comp_x, lat_avoid, base, rp, row_key, pool_slots, turn, seed, deals[k])
        back = give(st0, rp, partner, ws)
        for c in range(gives.shape[0]):
            st = st0.copy()
            if gives[c] >= 0 and back >= 0:
                swap(st, seat, partner, gives[c], back)
            results[c, k] = _outcome(playout(st, rp, ws), rp, team)


# -- the policy reading: the likelihood of a deal's past (see trio_solver.decide.reading) -------------

@borrowing
def _knows(st: np.ndarray, seat: int, a: int) -> bool:
    """Whether ``seat`` knows the card action ``a`` shows now (its own end card, or a remembered place)."""
    i = a & 15
    if a >> 4 == CENTRE:
        return bool(st[O_CK + i] != 0)
    if i == seat:
        return True
    return bool(st[O_K + i * HMAX + end_position(st, a)] != 0)


@borrowing
def candidate_of(st: np.ndarray, seat: int, a: int, acts: np.ndarray, n: int) -> int:
    """The index among the model's ``n`` candidates ``acts`` (:func:`trio_solver.start_scores` for
    ``seat``) that the first reveal ``a`` counts as: a card ``seat`` knows is its value's candidate, an
    unseen centre card the centre's, an unknown end its own (the highest card of a hand with one card
    left is its lowest); -1 if none (never for a legal ``a``)."""
    if _knows(st, seat, a):
        v = value_of(st, a)
        for k in range(n):
            if _knows(st, seat, acts[k]) and value_of(st, acts[k]) == v:
                return k
        return -1
    if a >> 4 == CENTRE:
        for k in range(n):
            if acts[k] >> 4 == CENTRE and not _knows(st, seat, acts[k]):
                return k
        return -1
    s = a & 15
    if accessible(st, s) == 1:
        a = LOWEST * 16 + s
    for k in range(n):
        if acts[k] == a:
            return k
    return -1


@borrowing
def start_log_chances(st: np.ndarray, rp: np.ndarray, a: int, inv_temps: np.ndarray, ws: Work,
                      out: np.ndarray) -> None:
    """Add to ``out[t]`` the log of the chance that the seat to move, at the start of its turn, opens with
    ``a`` under the softmax of the model's scores at inverse temperature ``inv_temps[t]`` (0: a uniform
    choice among the candidates); nothing when the model has no candidate for it."""
    seat = st[O_TOMOVE]
    n = start_scores(st, rp, seat, ws)
    acts, scores = ws[12], ws[13]
    j = candidate_of(st, seat, a, acts, n)
    if j < 0:
        return
    top = scores[0]
    for k in range(1, n):
        top = max(top, scores[k])
    for t in range(inv_temps.shape[0]):
        total = 0.0
        for k in range(n):
            total += math.exp((scores[k] - top) * inv_temps[t])
        out[t] += (scores[j] - top) * inv_temps[t] - math.log(total)


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


@borrowing
def history_log_likelihoods(st: np.ndarray, rp: np.ndarray, history: np.ndarray, watch: np.ndarray,
                            inv_temps: np.ndarray, ws: Work, out: np.ndarray) -> None:
    """Replay ``history`` (kernel actions, every reveal since the deal) from the state ``st`` (changed in
    place); ``out[seat, t]`` (set to 0 first) sums :func:`start_log_chances` over the turns ``seat``
    opened, for the seats with ``watch[seat]`` set."""
    out[:] = 0.0
    for k in range(history.shape[0]):
        a = history[k]
        mover = st[O_TOMOVE]
        if st[O_NFACE] == 0 and watch[mover]:
            start_log_chances(st, rp, a, inv_temps, ws, out[mover])
        apply(st, rp, a)


@compiled
def run_log_likelihoods(lat_f: np.ndarray, lat_i: np.ndarray, lat_comp_x: np.ndarray, lat_avoid: np.ndarray,
                        base: np.ndarray, rp: np.ndarray, row_key: np.ndarray, pool_slots: np.ndarray,
                        turn: np.ndarray, seed: np.uint64, deals: np.ndarray, removed: np.ndarray,
                        centre_removed: np.ndarray, first: int, history: np.ndarray, watch: np.ndarray,
                        inv_temps: np.ndarray, out: np.ndarray) -> None:
    """``out[k, seat, t]``: :func:`history_log_likelihoods` on posterior deal ``deals[k]``, from the deal's
    :func:`initial_state`."""
    ws = workspace()
    for k in range(deals.shape[0]):
        cur = draw_state(lat_f, lat_i, lat_comp_x, lat_avoid, base, rp, row_key, pool_slots, turn, seed,
                                deals[k])
        st = initial_state(cur, removed, centre_removed, first, rp[R_PLAYERS])
        history_log_likelihoods(st, rp, history, watch, inv_temps, ws, out[k])


@compiled
def run_turn_values(lat_f: np.ndarray, lat_i: np.ndarray, lat_comp_x: np.ndarray, lat_avoid: np.ndarray,
                    base: np.ndarray, rp: np.ndarray, row_key: np.ndarray, pool_slots: np.ndarray, turn: np.ndarray,
                    seed: np.uint64, deals: np.ndarray, firsts: np.ndarray, plans: np.ndarray,
                    values: np.ndarray) -> None:
    """Each candidate ``c`` (first action ``firsts[c]``, then ``plans[c]``, as
    :func:`trio_solver.run_tallies` plays them) on each deal ``deals[k]``, the mover's turn only:
    ``values[c, k]`` is the value of the trio it took (0: none), negated when the trio won the game."""
    offset = turn.shape[0]
    ws = workspace()
    for k in range(deals.shape[0]):
        st0 = draw_state(lat_f, lat_i, lat_comp_x, lat_avoid, base, rp, row_key, pool_slots, turn, seed,
                                deals[k])
        team = rp[R_TEAMOF + st0[O_TOMOVE]]
        before = st0[O_TR + team]
        for c in range(firsts.shape[0]):
            st = st0.copy()
            play_turn_plan(st, rp, firsts[c], offset, plans[c], ws)
            got = st[O_TR + team] & ~before
            v = 0
            for u in range(1, 13):
                if got >> u & 1:
                    v = u
            values[c, k] = -v if st[O_WINNER] >= 0 else v
