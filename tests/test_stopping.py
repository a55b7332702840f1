"""Sampling that stops when the answer is clear: the schedule, and the stated confidence checked by
simulation on races whose true chances are known."""

from __future__ import annotations

import math

import numpy as np
import pytest

from trio_solver.report.analysis import GAME_THRESHOLDS, judge_loss, label_for
from trio_solver.errors import ViewError
from trio_solver.decide.evaluate import Race, ranking_settled
from trio_solver.game.reveal import Reveal
from trio_solver.decide.search import Evaluation
from trio_solver.decide.stopping import Stopping


def test_batches_double_up_to_the_cap() -> None:
    assert [(r.start, r.stop) for r in Stopping(0.95, 256, 32).batches()] == [(0, 32), (32, 64), (64, 128),
                                                                             (128, 256)]
    assert [(r.start, r.stop) for r in Stopping(0.95, 100, 64).batches()] == [(0, 64), (64, 100)]
    assert [(r.start, r.stop) for r in Stopping(0.95, 10, 64).batches()] == [(0, 10)]
    assert Stopping(0.95, 256, 32).looks == 4


def test_z_widens_with_the_looks_and_is_infinite_at_confidence_one() -> None:
    one = Stopping(0.95, 64, 64)
    assert one.looks == 1 and one.z() == pytest.approx(1.959964, abs=1e-6)
    assert one.z(one_sided=True) == pytest.approx(1.644854, abs=1e-6)
    four = Stopping(0.95, 512, 64)
    assert four.z() == pytest.approx(2.497705, abs=1e-6)  # each look at 1 - 0.05 / 4
    assert math.isinf(Stopping(1.0, 64).z())


@pytest.mark.parametrize("bad", [0.4, 1.01, math.nan, math.inf, "0.9", True, None])
def test_bad_confidences_are_refused(bad: object) -> None:
    with pytest.raises(ViewError, match="confidence"):
        Stopping(bad, 64)  # type: ignore[arg-type]


def _candidates(k: int) -> list[Evaluation]:
    return [Evaluation(Reveal.lowest(i), p_trio=0.0, p_win=0.0, plan=(), known_value=None, progress=0.0)
            for i in range(k)]


def _synthetic(means: list[float], shared: float, seed: int) -> Race:
    """A race whose candidates win deal ``j`` with known chances ``means``: on a share ``shared`` of the
    deals their results come from one common draw (as playouts of the same deal do), else each its own.
    Deal ``j`` draws the same results in any batch."""
    cands = _candidates(len(means))
    mu = np.array(means)

    def play(chosen: list[Evaluation], deals: range) -> tuple[np.ndarray, np.ndarray]:
        rows = [c.reveal.index for c in chosen]
        results = np.zeros((len(chosen), len(deals)))
        for k, j in enumerate(deals):
            rng = np.random.default_rng([seed, j])
            common, own = rng.random(), rng.random(len(means))
            x = common < mu if rng.random() < shared else own < mu
            results[:, k] = x[rows]
        return np.zeros((len(chosen), len(deals)), np.int64), results

    return Race(cands, play)


@pytest.mark.parametrize("confidence", [0.8, 0.95])
def test_the_loss_interval_holds_the_true_loss_at_the_stated_confidence(confidence: float) -> None:
    """Over many races with known chances (losses near and far from the label thresholds), the
    interval of the loss holds the true loss, and the label is never above the true loss's band, in
    at least ``confidence`` of the races."""
    cases = [[0.40, 0.36, 0.30, 0.20], [0.40, 0.34, 0.33], [0.30, 0.19, 0.25], [0.5, 0.5, 0.45], [0.35, 0.14]]
    missed = overlabelled = runs = 0
    for c, means in enumerate(cases):
        true_loss = max(means) - means[1]
        true_label = label_for(true_loss, GAME_THRESHOLDS)
        for seed in range(60):
            race = _synthetic(means, 0.6, 1000 * c + seed)
            _, loss, _, low, high = judge_loss(race, 1, Stopping(confidence, 256, 32))
            missed += not low - 1e-12 <= true_loss <= high + 1e-12
            label = label_for(low, GAME_THRESHOLDS)
            rank = [None] + [name for _, name in reversed(GAME_THRESHOLDS)]
            overlabelled += rank.index(label) > rank.index(true_label)
            runs += 1
    allowed = (1 - confidence) * runs + 3 * math.sqrt(confidence * (1 - confidence) * runs)
    assert missed <= allowed, (missed, runs)
    assert overlabelled <= allowed, (overlabelled, runs)


def test_a_clear_answer_stops_early_and_an_unclear_one_stops_for_futility() -> None:
    """A clear loss stops before the cap, decided. A loss on a threshold stops before the cap too, not
    sure: more deals would most likely not lift its lower end over the threshold. So does a reveal as
    good as the best. At confidence 1 every one plays the cap."""
    clear = _synthetic([0.2, 0.9, 0.1], 0.6, 1)
    judge_loss(clear, 1, Stopping(0.95, 1024, 32))
    assert clear.tallies[1].samples < 1024
    unclear = _synthetic([0.50, 0.45], 0.6, 2)  # a loss of 0.05: on a threshold
    _, _, _, low, high = judge_loss(unclear, 1, Stopping(0.95, 1024, 32))
    assert unclear.tallies[1].samples < 1024
    assert low < 0.05 < high
    equal = _synthetic([0.50, 0.50], 0.6, 6)
    _, _, _, low, _ = judge_loss(equal, 1, Stopping(0.95, 1024, 32))
    assert equal.tallies[1].samples <= 256 and label_for(low, GAME_THRESHOLDS) is None
    everything = _synthetic([0.50, 0.45], 0.6, 2)
    judge_loss(everything, 1, Stopping(1.0, 1024, 32))
    assert everything.tallies[1].samples == 1024


def test_futility_keeps_the_labels_the_cap_finds() -> None:
    """Over races whose loss is in the middle of a band, the label found with futility stops is the one
    found by playing every race to the cap on the same deals, in all but a few."""
    differ = 0
    for seed in range(40):
        means = [0.55, 0.47] if seed % 2 else [0.55, 0.40]  # an inaccuracy, a mistake
        stopped = _synthetic(means, 0.6, 100 + seed)
        _, _, _, low, _ = judge_loss(stopped, 1, Stopping(0.95, 256, 32))
        full = _synthetic(means, 0.6, 100 + seed)
        full.run(Stopping(0.95, 256, 32), lambda r, z: False, keep=[1])
        z = Stopping(0.95, 256, 32).z()
        gap, se = full.gap(0, 1)
        differ += label_for(low, GAME_THRESHOLDS) != label_for(max(gap - z * se, 0.0), GAME_THRESHOLDS)
    assert differ <= 4, differ


def test_a_loss_the_cap_can_tell_is_played_on_until_it_is_told() -> None:
    """A loss in the middle of a band (0.15, a mistake) is undecided after the first batch but not futile:
    the race goes on and ends decided, labelled a mistake."""
    race = _synthetic([0.55, 0.40], 0.6, 3)
    _, _, _, low, high = judge_loss(race, 1, Stopping(0.95, 1024, 32))
    assert race.tallies[1].samples > 64
    assert label_for(low, GAME_THRESHOLDS) == label_for(high, GAME_THRESHOLDS) == "mistake"


def test_out_of_reach_on_an_edge_and_within_reach_inside_a_range() -> None:
    stopping = Stopping(0.95, 1024, 32)

    def ranges(half: float) -> list[tuple[float, float]]:
        return [(-math.inf, 0.05 - half), (0.05 + half, math.inf)]

    assert stopping.out_of_reach(0.05, 0.02, 512, ranges)  # on the edge: the cap's interval straddles it
    assert not stopping.out_of_reach(0.12, 0.02, 512, ranges)  # inside a deciding range already
    assert not stopping.out_of_reach(0.05, 0.08, 32, ranges)  # early: the estimate may still move far
    assert not stopping.out_of_reach(0.05, 0.02, 1024, ranges)  # at the cap: nothing is stopped early
    assert not Stopping(1.0, 1024, 32).out_of_reach(0.05, 0.02, 512, ranges)  # confidence 1 plays the cap


def _within_margin(race: Race, z: float, margin: float) -> bool:
    """Whether the ranking is decided: every reveal left within ``margin`` of the leader at ``z``."""
    best = race.leader()
    return all(i == best or race.gap(best, i)[0] + z * race.gap(best, i)[1] < margin for i in race.alive)


def test_a_ranking_of_near_ties_the_cap_cannot_tell_apart_stops_early() -> None:
    """Two reveals 0.003 apart whose playouts differ on most deals, beside one far behind: even the cap's
    deals could not say whether the two are within 0.01 of each other, so the race stops long before the
    cap, undecided, the two still in it (the one behind dropped on the way). Without the futility stop
    the same races play every deal of the cap."""
    stopping = Stopping(0.95, 2048, 64)
    stopped = []
    for seed in range(8):
        race = _synthetic([0.500, 0.497, 0.30], 0.3, 200 + seed)
        race.run(stopping, ranking_settled(stopping, 0.01))
        assert 2 not in race.alive and not _within_margin(race, stopping.z(), 0.01)
        stopped.append(race.tallies[race.leader()].samples)
        plain = _synthetic([0.500, 0.497, 0.30], 0.3, 200 + seed)
        plain.run(stopping, lambda r, z: _within_margin(r, z, 0.01))
        assert plain.tallies[plain.leader()].samples == 2048 or len(plain.alive) == 1
    assert max(stopped) <= 1024 and min(stopped) <= 512, stopped  # half the cap at most


def test_a_ranking_the_cap_can_settle_plays_on_until_it_is_settled() -> None:
    """A reveal 0.06 behind is dropped as beaten, after more than the first batch; two reveals whose
    playouts agree on almost every deal end within the margin of each other, told so at the stated
    confidence. At confidence 1 the race plays the cap."""
    stopping = Stopping(0.95, 2048, 64)
    beaten = _synthetic([0.56, 0.50], 0.6, 7)
    beaten.run(stopping, ranking_settled(stopping, 0.01))
    assert beaten.alive == [0] and beaten.tallies[1].samples > 64
    alike = _synthetic([0.50, 0.50], 0.995, 8)
    alike.run(stopping, ranking_settled(stopping, 0.01))
    assert alike.alive == [0, 1] and _within_margin(alike, stopping.z(), 0.01)
    everything = Stopping(1.0, 512, 64)
    full = _synthetic([0.500, 0.497], 0.3, 9)
    full.run(everything, ranking_settled(everything, 0.01))
    assert full.tallies[1].samples == 512
