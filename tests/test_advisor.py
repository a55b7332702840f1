"""The advisor (:func:`trio_solver.decide.search.advise`) against independent oracles.

* an exact brute-force expectimax over every placement of the hidden cards
  (weighted by its number of physical shuffles, each checked by replaying the
  public history through the engine), on small positions, at the start of a turn
  and in the middle of one;
* legality and completeness of the list of reveals, and its order;
* a statistical check of ``p_trio`` by playing the advised plan on deals drawn
  from the exact posterior;
* advice that cannot depend on cards the viewer does not see.

Everything is deterministic (fixed seeds; hypothesis with ``derandomize``).
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trio_solver.infer.beliefs import Beliefs, Placement
from trio_solver.infer.sampling import game_from_placement, sample_game
from trio_solver.game.state import Game
from trio_solver.errors import ViewError
from trio_solver.infer.facts import extract
from trio_solver.game.reveal import Reveal
from trio_solver.game.rules import COPIES, VALUES, Mode, Rules
from trio_solver.decide.search import advise, live_links
from trio_solver.game.events import TurnStatus
from trio_solver.game.view import PlayerView

from helpers_positions import random_position, sub_multisets, trio_line

ALL_RULES = tuple(
    Rules(n, mode, teams)
    for n in (3, 4, 5, 6)
    for mode in (Mode.SIMPLE, Mode.PICANTE)
    for teams in ((False, True) if n in (4, 6) else (False,))
)
NO_TEAM_RULES = tuple(r for r in ALL_RULES if not r.teams)


# ---------------------------------------------------------------------------
# position drivers (omniscient: they look at the true cards)


def failed_turn(game: Game, rng: random.Random) -> None:
    """Random reveals until the turn ends, never completing a trio."""
    while not game.over:
        legal = game.legal_reveals()
        rng.shuffle(legal)
        chosen = legal[0]
        if len(game.turn) == 2:
            v = game.turn[0].value
            others = [r for r in legal if game.peek(r) != v]
            if others:
                chosen = others[0]
        game.reveal(chosen)
        if not game.turn:
            return


def hidden_count(view: PlayerView) -> int:
    return sum(r.size for r in extract(view).rows)


def small_position(rules: Rules, seed: int, max_hidden: int, mid_turn: int = 0) -> Game | None:
    """A game (not over) where at most ``max_hidden`` cards are hidden from the seat to move.

    ``mid_turn`` = 1 or 2: that many equal cards of a new turn are already face up.
    """
    rng = random.Random(seed)
    game = Game.deal(rules, rng=rng)
    for _ in range(300):
        if game.over:
            return None
        if hidden_count(game.view(game.to_move)) <= max_hidden:
            break
        if rng.random() < 0.75:
            line = trio_line(game, rng)
            if line is not None:
                for r in line:
                    game.reveal(r)
                continue
        failed_turn(game, rng)
    else:
        return None
    if mid_turn:
        line = trio_line(game, rng)
        if line is None:
            # no non-winning trio: any reveal, then (for 2) a matching one if reachable
            game.reveal(rng.choice(game.legal_reveals()))
            if mid_turn == 2:
                v = game.turn[0].value
                match = [r for r in game.legal_reveals() if game.peek(r) == v]
                if not match:
                    return None
                game.reveal(match[0])
        else:
            for r in line[:mid_turn]:
                game.reveal(r)
        if len(game.turn) != mid_turn or hidden_count(game.view(game.to_move)) > max_hidden:
            return None
    return game


# ---------------------------------------------------------------------------
# the brute-force oracle


def consistent_games(view: PlayerView) -> list[tuple[Game, int]]:
    """Every true state behind ``view`` with its number of physical shuffles (up to a constant).

    The hidden cards (3 copies of each value not taken, minus the viewer's hand and
    the centre slots whose card was shown) are spread over the other hands (as
    multisets) and the never-shown centre slots (one by one) in every possible way;
    a placement is kept when the engine replays the whole public history on it.
    Weight: prod_v r_v! / prod_hands c_{hand,v}! (slots hold one card each).
    """
    rules = view.rules
    n = rules.players
    seen = view.centre_seen()
    known = {i: v for i, v in enumerate(seen) if v is not None}
    pool = [i for i, here in enumerate(view.centre_present) if here and seen[i] is None]
    seats = [s for s in range(n) if s != view.seat and view.sizes[s] > 0]
    cards: Counter[int] = Counter({v: COPIES for v in VALUES})
    for t in view.trios:
        for v in t:
            cards[v] -= COPIES
    assert view.hand is not None
    cards.subtract(Counter(view.hand))
    cards.subtract(Counter(known.values()))
    counts = {v: c for v, c in cards.items() if c > 0}
    assert all(c >= 0 for c in cards.values())
    assert sum(counts.values()) == sum(view.sizes[s] for s in seats) + len(pool)
    numerator = math.prod(math.factorial(c) for c in counts.values())
    facts = extract(view)
    out: list[tuple[Game, int]] = []

    def place_hands(i: int, left: dict[int, int], hands: dict[int, tuple[int, ...]], denom: int) -> None:
        if i == len(seats):
            place_slots(0, left, hands, {}, denom)
            return
        for ms in sub_multisets(left, view.sizes[seats[i]]):
            rest = {v: c - ms.get(v, 0) for v, c in left.items()}
            hand = tuple(v for v in sorted(ms) for _ in range(ms[v]))
            d = math.prod(math.factorial(k) for k in ms.values())
            place_hands(i + 1, rest, {**hands, seats[i]: hand}, denom * d)

    def place_slots(j: int, left: dict[int, int], hands: dict[int, tuple[int, ...]],
                    slots: dict[int, int], denom: int) -> None:
        if j == len(pool):
            all_hands = [hands.get(s, ()) for s in range(n)]
            all_hands[view.seat] = tuple(view.hand)  # type: ignore[index]
            centre: list[int | None] = [None] * len(view.centre_present)
            for i, v in {**known, **slots}.items():
                centre[i] = v
            try:
                game = game_from_placement(view, facts, Placement(tuple(all_hands), tuple(centre)))
            except ViewError:
                return
            assert numerator % denom == 0
            out.append((game, numerator // denom))
            return
        for v in sorted(left):
            if left[v] > 0:
                left[v] -= 1
                place_slots(j + 1, left, hands, {**slots, pool[j]: v}, denom)
                left[v] += 1

    place_hands(0, counts, {}, 1)
    return out


def expectimax(games: list[tuple[Game, int]]) -> dict[Reveal, tuple[Fraction, Fraction]]:
    """For every legal reveal now: (best p_trio, best p_win) of the rest of the turn, exactly.

    All games share one public state; each branch groups them by the value the
    reveal shows in them, the engine settles the turn (trio, failure, stuck, or
    goes on), and the later reveals are chosen to maximise each goal separately.
    """
    total = sum(w for _, w in games)
    g0 = games[0][0]
    mover = g0.to_move
    out: dict[Reveal, tuple[Fraction, Fraction]] = {}
    if len(g0.turn) == 2:
        # the last reveal: a trio where it matches (settled once by the engine on one game)
        v = g0.turn[0].value
        for r in g0.legal_reveals():
            match = [(g, w) for g, w in games if g.peek(r) == v]
            if not match:
                out[r] = (Fraction(0), Fraction(0))
                continue
            g1 = match[0][0]
            assert g1.reveal(r).status is TurnStatus.TRIO
            won = g1.winner == mover
            g1.undo()
            weight = Fraction(sum(w for _, w in match), total)
            out[r] = (weight, weight if won else Fraction(0))
        return out
    for r in g0.legal_reveals():
        groups: dict[int, list[tuple[Game, int]]] = defaultdict(list)
        for g, w in games:
            groups[g.peek(r)].append((g, w))
        trio = Fraction(0)
        win = Fraction(0)
        for v, grp in groups.items():
            weight = sum(w for _, w in grp)
            statuses = {g.reveal(r).status for g, _ in grp}
            assert len(statuses) == 1, "the outcome of a reveal depends only on public facts and its value"
            status = statuses.pop()
            if status is TurnStatus.TRIO:
                trio += weight
                winners = {g.winner for g, _ in grp}
                assert len(winners) == 1
                if winners.pop() == mover:
                    win += weight
            elif status is TurnStatus.ONGOING:
                sub = expectimax(grp)
                trio += weight * max(p for p, _ in sub.values())
                win += weight * max(q for _, q in sub.values())
            for g, _ in grp:
                g.undo()
        out[r] = (trio / total, win / total)
    return out


def _brute_positions(mid_turn: int) -> list[tuple[str, Game]]:
    settings_ = [Rules(3, Mode.PICANTE), Rules(4, Mode.PICANTE), Rules(5, Mode.PICANTE),
                 Rules(6, Mode.PICANTE), Rules(3, Mode.SIMPLE), Rules(4, Mode.SIMPLE)]
    out = []
    for rules in settings_:
        found = 0
        for seed in range(200):
            game = small_position(rules, 1000 * rules.players + seed, 10, mid_turn)
            if game is None or game.over:
                continue
            out.append((f"{rules.players}-{rules.mode.value}-seed{seed}", game))
            found += 1
            if found == 2:
                break
    return out


@pytest.mark.parametrize("mid_turn", [0, 1, 2])
def test_advise_matches_brute_force_expectimax(mid_turn: int) -> None:
    positions = _brute_positions(mid_turn)
    assert len(positions) >= 8, "the drivers should find small positions in most settings"
    checked = 0
    nonzero_win = 0
    for name, game in positions:
        view = game.view(game.to_move)
        assert len(view.turn) == mid_turn
        games = consistent_games(view)
        assert games, name
        # the true state is one of them
        assert any(g.hands == game.hands and g.centre == game.centre for g, _ in games), name
        oracle = expectimax(games)
        assert set(oracle) == set(view.legal_reveals())
        for objective in ("turn", "trio", "win"):
            adv = advise(view, objective)  # type: ignore[arg-type]
            assert {e.reveal for e in adv.evaluations} == set(oracle)
            for e in adv.evaluations:
                p_trio, p_win = oracle[e.reveal]
                assert e.p_trio == pytest.approx(float(p_trio), abs=1e-9), (name, e.reveal, objective)
                assert e.p_win == pytest.approx(float(p_win), abs=1e-9), (name, e.reveal, objective)
                nonzero_win += p_win > 0
                checked += 1
        # the best reveal is optimal for its objective
        best_trio = max(p for p, _ in oracle.values())
        best_win = max(q for _, q in oracle.values())
        assert advise(view, "trio").best.p_trio == pytest.approx(float(best_trio), abs=1e-9)
        assert advise(view, "win").best.p_win == pytest.approx(float(best_win), abs=1e-9)
    assert checked > 50
    if mid_turn == 0:
        assert nonzero_win > 0, "some positions should offer a winning trio"


def test_brute_force_oracle_sanity() -> None:
    """The oracle itself: a hand-made position where the answer is known by counting."""
    # seat 0 (3 players) holds a single 12 at its top; the other two 12s lie
    # uniformly among the 27 cards it cannot see (9 + 9 in hands, 9 centre slots).
    rules = Rules(3)
    hands = [[1, 1, 1, 2, 3, 4, 5, 6, 12], [2, 2, 3, 3, 4, 4, 5, 5, 12], [6, 6, 7, 7, 7, 8, 8, 8, 9]]
    centre = [9, 9, 10, 10, 10, 11, 11, 11, 12]
    game = Game.from_deal(rules, hands, centre, first_player=0)
    view = game.view(0)
    adv = advise(view, "trio")
    # "win" ranks by the chance to win now: a reveal that may show a 7 (the 7s win), a chance below 0.1%,
    # goes before the certain trio of 1s, which does not win; the default weighs the turn's worth
    win, default = advise(view, "win"), advise(view)
    assert 0 < win.best.p_win == max(e.p_win for e in win.evaluations) < 0.001
    assert win.best.p_trio < 0.1 and win.get("l0").p_win == 0
    assert default.objective == "turn" and default.best.reveal == Reveal.lowest(0)
    # h0 shows 12 for sure; best continuation: h1 then h2 (one 12 in each of the two hands)
    assert adv.get("h0").p_trio == pytest.approx(81 / 351, abs=1e-12)
    assert adv.get("l0").p_trio == 1.0
    assert adv.best.reveal == Reveal.lowest(0)
    plan = adv.get("h0").plan
    assert [s.value for s in plan] == [12] and plan[0].probability == 1.0
    assert set(plan[0].then) == {Reveal.highest(1), Reveal.highest(2)}


# ---------------------------------------------------------------------------
# legality, completeness and order


def _check_advice(view: PlayerView, objective: str) -> None:
    adv = advise(view, objective)  # type: ignore[arg-type]
    legal = view.legal_reveals()
    listed = [e.reveal for e in adv.evaluations]
    assert sorted(listed) == sorted(legal), "every legal reveal exactly once"
    assert len(set(listed)) == len(listed)
    assert adv.best.reveal in legal
    assert adv.seat == view.seat and adv.objective == objective

    # the turn's worth computed here from its definition: a win counts three trios, the goal's share 0.5
    goal = max(view.rules.goal_distance(view.team_trios(view.seat or 0)), 1)

    def key(e: object) -> tuple[float, ...]:
        main, other = (e.p_trio, e.p_win) if objective == "trio" else (e.p_win, e.p_trio)  # type: ignore[attr-defined]
        worth = 3 * e.p_win + e.p_trio + 0.5 * e.progress / goal if objective == "turn" else 0.0  # type: ignore[attr-defined]
        return (round(worth, 12), round(main, 12), round(other, 12))

    keys = [key(e) for e in adv.evaluations]
    assert keys == sorted(keys, reverse=True), "sorted by the objective, best first"
    for e in adv.evaluations:
        assert 0.0 <= e.p_win <= e.p_trio + 1e-12 <= 1.0 + 1e-12
        total = sum(s.probability for s in e.plan)
        if not view.turn:
            assert total == pytest.approx(1.0, abs=1e-9), "the first reveal shows some value"
        else:
            assert total <= 1.0 + 1e-9
            assert all(s.value == view.turn[0].value for s in e.plan)
        assert sum(s.probability * s.p_trio for s in e.plan) == pytest.approx(e.p_trio, abs=1e-9)
        for s in e.plan:
            assert len(s.then) <= 2 - len(view.turn)
    data = adv.to_json()
    assert [r["reveal"] for r in data["reveals"]] == [e.reveal.to_json() for e in adv.evaluations]


@settings(derandomize=True, max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(ALL_RULES), seed=st.integers(0, 10**6), reveals=st.integers(0, 80),
       objective=st.sampled_from(["turn", "trio", "win"]))
def test_advised_reveal_is_legal_and_list_complete(rules: Rules, seed: int, reveals: int, objective: str) -> None:
    game = random_position(rules, seed, reveals)
    if game.over:
        return
    _check_advice(game.view(game.to_move), objective)


def test_advice_in_every_setting_and_turn_stage() -> None:
    for rules in ALL_RULES:
        stages = set()
        for seed in range(12):
            game = random_position(rules, seed, 7 + 5 * seed)
            if game.over:
                continue
            stages.add(len(game.turn))
            for objective in ("turn", "trio", "win"):
                _check_advice(game.view(game.to_move), objective)
        assert stages >= {0, 1}, rules


def test_advice_refuses_wrong_viewer() -> None:
    game = Game.deal(Rules(4), seed=3)
    other = (game.to_move + 1) % 4
    with pytest.raises(ViewError):
        advise(game.view(other))
    with pytest.raises(ViewError):
        advise(game.view(None))
    with pytest.raises(ViewError):
        advise(game.view(game.to_move), "draw")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# statistics: the advised plan, played on deals from the exact posterior


def play_plan(game: Game, adv_best: object) -> bool:
    """Play the advised reveal, then the plan step for the value shown; whether a trio was taken."""
    best = adv_best
    status = game.reveal(best.reveal).status  # type: ignore[attr-defined]
    if status is TurnStatus.TRIO:
        return True
    if status is not TurnStatus.ONGOING:
        return False
    shown = game.turn[-1].value
    steps = {s.value: s for s in best.plan}  # type: ignore[attr-defined]
    assert shown in steps, f"the plan has no step for a shown {shown}"
    for r in steps[shown].then:
        status = game.reveal(r).status
        if status is TurnStatus.TRIO:
            return True
        if status is not TurnStatus.ONGOING:
            return False
    return False


def _stat_positions() -> list[Game]:
    """Positions whose best reveal has a non-trivial chance (0.1 < p_trio < 0.9): three at the start
    of a turn (where the plan branches on the value shown) and two in the middle of a turn."""
    out: list[Game] = []
    specs = [(Rules(3), 0), (Rules(4, Mode.PICANTE), 0), (Rules(5), 0), (Rules(6, Mode.PICANTE), 1),
             (Rules(4), 1)]
    for rules, stage in specs:
        for seed in range(500):
            game = random_position(rules, seed, 4 + seed % 40)
            if game.over or (len(game.turn) > 0) != bool(stage):
                continue
            p = advise(game.view(game.to_move)).best.p_trio
            if 0.1 < p < 0.9:
                out.append(game)
                break
    assert len(out) == len(specs)
    return out


@pytest.mark.slow
def test_plan_frequency_matches_p_trio() -> None:
    for k, game in enumerate(_stat_positions()):
        view = game.view(game.to_move)
        adv = advise(view)
        p = adv.best.p_trio
        beliefs = Beliefs(view)
        rng = random.Random(7000 + k)
        # N such that an error of 0.03 gives |z| ~ 4.5 (detected at the |z| < 4 threshold)
        n = math.ceil(p * (1 - p) * (4.5 / 0.03) ** 2)
        hits = 0
        for _ in range(n):
            sample = sample_game(beliefs, rng)
            hits += play_plan(sample, adv.best)
        freq = hits / n
        z = (freq - p) / math.sqrt(p * (1 - p) / n)
        assert abs(z) < 4, (k, p, freq, n, z)


# ---------------------------------------------------------------------------
# the advice sees only the view


def _same_view(a: PlayerView, b: PlayerView) -> bool:
    return (a.events == b.events and a.hand == b.hand and a.initial_hand == b.initial_hand
            and a.to_move == b.to_move and a.sizes == b.sizes and a.turn == b.turn)


@pytest.mark.slow
@settings(derandomize=True, max_examples=40, deadline=None)
@given(rules=st.sampled_from(NO_TEAM_RULES), seed=st.integers(0, 10**6), reveals=st.integers(0, 60))
def test_advice_independent_of_hidden_cards(rules: Rules, seed: int, reveals: int) -> None:
    g1 = random_position(rules, seed, reveals)
    if g1.over:
        return
    s = g1.to_move
    v1 = g1.view(s)
    g2 = sample_game(Beliefs(v1), random.Random(seed + 1))
    v2 = g2.view(s)
    assert _same_view(v1, v2)
    a1, a2 = advise(v1), advise(v2)
    assert a1.evaluations == a2.evaluations
    assert a1.to_json() == a2.to_json()
    w1, w2 = advise(v1, "win"), advise(v2, "win")
    assert w1.evaluations == w2.evaluations


def test_advice_independent_of_hidden_cards_deals_differ() -> None:
    """The check above is not vacuous: the second deals differ from the first."""
    differ = 0
    for seed in range(20):
        g1 = random_position(Rules(4), seed, 10)
        v1 = g1.view(g1.to_move)
        g2 = sample_game(Beliefs(v1), random.Random(seed))
        differ += g2.dealt != g1.dealt
        assert advise(v1).evaluations == advise(g2.view(g1.to_move)).evaluations
    assert differ >= 15


def test_advice_independent_of_hidden_cards_team_play() -> None:
    """Team play without secret swaps (only the viewer's own team swaps): exact, samplable."""
    checked = 0
    for players in (4, 6):
        rules = Rules(players, Mode.SIMPLE, teams=True)
        for seed in range(8):
            rng = random.Random(seed)
            game = Game.deal(rules, rng=rng)
            mover = game.to_move
            team = rules.teams_of_seats[rules.team_of(mover)]
            swapped = False
            for _ in range(rng.randrange(0, 30)):
                for a, b in game.swap_moment():
                    if (a, b) == tuple(team) and game.hands[a] and game.hands[b]:
                        game.swap(a, b, rng.choice(game.hands[a]), rng.choice(game.hands[b]))
                        swapped = True
                game.reveal(rng.choice(game.legal_reveals()))
                if game.over:
                    break
            if game.over:
                continue
            s = game.to_move
            if swapped and rules.team_of(s) != rules.team_of(mover):
                continue  # the swap cards are secret to s: no exact deal behind its view
            v1 = game.view(s)
            assert not Beliefs(v1).approximate
            g2 = sample_game(Beliefs(v1), random.Random(seed))
            assert _same_view(v1, g2.view(s))
            assert advise(v1).evaluations == advise(g2.view(s)).evaluations
            checked += 1
    assert checked >= 6


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), reveals=st.integers(0, 400))
def test_live_links_are_the_linked_values_no_one_has_taken(seed: int, reveals: int) -> None:
    """Picante: the values a trio of ``v`` could still pair with are those whose sum with ``v`` or
    difference from it is 7, not 7 itself, and not yet taken as a trio by anyone."""
    game = random_position(Rules(3, Mode.PICANTE), seed, reveals)
    view = game.view(game.to_move if not game.over else 0)
    taken = {v for t in view.trios for v in t}
    for v in VALUES:
        expected = sorted(w for w in VALUES if w != v and w != 7 and w not in taken
                          and (v + w == 7 or abs(v - w) == 7))
        assert sorted(live_links(view, v)) == expected
