"""The experts: bots that play for the game, not for the turn.

Both judge reveals by playouts to the end of the game on deals drawn exactly from
their posterior (:mod:`trio_solver.decide.evaluate`), with common random numbers
(every candidate on the same deals) and successive halving (the samples go to the
candidates still in the race); on a deal, reveals that leave the game in the same
state after the turn (two cards everyone knows that cannot make a trio, say) share
one playout. Only distinct reveals are raced: one unknown centre card stands for
all of them, since no one has seen any. A certain trio with the best turn score is
taken at once, without a playout (a reveal likely to win the game outright beats a
sure trio that does not win: a trio ends the turn, so the sure one gives the
likely win up).

* ``expert`` (:class:`ExpertBot`) races the distinct reveals whose turn score is
  within :data:`SEARCH_WINDOW` of the best, at the start of a turn and in its
  middle. Its playouts play the ``scoring`` rollout policy
  (:mod:`trio_solver.decide.rollout`: the ``solver`` bot's turn score on counted
  chances), for the opponents and for itself. A window of 0.2, or every reveal,
  measured weaker: the playouts' game values are not good enough to overrule a
  clearly better chance this turn. Without teams it also reads its opponents by
  their first reveals (:mod:`trio_solver.decide.reading`): its turn figures are
  those of the posterior weighted by how likely each deal makes those reveals, and
  its races play deals resampled by that weight, so "certain" and "exact" below
  mean under that posterior. At the start of its turn, an opponent whose reveals
  fit a sharp model is also read by the ``solver`` bot's own choice at its last
  turn start (the exact reading, on a pool of
  :data:`~trio_solver.decide.reading.EXACT_POOL` deals, at tables of at most
  :data:`~trio_solver.decide.reading.EXACT_MAX_PLAYERS` players); an opponent
  whose first reveals the ``memory`` bot's opening rule explains better is read
  by that rule on every turn start of its own (the memory rule).
* ``expert-ties`` (:class:`TiesExpertBot`) takes the exact advisor's evaluations,
  ordered by the turn-level score of ``solver`` without its leak penalty
  (:func:`solver_score`), and races only the reveals that tie with the best (within
  :data:`DEFAULT_WINDOW`, 0 by default), plus the reveal of a card everyone knows
  when it ties; its playouts play the ``counting`` policy. In the middle of a turn it
  follows the advisor's exact plan, except that when every reveal left has less than
  :data:`QUIET_BELOW` chance of a trio it turns a card everyone already knows, so the
  failure teaches the table nothing.

In team play, at a swap moment, both race the three single cards their partner most
likely pairs with (the ``solver``'s order) and no swap, the partner giving what the
rollout policy gives. Both read the opponents' passed-over end cards
(:data:`DEFAULT_READ`, :class:`trio_solver.infer.beliefs.Beliefs`).

The budget is the number of playouts per decision (``budget``), so a decision is
deterministic for a seed whatever the machine's speed. By default it is
:func:`default_budget`: 1920 at 3 players, fewer with more players (their playouts
are longer and they have more reveals), so that a decision takes about the same
time at every table size. ``time_cap`` (seconds, off by default) is a safety net for
a person waiting: counted from the start of the decision (the reading included), the
race is played in batches of :data:`CAP_BATCH` deals and stops at the first batch that
ends past the cap, taking the leader so far; a decision that ends within its cap is
the same as without one.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from .. import _args
from ..infer.beliefs import Beliefs
from ..errors import ViewError
from .evaluate import MAX_SAMPLES, Posterior, Tally, distinct_moves, playout_tallies, swap_outcomes
from ..game.reveal import Reveal
from .reading import EXACT_MAX_PLAYERS, EXACT_POOL, MEMORY_POOL, PolicyReading, readable, sharp_seats
from .rollout import public_memory
from .scoring import bot_order, solver_score
from .search import Advice, Evaluation, advise, check_decision_view
from .swaps import pairing_order
from ..game.view import PlayerView

__all__ = ["ExpertBot", "TiesExpertBot", "CAP_BATCH", "DEFAULT_BUDGET", "DEFAULT_READ", "DEFAULT_WINDOW",
           "SEARCH_WINDOW", "QUIET_BELOW", "bot_order", "default_budget", "solver_score", "check_budget"]

#: Playouts per decision by default at 3 players (see :func:`default_budget`).
DEFAULT_BUDGET = 1920
#: Deals per batch of a race with a time cap: the cap is looked at after each batch.
CAP_BATCH = 64
#: The longest time cap accepted, in seconds.
MAX_TIME_CAP = 3600.0
#: Single cards raced at a swap moment (with no swap), in the solver's order of pairing.
SWAP_OPTIONS = 3
#: At the start of a turn only the reveals whose turn-level score (:func:`solver_score`) is within
#: this of the best are raced; 0: only exact ties (see :meth:`ExpertBot.candidates_of` and the
#: design notes (docs/DESIGN.md)).
DEFAULT_WINDOW = 0.0
#: The ``expert``'s window: reveals within this of the best turn score are raced (chosen on 3-player
#: games against ``solver`` bots, docs/DESIGN.md: 0.03 and 0.1 did as well, 0.2 and every reveal worse).
SEARCH_WINDOW = 0.05
#: The bot's beliefs weigh a deal by this for each choice of an opponent it makes unlikely: an
#: opponent in the middle of its turn asking for another card while its own lowest or highest card
#: has the turn's value (:func:`trio_solver.infer.facts.extract`); measured in the design notes (docs/DESIGN.md).
DEFAULT_READ = 0.02
#: In the middle of a turn, below this chance of a trio a card everyone knows is turned (the failure
#: then shows nothing new); measured in the design notes (docs/DESIGN.md).
QUIET_BELOW = 0.08


def default_budget(players: int) -> int:
    """Playouts per decision by default: :data:`DEFAULT_BUDGET` at 3 players, scaled by (3/players)²
    (1080 at 4, 691 at 5, 480 at 6): a playout is longer with more players, and so is the list of
    distinct reveals, so that a decision takes about the same time at every table size."""
    n = max(players, 3)
    return DEFAULT_BUDGET * 9 // (n * n)


def check_budget(budget: object) -> int:
    """``budget`` if it is a number of playouts per decision (1 to :data:`MAX_SAMPLES`), else :class:`ViewError`."""
    if isinstance(budget, bool) or not isinstance(budget, int) or not 1 <= budget <= MAX_SAMPLES:
        raise ViewError(f"budget must be a number of playouts from 1 to {MAX_SAMPLES}, got {_args.show(budget)}")
    return budget


class TiesExpertBot:
    """``expert-ties``: playouts to the end of the game over exact posterior samples, among the advisor's
    reveals tied on the turn score (the counting rollout policy), the exact plan mid-turn. It does not
    read first reveals unless asked to (``policy_reading=True``)."""

    name = "expert-ties"
    #: The rollout policy of its playouts (:data:`trio_solver.decide.rollout.POLICIES`).
    policy = "counting"
    #: Whether its races read the opponents by their first reveals (:mod:`trio_solver.decide.reading`).
    reads_policy = False
    #: Whether, at a turn start, the reading reads the opponents that play close to ``solver`` by the
    #: ``solver`` bot's own choice (:class:`~trio_solver.decide.reading.PolicyReading`'s ``exact``).
    reads_exactly = False

    def __init__(self, rng: random.Random, *, budget: int | None = None,
                 candidates: int | None = None, window: float | None = DEFAULT_WINDOW,
                 stratify: bool = True, halving: bool = True, read: float | None = DEFAULT_READ,
                 time_cap: float | None = None, policy_reading: bool | None = None,
                 temperature: float | None = None, exact_reading: bool | None = None) -> None:
        """``budget``: playouts per decision (``None``: :func:`default_budget` for the table);
        ``candidates``: how many of the best distinct reveals by the turn score are raced at most
        (``None``, the default: all of them); ``window``: only the reveals whose turn score is within
        this of the best are raced (``None``: every distinct reveal).
        ``stratify`` and ``halving`` switch the two noise reductions off for measurements
        (``benchmarks/expert_noise.py``); the bot always uses both. ``read``: the weight of a deal
        for each opponent's choice it makes unlikely (:class:`~trio_solver.infer.beliefs.Beliefs`'
        ``read``; :data:`DEFAULT_READ`); ``None`` plays on the exact public posterior. ``time_cap``:
        seconds of wall-clock time after which a race stops at the end of its current batch and the
        leader so far is played (``None``, the default: no cap; see the module docstring).
        ``policy_reading``: whether the turn figures and the races use the posterior weighted by the
        opponents' first reveals (:mod:`trio_solver.decide.reading`; ``None``: the class's
        :attr:`reads_policy`), each opponent read at ``temperature`` (``None``: at the temperature
        its own play fits best, or not at all; unused without the reading). ``exact_reading``: whether the
        reading, at a turn start, also reads each opponent read at a temperature below
        :data:`~trio_solver.decide.reading.EXACT_BELOW` by the ``solver`` bot's own choice at its last
        turn start (on a pool of :data:`~trio_solver.decide.reading.EXACT_POOL` deals), and offers every
        opponent the ``memory`` bot's opening rule as its model (on
        :data:`~trio_solver.decide.reading.MEMORY_POOL` deals), at tables of at most
        :data:`~trio_solver.decide.reading.EXACT_MAX_PLAYERS` players (``None``: the class's
        :attr:`reads_exactly`)."""
        self.rng = rng
        self.time_cap = None if time_cap is None else _args.number_in("time_cap", time_cap, 0, MAX_TIME_CAP,
                                                                       ViewError)
        self.budget = None if budget is None else check_budget(budget)
        self.candidates = None if candidates is None else max(1, int(candidates))
        self.window = None if window is None else _args.number_in("window", window, 0, 10, ViewError)
        self.stratify = stratify
        self.halving = halving
        self.quiet_below = QUIET_BELOW
        self.read = _args.read_weight("read", read, ViewError)
        if policy_reading is not None and not isinstance(policy_reading, bool):
            raise ViewError(f"policy_reading: expected true, false or null, got {_args.show(policy_reading)}")
        self.policy_reading = self.reads_policy if policy_reading is None else policy_reading
        if exact_reading is not None and not isinstance(exact_reading, bool):
            raise ViewError(f"exact_reading: expected true, false or null, got {_args.show(exact_reading)}")
        self.exact_reading = self.reads_exactly if exact_reading is None else exact_reading
        self._started: float | None = None  # when the decision under way started (see the time cap)
        self.temperature = (None if temperature is None
                            else _args.number_in("temperature", temperature, 0.001, 1000, ViewError))

    def score(self, view: PlayerView, e: Evaluation) -> float:
        """The turn-level score that orders the reveals (:func:`solver_score`; a subclass may change it,
        as ``benchmarks/solver_variants.py`` does to measure other weights)."""
        return solver_score(view, e)

    def ranked(self, view: PlayerView, advice: Advice | Sequence[Evaluation]) -> list[Evaluation]:
        """The advisor's evaluations, best turn-level score first (ties in the bots' order, :func:`bot_order`)."""
        evaluations = advice.evaluations if isinstance(advice, Advice) else advice
        return sorted(bot_order(view, evaluations), key=lambda e: -round(self.score(view, e), 12))

    def choose_reveal(self, view: PlayerView) -> Reveal:
        check_decision_view(view, True)
        beliefs = Beliefs(view, read=self.read)
        advice = advise(view, "trio", beliefs=beliefs)
        seed = self.rng.getrandbits(32)  # drawn at every decision, so the stream does not depend on the path
        self._started = time.monotonic()  # the time cap counts the reading too
        post, evaluations = self._read(view, beliefs, seed, advice.evaluations)
        ranked = self.ranked(view, evaluations)
        top = round(self.score(view, ranked[0]), 12)
        for e in ranked:  # the best turn scores come first; a likely win beats a sure trio that does not win
            if round(self.score(view, e), 12) < top:
                break
            if e.p_trio >= 1 - 1e-9:  # a sure trio with the best turn score: nothing to search
                return e.reveal
        if view.turn:
            return self._continue(view, ranked, beliefs, seed, post)
        if len(ranked) == 1:
            return ranked[0].reveal
        cands = self.candidates_of(view, ranked)
        if len(cands) == 1:
            return cands[0].reveal
        return self._race(post or Posterior(view, beliefs, self.policy), cands, seed, self._budget_for(view)).reveal

    def _read(self, view: PlayerView, beliefs: Beliefs, seed: int,
              evaluations: Sequence[Evaluation]) -> tuple[Posterior | None, Sequence[Evaluation]]:
        """The policy reading (:mod:`trio_solver.decide.reading`), when the bot reads the opponents that
        way, the game has no teams and there is a choice: the deals its races play on (the posterior's,
        resampled by weight from a pool as large as the budget, with the decision's seed) and the
        evaluations with their turn figures under the read posterior. At a turn start with the exact
        reading on, at a table of at most :data:`~trio_solver.decide.reading.EXACT_MAX_PLAYERS` players,
        every opponent is offered the ``memory`` bot's rule on
        :data:`~trio_solver.decide.reading.MEMORY_POOL` deals. When an opponent read sharply
        (:func:`~trio_solver.decide.reading.sharp_seats`, on the budget's pool) is not taken by the rule,
        it is read exactly, the rule's opponents by the rule, on
        :data:`~trio_solver.decide.reading.EXACT_POOL` deals; else, when the rule takes an opponent, the
        pool is its :data:`~trio_solver.decide.reading.MEMORY_POOL` deals. Otherwise no posterior yet and
        the advisor's evaluations."""
        if not (self.policy_reading and len(evaluations) > 1 and readable(view)):
            return None, evaluations
        post = Posterior(view, beliefs, self.policy)
        reading = PolicyReading(post, self.temperature)
        n = pool = self._budget_for(view)
        if self.exact_reading and not view.turn and view.rules.players <= EXACT_MAX_PLAYERS:
            sharp = sharp_seats(reading.temperatures(seed, range(n)))
            by_rule = PolicyReading(post, self.temperature,
                                    memory=[s for s in range(view.rules.players) if s != view.seat])
            rule_pool = min(MEMORY_POOL, n)
            ruled = by_rule.memory_seats(seed, range(rule_pool))
            seats = [s for s in sharp if s not in ruled]
            if seats:
                reading = PolicyReading(post, self.temperature, exact=seats, memory=ruled, gated=False)
                pool = min(EXACT_POOL, n)
            elif ruled:
                reading, pool = by_rule, rule_pool
        read = reading.reweigh(evaluations, seed, pool)
        post.follow(reading.resample(seed, pool, n))
        return post, read

    def _budget_for(self, view: PlayerView) -> int:
        """Playouts for a decision at ``view``'s table: the bot's budget, else :func:`default_budget`."""
        return self.budget if self.budget is not None else default_budget(view.rules.players)

    def candidates_of(self, view: PlayerView, ranked: list[Evaluation]) -> list[Evaluation]:
        """The reveals raced at the start of a turn: the distinct reveals of ``ranked`` (one unknown
        centre card standing for all) whose turn score is within ``window`` of the best, at most
        ``candidates`` of them, and the best reveal of a card everyone knows if it is within the
        window too (a failure then teaches the table nothing). With one candidate there is no race."""
        memory = public_memory(view)
        distinct = distinct_moves(view, memory, ranked)  # one unseen centre card stands for all
        if self.window is not None:
            floor = self.score(view, distinct[0]) - self.window - 1e-12
            distinct = [e for e in distinct if self.score(view, e) >= floor]
        cands = distinct[: self.candidates]
        quiet = next((e for e in distinct if memory.knows(view, e.reveal)), None)
        if quiet is not None and quiet not in cands:
            cands.append(quiet)  # a failure teaches the table nothing
        return cands

    def _continue(self, view: PlayerView, ranked: list[Evaluation], beliefs: Beliefs, seed: int,
                  post: Posterior | None = None) -> Reveal:
        """Mid-turn: the advisor's best chance, showing as little as possible if the turn fails.

        With no chance of a trio left, or a best chance below :attr:`quiet_below`
        (:data:`QUIET_BELOW`), the best reveal of a card everyone already knows, if there is one:
        the turn is (all but) lost, and the failure then teaches nobody anything. Otherwise, among
        the reveals with the best ``p_win`` and ``p_trio`` (the chance depends only on the set of
        cards still to show, not their order), an uncertain card goes before the mover's own
        card, so a failure leaves the own card hidden.
        """
        top = ranked[0]
        memory = None
        if top.p_trio <= 0 or top.p_trio < self.quiet_below:
            memory = public_memory(view)
            quiet = next((e for e in ranked if memory.knows(view, e.reveal)), None)
            if quiet is not None:
                return quiet.reveal
        ties = [e for e in ranked if abs(e.p_trio - top.p_trio) < 1e-9 and abs(e.p_win - top.p_win) < 1e-9]
        if len(ties) == 1:
            return top.reveal
        known = memory if memory is not None else public_memory(view)

        def own_hidden(e: Evaluation) -> bool:
            return e.reveal.seat == view.seat and not known.knows(view, e.reveal)

        return min(ties, key=lambda e: (own_hidden(e), ranked.index(e))).reveal

    def _race(self, post: Posterior, cands: list[Evaluation], seed: int, budget: int) -> Evaluation:
        """Successive halving with common random numbers: every survivor is played on the same deals
        (reveals that leave the same state after the turn share their playout on a deal)."""
        tallies = [Tally.empty() for _ in cands]

        def play_round(alive: list[int], idx: range) -> dict[int, float]:
            playout_tallies(post, [cands[i] for i in alive], seed, idx, [tallies[i] for i in alive])
            return {i: (tallies[i].estimate(cands[i].p_trio, cands[i].p_win)[0] if self.stratify
                        else tallies[i].mean()) for i in alive}

        return cands[self._halving(len(cands), budget, play_round)]

    def _halving(self, count: int, budget: int,
                 play_round: Callable[[list[int], range], dict[int, float]]) -> int:
        """The index of the best of ``count`` candidates: ``play_round(alive, indices)`` plays the
        candidates ``alive`` on the posterior deals ``indices`` and returns their estimates so far.
        Each round the survivors are played on the same new deals and the better half goes on; ties
        go to the earlier candidate. With :attr:`time_cap` the rounds are played in batches and the
        race ends at the first batch past the cap."""
        alive = list(range(count))
        rounds = max(1, (count - 1).bit_length()) if self.halving else 1
        per_round = budget // rounds
        deadline = None if self.time_cap is None else (self._started or time.monotonic()) + self.time_cap
        self._started = None
        done = 0
        for r in range(rounds):
            share = max(1, per_round // len(alive))
            end = done + share
            late = False
            while done < end:  # one batch, or batches of CAP_BATCH with a cap: the same deals either way
                step = end - done if deadline is None else min(CAP_BATCH, end - done)
                score = play_round(alive, range(done, done + step))
                done += step
                if deadline is not None and time.monotonic() >= deadline:
                    late = True
                    break
            alive.sort(key=lambda i: (-round(score[i], 12), i))
            if late:
                break
            if r < rounds - 1:
                alive = alive[: max(2, (len(alive) + 1) // 2)]
        return alive[0]

    def swap_options(self, view: PlayerView, beliefs: Beliefs | None = None) -> list[int | None]:
        """The swaps raced at a swap moment: the :data:`SWAP_OPTIONS` first single cards of
        :func:`~trio_solver.decide.swaps.pairing_order` (the solver's choice first), then no swap. A card of
        which the seat holds two or three is never given (it would break a pair); with no single
        card the only option is no swap."""
        return [*pairing_order(view, beliefs)[:SWAP_OPTIONS], None]

    def choose_swap(self, view: PlayerView) -> int | None:
        """Race the :meth:`swap_options` by playouts to the end of the game on posterior deals (the
        partner gives what the rollout model gives), with common random numbers; the default budget
        as for a reveal."""
        _args.instance("view", view, PlayerView, ViewError)
        seed = self.rng.getrandbits(32)
        self._started = time.monotonic()
        if view.seat is None or view.rules.partner(view.seat) is None:
            return None
        beliefs = Beliefs(view, read=self.read)
        options = self.swap_options(view, beliefs)
        if len(options) == 1 or not beliefs.consistent:
            return options[0]
        post = Posterior(view, beliefs, self.policy)
        budget = self._budget_for(view)
        outcomes: list[list[float]] = [[] for _ in options]

        def play_round(alive: list[int], idx: range) -> dict[int, float]:
            for i in alive:
                outcomes[i].extend(swap_outcomes(post, options[i], seed, idx))
            return {i: sum(outcomes[i]) / len(outcomes[i]) for i in alive}

        return options[self._halving(len(options), budget, play_round)]


class ExpertBot(TiesExpertBot):
    """``expert``: races the distinct reveals whose turn score is within :data:`SEARCH_WINDOW` of the
    best, at the start of a turn and in its middle, by playouts to the end of the game on common
    posterior deals (successive halving), the opponents and itself played by the ``scoring`` rollout
    policy (the ``solver`` bot's turn score on counted chances). Without teams the turn figures and
    the deals are those of the posterior read from the opponents' first reveals
    (:mod:`trio_solver.decide.reading`), exactly by ``solver``'s choice at a turn start for the
    opponents that play close to it at tables of at most
    :data:`~trio_solver.decide.reading.EXACT_MAX_PLAYERS` players. A certain trio with the best turn
    score is taken without a search; with one candidate in the window it plays as ``expert-ties``."""

    name = "expert"
    policy = "scoring"
    reads_policy = True
    reads_exactly = True

    def __init__(self, rng: random.Random, *, budget: int | None = None, candidates: int | None = None,
                 window: float | None = SEARCH_WINDOW, stratify: bool = True, halving: bool = True,
                 read: float | None = DEFAULT_READ, time_cap: float | None = None,
                 policy_reading: bool | None = None, temperature: float | None = None,
                 exact_reading: bool | None = None) -> None:
        super().__init__(rng, budget=budget, candidates=candidates, window=window, stratify=stratify,
                         halving=halving, read=read, time_cap=time_cap, policy_reading=policy_reading,
                         temperature=temperature, exact_reading=exact_reading)

    def _continue(self, view: PlayerView, ranked: list[Evaluation], beliefs: Beliefs, seed: int,
                  post: Posterior | None = None) -> Reveal:
        """Mid-turn: the reveals within the window raced as at the start of a turn (on ``post``, the read
        deals, when given); with one, the advisor's plan as ``expert-ties`` plays it."""
        cands = self.candidates_of(view, ranked)
        if len(cands) <= 1:
            return super()._continue(view, ranked, beliefs, seed)
        return self._race(post or Posterior(view, beliefs, self.policy), cands, seed, self._budget_for(view)).reveal
