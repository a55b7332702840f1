"""The ``trio-solver`` command (see INTERFACE.md for the JSON contracts).

Exit status: 0 success; 1 the record, or the request on it, is invalid (one
line on standard error naming the place); 2 usage errors (unknown option,
missing file). Output is built completely before anything is written, so a
failure never leaves half an answer behind.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from .errors import TrioError
from .facts import STATE_BUDGET

__all__ = ["main"]

PROG = "trio-solver"
COMMANDS = ("validate", "replay", "beliefs", "advise", "evaluate", "analyse", "simulate", "play", "engine",
            "serve")


class UsageError(Exception):
    """A command line that cannot be run (exit status 2)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def _seat_arg(text: str) -> int | None | str:
    t = text.strip().lower()
    if t == "default":
        return "default"
    if t in ("none", "spectator"):
        return None
    if t == "all":
        return "all"
    if t.isdigit():
        return int(t)
    raise argparse.ArgumentTypeError(f"expected a seat number, 'none' or 'all', got {text!r}")


def _nonneg(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a number of events (0 or more), got {text!r}")
    return int(text)


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of 1 or more, got {text!r}")
    return int(text)


# defaults shown in --help (kept equal to the library's by tests/test_evaluate.py)
_DEFAULT_EVALUATE = 400
_DEFAULT_ADVISE = 200
_DEFAULT_BUDGET = 480


def _load(path: str) -> Any:
    from .record import Record

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
    from .protocol import replay_json
    from .render import render_frame

    record = _load(args.file)
    data = replay_json(record, args.seat, args.after)
    if args.json:
        return json.dumps(data)
    frames = [(fr["after"], fr["description"], fr) for fr in data["frames"]]
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
    from .errors import RecordError
    from .protocol import beliefs_of

    record = _load(args.file)
    beliefs = beliefs_of(record, args.seat, args.after, args.swap_budget)
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
    from .protocol import advise_result

    record = _load(args.file)
    advice, data = advise_result(record, args.seat, args.after, args.objective, samples=args.samples,
                                 seed=args.seed)
    if args.json:
        return json.dumps(data)
    text = advice_text(advice, record.names)
    if args.objective == "game":
        from .evaluate import explain

        text += "\n" + "\n".join(explain(record.view(args.seat, args.after), advice))
    return text


def advice_text(advice: Any, names: Sequence[str] | None = None, limit: int | None = None) -> str:
    """The advisor's table for people."""
    from .render import seat_name

    head = f"Advice for {seat_name(advice.seat, names)}, objective {advice.objective}"
    if advice.turn:
        head += f" (face up: {' '.join(advice.turn)})"
    if advice.approximate:
        head += "  [approximate: secret swaps]"
    game = bool(advice.evaluations) and advice.evaluations[0].p_game is not None
    extra = f" {'p_game':>7} {'±':>6}" if game else ""
    lines = [head, f"  {'reveal':<7} {'p_trio':>7} {'p_win':>7}{extra}  plan (value shown: chance -> next reveals, "
                   "trio chance)"]
    rows = advice.evaluations if limit is None else advice.evaluations[:limit]
    for e in rows:
        steps = []
        for st in sorted(e.plan, key=lambda st: -st.probability)[:4]:
            nxt = " ".join(str(r) for r in st.then) or "-"
            steps.append(f"{st.value}:{st.probability:.0%}->{nxt} ({st.p_trio:.0%})")
        more = " ..." if len(e.plan) > 4 else ""
        cols = f" {e.p_game or 0.0:7.4f} {e.p_game_stderr or 0.0:6.4f}" if game else ""
        lines.append(f"  {str(e.reveal):<7} {e.p_trio:7.4f} {e.p_win:7.4f}{cols}  {'; '.join(steps)}{more}")
    if limit is not None and len(advice.evaluations) > limit:
        lines.append(f"  ... {len(advice.evaluations) - limit} more")
    b = advice.best
    if game:
        lines.append(f"Best: {b.reveal} (p_game {b.p_game or 0.0:.4f} ± {b.p_game_stderr or 0.0:.4f}, "
                     f"p_trio {b.p_trio:.4f}, p_win {b.p_win:.4f})")
    else:
        lines.append(f"Best: {b.reveal} (p_trio {b.p_trio:.4f}, p_win {b.p_win:.4f})")
    return "\n".join(lines)


def cmd_evaluate(args: argparse.Namespace) -> str:
    from .protocol import evaluate_result
    from .render import seat_name

    record = _load(args.file)
    result, data = evaluate_result(record, args.seat, args.after, samples=args.samples, seed=args.seed)
    after = data["after"]
    if args.json:
        return json.dumps(data)
    who = "a spectator" if result.seat is None else seat_name(result.seat, record.names)
    lines = [f"Chance to win the game, seen by {who} after {after} events "
             f"({result.samples} playouts{', approximate beliefs' if result.approximate else ''}):"]
    for s, (p, e) in enumerate(zip(result.win_chance, result.stderr)):
        mark = "  <- to move" if s == result.to_move else ""
        lines.append(f"  {seat_name(s, record.names):<12} {p:7.4f} ± {e:.4f}{mark}")
    return "\n".join(lines)


def cmd_analyse(args: argparse.Namespace) -> str:
    from .protocol import analysis_of

    record = _load(args.file)
    show = sys.stderr.isatty() and not args.json

    def progress(done: int, total: int) -> None:
        if show:
            sys.stderr.write(f"\ranalysing decision {done}/{total}")
            sys.stderr.flush()

    result = analysis_of(record, progress)
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
    import tempfile

    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise UsageError(f"{path}: the directory does not exist")
    fd, tmp = tempfile.mkstemp(prefix=".trio-", dir=directory)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def cmd_simulate(args: argparse.Namespace) -> str:
    from .errors import RulesError
    from .rules import Rules
    from .simulate import run_tournament, save_records

    rules = Rules(args.players, args.mode, args.teams)
    bots = [b.strip() for b in args.bots.split(",")] if args.bots else ["solver"] + ["memory"] * (args.players - 1)
    if len(bots) != rules.players:
        raise RulesError(f"--bots: {len(bots)} bot names for {rules.players} players (one per seat)")
    t = run_tournament(rules, bots, args.games, args.seed, workers=args.workers, keep_records=bool(args.save),
                       progress=not args.json, budget=args.budget)
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


def cmd_engine(args: argparse.Namespace) -> str:
    from .protocol import run_engine

    run_engine(sys.stdin.buffer, sys.stdout.buffer)
    return ""


def cmd_serve(args: argparse.Namespace) -> str:
    try:
        from .service import serve
    except ImportError as e:
        raise UsageError(f"the HTTP service needs the serve extra: pip install 'trio-solver[serve]' ({e.name} missing)") from None
    serve(host=args.host, port=args.port, workers=args.workers, timeout=args.timeout, cors=args.cors,
          queue=args.queue, log_level=args.log_level)
    return ""


# -- the parser ---------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description="Play and analyse the card game Trio: rules engine, exact beliefs, advice.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def add(name: str, fn: Callable[[argparse.Namespace], str], help_: str) -> argparse.ArgumentParser:
        sp = sub.add_parser(name, help=help_, description=help_)
        sp.set_defaults(func=fn)
        return sp

    sp = add("validate", cmd_validate, "check a record against the rules and that some deal fits it")
    sp.add_argument("file", metavar="FILE", help="a trio-record/1 file, or - for standard input")
    sp.add_argument("--json", action="store_true", help="print the summary as JSON")

    sp = add("replay", cmd_replay, "show the table after each event")
    sp.add_argument("file", metavar="FILE")
    sp.add_argument("--seat", type=_seat_arg, default="default",
                    help="whose view: a seat, 'none' (spectator) or 'all' (every hand; full-deal records)")
    sp.add_argument("--after", type=_nonneg, default=None, help="stop after the first N events")
    sp.add_argument("--json", action="store_true", help="print the frames as JSON")

    sp = add("beliefs", cmd_beliefs, "exact probabilities of the hidden cards for one view")
    sp.add_argument("file", metavar="FILE")
    sp.add_argument("--seat", type=_seat_arg, default="default", help="a seat or 'none' (spectator)")
    sp.add_argument("--after", type=_nonneg, default=None, help="the position after the first N events")
    sp.add_argument("--json", action="store_true", help="print JSON (INTERFACE.md)")
    sp.add_argument("--list", type=_nonneg, default=0, metavar="N",
                    help="also list every possible placement (python-constraint), if at most N fit")
    sp.add_argument("--swap-budget", type=_nonneg, default=STATE_BUDGET, metavar="STATES",
                    help=f"team play: lattice states allowed for tracking secret swaps exactly (default "
                         f"{STATE_BUDGET}; larger is exact more often and slower)")
    sp = add("advise", cmd_advise, "rank every legal next reveal of the seat to move by its exact chances")
    sp.add_argument("file", metavar="FILE")
    sp.add_argument("--seat", type=_seat_arg, default="default", help="the seat to move (default: the viewer)")
    sp.add_argument("--after", type=_nonneg, default=None, help="the position after the first N events")
    sp.add_argument("--objective", choices=("trio", "win", "game"), default="trio",
                    help="what to maximise (default trio; game: the chance to win the game, by playouts)")
    sp.add_argument("--samples", type=_positive, default=_DEFAULT_ADVISE, metavar="K",
                    help="--objective game: posterior deals per reveal (default %d)" % _DEFAULT_ADVISE)
    sp.add_argument("--seed", type=int, default=0, help="--objective game: seed of the posterior samples")
    sp.add_argument("--json", action="store_true", help="print JSON (INTERFACE.md)")

    sp = add("evaluate", cmd_evaluate, "each seat's chance to win the game, by playouts over exact posterior deals")
    sp.add_argument("file", metavar="FILE")
    sp.add_argument("--seat", type=_seat_arg, default="default", help="a seat or 'none' (spectator)")
    sp.add_argument("--after", type=_nonneg, default=None, help="the position after the first N events")
    sp.add_argument("--samples", type=_positive, default=_DEFAULT_EVALUATE, metavar="K",
                    help="playouts (default %d)" % _DEFAULT_EVALUATE)
    sp.add_argument("--seed", type=int, default=0, help="seed of the posterior samples (same seed, same figures)")
    sp.add_argument("--json", action="store_true", help="print JSON (INTERFACE.md)")

    sp = add("analyse", cmd_analyse, "judge every decision of the seats whose hand the record knows")
    sp.add_argument("file", metavar="FILE")
    sp.add_argument("--json", action="store_true", help="print JSON")
    sp.add_argument("--html", metavar="OUT", help="also write a self-contained HTML report with a chart")
    sub.choices["analyze"] = sp  # type: ignore[assignment]  # the American spelling works too

    sp = add("simulate", cmd_simulate, "play many games between bots and rank them")
    sp.add_argument("--players", type=int, required=True, choices=(3, 4, 5, 6))
    sp.add_argument("--mode", choices=("simple", "picante"), default="simple")
    sp.add_argument("--teams", action="store_true", help="team play (4 or 6 players)")
    sp.add_argument("--bots", help="one bot name per seat, comma-separated (random, memory, solver, expert)")
    sp.add_argument("--budget", type=_positive, default=None, metavar="K",
                    help="the expert bot's playouts per decision (default %d)" % _DEFAULT_BUDGET)
    sp.add_argument("--games", type=int, default=100)
    sp.add_argument("--seed", type=int, default=0)
    sp.add_argument("--workers", type=int, default=1, help="processes (same results as one)")
    sp.add_argument("--save", metavar="DIR", help="write every game as a record in DIR")
    sp.add_argument("--json", action="store_true", help="print JSON (INTERFACE.md)")

    sp = add("play", cmd_play, "play a game at the terminal against bots")
    sp.add_argument("--players", type=int, default=4, choices=(3, 4, 5, 6))
    sp.add_argument("--mode", choices=("simple", "picante"), default="simple")
    sp.add_argument("--teams", action="store_true")
    sp.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    sp.add_argument("--bots", help="bot names for the other seats, comma-separated (default memory)")
    sp.add_argument("--seed", type=int, default=None)
    sp.add_argument("--save", metavar="FILE", help="save the finished game as a record")

    add("engine", cmd_engine, "answer JSON requests, one per line, on standard input (INTERFACE.md)")

    sp = add("serve", cmd_serve, "the HTTP service and the web board (INTERFACE.md)")
    sp.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    sp.add_argument("--port", type=int, default=8765, help="port (default 8765)")
    sp.add_argument("--workers", type=_positive, default=2, help="worker processes for the computations (default 2)")
    sp.add_argument("--timeout", type=float, default=30.0, metavar="SECONDS",
                    help="time limit of one request (default 30)")
    sp.add_argument("--queue", type=_positive, default=64,
                    help="requests waiting or running at most; more are answered 503 busy (default 64)")
    sp.add_argument("--cors", action="append", default=[], metavar="ORIGIN",
                    help="allow browser pages from ORIGIN (repeatable; '*' for any)")
    sp.add_argument("--log-level", default="warning", choices=("critical", "error", "warning", "info", "debug"))
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if not getattr(args, "command", None):
            raise UsageError(f"a command is needed: {', '.join(COMMANDS)} (see '{PROG} --help')")
        output = args.func(args)
    except UsageError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    except TrioError as e:
        print(f"{PROG}: {_where_file(locals().get('args'))}{e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except RecursionError:
        print(f"{PROG}: input nested too deeply", file=sys.stderr)
        return 1
    except MemoryError:
        print(f"{PROG}: out of memory", file=sys.stderr)
        return 1
    try:
        if output:
            sys.stdout.write(output if output.endswith("\n") else output + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
    return 0


def _silence_stdout() -> None:
    """The reader went away (``| head``): stop writing without an error at exit."""
    try:
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115
    except OSError:
        pass


def _where_file(args: argparse.Namespace | None) -> str:
    f = getattr(args, "file", None)
    return f"{f}: " if f and f != "-" else ""


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    sys.exit(main())
