"""Ask the advisor what to reveal, from a record kept at a real table.

    python examples/advise.py [examples/in_progress_5p.json]
"""

import sys

from trio_solver import Beliefs, Record, TrioError
from trio_solver.decide.search import advise


def main(path: str) -> None:
    record = Record.load(path)
    view = record.view()  # the record keeper's view: their hand and everything shown
    beliefs = Beliefs(view)
    print(f"Seat {view.seat} holds {list(view.hand or ())}; seat {view.to_move} to move; face up: "
          f"{' '.join(str(r) for r in view.turn) or 'nothing'}")
    for line in beliefs.deductions()[:6]:
        print("  certain:", line)
    if view.over or view.to_move != view.seat:
        print("Advice is for the record keeper's own move: " +
              ("the game is over." if view.over else f"it is seat {view.to_move}'s turn."))
        return
    advice = advise(view, "trio", beliefs=beliefs)
    for e in advice.evaluations[:5]:
        print(f"  {e.reveal}: p_trio {e.p_trio:.3f}  p_win {e.p_win:.3f}")
    best = advice.best
    print(f"Reveal {best.reveal}.")
    for step in best.plan:
        if step.then:
            print(f"  if it shows {step.value} ({step.probability:.0%}): then {' '.join(map(str, step.then))}"
                  f" -> trio {step.p_trio:.0%}")


if __name__ == "__main__":
    try:
        main(sys.argv[1] if len(sys.argv) > 1 else "examples/in_progress_5p.json")
    except TrioError as e:  # a bad or unreadable record: its one line
        sys.exit(f"advise.py: {e}")
