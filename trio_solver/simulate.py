"""Games between bots, and tournaments that rank them.

Every game is dealt from its own generator, derived from the tournament seed and
the game's number, and every bot of a game gets its own generator derived the
same way; so a game's result does not depend on which process plays it, and
``--workers`` gives exactly the results of one process.
"""

from __future__ import annotations

import math
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from .bots import Bot, make_bot
from .engine import Game
from .errors import IllegalMoveError, ViewError
from .record import Record
from .rules import Mode, Rules

__all__ = ["play_game", "GameResult", "Tournament", "run_tournament", "wilson", "game_seed"]

#: A game longer than this many reveals is stopped as a draw (never seen in practice).
MAX_REVEALS = 20_000


def game_seed(seed: int, index: int, stream: int = 0) -> int:
    """The seed of game ``index`` (stream 0: the deal; stream 1 + seat: that seat's bot)."""
    return (seed * 1_000_003 + index) * 101 + stream


def play_game(rules: Rules, bots: Sequence[Bot], *, rng: random.Random, first_player: int | None = None,
              on_reveal: Callable[[Game], None] | None = None,
              on_decision: Callable[[Game], None] | None = None) -> Game:
    """Deal from ``rng`` and let ``bots`` (one per seat) play the game to its end.

    Bots see only their own views. At a swap moment each partner picks a card
    (``choose_swap``); the team swaps when both did. ``on_decision`` sees the game
    just before each reveal is chosen, ``on_reveal`` just after it is made.
    """
    if len(bots) != rules.players:
        raise ViewError(f"{len(bots)} bots for {rules.players} players")
    game = Game.deal(rules, rng=rng, first_player=first_player)
    reveals = 0
    while not game.over:
        for a, b in game.swap_moment():
            va = bots[a].choose_swap(game.view(a))
            vb = bots[b].choose_swap(game.view(b))
            if va is not None and vb is not None:
                game.swap(a, b, va, vb)
        seat = game.to_move
        if on_decision is not None:
            on_decision(game)
        reveal = bots[seat].choose_reveal(game.view(seat))
        if not game.is_legal(reveal):
            raise IllegalMoveError(f"bot {bots[seat].name!r} at seat {seat} chose an illegal reveal {reveal}")
        game.reveal(reveal)
        reveals += 1
        if on_reveal is not None:
            on_reveal(game)
        if reveals > MAX_REVEALS:
            break
    return game


@dataclass(frozen=True)
class GameResult:
    index: int
    winner: int | None
    turns: int
    record: str | None


def _play_one(args: tuple[Rules, tuple[str, ...], int, int, bool, int | None]) -> GameResult:
    rules, names, seed, index, keep, budget = args
    bots = [make_bot(name, random.Random(game_seed(seed, index, 1 + s)), budget=budget)
            for s, name in enumerate(names)]
    game = play_game(rules, bots, rng=random.Random(game_seed(seed, index)), first_player=index % rules.players)
    turns = sum(1 for e in game.table.events if hasattr(e, "reveals"))
    text = Record.from_game(game, names=[f"{n}@{s}" for s, n in enumerate(names)]).dumps() if keep else None
    return GameResult(index, game.winner, turns, text)


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson 95% confidence interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    # The interval always contains the observed rate; rounding must not push an end past it
    # (wilson(n, n) would otherwise end at 0.9999999999999999).
    return (max(0.0, min(centre - half, p)), min(1.0, max(centre + half, p)))


@dataclass(frozen=True)
class Tournament:
    """The results of a run of games."""

    rules: Rules
    bots: tuple[str, ...]
    seed: int
    results: tuple[GameResult, ...]
    seconds: float

    @property
    def games(self) -> int:
        return len(self.results)

    def seat_wins(self) -> list[int]:
        wins = [0] * self.rules.players
        for r in self.results:
            if r.winner is not None:
                for s in self.rules.teams_of_seats[self.rules.team_of(r.winner)]:
                    wins[s] += 1
        return wins

    def bot_wins(self) -> dict[str, int]:
        """Games won by each bot name (a team win counts once for each bot name in the team)."""
        out = {name: 0 for name in self.bots}
        for r in self.results:
            if r.winner is None:
                continue
            names = {self.bots[s] for s in self.rules.teams_of_seats[self.rules.team_of(r.winner)]}
            for name in names:
                out[name] += 1
        return out

    def to_json(self) -> dict[str, Any]:
        n = self.games
        per_seat = []
        for s, w in enumerate(self.seat_wins()):
            lo, hi = wilson(w, n)
            per_seat.append({"seat": s, "bot": self.bots[s], "wins": w, "win_rate": w / n if n else 0.0,
                             "ci95": [round(lo, 4), round(hi, 4)]})
        return {
            "players": self.rules.players,
            "mode": self.rules.mode.value,
            "teams": self.rules.teams,
            "games": n,
            "seed": self.seed,
            "bots": list(self.bots),
            "wins": self.bot_wins(),
            "per_seat": per_seat,
            "avg_turns": sum(r.turns for r in self.results) / n if n else 0.0,
            "games_per_second": n / self.seconds if self.seconds > 0 else 0.0,
        }


def run_tournament(rules: Rules, bots: Sequence[str], games: int, seed: int, *, workers: int = 1,
                   keep_records: bool = False, progress: bool = False, budget: int | None = None) -> Tournament:
    """Play ``games`` games; game ``i`` starts with seat ``i mod players`` so no seat gains from moving first.

    ``budget`` is passed to every bot that has one (the ``expert`` bot's playouts per decision).
    """
    names = tuple(bots)
    if len(names) != rules.players:
        raise ViewError(f"--bots names {len(names)} bots for {rules.players} players")
    for name in names:
        make_bot(name, random.Random(0), budget=budget)  # unknown names, bad budgets fail before any game
    jobs = [(rules, names, seed, i, keep_records, budget) for i in range(games)]
    start = time.perf_counter()
    results: list[GameResult] = []
    show = progress and sys.stderr.isatty()

    def tick(done: int) -> None:
        if show:
            width = 30
            filled = int(width * done / max(games, 1))
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{games} games")
            sys.stderr.flush()

    if workers > 1 and games > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for r in pool.map(_play_one, jobs, chunksize=max(1, games // (workers * 8))):
                results.append(r)
                tick(len(results))
    else:
        for job in jobs:
            results.append(_play_one(job))
            tick(len(results))
    if show:
        sys.stderr.write("\n")
    return Tournament(rules, names, seed, tuple(results), time.perf_counter() - start)


def save_records(t: Tournament, directory: str) -> list[str]:
    """Write every kept record as ``game_00000.json`` in ``directory`` (created if missing)."""
    os.makedirs(directory, exist_ok=True)
    paths = []
    for r in t.results:
        if r.record is None:
            continue
        path = os.path.join(directory, f"game_{r.index:05d}.json")
        Record.loads(r.record).save(path)
        paths.append(path)
    return paths


def rules_of(players: int, mode: str, teams: bool = False) -> Rules:
    return Rules(players, Mode(mode) if mode in ("simple", "picante") else mode, teams)  # type: ignore[arg-type]
