"""A game of Trio at the terminal against bots.

The person at the terminal is a :class:`HumanBot`, a bot like the others whose
``choose_reveal`` and ``choose_swap`` read the terminal, so the game is played by
:func:`trio_solver.run.simulate.play_game`'s loop. The table is drawn at the start
of each turn with every card the person has seen shown in its hand; reveals
are typed in the short notation (``c3``, ``l2``, ``h0``); ``hint`` gives the
advisor's answer, ``table`` draws the table again, ``help`` lists the
commands, ``quit`` (or end of input, or Ctrl-C) stops. Bot reveals are paced
(``delay`` seconds each) so a person can follow them. The finished (or
abandoned) game is saved as a full-deal record, and the command that analyses
it is printed.
"""

from __future__ import annotations

import os
import random
import shlex
import shutil
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from typing import TextIO

from .. import limits
from .._args import show
from .._text import escape
from ..report.advice_text import advice_text
from ..decide.bots import Bot, SolverBot, make_bot
from ..game.state import Game
from ..errors import LimitError, NotationError
from ..game.record import Record, read_names
from ..report.render import describe_event, frame, render_frame, won_by
from ..game.reveal import Reveal
from ..game.rules import Rules
from ..decide.search import advise
from ..report.seen import certain_holdings, seen_frame
from ..run.simulate import play_game
from ..game.view import PlayerView
from . import queries

__all__ = ["play_terminal", "HumanBot", "QuitGame", "bot_display_names", "end_line", "PLAYER", "MAX_LINE"]

HELP = """Commands:
  c<slot>   reveal a centre slot, e.g. c3
  l<seat>   reveal the lowest card of a seat, e.g. l2 (your own seat too)
  h<seat>   reveal the highest card of a seat, e.g. h0
  hint      the advisor's answer for this moment
  table     draw the table again
  help      this text
  quit      stop (with --save, the game so far is saved); end of input too, and Ctrl-C (exit status 130)"""

SWAP_HELP = """Swap moment: you and your partner each give the other one card, secretly.
  <value>   give a card of that value, e.g. 7
  pass      do not swap this time (the swap happens only if both partners give a card)
  hint      the card the advisor would give
  table     draw the table again
  help      this text
  quit      stop (with --save, the game so far is saved)"""


#: The person's name in a saved record when no names were given (at the terminal it is "you").
PLAYER = "Player"


class QuitGame(Exception):
    """The person asked to stop (``quit``, end of input or Ctrl-C: ``interrupted``)."""

    def __init__(self, interrupted: bool = False) -> None:
        super().__init__("interrupted" if interrupted else "quit")
        self.interrupted = interrupted


def bot_display_names(kinds: Sequence[str]) -> list[str]:
    """Distinct names for bots: ``memory``, or ``memory 1`` / ``memory 2`` when a kind appears twice."""
    out = []
    seen: dict[str, int] = {}
    for k in kinds:
        seen[k] = seen.get(k, 0) + 1
        out.append(f"{k} {seen[k]}" if kinds.count(k) > 1 else k)
    return out


#: The longest line read from the person (a move, a command): a longer one is dropped, read in pieces, and asked
#: again, so that a stream without line ends holds no more than this in memory.
MAX_LINE = 4096


class HumanBot:
    """The person at the terminal, as a :class:`~trio_solver.decide.bots.Bot`: reads ``stdin``, writes ``out``."""

    name = "human"

    def __init__(self, stdin: TextIO, out: Callable[[str], None], names: Sequence[str]) -> None:
        self.stdin = stdin
        self.out = out
        self.names = list(names)

    def _read(self, prompt: str) -> str:
        while True:
            if discard_typeahead(self.stdin):
                self.out("  (what you typed before this prompt was dropped: read the table first)")
            try:
                line = self._line(prompt)
            except KeyboardInterrupt:
                raise QuitGame(interrupted=True) from None
            if not line:
                raise QuitGame
            if len(line) > MAX_LINE:
                self.out(f"  that line was longer than {MAX_LINE} characters: type it again")
                continue
            if not any("\ud800" <= c <= "\udfff" for c in line):
                return line.strip()  # as typed: a message quotes it so; commands are compared in lower case
            self.out("  that was not UTF-8 text: type it again")  # bytes the terminal's encoding cannot read

    def _line(self, prompt: str) -> str:
        """One line typed after ``prompt`` (empty at the end of input). At a terminal, through
        :func:`input`, whose line editing and history the ``readline`` module gives."""
        if self.stdin is sys.stdin and self.stdin.isatty() and sys.stdout.isatty():
            # imported here, for a person at a terminal only: importing it changes every later input()
            # of the process (line editing, history) and reads the person's ~/.inputrc
            try:
                import readline  # noqa: F401
            except ImportError:  # a platform without GNU readline or libedit: plain input()
                pass
            try:
                return input(fit(escape(prompt), _columns(sys.stdout))) + "\n"
            except EOFError:
                return ""
        self.out(prompt)
        line = self.stdin.readline(MAX_LINE + 1)
        if len(line) > MAX_LINE and not line.endswith("\n"):  # the rest of a long line, read and dropped piece by piece
            while True:
                rest = self.stdin.readline(MAX_LINE)
                if not rest or rest.endswith("\n"):
                    break
        return line

    def table(self, view: PlayerView, *, swaps_decided: bool = True) -> str:
        """The table as this seat knows it. Once the swaps of the moment are decided (every team is asked
        before the turn's first reveal), the moment is not offered again."""
        fr = seen_frame(view)
        return render_frame({**fr, "swap_open": []} if swaps_decided else fr, self.names, view.seat,
                            certain_holdings(view, fr))

    def choose_reveal(self, view: PlayerView) -> Reveal:
        legal = set(view.legal_reveals())
        while True:
            face = " ".join(str(r) for r in view.turn)
            typed = self._read(f"Your move{' (face up: ' + face + ')' if face else ''} > ")
            text = typed.lower()
            if not text:
                continue
            if text in ("quit", "exit", "q"):
                raise QuitGame
            if text in ("help", "?"):
                self.out(HELP)
                continue
            if text == "table":
                self.out(self.table(view))
                continue
            if text == "hint":
                assert view.seat is not None
                wins = view.rules.winning_values(view.team_trios(view.seat))
                self.out(advice_text(advise(view), self.names, limit=8, wins=wins))
                continue
            try:
                reveal = Reveal.from_str(typed)
            except NotationError as e:
                self.out(f"  {e}")
                continue
            if reveal not in legal:
                self.out(f"  not allowed: {_why_illegal(view, reveal)}")
                continue
            return reveal

    def choose_swap(self, view: PlayerView) -> int | None:
        hand = view.hand or ()
        assert view.seat is not None
        partner = view.rules.partner(view.seat)
        who = self.names[partner] if partner is not None else "your partner"
        self.out(self.table(view, swaps_decided=False))
        while True:
            typed = self._read(f"Swap moment: your hand is {list(hand)}. Card to give {who} (a value), "
                               f"'pass', 'hint' or 'help' > ")
            text = typed.lower()
            if not text:
                continue  # a line typed by mistake gives nothing away: only 'pass' passes
            if text in ("pass", "no", "none"):
                return None
            if text in ("quit", "exit", "q"):
                raise QuitGame
            if text in ("help", "?"):
                self.out(SWAP_HELP)
                continue
            if text == "table":
                self.out(self.table(view, swaps_decided=False))
                continue
            if text == "hint":
                pick = SolverBot(random.Random(0)).choose_swap(view)
                self.out(f"  hint: give {pick} (the single card {who} most likely pairs with)" if pick is not None
                         else "  hint: pass (you hold no single card to give)")
                continue
            if text.isascii() and text.isdigit() and len(text) <= 2 and int(text) in hand:
                return int(text)
            try:
                Reveal.from_str(text)
            except NotationError:
                self.out(f"  you hold no {show(typed)}; give one of {sorted(set(hand))}, or 'pass'")
            else:
                self.out(f"  the swap comes first: give one of {sorted(set(hand))}, or 'pass'; then the turn goes on")


def discard_typeahead(stream: TextIO) -> bool:
    """Drop what was typed on the terminal ``stream`` before now (a move typed while the bots played
    must not be taken before the person saw the new table). Returns whether anything was dropped;
    does nothing (``False``) when ``stream`` is not a terminal (a pipe, a file, a test's script)."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    if not os.isatty(fd):
        return False
    import select  # imported here, with termios, for a terminal only: termios exists on POSIX alone
    import termios

    pending = bool(select.select([fd], [], [], 0)[0])
    termios.tcflush(fd, termios.TCIFLUSH)
    return pending


def _why_illegal(view: PlayerView, reveal: Reveal) -> str:
    """The rules' reason a reveal is not allowed now (from the public table only)."""
    i = reveal.index
    if reveal.is_centre:
        slots = len(view.centre_present)
        if not 0 <= i < slots:
            return f"{reveal}: there is no centre slot {i}" + (
                " (team play has no centre)" if view.rules.teams else f" (slots 0 to {slots - 1})")
        if not view.centre_present[i]:
            return f"{reveal}: centre slot {i} is empty (its card left in a trio)"
        return f"{reveal}: centre slot {i} is already face up in this turn"
    if not 0 <= i < view.rules.players:
        return f"{reveal}: there is no seat {i} (seats 0 to {view.rules.players - 1})"
    if view.sizes[i] == 0:
        return f"{reveal}: seat {i} has no card in hand"
    return f"{reveal}: every card of seat {i} is already face up in this turn"


class _Timed:
    """A bot each of whose decisions runs under a time limit of its own; stopped by it, the error names
    the bot (``bot expert 1: stopped at the time limit of 2 s``)."""

    def __init__(self, bot: Bot, seconds: float, who: str) -> None:
        self.bot = bot
        self.name = bot.name
        self.seconds = seconds
        self.who = f"bot {who}"

    def choose_reveal(self, view: PlayerView) -> Reveal:
        with limits.time_limit(self.seconds), limits.named(self.who):
            return self.bot.choose_reveal(view)

    def choose_swap(self, view: PlayerView) -> int | None:
        with limits.time_limit(self.seconds), limits.named(self.who):
            return self.bot.choose_swap(view)


def fit(text: str, width: int | None) -> str:
    """``text`` with every line longer than ``width`` columns broken at its spaces, the rest of the line
    indented four columns past its own indent (``None``: as it is), so that a narrow terminal does not cut
    a word in two."""
    if width is None:
        return text
    lines: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            lines.append(line)
            continue
        indent = min(len(line) - len(line.lstrip(" ")) + 4, width // 2)
        wrapped = textwrap.wrap(line, width, subsequent_indent=" " * indent, break_on_hyphens=False)
        lines.extend(wrapped[:-1] + [wrapped[-1] + line[len(line.rstrip(" ")):]])  # a prompt keeps its last space
    return "\n".join(lines)


def _columns(stream: TextIO) -> int | None:
    """The width of the terminal ``stream`` writes to (``None`` for a file or a pipe: lines as they are)."""
    try:
        return shutil.get_terminal_size().columns if stream.isatty() else None
    except (OSError, ValueError):
        return None


def end_line(rules: Rules, winner: int, human: int, names: Sequence[str]) -> str:
    """Who won, to the person at seat ``human``: ``You win - well played!``, ``You & Ann win - well
    played!`` (a team), ``Bob wins.`` or ``Bob & Cy win.``."""
    team = [s for t in rules.teams_of_seats if winner in t for s in t] if rules.teams else [winner]
    if human in team:
        return " & ".join(["You"] + [names[s] for s in team if s != human]) + " win - well played!"
    return " & ".join(names[s] for s in team) + (" wins." if len(team) == 1 else " win.")


def play_terminal(rules: Rules, human: int, bot_names: Sequence[str], seed: int, *,
                  stdin: TextIO, stdout: TextIO, save: str | None = None,
                  names: Sequence[str] | None = None, delay: float = 0.0,
                  time_limit: float | None = None) -> Game:
    """Play one game: seat ``human`` reads ``stdin``; the other seats are bots of the kinds ``bot_names``.

    Returns the game as it stands at the end or when the person stopped; with
    ``save`` it is written there as a record (also when stopped; without ``names`` the person is
    :data:`PLAYER` there, "you" at the terminal). A Ctrl-C stops the game as ``quit`` does, then
    :class:`KeyboardInterrupt` is raised again, once the game is saved. ``delay`` is
    the pause after each bot reveal, in seconds. ``names`` (one per seat, checked as a record's
    names are: :class:`~trio_solver.errors.RecordError` for a bad one) replaces the default names.
    ``time_limit`` (seconds) bounds each bot decision, not the person's: a bot that runs past it
    stops the game as the person's ``quit`` does (the game so far shown and saved), then its
    :class:`~trio_solver.errors.LimitError` is raised. With a limit, or with a terminal as ``stdin``,
    the compiled playout kernel is loaded (on a machine's first run, built) before the deal
    (:func:`~trio_solver.doors.queries.warm_up`), so that no bot's decision or hint waits for it.
    Every line written is escaped as :func:`trio_solver._text.escape` does.
    """
    queries.warm_up_for(time_limit)
    if time_limit is None and stdin.isatty():  # a person at a terminal: no build of the kernel mid-game
        queries.warm_up()

    def out(text: str) -> None:
        stdout.write(fit(escape(text, keep="\n"), _columns(stdout)) + "\n")
        stdout.flush()

    display = bot_display_names(list(bot_names))
    if names:
        seat_names = list(read_names(names, rules.players))
    else:
        others = iter(display)
        seat_names = ["you" if s == human else next(others) for s in range(rules.players)]
    record_names = [PLAYER if s == human and not names else n for s, n in enumerate(seat_names)]
    person = HumanBot(stdin, out, seat_names)
    kinds = iter(bot_names)
    bots: list[Bot] = [person if s == human else make_bot(next(kinds), random.Random(seed * 31 + s))
                       for s in range(rules.players)]
    if time_limit is not None:
        bots = [b if s == human else _Timed(b, time_limit, seat_names[s]) for s, b in enumerate(bots)]
    stopped: LimitError | None = None
    interrupted = False
    holder: list[Game] = []

    def on_start(game: Game) -> None:
        holder.append(game)
        teams = ""
        if rules.teams:
            teams = "; teams: " + ", ".join(" & ".join(seat_names[s] for s in t) for t in rules.teams_of_seats)
        out(f"Trio: {rules.players} players, {rules.mode.value}{teams}. Seed {seed}. "
            f"You are seat {human} ({seat_names[human]}).")
        out("Type 'help' for the commands.")

    def on_swap(game: Game, a: int, b: int, va: int | None, vb: int | None) -> None:
        if human in (a, b):
            if va is not None and vb is not None:
                mine, theirs = (va, vb) if human == a else (vb, va)
                partner = b if human == a else a
                out(f"Your team swaps: you give {mine}, {seat_names[partner]} gives {theirs}.")
            else:
                out("Your team does not swap (both partners must give a card).")
        elif va is not None and vb is not None:
            out(f"{seat_names[a]} and {seat_names[b]} swap a card secretly.")
        else:  # every player sees that no card passes between them
            out(f"{seat_names[a]} and {seat_names[b]} do not swap.")

    def on_decision(game: Game) -> None:
        if not game.turn:
            out("")
            out("Your turn:" if game.to_move == human else f"Turn of {seat_names[game.to_move]}:")
            out(person.table(game.view(human)))

    def on_reveal(game: Game) -> None:
        if game.turn:
            seat, last = game.to_move, game.turn[-1]
            done = None
        else:
            ev = game.events[-1]
            seat, last, done = ev.seat, ev.reveals[-1], ev  # type: ignore[union-attr]
        who = "You reveal" if seat == human else f"{seat_names[seat]} reveals"
        out(f"  {who} {last.reveal} = {last.value}")
        if done is not None:
            out("  " + describe_event(done, seat_names))
        if seat != human and delay > 0:
            time.sleep(delay)

    try:
        play_game(rules, bots, rng=random.Random(seed), on_start=on_start, on_swap=on_swap,
                         on_decision=on_decision, on_reveal=on_reveal)
    except (QuitGame, KeyboardInterrupt, LimitError) as e:
        if not holder:  # stopped before the deal: nothing to save
            raise
        out("")
        out("Stopped.")
        if isinstance(e, LimitError):
            stopped = e
        interrupted = isinstance(e, KeyboardInterrupt) or (isinstance(e, QuitGame) and e.interrupted)
    game = holder[0]
    out("")
    if game.winner is not None:
        out("Game over: every hand shown.")
    # the game's end (or where it stopped): every hand shown; a swap moment is offered only mid-prompt
    out(render_frame({**frame(game, "all"), "swap_open": []}, seat_names))
    if game.winner is not None:
        out(end_line(rules, game.winner, human, seat_names))
        out(f"Won with {won_by(rules, game.table.finished_events(), game.winner)}.")
    if save:
        # the record is read later, by anyone: the person is named in the third person there
        Record.from_game(game, names=record_names).save(save)
        out(f"Game saved to {save}")
        # quoted for the shell, so that the line can be copied as it is (a name with a space, a quote, a $)
        out(f"Analyse it: trio-solver analyse {shlex.quote(save)} (add --html report.html for a page to share)")
    else:
        out("(Use --save FILE to keep the game and analyse it with 'trio-solver analyse FILE'.)")
    if stopped is not None:
        raise stopped
    if interrupted:
        raise KeyboardInterrupt  # the game is saved; a Ctrl-C still ends the command as an interruption
    return game
