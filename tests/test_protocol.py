"""The engine protocol (``trio-solver engine``) and its operations against the CLI's ``--json``."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from trio_solver import Game, Record, Reveal, Rules, TrioError
from trio_solver.decide.bots import BOT_NAMES, make_bot
from trio_solver.doors.cli import main
from trio_solver.doors.protocol import MAX_REQUEST_BYTES, OPS, handle, respond

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
CORPUS = Path(__file__).resolve().parent / "corpus"


def cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def cli_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    prefix = "trio-solver: "
    assert err.startswith(prefix)
    line = err[len(prefix):].strip()
    line = line.split(": ", 1)[1] if line.startswith(argv[1]) else line  # drop the "FILE: " the CLI adds
    # the command names its option (--seat), a request its argument (seat): otherwise the same line
    for option in ("--seat", "--after"):
        if line.startswith(option + ": "):
            line = line[2:]
    return line


def doc(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def ok(op: str, **args: Any) -> Any:
    resp = respond(json.dumps({"id": op, "op": op, **args}))
    assert resp["ok"], resp
    assert resp["id"] == op
    return resp["result"]


def err(request: Any) -> dict[str, Any]:
    line = request if isinstance(request, (str, bytes)) else json.dumps(request)
    resp = respond(line)
    assert resp["ok"] is False and set(resp) == {"id", "ok", "error"}
    assert isinstance(resp["error"], str) and "\n" not in resp["error"] and resp["error"]
    assert "Traceback" not in resp["error"]
    return resp


# ---------------------------------------------------------------------------
# every operation gives the JSON of the command


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_ops_equal_the_cli_json(capsys: pytest.CaptureFixture[str], path: Path) -> None:
    rec = doc(path)
    record = Record.from_json(rec)
    f = str(path)
    assert ok("validate", record=rec) == cli_json(capsys, "validate", "--json", f)
    assert ok("replay", record=rec) == cli_json(capsys, "replay", "--json", f)
    n = len(record.events)
    for after in sorted({0, n // 2, n}):
        replay = cli_json(capsys, "replay", "--json", f, "--after", str(after))
        state = ok("state", record=rec, after=after)
        assert {k: v for k, v in state.items() if k not in ("legal", "seat", "events")} == replay["frames"][-1]
        assert state["seat"] == replay["seat"] and state["events"] == n
        legal = record.view(None, after).legal_reveals()
        assert state["legal"] == ([] if record.view(None, after).over else [str(r) for r in legal])
        assert ok("beliefs", record=rec, after=after) == cli_json(capsys, "beliefs", "--json", f, "--after", str(after))
        assert ok("beliefs", record=rec, after=after, seat=None) == cli_json(
            capsys, "beliefs", "--json", f, "--after", str(after), "--seat", "none")
        view = record.view(None, after)
        if not view.over and view.to_move in record.known_seats():
            for objective in ("trio", "win"):
                assert ok("advise", record=rec, after=after, seat=view.to_move, objective=objective) == cli_json(
                    capsys, "advise", "--json", f, "--after", str(after), "--seat", str(view.to_move),
                    "--objective", objective)
    # the playouts' number does not change what is compared: 8 per reveal keeps this quick
    assert ok("analyse", record=rec, samples=8, seed=4) == cli_json(capsys, "analyse", "--json", f,
                                                                    "--samples", "8", "--seed", "4")
    if path.name == "teams_4p.json":
        assert ok("analyse", record=rec, samples=0) == cli_json(capsys, "analyse", "--json", "--quick", f)


def test_evaluate_and_game_advice_equal_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    path = ROOT / "examples" / "full_deal_4p.json"
    rec, f = doc(path), str(path)
    got = ok("evaluate", record=rec, after=6, samples=40, seed=3)
    assert got == cli_json(capsys, "evaluate", "--json", f, "--after", "6", "--samples", "40", "--seed", "3")
    assert abs(sum(got["win_chance"].values()) - 1) < 1e-9
    seat = Record.from_json(rec).view(None, 6).to_move
    adv = ok("advise", record=rec, after=6, seat=seat, objective="game", samples=10, seed=2)
    assert adv == cli_json(capsys, "advise", "--json", f, "--after", "6", "--seat", str(seat),
                           "--objective", "game", "--samples", "10", "--seed", "2")
    assert all("p_game" in r for r in adv["reveals"])


def test_errors_are_the_cli_lines(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rec = doc(ROOT / "examples" / "viewer_3p_picante.json")
    # a seat whose hand the record does not know
    other = (rec["viewer"]["seat"] + 1) % 3
    line = cli_error(capsys, "beliefs", str(ROOT / "examples" / "viewer_3p_picante.json"), "--seat", str(other))
    assert err({"op": "beliefs", "record": rec, "seat": other})["error"] == line
    # a record that breaks the rules: the event index as in docs/RECORD.md
    bad = json.loads(json.dumps(rec))
    bad["events"][1]["turn"] = 0
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(bad))
    line = cli_error(capsys, "validate", str(p))
    assert line.startswith("event 1")
    for op in ("validate", "beliefs", "state", "analyse"):
        assert err({"op": op, "record": bad})["error"] == line
    good = doc(ROOT / "examples" / "teams_4p.json")
    for samples in (-1, 10**9, "8", True):
        assert err({"op": "analyse", "record": good, "samples": samples})["error"].startswith("samples: expected")
    # a contradiction: the same line as the command
    contra = json.loads(json.dumps(rec))
    contra["viewer"]["hand"] = sorted(contra["viewer"]["hand"][:-1] + [4])
    p.write_text(json.dumps(contra))
    line = cli_error(capsys, "validate", str(p))
    assert err({"op": "validate", "record": contra})["error"] == line


# ---------------------------------------------------------------------------
# new_game, move, bot


def test_new_game_is_the_seeded_deal() -> None:
    res = ok("new_game", rules={"players": 5, "mode": "picante"}, seed=12, names=list("ABCDE"))
    game = Game.deal(Rules(5, "picante"), 12)
    record = Record.from_json(res["record"])
    assert record.deal is not None and record.events == () and record.names == tuple("ABCDE")
    assert [list(h) for h in record.deal.hands] == [list(h) for h in game.hands]
    assert list(record.deal.centre) == list(game.centre)
    assert record.first_player == game.to_move and res["seed"] == 12
    again = ok("new_game", rules={"players": 5, "mode": "picante"}, seed=12, names=list("ABCDE"))
    assert again == res
    fixed = ok("new_game", rules={"players": 3, "mode": "simple"}, seed=1, first_player=2)
    assert fixed["record"]["first_player"] == 2
    assert isinstance(ok("new_game", rules={"players": 3, "mode": "simple"})["seed"], int)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_game_through_move_and_bot(seed: int) -> None:
    """Bots choose through ``bot``, the record grows through ``move``; the engine, told the same
    reveals, agrees on every value, status and seat to move."""
    rules = Rules(4, "simple")
    rec = ok("new_game", rules=rules.to_json(), seed=seed)["record"]
    game = Game.deal(rules, seed)
    for step in range(400):
        if game.over:
            break
        choice = ok("bot", record=rec, bot="memory", seed=step)
        seat = game.to_move
        assert choice["seat"] == seat
        # from the mover's view only: the same bot on that view chooses the same
        assert choice["reveal"] == str(make_bot("memory", random.Random(step)).choose_reveal(game.view(seat)))
        r = Reveal.from_str(choice["reveal"])
        value = game.peek(r)
        before = len(game.events)
        game.reveal(r)
        res = ok("move", record=rec, reveal=choice["reveal"])
        assert res["value"] == value and res["to_move"] == game.to_move
        if game.over:
            assert res["status"] == "won"
        elif game.turn:
            assert res["status"] == "continue"
        else:
            last = game.events[before] if len(game.events) > before else game.events[-1]
            values = [x.value for x in last.reveals]  # type: ignore[union-attr]
            assert res["status"] == ("trio" if len(values) == 3 and len(set(values)) == 1 else "failed")
        rec = res["record"]
    assert game.over
    assert Record.from_json(rec).winner == game.winner
    assert Record.from_json(rec).to_json() == Record.from_game(game).to_json()
    e = err({"op": "move", "record": rec, "reveal": "c0"})
    assert "over" in e["error"]


def test_move_on_a_viewer_record_needs_the_value_of_a_hidden_card() -> None:
    rec = doc(ROOT / "examples" / "in_progress_5p.json")
    record = Record.from_json(rec)
    view = record.view()
    assert view.turn  # a turn in progress: the move continues it
    r = view.legal_reveals()[0]
    assert "needs the value" in err({"op": "move", "record": rec, "reveal": str(r)})["error"]
    # the value the turn needs to go on
    v = view.turn[0].value
    res = ok("move", record=rec, reveal=f"{r}={v}")
    new = Record.from_json(res["record"])
    assert len(new.events) == len(record.events)
    assert len(new.events[-1].reveals) == len(record.events[-1].reveals) + 1  # type: ignore[union-attr]
    assert res["value"] == v
    # an impossible value is refused with the event named
    bad = err({"op": "move", "record": rec, "reveal": f"{r}=13"})
    assert "13" in bad["error"]
    # the record keeper's own card needs no value: the record knows it
    own = Reveal.lowest(view.seat)  # type: ignore[arg-type]
    value = view.own_value(own)
    assert value is not None
    res = ok("move", record=rec, reveal=str(own))
    assert res["value"] == value and res == ok("move", record=rec, reveal=f"{own}={value}")
    # what is not a reveal says so, under the argument's name
    assert err({"op": "move", "record": rec, "reveal": "zz"})["error"].startswith('reveal: "zz" is not a reveal')
    for shown in ("=12", "zz=3"):  # a shown card whose place is missing or wrong is named whole
        assert err({"op": "move", "record": rec, "reveal": shown})["error"].startswith(
            f'reveal: "{shown}" is not a shown card: write c<slot>, l<seat> or h<seat> and its value')
    # a seat or slot not at the table: the table's words, with or without the value, with or without the deal
    full = doc(ROOT / "examples" / "full_deal_4p.json")
    full["events"] = full["events"][:3]
    for record, reveal in ((rec, "l9"), (rec, "l9=3"), (full, "l9")):
        assert err({"op": "move", "record": record, "reveal": reveal})["error"] == \
            f"reveal: l9: there is no seat 9 (seats 0 to {record['rules']['players'] - 1})"
    assert err({"op": "move", "record": rec, "reveal": "c99"})["error"] == \
        "reveal: c99: there is no centre slot 99 (slots 0 to 5)"
    assert err({"op": "move", "record": full, "reveal": "zz"})["error"].startswith('reveal: "zz" is not a reveal')
    spectator = {k: v for k, v in rec.items() if k != "viewer"}
    assert err({"op": "move", "record": spectator, "reveal": "l2"})["error"] == (
        'reveal: a record without the deal needs the value shown, such as "l2=10" (a spectator\'s record knows '
        'no hand)')


def test_swap_moves_in_team_play() -> None:
    rec = ok("new_game", rules={"players": 4, "mode": "simple", "teams": True}, seed=5)["record"]
    game = Game.deal(Rules(4, "simple", teams=True), 5)
    (a, b), *_ = game.swap_moment()
    ca, cb = game.hands[a][0], game.hands[b][-1]
    res = ok("move", record=rec, reveal={"swap": [a, b], "cards": [ca, cb]})
    game.swap(a, b, ca, cb)
    assert res["status"] == "swap" and res["value"] is None
    assert Record.from_json(res["record"]).to_json() == Record.from_game(game).to_json()
    again = err({"op": "move", "record": res["record"], "reveal": {"swap": [a, b], "cards": [ca, cb]}})
    assert "event 1" in again["error"]


# ---------------------------------------------------------------------------
# malformed requests


GOOD = doc(ROOT / "examples" / "full_deal_4p.json")


@pytest.mark.parametrize("line, needle", [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "JSON object, got a list"),
    ("42", "JSON object, got 42"),
    ('"advise"', 'JSON object, got "advise"'),
    ('{"op": "version", "op": "version"}', "duplicate key"),
    ('{"op": "version", "x": NaN}', "NaN"),
    (b"\xff\xfe{}", "UTF-8"),
    ("[" * 100_000 + "]" * 100_000, "nested"),
    ('{"op": "version", "id": ' + "9" * 5000 + "}", "not valid JSON: an integer of more than 4300 digits"),
])
def test_unreadable_lines(line: str | bytes, needle: str) -> None:
    resp = err(line)
    assert resp["id"] is None and needle in resp["error"]


@pytest.mark.parametrize("request_, needle", [
    ({"id": 1}, "op: missing"),
    ({"id": 2, "op": "solve"}, 'unknown op "solve"'),
    ({"id": 3, "op": 7}, "op: expected an operation name"),
    ({"id": 4, "op": "beliefs"}, "record: missing"),
    ({"id": 5, "op": "beliefs", "record": "game.json"}, 'expected a trio-record/1 object, got "game.json"'),
    ({"id": 6, "op": "beliefs", "record": GOOD, "seat": "1"}, "seat: expected a seat number"),
    ({"id": 7, "op": "beliefs", "record": GOOD, "seat": True}, "seat: expected a seat number"),
    ({"id": 8, "op": "beliefs", "record": GOOD, "seat": 9}, "expected a seat 0 to 3"),
    ({"id": 9, "op": "beliefs", "record": GOOD, "after": -1}, "after: expected 0 to 17 events, got -1"),
    ({"id": 10, "op": "beliefs", "record": GOOD, "after": 1.5}, "after: expected 0 to 17 events, got 1.5"),
    ({"id": 11, "op": "beliefs", "record": GOOD, "after": 999}, "expected 0 to 17 events"),
    ({"id": 12, "op": "advise", "record": GOOD, "objective": "fun"}, "objective"),
    ({"id": 13, "op": "advise", "record": GOOD, "objectiv": "win"}, "unknown argument"),
    ({"id": 14, "op": "advise", "record": GOOD, "seat": None}, "advice is for the seat to move"),
    ({"id": 15, "op": "bot", "record": GOOD, "bot": "genius"}, 'unknown bot "genius"'),
    ({"id": 16, "op": "bot", "record": GOOD}, "bot: missing"),
    ({"id": 17, "op": "move", "record": GOOD, "reveal": 3}, "reveal: expected a reveal"),
    ({"id": 18, "op": "move", "record": {**GOOD, "events": []}, "reveal": "x9"}, "x9"),
    ({"id": 19, "op": "new_game", "rules": {"players": 7, "mode": "simple"}}, "players"),
    ({"id": 20, "op": "new_game", "rules": {"players": 4, "mode": "simple"}, "seed": "x"}, "seed: expected an integer"),
    ({"id": 21, "op": "evaluate", "record": GOOD, "samples": 0}, "samples"),
    ({"id": [1, {"a": None}], "op": "validate", "record": {"format": "trio-record/1"}}, "rules: missing"),
    ({"id": 23, "op": "validate", "record": {**GOOD, "extra": 1}}, "extra: unknown key"),
    ({"id": 24, "op": "version", "verbose": True}, "unknown argument"),
    ({"id": 25, "op": "advise", "record": GOOD, "seed": 3}, "seed: only for objective \"game\""),
    ({"id": 26, "op": "advise", "record": GOOD, "objective": "trio", "samples": 9}, "samples: only for objective"),
])
def test_bad_requests_get_one_line_and_their_id(request_: dict[str, Any], needle: str) -> None:
    resp = err(request_)
    assert resp["id"] == request_.get("id")
    assert needle in resp["error"], resp["error"]


def test_argument_errors_name_the_argument_as_the_library_does() -> None:
    """The protocol's own checks of an argument and the library's read alike: ``key: reason``, the values
    in JSON's words (``null``, ``"all"``), never the operation's name twice."""
    full = doc(ROOT / "examples" / "full_deal_4p.json")
    bots = ", ".join(BOT_NAMES)
    for request, line in [
        ({"op": "bot", "record": full, "bot": "nosuch"}, f'bot: unknown bot "nosuch" (known: {bots})'),
        ({"op": "state", "record": full, "seat": 7}, 'seat: expected a seat 0 to 3, null (a spectator) or "all", got 7'),
        ({"op": "state", "record": full, "seat": "none"}, 'seat: expected a seat number, null or "all", got "none"'),
        ({"op": "beliefs", "record": full, "seat": 7}, "seat: expected a seat 0 to 3 or null (a spectator), got 7"),
        ({"op": "beliefs", "record": full, "seat": "x"}, 'seat: expected a seat number or null, got "x"'),
        ({"op": "analyze", "record": full, "samples": -1}, "samples: expected 0 to 200000, got -1"),
        ({"op": "move", "record": full, "reveal": {"lowest": 0}},
         'reveal: expected a reveal as a string such as "c3" or "c3=10", or a swap {"swap": [a, b], "cards": '
         '[va, vb] or null}, got an object with the keys ["lowest"]'),
    ]:
        assert err(request)["error"] == line


def test_a_huge_number_out_of_range_is_named_by_its_size() -> None:
    """A number argument out of its range is quoted as the library quotes any value: a huge one by its
    size, not written out digit by digit (a 4,000-digit seed made a 1,000-character error line)."""
    full = doc(ROOT / "examples" / "full_deal_4p.json")
    huge = 10**4000
    for request, line in [
        ({"op": "new_game", "rules": {"players": 3, "mode": "simple"}, "seed": huge},
         f"seed: expected 0 to {2**63 - 1}, got a 13288-bit integer"),
        ({"op": "bot", "record": full, "bot": "memory", "budget": huge},
         "budget: expected 1 to 200000, got a 13288-bit integer"),
        ({"op": "advise", "record": full, "objective": "game", "confidence": huge},
         "confidence: expected a number from 0.5 to 1.0, got a 13288-bit integer"),
        ({"op": "analyse", "record": full, "samples": -1}, "samples: expected 0 to 200000, got -1"),
        ({"op": "evaluate", "record": full, "precision": 1e300},
         "precision: expected a number from 0.0 to 0.5, got 1e+300"),
    ]:
        assert err(request)["error"] == line


def test_every_op_reads_the_arguments_of_its_table_entry() -> None:
    """``OPS`` is the one table of the operations: a request may carry exactly the arguments of its entry,
    and an unknown one is answered by listing them, before any computation."""
    record = doc(ROOT / "examples" / "full_deal_4p.json")
    filled = {"record": record, "rules": record["rules"], "bot": "random", "reveal": "c0", "objective": "game"}
    for name, op in OPS.items():
        assert set(op.required) <= set(op.args) and op.summary
        request = {k: filled[k] for k in op.args if k in filled}
        with pytest.raises(TrioError) as e:
            handle(name, {**request, "extra": 1})
        # reached only once every argument of the entry was read (a reader that asks for an argument
        # outside its entry fails before)
        assert str(e.value) == f"extra: unknown argument (allowed: {', '.join(sorted(op.args)) or 'none'})"


def test_unknown_ops_raise_from_handle() -> None:
    from trio_solver.doors.protocol import UnknownOp

    with pytest.raises(UnknownOp):
        handle("nope", {})
    assert set(OPS) >= {"version", "validate", "state", "beliefs", "advise", "evaluate", "analyse", "new_game",
                        "move", "bot"}


# ---------------------------------------------------------------------------
# the engine process


def engine(lines: list[bytes], timeout: float = 120) -> tuple[int, list[dict[str, Any]], bytes]:
    proc = subprocess.run([sys.executable, "-m", "trio_solver", "engine"], input=b"".join(lines),
                          capture_output=True, timeout=timeout)
    out = [json.loads(x) for x in proc.stdout.decode("utf-8").splitlines()]
    return proc.returncode, out, proc.stderr


def test_engine_answers_every_line_in_order_and_goes_on() -> None:
    rec = doc(ROOT / "examples" / "viewer_3p_picante.json")
    huge = b'{"id": "big", "op": "validate", "record": "' + b"x" * (MAX_REQUEST_BYTES + 10) + b'"}\n'
    lines = [
        json.dumps({"id": 1, "op": "version"}).encode() + b"\n",
        b"this is not json\n",
        b"\n",  # blank lines are skipped
        json.dumps({"id": "b", "op": "beliefs", "record": rec}).encode() + b"\n",
        b"[]\n",
        huge,
        json.dumps({"id": None, "op": "nope"}).encode() + b"\n",
        json.dumps({"id": {"k": [1]}, "op": "validate", "record": {**rec, "events": 3}}).encode() + b"\n",
        "{\"id\": \"é\", \"op\": \"state\", \"record\": ".encode() + json.dumps(rec).encode() + b"}\r\n",
        json.dumps({"id": 9, "op": "version"}).encode(),  # last line without a newline
    ]
    code, out, stderr = engine(lines)
    assert code == 0 and stderr == b""
    assert [r["id"] for r in out] == [1, None, "b", None, None, None, {"k": [1]}, "é", 9]
    assert [r["ok"] for r in out] == [True, False, True, False, False, False, False, True, True]
    assert out[0]["result"]["protocol"] == 1
    assert "larger than" in out[4]["error"]
    assert out[2]["result"] == handle("beliefs", {"record": rec})
    assert "events" in out[6]["error"]


def test_engine_ends_cleanly_on_empty_input() -> None:
    code, out, stderr = engine([])
    assert code == 0 and out == [] and stderr == b""


def test_engine_is_interactive() -> None:
    """A frontend writes a request and reads its answer before writing the next."""
    proc = subprocess.Popen([sys.executable, "-m", "trio_solver", "engine"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for k in range(3):
            proc.stdin.write(json.dumps({"id": k, "op": "new_game", "rules": {"players": 3, "mode": "simple"},
                                         "seed": k}).encode() + b"\n")
            proc.stdin.flush()
            resp = json.loads(proc.stdout.readline())
            assert resp["id"] == k and resp["ok"] and resp["result"]["seed"] == k
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


def test_the_readme_engine_example() -> None:
    """The README's engine example gives the answers its comments show."""
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"\*\*Engine over stdio\.\*\*.*?```bash\n(.*?)```", readme, flags=re.S)
    assert block is not None
    text = block.group(1)
    requests = re.findall(r"'(\{.*?\})'", text)
    # each comment shows the start of the response, up to where it elides with "..."
    shown = [line[2:].split("{...}")[0].split(", ...")[0] for line in text.splitlines() if line.startswith("# {")]
    assert len(requests) == 2 and len(shown) == 2
    code, out, _ = engine([r.encode() + b"\n" for r in requests])
    assert code == 0 and len(out) == 2
    for got, prefix in zip(out, shown):
        assert json.dumps(got, ensure_ascii=False).startswith(prefix), (got, prefix)


def test_bot_op_runs_every_bot_from_the_movers_view() -> None:
    rec = doc(ROOT / "examples" / "full_deal_4p.json")
    rec["events"] = rec["events"][:3]
    record = Record.from_json(rec)
    view = record.view(record.view(None).to_move)
    from trio_solver.decide.bots import BOT_NAMES

    for name in BOT_NAMES:
        got = ok("bot", record=rec, bot=name, seed=5, budget=20)
        want = make_bot(name, random.Random(5), budget=20).choose_reveal(view)
        assert got == {"reveal": str(want), "seat": view.to_move}
    assert "budget" in err({"op": "bot", "record": rec, "bot": "expert", "budget": 0})["error"]


def test_bot_op_gives_a_swap_card_from_the_partners_view() -> None:
    """With ``swap_seat`` the bot op answers the card a bot gives at that seat's team swap, as the bot
    chooses it from that seat's view; the moment closes at the first reveal, and the op says so."""
    game = Game.deal(Rules(4, "simple", teams=True), seed=11)
    rec = {"format": "trio-record/1", **game.to_json(), "events": []}
    record = Record.from_json(rec)
    for name in ("random", "memory", "solver", "expert"):
        for seat in range(4):
            got = ok("bot", record=rec, bot=name, seed=7, budget=20, swap_seat=seat)
            want = make_bot(name, random.Random(7), budget=20).choose_swap(record.view(seat))
            assert got == {"card": want, "seat": seat}
            assert want is None or want in game.hands[seat]
    assert "swap_seat: expected 0 to 3, got 4" in err({"op": "bot", "record": rec, "bot": "solver", "swap_seat": 4})["error"]
    moved = ok("move", record=rec, reveal=str(game.view(game.to_move).legal_reveals()[0]))["record"]
    assert "seat 1's team has no swap moment now" in err({"op": "bot", "record": moved, "bot": "solver",
                                                           "swap_seat": 1})["error"]
    plain = doc(ROOT / "examples" / "full_deal_4p.json")  # no teams: never a swap moment
    plain["events"] = plain["events"][:3]
    assert "no swap moment" in err({"op": "bot", "record": plain, "bot": "solver", "swap_seat": 0})["error"]
