"""Fuzz: hostile strings through every door.

One hypothesis strategy, :data:`HOSTILE_TEXT`, makes the strings an attacker would try: lone
surrogates, C0 and C1 control characters (ESC sequences that retitle or clear a terminal, BEL, CR
and LF that forge lines), line separators, bidirectional overrides, spreadsheet formula prefixes,
markup, names of a megabyte, and arbitrary text around them. Each door gets them where it takes
text, and must answer with a result or one line of the library's error class, never a crash, a
status 500, a dead engine, or an unsafe character on a terminal, in an error message or in a name:

* the Python API: record names (from_game, from_json, loads), the short notation, rules, bots,
  terminal play;
* the engine protocol: ids, ops, argument names and values, record names, in str and bytes lines,
  and a real ``trio-solver engine`` process that must answer every line and end with status 0;
* the HTTP service: names, reveals, bot names, operation paths, body keys, content types and Host
  headers;
* the command line: record names in files, file names, option values.

``pytest --fuzz-long`` (or ``TRIO_FUZZ_LONG=1``) runs 20 times the cases;
``--hypothesis-show-statistics -p no:xdist`` prints the cases tried per door.
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import httpx2
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trio_solver import Game, Record, Reveal, Revealed, Rules, TrioError, make_bot
from trio_solver._text import MAX_TEXT, UNSAFE
from trio_solver.doors.play import play_terminal
from trio_solver.doors.protocol import run_engine

from fuzz_settings import FUZZ_SCALE
from helpers_cli import run_main as _main
from helpers_service import service_client

ROOT = Path(__file__).resolve().parent.parent
FULL = ROOT / "examples" / "full_deal_4p.json"
GOOD = json.loads(FULL.read_text(encoding="utf-8"))
NEW = json.loads(json.dumps(GOOD))
NEW["events"] = []
MEGABYTE = 1 << 20

#: Pieces an attacker reaches for.
ATTACKS = [
    "\ud800", "\udbff", "\udc00", "\udfff", "\ud83d", "\x1b]0;owned\x07", "\x1b[2J\x1b[H", "\x1b[31m", "\x9b31m",
    "ok\rforged", "line\nforged: line", "\r\n", "\x07", "\x08", "\x00", "\x7f", "\x85", "\t", "\x0b", "\x0c",
    "\u2028", "\u2029", "\u202e", "\u202a", "\u2066", "\u2069", "\u200e", "\u200f", "\u061c", "\ufeff", "\u200b",
    "=HYPERLINK(\"http://x\",\"y\")", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\t=1", "\r=1", "=", "+", "-", "@",
    "</script><script>alert(1)</script>", "<img src=x onerror=alert(1)>", "'", "\"", "\\", "\\ud800", "%s%n",
    "../../etc/passwd", "é", "李", "👩‍👩‍👧", "²", "٣", "9" * 5000, "c3", "=10", "c3=²", "l1=٣", "c²", "all", "none", "",
]
#: Megabyte strings: names of 1 MB, all plain or starting with something nasty.
HUGE = ["x" * MEGABYTE, "\x1b" + "a" * MEGABYTE, "=" + "1" * MEGABYTE, "\ud800" * 1000 + "b" * MEGABYTE]

_PIECE = st.one_of(st.sampled_from(ATTACKS), st.text(max_size=16),
                   st.characters(categories=["Cc", "Cf", "Cs", "Zl", "Zp"]).map(str))
_JOINED = st.lists(_PIECE, min_size=1, max_size=6).map("".join)
#: Mostly pieces joined, often one attack alone, now and then a megabyte (a branch repeated weighs more).
HOSTILE_TEXT = st.one_of(_JOINED, _JOINED, _JOINED, st.sampled_from(ATTACKS), st.sampled_from(ATTACKS),
                         st.sampled_from(HUGE))

CASES = settings(max_examples=60 * FUZZ_SCALE, deadline=None, derandomize=True,
                 suppress_health_check=list(HealthCheck))


def _safe_error(e: BaseException) -> None:
    """A TrioError of one line with no unsafe character."""
    assert isinstance(e, TrioError), f"{type(e).__name__}: {e!r:.300}"
    text = str(e)
    assert text and "\n" not in text and len(text) <= TrioError.MAX_MESSAGE
    assert UNSAFE.search(text) is None, repr(text[:300])


def _safe_name(name: str) -> None:
    assert isinstance(name, str) and len(name) <= MAX_TEXT and UNSAFE.search(name) is None, repr(name[:80])


def _terminal_clean(text: str) -> None:
    bad = sorted({hex(ord(c)) for c in UNSAFE.findall(text) if c != "\n"})
    assert not bad, f"raw {bad} in {text[-300:]!r}"


def _attempt(fn: Any, *args: Any) -> Any:
    """``fn(*args)``, or ``None`` after checking that what it raised is a safe TrioError."""
    try:
        return fn(*args)
    except Exception as e:  # noqa: BLE001 - the check is that it is a TrioError
        _safe_error(e)
        return None


def _doc_with_name(text: str) -> dict[str, Any]:
    doc = json.loads(json.dumps(GOOD))
    doc["names"] = ["Ann", text, "Cy", "Dan"]
    return doc


# -- the Python API ----------------------------------------------------------------------------------------


GAME = Game.deal(Rules(3), 7)


@CASES
@given(text=HOSTILE_TEXT)
def test_api_door(text: str) -> None:
    for make in (lambda: Record.from_game(GAME, names=["Ann", text, "Cy"]),
                 lambda: Record.from_json(_doc_with_name(text)),
                 lambda: Record.loads(json.dumps(_doc_with_name(text))),  # \ud800 as an escape
                 lambda: Record.loads(json.dumps(_doc_with_name(text), ensure_ascii=False)),  # raw characters
                 lambda: Record(GAME.rules, (), names=("Ann", text, "Cy"))):
        rec = _attempt(make)
        if rec is not None:
            assert rec.names is not None
            for name in rec.names:
                _safe_name(name)
            assert Record.loads(rec.dumps().encode("utf-8")).names == rec.names
    for fn, arg in ((Reveal.from_str, text), (Revealed.from_str, text), (Rules.from_json, {"players": 3, "mode": text}),
                    (lambda t: make_bot(t, random.Random(0)), text), (Record.loads, text),
                    (lambda t: Record.from_json({"format": t}), text)):
        _attempt(fn, arg)


@settings(max_examples=10 * FUZZ_SCALE, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(text=HOSTILE_TEXT)
def test_api_door_terminal_play(text: str) -> None:
    out = io.StringIO()
    stdin = io.StringIO(f"{text}\nquit\n")
    try:
        play_terminal(Rules(3), 0, ["memory", "memory"], 5, stdin=stdin, stdout=out, names=["Ann", text, "Cy"])
    except Exception as e:  # noqa: BLE001
        _safe_error(e)
    _terminal_clean(out.getvalue())
    assert all(len(line) < 1000 for line in out.getvalue().splitlines())


# -- the engine protocol ---------------------------------------------------------------------------------------


def _requests(text: str) -> list[dict[str, Any]]:
    rules = {"players": 3, "mode": "simple"}
    return [
        {"id": text, "op": "version"},
        {"id": [1, {text: text}], "op": "version"},
        {"id": 1, "op": text},
        {"id": 2, "op": "version", text: 1},
        {"id": 3, "op": "new_game", "rules": rules, "seed": 1, "names": ["Ann", text, "Cy"]},
        {"id": 4, "op": "new_game", "rules": {"players": 3, "mode": text}},
        {"id": 5, "op": "move", "record": NEW, "reveal": text},
        {"id": 6, "op": "bot", "record": NEW, "bot": text},
        {"id": 7, "op": "advise", "record": GOOD, "objective": text, "after": 3},
        {"id": 8, "op": "state", "record": GOOD, "seat": text},
        {"id": 9, "op": "validate", "record": _doc_with_name(text)},
        {"id": 10, "op": "validate", "record": {**GOOD, "format": text}},
    ]


def _check_line(line: bytes, sent: dict[str, Any]) -> dict[str, Any]:
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    resp = json.loads(line.decode("utf-8"))
    assert set(resp) in ({"id", "ok", "result"}, {"id", "ok", "error"})
    if not resp["ok"]:
        error = resp["error"]
        assert error and "\n" not in error and UNSAFE.search(error) is None, repr(error[:300])
        assert "internal error" not in error, error
    # the id as JSON reads it back: a pair of surrogates written as escapes is one character
    assert resp["id"] in (None, json.loads(json.dumps(sent.get("id"))))
    if resp["ok"] and sent.get("op") == "new_game" and "names" in sent:
        for name in resp["result"]["record"]["names"]:
            _safe_name(name)
    return dict(resp)


@CASES
@given(text=HOSTILE_TEXT, ascii_only=st.booleans())
def test_engine_door(text: str, ascii_only: bool) -> None:
    """The engine's loop (run_engine, on byte streams) answers each request in one line and goes on."""
    sent = _requests(text)
    # ensure_ascii=False writes a lone surrogate raw: such a line is not UTF-8 and is refused as such
    data = b"".join(json.dumps(r, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass") + b"\n" for r in sent)
    out = io.BytesIO()
    assert run_engine(io.BytesIO(data), out) == 0
    lines = out.getvalue().splitlines(keepends=True)
    assert len(lines) == len(sent)
    for line, request in zip(lines, sent):
        _check_line(line, request)


def test_engine_process_answers_every_hostile_line() -> None:
    """A real engine fed hostile lines, 40 per attack (800 per attack with --fuzz-long), in one run."""
    rng = random.Random(32)
    sent: list[dict[str, Any]] = []
    data = bytearray()
    for _ in range(40 * FUZZ_SCALE):
        text = "".join(rng.choice(ATTACKS) for _ in range(rng.randrange(1, 4)))
        request = rng.choice(_requests(text))
        sent.append(request)
        data += json.dumps(request, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass") + b"\n"
    proc = subprocess.run([sys.executable, "-m", "trio_solver", "engine"], input=bytes(data), capture_output=True,
                          timeout=600)
    assert proc.returncode == 0 and proc.stderr == b"", proc.stderr[-2000:]
    lines = proc.stdout.splitlines(keepends=True)
    assert len(lines) == len(sent)
    for line, request in zip(lines, sent):
        _check_line(line, request)


# -- the HTTP service --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def service() -> Iterator[TestClient]:
    with service_client("http://localhost", workers=2, timeout=120) as c:
        yield c


def _check_answer(resp: httpx.Response) -> None:
    assert resp.status_code in (200, 400, 404, 405, 413, 415), (resp.status_code, resp.text[:300])
    body = resp.json()
    if resp.status_code != 200:
        assert set(body) == {"error"}
        error = body["error"]
        assert error and "\n" not in error and UNSAFE.search(error) is None, repr(error[:300])


def _body(data: dict[str, Any], ascii_only: bool) -> bytes:
    return json.dumps(data, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")


@CASES
@given(text=HOSTILE_TEXT, ascii_only=st.booleans())
def test_service_door(service: TestClient, text: str, ascii_only: bool) -> None:
    json_type = {"Content-Type": "application/json"}
    rules = {"players": 3, "mode": "simple"}
    posts = [
        ("/v1/new_game", {"rules": rules, "seed": 1, "names": ["Ann", text, "Cy"]}),
        ("/v1/move", {"record": NEW, "reveal": text}),
        ("/v1/bot", {"record": NEW, "bot": text}),
        ("/v1/validate", {"record": _doc_with_name(text)}),
        ("/v1/version", {text: 1}),
        (f"/v1/{quote(text[:300], safe='', errors='surrogatepass')}", {}),
    ]
    for path, data in posts:
        resp = service.post(path, content=_body(data, ascii_only), headers=json_type)
        _check_answer(resp)
        if resp.status_code == 200 and path == "/v1/new_game":
            for name in resp.json()["record"]["names"]:
                _safe_name(name)
    for name, value in (("Content-Type", text), ("Host", text)):
        try:
            resp = service.post("/v1/version", content=b"{}", headers={name: value[:2000]})
        except (httpx.HTTPError, httpx2.HTTPError, UnicodeEncodeError, ValueError):
            continue  # the client itself will not send such a header: nothing reached the service
        _check_answer(resp)


# -- the command line --------------------------------------------------------------------------------------------


def _clean_run(argv: list[str], statuses: tuple[int, ...]) -> int:
    status, out, err = _main(argv)
    assert status in statuses, (status, err[-500:])
    _terminal_clean(out)
    _terminal_clean(err)
    assert err.count("\n") <= 1 and "internal error" not in err, err[-500:]
    return status


@CASES
@given(text=HOSTILE_TEXT, ascii_only=st.booleans())
def test_cli_door(tmp_path_factory: pytest.TempPathFactory, text: str, ascii_only: bool) -> None:
    folder = tmp_path_factory.mktemp("cli")
    record = folder / "g.json"
    record.write_bytes(_body(_doc_with_name(text), ascii_only))
    for command in ("replay", "validate"):
        if _clean_run([command, str(record)], (0, 1)) == 0:
            for name in Record.load(record).names or ():
                _safe_name(name)
    for option in ("--seat", "--after"):
        _clean_run(["replay", str(FULL), option, text[:5000]], (0, 1, 2))
    # a file named by the attacker, when the file system can hold the name
    name = text.replace("/", "_").replace("\x00", "_")[:100] + ".json"
    try:
        path = folder / name
        path.write_bytes(b"{}")
    except (OSError, UnicodeEncodeError, ValueError):
        return
    assert os.path.exists(path)
    _clean_run(["validate", str(path)], (1,))
