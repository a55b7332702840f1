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
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from ._args import show as _show
from .errors import RecordError, TrioError
from .render import advice_text
from .facts import STATE_BUDGET

__all__ = ["main"]

PROG = "trio-solver"
COMMANDS = ("validate", "replay", "beliefs", "advise", "analyse", "simulate", "play")


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
        raise UsageError(f"{_cut_long_words(message)} (see '{self.prog} --help')")


def _seat_arg(text: str) -> int | None | str:
    t = text.strip().lower()
    if t == "default":
        return "default"
    if t in ("none", "spectator"):
        return None
    if t == "all":
        return "all"
    if t.isascii() and t.isdigit() and len(t) <= 6:
        return int(t)
    raise argparse.ArgumentTypeError(f"expected a seat number, 'none' or 'all', got {_show(text)}")


def _nonneg(text: str) -> int:
    t = text.strip()
    if not (t.isascii() and t.isdigit()):
        raise argparse.ArgumentTypeError(f"expected a number (0 or more), got {_show(text)}")
    if len(t.lstrip("0")) > 15:
        raise argparse.ArgumentTypeError(f"{len(t)}-digit number: far above any limit")
    return int(t)


def _seconds(text: str) -> float:
    from .limits import MAX_SECONDS

    try:
        value = float(text) if len(text) <= 30 else float("nan")
    except ValueError:
        value = float("nan")
    if not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0 and at most {MAX_SECONDS:g}, "
                                         f"got {_show(text)}")
    return value


def _load(path: str) -> Any:
    from .record import Record

    if path == "-" and _STDIN_CLOSED:
        raise RecordError("-", "standard input is closed")
    if path != "-" and not os.path.exists(path):
        raise UsageError(f"{path}: no such file")
    if path != "-" and os.path.isdir(path):
        raise UsageError(f"{path}: is a directory, not a record file")
    return Record.load(path)


# -- commands ----------------------------------------------------------------------


def cmd_validate(args: argparse.Namespace) -> str:
    from .validate import check_record

    record = _load(args.file)
    summary = check_record(record)
    if args.json:
        return json.dumps(summary.to_json())
    return str(summary)


def cmd_replay(args: argparse.Namespace) -> str:
    from .errors import RecordError
    from .render import describe_event, frame, render_frame

    record = _load(args.file)
    seat = args.seat
    if seat == "default":
        seat = record.viewer.seat if record.viewer is not None else ("all" if record.deal is not None else None)
    if seat == "all" and record.deal is None:
        raise RecordError("--seat", "'all' needs a record with the whole deal")
    last = len(record.events) if args.after is None else args.after
    if not 0 <= last <= len(record.events):
        raise RecordError("--after", f"expected 0 to {len(record.events)} events, got {last}")
    if record.deal is None and seat != (record.viewer.seat if record.viewer is not None else None):
        record.view(seat)  # raises: this record does not know that seat's hand
    # the events as the chosen view saw them: other teams' swap values stay secret
    shown = record.events if seat == "all" else record.view(seat).events
    frames = []
    for k, state in enumerate(record.states()[: last + 1]):
        fr = frame(state, seat)
        label = "start" if k == 0 else describe_event(shown[k - 1], record.names)
        frames.append((k, label, fr))
    if args.json:
        return json.dumps({
            "seat": seat,
            "frames": [{"after": k, "event": None if k == 0 else k - 1, "description": label, **fr}
                       for k, label, fr in frames],
        })
    out = []
    for k, label, fr in frames:
        head = "Start of the game" if k == 0 else f"After event {k - 1}: {label}"
        out.append(head)
        out.append(render_frame(fr, record.names))
        out.append("")
    final = frames[-1][2]
    if final["winner"] is not None:
        out.append(f"Winner: seat {final['winner']}")
    else:
        out.append(f"Seat {final['to_move']} to move")
    return "\n".join(out)


def cmd_beliefs(args: argparse.Namespace) -> str:
    from .beliefs import Beliefs
    from .errors import RecordError

    record = _load(args.file)
    if args.seat == "all":
        raise RecordError("--seat", "beliefs are for one seat or 'none' (a spectator)")
    view = record.view(args.seat, args.after)
    beliefs = Beliefs(view, swap_budget=args.swap_budget)
    if not beliefs.consistent:
        from .validate import explain_contradiction

        raise explain_contradiction(record)
    data = beliefs.to_json(args.after)
    if args.list:
        from . import csp

        try:
            found = csp.placements(beliefs.facts, args.list)
        except OverflowError as e:
            raise RecordError("--list", str(e)) from None
        data["placements"] = [
            {"probability": float(p), "rows": _matrix_json(m)} for p, m in found
        ]
    if args.json:
        return json.dumps(data)
    return _beliefs_text(data)


def _matrix_json(m: dict[tuple[int, int], int]) -> dict[str, list[int]]:
    rows: dict[str, list[int]] = {}
    for (key, v), c in sorted(m.items()):
        name = "unseen centre slots" if key < 0 else f"seat {key}"
        rows.setdefault(name, []).extend([v] * c)
    return rows


def _dist_text(d: dict[str, float]) -> str:
    return "  ".join(f"{v}:{p:.3f}" for v, p in sorted(d.items(), key=lambda t: -t[1]))


def _beliefs_text(data: dict[str, Any]) -> str:
    who = "spectator" if data["seat"] is None else f"seat {data['seat']}"
    lines = [f"Beliefs of {who} after {data['after']} events (seat {data['to_move']} to move)"
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
        lines.append(f"Possible placements ({len(data['placements'])}):")
        for p in data["placements"]:
            rows = "; ".join(f"{k}: {' '.join(map(str, v))}" for k, v in p["rows"].items())
            lines.append(f"  {p['probability']:.4f}  {rows}")
    return "\n".join(lines)


def cmd_advise(args: argparse.Namespace) -> str:
    from .errors import RecordError
    from .search import advise

    record = _load(args.file)
    if args.seat == "all" or args.seat is None:
        raise RecordError("--seat", "advice is for the seat to move, whose hand must be known")
    view = record.view(args.seat, args.after)
    advice = advise(view, args.objective)
    if args.json:
        data = advice.to_json()
        data["after"] = len(view.events) if args.after is None else args.after
        return json.dumps(data)
    return advice_text(advice, record.names)


def cmd_analyse(args: argparse.Namespace) -> str:
    from .analysis import analyse
    from .errors import RecordError

    record = _load(args.file)
    if not record.known_seats():
        raise RecordError("record", "no seat's hand is known: a spectator record cannot be analysed")
    show = sys.stderr.isatty() and not args.json

    def progress(done: int, total: int) -> None:
        if show:
            sys.stderr.write(f"\ranalysing decision {done}/{total}")
            sys.stderr.flush()

    result = analyse(record, progress)
    if show:
        sys.stderr.write("\n")
    if args.html:
        page = result.html(f"Trio game analysis: {os.path.basename(args.file)}")
        _write_atomic(args.html, page)
    if args.json:
        return json.dumps(result.to_json())
    text = result.text()
    if args.html:
        text += f"\nHTML report written to {args.html}"
    return text


def _write_atomic(path: str, text: str) -> None:
    """Write an output file atomically (see :func:`trio_solver.record.write_atomic`): complete or
    untouched, no temporary file left; a bad path is one line (exit 1)."""
    from .record import write_atomic

    write_atomic(path, text)


def cmd_simulate(args: argparse.Namespace) -> str:
    from .errors import RulesError
    from .rules import Rules
    from .simulate import run_tournament, save_records

    rules = Rules(args.players, args.mode, args.teams)
    bots = [b.strip() for b in args.bots.split(",")] if args.bots else ["solver"] + ["memory"] * (args.players - 1)
    if len(bots) != rules.players:
        raise RulesError(f"--bots: {len(bots)} bot names for {rules.players} players (one per seat)")
    t = run_tournament(rules, bots, args.games, args.seed, workers=args.workers, keep_records=bool(args.save),
                       progress=not args.json)
    if args.save:
        save_records(t, args.save)
    data = t.to_json()
    if args.json:
        return json.dumps(data)
    lines = [f"{data['games']} games, {rules.players} players, {rules.mode.value}"
             f"{', teams' if rules.teams else ''}, seed {args.seed}"]
    lines.append(f"  {'seat':>4} {'bot':<8} {'wins':>6} {'rate':>7}  95% interval")
    for p in data["per_seat"]:
        lines.append(f"  {p['seat']:>4} {p['bot']:<8} {p['wins']:>6} {p['win_rate']:7.3f}  "
                     f"[{p['ci95'][0]:.3f}, {p['ci95'][1]:.3f}]")
    lines.append("  by bot: " + ", ".join(f"{k} {v}" for k, v in data["wins"].items()))
    lines.append(f"  average turns {data['avg_turns']:.1f}; {data['games_per_second']:.2f} games per second")
    if args.save:
        lines.append(f"  records saved in {args.save}")
    return "\n".join(lines)


def cmd_play(args: argparse.Namespace) -> str:
    from .errors import RulesError
    from .play import play_terminal
    from .rules import Rules

    rules = Rules(args.players, args.mode, args.teams)
    if not 0 <= args.seat < rules.players:
        raise RulesError(f"--seat: expected a seat 0 to {rules.players - 1}, got {args.seat}")
    bots = [b.strip() for b in args.bots.split(",")] if args.bots else ["memory"] * (rules.players - 1)
    if len(bots) != rules.players - 1:
        raise RulesError(f"--bots: {len(bots)} bot names for the {rules.players - 1} other seats")
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    play_terminal(rules, args.seat, bots, seed, stdin=sys.stdin, stdout=sys.stdout, save=args.save)
    return ""


# -- the parser ---------------------------------------------------------------------


_TIME_LIMIT_HELP = ("stop the long computations (beliefs, --list, validate's contradiction search, analyse) "
                    "after SECONDS with an error (exit 1)")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description="Play and analyse the card game Trio: rules engine, exact beliefs, advice.",
                epilog="Documents: docs/RULES.md (the rules as implemented), docs/RECORD.md (the trio-record/1 "
                       "format), docs/INTERFACE.md (every command's options, exit status and JSON).")
    p.add_argument("--time-limit", type=_seconds, default=None, metavar="SECONDS", help=_TIME_LIMIT_HELP)
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def add(name: str, fn: Callable[[argparse.Namespace], str], help_: str) -> argparse.ArgumentParser:
        sp = sub.add_parser(name, help=help_, description=help_)
        sp.set_defaults(func=fn)
        sp.add_argument("--time-limit", type=_seconds, default=argparse.SUPPRESS, metavar="SECONDS",
                        help=_TIME_LIMIT_HELP)
        return sp

    sp = add("validate", cmd_validate, "check a record against the rules and that some deal fits it")
    sp.add_argument("file", metavar="FILE", help="a trio-record/1 file (docs/RECORD.md), or - for standard input")
    sp.add_argument("--json", action="store_true", help="print the summary as JSON (docs/INTERFACE.md)")

    sp = add("replay", cmd_replay, "show the table after each event")
    sp.add_argument("file", metavar="FILE")
    sp.add_argument("--seat", type=_seat_arg, default="default",
                    help="whose view: a seat, 'none' (spectator) or 'all' (every hand; full-deal records)")
    sp.add_argument("--after", type=_nonneg, default=None, help="stop after the first N events")
    sp.add_argument("--json", action="store_true", help="print the frames as JSON (docs/INTERFACE.md)")

    sp = add("beliefs", cmd_beliefs, "exact probabilities of the hidden cards for one view")
    sp.add_argument("file", metavar="FILE")
    sp.add_argument("--seat", type=_seat_arg, default="default", help="a seat or 'none' (spectator)")
    sp.add_argument("--after", type=_nonneg, default=None, help="the position after the first N events")
    sp.add_argument("--json", action="store_true", help="print JSON (docs/INTERFACE.md)")
    sp.add_argument("--list", type=_nonneg, default=0, metavar="N",
                    help="also list every possible placement (python-constraint), if at most N fit")
    sp.add_argument("--swap-budget", type=_nonneg, default=STATE_BUDGET, metavar="STATES",
                    help=f"team play: lattice states allowed for tracking secret swaps exactly (default "
                         f"{STATE_BUDGET}; larger is exact more often and slower)")
    sp = add("advise", cmd_advise, "rank every legal next reveal of the seat to move by its exact chances")
    sp.add_argument("file", metavar="FILE")
    sp.add_argument("--seat", type=_seat_arg, default="default", help="the seat to move (default: the viewer)")
    sp.add_argument("--after", type=_nonneg, default=None, help="the position after the first N events")
    sp.add_argument("--objective", choices=("trio", "win"), default="trio", help="what to maximise (default trio)")
    sp.add_argument("--json", action="store_true", help="print JSON (docs/INTERFACE.md)")

    sp = add("analyse", cmd_analyse, "judge every decision of the seats whose hand the record knows")
    sp.add_argument("file", metavar="FILE")
    sp.add_argument("--json", action="store_true", help="print JSON (docs/INTERFACE.md)")
    sp.add_argument("--html", metavar="OUT", help="also write a self-contained HTML report with a chart")
    sub.choices["analyze"] = sp  # type: ignore[assignment]  # the American spelling works too

    sp = add("simulate", cmd_simulate, "play many games between bots and rank them")
    sp.add_argument("--players", type=int, required=True, choices=(3, 4, 5, 6))
    sp.add_argument("--mode", choices=("simple", "picante"), default="simple")
    sp.add_argument("--teams", action="store_true", help="team play (4 or 6 players)")
    sp.add_argument("--bots", help="one bot name per seat, comma-separated (random, memory, solver)")
    sp.add_argument("--games", type=int, default=100)
    sp.add_argument("--seed", type=int, default=0)
    sp.add_argument("--workers", type=int, default=1, help="processes (same results as one)")
    sp.add_argument("--save", metavar="DIR", help="write every game as a record in DIR")
    sp.add_argument("--json", action="store_true", help="print JSON (docs/INTERFACE.md)")

    sp = add("play", cmd_play, "play a game at the terminal against bots")
    sp.add_argument("--players", type=int, default=4, choices=(3, 4, 5, 6))
    sp.add_argument("--mode", choices=("simple", "picante"), default="simple")
    sp.add_argument("--teams", action="store_true")
    sp.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    sp.add_argument("--bots", help="bot names for the other seats, comma-separated (default memory)")
    sp.add_argument("--seed", type=int, default=None)
    sp.add_argument("--save", metavar="FILE", help="save the finished game as a record")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (see the module's docstring).

    Never lets an exception out: errors, a closed or broken standard stream, a full disk
    and Ctrl-C are each one line on standard error (when it is open) and an exit status.
    """
    from .limits import time_limit

    global _STDIN_CLOSED
    if sys.stdin is None:  # started with standard input closed: reading it finds the end at once
        _STDIN_CLOSED = True
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115
    args: argparse.Namespace | None = None
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "command", None):
            raise UsageError(f"a command is needed: {', '.join(COMMANDS)} (see '{PROG} --help')")
        if sys.stdout is None:
            raise _OutputError("standard output is closed")
        with time_limit(args.time_limit):
            output = args.func(args)
        if output:
            sys.stdout.write(output if output.endswith("\n") else output + "\n")
        sys.stdout.flush()
    except UsageError as e:
        return _fail(str(e), 2)
    except TrioError as e:
        return _fail(f"{_where_file(args)}{_in_cli_words(e)}", 1)
    except KeyboardInterrupt:
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
        if os.environ.get("TRIO_DEBUG"):
            raise
        return _fail(f"internal error ({type(e).__name__}: {_show(str(e), 200)}); please report it", 70)
    return 0


class _OutputError(Exception):
    """Standard output cannot take the answer (exit status 1)."""


def _fail(message: str, status: int) -> int:
    """Print ``trio-solver: message`` as one line on standard error (if it is open); return ``status``."""
    line = f"{PROG}: {' '.join(message.split())}\n"
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
              "swap_budget": "--swap-budget", "objective": "--objective", "limit": "--list",
              "time limit": "--time-limit"}


def _in_cli_words(e: TrioError) -> str:
    """The library's message, naming the command-line option where the library names its argument."""
    where = getattr(e, "where", None)
    if isinstance(e, RecordError) and where in _OPTION_OF:
        return f"{_OPTION_OF[where]}: {e.reason}"
    name, sep, reason = str(e).partition(": ")
    if sep and name in _OPTION_OF:
        return f"{_OPTION_OF[name]}: {reason}"
    return str(e)


def _where_file(args: argparse.Namespace | None) -> str:
    f = getattr(args, "file", None)
    return f"{f}: " if f and f != "-" else ""


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    sys.exit(main())
