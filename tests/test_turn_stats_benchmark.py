"""The turn-statistics benchmark: what failed turns show for the first time, and the gifts that follow."""

from __future__ import annotations

import random

import pytest

from helpers_benchmarks import load_benchmark
from trio_solver.game.events import Turn
from trio_solver.game.reveal import Reveal
from trio_solver.game.rules import Rules
from trio_solver.decide.bots import make_bot
from trio_solver.game.state import Game
from trio_solver.run.simulate import play_game

stats = load_benchmark("turn_stats")

# Seat 1 holds two 6s at its low end; the third 6 is centre slot 1, next to a 5 in slot 0 and a 7 in slot 2.
HANDS = [[1, 1, 1, 2, 2, 2, 3, 3, 3], [6, 6, 9, 9, 9, 10, 10, 10, 11], [4, 4, 4, 5, 5, 11, 11, 12, 12]]
CENTRE = [5, 6, 7, 7, 7, 8, 8, 8, 12]


def play(first: int, reveals: list[Reveal]) -> Game:
    game = Game.from_deal(Rules(3), HANDS, CENTRE, first_player=first)
    for r in reveals:
        game.reveal(r)
    return game


def take_sixes() -> list[Reveal]:
    return [Reveal.lowest(1), Reveal.lowest(1), Reveal.centre(1)]


def test_a_trio_made_with_a_card_the_failed_turn_just_showed_is_a_gift() -> None:
    game = play(0, [Reveal.centre(1), Reveal.centre(0), *take_sixes()])
    assert game.trios[1] == (6,)
    s = stats.game_stats(game)
    assert (s[0]["fails"], s[0]["shown"], s[0]["own_shown"], s[0]["gifts_given"]) == (1, 2, 0, 1)
    assert (s[1]["turns"], s[1]["trios"], s[1]["gifts_taken"]) == (1, 1, 1)


def test_a_card_known_before_the_failed_turn_is_no_gift_of_it() -> None:
    """Seat 2 shows the 6 first; seat 0 shows it again with a new 7; seat 1's trio of 6s then owes seat 0
    nothing (the 6 was public before its turn) and seat 2 nothing (its turn was not the one before)."""
    game = play(2, [Reveal.centre(1), Reveal.centre(0), Reveal.centre(1), Reveal.centre(2), *take_sixes()])
    assert game.trios[1] == (6,)
    s = stats.game_stats(game)
    assert (s[2]["shown"], s[0]["shown"]) == (2, 1)
    assert sum(x["gifts_given"] for x in s) == 0 and s[1]["gifts_taken"] == 0


def test_a_gift_taken_from_the_other_end_of_the_hand_is_counted() -> None:
    """Seat 1 holds one card: shown as its highest in the failed turn, taken as its lowest in the trio."""
    hands = [[1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4], [5], [7, 7, 7, 8, 8, 8, 9, 9, 9, 10, 10, 10, 11, 11, 11, 12, 12, 12]]
    start = Game.constructed(Rules(3), hands, [5, 5, 6, 6, 6, None, None, None, None], to_move=0)
    game = start.copy()
    for r in [Reveal.highest(1), Reveal.centre(2), Reveal.lowest(1), Reveal.centre(0), Reveal.centre(1)]:
        game.reveal(r)
    assert game.trios[1] == (5,)
    s = stats.game_stats(game, start)
    assert (s[0]["gifts_given"], s[1]["gifts_taken"]) == (1, 1)


def test_a_failed_turn_gives_only_to_the_turn_after_it() -> None:
    """Seat 0 fails showing the 6; seat 1 takes the 8s without it; seat 2's trio of 6s with it, two turns
    later, is no gift of seat 0's."""
    game = play(0, [Reveal.centre(1), Reveal.centre(0), Reveal.centre(5), Reveal.centre(6), Reveal.centre(7),
                    Reveal.lowest(1), Reveal.lowest(1), Reveal.centre(1)])
    assert game.trios[1] == (8,) and game.trios[2] == (6,)
    s = stats.game_stats(game)
    assert sum(x["gifts_given"] for x in s) == 0


def test_the_movers_own_cards_are_counted_apart() -> None:
    s = stats.game_stats(play(0, [Reveal.lowest(0), Reveal.centre(0)]))
    assert (s[0]["shown"], s[0]["own_shown"]) == (2, 1)
    other = stats.game_stats(play(0, [Reveal.lowest(2), Reveal.centre(1)]))
    assert (other[0]["shown"], other[0]["own_shown"]) == (2, 0)  # seat 2's card is not seat 0's own
    again = stats.game_stats(play(0, [Reveal.lowest(0), Reveal.centre(0), Reveal.centre(0), Reveal.lowest(0)]))
    assert (again[1]["shown"], again[1]["own_shown"]) == (0, 0)  # seat 1 showed only what all had seen


@pytest.mark.parametrize("rules", [Rules(3), Rules(5, "picante"), Rules(4, teams=True)])
def test_the_figures_add_up_on_bot_games(rules: Rules) -> None:
    """Over whole games of bots: every turn and trio counted once, a gift given for each taken, no more cards
    shown than failed turns revealed, and the winning side's seats credited."""
    for seed in range(5):
        bots = [make_bot("memory" if s % 2 else "solver", random.Random(seed * 10 + s)) for s in range(rules.players)]
        game = play_game(rules, bots, rng=random.Random(seed))
        s = stats.game_stats(game)
        turns = [e for e in game.events if isinstance(e, Turn)]
        assert sum(x["turns"] for x in s) == len(turns)
        assert sum(x["trios"] for x in s) == sum(len(t) for t in game.trios)
        assert sum(x["gifts_given"] for x in s) == sum(x["gifts_taken"] for x in s) <= sum(x["trios"] for x in s)
        failed = [t for t in turns if not (len(t.reveals) == 3 and len({r.value for r in t.reveals}) == 1)]
        shown_at_most = sum(len(t.reveals) for t in failed)
        assert sum(x["shown"] for x in s) <= shown_at_most
        assert all(x["own_shown"] <= x["shown"] and x["games"] == 1 for x in s)
        winners = [seat for seat, x in enumerate(s) if x["wins"]]
        assert winners == list(rules.teams_of_seats[rules.team_of(game.winner)])


def test_the_script_prints_both_kinds_of_seat(capsys: pytest.CaptureFixture[str]) -> None:
    assert stats.main(["--bot", "memory", "--against", "random", "--games", "4", "--seed", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    tested = next(line for line in lines if line.startswith("memory (tested)")).split()
    others = next(line for line in lines if line.startswith("random (others)")).split()
    assert (int(tested[2]), int(others[2])) == (4, 8)  # seat-games: one seat and two seats of 4 games
    assert float(tested[3]) + 2 * float(others[3]) == pytest.approx(1.0, abs=1e-3)  # one side wins each game
