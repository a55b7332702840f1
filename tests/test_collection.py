"""Analysis of many games: totals per player name, the same with any number of workers, CSV/JSON,
per-game reports, bad files listed and left out."""

from __future__ import annotations

import csv
import io
import json
import os
import random
import stat
from pathlib import Path

import pytest

from trio_solver._text import name_key
from trio_solver.report.analysis import analyse, player_names
from trio_solver.decide.bots import make_bot
from trio_solver.doors.cli import main
from trio_solver.run.collection import PlayerTotals, analyse_files, record_paths, report_stems
from trio_solver.game.record import Record
from trio_solver.game.rules import Rules
from trio_solver.run.simulate import play_game

NAMES = ["Ann", "Ben", "Cat"]



@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four 3-player games; the players sit in different seats from game to game."""
    d = tmp_path_factory.mktemp("games")
    for i in range(4):
        bots = [make_bot(k, random.Random(i * 7 + s)) for s, k in enumerate(["memory", "random", "memory"])]
        game = play_game(Rules(3), bots, rng=random.Random(100 + i), first_player=i % 3)
        names = NAMES[i % 3:] + NAMES[:i % 3]
        Record.from_game(game, names=names).save(d / f"g{i}.json")
    (d / "notes.txt").write_text("not a record")
    return d


def test_the_collection_does_not_depend_on_the_workers(games: Path) -> None:
    paths = record_paths([str(games)])
    one = analyse_files(paths, samples=0, workers=1).to_json()
    two = analyse_files(paths, samples=0, workers=2).to_json()
    assert one == two and [o["path"] for o in one["files"]] == paths


def test_totals_per_name_are_the_sums_of_the_games(games: Path) -> None:
    paths = record_paths([str(games)])
    assert [os.path.basename(p) for p in paths] == ["g0.json", "g1.json", "g2.json", "g3.json"]
    seen: list[tuple[int, int]] = []
    c = analyse_files(paths, samples=0, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(k, 4) for k in range(1, 5)]
    singles = [analyse(Record.load(p), samples=0) for p in paths]
    totals = {t.name: t for t in c.players()}
    assert set(totals) == set(NAMES)
    for name in NAMES:
        t = totals[name]
        mine = [(a, a.players.index(name)) for a in singles]
        assert t.games == 4
        assert t.wins == sum(1 for a, s in mine if a.winner == s)
        assert t.decisions == sum(a.seats[s].decisions for a, s in mine)
        assert t.blunders == sum(a.seats[s].blunders for a, s in mine)
        assert t.mistakes == sum(a.seats[s].mistakes for a, s in mine)
        assert t.inaccuracies == sum(a.seats[s].inaccuracies for a, s in mine)
        loss = sum(d.loss for a, s in mine for d in a.decisions if d.seat == s and d.scored)
        assert t.average_loss == pytest.approx(loss / t.decisions)
    assert sum(t.wins for t in c.players()) == 4  # one winner a game


def test_names_that_look_the_same_are_one_player(games: Path, tmp_path: Path) -> None:
    """"Åsa" typed as one character in one game and as "A" and a combining ring in another, or with a
    variation selector, is one player in the totals, under the spelling met first."""
    composed, decomposed = "\u00c5sa", "A\u030asa"
    assert composed != decomposed and name_key(composed) == name_key(decomposed) == name_key(composed + "\ufe0f")
    for i, name in enumerate([composed, decomposed, composed + "\ufe0f"]):
        doc = json.loads((games / f"g{i}.json").read_text())
        doc["names"] = [name if n == "Ann" else n for n in doc["names"]]
        (tmp_path / f"g{i}.json").write_text(json.dumps(doc))
    totals = {t.name: t for t in analyse_files(record_paths([str(tmp_path)]), samples=0).players()}
    assert set(totals) == {composed, "Ben", "Cat"} and totals[composed].games == 3
    # within one game, two seats whose names look the same are told apart by their seats
    doc = json.loads((games / "g0.json").read_text())
    doc["names"] = [composed, decomposed, "Cat"]
    assert player_names(Record.from_json(doc)) == (f"{composed} (seat 0)", f"{decomposed} (seat 1)", "Cat")
    # a blank name is its seat (a joiner alone shows nothing either), told apart from a name "seat 1"
    doc["names"] = [" ", "\u200d", "Cat"]
    assert player_names(Record.from_json(doc)) == ("seat 0", "seat 1", "Cat")
    doc["names"] = ["seat 1", " ", "Cat"]
    assert player_names(Record.from_json(doc)) == ("seat 1 (seat 0)", "seat 1 (seat 1)", "Cat")



def _totals_with_ann_spelled(games: Path, tmp_path: Path, spellings: list[str]) -> dict[str, PlayerTotals]:
    """The collection's totals by name, game ``i`` of ``games`` with its "Ann" written ``spellings[i]``."""
    for i, name in enumerate(spellings):
        doc = json.loads((games / f"g{i}.json").read_text())
        doc["names"] = [name if n == "Ann" else n for n in doc["names"]]
        (tmp_path / f"g{i}.json").write_text(json.dumps(doc))
    return {t.name: t for t in analyse_files(record_paths([str(tmp_path)]), samples=0).players()}


def test_spaces_and_joiners_that_show_nothing_do_not_make_another_player(games: Path, tmp_path: Path) -> None:
    """"Ann", "Ann " (a space at the end), " Ann" and "Ann" with a zero-width joiner look the same: one player
    in the totals, and two seats of one game so named are told apart by their seats. A no-break space, or two
    spaces, between two words is the one space a reader sees."""
    assert len({name_key(n) for n in ["Ann Lee", " Ann Lee", "Ann\u00a0Lee", "Ann  Lee ", "Ann Lee\u200d",
                                       "Ann\u200c Lee"]}) == 1
    assert name_key("Ann Lee") != name_key("AnnLee")
    totals = _totals_with_ann_spelled(games, tmp_path, ["Ann", "Ann ", "Ann\u200d"])
    assert set(totals) == {"Ann", "Ben", "Cat"} and totals["Ann"].games == 3
    doc = json.loads((games / "g0.json").read_text())
    doc["names"] = ["Bob", " Bob", "Bob\u200d"]
    assert player_names(Record.from_json(doc)) == ("Bob (seat 0)", " Bob (seat 1)", "Bob\u200d (seat 2)")


def test_a_blank_name_is_a_player_of_its_file_only(games: Path, tmp_path: Path) -> None:
    """Two games where one player's name is blank are two players, as two unnamed seats are; the named seats
    of the same files are still one player each across them."""
    seats = []
    for i in (0, 1):
        doc = json.loads((games / f"g{i}.json").read_text())
        seats.append(doc["names"].index("Ann"))
        doc["names"][seats[-1]] = " "
        (tmp_path / f"b{i}.json").write_text(json.dumps(doc))
    totals = {t.name: t for t in analyse_files(record_paths([str(tmp_path)]), samples=0).players()}
    assert {f"seat {seats[0]} in {tmp_path / 'b0.json'}", f"seat {seats[1]} in {tmp_path / 'b1.json'}"} <= set(totals)
    named = [t for name, t in totals.items() if not name.startswith("seat ")]
    assert len(named) == 2 and all(t.games == 2 for t in named)


def test_unnamed_seats_unfinished_games_and_the_method_are_told(games: Path, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Two records without names are not one set of players ("seat 0" of one game is not "seat 0" of
    another); a game cut before its end is counted as unfinished, neither won nor lost; the summary says how
    the games were judged; a file that cannot be read is named once; --all belongs to one game."""
    for i in (0, 1):
        doc = json.loads((games / f"g{i}.json").read_text())
        del doc["names"]
        (tmp_path / f"n{i}.json").write_text(json.dumps(doc))
    cut = json.loads((games / "g2.json").read_text())
    cut["events"] = cut["events"][:4]
    (tmp_path / "cut.json").write_text(json.dumps(cut))
    (tmp_path / "empty.json").write_text("")
    c = analyse_files(record_paths([str(tmp_path)]), samples=0)
    totals = {t.name: t for t in c.players()}
    assert {f"seat 0 in {tmp_path / 'n0.json'}", f"seat 0 in {tmp_path / 'n1.json'}"} <= set(totals)
    assert "seat 0" not in totals
    assert all(t.games == 1 for name, t in totals.items() if name.startswith("seat "))
    cut_players = [t for t in totals.values() if t.unfinished]
    assert sorted(t.name for t in cut_players) == sorted(cut["names"]) and all(t.wins == 0 for t in cut_players)
    assert c.judged_by == "turn" == analyse(Record.load(games / "g0.json"), samples=0).judged_by
    assert main(["analyse", str(tmp_path), "--quick"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 games analysed (1 unfinished: neither won nor lost), 1 file skipped\n"
                          "Judged by: the chances of this turn (trio chance + win now), not the whole game\n")
    assert f"skipped {tmp_path / 'empty.json'}: the file is empty" in out and out.count("empty.json") == 1
    assert main(["analyse", str(tmp_path), "--quick", "--all"]) == 2
    assert "--all is for one game" in capsys.readouterr().err
    # how the games were judged comes from the options, as a game's own JSON gives it
    assert main(["analyse", str(tmp_path / "empty.json"), str(tmp_path / "cut.json"), "--json", "--samples", "2",
                 "--seed", "5"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["judged_by"], data["samples"], data["seed"], data["confidence"]) == ("game", 2, 5, 0.95)
    # a file whose name holds a line break is named once too
    odd = tmp_path / "bad\nname.json"
    odd.write_text("")
    c = analyse_files([str(odd)], samples=0)
    assert c.failed[0].error == "the file is empty"


def test_workers_give_the_same_results(games: Path) -> None:
    paths = record_paths([str(games)])
    one = analyse_files(paths, samples=2, seed=1, workers=1)
    two = analyse_files(paths, samples=2, seed=1, workers=2)
    assert json.dumps(one.to_json()) == json.dumps(two.to_json())
    assert [t.to_json() for t in one.players()] == [t.to_json() for t in two.players()]


def test_cli_collection_csv_json_reports_and_bad_files(games: Path, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": "trio-record/1"')
    assert main(["analyse", str(games), str(bad), "--quick", "--csv"]) == 0
    out, err = capsys.readouterr()
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["name"] for r in rows} == set(NAMES) and all(r["games"] == "4" for r in rows)
    assert err.startswith(f"trio-solver: note: skipped {bad}: ") and err.count("\n") == 1  # left out, and said
    assert main(["analyse", str(games), str(bad), "--quick", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 4 and len(data["files"]) == 5
    broken = [f for f in data["files"] if f["error"]]
    assert [os.path.basename(f["path"]) for f in broken] == ["broken.json"]
    out_dir = tmp_path / "reports"
    out_dir.mkdir()
    assert main(["analyse", str(games), "--quick", "--reports", str(out_dir)]) == 0
    text = capsys.readouterr().out
    assert "4 games analysed" in text and "Ann" in text and "accuracy" in text
    made = sorted(p.name for p in out_dir.iterdir())
    assert made == sorted(f"g{i}.{ext}" for i in range(4) for ext in ("txt", "html"))
    mode = stat.S_IMODE(os.stat(out_dir / "g0.html").st_mode)
    assert mode & 0o044 == 0o044  # readable by others: reports are for sharing
    # one file is one game; --csv needs a collection; a directory of nothing is an error
    assert main(["analyse", str(games / "g0.json"), "--quick", "--csv"]) == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["analyse", str(empty), "--quick"]) == 2
    err = capsys.readouterr().err
    assert "no .json record files" in err and "Traceback" not in err


def test_reports_of_games_with_the_same_file_name_are_all_kept(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Two folders' `g.json` get two reports (`g`, then `g-2`, said in the output); a file named twice is
    analysed once."""
    examples = Path(__file__).resolve().parent.parent / "examples"
    for folder, name in (("c1", "full_deal_4p.json"), ("c2", "teams_4p.json")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "g.json").write_text((examples / name).read_text())
    out = tmp_path / "out"
    out.mkdir()
    first, second = str(tmp_path / "c1" / "g.json"), str(tmp_path / "c2" / "g.json")
    assert record_paths([first, second, first, str(tmp_path / "c1")]) == [first, second]
    assert report_stems(["a/g.json", "b/g.json", "c/g-2.json", "d/g.json"]) == ["g", "g-2", "g-2-2", "g-3"]
    capsys.readouterr()
    assert main(["analyse", "--quick", "--reports", str(out), first, second, first]) == 0
    text = capsys.readouterr().out
    assert sorted(p.name for p in out.iterdir()) == ["g-2.html", "g-2.txt", "g.html", "g.txt"]
    assert f"for 2 games written in {out} (g-2 is {second})" in text
    assert "teams" in (out / "g-2.txt").read_text() and "teams" not in (out / "g.txt").read_text()
    # a missing folder is made, as simulate --save makes its own; one in a missing folder is refused first
    made = tmp_path / "made"
    assert main(["analyse", "--quick", "--reports", str(made), first, second]) == 0
    assert sorted(p.name for p in made.iterdir()) == ["g-2.html", "g-2.txt", "g.html", "g.txt"]
    # refused before any game is judged, as an output in a missing folder is (status 1, as simulate --save)
    capsys.readouterr()
    assert main(["analyse", "--quick", "--reports", str(tmp_path / "no" / "where"), first, second]) == 1
    assert capsys.readouterr().err.strip().endswith(
        f"--reports {tmp_path / 'no' / 'where'}: no such folder: {tmp_path / 'no'}")
    assert not (tmp_path / "no").exists()
    (tmp_path / "file").write_text("x")
    assert main(["analyse", "--quick", "--reports", str(tmp_path / "file"), first, second]) == 1
    assert capsys.readouterr().err.strip().endswith(f"--reports {tmp_path / 'file'}: exists and is not a directory")


def test_names_that_differ_only_in_capitals_are_one_player(games: Path, tmp_path: Path) -> None:
    """A score kept by hand at several tables writes "Ann", "ann" and "ANN ": one player in the totals, under
    the spelling met first; two seats of one game so named are told apart by their seats."""
    assert len({name_key(n) for n in ["Ann", "ann", "ANN ", "aNn"]}) == 1
    assert name_key("Straße") == name_key("STRASSE") and name_key("Ann") != name_key("Anne")
    totals = _totals_with_ann_spelled(games, tmp_path, ["Ann", "ann", "ANN "])
    assert set(totals) == {"Ann", "Ben", "Cat"} and totals["Ann"].games == 3
    doc = json.loads((games / "g0.json").read_text())
    doc["names"] = ["Bob", "BOB", "Cat"]
    assert player_names(Record.from_json(doc)) == ("Bob (seat 0)", "BOB (seat 1)", "Cat")
