"""The ``trio-solver`` command (see docs/INTERFACE.md for the JSON contracts).

Exit status: 0 success; 1 the record, or the request on it, is invalid (one
line on standard error naming the place), a time limit (``--time-limit``) passed,
or the output could not be written (full disk, closed standard output); 2 usage
errors (unknown option, missing file); 70 an internal error (a bug; ``TRIO_DEBUG=1``
shows its traceback); 130 interrupted (Ctrl-C). Output is built
completely before anything is written, so a failure never leaves half an answer
behind. A reader that goes away (``| head``) ends the command quietly with status 0.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import math
import os
import signal
import sys
import threading
import _thread
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Literal, NoReturn

from .. import __version__, kernel
from .._args import SEED_RANGE, show as _show
from .._interrupts import after_interrupt
from .._text import escape, pad, width as columns
from ..decide.evaluate import explain
from ..errors import RecordError, RulesError, RunError, TrioError
from ..files import output_folder, same_file, writable_target, write_text
from ..game.events import Turn
from ..game.record import DEFAULT_SEAT, Record, SeatChoice
from ..game.rules import Rules
from ..game.view import PlayerView
from ..infer.csp import MAX_PLACEMENTS
from ..infer.facts import MAX_STATE_BUDGET, STATE_BUDGET
from ..infer.validate import load_record
from ..limits import MAX_SECONDS, Deadline, time_limit
from ..report.advice_text import advice_text
from ..report.analysis import DEFAULT_SAMPLES
from ..report.render import render_frame, seat_name, winner_text, won_by
from ..decide.bots import BOT_NAMES
from ..decide.evaluate import MAX_SAMPLES
from ..run.collection import analyse_files, record_paths, report_stems
from ..run.parallel import ray_address
from ..run.simulate import GameResult, run_tournament, save_record
from ..words import percent, plural, pm
from . import queries
from .hosts import MAX_QUEUE, MAX_WORKERS, cors_origin, host_pattern, listen_host
from .play import play_terminal
from .protocol import run_engine

__all__ = ["main"]

PROG = "trio-solver"
COMMANDS = ("validate", "replay", "beliefs", "advise", "evaluate", "analyse", "simulate", "play", "engine",
            "serve")


#: Whether the command started with its standard input closed (``<&-``).
_STDIN_CLOSED = False


class UsageError(Exception):
    """A command line that cannot be run (exit status 2)."""


#: Longest piece of a command line quoted back in an error (a 5,000-digit number is cut).
_QUOTE = 60


def _cut_long_words(message: str) -> str:
    return " ".join(w if len(w) <= _QUOTE else w[:_QUOTE] + f"...({len(w)} characters)"
                    for w in " ".join(message.split()).split(" "))


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # "--after: ...", as the library names an option in its own errors (argparse says "argument --after: ...")
        message = message.removeprefix("argument ")
        raise UsageError(f"{_cut_long_words(message)} (see '{self.prog} --help')")


def _one_seat_arg(text: str) -> SeatChoice | Literal["all"]:
    """``--seat`` of a question about one view: :func:`_seat_arg`, whose message offers no ``all`` (the
    command itself refuses ``all`` in its own words: :func:`_one_seat`)."""
    return _seat_arg(text, "'none'")


def _seat_arg(text: str, others: str = "'none' or 'all'") -> SeatChoice | Literal["all"]:
    """``--seat``: a seat number, ``none`` / ``spectator``, ``all`` (every hand: ``replay`` only) or
    ``default`` (the record's own view, :meth:`Record.seat <trio_solver.game.record.Record.seat>`)."""
    t = text.strip().lower()
    if t == "default":
        return DEFAULT_SEAT
    if t in ("none", "spectator"):
        return None
    if t == "all":
        return "all"
    if t.isascii() and t.isdigit() and len(t) <= 6:
        return int(t)
    raise argparse.ArgumentTypeError(f"expected a seat number or {others}, got {_show(text)}")


def _nonneg(text: str) -> int:
    t = text.strip()
    if not (t.isascii() and t.isdigit()):
        raise argparse.ArgumentTypeError(f"expected a number (0 or more), got {_show(text)}")
    if len(t.lstrip("0")) > 15:
        raise argparse.ArgumentTypeError(f"{len(t)}-digit number: far above any limit")
    return int(t)


def _count(lo: int, hi: int, what: str) -> Callable[[str], int]:
    """An option's type for a whole number ``lo`` to ``hi`` (the library's bounds), so that a value out of
    them is a usage error when the command line is read."""
    def parse(text: str) -> int:
        n = _nonneg(text)
        if not lo <= n <= hi:
            raise argparse.ArgumentTypeError(f"expected {what} {lo} to {hi}, got {n}")
        return n
    return parse


def _seconds(text: str) -> float:
    try:
        value = float(text) if len(text) <= 30 else float("nan")
    except ValueError:
        value = float("nan")
    if not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0 and at most {MAX_SECONDS:g}, "
                                         f"got {_show(text)}")
    return value


def _positive(text: str) -> int:
    t = text.strip()
    if not (t.isascii() and t.isdigit()) or int(t[:20] or "0") < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number, 1 or more, got {_show(text)}")
    if len(t.lstrip("0")) > 12:
        raise argparse.ArgumentTypeError(f"{len(t)}-digit number: far above any limit")
    return int(t)


def _out_file(text: str) -> str:
    """An output file's name: not empty, and not ``-`` (standard output carries the command's own text)."""
    if not text.strip() or text == "-":
        raise argparse.ArgumentTypeError(f"expected the name of a file to write, got {_show(text)}")
    return text


def _deals(text: str) -> int:
    """``--samples`` and ``--budget``: a number of deals (playouts), 1 to the library's cap."""
    n = _positive(text)
    if n > MAX_SAMPLES:
        raise argparse.ArgumentTypeError(f"expected a number of deals 1 to {MAX_SAMPLES}, got {n}")
    return n


def _seed(text: str) -> int:
    """``--seed``: a whole number that fits 64 bits with its sign."""
    t = text.strip()
    digits = t[1:] if t[:1] in "+-" else t
    lo, hi = SEED_RANGE
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 19 or not lo <= int(t) <= hi:
        raise argparse.ArgumentTypeError(f"expected a whole number from {lo} to {hi}, got {_show(text)}")
    return int(t)


def _deal_seed(text: str) -> int:
    """``play --seed``: the seed of a deal, 0 to 2**63 - 1 (as the engine's ``new_game`` takes it: a negative
    seed would deal the same game as its opposite)."""
    try:
        n = _seed(text)
    except argparse.ArgumentTypeError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number from 0 to {2**63 - 1}, got {_show(text)}")
    return n


def _checked_by(check: Callable[[str], str]) -> Callable[[str], str]:
    """An option's type from the library's own check of it (``--allow-host``: :func:`host_pattern`,
    ``--ray-address``: :func:`ray_address`), so that a bad value is a usage error when the command line
    is read; the message is the library's, without the name of its argument (argparse names the option)."""
    def parse(text: str) -> str:
        try:
            return check(text)
        except TrioError as e:
            raise argparse.ArgumentTypeError(str(e).partition(": ")[2]) from None
    return parse


def _port(text: str) -> int:
    t = text.strip()
    if not (t.isascii() and t.isdigit()) or len(t) > 5 or not 0 <= int(t) <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port 0 to 65535, got {_show(text)}")
    return int(t)


def _fraction(text: str, lo: float, hi: float) -> float:
    try:
        value = float(text) if len(text) <= 30 else math.nan
    except ValueError:
        value = math.nan
    if not lo <= value <= hi:
        raise argparse.ArgumentTypeError(f"expected a number from {lo} to {hi}, got {_show(text)}")
    return value


def _confidence_arg(text: str) -> float:
    return _fraction(text, 0.5, 1.0)


def _precision_arg(text: str) -> float:
    return _fraction(text, 0.0, 0.5)


def _delay(text: str) -> float:
    try:
        value = float(text) if len(text) <= 30 else -1.0
    except ValueError:
        value = -1.0
    if not 0 <= value <= 60:
        raise argparse.ArgumentTypeError(f"expected seconds from 0 to 60, got {_show(text)}")
    return value


def _bar(done: int, total: int, what: str) -> str:
    width = 30
    filled = int(width * done / max(total, 1))
    return f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {what}"


# defaults shown in --help (kept equal to the library's by tests/test_evaluate.py)
_DEFAULT_EVALUATE = 4000
_DEFAULT_ADVISE = 2048
_DEFAULT_ANALYSE = 256
_DEFAULT_BUDGET = 1920


def _load(path: str) -> Record:
    if path == "-" and _STDIN_CLOSED:
        raise RecordError("-", "standard input is closed")
    if path != "-" and not os.path.exists(path):
        raise UsageError(f"{path}: no such file")
    if path != "-" and os.path.isdir(path):
        raise UsageError(f"{path}: is a directory, not a record file")
    return load_record(path)


#: The characters of a command's output written at a time.
_PIECE = 1 << 20


# -- commands ----------------------------------------------------------------------


class _OptionError(TrioError):
    """A command-line option that this command or this record cannot take (exit status 1)."""


def _one_seat(args: argparse.Namespace, refusal: str) -> SeatChoice:
    """``--seat`` of a question about one view: ``all`` (every hand) is refused with ``refusal``."""
    if args.seat == "all":
        raise _OptionError(f"--seat: {refusal}")
    return args.seat  # type: ignore[no-any-return]


def cmd_validate(args: argparse.Namespace) -> str:
    record = _load(args.file)
    summary = queries.validate(record)
    if args.json:
        return json.dumps(summary.to_json())
    return str(summary)


def cmd_replay(args: argparse.Namespace) -> str:
    record = _load(args.file)
    # each frame is written out as it is made, and only its text kept: a long record's frames as
    # dictionaries would take several times the memory of the output
    if args.json:
        parts: list[str] = []
        chosen = queries.replay_frames(record, lambda fr: parts.append(json.dumps(fr)), args.seat, args.after)
        # json.dumps of replay(), its head and end put on the first and last frames: one copy of the text
        parts[0] = f'{{"seat": {json.dumps(chosen)}, "frames": [{parts[0]}'
        parts[-1] += "]}"
        return ", ".join(parts)
    out: list[str] = []
    last: list[dict[str, Any]] = []
    # events numbered from 1, as the board numbers them, and turns as the analysis counts them
    turns = list(itertools.accumulate(int(isinstance(e, Turn)) for e in record.events))
    viewer = record.seat(args.seat, args.after, every_hand=True)

    def told(fr: dict[str, Any]) -> None:
        k = fr["after"]
        turn = f", turn {turns[k - 1]}" if k and isinstance(record.events[k - 1], Turn) else ""
        out.append("Start of the game" if k == 0 else f"Event {k} of {len(record.events)}{turn}: {fr['description']}")
        out.append(render_frame(fr, record.names, viewer if isinstance(viewer, int) else None))
        out.append("")
        last[:] = [fr]

    queries.replay_frames(record, told, args.seat, args.after)
    final = last[0]
    if final["winner"] is not None:
        out.append(winner_text(record.rules, final["winner"], record.names) + _winning_trios(record, final["winner"]))
    else:
        who = seat_name(final["to_move"], record.names)
        out.append(f"{who[:1].upper()}{who[1:]} to move")
    return "\n".join(out)


def _winning_trios(record: Record, winner: int) -> str:
    """A line saying what won (:func:`~trio_solver.report.render.won_with`), from the winning side's trios."""
    said = won_by(record.rules, record.events, winner)
    return f"\nWon with {said}" if said else ""


def _won(rules: Rules, winner: int, names: Sequence[str] | None) -> str:
    """``team Ann & Cy won`` or ``Ann won``: short, so that a header holds in 80 columns."""
    who = " & ".join(names[s] if names else f"seat {s}" for s in rules.teams_of_seats[rules.team_of(winner)])
    return f"{'team ' if rules.teams else ''}{who} won"


def cmd_beliefs(args: argparse.Namespace) -> str:
    record = _load(args.file)
    seat = _one_seat(args, "beliefs are for one seat or 'none' (a spectator)")
    beliefs = queries.beliefs(record, seat, args.after, args.swap_budget)
    data = beliefs.to_json(args.after)
    if args.list:
        data.update(queries.placements(beliefs, args.list, args.swap_budget))
    if args.json:
        return json.dumps(data)
    return _beliefs_text(data, beliefs.view, record.names)


def _dist_text(d: dict[str, float]) -> str:
    return "  ".join(f"{v}:{percent(p, 1)}" for v, p in sorted(d.items(), key=lambda t: int(t[0])))


def _where(view: PlayerView, names: Sequence[str] | None) -> str:
    """Whose move it is and the cards face up in the turn (``seat 2 (Cy) to move, face up: l4=1``), or who
    won (``team Ann & Cy won``)."""
    if view.winner is not None:
        return _won(view.rules, view.winner, names)
    face = f", face up: {' '.join(map(str, view.turn))}" if view.turn else ""
    return f"{seat_name(view.to_move, names)} to move{face}"


def _beliefs_text(data: dict[str, Any], view: PlayerView, names: Sequence[str] | None) -> str:
    who = "a spectator" if data["seat"] is None else seat_name(data["seat"], names)
    lines = [f"Beliefs of {who} after {plural(data['after'], 'event')} ({_where(view, names)})"
             + ("  [approximate: secret swaps]" if data.get("approximate") else "")]
    if data["centre"]:
        lines.append("Centre slots:")
        for slot, d in data["centre"].items():
            lines.append(f"  c{slot}: {_dist_text(d)}")
    lines.append("Hand ends (what a request would show now):")
    for seat in data["lowest"]:
        lines.append(f"  l{seat}: {_dist_text(data['lowest'][seat])}")
        lines.append(f"  h{seat}: {_dist_text(data['highest'][seat])}")
    if data["hands"]:
        lines.append("Expected cards in hidden hands:")
        for seat, h in data["hands"].items():
            exp = "  ".join(f"{v}:{e:.2f}" for v, e in h["expected"].items())
            lines.append(f"  seat {seat} ({h['size']} cards): {exp}")
    if data["deductions"]:
        lines.append("Certain:")
        lines.extend(f"  {d}" for d in data["deductions"])
    if "placements" in data:
        shown, count = len(data["placements"]), data["placement_count"]
        if shown == count:
            lines.append(f"Possible placements ({count}, most likely first):")
        else:
            lines.append(f"Possible placements: the first {shown} of {count} (in the order found):")
        for p in data["placements"]:
            rows = "; ".join(f"{k}: {' '.join(map(str, v))}" for k, v in p["rows"].items())
            q = p["probability"]
            prob = "   ?   " if q is None else percent(q, 2).rjust(7)
            lines.append(f"  {prob}  {rows}")
    return "\n".join(lines)


def cmd_advise(args: argparse.Namespace) -> str:
    record = _load(args.file)
    for option, value in (("--samples", args.samples), ("--confidence", args.confidence), ("--seed", args.seed)):
        if args.objective != "game" and value is not None:
            raise UsageError(f"{option} is for --objective game")
    seat = _one_seat(args, "advice is for the seat to move, whose hand must be known")
    advice, data = queries.advise(record, seat, args.after, args.objective, samples=args.samples,
                                  seed=args.seed or 0, confidence=args.confidence)
    if args.json:
        return json.dumps(data)
    view = record.view(seat, args.after)
    text = advice_text(advice, record.names, wins=view.rules.winning_values(view.team_trios(advice.seat)))
    if args.objective == "game":
        text += "\n" + "\n".join(explain(view, advice))
    return text


def cmd_evaluate(args: argparse.Namespace) -> str:
    record = _load(args.file)
    seat = _one_seat(args, "evaluate is for one seat or 'none' (a spectator)")
    result, data = queries.evaluate(record, seat, args.after, samples=args.samples, seed=args.seed,
                                    precision=args.precision)
    after = data["after"]
    if args.json:
        return json.dumps(data)
    who = "a spectator" if result.seat is None else seat_name(result.seat, record.names)
    # no playout: the game is over, and the chances are its result (the winner's side certain)
    over = result.samples == 0
    winner = next((s for s, p in enumerate(result.win_chance) if p >= 1.0), None) if over else None
    lines = ([f"The game is over after {plural(after, 'event')} ({_won(record.rules, winner, record.names)}):"]
             if winner is not None else
             [f"Chance to win the game, seen by {who} after {plural(after, 'event')} ({result.samples} playouts"
              f"{', approximate beliefs' if result.approximate else ''}):"])
    names = [seat_name(s, record.names) for s in range(len(result.win_chance))]
    width = max(map(columns, names))
    for s, (p, e) in enumerate(zip(result.win_chance, result.stderr)):
        mark = "  <- to move" if s == result.to_move and winner is None else ""
        lines.append(f"  {pad(names[s], width)} {pm(p, e):>14}{mark}")
    return "\n".join(lines)


def cmd_analyse(args: argparse.Namespace) -> str:
    paths = list(args.file)
    many = len(paths) > 1 or (paths[0] != "-" and os.path.isdir(paths[0]))
    if args.csv and not many:
        raise UsageError("--csv summarises a collection: give a directory or several files")
    if many:
        return _analyse_many(args, paths)
    if args.reports:
        raise UsageError("--reports writes one report per game of a collection: give a directory or several files")
    if args.html and paths[0] != "-" and same_file(args.html, paths[0]):
        raise _OutputError(f"{args.html}: is the record analysed; the report would replace it (give another file)")
    if args.html:  # a path the report would be refused at is refused now, not once the game is analysed
        with _output_at_fault():
            writable_target(args.html)
    record = _load(paths[0])
    show = sys.stderr.isatty() and not args.json

    def progress(done: int, total: int) -> None:
        if show:
            sys.stderr.write(_bar(done, total, "positions analysed"))
            sys.stderr.flush()

    result = queries.analysis(record, progress, samples=_samples(args), seed=args.seed, confidence=_confidence(args))
    if show:
        sys.stderr.write("\n")
    if args.html:
        page = result.html(f"Trio game analysis: {os.path.basename(paths[0])}")
        _write_atomic(args.html, page)
    if args.json:
        return json.dumps(result.to_json())
    text = result.text(all_decisions=args.all)
    if args.html:
        text += f"\nHTML report written to {args.html}"
    return text


def _confidence(args: argparse.Namespace) -> float | None:
    if args.quick and args.confidence is not None:
        raise UsageError("--quick judges by the turn only: it takes no --confidence")
    return args.confidence  # type: ignore[no-any-return]


def _samples(args: argparse.Namespace) -> int:
    if args.quick and args.samples is not None:
        raise UsageError("--quick judges by the turn only: it takes no --samples")
    return 0 if args.quick else (args.samples if args.samples is not None else DEFAULT_SAMPLES)


def _analyse_many(args: argparse.Namespace, paths: list[str]) -> str:
    for p in paths:
        if p == "-":
            raise UsageError("standard input ('-') holds one record: analyse it alone")
        if not os.path.exists(p):
            raise UsageError(f"{p}: no such file or directory")
    if args.html:
        raise UsageError("--html is for one game; with a collection use --reports DIR")
    if args.all:
        raise UsageError("--all is for one game; with a collection use --reports DIR (every reveal of each game)")
    files = record_paths(paths)
    if not files:
        raise UsageError(f"{', '.join(paths)}: no .json record files")
    if args.reports:  # checked now, made when the reports are written (as simulate --save makes its folder)
        _reports_folder(args.reports, make=False)
    show = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if show:
            sys.stderr.write(_bar(done, total, "games"))
            sys.stderr.flush()

    _check_backend_args(args)
    result = analyse_files(files, workers=args.workers, progress=progress, samples=_samples(args), seed=args.seed,
                           confidence=_confidence(args), backend=args.backend, ray_address=args.ray_address,
                           on_note=_note)
    if show:
        sys.stderr.write("\n")
    if not result.analysed:
        first = result.failed[0]
        raise RecordError(first.path, f"no game could be analysed ({first.error})")
    written: list[str] = []
    renamed: list[str] = []  # reports named apart from their file, whose name another game took first
    if args.reports:
        _reports_folder(args.reports, make=True)
        for o, stem in zip(result.analysed, report_stems([o.path for o in result.analysed])):
            assert o.analysis is not None
            base = os.path.join(args.reports, stem)
            _write_atomic(base + ".txt", o.analysis.text(all_decisions=True) + "\n")
            _write_atomic(base + ".html", o.analysis.html(f"Trio game analysis: {os.path.basename(o.path)}"))
            written.append(base)
            if stem != os.path.splitext(os.path.basename(o.path))[0]:
                renamed.append(f"{stem} is {o.path}")
    if args.json:
        return json.dumps(result.to_json())
    if args.csv:
        for failed in result.failed:  # the CSV holds the sums only: say what was left out of them
            _note(f"skipped {failed.path}: {failed.error}")
        return result.csv()
    text = result.text()
    if written:
        text += f"\nReports (.txt and .html) for {plural(len(written), 'game')} written in {args.reports}"
        if renamed:
            text += " (" + "; ".join(renamed) + ")"
    return text


@contextlib.contextmanager
def _output_at_fault() -> Iterator[None]:
    """An output path refused inside the block (:class:`RecordError` from :mod:`trio_solver.files`, or the
    :class:`RunError` of :func:`_folder_error`) is one line (exit 1) that names the output only, not the
    record or records the command read."""
    try:
        yield
    except (RecordError, RunError) as e:
        raise _OutputError(str(e)) from None


def _reports_folder(path: str, *, make: bool) -> None:
    """``--reports``'s folder checked (``make=False``) or made, a refusal told as :func:`_output_at_fault`
    tells it."""
    with _output_at_fault():
        output_folder(path, _folder_error("--reports"), make=make)


def _write_atomic(path: str, text: str) -> None:
    """Write an output file atomically (see :func:`trio_solver.files.write_text`): complete or
    untouched, no temporary file left; a bad path is one line (exit 1) that names the output file only."""
    with _output_at_fault():
        write_text(path, text)


def _progress_of(args: argparse.Namespace) -> bool | Any:
    """``simulate``'s progress: ``--progress`` always (on standard error, plain lines when it is not a
    terminal), ``--no-progress`` never, else on a terminal unless ``--json``."""
    if args.progress is None:
        return not args.json
    return sys.stderr if args.progress else False


def _table_of(args: argparse.Namespace) -> Rules:
    """The table that ``--players``, ``--mode`` and ``--teams`` ask for; a combination the rules do not allow
    (teams at 3 players) is a usage error."""
    try:
        return Rules(args.players, args.mode, args.teams)
    except RulesError as e:  # named by the option, not by the record's key (rules.teams)
        raise UsageError(str(e).replace("rules.teams:", "--teams:", 1).replace("rules.players:", "--players:", 1)
                         .replace("rules.mode:", "--mode:", 1)) from None


def _bot_names(given: str | None, default: list[str]) -> list[str]:
    """The bot names of a comma-separated ``--bots`` list (``default`` when the option is not given); a
    name that is not one of :data:`BOT_NAMES` is a usage error, an empty one too (``--bots ""``, a
    doubled comma)."""
    if given is None:
        return default
    names = [b.strip() for b in given.split(",")]
    for name in names:
        if name not in BOT_NAMES:
            raise UsageError(f"--bots: unknown bot {_show(name)} (known: {', '.join(BOT_NAMES)})")
    return names


def cmd_simulate(args: argparse.Namespace) -> str:
    rules = _table_of(args)
    bots = _bot_names(args.bots, ["solver"] + ["memory"] * (args.players - 1))
    if len(bots) != rules.players:
        raise UsageError(f"--bots: {plural(len(bots), 'bot name')} for {rules.players} players (one per seat)")
    _check_backend_args(args)
    if args.budget is not None and not {"expert", "expert-ties"} & set(bots):
        _note("--budget sets the expert bots' playouts; no expert plays here, so it changes nothing")
    on_game = None
    if args.save:
        folder = output_folder(args.save, _folder_error("--save"))
        # another run's records would be overwritten one by one and mixed with this run's; a resumed run
        # (--results) writes into its own folder again
        earlier = sorted(p.name for p in folder.glob("game_*.json"))
        if earlier and not args.results:
            raise RunError(f"--save {args.save}: already holds game records ({earlier[0]}, ...); give a new or "
                           "empty folder (a run resumed with --results may write into its own)")

        def on_game(r: GameResult) -> None:
            save_record(r, args.save)  # each record whole, as its game ends

    try:
        with _terminate_as_interrupt():
            t = run_tournament(rules, bots, args.games, args.seed, workers=args.workers,
                               keep_records=bool(args.save), progress=_progress_of(args), backend=args.backend,
                               ray_address=args.ray_address, results_file=args.results, keep_results=False,
                               on_game=on_game, on_note=_note, budget=args.budget)
    except KeyboardInterrupt:
        if args.results:
            _note(f"the finished games are kept in {args.results}; run the same command again to go on")
        raise
    data = t.to_json()
    if args.json:
        return json.dumps(data)
    lines = [f"{plural(data['games'], 'game')}, {rules.players} players, {rules.mode.value}"
             f"{', teams' if rules.teams else ''}, seed {args.seed}"]
    if rules.teams:
        lines.append("  teams (a team's win counts once, for the team):")
        lines.append(f"  {'seats':<8} {'bots':<22} {'wins':>6} {'rate':>7}  95% interval")
        for team in data["team_wins"]:
            seats = " & ".join(map(str, team["seats"]))
            kinds = " + ".join(team["bots"])
            lines.append(f"  {seats:<8} {kinds:<22} {team['wins']:>6} {percent(team['win_rate'], 1):>7}  "
                         f"[{percent(team['ci95'][0], 1)}, {percent(team['ci95'][1], 1)}]")
        if any(len(set(team["bots"])) > 1 for team in data["team_wins"]):
            lines.append("  note: some teams mix bots (partners are seats s and s + players/2); "
                         "order --bots so partners match to compare bots")
    else:
        lines.append(f"  {'seat':>4} {'bot':<8} {'wins':>6} {'rate':>7}  95% interval")
        for p in data["per_seat"]:
            lines.append(f"  {p['seat']:>4} {p['bot']:<8} {p['wins']:>6} {percent(p['win_rate'], 1):>7}  "
                         f"[{percent(p['ci95'][0], 1)}, {percent(p['ci95'][1], 1)}]")
        lines.append("  by bot: " + ", ".join(f"{k} {v}" for k, v in data["wins"].items()))
    played = t.played if t.played is not None else t.games
    resumed = f" ({t.games - played} read back from {args.results})" if played < t.games else ""
    where = args.backend if t.run is None else \
        f"{t.run.backend}, {t.run.workers} worker{'s' if t.run.workers != 1 else ''}"
    lines.append(f"  average turns {data['avg_turns']:.1f}; {plural(played, 'game')} played in {t.seconds:.1f} s"
                 f"{resumed}, {data['games_per_second']:.2f} games per second ({where})")
    if args.save:
        lines.append(f"  records saved in {args.save}")
    if args.results:
        lines.append(f"  results in {args.results}")
    return "\n".join(lines)


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """While a long run goes on, SIGTERM stops it as Ctrl-C does (workers stopped, finished work kept)."""
    def stop(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread: leave the signal alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _note(text: str) -> None:
    print(f"{PROG}: note: {escape(text)}", file=sys.stderr, flush=True)


def _folder_error(option: str) -> Callable[[str, str], TrioError]:
    """How a folder option's path is refused: ``--save x/y: no such folder: x`` (exit status 1)."""
    return lambda where, why: RunError(f"{option} {where}: {why}")


def _check_backend_args(args: argparse.Namespace) -> None:
    if args.backend != "ray" and args.ray_address is not None:
        raise UsageError("--ray-address is for --backend ray")


def add_backend_options(sp: argparse.ArgumentParser, what: str = "games") -> None:
    """The options that choose where many tasks run (``--workers``, ``--backend``, ``--ray-address``)."""
    sp.add_argument("--workers", type=_positive, default=None,
                    help=f"{what} run at a time (default 1 on the local backend, every CPU on Ray); capped at "
                         "the CPUs available; the results are the same for any number")
    sp.add_argument("--backend", choices=("local", "ray"), default="local",
                    help="local: processes of this machine (default); ray: Ray tasks, retried if a worker dies "
                         "(pip install 'trio-solver[ray]')")
    sp.add_argument("--ray-address", metavar="ADDRESS", default=None, type=_checked_by(ray_address),
                    help="the Ray cluster to join: 'auto' (the one started on this machine by 'ray start') or "
                         "HOST:PORT; default: start a private local Ray instance")


def cmd_play(args: argparse.Namespace) -> str:
    rules = _table_of(args)
    if not 0 <= args.seat < rules.players:
        raise UsageError(f"--seat: expected a seat 0 to {rules.players - 1}, got {args.seat}")
    bots = _bot_names(args.bots, ["memory"] * (rules.players - 1))
    if len(bots) != rules.players - 1:
        raise UsageError(f"--bots: {plural(len(bots), 'bot name')} for the {plural(rules.players - 1, 'other seat')}")
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    delay = args.delay if args.delay is not None else (0.8 if sys.stdout.isatty() else 0.0)
    if args.save:
        writable_target(args.save)  # a path the save would refuse is refused now, not once the game is played
    play_terminal(rules, args.seat, bots, seed, stdin=sys.stdin, stdout=sys.stdout, save=args.save, delay=delay,
                  time_limit=args.time_limit)
    return ""


def cmd_engine(args: argparse.Namespace) -> str:
    run_engine(sys.stdin.buffer, sys.stdout.buffer, time_limit=args.time_limit)
    return ""


def cmd_serve(args: argparse.Namespace) -> str:
    if args.time_limit is not None:
        raise UsageError("--time-limit: serve bounds each request with --timeout SECONDS")
    if args.client_share is not None and args.client_share > args.queue:  # the bound --queue sets
        raise UsageError(f"--client-share: expected a number of requests 1 to {args.queue} (--queue), "
                         f"got {args.client_share}")
    try:
        from .service import serve
    except ImportError as e:
        raise UsageError(f"the HTTP service needs the serve extra: pip install 'trio-solver[serve]' ({e.name} missing)") from None
    serve(host=args.host, port=args.port, workers=args.workers, timeout=args.timeout, cors=args.cors,
          queue=args.queue, log_level=args.log_level, allow_hosts=args.allow_host, read_timeout=args.read_timeout,
          client_share=args.client_share)
    return ""


# -- the parser ---------------------------------------------------------------------


_RECORD_FILE = "a trio-record/1 file (docs/RECORD.md), or - for standard input"


def _position_args(sp: argparse.ArgumentParser,
                   seat: str = "whose view: a seat or 'none' (spectator); default: the record keeper's, else the "
                               "seat to move", *,
                   every_hand: bool = False,
                   after: str = "the position after the first N events (default: all of them)") -> None:
    """The arguments of a command about one position of one record: ``FILE``, ``--seat`` (``all`` offered
    with ``every_hand``) and ``--after``."""
    sp.add_argument("file", metavar="FILE", help=_RECORD_FILE)
    sp.add_argument("--seat", type=_seat_arg if every_hand else _one_seat_arg, default=DEFAULT_SEAT, help=seat)
    sp.add_argument("--after", type=_nonneg, default=None, metavar="N", help=after)


_TIME_LIMIT_HELP = ("stop the command after SECONDS with an error (exit 1): the long computations (beliefs, --list, "
                    "validate's contradiction search, advise --objective game, evaluate, analyse, simulate); "
                    "engine: each request, play: each bot decision")

_SERVE_TIME_LIMIT_HELP = "not for serve, which bounds each request with --timeout (an error)"

#: The commands that run a session: ``--time-limit`` bounds each of its requests or bot decisions, not
#: the session (``serve`` bounds its requests with ``--timeout``).
_SESSIONS = frozenset({"engine", "play", "serve"})


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description="Play and analyse the card game Trio: rules engine, exact beliefs, advice.",
                epilog="Documents: docs/RULES.md (the rules as implemented), docs/RECORD.md (the trio-record/1 "
                       "format), docs/INTERFACE.md (every command's options, exit status and JSON).")
    p.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    p.add_argument("--time-limit", type=_seconds, default=None, metavar="SECONDS", help=_TIME_LIMIT_HELP)
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def add(name: str, fn: Callable[[argparse.Namespace], str], help_: str) -> argparse.ArgumentParser:
        sp = sub.add_parser(name, help=help_, description=help_)
        sp.set_defaults(func=fn)
        sp.add_argument("--time-limit", type=_seconds, default=argparse.SUPPRESS, metavar="SECONDS",
                        help=_SERVE_TIME_LIMIT_HELP if name == "serve" else _TIME_LIMIT_HELP)
        return sp

    sp = add("validate", cmd_validate, "check a record against the rules and that some deal fits it")
    sp.add_argument("file", metavar="FILE", help=_RECORD_FILE)
    sp.add_argument("--json", action="store_true", help="print the summary as JSON (docs/INTERFACE.md)")

    sp = add("replay", cmd_replay, "show the table after each event")
    _position_args(sp, "whose view: a seat, 'none' (spectator) or 'all' (every hand; full-deal records); "
                       "default: the record keeper's, else every hand", every_hand=True,
                   after="stop after the first N events (default: all of them)")
    sp.add_argument("--json", action="store_true", help="print the frames as JSON (docs/INTERFACE.md)")

    sp = add("beliefs", cmd_beliefs, "exact probabilities of the hidden cards for one view")
    _position_args(sp)
    sp.add_argument("--json", action="store_true", help="print JSON (docs/INTERFACE.md)")
    sp.add_argument("--list", type=_count(0, MAX_PLACEMENTS, "a number of placements"), default=0, metavar="N",
                    help="also list the possible placements (python-constraint): all of them if at most N fit, "
                         "else the first N found")
    sp.add_argument("--swap-budget", type=_count(1, MAX_STATE_BUDGET, "a number of states"), default=STATE_BUDGET,
                    metavar="STATES",
                    help=f"team play: lattice states allowed for tracking secret swaps exactly (default "
                         f"{STATE_BUDGET}; larger is exact more often and slower)")
    sp = add("advise", cmd_advise, "rank every legal next reveal of the seat to move by its exact chances")
    _position_args(sp, "the seat to move (default: the record keeper's seat, else the seat to move)")
    sp.add_argument("--objective", choices=queries.OBJECTIVES, default="turn",
                    help="what to rank by (default turn: the turn's worth, a win now counting as three trios "
                         "and a trio nearer the goal a little more; trio: the chance of a trio first; win: the "
                         "chance to win this turn first, however small; game: the chance to win the game, by "
                         "playouts)")
    sp.add_argument("--samples", type=_deals, default=None, metavar="K",
                    help="--objective game: the most posterior deals per reveal (default %d at 3 players, "
                         "scaled by 3/players: %d at 6)" % (_DEFAULT_ADVISE, _DEFAULT_ADVISE // 2))
    sp.add_argument("--seed", type=_seed, default=None, help="--objective game: seed of the posterior samples "
                                                              "(default 0)")
    sp.add_argument("--confidence", type=_confidence_arg, default=None, metavar="C",
                    help="--objective game: stop once the ranking is clear at this confidence (default 0.95; 1: "
                         "every reveal on every deal)")
    sp.add_argument("--json", action="store_true", help="print JSON (docs/INTERFACE.md)")

    sp = add("evaluate", cmd_evaluate, "each seat's chance to win the game, by playouts over exact posterior deals")
    sp.epilog = ("The model of play behind the playouts (trio_solver/decide/rollout.py): every player has perfect "
                 "memory and its own hand; it starts a turn with the reveal likeliest to give a trio (a winning "
                 "trio weighs four times), reckoned by counting the unaccounted cards and the order of hands, "
                 "then reveals known cards of the value shown, else the likeliest place. No swaps during a "
                 "playout.")
    _position_args(sp)
    sp.add_argument("--samples", type=_deals, default=_DEFAULT_EVALUATE, metavar="K",
                    help="the most playouts (default %d)" % _DEFAULT_EVALUATE)
    sp.add_argument("--precision", type=_precision_arg, default=None, metavar="E",
                    help="stop once each side's standard error is at most E (default 0.02; 0: all --samples)")
    sp.add_argument("--seed", type=_seed, default=0, help="seed of the posterior samples (default 0; same seed, same figures)")
    sp.add_argument("--json", action="store_true", help="print JSON (docs/INTERFACE.md)")

    sp = add("analyse", cmd_analyse, "judge every decision of the seats whose hand the record knows; "
             "with a directory or several files, one summary per player across the games (also: analyze)")
    sp.add_argument("file", metavar="FILE", nargs="+", help="a record, or a directory of records, or several")
    sp.add_argument("--json", action="store_true", help="print JSON (docs/INTERFACE.md)")
    sp.add_argument("--all", action="store_true", help="also list every reveal (one game)")
    sp.add_argument("--html", metavar="OUT", type=_out_file, help="also write a self-contained HTML report with a chart (one game)")
    sp.add_argument("--csv", action="store_true", help="print the per-player summary as CSV (a collection)")
    sp.add_argument("--reports", metavar="DIR", help="also write a .txt and an .html report per game in DIR "
                                                     "(a collection)")
    add_backend_options(sp, "games of a collection")
    sp.add_argument("--samples", type=_deals, default=None, metavar="K",
                    help="the most posterior deals per candidate reveal when judging by the chance to win the game "
                         "(default %d)" % _DEFAULT_ANALYSE)
    sp.add_argument("--confidence", type=_confidence_arg, default=None, metavar="C",
                    help="stop playing out a decision once its label is clear at this confidence (default 0.95; "
                         "1: every reveal on every deal)")
    sp.add_argument("--seed", type=_seed, default=0, help="seed of the playouts (default 0; same seed, same figures)")
    sp.add_argument("--quick", action="store_true",
                    help="judge by the chances of the turn only (trio chance + win now): faster, no win-chance "
                         "curve")
    sub.choices["analyze"] = sp  # type: ignore[assignment]  # the American spelling works too

    sp = add("simulate", cmd_simulate, "play many games between bots and rank them")
    sp.add_argument("--players", type=int, default=4, choices=(3, 4, 5, 6), help="3 to 6 (default 4)")
    sp.add_argument("--mode", choices=("simple", "picante"), default="simple", help="default simple")
    sp.add_argument("--teams", action="store_true", help="team play (4 or 6 players; partners sit opposite)")
    sp.add_argument("--bots", help=f"one bot name per seat, comma-separated ({', '.join(BOT_NAMES)}; "
                                   "default solver then memory)")
    sp.add_argument("--budget", type=_deals, default=None, metavar="K",
                    help="the expert bot's playouts per decision (default %d at 3 players, scaled by "
                         "(3/players)^2: %d at 6)" % (_DEFAULT_BUDGET, _DEFAULT_BUDGET // 4))
    sp.add_argument("--games", type=_positive, default=100, help="games to play, 1 or more (default 100)")
    sp.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                    help="progress on standard error as the games finish (default: when it is a terminal "
                         "and --json is not given; --progress also to a file or pipe, one line every few seconds)")
    sp.add_argument("--seed", type=_seed, default=0, help="default 0")
    add_backend_options(sp)
    sp.add_argument("--results", metavar="FILE",
                    help="append every finished game to FILE as a JSON line; run the same command again to "
                         "resume (the games in FILE are not played again)")
    sp.add_argument("--save", metavar="DIR", help="write every game as a record in DIR")
    sp.add_argument("--json", action="store_true", help="print JSON (docs/INTERFACE.md)")

    sp = add("play", cmd_play, "play a game at the terminal against bots")
    sp.add_argument("--players", type=int, default=4, choices=(3, 4, 5, 6), help="3 to 6 (default 4)")
    sp.add_argument("--mode", choices=("simple", "picante"), default="simple", help="default simple")
    sp.add_argument("--teams", action="store_true", help="team play (4 or 6 players)")
    sp.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    sp.add_argument("--bots", help=f"bot names for the other seats, comma-separated ({', '.join(BOT_NAMES)}; "
                                   "default memory)")
    sp.add_argument("--seed", type=_deal_seed, default=None, help="the deal's seed (default: a random one, printed)")
    sp.add_argument("--save", metavar="FILE", type=_out_file, help="save the game as a record (also when you quit)")
    sp.add_argument("--delay", type=_delay, default=None,
                    help="seconds after each bot reveal (default 0.8 at a terminal, else 0)")

    add("engine", cmd_engine, "answer JSON requests, one per line, on standard input (docs/INTERFACE.md)")

    sp = add("serve", cmd_serve, "the HTTP service and the web board (docs/INTERFACE.md)")
    sp.add_argument("--host", type=_checked_by(listen_host), default="127.0.0.1",
                    help="address to listen on (default 127.0.0.1; 0.0.0.0: every interface)")
    sp.add_argument("--port", type=_port, default=8765, help="port (default 8765)")
    sp.add_argument("--workers", type=_count(1, MAX_WORKERS, "a number of processes"), default=2,
                    help="worker processes for the computations (default 2)")
    sp.add_argument("--timeout", type=_seconds, default=30.0, metavar="SECONDS",
                    help="time limit of one request (default 30)")
    sp.add_argument("--read-timeout", type=_seconds, default=10.0, metavar="SECONDS",
                    help="time a client has to send a request's headers, and then its body (default 10)")
    sp.add_argument("--queue", type=_count(1, MAX_QUEUE, "a number of requests"), default=64,
                    help="requests waiting or running at most; more are answered 503 busy (default 64)")
    sp.add_argument("--client-share", type=_positive, default=None, metavar="N",
                    help="requests of one client address waiting or running at most (default a quarter of "
                         "--queue); behind a proxy every request comes from the proxy's address")
    sp.add_argument("--cors", action="append", default=[], metavar="ORIGIN", type=_checked_by(cors_origin),
                    help="allow browser pages from ORIGIN, http(s)://HOST[:PORT] (repeatable; '*' for any)")
    sp.add_argument("--allow-host", action="append", default=[], metavar="NAME", type=_checked_by(host_pattern),
                    help="also answer requests whose Host is NAME (repeatable; *.DOMAIN for its subdomains, '*' "
                         "for any): the name of a proxy in front of the service, or of this machine when bound "
                         "to another address; by default only the bound address and the loopback names")
    sp.add_argument("--log-level", default="warning", choices=("critical", "error", "warning", "info", "debug"),
                    help="how much the service logs (default warning; info also logs each request)")
    return p


def main(argv: Sequence[str] | None = None, started: float | None = None) -> int:
    """Run the command line; returns the exit status (see the module's docstring). ``--time-limit``
    counts from ``started`` (a :func:`time.monotonic` reading: the process's start, so that the time the
    library takes to load counts too), else from now.

    Never lets an exception out: errors, a closed or broken standard stream, a full disk
    and Ctrl-C are each one line on standard error (when it is open) and an exit status.
    """
    global _STDIN_CLOSED
    if sys.stdin is None:  # started with standard input closed: reading it finds the end at once
        _STDIN_CLOSED = True
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115
    # run as the program (argv from sys.argv), an interrupted command also keeps quiet about objects
    # the interrupt left half-built, whose clean-up fails as the interpreter exits
    with _interrupts_kept(quiet_after=argv is None) as interrupts:
        return _main(argv, interrupts, started)


def _main(argv: Sequence[str] | None, interrupts: _Interrupts, started: float | None) -> int:
    args: argparse.Namespace | None = None
    try:
        parser = build_parser()
        args, extra = parser.parse_known_args(argv)
        command = getattr(args, "command", None)
        if extra:  # named with the help of the command they were given to
            raise UsageError(_cut_long_words(f"unrecognized arguments: {' '.join(extra)}")
                             + f" (see '{PROG}{' ' + command if command else ''} --help')")
        if not command:
            raise UsageError(f"a command is needed: {', '.join(COMMANDS)} (see '{PROG} --help')")
        if sys.stdout is None:
            raise _OutputError("standard output is closed")
        # a session (the engine, a game at the terminal) bounds each request or bot decision itself
        whole = None if args.command in _SESSIONS or args.time_limit is None else Deadline(args.time_limit, started)
        with time_limit(whole), _compile_notice(sys.stderr):
            output = args.func(args)
        if output:
            # text from records and file names never reaches the terminal raw (names are checked on
            # reading; paths are not): every control character but the line break is escaped
            output = escape(output, keep="\n")
            for start in range(0, len(output), _PIECE):  # in pieces: a long output is not copied whole again
                sys.stdout.write(output[start:start + _PIECE])
            if not output.endswith("\n"):
                sys.stdout.write("\n")
        sys.stdout.flush()
    except UsageError as e:
        return _fail(str(e), 2)
    except TrioError as e:
        return _fail(_with_file(args, _in_cli_words(e)), 1)
    except KeyboardInterrupt:
        interrupts.settle()
        _silence_stdout()
        return _fail("interrupted", 130)
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except _OutputError as e:
        _silence_stdout()
        return _fail(str(e), 1)
    except RecursionError:
        return _fail("input nested too deeply", 1)
    except MemoryError:
        return _fail("out of memory", 1)
    except OSError as e:
        _silence_stdout()
        what = "cannot write the output" if e.filename is None else f"{e.filename}"
        return _fail(f"{what}: {e.strerror or e}", 1)
    except SystemExit as e:  # --help, --version: argparse printed and exits
        try:
            sys.stdout.flush()
        except (OSError, ValueError, AttributeError):
            _silence_stdout()
        return e.code if isinstance(e.code, int) else 0
    except Exception as e:  # a bug: one line all the same (TRIO_DEBUG=1 shows the traceback)
        if interrupts.seen or after_interrupt(e):
            interrupts.settle()
            _silence_stdout()
            return _fail("interrupted", 130)
        if os.environ.get("TRIO_DEBUG"):
            raise
        return _fail(f"internal error ({type(e).__name__}: {_show(str(e), 200)}); please report it", 70)
    return 0


#: What a person at a terminal reads while the playout kernel is built for their machine.
COMPILE_NOTICE = f"{PROG}: building the playout kernel for this machine (about a minute; kept for later runs)"


@contextlib.contextmanager
def _compile_notice(err: Any) -> Iterator[None]:
    """On a terminal, say so on ``err`` when the command starts building the compiled kernel (its first run
    after an install, a minute of silence otherwise); nothing when the disk cache holds it."""
    try:
        shown = err is not None and err.isatty()
    except (OSError, ValueError):  # a closed stream
        shown = False
    if not shown:
        yield
        return

    def announce() -> None:
        try:
            err.write(f"\r\x1b[K{COMPILE_NOTICE}\n")  # over a progress bar already drawn, if any
            err.flush()
        except (OSError, ValueError):  # the terminal went away: the command itself finds out
            pass

    with kernel.first_compile_announced(announce):
        yield


class _Interrupts:
    """What the command knows of its Ctrl-Cs (see :func:`_interrupts_kept`)."""

    def __init__(self) -> None:
        #: an interrupt was lost in a callback from native code, or the command reported one
        self.seen = False
        #: whether an interrupt may still be raised (delivered again, or from a Ctrl-C)
        self.active = True
        self.lock = threading.Lock()

    def settle(self) -> None:
        """The command reports its interruption now: no interrupt is raised after this (one Ctrl-C
        never becomes two, even while the line saying so is written)."""
        with self.lock:
            self.active = False
            self.seen = True


@contextlib.contextmanager
def _interrupts_kept(quiet_after: bool) -> Iterator[_Interrupts]:
    """Make a Ctrl-C (or a SIGTERM that stands for one) end the command, wherever it lands.

    A KeyboardInterrupt raised inside a callback from native code (numba's compiler hands each
    compiled object to Python through one) cannot unwind past it: Python prints it as an "ignored"
    exception and the native code goes on or fails with an error of its own. While the block runs,
    such an interrupt is not printed but delivered again a moment later, once Python is outside the
    callback (as a Ctrl-C, or as a SIGTERM where Ctrl-C is ignored), and the yielded state's ``seen``
    turns true, so that an error it caused on its way is reported as the interruption it is. A Ctrl-C
    the command handles itself (``play`` stops a game with it) changes nothing. Once the command
    has called :meth:`~_Interrupts.settle`, no interrupt is raised any more. With ``quiet_after``, once
    interrupted, errors Python cannot raise (clean-ups of half-built objects) stay unprinted afterwards.
    """
    state = _Interrupts()
    pending = [False]  # one delivery at a time: one interrupt never becomes two
    previous_hook = sys.unraisablehook

    def on_sigint(signum: int, frame: object) -> None:
        if state.active:  # after the command settled, it is already ending as interrupted
            signal.default_int_handler(signum, frame)  # type: ignore[arg-type]

    def again() -> None:
        with state.lock:
            pending[0] = False
            if not state.active:
                return
            # as a Ctrl-C, or, where Ctrl-C is ignored (a background run), as the SIGTERM that stands for one
            for signum in (signal.SIGINT, signal.SIGTERM):
                if callable(signal.getsignal(signum)):
                    _thread.interrupt_main(signum)
                    return

    def on_unraisable(u: Any) -> None:
        if isinstance(u.exc_value, KeyboardInterrupt):
            state.seen = True
            if not pending[0]:
                pending[0] = True
                timer = threading.Timer(0.01, again)
                timer.daemon = True
                timer.start()
            return
        if quiet_after and state.seen and not state.active:
            # the command is reporting its interruption: an object the interrupt left half-built is
            # freed with the exception (after the line is written) and its clean-up fails; not printed
            return
        previous_hook(u)

    try:
        previous = signal.getsignal(signal.SIGINT)
        ours = previous is signal.default_int_handler  # an ignored Ctrl-C (a background job) stays ignored
        if ours:
            signal.signal(signal.SIGINT, on_sigint)
    except ValueError:  # not the main thread: signals are not ours to handle
        ours = False
    sys.unraisablehook = on_unraisable
    try:
        yield state
    finally:
        with state.lock:
            state.active = False
        sys.unraisablehook = _ignore if state.seen and quiet_after else previous_hook
        if ours:
            signal.signal(signal.SIGINT, previous)


def _ignore(_unraisable: Any) -> None:
    """An unraisable-exception hook that prints nothing."""


class _OutputError(Exception):
    """Standard output cannot take the answer (exit status 1)."""


def _fail(message: str, status: int) -> int:
    """Print ``trio-solver: message`` as one line on standard error (if it is open), its control
    characters escaped; return ``status``."""
    line = f"{PROG}: {' '.join(escape(message).split())}\n"
    try:
        if sys.stderr is not None:
            sys.stderr.write(line)
            sys.stderr.flush()
    except (OSError, ValueError):
        pass
    return status


def _silence_stdout() -> None:
    """The reader went away (``| head``) or the device is full: stop writing, and let nothing be
    flushed (or complained about) at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        if sys.stdout is not None:
            try:
                os.dup2(devnull, sys.stdout.fileno())
            except (OSError, ValueError, AttributeError):
                pass
        os.close(devnull)
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115
    except OSError:
        pass


#: Arguments of the library that the commands take as options: their errors name the option.
_OPTION_OF = {"after": "--after", "seat": "--seat", "samples": "--samples", "seed": "--seed",
              "confidence": "--confidence", "precision": "--precision",
              "swap_budget": "--swap-budget", "objective": "--objective", "limit": "--list",
              "time limit": "--time-limit", "allow_hosts": "--allow-host", "client_share": "--client-share",
              "read_timeout": "--read-timeout"}


def _in_cli_words(e: TrioError) -> str:
    """The library's message, naming the command-line option (and the values it takes) where the library
    names its argument."""
    where = getattr(e, "where", None)
    if isinstance(e, RecordError) and where in _OPTION_OF:
        name, reason = where, e.reason
    else:
        name, sep, reason = str(e).partition(": ")
        if not sep or name not in _OPTION_OF:
            return str(e)
    for library, cli in _CLI_VALUES.get(name, ()):
        reason = reason.replace(library, cli)
    return f"{_OPTION_OF[name]}: {reason}"


#: Values the library's messages name as the API takes them, as the command line takes them.
_CLI_VALUES = {"seat": (("null (a spectator)", "'none' (a spectator)"), ('"all"', "'all'"))}


def _with_file(args: argparse.Namespace | None, message: str) -> str:
    """``FILE: message`` for a command on one record file (not when the message names it already)."""
    f = getattr(args, "file", None)
    if isinstance(f, list):  # analyse FILE...: one file is named, several are named by their own errors
        f = f[0] if len(f) == 1 else None
    if not isinstance(f, str) or not f or f == "-" or message.startswith(f"{escape(f)}: "):
        return message
    return f"{f}: {message}"


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    sys.exit(main())
