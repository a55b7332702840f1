"""Records (docs/RECORD.md): handcrafted errors, generated malformed documents, the CLI on them.

Every malformed document must raise :class:`RecordError` with a one-line
message from :meth:`Record.loads` -- never another exception -- and the CLI must
exit 1 with one line on standard error and nothing on standard output.
"""

from __future__ import annotations

import copy
import io
import json
import os
import random
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from trio_solver import limits
from trio_solver.doors import queries
from trio_solver.doors.cli import main
from trio_solver.game.state import Game, play_random_game
from trio_solver.errors import RecordError
from trio_solver.game.record import event_to_json, MAX_RECORD_BYTES, Record, replay_view
from trio_solver.game.reveal import Reveal
from trio_solver.game.rules import Rules
from trio_solver.game.events import Swap, Turn

CORPUS = Path(__file__).resolve().parent / "corpus"  # the golden games, kept in the repository
CORPUS_FILES = sorted(CORPUS.glob("*.json")) if CORPUS.is_dir() else []

FUZZ = settings(derandomize=True, database=None, deadline=None, max_examples=60,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.large_base_example, HealthCheck.data_too_large])


# ---------------------------------------------------------------------------
# base documents


def _stop_early(rules: Rules, seed: int, turns: int) -> Game:
    """A random game stopped after ``turns`` events (or at its end)."""
    rng = random.Random(seed)
    g = Game.deal(rules, rng=rng)
    while not g.over and len(g.events) < turns:
        for a, b in g.swap_moment():
            g.swap(a, b, rng.choice(g.hands[a]), rng.choice(g.hands[b]))
        g.reveal(rng.choice(g.legal_reveals()))
    return g


def events_json(events: Any) -> list[dict[str, Any]]:
    return [event_to_json(e) for e in events]


def viewer_doc(game: Game, seat: int | None) -> dict[str, Any]:
    view = game.view(seat)
    doc: dict[str, Any] = {"format": "trio-record/1", "rules": game.rules.to_json(),
                           "first_player": game.table.first_player, "events": events_json(view.events)}
    if seat is not None:
        doc["viewer"] = {"seat": seat, "hand": list(game.dealt.hands[seat])}
    return doc


def _bases() -> dict[str, dict[str, Any]]:
    full = _stop_early(Rules(4, "simple"), 7, 30)
    team = _stop_early(Rules(6, "picante", teams=True), 3, 40)
    team4 = _stop_early(Rules(4, "simple", teams=True), 12, 30)
    three = _stop_early(Rules(3, "picante"), 5, 25)
    out = {
        "full": Record.from_game(full, names=["Alice", "Bob", "Chloé", "Dan"]).to_json(),
        "full_novalues": Record.from_game(three).to_json(values=False),
        "team_full": Record.from_game(team).to_json(),
        "viewer": viewer_doc(full, 1),
        "team_viewer": viewer_doc(team4, 2),
        "spectator": viewer_doc(three, None),
        "full_and_viewer": {**Record.from_game(team4).to_json(), "viewer": {"seat": 3, "hand":
                                                                             list(team4.dealt.hands[3])}},
    }
    for name, doc in out.items():
        Record.from_json(copy.deepcopy(doc))  # every base is valid
        assert any(isinstance(e, dict) and "turn" in e for e in doc["events"]), name
    assert any("swap" in e for e in out["team_full"]["events"])
    return out


BASES = _bases()
BASE_NAMES = sorted(BASES)


def load_error(text: str | bytes) -> RecordError:
    """``Record.loads(text)`` raises RecordError with a one-line message."""
    with pytest.raises(RecordError) as info:
        Record.loads(text)
    check_message(info.value)
    return info.value


def check_message(err: RecordError) -> None:
    msg = str(err)
    assert msg and "\n" not in msg and "\r" not in msg
    if err.event is not None:
        assert msg.startswith(f"event {err.event}")


def loads_or_error(text: str | bytes) -> Record | None:
    """Either a valid record or a RecordError -- nothing else may escape."""
    try:
        return Record.loads(text)
    except RecordError as e:
        check_message(e)
        return None


def dumps(doc: Any) -> str:
    return json.dumps(doc, ensure_ascii=False)


# ---------------------------------------------------------------------------
# paths into a document


Path_ = tuple[Any, ...]


def walk(doc: Any, path: Path_ = ()) -> Iterator[tuple[Path_, Any]]:
    yield path, doc
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from walk(v, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from walk(v, path + (i,))


def get(doc: Any, path: Path_) -> Any:
    for p in path:
        doc = doc[p]
    return doc


def put(doc: Any, path: Path_, value: Any) -> Any:
    doc = copy.deepcopy(doc)
    get(doc, path[:-1])[path[-1]] = value
    return doc


def delete(doc: Any, path: Path_) -> Any:
    doc = copy.deepcopy(doc)
    del get(doc, path[:-1])[path[-1]]
    return doc


def int_paths(doc: dict[str, Any]) -> list[Path_]:
    """Places where the format wants an integer (seat, slot, card value, count)."""
    out: list[Path_] = []
    for path, v in walk(doc):
        if isinstance(v, int) and not isinstance(v, bool) and path and path[0] != "names":
            out.append(path)
    return out


def dict_paths(doc: dict[str, Any]) -> list[tuple[str, Path_]]:
    """(kind, path) of every object: top, rules, deal, viewer, event, reveal."""
    out: list[tuple[str, Path_]] = [("top", ())]
    for key in ("rules", "deal", "viewer"):
        if key in doc:
            out.append((key, (key,)))
    for i, e in enumerate(doc["events"]):
        out.append(("event", ("events", i)))
        for j, _ in enumerate(e.get("reveals", [])):
            out.append(("reveal", ("events", i, "reveals", j)))
    return out


ALLOWED = {
    "top": {"format", "rules", "names", "first_player", "deal", "viewer", "events"},
    "rules": {"players", "mode", "teams", "links"},
    "deal": {"hands", "centre"},
    "viewer": {"seat", "hand"},
    "event": {"turn", "reveals", "swap", "cards"},
    "reveal": {"centre", "lowest", "highest", "value"},
}


def required_paths(doc: dict[str, Any]) -> list[Path_]:
    out: list[Path_] = [("format",), ("rules",), ("events",), ("rules", "players"), ("rules", "mode")]
    if "deal" in doc:
        out.append(("deal", "hands"))
        if doc["deal"]["centre"]:
            out.append(("deal", "centre"))
    if "viewer" in doc:
        out += [("viewer", "seat"), ("viewer", "hand")]
    for i, e in enumerate(doc["events"]):
        for k in e:
            out.append(("events", i, k))
        for j, r in enumerate(e.get("reveals", [])):
            place = next(k for k in ("centre", "lowest", "highest") if k in r)
            out.append(("events", i, "reveals", j, place))
            if "deal" not in doc:
                out.append(("events", i, "reveals", j, "value"))
    return out


json_leaf = (st.none() | st.booleans() | st.integers(-(10**20), 10**20)
             | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12))
json_values = st.recursive(json_leaf, lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=6), c,
                                                                                          max_size=4),
                           max_leaves=12)
not_int = json_values.filter(lambda v: not (isinstance(v, int) and not isinstance(v, bool)))


# ---------------------------------------------------------------------------
# generated malformed documents (all must fail)


@FUZZ
@given(st.sampled_from(BASE_NAMES), st.data())
def test_wrong_types_where_integers_are_expected(base: str, data: st.DataObject) -> None:
    doc = BASES[base]
    path = data.draw(st.sampled_from(int_paths(doc)))
    value = data.draw(not_int)
    load_error(dumps(put(doc, path, value)))


@FUZZ
@given(st.sampled_from(BASE_NAMES), st.data())
def test_booleans_where_integers_are_expected(base: str, data: st.DataObject) -> None:
    doc = BASES[base]
    path = data.draw(st.sampled_from(int_paths(doc)))
    load_error(dumps(put(doc, path, data.draw(st.booleans()))))


@FUZZ
@given(st.sampled_from(BASE_NAMES), st.data())
def test_wrong_types_of_containers_and_strings(base: str, data: st.DataObject) -> None:
    doc = BASES[base]
    paths: list[Path_] = [("format",), ("rules",), ("events",), ("rules", "mode")]
    paths += [p for p, v in walk(doc) if isinstance(v, (list, dict)) and p and p[-1] != "cards"]
    paths += [("names",)] if "names" in doc else []
    paths += [("rules", "teams")]
    path = data.draw(st.sampled_from(paths))
    old = get(doc, path)
    value = data.draw(json_values.filter(lambda v: type(v) is not type(old)))
    if path == ("rules", "mode"):
        assume(value not in ("simple", "picante"))
    load_error(dumps(put(doc, path, value)))


@FUZZ
@given(st.sampled_from(BASE_NAMES), st.data())
def test_missing_keys(base: str, data: st.DataObject) -> None:
    doc = BASES[base]
    path = data.draw(st.sampled_from(required_paths(doc)))
    load_error(dumps(delete(doc, path)))


@FUZZ
@given(st.sampled_from(BASE_NAMES), st.data())
def test_unknown_keys(base: str, data: st.DataObject) -> None:
    doc = BASES[base]
    kind, path = data.draw(st.sampled_from(dict_paths(doc)))
    key = data.draw(st.text(min_size=1, max_size=10).filter(lambda k: k not in ALLOWED[kind]))
    target = copy.deepcopy(doc)
    get(target, path)[key] = data.draw(json_values)
    err = load_error(dumps(target))
    assert "unknown key" in str(err) or "exactly one of" in str(err) or "an event is a turn" in str(err)


@FUZZ
@given(st.sampled_from(BASE_NAMES), st.data())
def test_bad_seats_and_slots(base: str, data: st.DataObject) -> None:
    doc = BASES[base]
    rules = Rules.from_json(doc["rules"])
    n, k = rules.players, rules.centre_size
    places: list[tuple[Path_, int]] = [(("first_player",), n)]
    if "viewer" in doc:
        places.append((("viewer", "seat"), n))
    for i, e in enumerate(doc["events"]):
        if "swap" in e:
            places += [(("events", i, "swap", 0), n), (("events", i, "swap", 1), n)]
        else:
            places.append((("events", i, "turn"), n))
            for j, r in enumerate(e["reveals"]):
                for key in ("lowest", "highest"):
                    if key in r:
                        places.append((("events", i, "reveals", j, key), n))
                if "centre" in r:
                    places.append((("events", i, "reveals", j, "centre"), k))
    path, limit = data.draw(st.sampled_from(places))
    bad = data.draw(st.integers(limit, 10**30) | st.integers(-(10**30), -1))
    load_error(dumps(put(doc, path, bad)))


@FUZZ
@given(st.sampled_from(BASE_NAMES), st.data())
def test_wrong_turn_seat(base: str, data: st.DataObject) -> None:
    doc = BASES[base]
    n = doc["rules"]["players"]
    turns = [i for i, e in enumerate(doc["events"]) if "turn" in e]
    i = data.draw(st.sampled_from(turns))
    seat = data.draw(st.integers(0, n - 1).filter(lambda s: s != doc["events"][i]["turn"]))
    err = load_error(dumps(put(doc, ("events", i, "turn"), seat)))
    assert str(err).startswith(f"event {i} (turn of seat {seat})") and err.event == i


@FUZZ
@given(st.sampled_from(BASE_NAMES), st.data())
def test_values_outside_1_to_12(base: str, data: st.DataObject) -> None:
    doc = BASES[base]
    paths = [p for p, v in walk(doc) if isinstance(v, int) and not isinstance(v, bool)
             and (p[-1] == "value" or "hands" in p or "centre" in p[:2] or p[:2] == ("viewer", "hand")
                  or "cards" in p)]
    path = data.draw(st.sampled_from(paths))
    value = data.draw(st.integers(-(10**6), 0) | st.integers(13, 10**40))
    load_error(dumps(put(doc, path, value)))


@FUZZ
@given(st.sampled_from(BASE_NAMES), st.data())
def test_truncated_json(base: str, data: st.DataObject) -> None:
    text = dumps(BASES[base])
    cut = data.draw(st.integers(0, len(text) - 1))
    load_error(text[:cut])
    load_error(text[:cut].encode("utf-8", "ignore"))


@FUZZ
@given(st.sampled_from(BASE_NAMES), st.data())
def test_nan_and_infinity(base: str, data: st.DataObject) -> None:
    doc = BASES[base]
    path = data.draw(st.sampled_from(int_paths(doc)))
    marker = "__NUMBER__"
    text = dumps(put(doc, path, marker)).replace(json.dumps(marker), data.draw(
        st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-1e400", "4.0", "1E1"])))
    load_error(text)


@FUZZ
@given(st.sampled_from(BASE_NAMES), st.data())
def test_duplicate_keys(base: str, data: st.DataObject) -> None:
    doc = BASES[base]
    kind, path = data.draw(st.sampled_from(dict_paths(doc)))
    obj = get(doc, path)
    key = data.draw(st.sampled_from(sorted(obj)))
    marker = "__DUP__"
    target = put(doc, path + (marker,), obj[key]) if path else {**copy.deepcopy(doc), marker: obj[key]}
    text = dumps(target).replace(json.dumps(marker), json.dumps(key))
    err = load_error(text)
    assert "duplicate key" in str(err)


@FUZZ
@given(st.sampled_from(BASE_NAMES), st.data())
def test_non_utf8_bytes(base: str, data: st.DataObject) -> None:
    raw = dumps(BASES[base]).encode("utf-8")
    at = data.draw(st.integers(0, len(raw)))
    bad = data.draw(st.sampled_from([b"\xff", b"\xfe\xfe", b"\xc3(", b"\xed\xa0\x80", b"\x80", b"\xf8\x88\x80\x80\x80",
                                     b"\xe2\x82"]))
    err = load_error(raw[:at] + bad + raw[at:])
    assert "UTF-8" in str(err) or "JSON" in str(err)


@FUZZ
@given(st.sampled_from(BASE_NAMES), st.data())
def test_random_byte_damage_is_rejected_or_valid(base: str, data: st.DataObject) -> None:
    raw = bytearray(dumps(BASES[base]).encode("utf-8"))
    for _ in range(data.draw(st.integers(1, 4))):
        raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    loads_or_error(bytes(raw))


@FUZZ
@given(st.sampled_from(BASE_NAMES), st.data())
def test_any_value_anywhere_is_rejected_or_valid(base: str, data: st.DataObject) -> None:
    doc = BASES[base]
    paths = [p for p, _ in walk(doc) if p]
    path = data.draw(st.sampled_from(paths))
    value = data.draw(json_values)
    rec = loads_or_error(dumps(put(doc, path, value)))
    if rec is not None:
        assert Record.loads(rec.dumps()).to_json() == rec.to_json()


def test_deeply_nested_json() -> None:
    for depth in (10_000, 200_000):
        load_error("[" * depth + "]" * depth)
        load_error('{"format": "trio-record/1", "rules": ' + '{"a": ' * depth + "1" + "}" * depth + "}")
    load_error("[" * 500_000)
    # as deep as the parser allows: rejected by the format, message stays one line
    doc = BASES["full"]
    for depth in (50, 500, 900, 990, 999, 1000, 1100):
        nested = "[" * depth + "1" + "]" * depth
        for path in (("names",), ("first_player",), ("events", 0, "turn"), ("deal", "hands", 0),
                     ("events", 1, "reveals", 0, "value")):
            load_error(dumps(put(doc, path, "__NEST__")).replace('"__NEST__"', nested))


def test_huge_inputs() -> None:
    doc = BASES["full"]
    text = dumps(doc)
    pad = " " * (MAX_RECORD_BYTES + 1 - len(text))
    err = load_error(text + pad)
    assert "8 MB" in str(err)
    err = load_error((text + pad).encode())
    assert "8 MB" in str(err)
    big = {**doc, "names": ["x" * (MAX_RECORD_BYTES // 3)] * 4}
    load_error(dumps(big))
    many = {**doc, "events": [{"turn": 0, "reveals": [{"centre": 0}]}] * (MAX_RECORD_BYTES // 20)}
    load_error(dumps(many))
    # just below the limit (counted in UTF-8 bytes) the size is not the objection
    ok = text + " " * (MAX_RECORD_BYTES - len(text.encode()))
    assert len(ok.encode()) == MAX_RECORD_BYTES
    assert Record.loads(ok).to_json() == Record.loads(text).to_json()
    # a byte order mark is accepted in bytes and as the first character of a text; only one
    assert Record.loads("\ufeff" + text).to_json() == Record.loads(b"\xef\xbb\xbf" + text.encode()).to_json() \
        == Record.loads(text).to_json()
    load_error("\ufeff\ufeff" + text)


@pytest.mark.parametrize("text", [
    "", " ", "null", "[]", "0", '"trio-record/1"', "true", "{}", "{", "}", "\ufeff{}", "{'format': 1}",
    '{"format": "trio-record/2", "rules": {"players": 3, "mode": "simple"}, "events": []}',
    '{"format": "trio-record/1", "rules": {"players": 3, "mode": "simple"}}',
    '{"format": "trio-record/1", "rules": {"players": 3, "mode": "simple"}, "events": {}}',
    '{"format": "trio-record/1", "rules": {"players": 3, "mode": "simple"}, "events": [[]]}',
    '{"format": "trio-record/1", "rules": {"players": 3, "mode": "simple"}, "events": [{}]}',
    '{"format": "trio-record/1", "rules": {"players": 3, "mode": "simple"}, "events": [{"turn": 0, "reveals": []}]}',
    '{"format": "trio-record/1", "rules": {"players": 3, "mode": "simple"}, "events": [], "a\\nb": 1}',
    '{"format": "trio-record/1", "rules": {"players": 3, "mode": "simple"}, "events": [], "\\ud800": 1}',
    '{"format": "trio-record/1", "rules": {"players": 3, "mode": "simple"}, "names": ["\\ud800", "b", "c"], '
    '"events": []}',
    '{"format": "trio-record/1", "rules": {"players": 3, "mode": "simple"}, "events": [], '
    '"deal": {"hands": [], "x\\ny": 1}}',
    '{"format": "trio-record/1", "rules": {"players": 3, "mode": "simple"}, "events": [], '
    '"viewer": {"seat": 0, "hand": [1,1,1,2,2,2,3,3,3], "\\r": 0}}',
    '{"format": "trio-record/1", "rules": {"players": 3, "mode": "simple", "links": [[1, 2]]}, '
    '"events": [], "viewer": {"seat": 0, "hand": [1,1,1,1,2,2,3,3,3]}}',
])
def test_handcrafted_bad_documents(text: str) -> None:
    load_error(text)


# ---------------------------------------------------------------------------
# mutated corpus records


def corpus_doc(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


@FUZZ
@given(st.sampled_from(CORPUS_FILES or [Path("none")]), st.data())
def test_mutated_corpus_records(path: Path, data: st.DataObject) -> None:
    doc = corpus_doc(path)
    events = doc["events"]
    turns = [i for i, e in enumerate(events) if "turn" in e]
    how = data.draw(st.sampled_from(["value", "swap_events", "drop", "seat", "drop_last", "drop_any"]))
    if how == "value":
        i = data.draw(st.sampled_from(turns))
        j = data.draw(st.integers(0, len(events[i]["reveals"]) - 1))
        old = events[i]["reveals"][j].get("value")
        new = data.draw(st.integers(1, 12).filter(lambda v: v != old))
        if old is None:  # no value given: any value is checked against the deal
            truth = Record.from_json(doc).events[i].reveals[j].value  # type: ignore[union-attr]
            assume(new != truth)
        err = load_error(dumps(put(doc, ("events", i, "reveals", j, "value"), new)))
        assert str(err).startswith(f"event {i} (turn of seat {events[i]['turn']}), reveal ")
    elif how == "swap_events":
        pairs = [(a, b) for a in turns for b in turns if a < b and events[a]["turn"] != events[b]["turn"]]
        a, b = data.draw(st.sampled_from(pairs))
        mutated = copy.deepcopy(doc)
        mutated["events"][a], mutated["events"][b] = mutated["events"][b], mutated["events"][a]
        err = load_error(dumps(mutated))
        assert err.event is not None and err.event <= a
    elif how == "drop":
        i = data.draw(st.sampled_from(turns[:-1]))
        err = load_error(dumps(delete(doc, ("events", i))))
        assert err.event is not None and err.event >= i
    elif how == "seat":
        i = data.draw(st.sampled_from(turns))
        n = doc["rules"]["players"]
        seat = data.draw(st.integers(0, n - 1).filter(lambda s: s != events[i]["turn"]))
        err = load_error(dumps(put(doc, ("events", i, "turn"), seat)))
        assert str(err).startswith(f"event {i} (turn of seat {seat}): it is seat {events[i]['turn']}'s turn")
    elif how == "drop_last":
        rec = Record.loads(dumps(delete(doc, ("events", len(events) - 1))))
        assert rec.winner is None and not rec.game().over
    else:  # dropping any event: still valid (a swap is optional) or rejected, nothing else
        i = data.draw(st.integers(0, len(events) - 1))
        loads_or_error(dumps(delete(doc, ("events", i))))


# ---------------------------------------------------------------------------
# handcrafted errors: the message names the event as docs/RECORD.md says


def small_game() -> Game:
    # seat 0 first; hands chosen so the first turns are easy to write down
    return Game.from_deal(Rules(3), [[1, 1, 1, 2, 3, 4, 5, 6, 7], [2, 2, 3, 3, 4, 4, 5, 5, 6],
                                     [6, 7, 7, 8, 8, 9, 9, 10, 10]],
                          [8, 9, 10, 11, 11, 11, 12, 12, 12], 0)


def full_doc(events: list[dict[str, Any]], game: Game | None = None) -> dict[str, Any]:
    g = game or small_game()
    d = g.dealt
    return {"format": "trio-record/1", "rules": g.rules.to_json(), "first_player": g.table.first_player,
            "deal": {"hands": [list(h) for h in d.hands], "centre": list(d.centre)}, "events": events}


FAIL0 = {"turn": 0, "reveals": [{"lowest": 0, "value": 1}, {"highest": 0, "value": 7}]}
FAIL1 = {"turn": 1, "reveals": [{"lowest": 1, "value": 2}, {"highest": 1, "value": 6}]}
FAIL2 = {"turn": 2, "reveals": [{"lowest": 2, "value": 6}, {"highest": 2, "value": 10}]}
TRIO0 = {"turn": 0, "reveals": [{"centre": 3}, {"centre": 4}, {"centre": 5}]}


def record_error(doc: dict[str, Any]) -> str:
    with pytest.raises(RecordError) as info:
        Record.loads(dumps(doc))
    check_message(info.value)
    return str(info.value)


def test_valid_small_record() -> None:
    rec = Record.loads(dumps(full_doc([FAIL0, FAIL1, FAIL2, TRIO0])))
    assert rec.view(None).to_move == 1 and rec.view(None).trios == ((11,), (), ())
    assert rec.game().centre[3:6] == [None] * 3


def test_message_wrong_turn_seat_at_event_3() -> None:
    msg = record_error(full_doc([FAIL0, FAIL1, FAIL2, {**FAIL1}]))
    assert msg.startswith("event 3 (turn of seat ")
    assert msg == "event 3 (turn of seat 1): it is seat 0's turn, not seat 1's"


def test_message_wrong_value() -> None:
    bad = {"turn": 1, "reveals": [{"lowest": 1, "value": 2}, {"highest": 1, "value": 5}]}
    msg = record_error(full_doc([FAIL0, bad]))
    assert msg == "event 1 (turn of seat 1), reveal 1: h1=5, but the deal puts a 6 there"


def test_message_third_reveal_after_a_mismatch() -> None:
    bad = {"turn": 0, "reveals": [{"lowest": 0}, {"highest": 0}, {"centre": 0}]}
    msg = record_error(full_doc([bad]))
    assert msg == "event 0 (turn of seat 0), reveal 2: the turn already ended (failure) at reveal 1"


def test_message_same_seat_again_after_a_trio() -> None:
    msg = record_error(full_doc([TRIO0, {**FAIL0}]))
    assert msg == "event 1 (turn of seat 0): it is seat 1's turn, not seat 0's"


def test_message_event_after_the_win() -> None:
    g = Game.from_deal(Rules(3), [[1, 1, 1, 2, 3, 4, 5, 6, 8], [2, 2, 3, 3, 4, 4, 5, 5, 6],
                                  [6, 8, 8, 9, 9, 10, 10, 11, 11]], [7, 7, 7, 9, 10, 11, 12, 12, 12], 0)
    win = {"turn": 0, "reveals": [{"centre": 0}, {"centre": 1}, {"centre": 2}]}
    msg = record_error(full_doc([win, FAIL1], g))
    assert msg.startswith("event 1 (turn of seat 1): the game is over: seat 0 won")


def test_message_illegal_reveal() -> None:
    bad = {"turn": 1, "reveals": [{"centre": 3}, {"centre": 3}]}
    msg = record_error(full_doc([FAIL0, bad]))
    assert msg.startswith("event 1 (turn of seat 1), reveal 1: c3: centre slot 3 is already face up")
    bad = {"turn": 0, "reveals": [{"centre": 9}]}
    assert record_error(full_doc([bad])).startswith("event 0 (turn of seat 0), reveal 0: c9: there is no centre slot")
    bad = {"turn": 0, "reveals": [{"lowest": 3}]}
    assert record_error(full_doc([bad])).startswith("event 0 (turn of seat 0), reveal 0: l3: there is no seat 3")


def test_message_turn_in_progress_not_last() -> None:
    partial = {"turn": 0, "reveals": [{"lowest": 0}, {"lowest": 0}]}
    msg = record_error(full_doc([partial, FAIL1]))
    assert msg.startswith("event 0 (turn of seat 0): the turn stops after 2 equal value(s)")
    # as the last event it is a turn in progress
    rec = Record.loads(dumps(full_doc([FAIL0, FAIL1, FAIL2, partial])))
    assert rec.view(None).turn == ((Reveal.lowest(0), 1), (Reveal.lowest(0), 1))
    assert rec.game().to_move == 0


def test_message_swap_outside_a_moment() -> None:
    g = Game.deal(Rules(4, teams=True), seed=1, first_player=0)
    a, b = g.hands[0][0], g.hands[2][0]
    doc = full_doc([{"swap": [0, 2], "cards": [a, b]}, {"swap": [0, 2], "cards": [b, a]}], g)
    msg = record_error(doc)
    assert msg.startswith("event 1 (swap of seats 0 and 2): swap [0, 2]: this team already swapped")
    doc = full_doc([{"swap": [0, 1], "cards": [a, g.hands[1][0]]}], g)
    assert record_error(doc).startswith("event 0 (swap of seats 0 and 1): ")
    doc = full_doc([{"swap": [0, 2], "cards": None}], g)
    assert record_error(doc) == "event 0 (swap of seats 0 and 2): 'cards' is required in a record with a deal"
    plain = full_doc([{"swap": [0, 2], "cards": [1, 1]}], Game.deal(Rules(4), seed=1))
    assert "only in team play" in record_error(plain)


VIEWER_DOC = {"format": "trio-record/1", "rules": {"players": 3, "mode": "simple"},
              "viewer": {"seat": 0, "hand": [1, 1, 1, 2, 3, 4, 5, 6, 7]}}


def test_message_viewer_record_missing_value() -> None:
    doc = {**VIEWER_DOC, "events": [{"turn": 0, "reveals": [{"centre": 4, "value": 11}, {"lowest": 1}]}]}
    assert record_error(doc) == ("event 0 (turn of seat 0), reveal 1: 'value' is required in a record without "
                                 "a deal")


def test_message_viewer_record_fourth_copy() -> None:
    events = [
        {"turn": 0, "reveals": [{"centre": 0, "value": 9}, {"centre": 1, "value": 9}, {"centre": 2, "value": 5}]},
        {"turn": 1, "reveals": [{"centre": 0, "value": 9}, {"centre": 1, "value": 9}, {"centre": 3, "value": 9}]},
        {"turn": 2, "reveals": [{"centre": 4, "value": 9}]},
    ]
    msg = record_error({**VIEWER_DOC, "events": events})
    assert msg.startswith("event 2 (turn of seat 2), reveal 0: this would be a fourth card of value 9")


def test_message_viewer_record_lowest_above_shown_highest() -> None:
    events = [
        {"turn": 0, "reveals": [{"highest": 1, "value": 5}, {"centre": 0, "value": 6}]},
        {"turn": 1, "reveals": [{"lowest": 1, "value": 9}]},
    ]
    msg = record_error({**VIEWER_DOC, "events": events})
    assert msg.startswith("event 1 (turn of seat 1), reveal 0: seat 1 shows 9, above the highest card 5")


@pytest.mark.parametrize("hand, message", [
    ("123", "viewer.hand: expected a list of card values, got a string"),
    ([1, 2, 3, 4, 5, 6, 7, 8, 13], "viewer.hand[8]: card values are 1 to 12, got 13"),
    ([1, 2, 3], "viewer.hand: 3 cards, the rules deal 9"),
    ([1, 1, 1, 1, 2, 3, 4, 5, 6], "viewer.hand: 4 cards of value 1, the deck has 3"),
])
def test_a_hand_is_read_by_one_rule(hand: Any, message: str) -> None:
    """A viewer's hand in a record and a hand given to a position fail with the same line."""
    doc = {"format": "trio-record/1", "rules": {"players": 3, "mode": "simple"}, "events": [],
           "viewer": {"seat": 0, "hand": hand}}
    assert record_error(doc) == message
    with pytest.raises(RecordError) as e:
        replay_view(Rules(3), (), seat=0, hand=hand)
    assert str(e.value) == message


def test_message_viewer_hand_contradicted() -> None:
    events = [{"turn": 0, "reveals": [{"lowest": 0, "value": 2}]}]
    msg = record_error({**VIEWER_DOC, "events": events})
    assert msg.startswith("event 0 (turn of seat 0), reveal 0: l0=2 contradicts the viewer's hand")


def test_message_viewer_and_deal_disagree() -> None:
    doc = {**full_doc([]), "viewer": {"seat": 1, "hand": [1, 1, 1, 2, 3, 4, 5, 6, 7]}}
    assert record_error(doc).startswith("viewer.hand: ")


def test_message_spectator_record_sees_no_swap_values() -> None:
    doc = {"format": "trio-record/1", "rules": {"players": 4, "mode": "simple", "teams": True},
           "events": [{"swap": [1, 3], "cards": [4, 5]}]}
    assert "secret" in record_error(doc)
    doc["events"] = [{"swap": [1, 3], "cards": None}]
    assert Record.loads(dumps(doc)).view(None).swap_open == ((0, 2),)


def test_spectator_view_of_a_viewer_team_record() -> None:
    g = _stop_early(Rules(4, teams=True), 9, 20)
    doc = viewer_doc(g, 1)
    own = [e for e in doc["events"] if "swap" in e and e["cards"] is not None]
    assert own  # the viewer's team swapped, with its values written down
    rec = Record.from_json(doc)
    spectator = rec.view(None)
    assert spectator.hand is None
    assert all(e.cards is None for e in spectator.events if isinstance(e, Swap))
    assert spectator.sizes == rec.view().sizes and spectator.to_move == rec.view().to_move


# ---------------------------------------------------------------------------
# the Python API around records


def test_save_and_load(tmp_path: Path) -> None:
    g = play_random_game(Rules(5, "picante"), random.Random(4))
    rec = Record.from_game(g, names=["A", "B", "Ç", "D", "E"])
    target = tmp_path / "game.json"
    rec.save(target)
    back = Record.load(target)
    assert back.to_json() == rec.to_json() and back.winner == g.winner
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left
    with pytest.raises(RecordError, match="cannot read"):
        Record.load(tmp_path / "missing.json")


def test_views_of_a_record() -> None:
    g = _stop_early(Rules(4, teams=True), 9, 20)
    rec = Record.from_game(g)
    for s in range(4):
        assert rec.view(s).hand == tuple(g.hands[s])
    assert rec.view(None).hand is None
    viewer = Record.from_json(viewer_doc(g, 1))
    assert viewer.view().hand == tuple(g.hands[1])
    with pytest.raises(RecordError, match="knows only seat 1's hand"):
        viewer.view(2)
    with pytest.raises(RecordError, match="no deal"):
        viewer.game()
    with pytest.raises(RecordError, match="^after: expected 0 to"):
        rec.view(None, len(rec.events) + 1)
    with pytest.raises(RecordError, match="a viewer needs both"):
        replay_view(g.rules, (), seat=1)
    assert isinstance(rec.events[0], Swap | Turn)


def test_the_seat_rule() -> None:
    """``Record.seat`` is the one rule of every door: the keeper's seat by default, else the seat to move
    (full deal) or a spectator; ``every_hand`` adds ``"all"``, the default of a full-deal record."""
    g = _stop_early(Rules(4, teams=True), 9, 20)
    full = Record.from_game(g)
    viewer = Record.from_json(viewer_doc(g, 1))
    spectator = Record.from_json(viewer_doc(g, None))
    assert full.seat() == g.to_move and full.seat("default", 0) == g.first_player
    assert full.seat(every_hand=True) == "all" and full.seat("all", every_hand=True) == "all"
    assert viewer.seat() == viewer.seat(every_hand=True) == 1 and viewer.seat(None) is None
    assert spectator.seat() is None and spectator.seat(every_hand=True) is None
    assert [full.seat(s) for s in (0, 3, None)] == [0, 3, None]
    assert full.view().seat == g.to_move and viewer.view().seat == 1 and spectator.view().seat is None
    for record, seat, every, message in [
        (full, 4, False, "seat: expected a seat 0 to 3 or null (a spectator), got 4"),
        (full, "all", False, "seat: expected a seat 0 to 3 or null (a spectator), got \"all\""),
        (full, True, True, "seat: expected a seat 0 to 3, null (a spectator) or \"all\", got true"),
        (viewer, 2, False, "seat: this record knows only seat 1's hand, not seat 2's"),
        (spectator, 0, True, "seat: this record knows no hand, not seat 0's"),
        (viewer, "all", True, "seat: 'all' needs a record with the whole deal"),
    ]:
        with pytest.raises(RecordError) as e:
            record.seat(seat, every_hand=every)
        assert str(e.value) == message
        if not every:
            with pytest.raises(RecordError, match=f"^{re.escape(message)}$"):
                record.view(seat)
    with pytest.raises(RecordError, match="^after: expected 0 to"):
        full.seat(None, len(full.events) + 1)


# ---------------------------------------------------------------------------
# the CLI on malformed records


def run_cli(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp: str, content: str | bytes) -> str:
    path = os.path.join(tmp, "record.json")
    with open(path, "wb") as f:
        f.write(content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content)
    return path


MALFORMED: list[Callable[[], str | bytes]] = [
    lambda: "",
    lambda: "{",
    lambda: dumps(BASES["full"])[:-1],
    lambda: dumps({**BASES["full"], "extra": 1}),
    lambda: dumps(put(BASES["full"], ("rules", "players"), 2)),
    lambda: dumps(put(BASES["full"], ("events", 3, "turn"), (BASES["full"]["events"][3]["turn"] + 1) % 4)),
    lambda: dumps(put(BASES["viewer"], ("events", 0, "reveals", 0, "value"), 13)),
    lambda: dumps(BASES["full"]).replace('"first_player": ', '"first_player": NaN, "x": '),
    lambda: b"\xff\xfe" + dumps(BASES["full"]).encode(),
    lambda: "[" * 100_000,
    lambda: dumps(BASES["full"]) + " " * MAX_RECORD_BYTES,
    lambda: dumps({**BASES["full"], "a\nb": 1}),
    # a lone surrogate escape in valid UTF-8 text: the name could never be printed
    lambda: json.dumps(put(BASES["full"], ("names",), ["\ud800", "b", "c", "d"]), ensure_ascii=True),
]


@pytest.mark.parametrize("command", ["validate", "replay", "beliefs"])
@pytest.mark.parametrize("make", MALFORMED, ids=[f"doc{i}" for i in range(len(MALFORMED))])
def test_cli_exits_1_with_one_line(capsys: pytest.CaptureFixture[str], command: str,
                                   make: Callable[[], str | bytes]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = write(tmp, make())
        argv = [command, path] + (["--json"] if command == "beliefs" else [])
        code, out, err = run_cli(capsys, argv)
    assert code == 1
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1
    assert err.startswith("trio-solver: ")
    assert "Traceback" not in err


@FUZZ
@given(st.sampled_from(BASE_NAMES), st.data())
def test_cli_on_generated_malformed_records(capsys: pytest.CaptureFixture[str], base: str,
                                            data: st.DataObject) -> None:
    doc = BASES[base]
    path = data.draw(st.sampled_from(int_paths(doc)))
    text = dumps(put(doc, path, data.draw(not_int | st.booleans())))
    with tempfile.TemporaryDirectory() as tmp:
        code, out, err = run_cli(capsys, ["validate", write(tmp, text)])
    assert (code, out) == (1, "")
    assert err.count("\n") == 1 and err.startswith("trio-solver: ")


def test_cli_reads_standard_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    class FakeStdin:
        buffer = io.BytesIO(b"{not json")

    monkeypatch.setattr(sys, "stdin", FakeStdin())
    code, out, err = run_cli(capsys, ["validate", "-"])
    assert (code, out) == (1, "") and err.startswith("trio-solver: record: not valid JSON")
    FakeStdin.buffer = io.BytesIO(dumps(BASES["full"]).encode())
    code, out, err = run_cli(capsys, ["validate", "-"])
    assert code == 0 and out.startswith("valid: 4 players") and err == ""


@pytest.mark.parametrize("argv", [
    ["validate", "--bogus", "FILE"],
    ["validate"],
    ["validate", "/nonexistent/record.json"],
    ["replay", "/nonexistent/record.json"],
    ["beliefs", "/nonexistent/record.json", "--json"],
    ["replay", "FILE", "--after", "-1"],
    ["replay", "FILE", "--seat", "x"],
    ["nonsense"],
    [],
    # an option's value out of its range, whatever the record
    ["analyse", "FILE", "--samples", "200001"],
    ["analyse", "FILE", "--seed", "9223372036854775808"],
    ["evaluate", "FILE", "--seed", "-9223372036854775809"],
    ["simulate", "--players", "3", "--games", "1", "--budget", "200001"],
    ["simulate", "--players", "3", "--games", "1000000000000"],
    ["simulate", "--players", "3", "--games", "1", "--bots", "solver,memory"],
    ["simulate", "--players", "3", "--games", "1", "--backend", "ray", "--ray-address", "nowhere"],
    ["play", "--seed", "-1"],
    ["analyse", "FILE", "--quick", "--html", "-"],
    ["analyse", "FILE", "--quick", "--html", ""],
    ["advise", "FILE", "--seed", "3"],
    ["play", "--save", "-"],
    ["play", "--players", "3", "--bots", "memory"],
    ["play", "--players", "3", "--teams"],
    ["play", "--players", "3", "--seat", "3"],
    ["beliefs", "FILE", "--list", "100001"],
    ["beliefs", "FILE", "--swap-budget", "0"],
    ["beliefs", "FILE", "--swap-budget", "4000001"],
    ["serve", "--workers", "1025"],
    ["serve", "--queue", "1000001"],
])
def test_cli_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = write(tmp, dumps(BASES["full"]))
        code, out, err = run_cli(capsys, [path if a == "FILE" else a for a in argv])
        code_dir, _, err_dir = run_cli(capsys, ["validate", tmp])  # a directory is not a record file
    assert code == 2, err
    assert out == ""
    assert err.strip() and "Traceback" not in err
    assert err.startswith("trio-solver: ")
    assert code_dir == 2 and "directory" in err_dir


def _long_record(turns: int) -> Record:
    """A whole-deal record of ``turns`` failed turns, each showing the same two different centre cards."""
    game = Game.deal(Rules(3, "simple"), rng=random.Random(5))
    other = next(j for j in range(1, len(game.centre)) if game.centre[j] != game.centre[0])
    data = {"format": "trio-record/1", **game.to_json(),
            "events": [{"turn": k % 3, "reveals": [{"centre": 0}, {"centre": other}]} for k in range(turns)]}
    return Record.from_json(data)


def test_walk_and_position_agree_with_the_positions_of_a_replay() -> None:
    """`walk` calls back with every position up to the one asked for, as `states` lists them, and `position`
    is each of them, for a whole deal and for a player's own record."""
    game = play_random_game(Rules(4, "simple", teams=True), random.Random(11))
    whole = Record.from_json({"format": "trio-record/1", **game.to_json()})
    mine = Record.from_json({"format": "trio-record/1", "rules": whole.rules.to_json(),
                             "first_player": whole.first_player,
                             "viewer": {"seat": 1, "hand": list(whole.deal.hands[1])},  # type: ignore[union-attr]
                             "events": [event_to_json(e.hidden() if isinstance(e, Swap) and 1 not in e.seats else e)
                                        for e in whole.events]})
    for record in (whole, mine):
        states = record.states()
        assert len(states) == len(record.events) + 1
        for upto in (0, 1, len(record.events) // 2, len(record.events)):
            seen: list[object] = []
            record.walk(seen.append, upto)
            assert [p.to_json() for p in seen] == [p.to_json() for p in states[: upto + 1]]  # type: ignore[union-attr]
            assert record.position(upto).to_json() == states[upto].to_json()
        with pytest.raises(RecordError):
            record.walk(lambda p: None, len(record.events) + 1)


def test_a_long_record_replays_what_is_asked_under_the_time_limit() -> None:
    """The positions up to `after` only, a replay that keeps no undo history, and a time limit that stops
    a replay of many thousand events with one line."""
    record = _long_record(3000)
    calls: list[object] = []
    record.walk(calls.append, 2)
    assert len(calls) == 3
    assert len(queries.replay(record, after=2)["frames"]) == 3
    undone = Game.replay(record.rules, record.deal, record.events[:30], record.first_player)  # type: ignore[arg-type]
    light = Game.replay(record.rules, record.deal, record.events[:30], record.first_player, undo=False)  # type: ignore[arg-type]
    assert light == undone and light._undo == [] and len(undone._undo) == 60
    for after in (30, 2999, None):  # the positions a record replays keep no undo history
        assert record.game(after)._undo == [] and record.position(after) == record.game(after)
    with limits.time_limit(0.01), pytest.raises(limits.LimitError, match="replay: stopped at the time limit"):
        queries.replay(record)


def test_json_errors_name_their_place_once() -> None:
    err = load_error('{"format": "trio-rec')
    assert str(err) == "record: not valid JSON: Unterminated string starting at line 1 column 12"


def test_an_empty_record_says_it_is_empty(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty file or standard input is named and called empty, not a JSON parse error at line 1."""
    empty = tmp_path / "empty.json"
    empty.write_text("  \n")
    code, out, err = run_cli(capsys, ["validate", str(empty)])
    assert (code, out, err) == (1, "", f"trio-solver: {empty}: the file is empty\n")
    # blanks past the size limit are a file too large, not an empty one
    spaces = tmp_path / "spaces.json"
    spaces.write_bytes(b" " * (MAX_RECORD_BYTES + 1) + b"{}")
    code, out, err = run_cli(capsys, ["validate", str(spaces)])
    assert (code, out) == (1, "") and err.startswith(f"trio-solver: {spaces}: record: larger than 8 MB")

    class Empty:
        buffer = io.BytesIO(b"")

    monkeypatch.setattr(sys, "stdin", Empty)
    code, out, err = run_cli(capsys, ["validate", "-"])
    assert (code, out, err) == (1, "", "trio-solver: -: standard input is empty\n")
