"""How strong are the bots? One ``solver`` (or ``expert``) against ``memory`` (or ``solver``) bots.

For each setting, the tested bot plays against ``memory`` (or ``solver``) bots:
3-6 players in simple and picante mode, and team play at 4 and 6 players (both
seats of one team played by the tested bot, against teams of opponents).

**Every deal is played once with the tested bot (team) in each seat (team)**, the
duplicate format of bridge: ``--games`` is split evenly among the seats, and game
``i`` of every seat is the same deal with the same first player (the first player
also rotates from deal to deal, ``run_tournament``). With the tested bot always in
seat 0 the measurement carried seat 0's own advantage or handicap: three ``solver``
bots at 3 players simple won 364 of 1,200 games in seat 0, 30.3% [27.8, 33.0], below
the fair share (``--bot solver --against solver --only 3p-simple --games 1200
--seed 5 --fixed-seat``). With the rotation three identical bots win exactly the
fair share, and a deal's luck (who was dealt the good hand) counts for every seat
alike.

The rate is printed with a 95% Wilson interval over all games and with the
standard error over deals (the games of a deal are not independent: usually a
good deal for one seat is a bad one for the others, which makes the spread over
deals smaller than the binomial one). The verdict "above fair" needs the lower end
above the fair share (1/players, or 1/teams in team play) under both.

    python benchmarks/strength.py --games 400 --workers 2 --seed 1
    python benchmarks/strength.py --bot expert --against solver --only 3p-simple --games 300
    python benchmarks/strength.py --bot expert --budget 480 --only 4t-simple --against solver

``--bot`` picks the bot tested (default solver), ``--against`` its opponents (default
memory), ``--budget`` the expert's playouts per decision (default: its own),
``--fixed-seat`` keeps the tested bot in seat 0 (the format of earlier figures),
``--results DIR`` saves every game as it finishes so that an interrupted run resumes.
``--paired BOT`` plays the same deals again with ``BOT`` in the tested bot's seats and prints the
paired difference of the two win rates (per deal, with its standard error over deals and a 95%
interval), the way to compare two bots without the luck of the deals:

    python benchmarks/strength.py --bot expert --paired expert-ties --against solver --only 3p-simple --games 150 --seed 21

``--paired-results DIR`` does the same against the games another version of the code saved with
``--results DIR`` (the same command run on that version): the way to measure a change of a bot.

``--seed`` may list several seeds (``--seed 11,12,13`` or ``--seed 11-17``): each seed is its own
set of deals, and a row per seed is followed by a ``:all`` row pooling them (a deal is a seed
and a game number, so the standard error over deals counts every seed's deals). Together with
``--results`` a pooled verdict is one command that plays only the games not yet saved, so a run
of several seeds can be spread over sessions, every seed counted.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable, Iterable
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trio_solver.game.rules import Mode, Rules  # noqa: E402
from trio_solver.run.simulate import run_tournament, wilson  # noqa: E402


def settings(only: str | None) -> list[Rules]:
    out = [Rules(n, mode) for n in (3, 4, 5, 6) for mode in (Mode.SIMPLE, Mode.PICANTE)]
    out += [Rules(n, mode, teams=True) for n in (4, 6) for mode in (Mode.SIMPLE, Mode.PICANTE)]
    if only:
        keep = set(only.split(","))
        unknown = sorted(keep - {label(r) for r in out})
        if unknown:
            raise ValueError(f"--only: unknown setting {', '.join(unknown)} "
                             f"(settings: {', '.join(label(r) for r in out)})")
        out = [r for r in out if label(r) in keep]
    return out


def label(rules: Rules) -> str:
    return f"{rules.players}{'t' if rules.teams else 'p'}-{rules.mode.value}"


def lineup(rules: Rules, bot: str = "solver", against: str = "memory", team: int = 0) -> list[str]:
    """``bot`` at the seats of side ``team`` (seat ``team`` without teams); ``against`` elsewhere."""
    seats = set(rules.teams_of_seats[team])
    return [bot if s in seats else against for s in range(rules.players)]


@dataclass(frozen=True)
class Duplicate:
    """The tested bot's results over deals played with it in every side: ``wins[d]`` and ``games[d]``
    per deal ``d`` (a game number; ``(part, game number)`` once :meth:`pooled`), and the wins in each
    side (``by_side``)."""

    wins: dict[Any, int]
    games: dict[Any, int]
    by_side: list[int]
    turns: float

    @staticmethod
    def pooled(parts: list[Duplicate]) -> Duplicate:
        """The results of several sets of deals (one per seed) as one: deal ``d`` of part ``k`` is deal
        ``(k, d)``, the wins by side and the games' turns add up."""
        wins: dict[Any, int] = {}
        games: dict[Any, int] = {}
        for k, part in enumerate(parts):
            wins.update({(k, d): w for d, w in part.wins.items()})
            games.update({(k, d): n for d, n in part.games.items()})
        by_side = [sum(col) for col in zip(*(part.by_side for part in parts))]
        n_all = sum(part.total[1] for part in parts)
        turns = sum(part.turns * part.total[1] for part in parts) / max(n_all, 1)
        return Duplicate(wins, games, by_side, turns)

    @property
    def total(self) -> tuple[int, int]:
        return sum(self.wins.values()), sum(self.games.values())

    def deal_stderr(self) -> float:
        """Standard error of the win rate with deals as the independent units (ratio estimator)."""
        w, n = self.total
        rate = w / n
        k = len(self.games)
        if k < 2:
            return float("inf")
        resid = [self.wins[d] - rate * self.games[d] for d in self.games]
        mean_games = n / k
        return math.sqrt(sum(r * r for r in resid) / (k - 1) / k) / mean_games


#: One side's games: (side, its line-up, its number of games) -> (game number, winner, turns) per game.
SideGames = Callable[[int, list[str], int], Iterable[tuple[int, "int | None", int]]]


def _by_sides(rules: Rules, bot: str, against: str, games: int, fixed_seat: bool, side_games: SideGames) -> Duplicate:
    """``games`` split evenly among the sides (all in side 0 with ``fixed_seat``), each side's games from
    ``side_games``, tallied per deal."""
    sides = 1 if fixed_seat else len(rules.teams_of_seats)
    wins: dict[int, int] = {}
    count: dict[int, int] = {}
    by_side = []
    turns = 0
    for side in range(sides):
        n = games // sides + (1 if side < games % sides else 0)
        won = 0
        if n:
            team = set(rules.teams_of_seats[side])
            for i, winner, t in side_games(side, lineup(rules, bot, against, side), n):
                w = int(winner is not None and winner in team)
                wins[i] = wins.get(i, 0) + w
                count[i] = count.get(i, 0) + 1
                won += w
                turns += t
        by_side.append(won)
    return Duplicate(wins, count, by_side, turns / games)


def _file(folder: Path, rules: Rules, names: list[str], seed: int) -> Path:
    return folder / f"{label(rules)}-{'-'.join(names)}-seed{seed}.jsonl"


def duplicate(rules: Rules, bot: str, against: str, games: int, seed: int, *, workers: int,
              budget: int | None, fixed_seat: bool = False, results: Path | None = None) -> Duplicate:
    """Play ``games`` games split evenly among the sides (all in side 0 with ``fixed_seat``), the same
    seed for each side so that game ``i`` of every side is the same deal. With ``results`` (a folder)
    each side's games go to a results file there as they finish, and a run started again with the
    same parameters plays only the games that file lacks."""

    def play(side: int, names: list[str], n: int) -> Iterable[tuple[int, int | None, int]]:
        file = None if results is None else str(_file(results, rules, names, seed))
        t = run_tournament(rules, names, n, seed, workers=workers, budget=budget, results_file=file)
        return [(r.index, r.winner, r.turns) for r in t.results]

    return _by_sides(rules, bot, against, games, fixed_seat, play)


def read_duplicate(rules: Rules, bot: str, against: str, games: int, seed: int, folder: Path,
                   fixed_seat: bool = False) -> Duplicate:
    """The games of :func:`duplicate` as an earlier run saved them in ``folder`` (``--results``), read
    back, not played: the way to pair this code's games with another version's on the same deals.
    Exits with a one-line message when a file or a game is missing."""

    def read(side: int, names: list[str], n: int) -> Iterable[tuple[int, int | None, int]]:
        file = _file(folder, rules, names, seed)
        try:
            lines = file.read_text().splitlines()[1:]
        except OSError as e:
            raise SystemExit(f"strength.py: {file}: cannot read ({e.strerror})") from None
        got = {g["game"]: g for g in map(json.loads, lines) if g["game"] < n}
        if len(got) < n:
            raise SystemExit(f"strength.py: {file}: {len(got)} of {n} games")
        return [(i, g["winner"], g["turns"]) for i, g in sorted(got.items())]

    return _by_sides(rules, bot, against, games, fixed_seat, read)


def paired(a: Duplicate, b: Duplicate) -> tuple[float, float]:
    """The difference of the win rates of ``a`` and ``b`` on the same deals, and its standard error
    with deals as the independent units (the mean over deals of the difference of their win shares)."""
    deals = sorted(set(a.games) & set(b.games), key=repr)
    diffs = [a.wins[d] / a.games[d] - b.wins[d] / b.games[d] for d in deals]
    k = len(diffs)
    mean = sum(diffs) / k
    if k < 2:
        return mean, float("inf")
    return mean, math.sqrt(sum((x - mean) ** 2 for x in diffs) / (k - 1) / k)


def parse_seeds(text: str) -> list[int]:
    """``"5"``, ``"11,12,13"`` or ``"11-17"`` (or a mix, ``"1,11-13"``) as a list of distinct seeds in
    the order given (at most 10,000); anything else is an ``argparse`` error naming the text."""
    bad = argparse.ArgumentTypeError(f"expected seeds such as 5, 11,12,13 or 11-17, got {text!r}")
    seeds: list[int] = []
    for part in text.split(","):
        m = re.fullmatch(r"\s*(-?\d+)\s*(?:-\s*(-?\d+)\s*)?", part)
        if m is None:
            raise bad
        lo = int(m.group(1))
        hi = lo if m.group(2) is None else int(m.group(2))
        if hi < lo or len(seeds) + hi - lo >= 10_000:
            raise bad
        seeds += [x for x in range(lo, hi + 1) if x not in seeds]
    return seeds


def row(name: str, bots: list[str], d: Duplicate, fair: float, elapsed: float) -> bool:
    """Print one result row; whether the lower end of both intervals is above ``fair``."""
    wins, n = d.total
    lo, hi = wilson(wins, n)
    se = d.deal_stderr()
    lo2, hi2 = wins / n - 1.959964 * se, wins / n + 1.959964 * se
    lower, upper = min(lo, lo2), max(hi, hi2)
    verdict = "yes" if lower > fair else ("no (below)" if upper < fair else "not shown")
    print(f"{name:<13} {','.join(bots):<30} {wins:>5} {wins / n:>6.3f}  [{lo:.3f}, {hi:.3f}]  "
          f"{se:>7.3f} {'/'.join(map(str, d.by_side)):<16} {fair:>5.3f}  {verdict:<11}  "
          f"{d.turns:>5.1f} {elapsed:>6.1f}")
    return lower > fair


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=400, help="games per setting and seed (default 400)")
    p.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    p.add_argument("--seed", type=parse_seeds, default=[1],
                   help="a seed, or several (11,12,13 or 11-17) pooled in a last row")
    p.add_argument("--only", help="comma-separated settings, e.g. 3p-simple,4t-picante")
    p.add_argument("--bot", default="solver", help="the bot tested (default solver)")
    p.add_argument("--against", default="memory", help="its opponents (default memory)")
    p.add_argument("--budget", type=int, default=None, help="the expert's playouts per decision")
    p.add_argument("--paired", default=None,
                   help="a second bot played on the same deals in the same seats: prints the paired difference")
    p.add_argument("--paired-results", type=Path, default=None, metavar="DIR",
                   help="the --results folder of the same run made by another version of the code: prints the "
                        "paired difference against those games (read, not played)")
    p.add_argument("--fixed-seat", action="store_true",
                   help="keep the tested bot in seat 0 instead of playing every deal with it in each side")
    p.add_argument("--results", type=Path, default=None,
                   help="a folder for results files: games are saved as they finish, and a run started "
                        "again with the same parameters resumes")
    args = p.parse_args(argv)
    try:
        chosen = settings(args.only)
    except ValueError as e:
        p.error(str(e))
    if args.results is not None:
        args.results.mkdir(parents=True, exist_ok=True)
    seeds: list[int] = args.seed

    print(f"{args.bot} vs {args.against} bots: {args.games} games per setting, "
          f"seed{'s' if len(seeds) > 1 else ''} {','.join(map(str, seeds))}, "
          f"{args.workers} workers" + (f", budget {args.budget}" if args.budget else "")
          + (", tested bot in seat 0" if args.fixed_seat else ", every deal with the tested bot in each side"))
    print(f"{'setting':<13} {'bots':<30} {'wins':>5} {'rate':>6}  {'95% interval':<16} {'± deals':>7} "
          f"{'by side':<16} {'fair':>5}  above fair?  {'turns':>5} {'s':>6}")
    above = 0
    rows = 0
    for rules in chosen:
        bots = lineup(rules, args.bot, args.against)
        fair = 1 / len(rules.teams_of_seats)
        parts = []
        total_time = 0.0
        for seed in seeds:
            t0 = time.perf_counter()
            parts.append(duplicate(rules, args.bot, args.against, args.games, seed, workers=args.workers,
                                   budget=args.budget, fixed_seat=args.fixed_seat, results=args.results))
            elapsed = time.perf_counter() - t0
            total_time += elapsed
            name = label(rules) if len(seeds) == 1 else f"{label(rules)}:{seed}"
            shown = row(name, bots, parts[-1], fair, elapsed)
        if len(seeds) > 1:
            shown = row(f"{label(rules)}:all", bots, Duplicate.pooled(parts), fair, total_time)
        if args.paired:
            other = []
            t0 = time.perf_counter()
            for seed in seeds:
                other.append(duplicate(rules, args.paired, args.against, args.games, seed, workers=args.workers,
                                       budget=args.budget, fixed_seat=args.fixed_seat, results=args.results))
            mine, theirs = Duplicate.pooled(parts), Duplicate.pooled(other)
            row(f"{label(rules)}" + (":all" if len(seeds) > 1 else ""), lineup(rules, args.paired, args.against),
                theirs, fair, time.perf_counter() - t0)
            diff, se = paired(mine, theirs)
            print(f"{'':<13} {args.bot} - {args.paired}, same deals: {diff:+.3f} "
                  f"[{diff - 1.959964 * se:+.3f}, {diff + 1.959964 * se:+.3f}] (± {se:.3f} over deals)")
        if args.paired_results:
            before = Duplicate.pooled([read_duplicate(rules, args.bot, args.against, args.games, seed,
                                                      args.paired_results, args.fixed_seat) for seed in seeds])
            row(f"{label(rules)}" + (":all" if len(seeds) > 1 else ""), bots, before, fair, 0.0)
            diff, se = paired(Duplicate.pooled(parts), before)
            print(f"{'':<13} this code - {args.paired_results.name}, same deals: {diff:+.3f} "
                  f"[{diff - 1.959964 * se:+.3f}, {diff + 1.959964 * se:+.3f}] (± {se:.3f} over deals)")
        above += shown
        rows += 1
    what = "pooled over the seeds, " if len(seeds) > 1 else ""
    print(f"lower end of the interval above the fair share ({what}both intervals) in {above} of {rows} settings")
    return 0


if __name__ == "__main__":
    from _script import run_script  # beside this script

    run_script(main, __file__)
