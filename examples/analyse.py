"""Annotate a finished game: each decision by the loss in the mover's chance to win the game.

    python examples/analyse.py [examples/full_deal_4p.json] [samples]
"""

import sys

from trio_solver import Record
from trio_solver.report.analysis import analyse

path = sys.argv[1] if len(sys.argv) > 1 else "examples/full_deal_4p.json"
samples = int(sys.argv[2]) if len(sys.argv) > 2 else 16  # playouts per candidate reveal (0: turn-level only)
report = analyse(Record.load(path), samples=samples, seed=0)
print(report.header())
for seat in report.seats:
    accuracy = "-" if seat.accuracy is None else f"{seat.accuracy:.0%}"
    print(f"{seat.name}: {seat.decisions} choices, accuracy {accuracy}, blunders {seat.blunders}")
worst = max(report.decisions, key=lambda d: d.loss)
print(f"worst decision: turn {worst.turn}, {report.players[worst.seat]} played {worst.played} "
      f"(chance to win {worst.p_game_played or 0:.2f}) where {worst.best} gave {worst.p_game_best or 0:.2f}")
for moment in report.moments:
    print(" ", moment.text)
last = report.curve[-1] if report.curve else None
if last is not None:
    print("chance to win after the last turn:", ", ".join(
        f"{report.players[s]} {p:.0%}" for s, p in enumerate(last.win_chance)))
