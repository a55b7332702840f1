"""The one source of what a seat knows of each hand (trio_solver.game.knowledge), checked on generated games."""

from __future__ import annotations

import random
from typing import Any

import pytest

from helpers_positions import ALL_RULES, own_top_shown, random_game, viewers
from trio_solver.game.state import Game
from trio_solver.game.knowledge import PublicReader, knowledge
from trio_solver.game.events import Swap
from trio_solver.game.record import Record
from trio_solver.game.table import steps
from trio_solver.game.view import PlayerView
from trio_solver.report.render import frame, render_frame
from trio_solver.game.reveal import Reveal
from trio_solver.decide.rollout import public_memory
from trio_solver.game.rules import Rules
from trio_solver.report.seen import seen_frame


def _games(count: int) -> list[Game]:
    out = []
    for i in range(count):
        rng = random.Random(1000 + i)
        rules = ALL_RULES[i % len(ALL_RULES)]
        out.append(random_game(rules, rng, rng.randrange(0, 40), trio_rate=0.4))
    return out


@pytest.mark.parametrize("game", _games(24), ids=lambda g: f"{g.rules.players}p-{g.rules.mode.value}-{g.rules.teams}")
def test_knowledge_is_true_and_covers_every_card_shown(game: Game) -> None:
    for seat in viewers(game.rules):
        view = game.view(seat)
        know = knowledge(view)
        memory = public_memory(view)
        assert [h.size for h in know.hands] == list(view.sizes)
        for s, h in enumerate(know.hands):
            truth = list(game.hands[s])
            lo, hi = view.used(s)
            for p, (v, pub, up) in enumerate(zip(h.cards, h.public, h.up)):
                # sound: every value known is the true card there
                assert v is None or v == truth[p], (seat, s, p)
                # public cards are known to the viewer too, and a spectator knows nothing else
                assert not pub or v is not None
                if seat is None or s != seat:
                    assert (v is not None) == pub
                # complete: every card the table remembers (the rollout's own memory) is known
                if memory.hands[s][p] is not None:
                    assert pub and v == memory.hands[s][p]
                assert up == (p < lo or p >= h.size - hi)
            if s == seat:
                assert list(h.cards) == truth  # the viewer's own hand in full
        for i, v in enumerate(know.slots):
            assert v == memory.slots[i]
            if v is not None:
                assert game.centre[i] == v


def test_a_hand_shown_twice_from_one_end_shows_both_cards() -> None:
    # a seat shows its highest 12 twice; its row must show two 12s
    for seed in range(400):
        game = Game.deal(Rules(4), seed=seed)
        mover = game.to_move
        other = next((s for s in range(4) if s != mover and sorted(game.hands[s])[-2:] == [12, 12]), None)
        if other is not None:
            break
    else:
        raise AssertionError("no deal with two 12s on top of a hand")
    game.reveal(Reveal.highest(other))
    game.reveal(Reveal.highest(other))
    third = next(r for r in game.legal_reveals() if game.peek(r) != 12)
    game.reveal(third)  # the turn fails: both 12s go back, known to all
    spectator = game.view(None)
    row = knowledge(spectator).hands[other]
    assert row.cards[-2:] == (12, 12) and row.public[-2:] == (True, True)
    assert frame(spectator, None)["hands"][other]["cards"][-2:] == [12, 12]
    assert render_frame(frame(spectator, None)).count("12]") == 1


def test_sorted_order_fills_what_it_implies() -> None:
    from trio_solver.game.knowledge import _sorted_fill

    assert _sorted_fill([5, None, None, 5, None]) == (5, 5, 5, 5, None)
    assert _sorted_fill([None, None, 1, None]) == (1, 1, 1, None)
    assert _sorted_fill([None, 12, None, None]) == (None, 12, 12, 12)
    assert _sorted_fill([3, None, 4, None]) == (3, None, 4, None)
    assert _sorted_fill([]) == ()


def test_the_frame_the_terminal_and_the_report_use_one_source() -> None:
    for game in _games(8):
        for seat in viewers(game.rules):
            view = game.view(seat)
            know = [h.to_json() for h in knowledge(view).hands]
            assert frame(view, seat)["hands"] == know
            if seat is not None:
                assert [{k: v for k, v in h.items() if k != "name"} for h in seen_frame(view, ["a"] * game.rules.players)["hands"]] == know
        spectator = knowledge(game.view(None))
        truth = frame(game, "all")["hands"]
        for h, k in zip(truth, spectator.hands):
            assert h["public"] == list(k.public)  # hindsight: every card, and what the table knew
            assert h["cards"] == list(game.hands[h["seat"]])


def test_own_cards_known_to_the_table_are_marked() -> None:
    game, mover, top = own_top_shown()
    assert knowledge(game.view(mover)).known_to_table(mover) == [top]
    fr = frame(game.view(mover), mover)
    own = fr["hands"][mover]
    assert own["public"][-1] and not any(own["public"][:-1])
    text = render_frame(fr, None, mover)
    line = next(ln for ln in text.splitlines() if ln.strip().startswith(f"seat {mover}"))
    assert f"{top}^]" in line and line.count("^") == 1
    assert "(^: your card that every player knows)" in text
    assert "^" not in render_frame(frame(game.view(None), None))


def test_links_and_pairs_are_picante_only() -> None:
    """``sides``: ``links`` and ``pairs_with`` are Picante's (docs/INTERFACE.md, *replay*); in Simple two
    trios that the printed corners link are not a goal, and the frame names no link."""
    rules = Rules(3, "simple")
    game = Game.constructed(rules, [[2, 2, 2, 9, 9, 9, 11], [4], [5]], [None] * rules.centre_size)
    for k in range(2):
        for _ in range(3):
            game.play("l0")
        game.play("l1")
        game.play("l2")  # seat 1 fails
        game.play("l2")
        game.play("l1")  # seat 2 fails
    assert game.trios[0] == (2, 9) and rules.linked(2, 9) and game.winner is None
    side = frame(game.view(0), 0)["sides"][0]
    assert side["links"] == [] and side["pairs_with"] == {}
    picante = Rules(3, "picante")
    game = Game.constructed(picante, [[2, 2, 2, 9, 9, 9, 11], [4], [5]], [None] * picante.centre_size)
    for _ in range(3):
        game.play("l0")
    game.play("l1")
    game.play("l2")
    game.play("l2")
    game.play("l1")
    for _ in range(3):
        game.play("l0")
    assert game.winner == 0
    assert frame(game.view(0), 0)["sides"][0]["links"] == [[2, 9]]


def test_team_and_picante_texts_on_generated_games() -> None:
    from trio_solver.report.render import winner_text

    checked = won = 0
    for i in range(80):
        rules = [r for r in ALL_RULES if r.teams or r.mode.value == "picante"][i % 6]
        game = random_game(rules, random.Random(500 + i), 60, trio_rate=0.6, avoid_win=i % 3 != 0)
        seat = i % rules.players
        fr = frame(game.view(seat), seat)
        text = render_frame(fr, None, seat)
        lines = text.splitlines()
        for s in range(rules.players):
            line = next(ln for ln in lines if ln.strip().startswith(f"seat {s} "))
            if rules.teams:
                a, b = rules.teams_of_seats[rules.team_of(s)]
                assert f"team {a}+{b}" in line
            for v in game.trios[s]:
                side = fr["sides"][rules.team_of(s)]
                pairs = side["pairs_with"].get(str(v), [])
                assert (f"{v} (pairs with {', '.join(map(str, pairs))})" if pairs else str(v)) in line
                checked += 1
        for side in fr["sides"]:
            if rules.teams:
                assert f"team {'+'.join(map(str, side['seats']))}: trios" in text and side["goal"] in text
            assert (side["to_goal"] == 0) == (side["goal"] == "goal met")
            assert side["to_goal"] == rules.goal_distance(side["trios"])
            # the values whose trio would win at once: those no one has taken that meet the goal with its trios
            taken = {v for t in game.trios for v in t}
            assert side["wins"] == ([] if game.winner is not None else
                                    [v for v in range(1, 13) if v not in taken and rules.is_win([*side["trios"], v])])
        if game.winner is not None:
            won += 1
            words = winner_text(rules, game.winner)
            if rules.teams:
                a, b = rules.teams_of_seats[rules.team_of(game.winner)]
                assert words.startswith(f"Winner: team of seats {a} and {b};")
            else:
                assert words == f"Winner: seat {game.winner}"
    assert checked > 20 and won > 0


@pytest.mark.parametrize("game", _games(12), ids=lambda g: f"{g.rules.players}p-{g.rules.mode.value}-{g.rules.teams}")
def test_a_reader_along_the_game_gives_the_frames_of_a_fresh_replay(game: Game) -> None:
    """The frames of a game's positions read by one :class:`PublicReader` (each event replayed once) equal
    those replayed from the start; one reader handed other seats' views and earlier positions still does."""
    record = Record.from_game(game)
    states = record.states()
    for position in states:
        assert frame(position, "all")["last"] == _last_places_replayed(position.view(None))
    views = [(k, s, position.view(s)) for k, position in enumerate(states) for s in viewers(game.rules)]
    for seat in ["all", *viewers(game.rules)]:
        along = PublicReader()
        for position in states:
            chosen = position if seat == "all" else position.view(seat)  # type: ignore[arg-type]
            assert frame(chosen, seat, reader=along) == frame(chosen, seat)
    mixed = PublicReader()
    for k, s, view in random.Random(len(views)).sample(views, min(len(views), 60)):
        assert frame(view, s, reader=mixed) == frame(view, s), (k, s)
        assert knowledge(view, reader=mixed) == knowledge(view) == knowledge(view, reader=PublicReader())


def _last_places_replayed(view: PlayerView) -> list[dict[str, Any]]:
    """The cards of the last event still on the table, read from a replay of the whole history."""
    if not view.events or isinstance(view.events[-1], Swap):
        return []
    out: list[dict[str, Any]] = []
    for step in steps(view.rules, view.first_player, view.events):
        if step.event != len(view.events) - 1 or step.reveal is None:
            continue
        if step.trio is not None:
            return []
        if step.position is None:
            out.append({"slot": step.reveal.index, "value": step.value})
        else:
            out.append({"seat": step.reveal.index, "position": step.position, "value": step.value})
    return out


def test_a_team_line_names_the_partners() -> None:
    game = Game.deal(Rules(4, teams=True), seed=1)
    text = render_frame(frame(game.view(None), None), ["Ann", "Bob", "Cy", "Dan"])
    assert "  team Ann & Cy (0+2): trios -; " in text and "  team Bob & Dan (1+3): trios -; " in text
    assert "  team 0+2: trios -; " in render_frame(frame(game.view(None), None))
