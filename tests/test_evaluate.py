"""Game-level evaluation, the rollout state against the engine, advice for the game."""

from __future__ import annotations

import dataclasses
import json
import math
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers_positions import (
    ALL_RULES,
    TEAM_RULES,
    brute_force,
    collect_small_positions,
    random_position,
    swap_position,
    swap_views,
)
from trio_solver import Game, Reveal, Rules
from trio_solver.doors.cli import _DEFAULT_ADVISE, _DEFAULT_BUDGET, _DEFAULT_EVALUATE
from trio_solver.errors import TrioError, ViewError
from trio_solver.decide.evaluate import (
    DEFAULT_ADVISE_SAMPLES,
    DEFAULT_SAMPLES,
    FIRST_BATCH,
    GameEvaluation,
    Posterior,
    Race,
    Tally,
    advise_game,
    default_advise_samples,
    _next_target,
    distinct_moves,
    evaluate,
    paired_gap,
    plan_array,
    playout_tallies,
    swap_outcomes,
)
from trio_solver.decide.expert import DEFAULT_BUDGET
from trio_solver.decide.stopping import Stopping
from trio_solver.decide.rollout import ModelBot, Sim, public_memory, to_action, to_reveal
from trio_solver.game.rules import Mode
from trio_solver.decide.search import Advice, Evaluation, advise


def sides(rules: Rules) -> list[int]:
    """One seat per side (team)."""
    return [team[0] for team in rules.teams_of_seats]


def test_cli_defaults_match_the_library() -> None:
    assert (_DEFAULT_EVALUATE, _DEFAULT_ADVISE, _DEFAULT_BUDGET) == (DEFAULT_SAMPLES, DEFAULT_ADVISE_SAMPLES,
                                                                     DEFAULT_BUDGET)
    # the help text's "scaled by 3/players: N at 6"
    assert (default_advise_samples(3), default_advise_samples(6)) == (_DEFAULT_ADVISE, _DEFAULT_ADVISE // 2)


# -- the rollout model reads only the view ---------------------------------------------------

@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ALL_RULES), st.integers(0, 10**6), st.integers(0, 40))
def test_model_plays_legal_reveals_and_only_reads_the_view(rules: Rules, seed: int, before: int) -> None:
    game = random_position(rules, seed, before)
    if game.over:
        return
    view = game.view(game.to_move)
    choice = ModelBot().choose_reveal(view)
    assert game.is_legal(choice)
    # the same decision on the true state (hidden cards real, not placeholders)
    sim = Sim.from_view(view, public_memory(view), game.hands, game.centre)
    assert to_reveal(sim.choose() or (0, 0)) == choice


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(swap_views(60))
def test_model_swap_is_a_single_card_and_reads_only_the_view(at: tuple[Game, int]) -> None:
    game, seat = at
    rules = game.rules
    view = game.view(seat)
    true = Sim.from_view(view, public_memory(view), game.hands, game.centre)
    give = true.give(seat)
    hand = game.hands[seat]
    partner = rules.partner(seat)
    assert partner is not None
    singles = [v for v in hand if hand.count(v) == 1]
    if not singles or not game.hands[partner]:
        assert give is None
    else:
        assert give in singles
    # the placeholders of the view's own state (hidden cards unknown) give the same card
    assert ModelBot.state(view).give(seat) == give


def test_swap_outcomes_play_the_swap_on_common_deals() -> None:
    rules = Rules(4, Mode.SIMPLE, True)
    game = swap_position(rules, 3, 0)
    view = game.view(0)
    post = Posterior(view)
    hand = game.hands[0]
    give = next(v for v in hand if hand.count(v) == 1)
    kept = swap_outcomes(post, None, 5, range(40))
    swapped = swap_outcomes(post, give, 5, range(40))
    assert kept == swap_outcomes(post, None, 5, range(40))  # deterministic
    assert all(x in (0.0, 0.5, 1.0) for x in kept + swapped)
    # no swap is the plain evaluation of the view on the same deals
    assert sum(kept) / 40 == pytest.approx(evaluate(view, samples=40, seed=5).win_chance[0])
    with pytest.raises(ViewError, match="team play"):
        swap_outcomes(Posterior(random_position(Rules(3), 1, 0).view(0)), None, 0, range(2))


# -- evaluate -------------------------------------------------------------------------------

@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ALL_RULES), st.integers(0, 10**6), st.integers(0, 50), st.data())
def test_evaluate_sums_to_one_over_sides(rules: Rules, seed: int, before: int, data: st.DataObject) -> None:
    game = random_position(rules, seed, before)
    seat = data.draw(st.sampled_from([None, *range(rules.players)]))
    ev = evaluate(game.view(seat), samples=20, seed=seed)
    assert abs(sum(ev.win_chance[s] for s in sides(rules)) - 1) < 1e-9
    for team in rules.teams_of_seats:
        assert len({ev.win_chance[s] for s in team}) == 1
        assert len({ev.stderr[s] for s in team}) == 1
    assert all(0 <= p <= 1 for p in ev.win_chance)
    assert all(e >= 0 for e in ev.stderr)
    assert ev.to_move == game.to_move and ev.seat == seat


def test_evaluate_is_exact_once_the_game_is_over() -> None:
    for rules in ALL_RULES:
        rng = random.Random(rules.players)
        game = Game.deal(rules, rng=rng)
        while not game.over:
            game.reveal(rng.choice(game.legal_reveals()))
        ev = evaluate(game.view(None), samples=5)
        assert game.winner is not None
        team = rules.team_of(game.winner)
        assert ev.win_chance == tuple(1.0 if rules.team_of(s) == team else 0.0 for s in range(rules.players))
        assert ev.stderr == (0.0,) * rules.players and ev.samples == 0


def test_a_certain_winning_trio_is_worth_the_game() -> None:
    # seat 0 holds the three 7s at the top of its hand: under the model it takes them at once
    rules = Rules(3)
    mine = [1, 1, 2, 2, 3, 3, 7, 7, 7]
    others = [v for v in range(1, 13) for _ in range(3)]
    for v in mine:
        others.remove(v)
    hands = [mine, others[0:9], others[9:18]]
    centre = others[18:27]
    game = Game.from_deal(rules, hands, centre, first_player=0)
    ev = evaluate(game.view(0), samples=30)
    assert ev.win_chance == (1.0, 0.0, 0.0) and ev.stderr == (0.0, 0.0, 0.0)
    best = advise_game(game.view(0), samples=10).best
    assert best.p_game == 1.0 and best.reveal == Reveal.highest(0)


def test_evaluate_is_deterministic_per_seed() -> None:
    game = random_position(Rules(4, Mode.PICANTE), 3, 12)
    view = game.view(game.to_move)
    a = evaluate(view, samples=60, seed=5)
    b = evaluate(view, samples=60, seed=5)
    c = evaluate(view, samples=60, seed=6)
    assert a == b
    assert a.to_json(3) == b.to_json(3)
    assert a != c  # a different seed draws other deals


@pytest.mark.parametrize("rules, seed, before", [(Rules(3), 1, 0), (Rules(4, Mode.PICANTE), 2, 10),
                                                   (Rules(6, teams=True), 3, 6)])
def test_evaluate_stops_at_the_first_batch_that_meets_the_precision(rules: Rules, seed: int, before: int) -> None:
    """The batches, replayed from the raw outcomes of the same deals: each batch goes up to the deals the
    variance so far says are needed (at least an eighth more, at most twice as many), and the evaluation
    stops at the first batch whose every side's standard error is within the precision."""
    precision = 0.03
    game = random_position(rules, seed, before)
    view = game.view(game.to_move)
    ev = evaluate(view, precision=precision, seed=4)
    x = Posterior(view).outcomes(4, range(ev.samples))
    ends = []
    n = FIRST_BATCH
    while True:
        ends.append(n)
        part = x[:n]
        se = part.std(axis=0, ddof=1) / math.sqrt(n)
        if float(se.max()) <= precision:
            break
        var = float(part.var(axis=0, ddof=1).max())
        n = min(max(math.ceil(1.05 * var / precision ** 2), n + max(n // 8, 1)), 2 * n)
    assert ends[-1] == ev.samples < DEFAULT_SAMPLES
    assert max(ev.stderr) <= precision
    final = x.var(axis=0, ddof=1).max()
    # stopped near the deals its precision needs: the last batch added at most an eighth or what the
    # variance before it asked for, so at most a third more than the final variance asks for
    assert ev.samples <= 4 / 3 * 1.05 * final / precision ** 2 + 1, (ends, final)
    seat_of_side = sides(rules)
    assert [ev.win_chance[s] for s in seat_of_side] == pytest.approx(list(x.mean(axis=0)))


def test_evaluate_matches_brute_force_on_small_late_positions() -> None:
    """The exact expectation over every placement (enumerated independently of the belief model) of the
    model's deterministic playout, against the sampled estimate."""
    positions = collect_small_positions(30, max_hidden=8, min_hidden=3, seed=41, mid_turn_rate=0.3)
    checked = advised = 0
    for game, seat in positions:
        view = game.view(seat)
        bf = None if view.over else brute_force(view, limit=3000)
        if bf is None:
            continue
        memory = public_memory(view)
        rules = view.rules
        teams = len(rules.teams_of_seats)
        exact = [Fraction(0)] * teams
        for placement, w in bf.placements:
            sim = Sim.from_view(view, memory, placement.hands, placement.centre)
            winner = sim.playout()
            assert winner is not None
            exact[rules.team_of(winner)] += Fraction(w, bf.total)
        ev = evaluate(view, samples=800, seed=checked)
        for t, seat0 in enumerate(sides(rules)):
            err = max(ev.stderr[seat0], 1e-3)
            assert abs(ev.win_chance[seat0] - float(exact[t])) <= 4.5 * err, (view, t, exact, ev)
        if view.seat == view.to_move:
            # advice for the game: each reveal's exact chance, played with the advisor's plan
            adv = advise_game(view, samples=300, seed=checked)
            for e in adv.evaluations[:3]:
                p_exact = Fraction(0)
                for placement, w in bf.placements:
                    sim = Sim.from_view(view, memory, placement.hands, placement.centre)
                    sim.play_plan(to_action(e.reveal), len(view.turn), plan_array(e))
                    winner = sim.playout()
                    if winner is not None and rules.team_of(winner) == rules.team_of(view.to_move):
                        p_exact += Fraction(w, bf.total)
                assert e.p_game is not None and e.p_game_stderr is not None
                assert abs(e.p_game - float(p_exact)) <= 4.5 * max(e.p_game_stderr, 2e-3), (view, e, p_exact)
                advised += 1
        checked += 1
        if checked == 8:
            break
    assert checked >= 6 and advised >= 6


def test_bad_requests_get_a_clear_error() -> None:
    game = Game.deal(Rules(3), seed=1)
    view = game.view(0)
    for bad in (0, -1, 10**9, 2.5, True, "10"):
        with pytest.raises(ViewError, match="samples"):
            evaluate(view, samples=bad)  # type: ignore[arg-type]
    with pytest.raises(ViewError, match="seed"):
        evaluate(view, seed="x")  # type: ignore[arg-type]
    with pytest.raises(TrioError):
        advise_game(game.view(1))  # not the seat to move


def test_to_json_has_the_interface_shape() -> None:
    ev = GameEvaluation(1, 2, (0.25, 0.5, 0.25), (0.01, 0.02, 0.01), 400)
    assert ev.to_json(12) == {"seat": 1, "after": 12, "to_move": 2,
                              "win_chance": {"0": 0.25, "1": 0.5, "2": 0.25},
                              "stderr": {"0": 0.01, "1": 0.02, "2": 0.01}, "samples": 400}


# -- advice for the game ----------------------------------------------------------------------

@pytest.mark.parametrize("rules,reveals", [(Rules(3), 7), (Rules(5, Mode.PICANTE), 16), (Rules(4, teams=True), 9)])
def test_advise_game_ranks_every_legal_reveal_by_p_game(rules: Rules, reveals: int) -> None:
    game = random_position(rules, 8, reveals)
    assert not game.over
    view = game.view(game.to_move)
    adv = advise_game(view, samples=40, seed=2)
    exact = advise(view)
    assert adv.objective == "game"
    assert {e.reveal for e in adv.evaluations} == set(view.legal_reveals())
    games = [e.p_game for e in adv.evaluations]
    assert all(p is not None and 0 <= p <= 1 for p in games)
    assert games == sorted(games, reverse=True)  # type: ignore[type-var]
    for e in adv.evaluations:
        ref = exact.get(e.reveal)
        assert (e.p_trio, e.p_win) == (ref.p_trio, ref.p_win)
        assert e.p_game_stderr is not None and e.p_game_stderr >= 0
        js = e.to_json()
        assert js["p_game"] == round(e.p_game or 0.0, 12) and "p_game_stderr" in js
        back = Evaluation.from_json(js)
        assert (back.p_game, back.p_game_gap_stderr) == (js["p_game"], js["p_game_gap_stderr"])
    assert "p_game" not in exact.best.to_json() and "p_game_gap_stderr" not in exact.best.to_json()
    # the reveals not told apart from the first: at most twice their gap's error below it, in the ranking's
    # order; named in the JSON when advised for the game only, and read back the same
    lead = adv.evaluations[0].p_game or 0.0
    tied = [e for e in adv.evaluations[1:] if lead - (e.p_game or 0.0) <= 2 * (e.p_game_gap_stderr or 0.0)]
    assert tied, "no reveal within noise of the first at this position"
    assert list(adv.not_told_apart) == tied and exact.not_told_apart == ()
    doc = adv.to_json()
    assert doc["not_told_apart"] == [e.reveal.to_json() for e in tied] and "not_told_apart" not in exact.to_json()
    assert Advice.from_json(json.loads(json.dumps(doc))).to_json() == doc
    # the error of the paired difference from the first, on the same deals (checked for the reveals
    # played out for themselves; the other unseen centre cards carry the first one's figures)
    post = Posterior(view)
    first = adv.evaluations[0]
    assert first.p_game_gap_stderr == 0.0
    for rep in distinct_moves(view, post.memory, exact.evaluations):
        e = adv.get(rep.reveal)
        ta, tb = playout_tallies(post, [first, e], 2, range(40))
        assert e.p_game_gap_stderr == pytest.approx(paired_gap(ta, first, tb, e)[1], abs=1e-12)
    assert advise_game(view, samples=40, seed=2) == adv


def test_advise_game_cap_follows_the_table_unless_given(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no ``samples``, the race's cap is the table's default (fewer deals with more players, each
    playout being longer); a given ``samples`` is the cap at every table."""
    caps: list[int] = []
    run = Race.run

    def spy(self: Race, stopping: Stopping, *args: object) -> None:
        caps.append(stopping.cap)
        run(self, dataclasses.replace(stopping, cap=min(stopping.cap, 32)), *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Race, "run", spy)
    for players in (3, 4, 5, 6):
        game = random_position(Rules(players), players, 2)
        advise_game(game.view(game.to_move))
        advise_game(game.view(game.to_move), samples=300)
    assert caps == [c for p in (3, 4, 5, 6) for c in (default_advise_samples(p), 300)]
    assert caps[::2] == sorted(caps[::2], reverse=True) and caps[0] == DEFAULT_ADVISE_SAMPLES
    # about the same playouts' length times deals at every table: players * cap within a rounding of 3 * 2048
    assert all(3 * DEFAULT_ADVISE_SAMPLES - p < p * c <= 3 * DEFAULT_ADVISE_SAMPLES
               for p, c in zip((3, 4, 5, 6), caps[::2]))


def test_advise_game_uses_common_random_numbers() -> None:
    """Two reveals are compared on the same deals: the spread of their difference is far below each one's."""
    game = random_position(Rules(3), 21, 6)
    view = game.view(game.to_move)
    exact = advise(view)
    post = Posterior(view)
    a, b = exact.evaluations[0], exact.evaluations[1]
    _, results = post.play([a, b], 0, range(300))
    xa, xb = list(results[0]), list(results[1])
    diff = [x - y for x, y in zip(xa, xb)]
    var = lambda xs: sum((x - sum(xs) / len(xs)) ** 2 for x in xs) / (len(xs) - 1)  # noqa: E731
    # independent samples would give var(a) + var(b); shared deals give far less
    assert var(diff) < 0.6 * (var(xa) + var(xb))


def test_advise_game_plays_one_unseen_centre_card_for_all() -> None:
    """The centre cards no one has seen share one estimate (the first one's, in the advisor's order),
    and that is sound: another of them, played out on its own, has the same chance within noise."""
    from trio_solver.decide.evaluate import Posterior, playout_tally

    checked = 0
    for seed in range(40):
        game = random_position(Rules(3), seed, 3)
        view = game.view(game.to_move)
        memory = public_memory(view)
        unseen = [r for r in view.legal_reveals() if r.is_centre and not memory.knows(view, r)]
        seen = [r for r in view.legal_reveals() if r.is_centre and memory.knows(view, r)]
        if len(unseen) < 3:
            continue
        adv = advise_game(view, samples=30, seed=seed)
        by = {e.reveal: e for e in adv.evaluations}
        assert len({(by[r].p_game, by[r].p_game_stderr) for r in unseen}) == 1
        exact = advise(view)
        first = next(e for e in exact.evaluations if e.reveal in unseen)
        post = Posterior(view)
        m, se = playout_tally(post, first, seed, range(30)).estimate(first.p_trio, first.p_win)
        assert (by[first.reveal].p_game, by[first.reveal].p_game_stderr) == (m, se)
        for r in seen:  # a centre card the table has seen is its own move
            assert memory.alike(view, r) == r
        if not checked:  # exchangeable: the last unseen card, played on its own, agrees with the first
            last = exact.get(unseen[-1])
            a = playout_tally(post, first, 7, range(1000)).estimate(first.p_trio, first.p_win)
            b = playout_tally(post, last, 8, range(1000)).estimate(last.p_trio, last.p_win)  # independent deals
            assert abs(a[0] - b[0]) <= 4.5 * math.hypot(a[1], b[1]), (view, a, b)
        checked += 1
        if checked == 2:
            break
    assert checked == 2


def test_advise_game_mid_turn() -> None:
    game = random_position(Rules(4), 5, 10)
    while not game.turn:
        game.reveal(game.legal_reveals()[0])
    view = game.view(game.to_move)
    adv = advise_game(view, samples=20)
    assert {e.reveal for e in adv.evaluations} == set(view.legal_reveals())


def _jackknife_gap(a: Tally, ea: Evaluation, b: Tally, eb: Evaluation) -> float:
    """The slow, obviously correct reference for :func:`paired_gap`'s error: the jackknife over the
    deals, each left out of both tallies at once."""
    deals = sorted(set(a.deals.tolist()) & set(b.deals.tolist()))

    def without(t: Tally, j: int) -> Tally:
        # the playouts of every deal but ``j``, counted in one call (add() one by one copies the arrays
        # each time: 800 such tallies per example took minutes)
        kept = [(k, h, x) for k, h, x in zip(t.deals.tolist(), t.strata.tolist(), t.results.tolist()) if k != j]
        out = Tally.empty()
        out.extend([k for k, _, _ in kept], [h for _, h, _ in kept], [x for _, _, x in kept])
        return out

    gaps = [without(a, j).estimate(ea.p_trio, ea.p_win)[0] - without(b, j).estimate(eb.p_trio, eb.p_win)[0]
            for j in deals]
    n = len(gaps)
    mean = sum(gaps) / n
    return math.sqrt((n - 1) / n * sum((g - mean) ** 2 for g in gaps))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.15, 0.9), st.floats(0.15, 0.9), st.floats(0.0, 1.0))
def test_paired_gap_error_matches_the_jackknife(seed: int, pa: float, pb: float, alike: float) -> None:
    """Two candidates played on the same 400 deals, their results alike on a share ``alike`` of them:
    the linearised error of the gap agrees with the jackknife, and the gap is the difference of the
    two estimates. (The two errors differ by a share of about one over a stratum's number of deals:
    with a trio chance of 0.05, a stratum holds some 5 of the 400 deals and they differ by up to 6%;
    from 0.15, with some 15 deals or more, by 3.2% at most in 300 draws, the most near 0.15 with results
    all alike.)"""
    rng = random.Random(seed)
    ea = Evaluation(Reveal.lowest(0), p_trio=pa, p_win=pa / 3, plan=(), known_value=None, progress=0.0)
    eb = Evaluation(Reveal.lowest(1), p_trio=pb, p_win=pb / 4, plan=(), known_value=None, progress=0.0)
    a, b = Tally.empty(), Tally.empty()
    for j in range(400):
        base = float(rng.random() < 0.4)
        xa = base if rng.random() < alike else float(rng.random() < 0.4)
        xb = base if rng.random() < alike else float(rng.random() < 0.4)
        a.add(rng.choices((0, 1, 2), weights=(1 - pa, pa - pa / 3, pa / 3))[0], xa, j)
        b.add(rng.choices((0, 1, 2), weights=(1 - pb, pb - pb / 4, pb / 4))[0], xb, j)
    gap, se = paired_gap(a, ea, b, eb)
    assert gap == pytest.approx(a.estimate(pa, pa / 3)[0] - b.estimate(pb, pb / 4)[0])
    assert se == pytest.approx(_jackknife_gap(a, ea, b, eb), rel=0.05, abs=1e-9)


def test_paired_gap_of_a_candidate_with_itself_is_zero_and_sure() -> None:
    e = Evaluation(Reveal.lowest(0), p_trio=0.4, p_win=0.1, plan=(), known_value=None, progress=0.0)
    rng = random.Random(3)
    t = Tally.empty()
    for j in range(50):
        t.add(rng.randrange(3), float(rng.random() < 0.5), j)
    assert paired_gap(t, e, t, e) == (0.0, 0.0)


def test_a_stratum_that_always_lost_is_not_exact() -> None:
    """A stratum whose few deals all lost (or all won) still has an error: at least that of a win or a loss
    at its chance shrunk by one won and one lost game, (x + 1) / (k + 2); with many deals, the sample's."""
    e = Evaluation(Reveal.lowest(0), p_trio=0.5, p_win=0.0, plan=(), known_value=None, progress=0.0)
    for wins in (0, 35):
        t = Tally.empty()
        t.extend(range(70), [0] * 35 + [1] * 35, [0.0] * 35 + [float(j < wins) for j in range(35)])
        m, se = t.estimate(e.p_trio, e.p_win)
        shrunk = [(0 + 1) / 37, (wins + 1) / 37]
        assert m == pytest.approx(0.5 * wins / 35)
        assert se == pytest.approx(math.sqrt(sum(0.25 * p * (1 - p) / 35 for p in shrunk)))
    rng = random.Random(4)
    t = Tally.empty()
    results = [float(rng.random() < 0.4) for _ in range(400)]
    t.extend(range(400), [0] * 400, results)
    mean = sum(results) / 400
    sample = sum((x - mean) ** 2 for x in results) / 399
    assert t.estimate(0.0, 0.0)[1] == pytest.approx(math.sqrt(sample / 400))


def test_no_reveal_is_dropped_after_the_first_batch() -> None:
    """A race drops a beaten reveal only from its second look on: the first batch's strata are too small
    for the normal approximation the drop rests on. Here one candidate always wins and the other always
    loses: both are played on the first batch and on the second; the loser is then dropped."""
    lead = Evaluation(Reveal.lowest(0), p_trio=0.0, p_win=0.0, plan=(), known_value=None, progress=0.0)
    lost = dataclasses.replace(lead, reveal=Reveal.lowest(1))
    played: list[tuple[int, range]] = []

    def play(cands: list[Evaluation], deals: range) -> tuple[list[list[int]], list[list[float]]]:
        played.append((len(cands), deals))
        return [[0] * len(deals) for _ in cands], [[1.0 if c is lead else 0.0] * len(deals) for c in cands]

    race = Race([lead, lost], play)
    race.run(Stopping(0.95, 512, 64), lambda r, z: False)
    assert played[:2] == [(2, range(0, 64)), (2, range(64, 128))]
    assert all(n == 1 for n, _ in played[2:]) and race.alive == [0]


def test_paired_gap_error_is_that_of_repeated_races() -> None:
    """Between two reveals of a position, the gap's standard error (paired over common deals, from one
    race) matches the spread of the gap over 20 races on independent deals."""
    game = random_position(Rules(3), 21, 6)
    view = game.view(game.to_move)
    ranked = advise_game(view, samples=40, seed=0)
    a, b = ranked.evaluations[0], ranked.evaluations[-1]
    post = Posterior(view)
    gaps, errors = [], []
    for seed in range(20):
        ta, tb = playout_tallies(post, [a, b], seed, range(40))
        gap, se = paired_gap(ta, a, tb, b)
        assert gap == pytest.approx(ta.estimate(a.p_trio, a.p_win)[0] - tb.estimate(b.p_trio, b.p_win)[0])
        gaps.append(gap)
        errors.append(se)
    mean = sum(gaps) / len(gaps)
    spread = math.sqrt(sum((g - mean) ** 2 for g in gaps) / (len(gaps) - 1))
    typical = sum(errors) / len(errors)
    assert 0.6 * spread < typical < 1.5 * spread, (typical, spread)


@given(st.integers(2, 10**6), st.floats(0.0, 0.25),
       st.one_of(st.just(0.0), st.floats(1e-320, 0.5), st.sampled_from([1e-300, 1e-160, 5e-324])))
def test_the_next_batch_grows_by_an_eighth_to_double_at_any_precision(n: int, variance: float, precision: float) -> None:
    """Any precision the checks take (0 to 0.5, subnormal ones too) gives a next batch between an eighth more
    and twice as many playouts, never an error: the square of a tiny precision is 0."""
    target = _next_target(n, variance, precision)
    assert n + max(n // 8, 1) <= target <= 2 * n
    if 1.05 * variance < n * precision ** 2:  # the precision is met soon: the smallest step
        assert target == n + max(n // 8, 1)


def test_a_tiny_precision_plays_every_sample() -> None:
    view = Game.deal(Rules(3), seed=4).view(0)
    for precision in (1e-300, 1e-160):
        assert evaluate(view, samples=300, seed=1, precision=precision).samples == 300
