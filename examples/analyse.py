"""Annotate a finished game: each decision against the advisor's best reveal.

    python examples/analyse.py [examples/full_deal_4p.json]
"""

import sys

from trio_solver import Record
from trio_solver.analysis import analyse

path = sys.argv[1] if len(sys.argv) > 1 else "examples/full_deal_4p.json"
report = analyse(Record.load(path))
for seat in report.seats:
    print(f"seat {seat.seat}: accuracy {seat.accuracy:.0%}, average loss {seat.average_loss:.3f}, "
          f"blunders {seat.blunders}")
worst = max(report.decisions, key=lambda d: d.loss)
print(f"worst decision: event {worst.event}, seat {worst.seat} played {worst.played} "
      f"(p_trio {worst.p_trio_played:.2f}) where {worst.best} gave {worst.p_trio_best:.2f}")
for moment in report.moments:
    print(" ", moment)
