"""A game of Trio at the terminal against bots.

The table is drawn after every reveal; a human types reveals in the short
notation (``c3``, ``l2``, ``h0``), ``hint`` for the advisor's table, ``table``
to draw the table again, ``help``, or ``quit``. Illegal or mistyped input gets a
clear answer and the prompt again. The finished (or abandoned) game is saved as a
full-deal record.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TextIO

from .bots import Bot, make_bot
from .engine import Game
from .errors import IllegalMoveError, NotationError
from .record import Record
from .render import advice_text, describe_event, frame, render_frame
from .reveal import Reveal
from .rules import Rules
from .search import advise
from .events import Turn

__all__ = ["play_terminal"]

HELP = """Commands:
  c<slot>   reveal a centre slot, e.g. c3
  l<seat>   reveal the lowest card of a seat, e.g. l2 (your own seat too)
  h<seat>   reveal the highest card of a seat, e.g. h0
  hint      the advisor's table for this moment
  table     draw the table again
  help      this text
  quit      stop (the game so far is saved)"""


def play_terminal(rules: Rules, human: int, bot_names: Sequence[str], seed: int, *,
                  stdin: TextIO, stdout: TextIO, save: str | None = None,
                  names: Sequence[str] | None = None) -> Game:
    """Play one game: seat ``human`` reads ``stdin``; the other seats are bots named by ``bot_names``."""
    rng = random.Random(seed)
    bots: list[Bot | None] = []
    others = iter(bot_names)
    for s in range(rules.players):
        if s == human:
            bots.append(None)
        else:
            bots.append(make_bot(next(others), random.Random(seed * 31 + s)))
    game = Game.deal(rules, rng=rng)
    seat_names = list(names) if names else [("you" if s == human else f"{bots[s].name}") for s in range(rules.players)]  # type: ignore[union-attr]

    def out(text: str) -> None:
        stdout.write(text + "\n")
        stdout.flush()

    out(f"Trio: {rules.players} players, {rules.mode.value}{', teams' if rules.teams else ''}. You are seat {human}.")
    out("Type 'help' for the commands.")
    quit_ = False
    while not game.over and not quit_:
        for a, b in game.swap_moment():
            choices = []
            for s in (a, b):
                bot = bots[s]
                if bot is None:
                    choices.append(_ask_swap(game, s, stdin, out))
                else:
                    choices.append(bot.choose_swap(game.view(s)))
            if choices[0] is not None and choices[1] is not None:
                game.swap(a, b, choices[0], choices[1])
                if human in (a, b):
                    out(f"Your team swaps: seat {a} gives {choices[0]}, seat {b} gives {choices[1]}.")
                else:
                    out(f"Seats {a} and {b} swap a card secretly.")
        seat = game.to_move
        if not game.turn:
            out("")
            out(render_frame(frame(game, human), seat_names))
        bot = bots[seat]
        if bot is None:
            reveal = _ask_reveal(game, human, stdin, out, seat_names)
            if reveal is None:
                quit_ = True
                break
        else:
            reveal = bot.choose_reveal(game.view(seat))
        before = len(game.table.events)
        value = game.peek(reveal)
        game.reveal(reveal)
        out(f"  {seat_names[seat]} reveals {reveal} = {value}")
        if len(game.table.events) > before:
            last = game.table.events[-1]
            if isinstance(last, Turn):
                out("  " + describe_event(last, seat_names))
    out("")
    out(render_frame(frame(game, "all"), seat_names))
    if game.winner is not None:
        out(f"{seat_names[game.winner]} wins" + (" - well played!" if game.winner == human else "."))
    if save:
        Record.from_game(game, names=seat_names).save(save)
        out(f"Game saved to {save}")
    return game


def _ask_reveal(game: Game, human: int, stdin: TextIO, out: Callable[[str], None],
                names: Sequence[str]) -> Reveal | None:
    while True:
        face = " ".join(str(r) for r in game.turn)
        out(f"Your move{' (face up: ' + face + ')' if face else ''} > ")
        line = stdin.readline()
        if not line:
            return None
        text = line.strip().lower()
        if not text:
            continue
        if text in ("quit", "exit", "q"):
            return None
        if text in ("help", "?"):
            out(HELP)
            continue
        if text == "table":
            out(render_frame(frame(game, human), names))
            continue
        if text == "hint":

            out(advice_text(advise(game.view(human)), names, limit=8))
            continue
        try:
            reveal = Reveal.from_str(text)
        except NotationError as e:
            out(f"  {e}")
            continue
        try:
            game.table.check_reveal(reveal)
        except IllegalMoveError as e:
            out(f"  not allowed: {e}")
            continue
        return reveal


def _ask_swap(game: Game, seat: int, stdin: TextIO, out: Callable[[str], None]) -> int | None:
    hand = game.hands[seat]
    while True:
        out(f"Swap moment: your hand is {hand}. Card to give your partner (a value), or 'pass' > ")
        line = stdin.readline()
        if not line:
            return None
        text = line.strip().lower()
        if text in ("pass", "", "no", "none"):
            return None
        if text.isdigit() and int(text) in hand:
            return int(text)
        out(f"  you hold no {text!r}; give one of {sorted(set(hand))} or 'pass'")
