"""When sampling stops: batches of posterior deals that grow until the answer is clear.

Every game-level figure (:mod:`trio_solver.decide.evaluate`, the analysis, the expert)
comes from playouts on posterior deals ``0, 1, 2, ...`` of a seed. They are drawn
in batches that double (:attr:`Stopping.first`, then as many again each time) up
to a cap (:attr:`Stopping.cap` deals per candidate); after each batch the caller
checks whether its answer is decided and stops if it is.

**The stated confidence.** An answer is *decided* when every comparison it rests
on is outside its confidence interval: ``estimate +- z * stderr``, with
:meth:`Stopping.z`. Because the check is repeated after every batch, ``z`` is
widened for the number of looks the schedule can take (a Bonferroni bound over
the looks): a comparison declared at confidence ``c`` is wrong with chance at
most ``1 - c`` however many times it was looked at. ``confidence=1`` never
stops early: every candidate is played on ``cap`` deals.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from statistics import NormalDist

from .. import _args
from ..errors import ViewError

__all__ = ["Stopping", "MAX_DEALS", "DEFAULT_CONFIDENCE"]

#: The most deals one call may ask for (bounded time: a few tens of microseconds each).
MAX_DEALS = 200_000
#: The confidence at which an answer counts as decided, by default.
DEFAULT_CONFIDENCE = 0.95


@dataclass(frozen=True)
class Stopping:
    """A sampling schedule: batches of ``first`` deals, doubling, up to ``cap`` deals in all, and the
    ``confidence`` at which an answer counts as decided (``1``: play all ``cap`` deals)."""

    confidence: float = DEFAULT_CONFIDENCE
    cap: int = 4096
    first: int = 64

    def __post_init__(self) -> None:
        _args.number_in("confidence", self.confidence, 0.5, 1, ViewError)
        _args.int_in("samples", self.cap, 1, MAX_DEALS, ViewError, "a number of deals")
        _args.int_in("first", self.first, 1, MAX_DEALS, ViewError, "a number of deals")

    def batches(self) -> Iterator[range]:
        """The deal indices of each batch, in order: ``[0, first)``, then doubling up to ``cap``."""
        done = 0
        size = min(self.first, self.cap)
        while done < self.cap:
            end = min(done + size, self.cap)
            yield range(done, end)
            size = end
            done = end

    @property
    def looks(self) -> int:
        """How many times the schedule checks its answer (one per batch)."""
        return sum(1 for _ in self.batches())

    def z(self, one_sided: bool = False) -> float:
        """The width, in standard errors, of an interval at :attr:`confidence` over all the looks
        (``inf`` at confidence 1)."""
        if self.confidence >= 1:
            return math.inf
        alpha = (1 - self.confidence) / self.looks
        return NormalDist().inv_cdf(1 - (alpha if one_sided else alpha / 2))

    def out_of_reach(self, estimate: float, stderr: float, deals: int,
                     wanted: Callable[[float], list[tuple[float, float]]], reach: float = 2.0) -> bool:
        """Futility: whether more deals, up to the cap, would most likely not bring a comparison to an
        answer worth having.

        ``estimate`` and ``stderr`` are the comparison's now, after ``deals`` deals; ``wanted(half)``
        lists the ranges of estimates whose interval of ``half`` on either side would give such an
        answer. If the estimate stayed where it is, the interval at the cap would be ``z`` standard
        errors shrunk to the cap's number of deals; the estimate itself still moves, by about
        ``stderr`` times the root of the share of deals to come (its *movement*). The comparison is
        out of reach when the estimate is more than ``reach`` movements away from every wanted range
        (with ``reach=2``, a normal estimate gets there with chance about 2%). Never at confidence 1
        or at the cap. Stopping for futility only ever stops without an answer: the stated confidence
        of the answers given is untouched."""
        z = self.z()
        if math.isinf(z) or deals >= self.cap:
            return False
        half = z * stderr * math.sqrt(deals / self.cap)
        movement = reach * stderr * math.sqrt(1 - deals / self.cap)
        distance = math.inf
        for lo, hi in wanted(half):
            if lo <= hi:
                distance = min(distance, max(lo - estimate, estimate - hi, 0.0))
        return distance > movement
