"""Where a bot's wins come from: its turns, what its failed turns show, and what the next player makes of it.

Games of the tested bot against the others (``--bot expert --against solver``), each deal played with
the tested bot in every seat in turn, as in ``strength.py``. Every turn of every game is counted for
the bot that played it:

* **trio per turn**: the share of its turns that took a trio;
* **shown per failure**: the cards a failed turn showed that were not public before (a card every player
  had already seen teaches the table nothing), and how many of them were the mover's own;
* **gifts**: a failed turn followed, by the next player, by a trio made with at least one card that the
  failed turn had shown for the first time (the hands are the same after a failed turn, so a card is
  known by its place: its position in its seat's sorted hand, or its centre slot). *Gifts given* counts them
  per failed turn of the bot that failed, *gifts taken* per turn of the bot that took the trio.

Figures per bot kind (the tested bot's seats, then the others'), summed over every deal and seat.

    python benchmarks/turn_stats.py --bot expert --against solver --games 150 --seed 95
    python benchmarks/turn_stats.py --bot solver --against solver --games 300 --seed 95
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from strength import lineup  # noqa: E402

from trio_solver.decide.bots import BOT_NAMES  # noqa: E402
from trio_solver.decide.memory import public_memory  # noqa: E402
from trio_solver.game.events import Swap, Turn  # noqa: E402
from trio_solver.game.rules import Mode, Rules  # noqa: E402
from trio_solver.game.state import Game  # noqa: E402
from trio_solver.run.simulate import GameTask, task_game  # noqa: E402

#: A card by its place at the start of a turn: ``("centre", slot, 0)``, or ``("hand", seat, position)`` with
#: its position in the seat's sorted hand (the same card whichever end it is asked from).
Place = tuple[str, int, int]

FIGURES = ("games", "wins", "turns", "trios", "fails", "shown", "own_shown", "gifts_given", "gifts_taken")


def game_stats(game: Game, start: Game | None = None) -> list[Counter[str]]:
    """The figures of :data:`FIGURES` of each seat of a finished (or stopped) ``game``, its turns replayed
    from ``start`` (a copy of the game before its first event; ``None``: the game's deal) to tell which
    cards were shown for the first time."""
    rules = game.rules
    replay = start.copy() if start is not None else Game(rules, game.dealt, game.table.first_player)
    stats: list[Counter[str]] = [Counter() for _ in range(rules.players)]
    shown_before: tuple[int, set[Place]] | None = None  # the last turn if it failed: its mover, what it showed
    for event in game.events:
        if not isinstance(event, Turn):
            if isinstance(event, Swap) and event.cards is not None:
                replay.swap(*event.seats, *event.cards)
            shown_before = None
            continue
        seat = event.seat
        where: set[Place] = set()
        new: set[Place] = set()
        for shown in event.reveals:
            r = shown.reveal
            place = ("centre", r.index, 0) if r.is_centre else ("hand", r.index, replay.table.position(r))
            spectator = replay.view(None)
            if not public_memory(spectator).knows(spectator, r):
                new.add(place)
            where.add(place)
            if replay.reveal(r).value != shown.value:
                raise AssertionError(f"the replay of the game shows another card at {r}")
        s = stats[seat]
        s["turns"] += 1
        if event.took_trio:
            s["trios"] += 1
            if shown_before is not None and shown_before[0] != seat and shown_before[1] & where:
                stats[shown_before[0]]["gifts_given"] += 1
                s["gifts_taken"] += 1
            shown_before = None
        else:
            s["fails"] += 1
            s["shown"] += len(new)
            s["own_shown"] += sum(1 for p in new if p[0] != "centre" and p[1] == seat)
            shown_before = (seat, new)
    for st in stats:
        st["games"] += 1
    if game.winner is not None:
        for seat in rules.teams_of_seats[rules.team_of(game.winner)]:
            stats[seat]["wins"] += 1
    return stats


def run(rules: Rules, bot: str, against: str, games: int, seed: int) -> dict[str, Counter[str]]:
    """``games`` games split evenly among the sides, game ``i`` of every side the same deal; the figures
    summed per bot kind: ``"tested"`` (the tested bot's seats) and ``"others"``."""
    sides = len(rules.teams_of_seats)
    out: dict[str, Counter[str]] = {"tested": Counter(), "others": Counter()}
    for side in range(sides):
        names = lineup(rules, bot, against, side)
        team = set(rules.teams_of_seats[side])
        for i in range(games // sides + (1 if side < games % sides else 0)):
            game = task_game(GameTask(rules, tuple(names), seed, i))
            for s, st in enumerate(game_stats(game)):
                out["tested" if s in team else "others"].update(st)
    return out


def row(label: str, c: Counter[str]) -> str:
    def per(a: str, b: str) -> str:
        return f"{c[a] / c[b]:.3f}" if c[b] else "-"
    return (f"{label:<22} {c['games']:>6} {per('wins', 'games'):>6} {c['turns']:>6} {per('trios', 'turns'):>6} "
            f"{per('shown', 'fails'):>6} {per('own_shown', 'fails'):>6} {per('gifts_given', 'fails'):>6} "
            f"{per('gifts_taken', 'turns'):>6}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bot", choices=BOT_NAMES, default="expert")
    p.add_argument("--against", choices=BOT_NAMES, default="solver")
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--mode", choices=[m.value for m in Mode], default="simple")
    p.add_argument("--teams", action="store_true")
    p.add_argument("--games", type=int, default=150)
    p.add_argument("--seed", type=int, default=95)
    args = p.parse_args(argv)
    rules = Rules(args.players, args.mode, teams=args.teams)
    t0 = time.perf_counter()
    got = run(rules, args.bot, args.against, args.games, args.seed)
    print(f"{args.bot} vs {args.against}: {args.games} games, {args.players} players {args.mode}"
          f"{' in teams' if args.teams else ''}, seed {args.seed}, {time.perf_counter() - t0:.0f} s")
    print(f"{'bot':<22} {'seats':>6} {'win':>6} {'turns':>6} {'trio/t':>6} {'shown':>6} {'own':>6} "
          f"{'gift>':>6} {'>gift':>6}")
    print(row(f"{args.bot} (tested)", got["tested"]))
    print(row(f"{args.against} (others)", got["others"]))
    print("seats: seat-games; win: wins per seat-game; trio/t: trios per turn; shown, own: cards not public "
          "before shown per failed turn, of them the mover's own; gift>: gifts given per failed turn; "
          ">gift: gifts taken per turn")
    return 0


if __name__ == "__main__":
    from _script import run_script  # beside this script

    run_script(main, __file__)
