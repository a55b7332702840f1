"""Game analysis: advice-following play scores zero loss; a known blunder is found and measured."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from trio_solver.report.analysis import THRESHOLDS, analyse, label_for
from trio_solver.game.state import Game
from trio_solver.game.record import Record
from trio_solver.game.reveal import Reveal
from trio_solver.game.rules import Mode, Rules
from trio_solver.decide.bots import make_bot
from trio_solver.decide.search import advise
from trio_solver.run.simulate import play_game
from trio_solver.game.events import Turn
from trio_solver.game.view import PlayerView
from trio_solver.errors import RecordError

ROOT = Path(__file__).resolve().parent.parent


class AdvisorBot:
    """Plays the advisor's best reveal by ``p_trio + p_win`` (the analysis's reference); never swaps."""

    name = "advisor"

    def __init__(self) -> None:
        self.played: list[tuple[int, Reveal, float, float]] = []

    def choose_reveal(self, view: PlayerView) -> Reveal:
        best = advise(view).best_value
        self.played.append((view.seat, best.reveal, best.p_trio, best.p_win))  # type: ignore[arg-type]
        return best.reveal

    def choose_swap(self, view: PlayerView) -> int | None:
        return None


def _advisor_game(rules: Rules, seed: int) -> tuple[Game, AdvisorBot]:
    bot = AdvisorBot()
    game = play_game(rules, [bot] * rules.players, rng=random.Random(seed))
    return game, bot


@pytest.mark.parametrize("rules,seed", [(Rules(3, Mode.PICANTE), 0), (Rules(4, Mode.SIMPLE), 0),
                                        (Rules(5, Mode.PICANTE), 2)])
def test_following_the_advice_has_no_loss(rules: Rules, seed: int) -> None:
    game, bot = _advisor_game(rules, seed)
    assert game.over
    record = Record.loads(Record.from_game(game).dumps())
    a = analyse(record, samples=0)
    reveals = [r for e in record.events if isinstance(e, Turn) for r in e.reveals]
    assert len(a.decisions) == len(reveals) == len(bot.played)
    for d, (seat, played, p_trio, p_win) in zip(a.decisions, bot.played):
        assert (d.seat, d.played) == (seat, played)
        assert d.best == played
        assert d.loss == 0.0 and d.label is None
        assert d.p_trio_played == p_trio and d.p_win_played == p_win
    assert a.winner == game.winner
    assert len(a.seats) == rules.players
    for s in a.seats:
        if s.decisions:
            assert s.accuracy == 1.0 and s.average_loss == 0.0
        else:  # no real choice: nothing to rate
            assert s.accuracy is None and s.average_loss is None
        assert (s.inaccuracies, s.mistakes, s.blunders) == (0, 0, 0)
    assert sum(s.reveals for s in a.seats) == len(a.decisions)
    assert sum(s.decisions for s in a.seats) == sum(d.scored for d in a.decisions)
    assert not any("blunder" in m.text or "mistake" in m.text for m in a.moments)


def test_a_reveal_as_good_as_the_best_is_named_best() -> None:
    """Another reveal with the same figures is no better: a decision with no loss names its own reveal as
    the best (no table or story names another for a loss of 0)."""
    record = Record.load(ROOT / "examples" / "full_deal_4p.json")
    a = analyse(record, samples=0)
    ties = 0
    for d in a.decisions:
        if d.reveal_index:
            continue  # a turn's first reveal: the view before its event
        view = record.view(d.seat, d.event)
        values = {e.reveal: e.p_trio + e.p_win for e in advise(view, "trio").evaluations}
        top = max(values.values())
        if d.loss == 0.0:
            assert values[d.played] > top - 1e-9
            assert d.best == d.best_turn == d.played, d
            assert (d.p_trio_best, d.p_win_best) == (d.p_trio_played, d.p_win_played)
            ties += sum(v > top - 1e-9 for v in values.values()) > 1
        else:
            assert d.best != d.played and values[d.best] > top - 1e-9
    assert ties >= 3  # the example has first reveals where another reveal ties with the one played


# ---------------------------------------------------------------------------
# a constructed blunder, measured by counting

# Seat 0 (3 players) holds three 1s at its low end: l0 l0 l0 is a certain trio.
# Its highest card is its only 12; the two other 12s lie uniformly among the 27
# cards it cannot see (9 + 9 in the other hands, 9 in the centre). After h0 shows
# 12 the best continuation asks h1 and h2 (one 12 in each hand): 9*9 / C(27, 2).
HANDS = [[1, 1, 1, 2, 3, 4, 5, 6, 12], [2, 2, 3, 3, 4, 4, 5, 5, 12], [6, 6, 7, 7, 7, 8, 8, 8, 9]]
CENTRE = [9, 9, 10, 10, 10, 11, 11, 11, 12]
P_H0 = 81 / 351


def _blunder_record() -> Record:
    game = Game.from_deal(Rules(3), HANDS, CENTRE, first_player=0)
    game.reveal(Reveal.highest(0))  # 12: throws the certain trio away
    game.reveal(Reveal.lowest(1))  # 2: failure (a 12 cannot be seat 1's lowest card)
    game.reveal(Reveal.lowest(1))  # seat 1: 2 ...
    game.reveal(Reveal.lowest(1))  # ... 2 again
    game.reveal(Reveal.highest(1))  # 12: failure
    return Record.loads(Record.from_game(game).dumps())


def test_constructed_blunder_is_labelled_with_its_loss() -> None:
    a = analyse(_blunder_record(), samples=0)
    assert len(a.decisions) == 5
    d = a.decisions[0]
    assert (d.event, d.reveal_index, d.seat) == (0, 0, 0)
    assert d.played == Reveal.highest(0) and d.shown == 12
    assert d.best == Reveal.lowest(0)
    assert d.p_trio_best == 1.0 and d.p_win_best == 0.0
    assert d.p_trio_played == pytest.approx(P_H0, abs=1e-12)
    assert d.loss == pytest.approx(1 - P_H0, abs=1e-12)
    assert d.label == "blunder"
    # the second reveal of the turn: with a 12 face up, l1 cannot show a 12 (seat 1 would hold
    # nine 12s); h1 (or h2) keeps the 81/351 chance. A 'mistake' (0.15 <= loss < 0.30).
    d2 = a.decisions[1]
    assert (d2.event, d2.reveal_index, d2.played, d2.face_up) == (0, 1, Reveal.lowest(1), ("h0=12",))
    assert d2.p_trio_played == 0.0
    assert d2.p_trio_best == pytest.approx(P_H0, abs=1e-12)
    assert d2.loss == pytest.approx(P_H0, abs=1e-12)
    assert d2.label == "mistake"
    s0 = a.seats[0]
    assert (s0.decisions, s0.blunders, s0.mistakes) == (2, 1, 1)
    assert s0.average_loss == pytest.approx(((1 - P_H0) + P_H0) / 2, abs=1e-12)
    assert any("Blunder" in m.text and m.event == 0 and m.kind == "decision" for m in a.moments)
    assert any("l0 would have given a certain trio" in m.text for m in a.moments)


def test_labels_follow_thresholds() -> None:
    assert label_for(0.0) is None
    assert label_for(0.049) is None
    assert label_for(0.05) == "inaccuracy"
    assert label_for(0.1499) == "inaccuracy"
    assert label_for(0.15) == "mistake"
    assert label_for(0.2999) == "mistake"
    assert label_for(0.30) == "blunder"
    assert label_for(1.7) == "blunder"
    assert [name for _, name in THRESHOLDS] == ["blunder", "mistake", "inaccuracy"]


def test_viewer_record_judges_only_the_viewer_with_the_same_numbers() -> None:
    game, _ = _advisor_game(Rules(4, Mode.PICANTE), 1)
    full = analyse(Record.from_game(game), samples=0)
    seat = 2
    data = Record.from_game(game, viewer=seat).to_json()
    del data["deal"]
    viewer_rec = Record.loads(json.dumps(data))
    part = analyse(viewer_rec, samples=0)
    mine = [d for d in full.decisions if d.seat == seat]
    assert [d.seat for d in part.decisions] == [seat] * len(mine)
    assert [(d.event, d.reveal_index, d.played) for d in part.decisions] == \
        [(d.event, d.reveal_index, d.played) for d in mine]
    for x, y in zip(part.decisions, mine):
        assert x.p_trio_played == pytest.approx(y.p_trio_played, abs=1e-12)
        assert x.p_win_played == pytest.approx(y.p_win_played, abs=1e-12)
        assert x.loss == pytest.approx(y.loss, abs=1e-12)
    assert [s.seat for s in part.seats] == [seat]


# ---------------------------------------------------------------------------
# the command line


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "trio_solver", *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=300)


def test_cli_analyse_json(tmp_path: Path) -> None:
    path = tmp_path / "blunder.json"
    _blunder_record().save(path)
    proc = _cli("analyse", str(path), "--json", "--quick")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert {"winner", "decisions", "seats", "thresholds", "moments"} <= set(data)
    assert data["winner"] is None
    assert data["thresholds"] == {"blunder": 0.30, "mistake": 0.15, "inaccuracy": 0.05}
    assert data["accuracy_rule"] == "the share of choices with a loss below 1%"  # by the turn: ACCURATE
    d0 = data["decisions"][0]
    assert d0["played"] == {"highest": 0} and d0["best"] == {"lowest": 0} and d0["shown"] == 12
    assert d0["label"] == "blunder"
    assert d0["loss"] == pytest.approx(1 - P_H0, abs=1e-9)
    assert d0["p_trio_played"] == pytest.approx(P_H0, abs=1e-9)
    assert d0["p_trio_best"] == 1.0
    assert data["decisions"][1]["label"] == "mistake"
    assert [s["seat"] for s in data["seats"]] == [0, 1, 2]
    assert data["seats"][0]["blunders"] == 1
    # the same as the library
    assert data == json.loads(json.dumps(analyse(Record.load(path), samples=0).to_json()))


def test_cli_analyse_html_is_self_contained(tmp_path: Path) -> None:
    path = tmp_path / "blunder.json"
    out = tmp_path / "report.html"
    _blunder_record().save(path)
    proc = _cli("analyse", str(path), "--html", str(out), "--samples", "8")
    assert proc.returncode == 0, proc.stderr
    assert "blunder" in proc.stdout
    page = out.read_text(encoding="utf-8")
    assert page.lstrip().lower().startswith("<!doctype html>")
    assert "<svg" in page and "</svg>" in page and "</html>" in page
    # no external resource: no src/href to the network, no stylesheet link, no CSS url()/@import
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", page, re.I)
    assert "<link" not in page.lower()
    assert "@import" not in page and "url(" not in page
    assert not re.search(r"<script[^>]*\bsrc\s*=", page, re.I)
    # the only http(s) text is the SVG namespace, which is a name, not a download
    assert set(re.findall(r"https?://[^\s\"'<>]+", page)) <= {"http://www.w3.org/2000/svg"}
    assert "blunder" in page


def test_cli_analyse_bad_input(tmp_path: Path) -> None:
    proc = _cli("analyse", str(tmp_path / "missing.json"), "--json")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "trio-record/1", "rules": {"players": 3, "mode": "simple"}, "events": []}')
    proc = _cli("analyse", str(bad), "--json")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr


def test_a_record_stopped_in_a_turn_says_so() -> None:
    """A record whose last turn is still going is unfinished *in* that turn, not after it."""
    doc = json.loads((Path(__file__).resolve().parent.parent / "examples" / "full_deal_4p.json").read_text())
    doc["events"] = doc["events"][:6]
    assert analyse(Record.from_json(doc), samples=0).result() == "unfinished after 6 turns; Chloé to move"
    doc["events"][5]["reveals"] = doc["events"][5]["reveals"][:1]
    a = analyse(Record.from_json(doc), samples=0)
    assert a.result() == "unfinished in turn 6; Bob to move" and a.in_turn and a.turns == 6


def test_a_picante_result_names_the_linked_pair_that_won() -> None:
    """In Picante the goal is two linked trios (or the 7s): the result names those two, the winning one
    last, not every trio the winner took."""
    rules = Rules(3, Mode.PICANTE)
    told = set()
    for seed in range(12):
        game = play_game(rules, [make_bot("memory", random.Random(seed * 3 + s)) for s in range(3)],
                         rng=random.Random(seed))
        a = analyse(Record.from_game(game), samples=0)
        held = [v for (_, _, s, v) in a.trios if s == a.winner]
        m = re.search(r"wins with the (?:linked trios of (\d+)s and (\d+)s|trio of (\d+)s) after", a.result())
        assert m is not None, a.result()
        if m.group(3):
            assert int(m.group(3)) == held[-1] == 7
            told.add("sevens")
        else:
            first, last = int(m.group(1)), int(m.group(2))
            assert last == held[-1] and first in held[:-1] and rules.linked(first, last)
            told.add("pair" if len(held) == 2 else "pair among more")
    assert told == {"sevens", "pair", "pair among more"}


@pytest.mark.parametrize("samples", [0, 16])
def test_a_spectator_record_is_refused_by_the_library_as_by_the_command(samples: int, tmp_path: Path) -> None:
    # neither the deal nor a viewer's hand: no decision can be judged
    doc = {"format": "trio-record/1", "rules": {"players": 3, "mode": "simple"}, "events": []}
    with pytest.raises(RecordError) as e:
        analyse(Record.from_json(doc), samples=samples)
    assert str(e.value) == "record: no seat's hand is known: a spectator record cannot be analysed"
    path = tmp_path / "spectator.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "trio_solver", "analyse", "--quick", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and proc.stderr == f"trio-solver: {path}: {e.value}\n"
