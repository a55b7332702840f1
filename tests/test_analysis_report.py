"""What the analysis tells a player: the header, the per-player summary, the key moments, the full
table on request, real choices only, team wins, luck told apart from skill."""

from __future__ import annotations

import dataclasses
import html
import json
import random
from pathlib import Path

import pytest

from trio_solver.report.analysis import GAME_THRESHOLDS, ONLY_OPTION, analyse, label_for, player_names
from trio_solver.report.analysis_html import _WIDE, _mover_chance, embed_json
from trio_solver.decide.bots import make_bot
from trio_solver.doors.cli import main
from trio_solver.game.state import Game
from trio_solver.game.record import Record
from trio_solver.game.reveal import Reveal
from trio_solver.game.rules import Mode, Rules
from trio_solver.decide.search import advise
from trio_solver.run.simulate import play_game
from trio_solver import Turn
from trio_solver.words import percent

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "full_deal_4p.json"


@pytest.fixture(scope="module")
def example() -> tuple[Record, object]:
    record = Record.load(EXAMPLE)
    return record, analyse(record, samples=0)  # judged by the turn: exact figures


def test_header_names_mode_and_winner_by_name(example: tuple[Record, object]) -> None:
    record, a = example
    text = a.text()  # type: ignore[attr-defined]
    lines = text.splitlines()
    assert record.names is not None and record.winner is not None
    assert lines[0] == "Players: " + ", ".join(record.names)
    assert lines[1] == "Game: 4 players, simple"
    turns = sum(1 for e in record.events if isinstance(e, Turn))
    assert lines[2].startswith(f"Result: {record.names[record.winner]} wins with the trios of ")
    assert lines[2].endswith(f"after {turns} turns")
    assert lines[3].startswith("Judged by: the chances of this turn")
    # the per-player summary comes before the key moments, and by name, never 'seat N'
    assert text.index("Per player") < text.index("Key moments")
    assert "seat " not in text.split("Key moments")[0].split("Per player")[1]
    # no full table unless asked
    assert "Every reveal" not in text and "--all" in text


def test_full_table_has_headings_names_and_reveal_numbers(example: tuple[Record, object]) -> None:
    record, a = example
    text = a.text(all_decisions=True)  # type: ignore[attr-defined]
    table = text.split("Every reveal:")[1].strip().splitlines()
    heading = next(i for i, line in enumerate(table) if line.split()[:2] == ["turn", "reveal"])
    assert {"player", "played", "best", "trio", "chance", "win", "now", "loss", "label"} <= set(table[heading].split())
    rows = table[heading + 1:]
    assert len(rows) == len(a.decisions)  # type: ignore[attr-defined]
    assert record.names is not None
    for row, d in zip(rows, a.decisions):  # type: ignore[attr-defined]
        parts = row.split()
        assert parts[0] == str(d.turn) and parts[1] == ("1st", "2nd", "3rd")[d.reveal_index]
        assert parts[2] == record.names[d.seat]
        assert parts[3] == f"{d.played}={d.shown}" and parts[4] == str(d.best)
    # (turn, reveal) never repeats
    keys = [(d.turn, d.reveal_index) for d in a.decisions]  # type: ignore[attr-defined]
    assert len(set(keys)) == len(keys)


def test_key_moments_are_few_ordered_and_the_largest(example: tuple[Record, object]) -> None:
    _, a = example
    moments = a.moments  # type: ignore[attr-defined]
    decisions = a.decisions  # type: ignore[attr-defined]
    told = [m for m in moments if m.kind == "decision"]
    assert 0 < len(told) <= 5
    labelled = sorted((d.loss for d in decisions if d.label), reverse=True)
    assert sorted((decisions[m.decision].loss for m in told), reverse=True) == labelled[:len(told)]
    order = [(m.event, m.reveal_index) for m in moments]
    assert order == sorted(order)
    for m in told:  # each says what was played, what was better and why, in chances
        d = decisions[m.decision]
        assert f"played {d.played} (" in m.text and f", showed {d.shown}), better {d.best} (" in m.text
        for r in (d.played, d.best):  # each reveal also in a player's words: whose card, which end
            place = "a centre card" if r.is_centre else (
                f"{a.players[r.index]}'s{' own' if r.index == d.seat else ''} {r.kind} card")  # type: ignore[attr-defined]
            assert f"{r} ({place}" in m.text
        assert "chance of a trio" in m.text or "certain" in m.text
        assert m.text.endswith(f", loss {d.loss * 100:.1f}%.")  # in percent, as the tables give it
    # trios told: the winning one, and those that came from a poor decision that made the trio less likely
    # than the best reveal would have, called luck
    for m in moments:
        if m.kind != "trio":
            continue
        poor = [d for d in decisions if d.event == m.event and d.label
                and d.p_trio_played < min(d.p_trio_best, 1.0) - 1e-9]
        assert ("luck" in m.text) == bool(poor)
        assert poor or "wins the game" in m.text
    assert any("wins the game" in m.text for m in moments)
    # a trio is told after the decisions of its own turn
    for m in moments:
        if m.kind == "trio":
            assert all(x.reveal_index < m.reveal_index for x in moments if x.event == m.event and x is not m)


def test_only_real_choices_are_scored(example: tuple[Record, object]) -> None:
    record, a = example
    game = Game(record.rules, record.deal, record.first_player)  # type: ignore[arg-type]
    decisions = iter(a.decisions)  # type: ignore[attr-defined]
    checked = 0
    for e in record.events:
        assert isinstance(e, Turn)
        for r in e.reveals:
            d = next(decisions)
            adv = advise(game.view(e.seat))
            values = sorted((x.p_trio + x.p_win for x in adv.evaluations), reverse=True)
            nothing_to_choose = values[0] - values[-1] < 1e-9
            others = [x.p_trio + x.p_win for x in adv.evaluations if x.reveal != r.reveal]
            only = d.loss == 0 and max(others) <= values[0] - ONLY_OPTION + 1e-12
            assert d.scored == (not nothing_to_choose and not only)
            if not d.scored:
                assert d.label is None
            checked += 1
            game.reveal(r.reveal)
    assert checked == len(a.decisions)  # type: ignore[attr-defined]
    assert any(not d.scored for d in a.decisions)  # type: ignore[attr-defined]
    for s in a.seats:  # type: ignore[attr-defined]
        assert s.decisions == sum(1 for d in a.decisions if d.seat == s.seat and d.scored)  # type: ignore[attr-defined]


def test_a_seat_without_choices_has_no_accuracy() -> None:
    # seat 2 never moves: no decision, so no accuracy (not "100%")
    hands = [[1, 1, 1, 2, 3, 4, 5, 6, 12], [2, 2, 3, 3, 4, 4, 5, 5, 12], [6, 6, 7, 7, 7, 8, 8, 8, 9]]
    game = Game.from_deal(Rules(3), hands, [9, 9, 10, 10, 10, 11, 11, 11, 12], first_player=0)
    for r in ("h0", "l1"):
        game.reveal(Reveal.from_str(r))
    a = analyse(Record.loads(Record.from_game(game, names=["Ann", "Ben", "Cat"]).dumps()), samples=0)
    cat = a.seats[2]
    assert (cat.name, cat.decisions, cat.accuracy, cat.average_loss) == ("Cat", 0, None, None)
    row = next(line for line in a.text().splitlines() if line.strip().startswith("Cat"))
    assert row.split()[1:4] == ["0", "-", "-"] and "100%" not in row
    assert json.loads(json.dumps(a.to_json()))["seats"][2]["accuracy"] is None


def test_team_win_is_credited_to_the_team() -> None:
    rules = Rules(4, Mode.SIMPLE, teams=True)
    bots = [make_bot("memory", random.Random(s)) for s in range(4)]
    game = play_game(rules, bots, rng=random.Random(5))
    assert game.winner is not None
    names = ["Ann", "Ben", "Cat", "Dan"]
    a = analyse(Record.loads(Record.from_game(game, names=names).dumps()), samples=0)
    team = next(t for t in rules.teams_of_seats if game.winner in t)
    assert a.winners == team
    assert [s.won for s in a.seats] == [s in team for s in range(4)]
    result = a.result()
    assert result.startswith(f"team {names[team[0]]} & {names[team[1]]} wins")
    assert f"{names[game.winner]} took the last trio" in result
    assert "teams Ann & Cat vs Ben & Dan" in a.header()


def test_duplicate_names_are_told_apart() -> None:
    game = Game.deal(Rules(3), seed=1)
    rec = Record.loads(Record.from_game(game, names=["bot", "bot", "Eve"]).dumps())
    assert player_names(rec) == ("bot (seat 0)", "bot (seat 1)", "Eve")
    assert player_names(Record.loads(Record.from_game(game).dumps())) == ("seat 0", "seat 1", "seat 2")


def test_embedded_json_cannot_close_the_script() -> None:
    data = {"name": "</script><script>alert(1)</script> & \u2028", "n": [1, 2.5, None]}
    text = embed_json(data)
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == data


def test_cli_all_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(EXAMPLE), "--all", "--quick"]) == 0
    out = capsys.readouterr().out
    assert "Every reveal:" in out and "Trio chance:" in out and "win game" not in out
    assert main(["analyse", str(EXAMPLE), "--samples", "3", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "Every reveal:" not in out
    assert ("Judged by: the loss in the mover's chance to win the game (up to 3 playouts per reveal, until each "
            "label is clear at 95% confidence; seed 2)") in out
    assert main(["analyse", str(EXAMPLE), "--quick", "--samples", "3"]) == 2


def test_the_html_legend_states_the_accuracy_rule_and_unclear_labels_in_words(example: tuple[Record, object]) -> None:
    """The page's accuracy rule is the one the figures follow, by the turn and by the game, and a label the
    playouts' cap left open says in words what it may also be ("inaccuracy (perhaps a blunder)"; a bare "?"
    reads as a mistake to a chess player), the words of the JSON's ``verdict``. The tables show no chance of a
    reveal they do not name (a loss within noise)."""
    record, quick = example
    page = quick.html()  # type: ignore[attr-defined]
    assert "<dt>accuracy</dt><dd>the share of choices with a loss below 1%.</dd>" in page
    by_game = analyse(record, samples=32, seed=3)
    page = by_game.html()
    assert ("<dt>accuracy</dt><dd>the share of choices with no label and a loss below 2%, or a loss the playouts "
            "do not tell apart from 0 at 95% confidence.</dd>") in page
    unsure = [d for d in by_game.decisions if d.scored and not d.sure and not d.within_noise]
    assert unsure  # 32 deals per reveal leave some labels open
    cells = page.split("<table id=\"decisions\">")[1].split("</table>")[0]
    labels = [row.rsplit("<td>", 1)[1].split("</td>")[0] for row in cells.split("<tr class=")[1:]]
    assert len(labels) == len(by_game.decisions)
    assert not any(label.endswith("?") for label in labels)
    perhaps = 0
    for d, label in zip(by_game.decisions, labels):
        assert label == d.to_json()["verdict"]
        if d.played == d.best:  # the best reveal played: never "perhaps" worse
            assert label == (d.label or "") or not d.scored
        elif d.scored and d.loss_low is not None and d.loss_low <= 1e-12:  # not told apart from 0: no alarm
            assert label == "within noise" and d.within_noise
        elif d in unsure:
            worse = label_for(d.loss_high or 0.0, GAME_THRESHOLDS)
            if worse is not None and worse != d.label:
                perhaps += 1
                assert label == (d.label + " " if d.label else "") + ("(perhaps " if d.label else "perhaps ") + \
                    ("an " if worse == "inaccuracy" else "a ") + worse + (")" if d.label else "")
            else:
                assert label == (d.label or "")
        elif not d.scored:
            assert label == ("clear choice" if d.options > 1 else "no choice")
    assert perhaps  # some open labels may be worse
    # a reveal not played out that makes a trio for certain sits at the mover's chance after its turn on the
    # chart (what the turn comes to is known), not at the chance before it
    chart = page.split('<svg id="chart"')[1].split("</svg>")[0]
    sure = [i for i, d in enumerate(by_game.decisions) if d.p_game_played is None and d.p_trio_played >= 1 - 1e-9]
    assert sure
    for i in sure:
        d = by_game.decisions[i]
        after = next(c for c in by_game.curve if c.decisions > i)
        dot = chart.split(f'data-i="{i}"')[1].split("</g>")[0]
        cy = float(dot.split('cy="')[1].split('"')[0])
        assert cy == round(_WIDE.y(after.win_chance[d.seat]), 1)
    assert _mover_chance(by_game, by_game.decisions[sure[0]], 1.0, 1.0) == 1.0  # a certain win: at the top
    # a dot's tip names the verdict, and a better reveal only where the loss is told apart from 0
    noise = [i for i, d in enumerate(by_game.decisions) if d.verdict == "within noise"]
    assert noise
    for i, d in enumerate(by_game.decisions):
        tip = chart.split(f'data-i="{i}"')[1].split("<title>")[1].split("</title>")[0]
        assert (", best " in tip) == (i not in noise) and tip.endswith(html.escape(d.verdict) if d.verdict else "")
    # the tables show no chance of a reveal they do not name: '-' for the best's figures within noise
    rows = by_game.table_text().splitlines()[-len(by_game.decisions):]
    page = by_game.html()
    for i, d in enumerate(by_game.decisions):
        cells = page.split(f"data-pick='{i}'><td>")[1].split("</tr>")[0]  # the table's row, not a key moment
        best = [percent(p) for p in (d.p_trio_best, d.p_win_best, d.p_game_best) if p is not None]
        assert (rows[i].count("/-") == 3) == (i in noise)
        assert (cells.count(" / -</td>") == 3) == (i in noise)
        if i not in noise:
            assert all(f"/{b}" in rows[i] and f" / {b}</td>" in cells for b in best)


def test_a_viewer_records_chart_has_a_tick_and_a_point_for_every_turn() -> None:
    """In a record of one seat's view only the keeper's reveals are judged; the other players' turns still get
    their own place on the x axis, so their curve points do not stack on one x."""
    record = Record.load(ROOT / "examples" / "viewer_3p_picante.json")
    a = analyse(record, samples=16, seed=1)
    chart = a.html().split('<svg id="chart"')[1].split("</svg>")[0]
    turns = [int(t.split("<")[0]) for t in chart.split('class="tick">')[1:]]  # the x ticks (the y's are aligned)
    assert turns == list(range(1, a.turns + 1))
    xs = [float(g.split('cx="')[1].split('"')[0]) for g in chart.split('class="cp"')[1:]]
    assert len(xs) == len(a.curve) and xs == sorted(xs) and len(set(xs)) == len(xs)


def test_a_team_games_chart_names_its_team_lines() -> None:
    """Judged by the game, a team game draws one chance line per team: the legend names each team in its line's
    colour (the dots stay one colour per player)."""
    a = analyse(Record.load(ROOT / "examples" / "teams_4p.json"), samples=8, seed=1)
    page = a.html()
    chart = page.split('<svg id="chart"')[1].split("</svg>")[0]
    line_colours = [p.split('stroke="')[1].split('"')[0] for p in chart.split('class="seatline"')[1:]]
    named = [(span.split('color:')[1].split('"')[0], span.split("team ", 1)[1].split("</span>")[0])
             for span in page.split('<span class="teamline" style="')[1:]]
    assert [c for c, _ in named] == line_colours and len(named) == len(a.teams) == 2
    assert [n for _, n in named] == [" &amp; ".join(a.players[s] for s in t) for t in a.teams]


def test_luck_is_a_trio_made_less_likely_by_a_labelled_reveal() -> None:
    """The key moments call a trio luck when a labelled reveal of its turn gave it a smaller chance than the
    best reveal would have; a reveal judged poor by the game while it made the trio likelier is not luck."""
    from trio_solver.report.analysis import _moments

    record = Record.load(EXAMPLE)
    a = analyse(record, samples=0)
    k, _, seat, _ = next(t for t in a.trios if t[0] != len(record.events) - 1)  # a trio that does not win
    i = next(j for j, d in enumerate(a.decisions) if d.event == k)
    names = list(a.players)

    def told(p_played: float, p_best: float) -> list[str]:
        decisions = list(a.decisions)
        decisions[i] = dataclasses.replace(decisions[i], label="mistake", p_trio_played=p_played, p_trio_best=p_best)
        return [m.text for m in _moments(record, decisions, list(a.trios), names) if m.kind == "trio" and m.event == k]

    assert len(told(0.5, 0.9)) == 1 and "luck, not skill" in told(0.5, 0.9)[0]
    assert told(0.67, 0.51) == []  # a likelier trio than the best reveal's: skill, not luck


@pytest.mark.parametrize("example", ["viewer_3p_picante.json", "teams_4p.json", "full_deal_4p.json"])
def test_the_header_says_whose_and_which_decisions_are_judged(example: str) -> None:
    """A record keeper's record is judged for the keeper alone, and team play for its reveals, not its swaps:
    the header says so, naming the keeper; a full-deal record without teams needs no such line."""
    record = Record.load(ROOT / "examples" / example)
    a = analyse(record, samples=0)
    lines = a.header().splitlines()
    said = [line for line in lines if line.startswith("Judged: ")]
    keeper = record.viewer.seat if record.deal is None and record.viewer is not None else None
    if keeper is None and not record.rules.teams:
        assert said == []
        return
    assert len(said) == 1
    assert ("the one hand the record knows" in said[0]) == (keeper is not None)
    if keeper is not None:
        assert said[0].startswith(f"Judged: only {a.players[keeper]}'s reveals (the one hand the record knows)")
    assert ("swaps are not judged" in said[0]) == record.rules.teams
    assert [d.seat for d in a.decisions if keeper is not None and d.seat != keeper] == []
