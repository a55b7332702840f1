"""Terminal play driven through text streams: clear answers to bad input, a saved record that loads."""

from __future__ import annotations

import io
import random
import shlex
from pathlib import Path

import pytest

from trio_solver.decide.bots import BOT_NAMES
from trio_solver.game.state import Game
from trio_solver.doors.play import HELP, MAX_LINE, SWAP_HELP, end_line, play_terminal
from trio_solver.game.record import Record
from trio_solver.game.reveal import Reveal
from trio_solver.game.rules import Mode, Rules
from trio_solver.game.events import Swap, Turn
from trio_solver.report.render import won_by
from helpers_cli import run_main


class ScriptedInput(io.StringIO):
    """Lines for the human; counts how many were read."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("".join(line + "\n" for line in lines))
        self.reads = 0

    def readline(self, *args: object) -> str:  # type: ignore[override]
        line = super().readline()
        if line:
            self.reads += 1
        return line


class CyclingInput(io.TextIOBase):
    """An endless player: offers the reveals of ``candidates`` in turn (illegal ones are refused
    by the game, which then reads the next line), and stops after ``limit`` lines (end of input)."""

    def __init__(self, candidates: list[str], limit: int) -> None:
        self.candidates = candidates
        self.limit = limit
        self.i = 0

    def readline(self, *args: object) -> str:  # type: ignore[override]
        if self.i >= self.limit:
            return ""
        line = self.candidates[self.i % len(self.candidates)] + "\n"
        self.i += 1
        return line


def _first_turn_of(rules: Rules, seed: int) -> int:
    """The seat that moves first in ``play_terminal``'s game (dealt from ``Random(seed)``)."""
    return Game.deal(rules, rng=random.Random(seed)).to_move


def test_bad_input_gets_clear_answers_and_quit_saves(tmp_path: Path) -> None:
    rules = Rules(3)
    seed = next(s for s in range(100) if _first_turn_of(rules, s) == 0)  # the human (seat 0) starts
    save = tmp_path / "game.json"
    stdin = ScriptedInput(["help", "", "xyz", "c99", "l7", "hint", "table", "c0", "c0", "quit", "l0"])
    stdout = io.StringIO()
    game = play_terminal(rules, 0, ["memory", "memory"], seed, stdin=stdin, stdout=stdout, save=str(save))
    text = stdout.getvalue()
    # every command was answered, and the game stopped at 'quit' (the last line was never read)
    assert stdin.reads == 10
    assert "You are seat 0" in text and "help" in text
    assert "Commands:" in text and "quit" in text  # the help text
    assert '"xyz" is not a reveal' in text and "c<slot>" in text
    assert "not allowed: c99: there is no centre slot 99" in text
    assert "not allowed: l7: there is no seat 7" in text
    assert "Advice for" in text and "Best:" in text  # the hint
    assert "already face up in this turn" in text  # c0 twice in one turn
    assert "You reveal c0 =" in text
    # the turn in progress is kept in the saved record
    assert game.turn and game.turn[0].reveal == Reveal.centre(0)
    assert f"Game saved to {save}" in text
    rec = Record.load(save)
    assert rec.events == tuple(game.table.finished_events())
    assert rec.deal == game.dealt
    assert isinstance(rec.events[-1], Turn) and rec.events[-1].reveals == tuple(game.turn)
    assert rec.winner is None
    # the line after 'quit' is still unread
    assert stdin.readline() == "l0\n"


class MeasuredInput(io.StringIO):
    """A stream that notes the longest piece any read took from it."""

    longest = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        line = super().readline(-1 if size is None else size)
        self.longest = max(self.longest, len(line))
        return line


def test_a_line_without_end_is_read_in_pieces_and_asked_again() -> None:
    """A line longer than MAX_LINE (a stream of one character with no line end, say) is dropped, read a
    piece at a time so that no more than a line's worth is held, and the person is asked again."""
    rules = Rules(3)
    seed = next(s for s in range(100) if _first_turn_of(rules, s) == 0)
    stdin = MeasuredInput("c" * (10 * MAX_LINE + 7) + "\nc0\nquit\n")
    stdout = io.StringIO()
    game = play_terminal(rules, 0, ["memory", "memory"], seed, stdin=stdin, stdout=stdout)
    assert f"that line was longer than {MAX_LINE} characters: type it again" in stdout.getvalue()
    assert game.turn and game.turn[0].reveal == Reveal.centre(0)  # the next line was read as typed
    assert stdin.longest <= MAX_LINE + 1


def test_end_of_input_quits_and_saves(tmp_path: Path) -> None:
    rules = Rules(4, Mode.PICANTE)
    save = tmp_path / "eof.json"
    stdout = io.StringIO()
    game = play_terminal(rules, 1, ["memory", "random", "memory"], 7, stdin=io.StringIO(""), stdout=stdout,
                         save=str(save))
    assert not game.over and game.to_move == 1
    rec = Record.load(save)
    assert rec.events == tuple(game.table.finished_events())
    # "you" at the terminal; in the record, read later by anyone, a name in the third person
    assert "You are seat 1 (you)." in stdout.getvalue() and "seat 1 (you)" in stdout.getvalue().split("Stopped.")[1]
    assert rec.names == ("memory 1", "Player", "random", "memory 2")


def test_a_whole_game_at_the_terminal(tmp_path: Path) -> None:
    rules = Rules(3, Mode.SIMPLE)
    cands = ["l0", "h0", "l1", "h1", "l2", "h2"] + [f"c{i}" for i in range(9)] + ["c99", "x"]
    refused = 0
    for seed in range(3):
        save = tmp_path / f"whole{seed}.json"
        stdin = CyclingInput(cands, limit=50_000)
        stdout = io.StringIO()
        game = play_terminal(rules, 0, ["memory", "random"], seed, stdin=stdin, stdout=stdout, save=str(save))
        text = stdout.getvalue()
        assert game.over, "the game is played to its end"
        refused += text.count("  not allowed: ") + text.count("is not a reveal")
        assert "wins" in text
        # the end: a heading, then who won and with what, as the record's trios say
        assert "Game over: every hand shown." in text
        rec = Record.load(save)
        assert f"Won with {won_by(rules, rec.events, game.winner)}." in text  # type: ignore[arg-type]
        assert rec.winner == game.winner
        assert rec.events == tuple(game.events)
        # the human's reveals in the record are exactly the legal ones it typed
        human = [r.reveal for e in rec.events if isinstance(e, Turn) and e.seat == 0 for r in e.reveals]
        assert human and all(str(r) in cands for r in human)
        assert text.count("  You reveal ") == len(human)
    assert refused > 0, "some of the typed reveals were illegal and refused"


def test_team_play_swap_prompt(tmp_path: Path) -> None:
    rules = Rules(4, Mode.SIMPLE, teams=True)
    save = tmp_path / "teams.json"
    stdout = io.StringIO()
    seed = 3
    hand = sorted(Game.deal(rules, rng=random.Random(seed)).hands[0])
    missing = next(v for v in range(1, 13) if v not in hand)
    stdin = ScriptedInput([str(missing), "banana", str(hand[0]), "quit"])
    game = play_terminal(rules, 0, ["memory", "memory", "memory"], seed, stdin=stdin, stdout=stdout,
                         save=str(save))
    text = stdout.getvalue()
    assert "Swap moment: your hand is" in text
    assert f'you hold no "{missing}"' in text and 'you hold no "banana"' in text
    rec = Record.load(save)
    assert rec.events == tuple(game.table.finished_events())
    swaps = [e for e in rec.events if not isinstance(e, Turn)]
    mine = [e for e in swaps if 0 in e.seats]
    if mine:  # the partner bot may decline to swap
        assert mine[0].cards is not None and mine[0].cards[0] == hand[0]
        assert f"Your team swaps: you give {hand[0]}, memory 2 gives" in text


class Terminal(io.StringIO):
    """Output that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_a_narrow_terminal_gets_lines_broken_between_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """At a terminal of 60 columns every line fits, broken at spaces (a word is never cut); into a file or a
    pipe the lines are written whole."""
    import os
    import shutil

    rules = Rules(4, Mode.PICANTE, teams=True)
    inputs = ["hint", "pass", "hint", "l0", "h0", "c0", "l1", "h3"]
    monkeypatch.setattr(shutil, "get_terminal_size", lambda *a: os.terminal_size((60, 24)))
    narrow = Terminal()
    play_terminal(rules, 0, ["memory"] * 3, 2, stdin=CyclingInput(inputs, limit=5000), stdout=narrow)
    whole = io.StringIO()
    play_terminal(rules, 0, ["memory"] * 3, 2, stdin=CyclingInput(inputs, limit=5000), stdout=whole)
    assert max(map(len, whole.getvalue().splitlines())) > 60  # long lines to break: the team lines, a hint
    assert max(map(len, narrow.getvalue().splitlines())) <= 60
    assert narrow.getvalue().split() == whole.getvalue().split()  # the same words, none cut in two
    assert len(narrow.getvalue().splitlines()) > len(whole.getvalue().splitlines())


def test_a_team_that_passes_its_swap_is_told() -> None:
    """No card passing between two partners is seen by everyone: the terminal says so, as it says a swap."""
    rules = Rules(4, Mode.SIMPLE, teams=True)
    stdout = io.StringIO()
    game = play_terminal(rules, 0, ["random", "random", "random"], 3, stdin=ScriptedInput(["pass", "quit"]),
                         stdout=stdout)
    text = stdout.getvalue()
    assert not any(0 not in e.seats for e in game.table.finished_events() if not isinstance(e, Turn))
    assert text.count("random 1 and random 3 do not swap.") == 1  # their one moment: the start
    assert "swap a card secretly" not in text


# ---------------------------------------------------------------------------
# what a player sees


class InterruptingInput(io.StringIO):
    """Lines, then Ctrl-C (KeyboardInterrupt) instead of end of input."""

    def readline(self, *args: object) -> str:  # type: ignore[override]
        line = super().readline()
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_saves_like_quit_and_the_end_says_how_to_analyse(tmp_path: Path) -> None:
    rules = Rules(3)
    seed = next(s for s in range(100) if _first_turn_of(rules, s) == 0)
    save = tmp_path / "ctrlc.json"
    stdout = io.StringIO()
    with pytest.raises(KeyboardInterrupt):  # once the game is saved: the command exits as interrupted (130)
        play_terminal(rules, 0, ["memory", "memory"], seed, stdin=InterruptingInput("l0\n"), stdout=stdout,
                      save=str(save))
    text = stdout.getvalue()
    assert "Stopped." in text and f"Game saved to {save}" in text
    assert f"Analyse it: trio-solver analyse {save}" in text
    rec = Record.load(save)
    assert len(rec.events) == 1 and rec.events[0].reveals[0].reveal == Reveal.lowest(0)  # type: ignore[union-attr]
    assert "You reveal l0" in text
    assert f"Seed {seed}." in text.splitlines()[0]


def test_bots_get_distinct_names_and_are_paced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import trio_solver.doors.play as play

    sleeps: list[float] = []
    monkeypatch.setattr(play.time, "sleep", lambda s: sleeps.append(s))
    rules = Rules(3)
    seed = next(s for s in range(100) if _first_turn_of(rules, s) == 1)  # a bot starts
    stdout = io.StringIO()
    game = play_terminal(rules, 0, ["memory", "memory"], seed, stdin=io.StringIO(""), stdout=stdout, delay=0.5)
    text = stdout.getvalue()
    assert "seat 1 (memory 1)" in text and "seat 2 (memory 2)" in text
    bot_reveals = text.count("memory 1 reveals ") + text.count("memory 2 reveals ")
    assert bot_reveals > 0 and sleeps == [0.5] * bot_reveals
    assert not game.over


def test_hands_show_the_cards_seen() -> None:
    # the table after a failed turn: the values shown at the ends of hands stay visible in the frame
    from trio_solver.report.seen import known_hands

    for seed in range(6):
        game = Game.deal(Rules(4), seed=seed)
        rng = random.Random(seed)
        for _ in range(60):
            if game.over:
                break
            game.reveal(rng.choice(game.legal_reveals()))
            view = game.view(0)
            rows = known_hands(view)
            for s, row in enumerate(rows):
                hand = sorted(game.hands[s])
                assert len(row) == len(hand) == view.sizes[s]
                for have, true in zip(row, hand):
                    assert have is None or have == true
            assert rows[0] == list(game.hands[0])
    # after a failed turn, the highest card shown by seat 1 is known
    game = Game.deal(Rules(3), seed=3)
    first = game.to_move
    other = (first + 1) % 3
    value = game.peek(Reveal.highest(other))
    game.reveal(Reveal.highest(other))
    while game.turn:
        game.reveal(next(r for r in game.legal_reveals() if game.peek(r) != value))
    row = known_hands(game.view((other + 1) % 3))[other]
    assert row[-1] == value


def test_hand_values_in_the_terminal_table(tmp_path: Path) -> None:
    rules = Rules(3)
    seed = next(s for s in range(100) if _first_turn_of(rules, s) == 0)
    game = Game.deal(rules, rng=random.Random(seed))
    top1 = game.peek(Reveal.highest(1))
    second = next(r for r in ("c0", "c1", "c2") if game.peek(Reveal.from_str(r)) != top1)
    stdout = io.StringIO()
    play_terminal(rules, 0, ["memory", "memory"], seed, stdin=ScriptedInput(["h1", second, "table", "quit"]),
                  stdout=stdout)
    text = stdout.getvalue()
    # after the failed turn, the table drawn for the person shows seat 1's highest card
    after = text.split(f"You reveal {second} =")[1]
    row = next(line for line in after.splitlines() if "seat 1 (memory 1)" in line)
    assert row.split("]")[0].endswith(f" {top1}")


def test_hint_is_in_words_and_swaps_have_help_and_a_hint(tmp_path: Path) -> None:
    rules = Rules(4, Mode.SIMPLE, teams=True)
    seed = 3
    hand = sorted(Game.deal(rules, rng=random.Random(seed)).hands[0])
    stdout = io.StringIO()
    play_terminal(rules, 0, ["memory", "memory", "memory"], seed,
                  stdin=ScriptedInput(["help", "hint", "c0", str(hand[0]), "hint", "quit"]), stdout=stdout)
    text = stdout.getvalue()
    assert "you hold no" not in text
    assert "the swap comes first: give one of" in text  # a reveal typed at the swap prompt
    assert "Swap moment: you and your partner each give the other one card" in text  # the swap help
    assert "hint: give " in text or "hint: pass" in text
    assert "teams: you & memory 2, memory 1 & memory 3" in text
    if "Your move" in text:  # the person's turn came: the reveal hint speaks in words
        assert "if it shows " in text and "->" not in text.split("Best:")[1].split("\n")[0]


def test_human_is_a_bot_and_play_does_not_import_the_cli() -> None:
    import subprocess
    import sys

    from trio_solver.decide.bots import Bot
    from trio_solver.doors.play import HumanBot

    assert isinstance(HumanBot(io.StringIO(""), print, ["a", "b", "c"]), Bot)
    code = "import sys, trio_solver.doors.play; sys.exit('trio_solver.doors.cli' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parent.parent).returncode == 0


def test_cli_play_prints_a_seed_that_replays(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from trio_solver.doors.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--players", "3", "--bots", "memory,random"]) == 0
    first = capsys.readouterr().out
    seed = int(first.split("Seed ")[1].split(".")[0])
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--players", "3", "--bots", "memory,random", "--seed", str(seed)]) == 0
    again = capsys.readouterr().out
    assert again == first


def test_ctrl_c_in_the_command_saves_then_exits_130(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C is an interruption to the shell (status 130, one line), once the game is saved."""
    rules = Rules(3)
    seed = next(s for s in range(100) if _first_turn_of(rules, s) == 0)
    save = tmp_path / "ctrlc.json"
    monkeypatch.setattr("sys.stdin", InterruptingInput("l0\n"))
    status, out, err = run_main(["play", "--players", "3", "--seed", str(seed), "--save", str(save), "--delay", "0"])
    assert (status, err) == (130, "trio-solver: interrupted\n")
    assert f"Game saved to {save}" in out and Record.load(save).names == ("Player", "memory 1", "memory 2")
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert run_main(["play", "--players", "3", "--seed", str(seed), "--delay", "0"])[0] == 0  # 'quit': a normal end


def test_a_blank_line_at_the_swap_gives_nothing_away(tmp_path: Path) -> None:
    """Only 'pass' passes: an Enter typed by mistake asks again; the table after the choices no longer
    offers the swap moment, and a game the person wins says so in the second person."""
    rules = Rules(4, teams=True)
    seed = next(s for s in range(100) if _first_turn_of(rules, s) == 0)  # the person moves first
    stdout = io.StringIO()
    game = play_terminal(rules, 0, ["memory", "memory", "memory"], seed,
                         stdin=io.StringIO("\n\npass\ntable\nquit\n"), stdout=stdout)
    text = stdout.getvalue()
    assert text.count("Swap moment: your hand is") == 3 and "Your team does not swap" in text
    before, after = text.split("Your team does not swap")
    assert "swap moment: seat 0 (you) & seat 2 (memory 2)" in before  # offered while it is open
    # then neither the turn's table, nor the one typed at the move prompt, nor the last one offers it again
    assert after.count("Your move") == 2 and after.count("seat 0 (you)") >= 3 and "swap moment:" not in after
    assert all(not isinstance(e, Swap) or 0 not in e.seats for e in game.events)  # the person's team passed


def test_the_card_given_to_the_partner_is_listed_as_held_for_certain() -> None:
    """Right after the person's team swaps, before any card is revealed, the table lists the card given as
    held by the partner at a place the person does not know (the exact belief model's least count;
    tests/test_beliefs_reference.py checks it against a brute force). Before the swap no such line is shown."""
    rules = Rules(4, teams=True)
    seed = 3
    hand = Game.deal(rules, rng=random.Random(seed)).hands[0]
    give = max(hand)
    stdout = io.StringIO()
    play_terminal(rules, 0, ["memory"] * 3, seed, stdin=io.StringIO(f"{give}\nquit\n"), stdout=stdout)
    before, swapped, after = stdout.getvalue().partition(f"Your team swaps: you give {give}, ")
    assert swapped and "held for certain" not in before  # nothing was known before the swap
    table = after.split(" reveals ", 1)[0]  # the table drawn before the first reveal after the swap
    line = next(x for x in table.splitlines() if x.startswith("  held for certain, place unknown: "))
    partner = next(part for part in line.split(": ", 1)[1].split("; ") if part.startswith("seat 2 (memory 2) "))
    assert str(give) in partner.removeprefix("seat 2 (memory 2) ").split()


def test_a_bots_list_of_the_wrong_length_is_counted_in_words() -> None:
    assert run_main(["play", "--players", "3", "--bots", "memory"]) == \
        (2, "", "trio-solver: --bots: 1 bot name for the 2 other seats\n")
    assert run_main(["play", "--players", "4", "--bots", "memory,memory"])[2] == \
        "trio-solver: --bots: 2 bot names for the 3 other seats\n"


@pytest.mark.parametrize("command", [["play", "--players", "3"], ["simulate", "--players", "3", "--games", "1"]])
def test_an_unknown_bot_name_is_a_usage_error(command: list[str]) -> None:
    """A name that is not a bot is a usage error (status 2) naming the option, shown escaped, before any game."""
    bots = "memory,x\x1b[31m" if command[0] == "play" else "memory,memory,x\x1b[31m"
    status, out, err = run_main([*command, "--bots", bots])
    known = ", ".join(BOT_NAMES)
    assert (status, out, err) == (2, "", f'trio-solver: --bots: unknown bot "x\\u001b[31m" (known: {known})\n')
    # an empty list (an unset variable in a script, say) is not taken for the default line-up
    assert run_main([*command, "--bots", ""]) == (2, "", f'trio-solver: --bots: unknown bot "" (known: {known})\n')


def test_a_hint_where_no_reveal_can_go_on_says_so() -> None:
    """Mid-turn, when no place can show the value face up, the plan says the turn fails, not "any other
    value (100%)" after an empty list (a position reached at the terminal: seed 5, c3 shows a 9 whose
    copies are all accounted for)."""
    stdout = io.StringIO()
    play_terminal(Rules(3), 0, ["memory", "memory"], 5, stdin=io.StringIO("h1\nh0\nh2\nc3\nhint\nquit\n"),
                  stdout=stdout)
    lines = stdout.getvalue().splitlines()
    best = next(i for i, line in enumerate(lines) if line.startswith("Best: "))
    assert "trio chance 0.0%" in lines[best]
    assert lines[best + 1] == "  it cannot show the value face up: the turn fails whatever it shows"


def test_the_end_is_told_to_the_person() -> None:
    names = ["you", "memory 1", "memory 2", "memory 3"]
    assert end_line(Rules(3), 0, 0, names) == "You win - well played!"
    assert end_line(Rules(3), 2, 0, names) == "memory 2 wins."
    assert end_line(Rules(4, teams=True), 2, 0, names) == "You & memory 2 win - well played!"
    assert end_line(Rules(4, teams=True), 3, 0, names) == "memory 1 & memory 3 win."


def test_the_analyse_command_at_the_end_can_be_copied_to_a_shell(tmp_path: Path) -> None:
    """The command printed at the end names the saved file as the shell reads it: a name with a space
    (or a quote) is quoted, so that the line runs as it is copied."""
    save = tmp_path / "my game's record.json"
    stdout = io.StringIO()
    play_terminal(Rules(3), 0, ["memory", "memory"], 1, stdin=ScriptedInput(["quit"]), stdout=stdout,
                  save=str(save))
    line = next(x for x in stdout.getvalue().splitlines() if x.startswith("Analyse it: "))
    command = line.removeprefix("Analyse it: ").split(" (add --html")[0]
    assert shlex.split(command) == ["trio-solver", "analyse", str(save)]
    assert Record.load(save).rules == Rules(3)


def test_help_does_not_promise_a_save_without_save() -> None:
    """``quit`` keeps the game only with ``--save``: the help says so, in the turn and at a swap moment, and a
    game played without it ends by saying how to keep the next one."""
    rules = Rules(4, teams=True)  # the game opens with a swap moment of the person's team
    stdout = io.StringIO()
    play_terminal(rules, 0, ["memory"] * 3, 1, stdin=ScriptedInput(["help", "quit"]), stdout=stdout)
    text = stdout.getvalue()
    assert "Swap moment: you and your partner" in text  # the swap moment's help was shown
    quits = [line for line in text.splitlines() if line.lstrip().startswith("quit ")]
    assert quits and all("with --save" in line for line in quits)
    assert "saved to" not in text and "Use --save FILE" in text
    assert all("with --save, the game so far is saved" in h for h in (HELP, SWAP_HELP))
