"""The lattice model against two independent references, exactly, on small positions.

* **CSP** (:mod:`trio_solver.infer.csp`, python-constraint): the same facts, solved by
  plain enumeration of count matrices. ``Beliefs(view, exact=True)`` must give
  the same total weight and the same per-cell weights, as Python integers; the
  hand ends and the joint events derived from the listed matrices must match too.
* **Brute force over physical shuffles** (:func:`helpers_positions.brute_force`):
  every placement of the cards the viewer cannot see (computed from public trios
  and the viewer's hand only) is replayed through the engine; this checks
  ``facts.py`` itself, not only the solver. Ends, centre slots, counts,
  expectations, joint events and the sampler must all agree.

Small positions come from an omniscient driver that takes non-winning trios
(Picante lets a player hold many unlinked trios) until few cards stay hidden.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest

from helpers_positions import (
    ALL_RULES,
    NO_TEAM_RULES,
    BruteForce,
    all_show,
    assert_beliefs_match,
    assert_sampler_matches,
    brute_force,
    chi2_sf,
    close_dist as _close,
    collect_small_positions,
    hidden_count,
    request_sequences,
)
from trio_solver.infer import csp
from trio_solver.infer.sampling import sample_game
from trio_solver.infer.beliefs import Beliefs, Placement
from trio_solver.game.state import Game
from trio_solver.infer.facts import POOL, Facts, extract
from trio_solver.infer.lattice import Lattice
from trio_solver.game.rules import VALUES
from trio_solver.game.events import Swap
from trio_solver.report.seen import certain_holdings, seen_frame

CSP_LIMIT = 4000


def _csp_sized(g: Game, seat: int | None) -> bool:
    """Few enough placements for the CSP reference (counted by the model when it can count)."""
    b = Beliefs(g.view(seat), exact=True)
    count = getattr(b, "placement_count", None)
    if count is None:
        return True
    return int(count()) * (4 ** len(getattr(b.facts, "tracked", ()))) <= CSP_LIMIT // 2


@lru_cache(maxsize=None)
def csp_positions() -> tuple[tuple[Game, int | None], ...]:
    """Small positions of every setting; team games with some swaps (own team's and secret)."""
    return tuple(collect_small_positions(36, max_hidden=12, min_hidden=3, seed=1, rules_pool=ALL_RULES,
                                         swap_prob=0.3, accept=_csp_sized))


@lru_cache(maxsize=None)
def brute_positions() -> tuple[tuple[Game, int | None, BruteForce], ...]:
    out = []
    for g, seat in collect_small_positions(40, max_hidden=9, min_hidden=2, seed=2, rules_pool=NO_TEAM_RULES):
        bf = brute_force(g.view(seat), limit=4000)
        if bf is not None:
            out.append((g, seat, bf))
        if len(out) >= 20:
            break
    # team play: the viewer's own swaps (known cards) and the other teams' secret swaps
    team_rules = tuple(r for r in ALL_RULES if r.teams)

    def few_secret_swaps(g: Game, seat: int | None) -> bool:
        return sum(isinstance(e, Swap) and e.cards is None for e in g.view(seat).events) <= 2

    for g, seat in collect_small_positions(30, max_hidden=7, min_hidden=2, seed=3, rules_pool=team_rules,
                                           swap_prob=0.3, accept=few_secret_swaps):
        bf = brute_force(g.view(seat), limit=1500)
        if bf is not None:
            out.append((g, seat, bf))
        if len(out) >= 28:
            break
    return tuple(out)


def _matrix_hands(facts: Facts, m: dict[tuple[int, int], int]) -> dict[int, tuple[int, ...]]:
    """The sorted hidden hands of a count matrix."""
    return {row.key: tuple(v for v in VALUES for _ in range(m.get((row.key, v), 0)))
            for row in facts.rows if row.key != POOL}


def test_positions_are_small_and_varied() -> None:
    """The driver really produces small positions of every size of table, some in mid-turn."""
    pos = csp_positions()
    assert len(pos) >= 30
    assert {g.rules.players for g, _ in pos} == {3, 4, 5, 6}
    assert any(g.turn for g, _ in pos)
    assert any(seat is None for _, seat in pos)
    assert any(g.rules.teams for g, _ in pos)
    for g, seat in pos:
        assert 3 <= hidden_count(g.view(seat)) <= 12
        assert not g.over


def _solutions(facts: Facts) -> list[tuple[int, dict[tuple[int, int], int]]]:
    """(weight, count matrix) of every CSP solution (swap cards summed out by listing them apart)."""
    out = []
    for k, (m, bits) in enumerate(csp.solutions(facts)):
        if k >= CSP_LIMIT:
            pytest.skip("too many placements for the CSP reference")
        out.append((csp.weight(facts, m, bits), m))
    return out


@pytest.mark.parametrize("index", range(36))
def test_exact_weights_equal_csp(index: int) -> None:
    """exact=True: the total weight and every cell's weights equal the CSP's, as Python integers."""
    pos = csp_positions()
    assert index < len(pos), f"the seeded generator found only {len(pos)} positions"
    g, seat = pos[index]
    view = g.view(seat)
    b = Beliefs(view, exact=True)
    try:
        ref = csp.enumerate_weights(b.facts, limit=CSP_LIMIT)
    except OverflowError:
        pytest.skip("too many placements for the CSP reference")
    assert isinstance(b.total_weight, int)
    assert ref.total > 0  # the true deal fits
    assert b.total_weight == ref.total
    if hasattr(b, "placement_count") and not getattr(b.facts, "tracked", ()):
        # without secret swap variables, the CSP lists each count matrix once
        assert b.placement_count() == sum(1 for m, bits in csp.solutions(b.facts) if csp.weight(b.facts, m, bits))
    for row in b.facts.rows:
        key = None if row.key == POOL else row.key
        got = b.exact_cell_weights(key)
        for v in VALUES:
            # (the CSP may list solutions of weight 0: a swap card its hand could not have given)
            want = {c: w for c, w in ref.cells.get((row.key, v), {0: ref.total}).items() if w}
            assert all(isinstance(w, int) for w in got[v].values())
            assert {c: w for c, w in got[v].items() if w} == want, f"row {row.key}, value {v}"
    # the float model agrees with the exact one
    fl = Beliefs(view)
    assert isinstance(fl.total_weight, float) and math.isclose(fl.total_weight, float(b.total_weight), rel_tol=1e-9)
    for s in fl.hidden_seats():
        cd, cde = fl.count_distribution(s), b.count_distribution(s)
        for v in VALUES:
            for c in set(cd[v]) | set(cde[v]):
                assert abs(cd[v].get(c, 0.0) - cde[v].get(c, 0.0)) < 1e-12


@pytest.mark.parametrize("index", range(0, 36, 3))
def test_the_two_passes_agree_with_csp(index: int) -> None:
    """The forward and backward passes are one pass run both ways: after every value, the states'
    forward weight times backward weight sums to the CSP's total, and the backward table at the
    start holds it too; also with read choices, where no reference lists the matrices."""
    pos = csp_positions()
    assert index < len(pos), f"the seeded generator found only {len(pos)} positions"
    g, seat = pos[index]
    facts = extract(g.view(seat))
    lat = Lattice(facts, exact=True)
    try:
        ref = csp.enumerate_weights(facts, limit=CSP_LIMIT)
    except OverflowError:
        pytest.skip("too many placements for the CSP reference")
    assert ref.total > 0 and lat.total_weight == ref.total
    assert lat.backward[0][lat.start] == ref.total
    for u in range(13):
        assert (lat.forward[u] * lat.backward[u]).sum() == ref.total, f"after value {u}"
    read = Lattice(extract(g.view(seat), read=0.25), exact=True)
    for u in range(13):
        assert (read.forward[u] * read.backward[u]).sum() == read.total_weight == read.backward[0][read.start]
    assert 0 < read.total_weight <= ref.total
    # the float tables agree with the exact ones
    fl = Lattice(facts, exact=False)
    for u in range(13):
        assert np.allclose(fl.backward[u].astype(float), lat.backward[u].astype(float), rtol=1e-12)


@pytest.mark.parametrize("index", range(0, 36, 2))
def test_ends_and_joint_events_equal_csp(index: int) -> None:
    """Hand positions and joint events, derived directly from the CSP's solutions, exactly."""
    pos = csp_positions()
    assert index < len(pos), f"the seeded generator found only {len(pos)} positions"
    g, seat = pos[index]
    view = g.view(seat)
    b = Beliefs(view, exact=True)
    facts = b.facts
    sols = _solutions(facts)
    total = sum(w for w, _ in sols)
    assert total == b.total_weight
    n = view.rules.players
    hands_of = [(_matrix_hands(facts, m), w, m) for w, m in sols]
    # every position of every hidden hand
    for s in b.hidden_seats():
        for k in range(view.sizes[s]):
            want: dict[int, int] = {}
            for hands, w, _ in hands_of:
                v = hands[s][k]
                want[v] = want.get(v, 0) + w
            got = b.position_distribution(s, k)
            for v in VALUES:
                assert abs(got.get(v, 0.0) - want.get(v, 0) / total) < 1e-12, (s, k, v)
    # joint events: exact weights from the matrices against prob_all_show
    rng = random.Random(index)
    m_pool = len(facts.pool_slots)
    table = view.table_copy()
    for seq in request_sequences(view, rng, 25):
        values = {r.value for r in view.turn}
        for value in (values or set(VALUES)):
            lo = [table.used(s)[0] for s in range(view.rules.players)]
            hi = [table.used(s)[1] for s in range(view.rules.players)]
            pool_req = 0
            possible = True
            for r in seq:
                if r.is_centre:
                    if r.index in facts.known_slots:
                        possible &= facts.known_slots[r.index] == value
                    else:
                        pool_req += 1
                elif r.kind == "lowest":
                    lo[r.index] += 1
                else:
                    hi[r.index] += 1
            want_w = Fraction(0)
            for hands, w, m in hands_of:
                ok = possible
                for s in range(n):
                    if not ok or (lo[s] == 0 and hi[s] == 0):
                        continue
                    hand = view.hand if s == seat else hands.get(s, ())
                    assert hand is not None
                    if lo[s] + hi[s] > len(hand):
                        ok = False
                        break
                    shown = list(hand[: lo[s]]) + list(hand[len(hand) - hi[s]:])
                    ok = all(c == value for c in shown)
                if not ok:
                    continue
                c = m.get((POOL, value), 0)
                want_w += w * Fraction(math.perm(c, pool_req), math.perm(m_pool, pool_req)) if pool_req else w
            got = b.prob_all_show(value, seq)
            assert abs(got - float(want_w / total)) < 1e-12, ([str(r) for r in seq], value)


@pytest.mark.parametrize("index", range(28))
def test_brute_force_over_shuffles(index: int) -> None:
    pos = brute_positions()
    assert index < len(pos), f"the seeded generator found only {len(pos)} positions"
    g, seat, bf = pos[index]
    view = g.view(seat)
    b = Beliefs(view)
    assert b.consistent
    # the brute force itself: the true placement is among the placements that replay
    truth = Placement(tuple(tuple(h) for h in g.hands), tuple(g.centre))
    assert any(p == truth for p, _ in bf.placements)
    if b.approximate:
        # relaxed secret swaps (beyond the tracking budget): sound, so every possible value is kept
        for s in b.hidden_seats():
            cd = b.count_distribution(s)
            for v in VALUES:
                assert set(bf.distribution(lambda p, s=s, v=v: p.hands[s].count(v))) <= set(cd[v])
        return
    # exact count distributions of every hidden row (hands and the pool of never-shown slots), as fractions;
    # centre places, ends, hand positions and joint events
    exact = Beliefs(view, exact=True)
    centre_slots = [i for i, c in enumerate(g.centre) if c is not None]
    assert_beliefs_match(view, b, exact, bf, centre_slots, random.Random(index), 30)
    for s in b.hidden_seats():
        cd = b.count_distribution(s)
        for v in VALUES:
            _close(cd[v], bf.distribution(lambda p, s=s, v=v: p.hands[s].count(v)), f"seat {s} count {v}")
        exp = b.expected(s)
        for v in VALUES:
            want_e = sum(float(q) * c for c, q in bf.distribution(lambda p, s=s, v=v: p.hands[s].count(v)).items())
            assert abs(exp.get(v, 0.0) - want_e) < 1e-9




def test_certain_holdings_are_the_brute_force_s_least_counts() -> None:
    """What the terminal lists as held for certain at an unknown place: for each other seat, each value's
    least count over every deal that replays (the brute force), less the copies its frame shows at a place.
    Some positions list a value (a card given to the partner, or one the facts pin down)."""
    listed = 0
    for g, seat, bf in brute_positions():
        if seat is None:
            continue
        view = g.view(seat)
        fr = seen_frame(view)
        want: dict[int, list[int]] = {}
        for s in range(g.rules.players):
            if s == seat:
                continue
            placed = [v for v in fr["hands"][s]["cards"] if v is not None]
            extra = [v for v in VALUES for _ in range(min(p.hands[s].count(v) for p, _ in bf.placements)
                                                      - placed.count(v))]
            if extra:
                want[s] = extra
        assert certain_holdings(view, fr) == want, (seat, view.to_json())
        listed += bool(want)
    assert listed >= 3


def test_brute_force_positions_cover_settings() -> None:
    pos = brute_positions()
    assert len(pos) >= 20
    assert len({g.rules.players for g, _, _ in pos}) >= 3
    assert any(g.turn for g, _, _ in pos)
    assert sum(len(bf.placements) > 1 for _, _, bf in pos) >= 15  # not only positions with one answer
    swaps = [g.view(seat).events for g, seat, _ in pos]
    assert any(any(isinstance(e, Swap) and e.cards is None for e in ev) for ev in swaps)  # secret swaps
    assert any(any(isinstance(e, Swap) and e.cards is not None for e in ev) for ev in swaps)  # own team's


@pytest.mark.parametrize("index", range(6))
def test_sampler_is_exact(index: int) -> None:
    """sample() draws count matrices with the exact posterior frequencies (chi-square against brute force)."""
    pos = [p for p in brute_positions() if len(p[2].placements) >= 2 and p[0].rules.teams][:2]
    pos += [p for p in brute_positions() if len(p[2].placements) >= 3 and not p[0].rules.teams][: 6 - len(pos)]
    assert index < len(pos), f"the seeded generator found only {len(pos)} positions"
    g, seat, bf = pos[index]
    view = g.view(seat)
    b = Beliefs(view)
    rng = random.Random(1234 + index)
    assert_sampler_matches(b, bf, rng)
    # and the sampled pool slots are spread uniformly: slot values match centre() on average
    centre = b.centre()
    counts: dict[tuple[int, int], int] = {}
    for _ in range(2000):
        p = b.sample(rng)
        for slot in b.facts.pool_slots:
            counts[(slot, p.centre[slot])] = counts.get((slot, p.centre[slot]), 0) + 1  # type: ignore[index]
    for (slot, v), c in counts.items():
        q = centre[slot][v]
        assert abs(c / 2000 - q) < 5 * math.sqrt(q * (1 - q) / 2000) + 1e-9


@pytest.mark.parametrize("index", range(3))
def test_sample_game_matches_brute_force_in_team_play(index: int) -> None:
    """sample_game() with swaps: replays the history (secret swap cards drawn too) with exact frequencies."""
    pos = [p for p in brute_positions() if p[0].rules.teams and len(p[2].placements) >= 2]
    assert len(pos) >= 3, "the seeded position generator should find three team positions"
    g, seat, bf = pos[index]
    view = g.view(seat)
    b = Beliefs(view)
    assert not b.approximate
    want = bf.distribution(lambda p: p.hands)
    rng = random.Random(99 + index)
    n = 3000
    seen: dict[object, int] = {}
    for _ in range(n):
        s = sample_game(b, rng)
        sv = s.view(seat)
        assert sv.events == view.events and sv.hand == view.hand
        k = tuple(tuple(h) for h in s.hands)
        assert k in want
        seen[k] = seen.get(k, 0) + 1
    chi2 = sum((seen.get(k, 0) - n * float(q)) ** 2 / (n * float(q)) for k, q in want.items())
    assert chi2_sf(chi2, len(want) - 1) > 1e-4, f"chi2={chi2:.1f} with {len(want) - 1} degrees of freedom"


def test_reference_without_teams_only_positions_exist() -> None:
    """Sanity: the position generator also works when asked for non-team settings only."""
    pos = collect_small_positions(3, max_hidden=10, seed=9, rules_pool=NO_TEAM_RULES)
    assert len(pos) == 3 and not any(g.rules.teams for g, _ in pos)
