"""The expectimax advisor: every legal next reveal with its exact chances.

A turn takes a trio only if the reveals left all show the same value ``v``
(the value already face up, mid-turn). After the first reveal shows ``v`` the
mover picks the second, and after that shows ``v`` too, the third; so the
chance of a trio with the best continuation is, exactly,

    p_trio(a) = sum over v of  max over the rest {b, c} of  P(a, b and c all show v)

and ``p_win`` is the same sum over the values whose trio wins at once. The joint
probabilities depend only on the *multiset* of requests, so the advisor lists,
for each value, the multisets of sources that can show it (the pool of unseen
centre slots, known slots, each end of each hand, repeated as often as the hand
allows), evaluates them all in one vectorised call on the exact beliefs
(:meth:`trio_solver.infer.beliefs.Beliefs.joint_batch`), and reads off the maxima.
Nothing is sampled.

>>> from trio_solver import Game, Rules
>>> g = Game.deal(Rules(3), seed=4)
>>> advice = advise(g.view(g.to_move))
>>> advice.best.reveal in g.legal_reveals()
True
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from .._args import show as _show
from ..infer.beliefs import Beliefs
from .._json import is_int, json_object
from ..errors import IllegalMoveError, NotationError, RecordError, ViewError
from ..game.knowledge import knowledge
from ..game.reveal import Reveal
from ..game.rules import SEVEN, VALUES, Mode
from ..game.view import PlayerView
from ..kernel import GOAL_WEIGHT, WIN_WEIGHT
from ..words import one_of, percent, pm
from .._display import html_of

__all__ = ["Objective", "TurnObjective", "TURN_OBJECTIVES", "OBJECTIVES", "NOISE_GAPS", "PlanStep", "Evaluation",
           "Advice", "advise", "check_decision_view",
           "turn_score", "live_links", "goal_weights"]

#: What an :class:`Advice` ranks by: the turn's chances (``"turn"``, ``"trio"``, ``"win"``, :func:`advise`)
#: or the chance to win the game (``"game"``, :func:`trio_solver.decide.evaluate.advise_game`).
Objective = Literal["turn", "trio", "win", "game"]
#: The objectives of :func:`advise`, the exact advice within the turn.
TurnObjective = Literal["turn", "trio", "win"]
#: :data:`TurnObjective`'s values, the default first.
TURN_OBJECTIVES: tuple[TurnObjective, ...] = ("turn", "trio", "win")
#: :data:`Objective`'s values, the default first.
OBJECTIVES: tuple[Objective, ...] = (*TURN_OBJECTIVES, "game")
#: A reveal whose chance to win the game lies at most this many times the error of its gap below the
#: first's is not told apart from the first by the playouts (:attr:`Advice.not_told_apart`).
NOISE_GAPS = 2.0

# A source of cards for one value: ("pool", -1), ("slot", i), ("lo", seat), ("hi", seat).
_Token = tuple[str, int]


@dataclass(frozen=True)
class PlanStep:
    """What to do if the evaluated reveal shows ``value``."""

    value: int
    probability: float
    """Chance that the reveal shows ``value``."""
    then: tuple[Reveal, ...]
    """The reveals to make next, in order (empty when no continuation can take a trio)."""
    p_trio: float
    """Chance of the trio once ``value`` is showing, following ``then``."""

    def to_json(self) -> dict[str, Any]:
        """``{"value", "probability", "then": [reveal, ...], "p_trio"}``."""
        return {"value": self.value, "probability": self.probability,
                "then": [r.to_json() for r in self.then], "p_trio": self.p_trio}

    @classmethod
    def from_json(cls, data: Any) -> PlanStep:
        """Read :meth:`to_json`'s form (raises :class:`~trio_solver.errors.RecordError`)."""
        d = json_object(data, "plan step", ("value", "probability", "then", "p_trio"))
        try:
            return cls(_int(d["value"]), _prob(d["probability"]), tuple(Reveal.from_json(r) for r in d["then"]),
                       _prob(d["p_trio"]))
        except (KeyError, TypeError, NotationError) as e:
            raise RecordError("plan step", f"expected value, probability, then and p_trio ({e})") from None


@dataclass(frozen=True)
class Evaluation:
    """One legal reveal, evaluated."""

    reveal: Reveal
    p_trio: float
    """Chance this turn ends with a trio if the mover makes this reveal and then plays for a trio."""
    p_win: float
    """Chance this turn wins the game if the mover makes this reveal and then plays to win."""
    plan: tuple[PlanStep, ...]
    """For each value the reveal may show: the continuation (best for a trio)."""
    known_value: int | None
    """The value this reveal shows for certain (the mover's own card or a known slot), else ``None``."""
    progress: float
    """Tie-break: chance of a trio weighted by how much that trio serves the mode's goal."""
    p_game: float | None = None
    """The mover's chance to win the game after this reveal (set by :func:`trio_solver.decide.evaluate.advise_game`)."""
    p_game_stderr: float | None = None
    """The standard error of ``p_game``."""
    p_game_gap_stderr: float | None = None
    """The standard error of this reveal's shortfall from the first of the ranking (its ``p_game``
    minus this one's), computed deal by deal on the deals both were played out on (usually below
    the two ``p_game_stderr`` combined); 0 for the first and for the reveals that share its playouts."""

    def to_json(self) -> dict[str, Any]:
        """One entry of the ``reveals`` list of the ``advise`` JSON, with its plan (and ``p_game``,
        ``p_game_stderr`` and ``p_game_gap_stderr`` when advised for the game)."""
        out: dict[str, Any] = {"reveal": self.reveal.to_json(), "p_trio": round(self.p_trio, 12),
                               "p_win": round(self.p_win, 12)}
        if self.p_game is not None:
            out["p_game"] = round(self.p_game, 12)
            out["p_game_stderr"] = round(self.p_game_stderr or 0.0, 12)
            out["p_game_gap_stderr"] = round(self.p_game_gap_stderr or 0.0, 12)
        out.update({"known_value": self.known_value, "progress": round(self.progress, 12),
                    "plan": [s.to_json() for s in self.plan]})
        return out

    @classmethod
    def from_json(cls, data: Any) -> Evaluation:
        """Read :meth:`to_json`'s form (raises :class:`~trio_solver.errors.RecordError`)."""
        d = json_object(data, "evaluation", ("reveal", "p_trio", "p_win", "p_game", "p_game_stderr",
                                             "p_game_gap_stderr", "known_value", "progress", "plan"))
        try:
            known = d.get("known_value")
            game = d.get("p_game")
            return cls(Reveal.from_json(d["reveal"]), _prob(d["p_trio"]), _prob(d["p_win"]),
                       tuple(PlanStep.from_json(s) for s in d.get("plan", [])),
                       None if known is None else _int(known), float(d.get("progress", 0.0)),
                       None if game is None else _prob(game),
                       None if game is None else float(d.get("p_game_stderr", 0.0)),
                       None if game is None else float(d.get("p_game_gap_stderr", 0.0)))
        except (KeyError, TypeError, ValueError, NotationError) as e:
            raise RecordError("evaluation", f"expected reveal, p_trio, p_win and plan ({e})") from None

    def __str__(self) -> str:
        """``h5: win now 1.0%, trio 79.9%`` (and ``, win game 12.3% ± 1.0%`` when advised for the game)."""
        text = f"{self.reveal}: win now {percent(self.p_win, 1)}, trio {percent(self.p_trio, 1)}"
        if self.p_game is not None:
            text += f", win game {pm(self.p_game, self.p_game_stderr or 0.0)}"
        return text


@dataclass(frozen=True)
class Advice:
    """The advisor's answer: every legal reveal, best first for ``objective``."""

    seat: int
    objective: Objective
    evaluations: tuple[Evaluation, ...]
    approximate: bool
    turn: tuple[str, ...]

    @property
    def best(self) -> Evaluation:
        """The reveal to make."""
        return self.evaluations[0]

    @property
    def best_value(self) -> Evaluation:
        """The reveal with the highest ``p_trio + p_win`` (a winning trio counts twice); ties in
        the objective's order. This is the reference of :mod:`trio_solver.report.analysis`."""
        return max(self.evaluations, key=lambda e: (round(e.p_trio + e.p_win, 12),
                                                    -self.evaluations.index(e)))

    @property
    def not_told_apart(self) -> tuple[Evaluation, ...]:
        """The reveals after the first, in the ranking's order, whose chance to win the game lies at most
        :data:`NOISE_GAPS` times the error of their gap below the first's (``p_game_gap_stderr``): the
        playouts do not tell them apart from it, and only their chances this turn, which are exact, do.
        A reveal that shares the first's playouts is one of them. Empty unless advised for the game."""
        first = self.best.p_game
        if first is None:
            return ()
        return tuple(e for e in self.evaluations[1:]
                     if first - (e.p_game or 0.0) <= NOISE_GAPS * (e.p_game_gap_stderr or 0.0))

    def _repr_html_(self) -> str:
        """The ranking as a table of percentages, in a notebook (:func:`trio_solver.report.notebook.advice_html`)."""
        return html_of(self)

    def get(self, reveal: Reveal | str) -> Evaluation:
        """The evaluation of one reveal (raises :class:`~trio_solver.errors.IllegalMoveError` if it is
        not legal now)."""
        r = Reveal.from_str(reveal) if isinstance(reveal, str) else reveal
        if not isinstance(r, Reveal):
            raise IllegalMoveError(f"reveal: expected a Reveal or its notation such as 'c3', got {type(r).__name__}")
        for e in self.evaluations:
            if e.reveal == r:
                return e
        raise IllegalMoveError(f"{r!s:.40}: not a legal reveal at this moment")

    def to_json(self) -> dict[str, Any]:
        """The ``advise`` JSON of docs/INTERFACE.md (plus the plan of the best reveal, and the reveals
        :attr:`not_told_apart` from it when advised for the game)."""
        best = self.best
        out: dict[str, Any] = {
            "seat": self.seat,
            "objective": self.objective,
            "approximate": self.approximate,
            "reveals": [e.to_json() for e in self.evaluations],
        }
        if best.p_game is not None:
            out["not_told_apart"] = [e.reveal.to_json() for e in self.not_told_apart]
        out.update({"plan": {"reveal": best.reveal.to_json(), "steps": [s.to_json() for s in best.plan]},
                    "turn": list(self.turn)})
        return out

    @classmethod
    def from_json(cls, data: Any) -> Advice:
        """Read :meth:`to_json`'s form (raises :class:`~trio_solver.errors.RecordError`)."""
        d = json_object(data, "advice", ("seat", "objective", "approximate", "reveals", "not_told_apart", "plan",
                                         "turn"))
        try:
            evaluations = tuple(Evaluation.from_json(e) for e in d["reveals"])
            out = cls(_int(d["seat"]), d["objective"], evaluations, bool(d.get("approximate", False)),
                      tuple(str(t) for t in d.get("turn", [])))
        except (KeyError, TypeError) as e:
            raise RecordError("advice", f"expected seat, objective and reveals ({e})") from None
        if not evaluations:
            raise RecordError("advice.reveals", "empty: advice lists at least one reveal")
        if out.objective not in OBJECTIVES:
            raise RecordError("advice.objective", f"expected {one_of(OBJECTIVES)}, got {_show(out.objective, 40)}")
        return out


def _int(x: Any) -> int:
    if not is_int(x):
        raise TypeError(f"expected an integer, got {_show(x, 40)}")
    return int(x)


def _prob(x: Any) -> float:
    if not isinstance(x, (int, float)) or isinstance(x, bool) or not 0.0 <= x <= 1.0:
        raise TypeError(f"expected a probability, got {_show(x, 40)}")
    return float(x)


def _multisets(tokens: Sequence[_Token], limits: Sequence[int], size: int) -> Iterator[tuple[int, ...]]:
    """Count vectors over ``tokens`` with the given per-token limits and total ``size``."""
    n = len(tokens)
    counts = [0] * n

    def rec(i: int, left: int) -> Iterator[tuple[int, ...]]:
        if left == 0:
            yield tuple(counts)
            return
        if i == n:
            return
        for c in range(min(limits[i], left), -1, -1):
            counts[i] = c
            yield from rec(i + 1, left - c)
        counts[i] = 0

    yield from rec(0, size)


class _Evaluator:
    """Joint probabilities of request multisets for one position."""

    def __init__(self, view: PlayerView, beliefs: Beliefs) -> None:
        self.view = view
        self.b = beliefs
        table = beliefs.facts.table
        self.table = table
        self.me = view.seat
        self.known_slots = beliefs.facts.known_slots
        self.pool_size = len(beliefs.facts.pool_slots)
        self.centre_dist = beliefs.centre()

    def token(self, r: Reveal) -> _Token:
        if r.is_centre:
            return ("slot", r.index) if r.index in self.known_slots else ("pool", -1)
        return ("lo" if r.kind == "lowest" else "hi", r.index)

    def first_prob(self, t: _Token, v: int) -> float:
        kind, i = t
        if kind == "pool":
            pool = self.b.facts.pool_slots
            return self.centre_dist[pool[0]].get(v, 0.0) if pool else 0.0
        if kind == "slot":
            return 1.0 if self.known_slots[i] == v else 0.0
        return self.b.end(Reveal("lowest" if kind == "lo" else "highest", i)).get(v, 0.0)

    def limit(self, t: _Token, k: int) -> int:
        kind, i = t
        if kind == "pool":
            return min(k, self.pool_size)
        if kind == "slot":
            return 1
        return min(k, self.table.accessible(i))

    def probabilities(self, v: int, tokens: Sequence[_Token], sets: list[tuple[int, ...]]) -> np.ndarray:
        """P(every request of each multiset shows ``v``), for each multiset (counts over ``tokens``)."""
        D = len(sets)
        R = self.b.n_rows
        lows = np.zeros((D, R), dtype=np.int64)
        highs = np.zeros((D, R), dtype=np.int64)
        pool = np.zeros(D, dtype=np.int64)
        det = np.ones(D)
        for d, counts in enumerate(sets):
            lo: dict[int, int] = {}
            hi: dict[int, int] = {}
            slots: list[int] = []
            n_pool = 0
            for (kind, i), c in zip(tokens, counts):
                if not c:
                    continue
                if kind == "pool":
                    n_pool = c
                elif kind == "slot":
                    slots.append(i)
                elif kind == "lo":
                    lo[i] = c
                else:
                    hi[i] = c
            got = self.b.demands(v, lo, hi, slots, n_pool)
            if got is None:
                det[d] = 0.0
                continue
            demands, pool[d] = got
            for seat, (a, b) in demands.items():
                row = self.b.row_of_seat(seat)
                assert row is not None
                lows[d, row] = a
                highs[d, row] = b
        keep = det > 0
        out = np.zeros(D)
        if keep.any():
            out[keep] = self.b.joint_batch(v, lows[keep], highs[keep], pool[keep])
        return out * det


def _goal_weight(view: PlayerView, seat: int, v: int, win_values: frozenset[int]) -> float:
    """How much a trio of ``v`` serves the goal, for tie-breaks: 1 for a win; in Picante, by live links."""
    if v in win_values:
        return 1.0
    rules = view.rules
    if rules.mode is Mode.SIMPLE:
        return 0.5
    return 0.25 * len(live_links(view, v))


def goal_weights(view: PlayerView, seat: int) -> list[float]:
    """For each value (index 0 unused, 0.0): how much a trio of it serves ``seat``'s goal, the weight of
    :attr:`Evaluation.progress`."""
    win_values = view.rules.winning_values(view.team_trios(seat))
    return [0.0] + [_goal_weight(view, seat, v, win_values) for v in range(1, 13)]


def live_links(view: PlayerView, v: int) -> list[int]:
    """Picante: the values linked to ``v`` (a sum or difference of 7) whose trio no one has taken yet,
    7 left out (a trio of 7s wins alone): the trios that a trio of ``v`` could still pair with."""
    taken = {x for t in view.trios for x in t}
    return [w for w in view.rules.link_graph.neighbors(v) if w not in taken and w != SEVEN]


def check_decision_view(view: object, reveal: bool) -> None:
    """Raise :class:`~trio_solver.errors.ViewError` unless ``view`` is a position a bot can decide in: a
    :class:`PlayerView`, and for a reveal (``reveal``) one of a game not over with a card still in play."""
    if not isinstance(view, PlayerView):
        raise ViewError(f"view: expected a PlayerView, got {type(view).__name__}")
    if reveal and view.over:
        raise ViewError(f"view: the game is over (seat {view.winner} won): there is no reveal to choose")
    if reveal and _no_card_left(view):
        raise ViewError("view: no card is left in play (a position built by hand): there is no reveal to choose")


def _no_card_left(view: PlayerView) -> bool:
    """Whether no card is in play (a position built by hand whose last trio took every card)."""
    return not any(view.sizes) and not any(view.centre_present)


def advise(view: PlayerView, objective: TurnObjective = "turn", *, beliefs: Beliefs | None = None) -> Advice:
    """Evaluate every legal reveal for the seat to move, on its own exact beliefs.

    ``"turn"`` (the default) ranks by :func:`turn_score`, the worth of the turn: a win now counts
    three times, a trio once, and a trio that brings the goal nearer a little more (the score the
    ``solver`` and ``expert`` bots open with). ``"trio"`` ranks by the chance of a trio first, then of
    a win; ``"win"`` by the chance to win the game this turn first, however small, then of a trio.
    Exact ties go to the higher chance of a win, then of a trio, then to the trio that serves the
    goal more, then to a card every player already knows (a failure shows nothing new), and the
    mover's own card that the table does not know comes last (a failure would show it).

    ``view`` must be the view of the seat to move (its hand known). Raises
    :class:`~trio_solver.errors.ViewError` otherwise, when the game is over or no card is left, for an ``objective``
    other than those of :data:`TURN_OBJECTIVES`, or ``beliefs`` that are not the :class:`Beliefs` of
    ``view``.
    """
    if not isinstance(view, PlayerView):
        raise ViewError(f"view: expected a PlayerView, got {type(view).__name__}")
    if not isinstance(objective, str) or objective not in TURN_OBJECTIVES:
        raise ViewError(f"objective: expected {one_of(TURN_OBJECTIVES)}, got {_show(objective)}")
    if beliefs is not None and (not isinstance(beliefs, Beliefs) or beliefs.view != view):
        raise ViewError("beliefs: expected None or the Beliefs of this view")
    if view.over:
        raise ViewError(f"the game is over (seat {view.winner} won): there is nothing to advise")
    if _no_card_left(view):
        raise ViewError("no card is left in play (a position built by hand): there is nothing to advise")
    if view.seat is None or view.hand is None:
        raise ViewError(f"advice is for the seat to move (seat {view.to_move}); a spectator has no hand")
    if view.seat != view.to_move:
        raise ViewError(f"advice is for the seat to move (seat {view.to_move}), not seat {view.seat}")
    b = beliefs if beliefs is not None else Beliefs(view)
    if not b.consistent:
        raise ViewError("no deal fits this view: the record contradicts itself")
    ev = _Evaluator(view, b)
    seat = view.seat
    face = view.turn
    k = 3 - len(face)
    legal = view.legal_reveals()
    win_values = view.rules.winning_values(view.team_trios(seat))
    values = [face[0].value] if face else list(VALUES)
    tokens_all: list[_Token] = []
    for r in legal:
        t = ev.token(r)
        if t not in tokens_all:
            tokens_all.append(t)
    # best[t][v] = (probability, best multiset) over multisets of size k containing t
    best: dict[_Token, dict[int, tuple[float, dict[_Token, int]]]] = {t: {} for t in tokens_all}
    pair: dict[int, dict[frozenset[tuple[_Token, int]], float]] = {}
    first: dict[_Token, dict[int, float]] = {t: {} for t in tokens_all}
    for v in values:
        cands = []
        for t in tokens_all:
            p = ev.first_prob(t, v)
            if p > 0:
                first[t][v] = p
                cands.append(t)
        if not cands:
            continue
        limits = [ev.limit(t, k) for t in cands]
        sets = list(_multisets(cands, limits, k))
        if not sets:
            continue
        probs = ev.probabilities(v, cands, sets)
        for counts, p in zip(sets, probs):
            if p <= 0:
                continue
            ms = {t: c for t, c in zip(cands, counts) if c}
            for t in ms:
                cur = best[t].get(v)
                if cur is None or p > cur[0] + 1e-15:
                    best[t][v] = (float(p), ms)
        if k == 3:
            # pairs, to order the two remaining reveals of a plan (the likelier continuation first)
            psets = list(_multisets(cands, [min(x, 2) for x in limits], 2))
            pprobs = ev.probabilities(v, cands, psets)
            pair[v] = {frozenset((t, c) for t, c in zip(cands, cs) if c): float(p) for cs, p in zip(psets, pprobs)}
    evaluations = []
    for r in legal:
        t = ev.token(r)
        p_trio = float(sum(p for p, _ in best[t].values()))
        p_win = float(sum(p for v, (p, _) in best[t].items() if v in win_values))
        progress = sum(p * _goal_weight(view, seat, v, win_values) for v, (p, _) in best[t].items())
        plan = []
        for v in sorted(first[t]):
            pv = first[t][v]
            if v in best[t]:
                p, ms = best[t][v]
                then = _order_rest(ev, r, t, ms, v, pair.get(v), legal)
                plan.append(PlanStep(v, pv, then, p / pv if pv > 0 else 0.0))
            else:
                plan.append(PlanStep(v, pv, (), 0.0))
        known = ev.b.end(r) if not r.is_centre else ev.centre_dist.get(r.index, {})
        known_value = next(iter(known)) if len(known) == 1 else None
        evaluations.append(Evaluation(r, min(p_trio, 1.0), min(p_win, 1.0), tuple(plan), known_value, progress))

    public = knowledge(view, spectator=True)

    def key(e: Evaluation) -> tuple[float, ...]:
        main, other = (e.p_trio, e.p_win) if objective == "trio" else (e.p_win, e.p_trio)
        score = turn_score(view, e) if objective == "turn" else 0.0
        quiet = public.public_value(view, e.reveal) is not None
        own_hidden = e.reveal.seat == seat and not quiet
        return (-round(score, 12), -round(main, 12), -round(other, 12), -round(e.progress, 12), -quiet, own_hidden)

    order = {r: i for i, r in enumerate(legal)}
    evaluations.sort(key=lambda e: (key(e), order[e.reveal]))
    return Advice(seat, objective, tuple(evaluations), b.approximate, tuple(str(x) for x in face))


def turn_score(view: PlayerView, e: Evaluation) -> float:
    """The worth of a reveal for its turn, which the ``"turn"`` objective ranks by:
    ``3 p_win + p_trio + 0.5 progress / goal``, where ``goal`` is the number of trios the mover's side
    still needs (:meth:`~trio_solver.game.rules.Rules.goal_distance`)."""
    goal = view.rules.goal_distance(view.team_trios(view.seat or 0))
    return WIN_WEIGHT * e.p_win + e.p_trio + GOAL_WEIGHT * e.progress / max(goal, 1)


def _order_rest(ev: _Evaluator, r: Reveal, t: _Token, ms: dict[_Token, int], v: int,
                pairs: dict[frozenset[tuple[_Token, int]], float] | None,
                legal: Sequence[Reveal]) -> tuple[Reveal, ...]:
    """Concrete reveals for the rest of a best multiset, likelier continuation first."""
    rest = dict(ms)
    rest[t] -= 1
    if not rest[t]:
        del rest[t]
    toks = [x for x, c in rest.items() for _ in range(c)]
    if len(toks) == 2 and pairs is not None and toks[0] != toks[1]:
        def pair_p(x: _Token) -> float:
            key: dict[_Token, int] = {t: 1}
            key[x] = key.get(x, 0) + 1
            return pairs.get(frozenset(key.items()), 0.0)
        toks.sort(key=lambda x: (-pair_p(x), 0 if x[1] == ev.me else 1))
    used = {r.index} if r.is_centre else set()
    out: list[Reveal] = []
    up = ev.table.centre_up
    pool_slots = [s for s in ev.b.facts.pool_slots if not up[s]]
    for kind, i in toks:
        if kind == "pool":
            slot = next(s for s in pool_slots if s not in used)
            used.add(slot)
            out.append(Reveal.centre(slot))
        elif kind == "slot":
            used.add(i)
            out.append(Reveal.centre(i))
        else:
            out.append(Reveal("lowest" if kind == "lo" else "highest", i))
    return tuple(out)
