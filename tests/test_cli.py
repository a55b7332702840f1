"""The ``trio-solver`` commands validate / replay / beliefs (docs/INTERFACE.md), run in-process."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from trio_solver.decide.bots import make_bot
from trio_solver.doors.cli import main
from trio_solver.report.analysis import analyse
from trio_solver.run.simulate import play_game
from trio_solver.game.state import Game
from trio_solver.game.record import Record
from trio_solver.report.render import describe_event
from trio_solver.game.rules import Rules
from trio_solver.game.events import Swap, Turn

CORPUS = Path(__file__).resolve().parent / "corpus"  # the golden games, kept in the repository
ROOT = Path(__file__).resolve().parent.parent


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def fails(capsys: pytest.CaptureFixture[str], *argv: str, code: int = 1) -> str:
    got, out, err = run(capsys, *argv)
    assert got == code, (out, err)
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("trio-solver: ")
    return err


def events_json(events: Any) -> list[dict[str, Any]]:
    return [{"turn": e.seat, "reveals": [r.to_json() for r in e.reveals]} if isinstance(e, Turn)
            else {"swap": list(e.seats), "cards": None if e.cards is None else list(e.cards)} for e in events]


def game_until(rules: Rules, seed: int, events: int) -> Game:
    rng = random.Random(seed)
    g = Game.deal(rules, rng=rng)
    while not g.over and len(g.events) < events:
        for a, b in g.swap_moment():
            g.swap(a, b, rng.choice(g.hands[a]), rng.choice(g.hands[b]))
        g.reveal(rng.choice(g.legal_reveals()))
    return g


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("records")
    out: dict[str, Path] = {}
    full = game_until(Rules(4, "simple"), 3, 10_000)
    assert full.over
    out["full"] = d / "full.json"
    Record.from_game(full, names=["Alice", "Bob", "Chloé", "Dan"]).save(out["full"])
    team = game_until(Rules(4, "picante", teams=True), 5, 10_000)
    assert any(isinstance(e, Swap) for e in team.events)
    out["team"] = d / "team.json"
    Record.from_game(team).save(out["team"])
    short = game_until(Rules(3, "simple"), 8, 6)
    view = short.view(2)
    out["viewer"] = d / "viewer.json"
    out["viewer"].write_text(json.dumps({
        "format": "trio-record/1", "rules": short.rules.to_json(), "first_player": short.table.first_player,
        "viewer": {"seat": 2, "hand": list(short.dealt.hands[2])}, "events": events_json(view.events)}))
    tv = team.view(1)
    out["team_viewer"] = d / "team_viewer.json"
    out["team_viewer"].write_text(json.dumps({
        "format": "trio-record/1", "rules": team.rules.to_json(), "first_player": team.table.first_player,
        "viewer": {"seat": 1, "hand": list(team.dealt.hands[1])}, "events": events_json(tv.events[:12])}))
    return out


# ---------------------------------------------------------------------------
# validate


def test_validate_summary(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    rec = Record.load(files["full"])
    code, out, err = run(capsys, "validate", str(files["full"]))
    assert code == 0 and err == ""
    assert out.count("\n") == 1
    trios = sum(len(t) for t in rec.view(None).trios)
    assert out.strip() == (f"valid: 4 players, simple; {len(rec.events)} events, {trios} trios; "
                           f"seat {rec.winner} won [full deal]")
    code, out, _ = run(capsys, "validate", str(files["viewer"]))
    keeper = Record.load(files["viewer"]).viewer
    assert keeper is not None
    assert code == 0 and out.strip().endswith(f"to move [viewer record, seat {keeper.seat}]")
    # the same record without its keeper is a spectator's
    doc = json.loads(files["viewer"].read_text(encoding="utf-8"))
    del doc["viewer"]
    spectator = files["viewer"].with_name("spectator.json")
    spectator.write_text(json.dumps(doc), encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(spectator))
    assert code == 0 and out.strip().endswith("to move [spectator record]")
    code, out, _ = run(capsys, "validate", "--json", str(files["viewer"]))
    data = json.loads(out)
    assert data["valid"] and data["has_deal"] is False and data["events"] == 6 and data["winner"] is None


# ---------------------------------------------------------------------------
# replay


def test_replay_text_describes_every_event(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    rec = Record.load(files["full"])
    code, out, err = run(capsys, "replay", str(files["full"]))
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "Start of the game"
    heads = [ln for ln in lines if ln.startswith("Event ")]
    assert len(heads) == len(rec.events)
    for k, (e, head) in enumerate(zip(rec.events, heads)):
        # events from 1, as the board numbers them; turns as the analysis counts them (no swap here)
        assert head == f"Event {k + 1} of {len(rec.events)}, turn {k + 1}: {describe_event(e, rec.names)}"
        assert isinstance(e, Turn)
        # independently of render.py: who played, what was shown, and the outcome
        values = [r.value for r in e.reveals]
        assert f"seat {e.seat} ({rec.names[e.seat]}): " in head  # type: ignore[index]
        assert " ".join(str(r) for r in e.reveals) in head
        if len(values) == 3 and len(set(values)) == 1:
            assert head.endswith(f"trio of {values[0]}s")
        else:
            assert head.endswith("failure")
    assert lines[-2] == f"Winner: seat {rec.winner} ({rec.names[rec.winner]})"  # type: ignore[index]
    # what won, in the order taken: the winner's trios, as the analysis's result names them
    won = [e.reveals[0].value for e in rec.events if isinstance(e, Turn) and e.seat == rec.winner
           and len(e.reveals) == 3 and len({r.value for r in e.reveals}) == 1]
    assert lines[-1] == ("Won with the trio of 7s" if won[-1] == 7 else
                         f"Won with the trios of {', '.join(f'{v}s' for v in won)}")
    # every hand is shown by default for a full deal
    g = Record.load(files["full"]).game(0)
    assert "[" + " ".join(map(str, g.hands[0])) + "]" in out


def test_replay_json_one_frame_per_event(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    rec = Record.load(files["team"])
    code, out, _ = run(capsys, "replay", "--json", str(files["team"]))
    assert code == 0
    data = json.loads(out)
    frames = data["frames"]
    assert len(frames) == len(rec.events) + 1
    assert frames[0]["after"] == 0 and frames[0]["event"] is None and frames[0]["description"] == "start"
    states = rec.states()
    for k, fr in enumerate(frames):
        assert fr["after"] == k
        if k:
            assert fr["event"] == k - 1
            assert fr["description"] == describe_event(rec.events[k - 1])
        g = states[k]
        assert isinstance(g, Game)
        assert fr["to_move"] == g.to_move and fr["winner"] == g.winner
        assert [h["size"] for h in fr["hands"]] == [len(h) for h in g.hands]
        assert [h["cards"] for h in fr["hands"]] == g.hands  # --seat all (default for a full deal)
        assert fr["trios"] == [list(t) for t in g.table.trios]
        assert fr["swap_open"] == [list(t) for t in g.swap_moment()]
    assert frames[-1]["winner"] == rec.winner
    # --after N: the first N events only
    code, out, _ = run(capsys, "replay", "--json", "--after", "3", str(files["team"]))
    assert code == 0 and len(json.loads(out)["frames"]) == 4


def test_replay_seat_hides_other_hands(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    rec = Record.load(files["team"])
    code, out, _ = run(capsys, "replay", "--json", "--seat", "1", str(files["team"]))
    assert code == 0
    data = json.loads(out)
    assert data["seat"] == 1
    states = rec.states()
    for k, fr in enumerate(data["frames"]):
        g = states[k]
        assert isinstance(g, Game)
        for h in fr["hands"]:
            if h["seat"] == 1:
                assert h["cards"] == list(g.hands[1])
            else:  # only the cards shown (and not moved since): true, and known to every player
                assert all(v is None or v == t for v, t in zip(h["cards"], g.hands[h["seat"]]))
                assert [v is not None for v in h["cards"]] == h["public"]
        # swap values are secret to the other team
        if k and isinstance(rec.events[k - 1], Swap):
            e = rec.events[k - 1]
            assert isinstance(e, Swap)
            mine = rec.rules.team_of(e.seats[0]) == rec.rules.team_of(1)
            assert ("gives" in fr["description"]) is mine
            assert ("secretly" in fr["description"]) is not mine
    assert data["frames"][0]["centre"] == []  # team play
    # text: the other hands are question marks
    code, text, _ = run(capsys, "replay", "--seat", "1", "--after", "0", str(files["team"]))
    assert code == 0
    hands = [ln for ln in text.splitlines() if ln.startswith("  seat ")]
    g0 = rec.game(0)
    assert "[" + " ".join(map(str, g0.hands[1])) + "]" in hands[1]
    for s in (0, 2, 3):
        assert "[" + " ".join("?" * len(g0.hands[s])) + "]" in hands[s]
        assert "[" + " ".join(map(str, g0.hands[s])) + "]" not in text
    # a spectator sees only the cards every player knows, and no centre value before it is shown
    code, out, _ = run(capsys, "replay", "--json", "--seat", "none", str(files["full"]))
    frames = json.loads(out)["frames"]
    assert all([v is not None for v in h["cards"]] == h["public"] for fr in frames for h in fr["hands"])
    assert all(v is None for h in frames[0]["hands"] for v in h["cards"])
    assert all(c["known"] is None for c in frames[0]["centre"])


def test_replay_viewer_record(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    rec = Record.load(files["viewer"])
    code, out, _ = run(capsys, "replay", "--json", str(files["viewer"]))
    assert code == 0
    data = json.loads(out)
    assert data["seat"] == 2 and len(data["frames"]) == len(rec.events) + 1
    final = data["frames"][-1]
    assert final["hands"][2]["cards"] == list(rec.view().hand or ())
    for h in final["hands"][:2]:  # the others: only what every player knows
        assert [v is not None for v in h["cards"]] == h["public"]
    err = fails(capsys, "replay", "--seat", "0", str(files["viewer"]))
    assert "knows only seat 2's hand" in err
    fails(capsys, "replay", "--seat", "all", str(files["viewer"]))
    fails(capsys, "beliefs", "--seat", "1", "--json", str(files["viewer"]))
    # the spectator's view of a viewer record is allowed
    code, out, _ = run(capsys, "replay", "--json", "--seat", "none", str(files["viewer"]))
    assert code == 0 and all([v is not None for v in h["cards"]] == h["public"]
                             for h in json.loads(out)["frames"][-1]["hands"])


def test_replay_team_viewer_record_as_spectator(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    code, out, err = run(capsys, "replay", "--json", "--seat", "none", str(files["team_viewer"]))
    assert code == 0, err
    frames = json.loads(out)["frames"]
    assert all("gives" not in fr["description"] for fr in frames)
    code, out, _ = run(capsys, "replay", "--json", str(files["team_viewer"]))
    assert code == 0
    descriptions = [fr["description"] for fr in json.loads(out)["frames"]]
    assert any("gives" in d for d in descriptions)  # the viewer's own team swap


def test_seat_options(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    """``--seat default`` is the record's own view (:meth:`Record.seat`); ``--seat all`` is the replay's
    alone, and the other commands refuse it in their own words, naming the option."""
    full = str(files["full"])
    for command in ("replay", "beliefs", "evaluate"):
        extra = ["--samples", "10"] if command == "evaluate" else []
        assert run(capsys, command, "--json", "--seat", "default", full, *extra)[1] == \
            run(capsys, command, "--json", full, *extra)[1]
    for command, refusal in (("beliefs", "beliefs are for one seat or 'none' (a spectator)"),
                             ("advise", "advice is for the seat to move, whose hand must be known"),
                             ("evaluate", "evaluate is for one seat or 'none' (a spectator)")):
        assert fails(capsys, command, "--seat", "all", full) == f"trio-solver: {full}: --seat: {refusal}\n"
    assert fails(capsys, "advise", "--seat", "none", full) == \
        f"trio-solver: {full}: --seat: advice is for the seat to move, whose hand must be known\n"
    # a spectator's record, whose own view is the spectator's: the same refusal, with no Python word in it
    spectator = files["full"].with_name("spectator.json")
    data = json.loads(files["viewer"].read_text(encoding="utf-8"))
    del data["viewer"]
    spectator.write_text(json.dumps(data), encoding="utf-8")
    assert fails(capsys, "advise", str(spectator)) == \
        f"trio-solver: {spectator}: --seat: advice is for the seat to move, whose hand must be known\n"
    assert fails(capsys, "replay", "--seat", "4", full) == \
        f"trio-solver: {full}: --seat: expected a seat 0 to 3, 'none' (a spectator) or 'all', got 4\n"


def test_replay_bad_requests(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    n = len(Record.load(files["full"]).events)
    assert "--after" in fails(capsys, "replay", "--after", str(n + 1), str(files["full"]))
    fails(capsys, "replay", "--seat", "9", str(files["full"]))
    fails(capsys, "replay", "--seat", "oops", str(files["full"]), code=2)
    assert fails(capsys, "replay", str(files["full"]), "--colour", code=2) == \
        "trio-solver: unrecognized arguments: --colour (see 'trio-solver replay --help')\n"
    fails(capsys, "replay", str(files["full"].with_name("missing.json")), code=2)


# ---------------------------------------------------------------------------
# beliefs (a smoke test of the contract; the model has its own tests)


def test_beliefs_json_contract(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    code, out, err = run(capsys, "beliefs", "--json", str(files["viewer"]))
    assert code == 0, err
    data = json.loads(out)
    view = Record.load(files["viewer"]).view()
    assert data["seat"] == 2 and data["to_move"] == view.to_move
    for section in ("centre", "lowest", "highest"):
        for dist in data[section].values():
            assert abs(sum(dist.values()) - 1) < 1e-9
            assert all(1 <= int(v) <= 12 and p > 0 for v, p in dist.items())
    assert set(data["lowest"]) == {str(s) for s in range(3) if view.sizes[s] > 0}
    assert data["lowest"]["2"] == {str(view.hand[0]): 1.0}  # type: ignore[index]


# ---------------------------------------------------------------------------
# as a separate process (the real standard streams)


def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "trio_solver", *argv], capture_output=True, text=True,
                          timeout=120, env=env, encoding="utf-8", errors="replace")


def test_process_exit_codes(tmp_path: Path, files: dict[str, Path]) -> None:
    ok = _cli("validate", str(files["full"]))
    assert ok.returncode == 0 and ok.stdout.startswith("valid: ") and ok.stderr == ""
    # a name that cannot be written out (lone surrogate escape): refused, no traceback
    doc = json.loads(files["full"].read_text(encoding="utf-8"))
    doc["names"] = ["\ud800", "b", "c", "d"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc, ensure_ascii=True), encoding="utf-8")
    for cmd in ("validate", "replay"):
        p = _cli(cmd, str(bad))
        assert p.returncode == 1 and p.stdout == ""
        assert "Traceback" not in p.stderr and p.stderr.count("\n") == 1
    usage = _cli("replay", "--nope", str(bad))
    assert usage.returncode == 2 and "Traceback" not in usage.stderr


def test_corpus_replay_json(capsys: pytest.CaptureFixture[str]) -> None:
    path = CORPUS / "p6_picante_teams_bot.json"
    rec = Record.load(path)
    code, out, _ = run(capsys, "replay", "--json", str(path))
    assert code == 0
    frames = json.loads(out)["frames"]
    assert len(frames) == len(rec.events) + 1 and frames[-1]["winner"] == rec.winner


def test_finished_games_and_swaps_are_told_in_80_columns(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    """A finished game is over, not 'to move', in a header that holds in 80 columns; a swap names who gives
    what; the last line of a replay names the seat to move as the table does."""
    teams = str(ROOT / "examples" / "teams_4p.json")
    code, out, _ = run(capsys, "evaluate", teams, "--samples", "10")
    assert code == 0 and out.splitlines()[0] == "The game is over after 11 events (team North & South won):"
    code, out, _ = run(capsys, "beliefs", teams)
    head = out.splitlines()[0]
    assert head.endswith(" after 11 events (team North & South won)") and len(head) <= 80
    code, out, _ = run(capsys, "replay", teams)
    swaps = [ln for ln in out.splitlines() if " swap: " in ln]
    assert swaps[0] == "Event 1 of 11: swap: seat 0 (North) gives 6, seat 2 (South) gives 6"
    assert all(len(ln) <= 80 for ln in swaps)
    code, out, _ = run(capsys, "replay", str(ROOT / "examples" / "viewer_3p_picante.json"))
    assert out.splitlines()[-1] == "Seat 2 (Cleo) to move"
    # a Picante game won: the two linked trios that won, as the analysis names them
    rules = Rules(3, "picante")
    for seed in range(6):
        game = play_game(rules, [make_bot("memory", random.Random(seed * 3 + s)) for s in range(3)],
                         rng=random.Random(seed))
        record = Record.from_game(game)
        record.save(tmp_path / f"p{seed}.json")
        result = analyse(record, samples=0).result()
        won = run(capsys, "replay", str(tmp_path / f"p{seed}.json"))[1].splitlines()[-1]
        assert won.startswith("Won with the ") and won[len("Won "):] in result, (won, result)


def test_replay_json_is_the_json_of_the_library_s_replay(capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """`replay --json` writes each frame as it is made: the text is json.dumps of queries.replay's object, for every
    view and length, and the same when the output is written in small pieces."""
    from trio_solver.doors import cli, queries

    for name, seat, after in (("full_deal_4p.json", "all", None), ("full_deal_4p.json", "2", "5"),
                              ("viewer_3p_picante.json", "1", None), ("teams_4p.json", "none", "0"),
                              ("in_progress_5p.json", "2", None)):
        path = ROOT / "examples" / name
        argv = ["replay", str(path), "--json", "--seat", seat] + ([] if after is None else ["--after", after])
        code, out, err = run(capsys, *argv)
        choice: Any = seat if seat == "all" else None if seat == "none" else int(seat)
        want = json.dumps(queries.replay(Record.load(path), choice, None if after is None else int(after)))
        assert (code, err, out) == (0, "", want + "\n")
        text = run(capsys, "replay", str(path), "--seat", seat)[1]
        monkeypatch.setattr(cli, "_PIECE", 7)
        assert run(capsys, *argv)[1] == out and run(capsys, "replay", str(path), "--seat", seat)[1] == text
        monkeypatch.undo()
