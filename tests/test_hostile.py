"""Hostile text and hostile clients: each case at the door where it can arrive.

Names and ids that are not plain text are refused in one line; numbers beyond a float are refused;
nothing from a record or a request reaches a terminal, a spreadsheet or a page raw; errors name the
request's argument at the protocol and the service, the option at the command line. The service
cases (HEAD, Host, content type, timeouts, fair share, disconnects, /docs) are in
``test_service_hostile.py``; the hypothesis strategy of hostile strings is ``test_fuzz_hostile.py``.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import os
import re
import random
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from helpers_cli import run_main as _main
from trio_solver import Beliefs, Game, Record, RecordError, Rules, RunError, TrioError
from trio_solver._args import check_text, show
from trio_solver._text import RTL_CLASS, UNSAFE, _RTL_RANGES, csv_cell, escape, isolate, width
from trio_solver.report.analysis import analyse
from trio_solver.run.collection import Collection, GameOutcome, analyse_files, record_paths
from trio_solver.doors.play import play_terminal
from trio_solver.doors.protocol import encode_response, handle, respond

ROOT = Path(__file__).resolve().parent.parent
FULL = ROOT / "examples" / "full_deal_4p.json"
VIEWER = ROOT / "examples" / "viewer_3p_picante.json"
GOOD = json.loads(FULL.read_text(encoding="utf-8"))
RULES3 = {"players": 3, "mode": "simple"}

#: Text that acts on a terminal: retitle the window, ring, clear the screen, forge a line, reorder.
TERMINAL_ATTACKS = ["\x1b]0;pwned\x07", "\x1b[2J\x1b[H", "ok\rforged", "a\nb", "\x07", "\u202edcba", "x\x85y",
                    "\u2028", "\x00", "\x7f", "\x9b31m"]


def _no_raw_controls(text: str) -> None:
    """Nothing but line breaks among the unsafe characters (the terminal output rule)."""
    bad = {c for c in UNSAFE.findall(text) if c != "\n"}
    assert not bad, f"raw control characters {sorted(map(ord, bad))} in {text[-300:]!r}"


def _record_with_names(names: list[str]) -> dict[str, Any]:
    doc = json.loads(json.dumps(GOOD))
    doc["names"] = names
    return doc


# -- the shared rule ---------------------------------------------------------------------------------


def test_the_text_rule() -> None:
    for bad in TERMINAL_ATTACKS + ["\ud800", "\udfff", "a\tb", "\u2066x\u2069", "\u200f"]:
        with pytest.raises(TrioError, match=r"names\[0\]: holds a"):
            check_text("names[0]", bad, TrioError)
        assert UNSAFE.search(escape(bad)) is None and escape(bad) != bad
    # invisible characters: "Dan" and "Dan" with one would be two names that look the same
    for invisible in ["\u200b", "\ufeff", "\u00ad", "\u2060", "\u2063", "\u180e", "\u034f", "\u115f", "\u1160",
                      "\u3164", "\uffa0", "\ufff9", "\ufffb", "\U0001d173", "\U0001d17a", "\U000e0020", "\U000e007f"]:
        with pytest.raises(TrioError, match=r"names\[0\]: holds an invisible character \(\\"):
            check_text("names[0]", "Dan" + invisible, TrioError)
        assert escape("Dan" + invisible) == "Dan" + ("\\x%02x" % ord(invisible) if ord(invisible) < 0x100
                                                     else "\\u%04x" % ord(invisible) if ord(invisible) <= 0xFFFF
                                                     else "\\U%08x" % ord(invisible))
    # the zero-width joiner and non-joiner stay: emoji sequences and several scripts need them
    for good in ["Alice", "Chloé", "李雷", "محمد", "👩‍👩‍👧", "می\u200cخواهم", "O'Brien", "=1+1", " ", "", "x" * 200,
                 "\u2764\ufe0f", "\u6f22\U000e0100"]:  # the variation selectors choose a style: allowed
        assert check_text("names[0]", good, TrioError) == good
        assert escape(good) == good
    with pytest.raises(TrioError, match="longer than 200 characters"):
        check_text("names[0]", "x" * 201, TrioError)
    # the flags of England, Scotland and Wales are tag characters a reader sees; other tags are hidden text
    for flag in ("gbeng", "gbsct", "gbwls"):
        name = "\U0001f3f4" + "".join(chr(0xE0000 + ord(c)) for c in flag) + "\U000e007f" + " Tom"
        assert check_text("names[0]", name, TrioError) == name and escape(name) == name
        assert width(name) == 2 + 4  # the flag two columns, its tags none
    for hidden in ("\U0001f3f4\U000e0067\U000e0062\U000e007f", "Tom\U000e0067\U000e0062\U000e0065\U000e006e"
                   "\U000e0067\U000e007f", "\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"):
        with pytest.raises(TrioError, match=r"holds an invisible character \(\\U000e00"):
            check_text("names[0]", hidden, TrioError)
    # a letter may carry four combining marks (pointed Hebrew, Vietnamese), not a pile of them
    for good in ["Vie\u0323\u0302t", "\u05e9\u05c1\u05bc\u05b8\u0591", "e" + "\u0301" * 4, "1\ufe0f\u20e3"]:
        assert check_text("names[0]", good, TrioError) == good
    for pile in ["e" + "\u0301" * 5, "Z\u0351\u0352\u0357\u035b\u0363\u0364\u0365a", "x\u20dd" * 2 + "\u20dd" * 4]:
        with pytest.raises(TrioError, match=r"names\[0\]: holds a letter with \d+ combining marks \(at most 4\)"):
            check_text("names[0]", pile, TrioError)
    assert escape("a\nb\x1bc", keep="\n") == "a\nb\\x1bc"
    assert [csv_cell(x) for x in ["=1", "+1", "-1", "@A1", "\t=1", "\r=1", "a=1", "1"]] == \
        ["'=1", "'+1", "'-1", "'@A1", "'\t=1", "'\r=1", "a=1", "1"]


def test_one_table_of_right_to_left_characters() -> None:
    """The library's table is Unicode's classes R, AL and AN (every character it holds is of one of them, and
    every such character of the first planes is in it), and the board's script holds it as it is."""
    inside = {c for lo, hi in _RTL_RANGES for c in range(lo, hi + 1)}
    assert all(unicodedata.bidirectional(chr(c)) in ("R", "AL", "AN") for c in inside)
    assert all(c in inside for c in range(0x0590, 0x0900) if unicodedata.bidirectional(chr(c)) in ("R", "AL", "AN"))
    board = (ROOT / "trio_solver" / "doors" / "web" / "board.js").read_text(encoding="utf-8")
    assert f"const RTL = /{RTL_CLASS}/u;" in board


def test_right_to_left_names_are_isolated_for_a_page() -> None:
    names = ["نور", "نورا", "Bob", "דנה", "a"]
    text = "Turn 3, نورا, played l1=2; نور 30%, Bob 20%, דנה 10%, a 5%"
    got = isolate(text, names)
    # the longest name is matched first, each right-to-left name exactly once, the others left alone
    assert got == ("Turn 3, \u2068نورا\u2069, played l1=2; \u2068نور\u2069 30%, Bob 20%, "
                   "\u2068דנה\u2069 10%, a 5%")
    assert got.replace("\u2068", "").replace("\u2069", "") == text
    assert isolate(text, ["Bob", "a", ""]) == text


def test_records_nested_to_the_parsers_limit_are_one_line() -> None:
    """JSON nested as deep as the parser goes, holding an emoji (a surrogate pair, checked for lone
    surrogates): the checks after parsing recurse a little deeper than the parser, so whatever the stack
    the parser leaves, the answer is the library's one line (a sweep over the depths around the limit)."""
    for depth in range(940, 1010):
        text = '{"x": ' + "[" * depth + '"\\ud83d\\ude00"' + "]" * depth + "}"
        with pytest.raises(RecordError, match=r"^(x: unknown key|record: JSON nested too deeply)"):
            Record.loads(text)


def test_error_messages_are_escaped() -> None:
    e = TrioError("x\x1b]0;t\x07 \u202ey")
    assert str(e) == "x\\x1b]0;t\\x07 \\u202ey"
    r = RecordError("a\x1bb", "c\x07d")
    assert (r.where, r.reason) == ("a\\x1bb", "c\\x07d") and UNSAFE.search(str(r)) is None


_JSON_TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"))
                     | st.sampled_from(' \n\t"\\'), max_size=8)


def _json_containers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.lists(inner, max_size=4) | st.dictionaries(_JSON_TEXT, inner, max_size=4)


_JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-10**11, 10**11) | _JSON_TEXT,
                            _json_containers, max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(_JSON_VALUES)
@example([[[[None]]]])  # a scalar at the deepest level shown is shown, not cut
@example({"a": [{"b": [True]}]})
def test_values_in_messages_are_shown_as_the_json_they_came_from(value: Any) -> None:
    """A value in an error message reads as the JSON a client sent (``null``, ``true``, ``"x"``), and
    reads back to the same value, as long as it is small."""
    assume(json.dumps(value).count("[") + json.dumps(value).count("{") <= 4)
    shown = show(value, width=10**6)
    assert json.loads(shown) == value
    assert shown == json.dumps(value, ensure_ascii=False)


def test_values_in_messages_stay_short_and_printable() -> None:
    class Hostile:
        def __repr__(self) -> str:
            raise RuntimeError("boom")

    assert show(Hostile()).startswith("<Hostile instance at ")
    assert show(set(range(10**6))) == "<set of 1000000 items>" and show(b"a" * 10**6) == "<bytes of 1000000 bytes>"
    assert show(frozenset({1})) == "frozenset({1})" and show(range(10**9)).startswith("range(")
    assert show(10**400) == "a 1329-bit integer"
    assert show("\x1b[2J\u200b\U000e0001") == '"\\u001b[2J\\u200b\\U000e0001"'
    assert show(list(range(10**6)), width=10**6).endswith("19, ...]")  # the first 20 items, not a million
    assert show([[[[["deep"]]]]]) == "[[[[...]]]]" and show([[[[None]]]]) == "[[[[null]]]]"
    assert show("x" * 100) == '"' + "x" * 39 + '..."'  # a cut string keeps its closing quote
    assert show((1, None), 80) == "[1, null]" and show(1.5) == "1.5"

    class Counted:
        drawn = 0

        def __repr__(self) -> str:
            Counted.drawn += 1
            return "c" * 30

    # only what fits the width is drawn: a few items, not the 20 x 20 the levels would allow
    assert show([[Counted()] * 20] * 20).startswith("[[ccc") and Counted.drawn == 2


# -- 1. a lone surrogate in the engine ------------------------------------------------------------------


def test_1_engine_answers_lone_surrogates_and_goes_on() -> None:
    lines = [
        b'{"id":"\\ud800","op":"version"}\n',
        b'{"id":2,"op":"version"}\n',
        b'{"id":3,"op":"new_game","rules":{"players":3,"mode":"simple"},"names":["a","b","\\udc00"]}\n',
        b'{"id":{"\\ud83d\\ude00":"\\u00e9"},"op":"version"}\n',  # a surrogate pair is one character: fine
        b'{"id":"\\u001b]0;x\\u0007","op":"version"}\n',
        b'{"id":5,"op":"new_game","rules":{"players":3,"mode":"simple"},"names":["a","\\u001b[2J","c"]}\n',
        b'{"id":6,"op":"version"}\n',
    ]
    proc = subprocess.run([sys.executable, "-m", "trio_solver", "engine"], input=b"".join(lines),
                          capture_output=True, timeout=120)
    assert proc.returncode == 0 and proc.stderr == b""
    out = [json.loads(x) for x in proc.stdout.decode("utf-8").splitlines()]
    assert [r["id"] for r in out] == [None, 2, None, {"😀": "é"}, None, 5, 6]
    assert [r["ok"] for r in out] == [False, True, False, True, False, False, True]
    assert out[0]["error"] == "id: holds a lone surrogate, which is not Unicode text (\\ud800)"
    assert out[2]["error"].startswith("names[2]: holds a lone surrogate")
    assert out[4]["error"].startswith("id: holds a control character (\\x1b)")
    assert out[5]["error"].startswith("names[1]: holds a control character (\\x1b)")


# -- 3. the Python API: names are checked when a record is made -----------------------------------------


@pytest.mark.parametrize("bad", ["\ud800", *TERMINAL_ATTACKS, "x" * 201])
def test_3_record_names_are_checked_at_every_constructor(tmp_path: Path, bad: str) -> None:
    game = Game.deal(Rules(3), 1)
    names = ["Ann", bad, "Cy"]
    with pytest.raises(RecordError) as err:
        Record.from_game(game, names=names)
    assert err.value.where == "names[1]" and UNSAFE.search(str(err.value)) is None
    with pytest.raises(RecordError, match=r"names\[1\]"):
        Record(game.rules, (), names=tuple(names))
    with pytest.raises(RecordError, match=r"names\[1\]"):
        Record.from_json(_record_with_names(["a", bad, "c", "d"]))
    with pytest.raises(RecordError, match=r"names\[1\]"):
        Record.loads(json.dumps(_record_with_names(["a", bad, "c", "d"])))  # ensure_ascii: \ud800 escapes
    with pytest.raises(RecordError, match=r"names\[1\]"):
        play_terminal(Rules(3), 0, ["memory", "memory"], 1, stdin=io.StringIO(""), stdout=io.StringIO(),
                      names=names)
    assert list(tmp_path.iterdir()) == []  # nothing was saved
    ok = Record.from_game(game, names=("Ann", "Bé", "=Cy"))
    ok.save(tmp_path / "ok.json")
    assert Record.load(tmp_path / "ok.json").names == ("Ann", "Bé", "=Cy")
    with pytest.raises(RecordError, match="names: expected a list of 3 names"):
        Record.from_game(game, names=["a", "b"])


# -- 4. play: a digit that is not an ASCII digit, a huge number ---------------------------------------------


def test_4_swap_prompt_takes_odd_digits_calmly(tmp_path: Path) -> None:
    rules = Rules(4, "simple", teams=True)
    out = io.StringIO()
    stdin = io.StringIO("²\n" + "9" * 5000 + "\n٣\n\x1b[2J\n\udcff\udcfe\nquit\n")  # then bytes not UTF-8
    play_terminal(rules, 0, ["memory", "memory", "memory"], 3, stdin=stdin, stdout=out,
                  save=str(tmp_path / "g.json"))
    text = out.getvalue()
    assert 'you hold no "²"' in text and 'you hold no "٣"' in text and "Game saved to" in text
    assert 'you hold no "\\u001b[2J"' in text  # the typed escape comes back escaped, as it was typed
    assert "that was not UTF-8 text: type it again" in text and "udcff" not in text
    _no_raw_controls(text)
    assert all(len(line) < 400 for line in text.splitlines())
    r = subprocess.run([sys.executable, "-m", "trio_solver", "play", "--players", "4", "--teams", "--seed", "3"],
                       input="²\n" + "9" * 5000 + "\nquit\n", capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0 and r.stderr == "", r.stderr[-500:]


# -- 5. the file named once ------------------------------------------------------------------------------------


def test_5_errors_name_the_file_once(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": ')
    for argv in (["analyse", str(bad), "--quick"], ["validate", str(bad)], ["replay", str(bad)]):
        status, out, err = _main(argv)
        assert (status, out) == (1, "")
        assert err == f"trio-solver: {bad}: record: not valid JSON: Expecting value at line 1 column 12\n"
    for argv in (["analyse", "/proc/self/mem", "--quick"], ["validate", "/proc/self/mem"]):  # a read error
        status, out, err = _main(argv)
        assert status == 1 and err.count("/proc/self/mem") == 1, err
        assert err.startswith("trio-solver: /proc/self/mem: cannot read: ")


# -- 6. the argument's name at each door ----------------------------------------------------------------------


@pytest.mark.parametrize("args, argument, reason", [
    ({"op": "replay", "after": 99}, "after", "expected 0 to 17 events, got 99"),
    ({"op": "state", "after": 18}, "after", "expected 0 to 17 events, got 18"),
    ({"op": "advise", "seat": None}, "seat", "advice is for the seat to move"),
    ({"op": "beliefs", "seat": 7}, "seat", "expected a seat 0 to 3"),
])
def test_6_protocol_names_the_argument_and_the_cli_its_option(args: dict[str, Any], argument: str,
                                                              reason: str) -> None:
    resp = respond(json.dumps({"id": 1, **args, "record": GOOD}))
    assert resp["ok"] is False and resp["error"].startswith(f"{argument}: {reason}"), resp
    assert "--" not in resp["error"]
    option = ["--after", str(args["after"])] if "after" in args else \
        ["--seat", "none" if args["seat"] is None else str(args["seat"])]
    status, _, err = _main([args["op"] if args["op"] != "state" else "replay", str(FULL), *option])
    assert status == 1 and f": --{argument}: " in err, err


def test_6_replay_seat_all_without_a_deal() -> None:
    viewer = json.loads(VIEWER.read_text(encoding="utf-8"))
    resp = respond(json.dumps({"op": "replay", "record": viewer, "seat": "all"}))
    assert resp["error"] == "seat: 'all' needs a record with the whole deal"
    status, _, err = _main(["replay", str(VIEWER), "--seat", "all"])
    assert status == 1 and err.endswith("--seat: 'all' needs a record with the whole deal\n")


# -- 7. numbers beyond a float ------------------------------------------------------------------------------


@pytest.mark.parametrize("line", ['{"id":1e999,"op":"version"}', '{"id":-1e400,"op":"version"}',
                                  '{"op":"version","x":1E+999}', '{"id":[0.5, 1e309],"op":"version"}'])
def test_7_numbers_beyond_a_float_are_refused_before_running(line: str) -> None:
    resp = respond(line)
    assert resp == {"id": None, "ok": False, "error": resp["error"]}
    assert "is beyond the range of a float" in resp["error"] and "internal" not in resp["error"]
    json.loads(encode_response(resp))
    with pytest.raises(RecordError, match="beyond the range of a float"):
        Record.loads(json.dumps(GOOD)[:-1] + ', "x": 1e999}')


def test_7_a_result_that_is_not_json_keeps_its_id() -> None:
    line = encode_response({"id": 7, "ok": True, "result": {"x": float("nan")}})
    assert json.loads(line) == {"id": 7, "ok": False, "error": "internal error: a result that is not JSON; "
                                                               "please report it with the request"}


# -- 8. Beliefs.from_json takes a bool, exactly -------------------------------------------------------------


@pytest.mark.parametrize("value", ["false", "true", 1, 0, None, np.array([1, 0]), np.bool_(True), [], {}])
def test_8_beliefs_exact_must_be_a_bool(value: Any) -> None:
    b = Beliefs(Game.deal(Rules(3), 4).view(0))
    doc = b.to_json(view=True)
    with pytest.raises(RecordError, match=r"^beliefs: exact: expected true or false"):
        Beliefs.from_json({**doc, "exact": value})
    assert Beliefs.from_json({**doc, "exact": True}).exact is True
    assert Beliefs.from_json(doc).exact is False


# -- 11. CSV cells that a spreadsheet would run ---------------------------------------------------------------


def test_11_csv_neutralises_formulas(tmp_path: Path) -> None:
    names = ['=HYPERLINK("http://x","y")', "+1+1", "-2+3", "@SUM(A1)"]
    Record.from_json(_record_with_names(names)).save(tmp_path / "g.json")
    status, out, err = _main(["analyse", str(tmp_path), "--quick", "--csv"])
    assert status == 0, err
    rows = list(csv.reader(io.StringIO(out)))
    cells = sorted(r[0] for r in rows[1:])
    assert cells == sorted("'" + n for n in names)
    status, out, _ = _main(["analyse", str(tmp_path), "--quick", "--json"])
    assert sorted(p["name"] for p in json.loads(out)["players"]) == sorted(names)  # JSON keeps the names


# -- 12. nothing raw on the terminal --------------------------------------------------------------------------


@pytest.mark.parametrize("attack", TERMINAL_ATTACKS)
def test_12_names_with_controls_are_refused_and_the_terminal_stays_clean(tmp_path: Path, attack: str) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(_record_with_names(["Ann", attack, "Cy", "Dan"]), ensure_ascii=False),
                    encoding="utf-8")
    for argv in (["replay", str(path)], ["analyse", str(path), "--quick"], ["validate", str(path)],
                 ["advise", str(path)]):
        status, out, err = _main(argv)
        assert (status, out) == (1, "")
        assert "names[1]: holds a" in err and err.count("\n") == 1
        _no_raw_controls(err)


def test_12_file_names_with_controls_are_escaped(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    Record.load(FULL).save(folder / "ok.json")
    (folder / "x\x1b]0;owned\x07\rforged.json").write_text("{}")
    status, out, err = _main(["analyse", str(folder), "--quick"])
    assert status == 0 and err == ""
    assert "skipped " in out and "x\\x1b]0;owned\\x07\\x0dforged.json" in out
    _no_raw_controls(out)
    status, out, err = _main(["validate", str(folder / "x\x1b]0;owned\x07\rforged.json")])
    assert status == 1 and "x\\x1b]0;owned\\x07\\x0dforged.json: format: missing" in err
    _no_raw_controls(err)


def test_15b_a_named_pipe_as_the_record_is_read_or_refused_never_waited_for(tmp_path: Path) -> None:
    """A named pipe nothing writes to: one line, status 1, at once (it used to wait for a writer for ever);
    a pipe with a writer is read as it flows."""
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    r = subprocess.run([sys.executable, "-m", "trio_solver", "validate", str(fifo)], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 1 and r.stderr == f"trio-solver: {fifo}: a named pipe that nothing wrote to\n"
    r = subprocess.run(["bash", "-c", f"{sys.executable} -m trio_solver validate <(cat {FULL})"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.startswith("valid: 4 players")


# -- 16. symbolic links that lead nowhere ---------------------------------------------------------------------


def test_16_dangling_looping_and_odd_entries_are_listed_as_skipped(tmp_path: Path) -> None:
    Record.load(FULL).save(tmp_path / "a.json")
    (tmp_path / "dangling.json").symlink_to(tmp_path / "gone.json")
    (tmp_path / "loop.json").symlink_to(tmp_path / "loop.json")
    (tmp_path / "folder.json").mkdir()
    os.mkfifo(tmp_path / "fifo.json")  # opening it would wait for a writer forever
    (tmp_path / "notes.txt").write_text("not a record")
    paths = record_paths([str(tmp_path)])
    assert [Path(p).name for p in paths] == ["a.json", "dangling.json", "fifo.json", "folder.json", "loop.json"]
    result = analyse_files(paths, samples=0)
    reasons = {Path(o.path).name: o.error for o in result.failed}
    assert [Path(o.path).name for o in result.analysed] == ["a.json"]
    assert reasons == {
        "dangling.json": "a symbolic link that leads to no file (No such file or directory)",
        "loop.json": "a symbolic link that leads to no file (Too many levels of symbolic links)",
        "folder.json": "not a record file: a folder",
        "fifo.json": "not a record file: a FIFO, device or socket",
    }
    status, out, _ = _main(["analyse", str(tmp_path), "--quick"])
    assert status == 0 and "1 game analysed, 4 files skipped" in out
    assert out.count("  skipped ") == 4


def test_collection_text_and_csv_of_outcomes() -> None:
    c = Collection([GameOutcome("x\x1b.json", None, "bad \x07")])
    assert c.csv().splitlines() == ["name,games,wins,unfinished,decisions,accuracy,average_loss,inaccuracies,mistakes,blunders"]
    assert "skipped x\x1b.json" in c.text()  # raw in the library; the command escapes its whole output


def test_random_api_names_round_trip() -> None:
    """Names of plain text in every script survive a save and a load unchanged."""
    rng = random.Random(5)
    alphabet = "aé李ب👩‍ 'O=+-@.,"
    game = Game.deal(Rules(3), 2)
    for _ in range(50):
        names = ["".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 12))) for _ in range(3)]
        rec = Record.from_game(game, names=names)
        assert Record.loads(rec.dumps()).names == tuple(names)
        assert handle("new_game", {"rules": RULES3, "seed": 1, "names": names})["record"]["names"] == names


# -- found by the fuzz suite: digits that are not ASCII in the short notation ------------------------------------


@pytest.mark.parametrize("text", ["c3=²", "l1=٣", "h0=1٢"])
def test_non_ascii_digits_in_a_shown_card_are_a_notation_error(text: str) -> None:
    from trio_solver import NotationError, Revealed

    with pytest.raises(NotationError, match="the value must be 1 to 12"):
        Revealed.from_str(text)
    viewer = json.loads(VIEWER.read_text(encoding="utf-8"))
    viewer["events"] = []
    resp = respond(json.dumps({"op": "move", "record": viewer, "reveal": text}))
    assert resp["ok"] is False and "the value must be 1 to 12" in resp["error"]


def test_12_report_pages_carry_no_raw_controls(tmp_path: Path) -> None:
    """The HTML report's title comes from the file name, which may hold anything but '/'."""
    from trio_solver import ViewError, analyse

    path = tmp_path / "g\x1b]0;owned\x07\u202e.json"
    Record.load(FULL).save(path)
    status, out, err = _main(["analyse", str(path), "--quick", "--html", str(tmp_path / "r.html")])
    assert status == 0, err
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "<title>Trio game analysis: g\\x1b]0;owned\\x07\\u202e.json</title>" in page
    assert UNSAFE.search(page.replace("\n", "")) is None
    _no_raw_controls(out)
    with pytest.raises(ViewError, match="title: expected str"):
        analyse(Record.load(FULL), samples=0).html(title=b"x")  # type: ignore[arg-type]


def test_3_files_are_never_half_written_with_text_that_is_not_unicode(tmp_path: Path) -> None:
    from trio_solver.files import write_text

    with pytest.raises(RecordError, match=r"cannot write: the text holds a lone surrogate.*\\ud800"):
        write_text(tmp_path / "r.txt", "report of \ud800")
    assert list(tmp_path.iterdir()) == []


def test_a_file_to_write_must_be_named_by_a_text_path(tmp_path: Path) -> None:
    """A name that is not a text path (a number, nothing, a NUL, a path object that gives bytes) is refused in
    one line naming the argument, by the one check every written file goes through."""
    from trio_solver.files import write_text

    class BytesPath(os.PathLike):  # type: ignore[type-arg]
        def __fspath__(self) -> bytes:
            return os.fsencode(tmp_path / "r.txt")

    class NumberPath(os.PathLike):  # type: ignore[type-arg]
        def __fspath__(self) -> int:
            return 5

    for bad, shown in ((5, "5"), ("", '""'), ("a\x00b", '"a\\u0000b"'), (BytesPath(), "<"), (NumberPath(), "<")):
        line = "^path: expected a file name, got " + re.escape(shown)
        with pytest.raises(RecordError, match=line):
            write_text(bad, "x")
        with pytest.raises(RecordError, match=line):  # the same check, the same words
            Record.load(FULL).save(bad)
    assert list(tmp_path.iterdir()) == []


def test_api_arguments_a_reviewer_found_raise_the_librarys_errors(tmp_path: Path) -> None:
    """Each once raised a plain Python error: now a TrioError naming the argument."""
    beliefs = Beliefs(Game.deal(Rules(3), seed=1).view(0))
    rows = beliefs.n_rows
    zeros = np.zeros((1, rows), dtype=np.int64)
    for args, match in [((None, zeros, zeros, np.zeros(1, dtype=np.int64)), "value: expected a card value"),
                        ((13, zeros, zeros, np.zeros(1, dtype=np.int64)), "value: expected a card value"),
                        ((3, zeros, zeros[:, :1], np.zeros(1, dtype=np.int64)), "joint_batch: expected lows"),
                        ((3, zeros, zeros, np.zeros(2, dtype=np.int64)), "joint_batch: expected lows")]:
        with pytest.raises(TrioError, match=match):
            beliefs.joint_batch(*args)  # type: ignore[arg-type]
    assert beliefs.joint_batch(np.int64(3), zeros, zeros, np.zeros(1, dtype=np.int64)).shape == (1,)  # type: ignore[arg-type]
    record = Record.load(Path(__file__).resolve().parent.parent / "examples" / "full_deal_4p.json")
    with pytest.raises(RecordError, match="on_position: expected a function"):
        record.walk(None)  # type: ignore[arg-type]
    assert issubclass(RunError, TrioError)  # the run's errors can be caught by name from the package


def test_tables_line_up_whatever_the_names_hold() -> None:
    """Wide characters take two columns on a terminal, combining marks none: the hands and the analysis
    tables pad names by the columns they take, not by their characters."""
    from trio_solver._text import pad, width
    from trio_solver.report.render import frame, render_frame

    assert [width(n) for n in ["Ann", "李雷", "Chloe\u0301", "\u2764\ufe0f", "محمد"]] == [3, 4, 5, 1, 4]
    assert pad("李雷", 6) == "李雷  " and pad("Chloe\u0301", 6) == "Chloe\u0301 " and pad("toolong", 3) == "toolong"
    names = ["李雷", "Chloe\u0301", "Ann"]
    game = Game.deal(Rules(3), seed=1)
    rows = [line for line in render_frame(frame(game, "all"), names).splitlines() if line.startswith("  seat")]
    assert len(rows) == 3 and len({width(row.split("trios:")[0]) for row in rows}) == 1
    players = ("李雷", "Chloe\u0301", "Ann", "Dan")
    a = analyse(Record.load(FULL), samples=0)
    a = dataclasses.replace(a, players=players,
                            seats=tuple(dataclasses.replace(seat, name=n) for seat, n in zip(a.seats, players)))
    rows = a.summary_text().splitlines()[1:]
    # the right edge of the "choices" column, in terminal columns, is the same on every row
    edges = {2 + width(name) + len(re.match(r"\s*\d+", row[2 + len(name):]).group())  # type: ignore[union-attr]
             for name, row in zip(players, rows)}
    assert len(rows) == 4 and len(edges) == 1
