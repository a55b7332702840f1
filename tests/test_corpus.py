"""The golden corpus (tests/corpus): 24 full games played by an independent engine.

Every record must load, replay to its end with the same winner (the seat of the
last turn, which takes the winning trio), round-trip through JSON, and pass
``trio-solver validate``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from trio_solver.doors.cli import main
from trio_solver.game.state import Game
from trio_solver.game.record import Record, replay_view
from trio_solver.game.reveal import Reveal
from trio_solver.game.rules import COPIES, VALUES, Rules
from trio_solver.game.events import Swap, Turn, TurnStatus

CORPUS = Path(__file__).resolve().parent / "corpus"  # the golden games, kept in the repository
FILES = sorted(CORPUS.glob("*.json")) if CORPUS.is_dir() else []


def test_the_corpus_is_all_there() -> None:
    """24 games: 3-6 players, simple and picante, team play at 4 and 6, bot and random."""
    assert len(FILES) == 24
IDS = [p.stem for p in FILES]


def raw(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def test_corpus_covers_every_setting() -> None:
    settings = set()
    for path in FILES:
        r = raw(path)["rules"]
        settings.add((r["players"], r["mode"], r.get("teams", False), path.stem.rsplit("_", 1)[1]))
    expected = {(p, m, t, k) for p in (3, 4, 5, 6) for m in ("simple", "picante") for t in (False, True)
                for k in ("bot", "random") if not t or p in (4, 6)}
    assert settings == expected
    assert len(FILES) == 24


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_corpus_record_replays_to_its_winner(path: Path) -> None:
    doc = raw(path)
    rec = Record.load(path)
    last = doc["events"][-1]
    assert "turn" in last and len(last["reveals"]) == 3
    game = rec.game()
    assert game.over
    assert game.winner == last["turn"] == rec.winner
    rules = rec.rules
    assert rules.is_win(game.table.team_trios(rules.team_of(game.winner)))
    assert len(rec.events) == len(doc["events"])
    # the values the record wrote are the values the engine shows
    for e_doc, e in zip(doc["events"], rec.events):
        if isinstance(e, Turn):
            assert e.seat == e_doc["turn"]
            for r_doc, r in zip(e_doc["reveals"], e.reveals, strict=True):
                assert r.reveal.to_json() == {k: v for k, v in r_doc.items() if k != "value"}
                if "value" in r_doc:
                    assert r.value == r_doc["value"]
        else:
            assert isinstance(e, Swap) and list(e.seats) == e_doc["swap"]
    # the winning side's trios, in the order its turns took them (partners' trios interleaved)
    side = set(rules.teams_of_seats[rules.team_of(game.winner)])
    taken = [e["reveals"][0]["value"] for e in doc["events"] if "turn" in e and e["turn"] in side
             and len(e["reveals"]) == 3 and len({r["value"] for r in e["reveals"]}) == 1]
    outcome = game.outcome()
    assert outcome is not None and list(outcome.trios) == taken
    counts = {v: 0 for v in VALUES}
    for v in game.cards_in_play():
        counts[v] += 1
    for trios in game.table.trios:
        for v in trios:
            counts[v] += COPIES
    assert counts == {v: COPIES for v in VALUES}


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_corpus_game_replayed_by_the_engine_directly(path: Path) -> None:
    """The same game through Game.reveal/swap, without the record module's replay."""
    doc = raw(path)
    rules = Rules.from_json(doc["rules"])
    game = Game.from_deal(rules, doc["deal"]["hands"], doc["deal"].get("centre", []), doc.get("first_player", 0))
    for e in doc["events"]:
        assert not game.over
        if "swap" in e:
            a, b = e["swap"]
            game.swap(a, b, e["cards"][0], e["cards"][1])
            continue
        assert game.to_move == e["turn"]
        statuses = []
        for r in e["reveals"]:
            place = next(k for k in ("centre", "lowest", "highest") if k in r)
            reveal = Reveal(place, r[place])  # type: ignore[arg-type]
            if "value" in r:
                assert game.peek(reveal) == r["value"]
            statuses.append(game.reveal(reveal))
        assert TurnStatus.ONGOING not in statuses[-1:]
    assert game.over and game.winner == doc["events"][-1]["turn"]


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_corpus_round_trip(path: Path) -> None:
    rec = Record.load(path)
    for values in (True, False):
        text = rec.dumps(values=values)
        back = Record.loads(text)
        assert back.to_json() == rec.to_json()
        assert back.winner == rec.winner
        assert Record.loads(back.dumps(indent=2)).to_json() == rec.to_json()
    # the document itself survives (keys the format leaves optional are filled in)
    doc = raw(path)
    out = rec.to_json()
    assert out["deal"]["hands"] == [sorted(h) for h in doc["deal"]["hands"]]
    assert out["events"] == doc["events"]  # the corpus writes every value


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_corpus_views_of_every_seat(path: Path) -> None:
    rec = Record.load(path)
    game = rec.game()
    for seat in range(rec.rules.players):
        view = rec.view(seat)
        assert view.hand == tuple(game.hands[seat]) and view.winner == game.winner
        # the record the player at that seat would have kept replays to the same view
        mine = replay_view(rec.rules, view.events, seat=seat, hand=rec.deal.hands[seat],  # type: ignore[union-attr]
                           first_player=rec.first_player)
        assert mine.hand == view.hand and mine.trios == view.trios and mine.winner == rec.winner
        assert mine.sizes == view.sizes
    spectator = replay_view(rec.rules, rec.view(None).events, first_player=rec.first_player)
    assert spectator.winner == rec.winner and spectator.trios == tuple(tuple(t) for t in game.table.trios)


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_corpus_validate_cli(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["validate", str(path)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert err == ""
    rec = Record.load(path)
    assert out.startswith(f"valid: {rec.rules.players} players, {rec.rules.mode.value}")
    assert f"seat {rec.winner} won" in out
    assert main(["validate", "--json", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["valid"] is True and data["winner"] == rec.winner and data["events"] == len(rec.events)
    assert data["players"] == rec.rules.players and data["teams"] == rec.rules.teams
