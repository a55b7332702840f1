"""The policy reading (trio_solver.decide.reading): a deal's past rebuilt and replayed, the likelihood of
the first reveals against an independent computation with the engine and the reference model, and
the weighted posterior against a brute force over every deal."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator

import numpy as np
import pytest
from helpers_positions import brute_force, collect_small_positions, random_game
from reference_rollout import CENTRE, HIGHEST, LOWEST, ReferenceSim

from trio_solver import Game, Mode, Rules
from trio_solver import kernel
from trio_solver.decide.evaluate import Posterior, plan_array
from trio_solver.decide.bots import MemoryBot, make_bot
from trio_solver.decide.memory import Memory, memory_openings
from trio_solver.decide import expert
from trio_solver.decide import reading as reading_module
from trio_solver.decide.expert import ExpertBot
from trio_solver.decide.reading import (DEFAULT_TEMPERATURE, EXACT, EXACT_BELOW, EXACT_MAX_PLAYERS, EXACT_MISS,
                                       EXACT_POOL, MEMORY, MEMORY_POOL, PolicyReading, TEMPERATURES, _same_move,
                                       readable, sharp_seats)
from trio_solver.kernel import initial_state
from trio_solver.decide.rollout import Sim, public_memory, to_action
from trio_solver.decide.search import Evaluation, advise
from trio_solver.errors import ViewError
from trio_solver.game.events import Turn
from trio_solver.game.reveal import Reveal
from trio_solver.game.view import PlayerView

NO_TEAMS = [Rules(n, m) for n in (3, 4, 5, 6) for m in (Mode.SIMPLE, Mode.PICANTE)]


def _position(rules: Rules, seed: int, reveals: int) -> tuple[Game, PlayerView]:
    rng = random.Random(seed)
    game = random_game(rules, rng, reveals, trio_rate=0.4)
    seat = rng.choice([None, *range(rules.players)])
    return game, game.view(seat)


def dealt_of(view: PlayerView, hands: list[list[int]], centre: list[int | None]) -> tuple[list[list[int]], list[int]]:
    """The deal behind current ``hands``/``centre`` of a game without teams: every card a trio took goes back
    where it came from (written apart from the library, from the events)."""
    dealt = [sorted(h) for h in hands]
    back: list[int | None] = list(centre)
    for e in view.events:
        if isinstance(e, Turn) and len(e.reveals) == 3 and len({r.value for r in e.reveals}) == 1:
            for r in e.reveals:
                if r.reveal.is_centre:
                    back[r.reveal.index] = r.value
                else:
                    dealt[r.reveal.index] = sorted(dealt[r.reveal.index] + [r.value])
    assert all(c is not None for c in back)
    return dealt, [c for c in back if c is not None]


def reference_log_likelihood(view: PlayerView, hands: list[list[int]], centre: list[int | None],
                             temperature: float) -> float:
    """The log-likelihood of the watched first reveals on one current deal: the engine replays the game from
    the deal, and at each watched turn start the reference model scores its candidates from the mover's
    side; the choice counts as its candidate (a known card as its value's, an unseen centre card as the
    centre's) under a softmax at ``temperature``."""
    dealt, centre0 = dealt_of(view, hands, centre)
    game = Game.from_deal(view.rules, dealt, centre0, view.first_player)
    total = 0.0
    for e in view.events:
        assert isinstance(e, Turn)
        for j, (r, v) in enumerate(e.reveals):
            if j == 0 and e.seat != view.seat:
                spect = game.view(None)
                sim = ReferenceSim.from_view(spect, public_memory(spect), [list(h) for h in game.hands],
                                             list(game.centre), "scoring")
                cands = sim.start_scores(e.seat)
                a = to_action(r)
                value = sim.knows(e.seat, a)
                if value is not None:
                    picks = [k for k, (c, _) in enumerate(cands) if sim.knows(e.seat, c) == value]
                elif a[0] == CENTRE:
                    picks = [k for k, (c, _) in enumerate(cands) if c[0] == CENTRE and sim.knows(e.seat, c) is None]
                else:
                    h = game.hands[a[1]]
                    lo, hi = game.view(None).used(a[1])
                    a = (LOWEST, a[1]) if len(h) - lo - hi == 1 and a[0] == HIGHEST else a
                    picks = [k for k, (c, _) in enumerate(cands) if c == a]
                assert len(picks) == 1, (cands, a)
                scores = [s / temperature for _, s in cands]
                top = max(scores)
                total += scores[picks[0]] - top - math.log(sum(math.exp(s - top) for s in scores))
            assert game.peek(r) == v
            game.reveal(r)
    return total


def _current(sim: object) -> tuple[list[list[int]], list[int | None]]:
    hands = [list(h) for h in sim.hands]  # type: ignore[attr-defined]
    centre = list(sim.centre)  # type: ignore[attr-defined]
    return hands, [None if c is None or c < 0 else c for c in centre]


@pytest.mark.parametrize("rules", NO_TEAMS, ids=str)
def test_a_deals_past_replays_into_the_deal(rules: Rules) -> None:
    """The deal rebuilt from a posterior deal (its hands and the cards trios took), replayed by the kernel
    along the public history, ends in that deal: the same hands, what the table remembers, the centre."""
    for seed in range(3):
        game, view = _position(rules, seed, 25 + 7 * seed)
        if game.over:
            continue
        post = Posterior(view, policy="scoring")
        reading = PolicyReading(post, DEFAULT_TEMPERATURE)
        args = post._args(seed)
        for j in range(15):
            cur = kernel.draw_state(*args, j)
            st = initial_state(cur, reading.removed, reading.centre_removed, view.first_player, rules.players)
            for a in reading.history:
                kernel.apply(st, reading.rules, int(a))
            # everything but the count of turns played: hands, what the table remembers, the centre, the
            # trios, the seat to move, the winner and the turn in progress
            assert np.array_equal(st[:kernel.O_TURNS], cur[:kernel.O_TURNS]), (rules, seed, j)


@pytest.mark.parametrize("rules", NO_TEAMS, ids=str)
def test_the_likelihood_equals_the_engine_and_the_reference_model(rules: Rules) -> None:
    """On posterior deals of random positions (every viewer, turns in progress): the kernel's log-likelihood
    of the first reveals equals the one computed with the engine's replay and the reference model."""
    checked = 0
    for seed in range(2):
        game, view = _position(rules, 100 + seed, 20 + 11 * seed)
        if game.over:
            continue
        post = Posterior(view, policy="scoring")
        for t in (DEFAULT_TEMPERATURE, 0.5):
            reading = PolicyReading(post, t)
            got = reading.log_likelihoods(seed, range(6))
            for j in range(6):
                hands, centre = _current(post.sim(seed, j))
                want = reference_log_likelihood(view, hands, centre, t)
                assert got[j] == pytest.approx(want, abs=1e-9), (rules, seed, j, t)
                checked += 1
    assert checked >= 12


def test_the_weighted_posterior_matches_a_brute_force_over_deals() -> None:
    """Small positions: every deal that fits the view (enumerated apart from the beliefs), weighted by the
    reference likelihood of the first reveals, gives each hidden place's chances; the library's weights
    on sampled deals estimate the same chances (within 4.5 standard errors of the weighted mean)."""
    positions = collect_small_positions(60, max_hidden=7, min_hidden=3, seed=17, mid_turn_rate=0.3,
                                        rules_pool=tuple(NO_TEAMS))
    checked = moved = 0
    for game, seat in positions:
        view = game.view(seat)
        if view.over or not readable(view):
            continue
        bf = brute_force(view, limit=4000)
        if bf is None or len(bf.placements) < 2:
            continue
        post = Posterior(view, policy="scoring")
        reading = PolicyReading(post, DEFAULT_TEMPERATURE)
        exact: dict[tuple[int, int], Counter[int]] = {}
        plain: dict[tuple[int, int], Counter[int]] = {}
        lw = [reference_log_likelihood(view, [list(h) for h in p.hands], list(p.centre), DEFAULT_TEMPERATURE)
              for p, _ in bf.placements]
        top = max(lw)
        weights = [w * math.exp(x - top) for (_, w), x in zip(bf.placements, lw)]
        places = [(s, 0) for s in range(view.rules.players) if s != seat and view.sizes[s]]
        z = sum(weights)
        zb = sum(w for _, w in bf.placements)
        for (p, wb), w in zip(bf.placements, weights):
            for s, k in places:
                exact.setdefault((s, k), Counter())[p.hands[s][k]] += w / z
                plain.setdefault((s, k), Counter())[p.hands[s][k]] += wb / zb
        n = 3000
        sw = reading.weights(checked, range(n))
        for (s, k), dist in exact.items():
            vals = np.array([post.sim(checked, j).hands[s][k] for j in range(n)])
            for v, want in dist.items():
                x = (vals == v).astype(float)
                est = float((sw * x).sum())
                se = math.sqrt(float((sw ** 2 * (x - est) ** 2).sum()))
                assert abs(est - want) <= 4.5 * se + 1e-3, (view, s, v, est, want, se)
                moved += abs(want - plain[(s, k)][v]) > 0.05
        checked += 1
        if checked == 5:
            break
    assert checked >= 4
    assert moved >= 1  # the reading changes some chances: the test compares weighted deals, not plain ones


def test_the_read_turn_figures_match_a_brute_force() -> None:
    """Small positions seen by the mover: each reveal's chance of a trio under the read posterior (every deal
    that fits, weighted by the reference likelihood, its turn played with the advisor's plan) against
    :meth:`PolicyReading.reweigh` (within 4.5 standard errors of its correction); a certain figure stays
    certain."""
    positions = collect_small_positions(40, max_hidden=7, min_hidden=3, seed=23, mid_turn_rate=0.3,
                                        rules_pool=tuple(NO_TEAMS), accept=lambda g, s: s == g.to_move)
    checked = moved = 0
    for game, seat in positions:
        view = game.view(seat)
        bf = None if view.over else brute_force(view, limit=4000)
        if bf is None or len(bf.placements) < 2:
            continue
        post = Posterior(view, policy="scoring")
        reading = PolicyReading(post, DEFAULT_TEMPERATURE)
        evals = advise(view, "trio", beliefs=post.beliefs).evaluations[:4]
        lw = [reference_log_likelihood(view, [list(h) for h in p.hands], list(p.centre), DEFAULT_TEMPERATURE)
              for p, _ in bf.placements]
        top = max(lw)
        weights = [w * math.exp(x - top) for (_, w), x in zip(bf.placements, lw)]
        memory = public_memory(view)
        team = view.rules.team_of(view.seat)
        n = 2000
        sw = reading.weights(checked, range(n))
        read = reading.reweigh(evals, checked, n)
        for e, r in zip(evals, read):
            trio = []
            for p, _ in bf.placements:
                sim = Sim.from_view(view, memory, p.hands, p.centre, "scoring")
                before = len(sim.trios[team])
                sim.play_plan(to_action(e.reveal), len(view.turn), plan_array(e))
                trio.append(float(len(sim.trios[team]) > before))
            plain = sum(t * w for t, (_, w) in zip(trio, bf.placements)) / sum(w for _, w in bf.placements)
            assert plain == pytest.approx(e.p_trio, abs=1e-9)  # the plan's turn, played deal by deal, is exact
            want = sum(t * w for t, w in zip(trio, weights)) / sum(weights)
            moved += abs(want - plain) > 0.02
            if e.p_trio in (0.0, 1.0):
                assert r.p_trio == e.p_trio
                continue
            x = np.array([float(v) for v in _turn_trios(post, checked, n, e)])
            # the correction's error: each deal's term in the weighted mean minus its term in the plain one
            terms = sw * (x - float(sw @ x)) - (x - float(x.mean())) / n
            se = math.sqrt(float((terms ** 2).sum()))
            assert abs(r.p_trio - want) <= 4.5 * se + 2e-3, (view, e.reveal, r.p_trio, want, se)
        checked += 1
        if checked == 5:
            break
    assert checked >= 4
    assert moved >= 1  # the reading moves some figure: the test compares read figures, not plain ones


def _turn_trios(post: Posterior, seed: int, n: int, e: Evaluation) -> list[bool]:
    """Whether the mover's turn takes a trio on each of the first ``n`` posterior deals (the plan of ``e``)."""
    out = []
    team = post.view.rules.team_of(post.view.to_move)
    for j in range(n):
        sim = post.sim(seed, j)
        before = len(sim.trios[team])
        sim.play_plan(to_action(e.reveal), len(post.view.turn), plan_array(e))
        out.append(len(sim.trios[team]) > before)
    return out


def test_the_reading_refuses_team_play_and_bad_arguments() -> None:
    team = Game.deal(Rules(4, teams=True), seed=1)
    with pytest.raises(ViewError, match="without teams"):
        PolicyReading(Posterior(team.view(0)))
    game = Game.deal(Rules(3), seed=1)
    post = Posterior(game.view(0))
    for bad in (0, -1.0, float("nan"), True, "0.1", 10**9):
        with pytest.raises(ViewError, match="temperature"):
            PolicyReading(post, bad)  # type: ignore[arg-type]
    with pytest.raises(ViewError, match="Posterior"):
        PolicyReading(game.view(0))  # type: ignore[arg-type]
    for bad_map in (np.zeros(0, np.int64), [], ["a"], None, {1: 2}, [2**63], [1.7], [True, False], [-1],
                    np.array([0.5])):
        with pytest.raises(ViewError, match="deal_map"):
            post.follow(bad_map)  # type: ignore[arg-type]
    with pytest.raises(ViewError, match="policy_reading"):
        ExpertBot(random.Random(0), policy_reading="yes")  # type: ignore[arg-type]
    for bad in (0, float("inf"), "1"):
        with pytest.raises(ViewError, match="temperature"):
            ExpertBot(random.Random(0), temperature=bad)  # type: ignore[arg-type]
    reading = PolicyReading(Posterior(game.view(game.to_move)))
    for deals in (range(0, 6, 2), range(-1, 3), [0, 1]):
        with pytest.raises(ViewError, match="deals"):
            reading.weights(0, deals)  # type: ignore[arg-type]
    for pool in (0, -3, 1.5, 10**9):
        with pytest.raises(ViewError, match="pool"):
            reading.resample(0, pool, 10)  # type: ignore[arg-type]
        with pytest.raises(ViewError, match="pool"):
            reading.reweigh([], 0, pool)  # type: ignore[arg-type]
    with pytest.raises(ViewError, match="size"):
        reading.resample(0, 10, 0)


def test_a_followed_posterior_plays_the_mapped_deals() -> None:
    """After :meth:`Posterior.follow`, position ``j`` is deal ``map[j % len(map)]`` for the deals, the outcomes,
    the reading's weights; the map is a copy."""
    game, view = _position(Rules(3), 7, 20)
    post = Posterior(view, policy="scoring")
    plain = post.outcomes(5, range(12))
    reading = PolicyReading(post, DEFAULT_TEMPERATURE)
    ll = reading.log_likelihoods(5, range(12))
    deal_map = np.array([7, 3, 3, 11], dtype=np.int64)
    post.follow(deal_map)
    deal_map[0] = 0
    mapped = post.outcomes(5, range(6))
    want = [7, 3, 3, 11, 7, 3]
    assert np.array_equal(mapped, plain[want])
    assert post.sim(5, 4).hands == post.sim(5, 0).hands
    assert np.allclose(reading.log_likelihoods(5, range(6)), ll[want])


def test_resampled_deals_follow_the_weights_and_the_seed() -> None:
    """The resampled deals are deals of the pool, as often as their weights say (systematic resampling:
    within one of the expected count), and the same for the same seed."""
    rng = random.Random(4)
    game = random_game(Rules(4), rng, 40, trio_rate=0.3)
    view = game.view(1)
    reading = PolicyReading(Posterior(view, policy="scoring"), DEFAULT_TEMPERATURE)
    idx = reading.resample(3, 400, 400)
    assert np.array_equal(idx, reading.resample(3, 400, 400))
    w = reading.weights(3, range(400))
    counts = np.bincount(idx, minlength=400)
    assert np.all(np.abs(counts - 400 * w) <= 1.0 + 1e-9)
    assert np.all(counts[w == 0] == 0)
    with pytest.raises(ValueError):
        w[0] = 1.0  # the weights handed out are read-only: a caller cannot change the cached ones
    # a very high temperature reads almost nothing: the weights are nearly even
    flat = PolicyReading(Posterior(view, policy="scoring"), 1000.0)
    assert flat.effective_size(3, 400) > 0.99 * 400 > reading.effective_size(3, 400)


def test_each_player_is_read_at_the_temperature_its_play_fits() -> None:
    """Opponents that play close to the model (``solver`` bots) are read; players that reveal at random are
    mostly not (a uniform choice among the model's candidates explains them better)."""
    read = {}
    for bot in ("solver", "random"):
        seats = []
        for seed in range(6):
            rules = Rules(3 + seed % 2, Mode.SIMPLE if seed % 3 else Mode.PICANTE)
            game = Game.deal(rules, seed=seed)
            bots = [make_bot(bot, random.Random(seed * 7 + s)) for s in range(rules.players)]
            for _ in range(30):
                if game.over:
                    break
                game.reveal(bots[game.to_move].choose_reveal(game.view(game.to_move)))
            if game.over:
                continue
            chosen = PolicyReading(Posterior(game.view(0), policy="scoring")).temperatures(0, range(500))
            assert chosen[0] is None and all(t is None for t in chosen[rules.players:])  # the viewer, empty seats
            seats += chosen[1:rules.players]
        read[bot] = sum(t is not None for t in seats) / len(seats)
    assert read["solver"] >= 0.75 and read["random"] <= 0.4, read


def _solver_table(rules: Rules, seed: int, reveals: int, kinds: tuple[str, ...] = ("solver",)) -> Game:
    """A game of ``solver`` bots (seat 0 a ``memory`` bot, read by no one here; seat ``s`` of the others of kind
    ``kinds[(s - 1) % len(kinds)]`` when ``kinds`` is given) played for ``reveals`` reveals and on to the next
    turn start."""
    bots = [make_bot("memory" if s == 0 else kinds[(s - 1) % len(kinds)], random.Random(seed * 11 + s))
            for s in range(rules.players)]
    game = Game.deal(rules, seed=seed)
    while not game.over and (reveals > 0 or game.turn):
        game.reveal(bots[game.to_move].choose_reveal(game.view(game.to_move)))
        reveals -= 1
    return game


def _read_tables(rules: Rules, reveals: int, kinds: tuple[str, ...],
                 rule: str) -> Iterator[tuple[int, Game, list[int], Posterior, PolicyReading]]:
    """Tables of :func:`_solver_table` for seeds 0 and 1 (``reveals`` reveals, 5 more for seed 1; a game that
    ended first is left out), seen from seat 0 with every other seat read by ``rule`` (``exact`` or
    ``memory``): the seed, the game, those seats, the posterior and the reading."""
    for seed in range(2):
        game = _solver_table(rules, seed, reveals + 5 * seed, kinds)
        if game.over:
            continue
        seats = list(range(1, rules.players))
        post = Posterior(game.view(0), policy="scoring")
        reading = PolicyReading(post, exact=seats) if rule == "exact" else PolicyReading(post, memory=seats)
        yield seed, game, seats, post, reading


def _reference_misses(view: PlayerView, seats: list[int], hands: list[list[int]], centre: list[int | None]) -> int:
    """How many of ``seats`` opened their last turn otherwise than a ``solver`` bot would have from their view
    then, on the deal whose current hands and centre are given: the engine replays the game from the deal
    (:func:`dealt_of`) and the bot itself chooses."""
    dealt, centre0 = dealt_of(view, hands, centre)
    game = Game.from_deal(view.rules, dealt, centre0, view.first_player)
    turns = [e for e in view.events if isinstance(e, Turn)]
    last = {t.seat: i for i, t in enumerate(turns)}
    misses = 0
    for i, t in enumerate(turns):
        if t.seat in seats and last[t.seat] == i:
            choice = make_bot("solver", random.Random(0)).choose_reveal(game.view(t.seat))
            misses += not _one_move(game, turns[:i], choice, t.reveals[0].reveal)
        for r in t.reveals:
            game.reveal(r.reveal)
    return misses


def _one_move(game: Game, past: list[Turn], a: Reveal, b: Reveal) -> bool:
    """Whether ``a`` and ``b`` turn the same card now, or two centre cards no reveal of ``past`` has shown."""
    if a.is_centre and b.is_centre:
        shown = {r.reveal.index for t in past for r in t.reveals if r.reveal.is_centre}
        return a == b or (a.index not in shown and b.index not in shown)
    return a == b or (not a.is_centre and not b.is_centre and game.peek(a) == game.peek(b) and a.index == b.index
                      and game.view(None).position(a) == game.view(None).position(b))


@pytest.mark.parametrize("rules", [Rules(3), Rules(3, Mode.PICANTE), Rules(4)], ids=str)
def test_the_exact_reading_checks_each_deal_against_the_solver_bot(rules: Rules) -> None:
    """The exact reading's factor of a posterior deal is ``EXACT_MISS`` to the power of the number of read seats
    whose last first reveal the ``solver`` bot, replayed on the deal by the engine, would not have made; the
    true deal of ``solver`` opponents is never penalised; and it adds to the softmax reading's log-likelihood."""
    hits = misses = 0
    for seed, game, seats, post, reading in _read_tables(rules, 14, ("solver",), "exact"):
        view = post.view
        true_centre = [c if here else -1 for c, here in zip(game.centre, view.centre_present)]
        assert not reading.deal_log_terms([list(h) for h in game.hands], true_centre).any()
        got = reading.rule_log_terms(seed, range(8))[:, :, EXACT].sum(axis=1)
        for j in range(8):
            hands, centre = _current(post.sim(seed, j))
            want = _reference_misses(view, seats, hands, centre)
            assert got[j] == pytest.approx(want * math.log(EXACT_MISS)), (rules, seed, j)
            hits += want == 0
            misses += want > 0
        plain = PolicyReading(post).log_likelihoods(seed, range(8))
        assert np.allclose(reading.log_likelihoods(seed, range(8)), plain + got)
    assert hits and misses  # the check both keeps and penalises deals here


def test_the_exact_reading_refuses_seats_it_cannot_read() -> None:
    """Only watched seats can be read exactly: not the viewer, not an empty seat, not a seat number that is
    not one; and only the seats read sharply are offered to it."""
    game = _solver_table(Rules(3), 0, 9)
    post = Posterior(game.view(0))
    for bad in ([0], [3], [-1], [True], ["1"], 1, None, [1.0]):
        with pytest.raises(ViewError, match="exact"):
            PolicyReading(post, exact=bad)  # type: ignore[arg-type]
    for bad in ([0], [3], [-1], [True], 2, None):
        with pytest.raises(ViewError, match="memory"):
            PolicyReading(post, memory=bad)  # type: ignore[arg-type]
    with pytest.raises(ViewError, match="exact_reading"):
        ExpertBot(random.Random(0), exact_reading="yes")  # type: ignore[arg-type]
    assert sharp_seats([None, 0.1, 0.2, 0.5, None]) == [1, 2]
    assert sharp_seats([0.3, EXACT_BELOW]) == [0]


@pytest.mark.parametrize("players", [3, 5])
def test_the_expert_reads_exactly_at_its_turn_start_on_small_tables_only(players: int,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """At the start of its turn among ``solver`` bots the ``expert`` checks its pool's deals against the
    ``solver`` bot's choices (only the pool's: :data:`EXACT_POOL` deals, each replayed once) at 3 players, never
    at 5 (beyond :data:`EXACT_MAX_PLAYERS`), nor in the middle of a turn, nor when told not to."""
    calls: list[int] = []
    real = PolicyReading.deal_log_terms

    def counted(self: PolicyReading, hands: list[list[int]], centre: list[int]) -> np.ndarray:
        if self.exact:
            calls.append(1)
        return real(self, hands, centre)

    monkeypatch.setattr(PolicyReading, "deal_log_terms", counted)
    game = _solver_table(Rules(players), 3, 3 * players)
    while not game.over and (game.to_move != 0 or game.turn):
        game.reveal(make_bot("solver", random.Random(0)).choose_reveal(game.view(game.to_move)))
    assert not game.over
    view = game.view(0)
    assert not view.turn
    ExpertBot(random.Random(1), budget=96, exact_reading=False).choose_reveal(view)
    assert calls == []
    bot = ExpertBot(random.Random(1), budget=96)
    r = bot.choose_reveal(view)
    assert len(calls) == (min(EXACT_POOL, 96) if players <= EXACT_MAX_PLAYERS else 0)
    if players > EXACT_MAX_PLAYERS:  # the table's size alone keeps the reading off: a larger limit reads it
        monkeypatch.setattr(expert, "EXACT_MAX_PLAYERS", players)
        ExpertBot(random.Random(1), budget=96).choose_reveal(view)
        assert len(calls) == min(EXACT_POOL, 96)
    calls.clear()
    game.reveal(r)  # a first reveal never ends a turn
    assert game.to_move == 0 and game.turn
    bot.choose_reveal(game.view(0))
    assert calls == []


def test_a_hand_checked_once_is_not_checked_again_and_like_moves_match() -> None:
    """The exact reading asks the ``solver`` bot once per (turn, hand): the same deal read twice costs no second
    advice. Two centre cards no one has seen are one move; a seen one is not; the two ends of a hand of
    several cards are two moves."""
    game = _solver_table(Rules(3), 1, 12)
    post = Posterior(game.view(0), policy="scoring")
    reading = PolicyReading(post, exact=[1, 2])
    hands, centre = _current(post.sim(0, 0))
    first = reading.deal_log_terms(hands, [-1 if c is None else c for c in centre])
    asked = len(reading._checks)
    assert asked >= 1
    assert (reading.deal_log_terms(hands, [-1 if c is None else c for c in centre]) == first).all()
    assert len(reading._checks) == asked
    fresh = Game.deal(Rules(3), seed=2)
    view = fresh.view(0)
    assert _same_move(view, Reveal.centre(0), Reveal.centre(4))
    assert not _same_move(view, Reveal.lowest(1), Reveal.highest(1))
    shown = fresh.peek(Reveal.centre(0))
    fresh.reveal(Reveal.centre(0))
    fresh.reveal(next(r for r in fresh.legal_reveals() if r.is_centre and fresh.peek(r) != shown))
    assert fresh.to_move == 1 and not fresh.turn
    view = fresh.view(1)
    assert not _same_move(view, Reveal.centre(0), Reveal.centre(4))
    assert _same_move(view, Reveal.centre(5), Reveal.centre(6))


class _Scripted(random.Random):
    """A generator that makes a bot's ``k``-th random tie-break win: ``random()`` is 1 at its ``k``-th call and
    0 elsewhere, ``choice`` takes item ``k`` (modulo the length)."""

    def __init__(self, k: int) -> None:
        super().__init__(0)
        self.k, self.calls = k, 0

    def random(self) -> float:
        self.calls += 1
        return 1.0 if self.calls - 1 == self.k else 0.0

    def choice(self, seq):  # type: ignore[no-untyped-def, override]
        return seq[self.k % len(seq)]


def _memory_bot_choices(view: PlayerView) -> list[Reveal]:
    """Every first reveal a ``memory`` bot can make at ``view`` (each tie-break made to win in turn): the bot
    itself chooses, with no knowledge of the reading's rule."""
    out: list[Reveal] = []
    for k in range(len(view.legal_reveals())):
        r = MemoryBot(_Scripted(k)).choose_reveal(view)
        if r not in out:
            out.append(r)
    return out


def _reference_memory_terms(view: PlayerView, seats: list[int], hands: list[list[int]],
                            centre: list[int | None]) -> tuple[list[float], int]:
    """By seat, the log-likelihood of the first reveals of ``seats`` under the ``memory`` bot on the deal whose
    current hands and centre are given (the engine replays the game from the deal; each of the bot's choices
    as likely, ``EXACT_MISS`` for a reveal it does not make), and how many reveals it does not make."""
    dealt, centre0 = dealt_of(view, hands, centre)
    game = Game.from_deal(view.rules, dealt, centre0, view.first_player)
    turns = [e for e in view.events if isinstance(e, Turn)]
    terms = [0.0] * view.rules.players
    misses = 0
    for i, t in enumerate(turns):
        if t.seat in seats:
            choices = _memory_bot_choices(game.view(t.seat))
            hits = sum(_one_move(game, turns[:i], c, t.reveals[0].reveal) for c in choices)
            terms[t.seat] += math.log(hits / len(choices)) if hits else math.log(EXACT_MISS)
            misses += not hits
        for r in t.reveals:
            game.reveal(r.reveal)
    return terms, misses


@pytest.mark.parametrize("rules", [Rules(3), Rules(3, Mode.PICANTE), Rules(4)], ids=str)
def test_the_memory_rule_checks_each_deal_against_the_memory_bot(rules: Rules) -> None:
    """The memory rule's term of a posterior deal is, for each read seat, the log-likelihood of its first reveals
    under the ``memory`` bot replayed on the deal by the engine (each tie-break of the bot as likely); the true
    deal of ``memory`` opponents is never ruled out; and the rule both keeps and penalises deals."""
    hits = misses = 0
    for seed, game, seats, post, reading in _read_tables(rules, 16, ("memory",), "memory"):
        view = post.view
        true_hands = [list(h) for h in game.hands]
        true_centre = [c if here else None for c, here in zip(game.centre, view.centre_present)]
        want, missed = _reference_memory_terms(view, seats, true_hands, true_centre)
        assert missed == 0
        got = reading.deal_log_terms(true_hands, [-1 if c is None else c for c in true_centre])
        assert got[:rules.players, MEMORY] == pytest.approx(want)
        assert not got[:, EXACT].any()
        table = reading.rule_log_terms(seed, range(8))
        for j in range(8):
            hands, centre = _current(post.sim(seed, j))
            want, missed = _reference_memory_terms(view, seats, hands, centre)
            assert table[j, :rules.players, MEMORY] == pytest.approx(want), (rules, seed, j)
            hits += missed == 0
            misses += missed > 0
    assert hits and misses


def test_the_memory_rule_reads_the_seats_it_explains_best() -> None:
    """At a table of a ``memory`` bot (seat 1) and a ``solver`` bot (seat 2), both offered both rules, the memory
    rule reads seat 1 and not seat 2, and the log-likelihood is seat 1's rule term plus seat 2's softmax and
    exact terms: a seat the memory rule reads no longer counts its softmax nor its exact term."""
    for seed in range(2):
        game = _solver_table(Rules(3), seed, 24, ("memory", "solver"))
        assert not game.over
        post = Posterior(game.view(0), policy="scoring")
        deals = range(16)
        plain = PolicyReading(post)
        reading = PolicyReading(post, exact=[1, 2], memory=[1, 2])
        assert reading.memory_seats(seed, deals) == [1]
        table, terms = plain.seat_log_likelihoods(seed, deals), reading.rule_log_terms(seed, deals)
        assert terms[:, 1, EXACT].any() and terms[:, 2, MEMORY].any()  # the terms left out are not all 0
        t2 = plain.temperatures(seed, deals)[2]
        soft2 = table[:, 2, list(TEMPERATURES).index(t2)] if t2 is not None else 0.0
        assert np.allclose(reading.log_likelihoods(seed, deals), terms[:, 1, MEMORY] + soft2 + terms[:, 2, EXACT])
        alone = PolicyReading(post, memory=[2])  # without the exact term the softmax still explains seat 2 better
        assert alone.memory_seats(seed, deals) == []


def test_the_memory_rule_holds_every_choice_of_the_memory_bot() -> None:
    """At the turn starts of games of ``memory`` bots, the rule's choices are the reveals the bot makes over all
    its tie-breaks, and the bot's seeded choice is one of them."""
    seen = 0
    for seed in range(6):
        rules = Rules(3 + seed % 2, Mode.PICANTE if seed % 3 == 2 else Mode.SIMPLE)
        bots = [MemoryBot(random.Random(seed * 7 + s)) for s in range(rules.players)]
        game = Game.deal(rules, seed=seed)
        while not game.over:
            view = game.view(game.to_move)
            r = bots[game.to_move].choose_reveal(view)
            if not view.turn:
                options = memory_openings(view, Memory.of(view))
                assert sorted(map(str, options)) == sorted(map(str, _memory_bot_choices(view)))
                assert r in options
                seen += len(options) > 1
            game.reveal(r)
    assert seen  # ties were met


def _expert_pools(monkeypatch: pytest.MonkeyPatch, seed: int, reveals: int,
                  kinds: tuple[str, ...]) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
    """At the next turn start of seat 0 of a :func:`_solver_table` game (the same kinds of bots playing on), what
    the ``expert``'s reading was when it resampled: its exact seats, its memory-rule seats and its pool."""
    pools: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
    real = PolicyReading.resample

    def recorded(self: PolicyReading, seed: int, pool: int, size: int) -> np.ndarray:
        pools.append((self.exact, tuple(self.memory_seats(seed, range(pool))), pool))
        return real(self, seed, pool, size)

    monkeypatch.setattr(PolicyReading, "resample", recorded)
    game = _solver_table(Rules(3), seed, reveals, kinds)
    bots = [MemoryBot(random.Random(0))] + [make_bot(kinds[(s - 1) % len(kinds)], random.Random(s)) for s in (1, 2)]
    while not game.over and (game.to_move != 0 or game.turn):
        game.reveal(bots[game.to_move].choose_reveal(game.view(game.to_move)))
    assert not game.over
    ExpertBot(random.Random(1), budget=400).choose_reveal(game.view(0))
    return pools


def test_the_expert_reads_memory_bots_by_their_rule_on_the_larger_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    """At the start of its turn among ``memory`` bots the ``expert`` offers them the memory rule on
    :data:`MEMORY_POOL` deals, reads both by it, asks no ``solver`` advice for them, and plays on that pool."""
    assert _expert_pools(monkeypatch, 2, 18, ("memory",)) == [((), (1, 2), MEMORY_POOL)]


def test_the_expert_reads_a_memory_bot_by_its_rule_and_a_solver_bot_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    """At the start of its turn at a table of a ``memory`` bot (seat 1) and a ``solver`` bot (seat 2), the ``expert``
    reads seat 1 by the memory rule and seat 2 exactly, both on :data:`EXACT_POOL` deals."""
    assert _expert_pools(monkeypatch, 1, 24, ("memory", "solver")) == [((2,), (1,), EXACT_POOL)]


def test_the_memory_rule_term_counts_the_choices_that_are_the_observed_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """A first reveal that ``hits`` of the rule's ``k`` choices are the same move as has the likelihood ``hits / k``
    (a one-card hand's two ends, unseen centre cards); one the rule does not make, :data:`EXACT_MISS`."""
    game = _solver_table(Rules(3), 0, 14, ("memory",))
    view = game.view(0)
    turns = [e for e in view.events if isinstance(e, Turn)]
    opened = [t.reveals[0].reveal for t in turns if t.seat == 1]  # seat 1's first reveals, turn by turn
    assert len(opened) >= 2
    true_centre = [c if here else -1 for c, here in zip(game.centre, view.centre_present)]
    for copies, others, want in ((2, 1, math.log(2 / 3)), (1, 0, 0.0), (0, 2, math.log(EXACT_MISS))):
        def rule(seat_view: PlayerView, mem: Memory, copies: int = copies, others: int = others) -> list[Reveal]:
            chosen = opened[sum(isinstance(e, Turn) and e.seat == 1 for e in seat_view.events)]
            other = next(r for r in seat_view.legal_reveals() if not _same_move(seat_view, r, chosen))
            return [chosen] * copies + [other] * others

        monkeypatch.setattr(reading_module, "memory_openings", rule)
        reading = PolicyReading(Posterior(view, policy="scoring"), memory=[1])
        terms = reading.deal_log_terms([list(h) for h in game.hands], true_centre)
        assert terms[1, MEMORY] == pytest.approx(len(opened) * want)
        assert not terms[2].any() and not terms[:, EXACT].any()


def test_the_exact_term_takes_part_in_the_choice_of_the_memory_rule() -> None:
    """A seat read exactly is compared with the rule by its softmax and exact terms together: at this early
    position of ``solver`` bots, seat 2's last first reveal is not ``solver``'s choice on most posterior deals,
    so the rule explains it better than softmax and exact term, though not better than the softmax alone."""
    game = _solver_table(Rules(3), 2, 6)
    post = Posterior(game.view(0), policy="scoring")
    deals = range(16)
    both = PolicyReading(post, exact=[1, 2], memory=[1, 2])
    assert 2 in both.memory_seats(2, deals)
    assert 2 not in PolicyReading(post, exact=[1], memory=[1, 2]).memory_seats(2, deals)
    terms = both.rule_log_terms(2, deals)
    assert terms[:, 2, EXACT].min() < 0  # the exact term is what tells them apart


def test_chosen_memory_seats_are_read_by_the_rule_without_the_gate() -> None:
    """With ``gated=False`` every seat of ``memory`` is read by the rule, even one the softmax explains better; a
    ``gated`` that is not a bool is refused."""
    game = _solver_table(Rules(3), 0, 24, ("memory", "solver"))
    post = Posterior(game.view(0), policy="scoring")
    deals = range(16)
    assert PolicyReading(post, memory=[1, 2]).memory_seats(0, deals) == [1]
    forced = PolicyReading(post, memory=[1, 2], gated=False)
    assert forced.memory_seats(0, deals) == [1, 2]
    terms = forced.rule_log_terms(0, deals)
    assert np.allclose(forced.log_likelihoods(0, deals), terms[:, 1, MEMORY] + terms[:, 2, MEMORY])
    with pytest.raises(ViewError, match="gated"):
        PolicyReading(post, memory=[1], gated=1)  # type: ignore[arg-type]
