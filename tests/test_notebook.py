"""Jupyter pictures (``_repr_html_``) of Game, PlayerView, Beliefs, Advice and Analysis."""

from __future__ import annotations

import random
import re
from pathlib import Path
from html.parser import HTMLParser

from helpers_positions import own_top_shown, random_game
from trio_solver.report.analysis import analyse
from trio_solver.infer.beliefs import Beliefs
from trio_solver.game.knowledge import knowledge
from trio_solver.report.notebook import VALUE_COLOURS, frame_html
from trio_solver.game.record import Record
from trio_solver.report.render import frame
from trio_solver.game.rules import Rules
from trio_solver.decide.search import advise

EVIL = "<script>alert(1)</script>"


class _Balanced(HTMLParser):
    VOID = {"br", "img", "hr", "meta", "input"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, (self.stack, tag)
        self.stack.pop()


def _check(page: str) -> _Balanced:
    p = _Balanced()
    p.feed(page)
    p.close()
    assert not p.stack, p.stack
    assert "script" not in p.tags
    return p


def test_game_and_view_show_their_cards() -> None:
    game, mover, top = own_top_shown()
    page = game._repr_html_()
    _check(page)
    for s in range(3):
        for v in game.hands[s]:
            assert f"background:{VALUE_COLOURS[v]}'>{v}</span>" in page
    view = game.view(mover)
    mine = view._repr_html_()
    _check(mine)
    # the viewer's card the table knows carries the dot; the others' hidden cards are backs
    assert mine.count("class='c pub'") == knowledge(view).hands[mover].public.count(True) == 1
    assert "class='c back'" in mine


def test_team_and_picante_tables_show_teams_and_links() -> None:
    for seed in range(40):
        game = random_game(Rules(4, "picante", teams=True), random.Random(seed), 40, trio_rate=0.5)
        if any(game.trios[s] for s in range(4)) and not game.over:
            break
    page = game.view(0)._repr_html_()
    _check(page)
    assert "team 0+2" in page and "team 1+3" in page
    for side in frame(game.view(0), 0)["sides"]:  # each team's progress, in the frame's own words
        assert side["goal"] in page
    assert "pairs with" in page


def test_beliefs_advice_and_analysis_pages() -> None:
    game = random_game(Rules(4), random.Random(3), 12)
    view = game.view(game.to_move)
    b = Beliefs(view)
    _check(b._repr_html_())
    assert "chances of 1 .. 12" in b._repr_html_()
    advice = advise(view)
    page = advice._repr_html_()
    _check(page)
    assert f"<td>{advice.best.reveal}</td>" in page and "%" in page and not re.search(r">0\.\d+<", page)
    record = Record.from_game(random_game(Rules(3), random.Random(8), 30), names=[EVIL, "a&b", "c"])
    a = analyse(record, samples=0)
    page = a._repr_html_()
    _check(page)
    assert EVIL not in page and "&lt;script&gt;" in page and "a&amp;b" in page


def test_record_names_are_escaped_in_the_table() -> None:
    game = random_game(Rules(3), random.Random(2), 5)
    page = frame_html(frame(game, "all"), [EVIL, "<b>", "x"])
    _check(page)
    assert EVIL not in page and "<b>" not in page



def test_right_to_left_names_are_isolated() -> None:
    """A Hebrew or Arabic name sits between the Unicode isolates wherever the pictures show it, so that the
    figures and names around it keep their order; a name of left-to-right letters is left as it is."""
    names = ["نور", "Bob", "דנה"]
    record = Record.from_game(random_game(Rules(3), random.Random(8), 30), names=names)
    a = analyse(record, samples=0)
    page = a._repr_html_()
    _check(page)
    assert page.count("\u2068نور\u2069") == page.count("نور") > 1
    assert page.count("\u2068דנה\u2069") == page.count("דנה") > 1 and "\u2068Bob" not in page
    table = frame_html(frame(random_game(Rules(3), random.Random(2), 5), "all"), names)
    assert "seat 0 (\u2068نور\u2069)" in table and "seat 1 (Bob)" in table


def test_the_board_uses_the_same_card_colours() -> None:
    css = (Path(__file__).parent.parent / "trio_solver" / "doors" / "web" / "board.css").read_text()
    for v in range(1, 13):
        assert re.search(rf"\.v{v}\s*{{[^}}]*--face:\s*{VALUE_COLOURS[v]}", css), v
