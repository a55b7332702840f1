"""Games between bots, and tournaments that rank them.

Every game is dealt from its own generator, derived from the tournament seed and
the game's number, and every bot of a game gets its own generator derived the
same way; so a game's result does not depend on which process or machine plays
it, and every backend and number of ``--workers`` give exactly the results of one
process. Tournaments run through :func:`trio_solver.run.parallel.run_tasks` (a local
process pool or Ray), stream their games a bounded window at a time, and can
append every finished game to a results file and resume from it
(:mod:`trio_solver.run.results`).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, TextIO

from .. import _args, limits
from ..decide.bots import Bot, make_bot
from ..game.state import Game
from ..errors import IllegalMoveError, RunError, ViewError
from .parallel import RunInfo, run_tasks
from ..game.record import Record
from .results import ResultsFile
from ..files import output_folder
from ..game.rules import Rules

__all__ = ["play_game", "GameResult", "GameTask", "Totals", "Tournament", "run_tournament", "play_task", "task_game", "wilson",
           "game_seed", "save_records", "save_record"]

#: A game longer than this many reveals is stopped as a draw (never seen in practice).
MAX_REVEALS = 20_000


#: Games per seed that get an integer seed of their own (see :func:`game_seed`).
_SPAN = 1_000_003


def game_seed(seed: int, index: int, stream: int = 0) -> int:
    """The seed of game ``index`` (stream 0: the deal; stream 1 + seat: that seat's bot), for
    :class:`random.Random`: distinct for every run seed, game and stream. For a seed of 0 or more and the
    first 1,000,003 games, ``(seed * 1,000,003 + index) * 101 + stream`` (below 2**90); beyond them, and for
    a negative seed (``random.Random`` takes -s as s), 2**128 plus a 128-bit hash of the three, so that no
    game of one seed repeats a game of another."""
    if seed >= 0 and 0 <= index < _SPAN:
        return (seed * _SPAN + index) * 101 + stream
    digest = hashlib.blake2b(f"trio game {seed} {index} {stream}".encode(), digest_size=16).digest()
    return 2**128 + int.from_bytes(digest, "big")


def play_game(rules: Rules, bots: Sequence[Bot], *, rng: random.Random, first_player: int | None = None,
              on_reveal: Callable[[Game], None] | None = None,
              on_decision: Callable[[Game], None] | None = None,
              on_start: Callable[[Game], None] | None = None,
              on_swap: Callable[[Game, int, int, int | None, int | None], None] | None = None) -> Game:
    """Deal from ``rng`` and let ``bots`` (one per seat) play the game to its end.

    Bots see only their own views. At a swap moment each partner picks a card
    (``choose_swap``); the team swaps when both did. ``on_start`` sees the game
    once dealt (a caller that may be interrupted keeps it), ``on_swap(game, a, b,
    card_a, card_b)`` each swap moment after the partners chose (``None``: no
    swap), ``on_decision`` the game just before each reveal is chosen,
    ``on_reveal`` just after it is made. An exception raised by a bot or a hook
    ends the game where it stands and propagates.
    """
    _args.instance("rules", rules, Rules, ViewError)
    _args.rng("rng", rng, ViewError)
    if not isinstance(bots, (list, tuple)):
        raise ViewError(f"bots: expected a list of bots, got {_args.show(bots)}")
    for k, b in enumerate(bots):
        _args.bot(f"bots[{k}]", b, ViewError)
    if len(bots) != rules.players:
        raise ViewError(f"bots: {len(bots)} bots for {rules.players} players")
    _args.seat("first_player", first_player, rules.players, ViewError, none=True)
    for hook in (on_reveal, on_decision, on_start, on_swap):
        if hook is not None and not callable(hook):
            raise ViewError(f"hooks: expected functions or None, got {type(hook).__name__}")
    game = Game.deal(rules, rng=rng, first_player=first_player)
    if on_start is not None:
        on_start(game)
    reveals = 0
    while not game.over:
        for a, b in game.swap_moment():
            va = bots[a].choose_swap(game.view(a))
            vb = bots[b].choose_swap(game.view(b))
            if va is not None and vb is not None:
                game.swap(a, b, va, vb)
            if on_swap is not None:
                on_swap(game, a, b, va, vb)
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
    """One finished game: its number, the winning seat (``None``: stopped as a draw), turns, and record."""

    index: int
    winner: int | None
    turns: int
    record: str | None

    def to_json(self) -> dict[str, Any]:
        """The line of a results file (the record is not stored there)."""
        return {"game": self.index, "winner": self.winner, "turns": self.turns}


@dataclass(frozen=True)
class GameTask:
    """Everything one game of a tournament depends on (picklable: it is sent to worker processes).

    Every field but ``index`` and ``keep_record`` is a parameter of the whole
    tournament and goes into the header of a results file (:meth:`params`), so a
    field added here is checked on resume too.
    """

    rules: Rules
    bots: tuple[str, ...]
    seed: int
    index: int = 0
    keep_record: bool = False
    budget: int | None = None
    """The ``expert`` bot's playouts per decision (``None``: its default)."""

    def params(self) -> dict[str, Any]:
        """The tournament's parameters as JSON (the header of a results file)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name in ("index", "keep_record"):
                continue
            value = getattr(self, f.name)
            if f.name == "budget" and value is None:
                continue  # no expert budget asked for: the header of a plain run stays as it was
            if isinstance(value, Rules):
                out.update(value.to_json())
            elif isinstance(value, tuple):
                out[f.name] = list(value)
            else:
                out[f.name] = value
        return out


def task_game(task: GameTask) -> Game:
    """Game ``task.index`` of a tournament, played to its end: its deal, first player and every bot's
    choices depend only on the task (the deal on ``game_seed(seed, index)``, seat ``s``'s bot on
    ``game_seed(seed, index, 1 + s)``, the first player ``index % players``)."""
    rules, names, seed, index = task.rules, task.bots, task.seed, task.index
    bots = [make_bot(name, random.Random(game_seed(seed, index, 1 + s)), budget=task.budget)
            for s, name in enumerate(names)]
    return play_game(rules, bots, rng=random.Random(game_seed(seed, index)), first_player=index % rules.players)


def play_task(task: GameTask) -> GameResult:
    """Play game ``task.index`` of a tournament (:func:`task_game`); the result depends only on the task."""
    rules, names = task.rules, task.bots
    game = task_game(task)
    turns = sum(1 for e in game.events if hasattr(e, "reveals"))  # turns, not swaps
    text = Record.from_game(game, names=[f"{n}@{s}" for s, n in enumerate(names)]).dumps() \
        if task.keep_record else None
    return GameResult(task.index, game.winner, turns, text)


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
class Totals:
    """What a tournament's summary is made of: games, wins per team (per seat without teams), turns."""

    games: int
    team_wins: tuple[int, ...]
    turns: int

    @classmethod
    def of(cls, rules: Rules, results: Sequence[GameResult]) -> Totals:
        tally = _Tally(rules)
        for r in results:
            tally.add(r)
        return tally.totals()


class _Tally:
    """Running totals, so that a tournament's memory does not grow with its games."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.games = 0
        self.team_wins = [0] * len(rules.teams_of_seats)
        self.turns = 0

    def add(self, r: GameResult) -> None:
        self.games += 1
        self.turns += r.turns
        if r.winner is not None:
            self.team_wins[self.rules.team_of(r.winner)] += 1

    def totals(self) -> Totals:
        return Totals(self.games, tuple(self.team_wins), self.turns)


@dataclass(frozen=True)
class Tournament:
    """The results of a run of games.

    ``results`` holds every game (sorted by number) unless the run was asked
    not to keep them; ``totals`` always holds the summary's counts (computed from
    ``results`` when not given). ``played`` is how many games this run played
    itself (the others were read back from a results file); games per second
    count those only. ``run`` says where they were played (backend, workers).
    """

    rules: Rules
    bots: tuple[str, ...]
    seed: int
    results: tuple[GameResult, ...]
    seconds: float
    totals: Totals | None = None
    played: int | None = None
    run: RunInfo | None = None

    def __post_init__(self) -> None:
        if self.totals is None:
            object.__setattr__(self, "totals", Totals.of(self.rules, self.results))

    @property
    def _totals(self) -> Totals:
        assert self.totals is not None
        return self.totals

    @property
    def games(self) -> int:
        return self._totals.games

    def seat_wins(self) -> list[int]:
        """Games won by each seat (a team win counts for every seat of the team)."""
        return [self._totals.team_wins[self.rules.team_of(s)] for s in range(self.rules.players)]

    def bot_wins(self) -> dict[str, int]:
        """Games won by each bot name (a team win counts once for each bot name in the team)."""
        out = {name: 0 for name in self.bots}
        for team, seats in enumerate(self.rules.teams_of_seats):
            for name in {self.bots[s] for s in seats}:
                out[name] += self._totals.team_wins[team]
        return out

    def team_wins(self) -> list[tuple[tuple[int, ...], int]]:
        """Team play: each team (its seats) with the games it won; every game counts once."""
        return [(tuple(seats), self._totals.team_wins[t]) for t, seats in enumerate(self.rules.teams_of_seats)]

    def to_json(self) -> dict[str, Any]:
        n = self.games
        per_seat = []
        for s, w in enumerate(self.seat_wins()):
            lo, hi = wilson(w, n)
            per_seat.append({"seat": s, "bot": self.bots[s], "wins": w, "win_rate": w / n if n else 0.0,
                             "ci95": [round(lo, 4), round(hi, 4)]})
        played = n if self.played is None else self.played
        return {
            "players": self.rules.players,
            "mode": self.rules.mode.value,
            "teams": self.rules.teams,
            "games": n,
            "seed": self.seed,
            "bots": list(self.bots),
            "wins": self.bot_wins(),
            "per_seat": per_seat,
            **({"team_wins": [{"seats": list(t), "bots": [self.bots[x] for x in t], "wins": w,
                               "win_rate": w / n if n else 0.0,
                               "ci95": [round(v, 4) for v in wilson(w, n)]} for t, w in self.team_wins()]}
               if self.rules.teams else {}),
            "avg_turns": self._totals.turns / n if n else 0.0,
            "games_per_second": played / self.seconds if self.seconds > 0 else 0.0,
        }


class _Progress:
    """Progress for people, on ``stream`` (``None``: silent): drawn at once (``0/N games``), then after
    each game. On a terminal one line redrawn in place, at most ten times a second; elsewhere (a log
    file, a pipe) one plain line at most every ``log_every`` seconds and at the end."""

    def __init__(self, stream: TextIO | None, total: int, done: int, log_every: float = 5.0) -> None:
        self.stream = stream
        self.total = total
        self.done = done
        self.start_done = done
        self.start = time.perf_counter()
        self.drawn = 0.0
        self.tty = stream is not None and _isatty(stream)
        self.every = 0.1 if self.tty else log_every
        if stream is not None and done < total:
            self.draw(self.start)

    def tick(self) -> None:
        self.done += 1
        if self.stream is None:
            return
        now = time.perf_counter()
        if now - self.drawn >= self.every or self.done == self.total:
            self.draw(now)

    def draw(self, now: float) -> None:
        assert self.stream is not None
        self.drawn = now
        width = 30
        filled = int(width * self.done / max(self.total, 1))
        elapsed = now - self.start
        rate = (self.done - self.start_done) / elapsed if elapsed > 0 and self.done > self.start_done else 0.0
        eta = f", {_duration((self.total - self.done) / rate)} left" if rate > 0 and self.done < self.total else ""
        speed = f"{rate:.1f} games/s{eta}" if rate > 0 else "the first game is being played"
        text = f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} games, {speed}"
        self.stream.write(f"\r{text}   " if self.tty else text + "\n")
        self.stream.flush()

    def end(self) -> None:
        if self.stream is not None:
            if self.tty or self.drawn < self.start or self.done != self.total:
                self.draw(time.perf_counter())
            if self.tty:
                self.stream.write("\n")
            self.stream.flush()


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _duration(seconds: float) -> str:
    s = int(seconds)
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


def tournament_command(task: GameTask, games: int) -> str:
    """The command line that plays this tournament (for the header of a results file)."""
    r = task.rules
    text = f"trio-solver simulate --players {r.players} --mode {r.mode.value}"
    if r.teams:
        text += " --teams"
    text += f" --bots {','.join(task.bots)} --games {games} --seed {task.seed}"
    return text + (f" --budget {task.budget}" if task.budget is not None else "")


def run_tournament(rules: Rules, bots: Sequence[str], games: int, seed: int, *, workers: int | None = None,
                   keep_records: bool = False, progress: bool | TextIO = False, backend: str = "local",
                   ray_address: str | None = None, results_file: str | None = None, keep_results: bool = True,
                   on_game: Callable[[GameResult], None] | None = None,
                   on_note: Callable[[str], None] | None = None, max_retries: int = 3,
                   budget: int | None = None) -> Tournament:
    """Play ``games`` games; game ``i`` starts with seat ``i mod players`` so no seat gains from moving first.

    ``budget`` is passed to every bot that has one (the ``expert`` bot's playouts per decision).

    A game's result depends only on ``seed`` and its number, so every backend
    and every number of ``workers`` give the same tournament (see
    :func:`trio_solver.run.parallel.run_tasks` for ``backend``, ``workers`` — default
    one process locally, every CPU on Ray —, ``ray_address`` and
    ``max_retries``). Games are handed out as workers free up, a bounded window
    at a time, so memory does not grow with ``games`` when ``keep_results`` is
    false (then ``Tournament.results`` is empty and only the totals are kept).

    ``results_file``: every finished game is appended to it as one JSON line
    (see :mod:`trio_solver.run.results`); if the file already holds games of a run
    with the same parameters, those are not played again and count in the
    summary, which is then the same as an uninterrupted run's (``games`` may
    grow, to extend a run; games in the file beyond ``games`` are left out). A
    file of a run with other parameters is refused
    (:class:`~trio_solver.errors.RunError`). Resumed games carry no record.

    ``on_game`` is called in this process with each game this run plays, as it
    finishes (before it is written to the results file); ``progress`` draws a bar
    on standard error when it is a terminal (or on the given stream);
    ``on_note`` receives one-line notes (workers capped, games resumed).
    """
    _args.instance("rules", rules, Rules, ViewError)
    if isinstance(bots, str) or not isinstance(bots, (list, tuple)) or not all(isinstance(b, str) for b in bots):
        raise ViewError(f"bots: expected a list of bot names, got {_args.show(bots)}")
    if not _args.is_int(games) or not 1 <= games <= 10**12:
        raise RunError(f"games: expected 1 or more games (at most 10**12), got {_args.show(games)}")
    _args.int_in("seed", seed, -(2**63), 2**63 - 1, RunError)
    if workers is not None:
        _args.int_in("workers", workers, 1, 10**6, RunError, "a number of workers")
    _args.boolean("keep_records", keep_records, RunError)
    _args.boolean("keep_results", keep_results, RunError)
    if not isinstance(progress, bool) and not callable(getattr(progress, "write", None)):
        raise RunError(f"progress: expected true, false or a text stream, got {_args.show(progress)}")
    for hook, function in (("on_game", on_game), ("on_note", on_note)):
        if function is not None and not callable(function):
            raise RunError(f"{hook}: expected a function or None, got {_args.show(function)}")
    names = tuple(bots)
    if len(names) != rules.players:
        raise ViewError(f"bots: {len(names)} bot names for {rules.players} players (one per seat)")
    for name in names:
        make_bot(name, random.Random(0), budget=budget)  # unknown names, bad budgets fail before any game
    template = GameTask(rules, names, seed, 0, keep_records, budget)
    note = on_note if on_note is not None else (lambda _text: None)
    tally = _Tally(rules)
    kept: list[GameResult] = []
    done = _IndexSet()
    beyond = 0

    def resumed(number: int, entry: dict[str, Any]) -> None:
        nonlocal beyond
        r = _result_of(results_file or "", number, entry, rules)
        if r.index in done:
            raise RunError(f"{results_file}: line {number}: game {r.index} is already in the file")
        done.add(r.index)
        if r.index >= games:
            beyond += 1
            return
        tally.add(r)
        if keep_results:
            kept.append(r)

    sink: ResultsFile | None = None
    if results_file is not None:
        sink = ResultsFile(results_file, "tournament", template.params(), resumed,
                           command=tournament_command(template, games))
    try:
        already = tally.games
        if already:
            note(f"{already} of {games} games read back from {results_file}; playing the other {games - already}")
        if beyond:
            note(f"{beyond} games of {results_file} are beyond --games {games} and not counted")
        stream: TextIO | None
        if isinstance(progress, bool):
            stream = sys.stderr if progress and sys.stderr.isatty() else None
        else:
            stream = progress
        bar = _Progress(stream, games, already)

        def finished(r: GameResult) -> None:
            if on_game is not None:
                on_game(r)
            if sink is not None:
                sink.append(r.to_json())
            tally.add(r)
            if keep_results:
                kept.append(r)
            bar.tick()

        tasks = (replace(template, index=i) for i in range(games) if i not in done)
        start = time.perf_counter()
        info = None
        if games - already > 0:
            with limits.named("the tournament"):  # a time limit names the run, not a bot's inner step
                info = run_tasks(play_task, tasks, finished, backend=backend, workers=workers,
                                 ray_address=ray_address, max_retries=max_retries, total=games - already, on_note=note)
        seconds = time.perf_counter() - start
        if stream is not None:
            bar.end()
    finally:
        if sink is not None:
            sink.close()
    kept.sort(key=lambda r: r.index)
    return Tournament(rules, names, seed, tuple(kept), seconds, tally.totals(), tally.games - already, info)


class _IndexSet:
    """A set of game numbers kept small: every number below ``prefix``, plus the few above it."""

    def __init__(self) -> None:
        self.prefix = 0
        self.extra: set[int] = set()

    def add(self, i: int) -> None:
        if i == self.prefix:
            self.prefix += 1
            while self.prefix in self.extra:
                self.extra.remove(self.prefix)
                self.prefix += 1
        elif i > self.prefix:
            self.extra.add(i)

    def __contains__(self, i: int) -> bool:
        return i < self.prefix or i in self.extra


def _result_of(path: str, number: int, entry: dict[str, Any], rules: Rules) -> GameResult:
    """A game line of a results file, checked."""
    game, winner, turns = entry.get("game"), entry.get("winner"), entry.get("turns")
    ok = (set(entry) == {"game", "winner", "turns"}
          and type(game) is int and game >= 0
          and type(turns) is int and turns >= 0
          and (winner is None or (type(winner) is int and 0 <= winner < rules.players)))
    if not ok:
        raise RunError(f"{path}: line {number} is not a game of this tournament: {json.dumps(entry)[:200]}")
    assert isinstance(game, int) and isinstance(turns, int)
    return GameResult(game, winner if isinstance(winner, int) else None, turns, None)


def save_record(r: GameResult, directory: str) -> str | None:
    """Write a game's record (if it was kept) as ``game_00000.json`` in ``directory``, atomically."""
    if r.record is None:
        return None
    path = os.path.join(directory, f"game_{r.index:05d}.json")
    Record.loads(r.record).save(path)
    return path


def save_records(t: Tournament, directory: str) -> list[str]:
    """Write every kept record as ``game_00000.json`` in ``directory`` (made if missing; its own folder must
    exist: :class:`~trio_solver.errors.RunError` otherwise)."""
    output_folder(directory, lambda where, why: RunError(f"{where}: {why}"))
    paths = []
    for r in t.results:
        path = save_record(r, directory)
        if path is not None:
            paths.append(path)
    return paths
