"""The engine protocol and the HTTP service's requests: the wire (docs/INTERFACE.md).

One request is a JSON object ``{"op": NAME, ...arguments}``; :func:`handle`
reads its arguments as the operation's entry of :data:`OPS` says, runs the
question of :mod:`~trio_solver.doors.queries` (the functions the commands call
too, so the three doors give the same answers) and returns the ``result``
object, or raises a :class:`~trio_solver.errors.TrioError` whose message is the
one line a frontend shows. :data:`OPS` is the one table of the operations: their
names, arguments and summaries; the HTTP service builds its routes and its
OpenAPI schema from it.

:func:`run_engine` is ``trio-solver engine``: JSON lines in, JSON lines out.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any, Literal, NoReturn

from .. import __version__, limits
from .._args import SEED_RANGE, check_text, show
from .._json import kind, strict_loads, strings
from .._text import MAX_TEXT
from ..decide.bots import BOT_NAMES
from ..decide.stopping import MAX_DEALS as MAX_SAMPLES
from ..errors import IllegalMoveError, NotationError, RecordError, TrioError
from ..game.record import DEFAULT_SEAT, MAX_RECORD_BYTES, Record, SeatChoice
from ..game.reveal import Reveal, Revealed
from ..game.rules import Rules
from ..infer.facts import MAX_SWAP_BUDGET
from ..infer.validate import read_record
from . import queries

__all__ = [
    "PROTOCOL",
    "Op",
    "OPS",
    "MAX_REQUEST_BYTES",
    "UnknownOp",
    "error_text",
    "RequestError",
    "handle",
    "respond",
    "read_id",
    "encode_response",
    "parse_request",
    "run_engine",
]

#: Version of the request/response format.
PROTOCOL = 1

#: A request line or HTTP body may be this long: the record size limit plus room for the arguments.
MAX_REQUEST_BYTES = MAX_RECORD_BYTES + 64 * 1024


class RequestError(TrioError):
    """A request the protocol cannot run: not JSON, wrong argument types, an unknown operation."""


class UnknownOp(RequestError):
    """A request naming an operation that does not exist (HTTP 404)."""


# -- reading requests ------------------------------------------------------------------


def _kind(x: Any) -> str:
    """A wrong argument in a message: a list or an object by its kind (it may be large), any other value
    as itself in JSON's notation (``"none"``, ``1.5``, ``true``, ``null``), as the library shows values."""
    return kind(x) if isinstance(x, (dict, list)) else show(x)


def parse_request(text: str | bytes) -> dict[str, Any]:
    """Parse one request (a JSON object); raises :class:`RequestError` with one line."""
    if len(text) > MAX_REQUEST_BYTES:
        raise RequestError(f"request larger than {MAX_REQUEST_BYTES // (1024 * 1024)} MB; a game record is a few kB")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise RequestError(f"request is not UTF-8 text (byte {e.start})") from None
    try:
        data = strict_loads(text, "request")
    except RecordError as e:
        raise RequestError(str(e)) from None
    if not isinstance(data, dict):
        raise RequestError(f"a request is a JSON object, got {_kind(data)}")
    return data


class _Args:
    """The arguments of one request, checked as they are read; one that is not among the operation's
    arguments (``allowed``, its entry of :data:`OPS`) is an error."""

    def __init__(self, op: str, data: dict[str, Any], allowed: dict[str, Any]) -> None:
        self.op = op
        self.data = data
        self.allowed = allowed

    def _get(self, key: str) -> Any:
        assert key in self.allowed, f"{self.op}: {key} is not an argument of its entry in OPS"
        return self.data.get(key)

    def fail(self, key: str, reason: str) -> NoReturn:
        """Raise the one line ``key: reason``, as the library names its arguments (and the command line
        its options) in the errors the protocol passes on."""
        raise RequestError(f"{key}: {reason}")

    def record(self) -> Record:
        self._get("record")
        if "record" not in self.data:
            self.fail("record", "missing (a trio-record/1 object)")
        raw = self.data["record"]
        if not isinstance(raw, dict):
            self.fail("record", f"expected a trio-record/1 object, got {_kind(raw)}")
        return read_record(raw)

    def seat(self) -> SeatChoice:
        """``seat``: a number (checked against the record by :meth:`Record.seat`) or ``null`` (a
        spectator); absent: the record's default."""
        s = self._seat(allow_all=False)
        assert s != "all"
        return s

    def seat_or_all(self) -> SeatChoice | Literal["all"]:
        """:meth:`seat`, or ``"all"``: every hand (a full-deal record)."""
        return self._seat(allow_all=True)

    def _seat(self, allow_all: bool) -> SeatChoice | Literal["all"]:
        s = self._get("seat")
        if "seat" not in self.data:
            return DEFAULT_SEAT
        if s is None:
            return None
        if allow_all and s == "all":
            return "all"
        if isinstance(s, bool) or not isinstance(s, int):
            also = ', null or "all"' if allow_all else " or null"
            self.fail("seat", f"expected a seat number{also}, got {_kind(s)}")
        return s

    def int_(self, key: str, *, minimum: int = 0, maximum: int | None = None, default: int | None = None) -> int | None:
        x = self._get(key)
        if x is None:
            return default
        if isinstance(x, bool) or not isinstance(x, int):
            self.fail(key, f"expected an integer, got {_kind(x)}")
        if x < minimum or (maximum is not None and x > maximum):
            self.fail(key, f"expected {minimum} to {maximum}, got {show(x)}" if maximum is not None
                      else f"expected {minimum} or more, got {show(x)}")
        return x

    def after(self, record: Record) -> int | None:
        """``after``: a number of the record's events, 0 to all of them, as the library words it."""
        x = self._get("after")
        if x is not None and (isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= len(record.events)):
            self.fail("after", f"expected 0 to {len(record.events)} events, got {_kind(x)}")
        return x

    def seed(self) -> int:
        """``seed``: any 64-bit integer, 0 when absent."""
        seed = self.int_("seed", minimum=SEED_RANGE[0], maximum=SEED_RANGE[1], default=0)
        assert seed is not None
        return seed

    def float_(self, key: str, minimum: float, maximum: float) -> float | None:
        """A finite number ``minimum`` to ``maximum`` (``None`` when absent)."""
        x = self._get(key)
        if x is None:
            return None
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not minimum <= x <= maximum:
            self.fail(key, f"expected a number from {minimum} to {maximum}, got {_kind(x)}")
        return float(x)

    def str_(self, key: str, default: str | None = None) -> str | None:
        x = self._get(key)
        if x is None:
            return default
        if not isinstance(x, str):
            self.fail(key, f"expected a string, got {_kind(x)}")
        return x

    def raw(self, key: str) -> Any:
        return self._get(key)

    def done(self) -> None:
        extra = [k for k in self.data if k not in self.allowed]
        if extra:
            allowed = ", ".join(sorted(self.allowed)) or "none"
            key = extra[0]
            # named as a record names an unknown key: as it is, quoted as JSON when it is long or not printable
            name = key if len(key) <= 60 and key.isprintable() else show(key, 60)
            self.fail(name, f"unknown argument (allowed: {allowed})")


# -- the operations ------------------------------------------------------------------------


def _op_version(a: _Args) -> dict[str, Any]:
    a.done()
    return {"version": __version__, "protocol": PROTOCOL, "ops": sorted(OPS)}


def _op_validate(a: _Args) -> dict[str, Any]:
    record = a.record()
    a.done()
    return queries.validate(record).to_json()


def _op_replay(a: _Args) -> dict[str, Any]:
    record = a.record()
    seat = a.seat_or_all()
    after = a.after(record)
    a.done()
    return queries.replay(record, seat, after)


def _op_state(a: _Args) -> dict[str, Any]:
    record = a.record()
    seat = a.seat_or_all()
    after = a.after(record)
    a.done()
    return queries.state(record, seat, after)


def _op_beliefs(a: _Args) -> dict[str, Any]:
    record = a.record()
    seat = a.seat()
    after = a.after(record)
    budget = a.int_("swap_budget", minimum=1, maximum=MAX_SWAP_BUDGET)
    a.done()
    data: dict[str, Any] = queries.beliefs(record, seat, after, budget).to_json(after)
    return data


def _op_advise(a: _Args) -> dict[str, Any]:
    record = a.record()
    seat = a.seat()
    after = a.after(record)
    objective = a.str_("objective", "turn")
    assert objective is not None
    samples = a.int_("samples", minimum=1, maximum=MAX_SAMPLES)
    seed = a.seed()
    confidence = a.float_("confidence", 0.5, 1.0)
    a.done()
    if objective != "game" and samples is not None:
        a.fail("samples", "only for objective \"game\"")
    if objective != "game" and confidence is not None:
        a.fail("confidence", "only for objective \"game\"")
    if objective != "game" and "seed" in a.data:
        a.fail("seed", "only for objective \"game\"")
    return queries.advise(record, seat, after, objective, samples=samples, seed=seed, confidence=confidence)[1]


def _op_evaluate(a: _Args) -> dict[str, Any]:
    record = a.record()
    seat = a.seat()
    after = a.after(record)
    samples = a.int_("samples", minimum=1, maximum=MAX_SAMPLES)
    seed = a.seed()
    precision = a.float_("precision", 0.0, 0.5)
    a.done()
    return queries.evaluate(record, seat, after, samples=samples, seed=seed, precision=precision)[1]


def _op_analyse(a: _Args) -> dict[str, Any]:
    record = a.record()
    samples = a.int_("samples", minimum=0, maximum=MAX_SAMPLES)  # 0: by the turn only, as --quick
    seed = a.seed()
    confidence = a.float_("confidence", 0.5, 1.0)
    a.done()
    data: dict[str, Any] = queries.analysis(record, samples=samples, seed=seed, confidence=confidence).to_json()
    return data


def _op_new_game(a: _Args) -> dict[str, Any]:
    raw_rules = a.raw("rules")
    if raw_rules is None:
        a.fail("rules", "missing (as in a record: {\"players\": 4, \"mode\": \"simple\"})")
    rules = Rules.from_json(raw_rules)
    seed = a.int_("seed", minimum=0, maximum=2**63 - 1)
    if seed is None:
        seed = int.from_bytes(os.urandom(6), "big")
    first = a.int_("first_player", maximum=rules.players - 1)
    names = a.raw("names")  # checked by Record.from_game, as the names of any record
    a.done()
    return queries.new_game(rules, seed, first, names)


def _op_move(a: _Args) -> dict[str, Any]:
    record = a.record()
    move = a.raw("reveal")
    a.done()
    if isinstance(move, dict):
        if set(move) - {"swap", "cards"} or "swap" not in move:
            a.fail("reveal", "expected a reveal as a string such as \"c3\" or \"c3=10\", or a swap "
                             "{\"swap\": [a, b], \"cards\": [va, vb] or null}, got an object with "
                             f"the keys {show(sorted(map(str, move)), 60)}")
        return queries.add_swap(record, move["swap"], move.get("cards"))
    if not isinstance(move, str):
        a.fail("reveal", f"expected a reveal such as \"c3\" or \"c3=10\", or a swap object, got {_kind(move)}")
    text = move.strip()
    try:
        parsed = Revealed.from_str(text) if "=" in text else Reveal.from_str(text)
        # the table's own check, in the table's words, whatever the record (a seat or slot not at the table,
        # an empty slot, a card face up, a game over)
        record.view(None).table_copy().check_reveal(parsed.reveal if isinstance(parsed, Revealed) else parsed)
    except (NotationError, IllegalMoveError) as e:
        a.fail("reveal", str(e))
    if isinstance(parsed, Reveal) and record.deal is None:
        # a record without the deal: the record keeper knows the cards of its own hand
        value = record.view().own_value(parsed)
        if value is None:
            known = ("only the record keeper's own cards are known" if record.viewer is not None
                     else "a spectator's record knows no hand")
            a.fail("reveal", f"a record without the deal needs the value shown, such as \"{text[:20]}=10\" ({known})")
        parsed = Revealed(parsed, value)
    return queries.add_reveal(record, parsed)


def _op_bot(a: _Args) -> dict[str, Any]:
    record = a.record()
    name = a.str_("bot")
    if name is None:
        a.fail("bot", f"missing (one of {', '.join(BOT_NAMES)})")
    if name not in BOT_NAMES:
        a.fail("bot", f"unknown bot {show(name)} (known: {', '.join(BOT_NAMES)})")
    seed = a.int_("seed", minimum=0, maximum=2**63 - 1, default=0)
    assert seed is not None
    budget = a.int_("budget", minimum=1, maximum=MAX_SAMPLES)
    swap_seat = a.int_("swap_seat", maximum=record.rules.players - 1)
    a.done()
    if swap_seat is not None:
        return queries.bot_swap(record, name, swap_seat, seed, budget)
    return queries.bot_reveal(record, name, seed, budget)


@dataclass(frozen=True)
class Op:
    """One operation of the protocol: how it runs, what it does, and its arguments (the JSON Schema
    of each, and those that are required). The request reader accepts exactly these arguments."""

    run: Callable[[_Args], dict[str, Any]]
    summary: str
    args: dict[str, dict[str, Any]] = field(default_factory=dict)
    required: tuple[str, ...] = ()


_RECORD = {"type": "object", "description": "a trio-record/1 document"}
_SEAT = {"type": ["integer", "null"], "description": "whose view; null: a spectator; omitted: the record's default"}
_SEAT_OR_ALL = {"type": ["integer", "null", "string"]}
_AFTER = {"type": "integer", "minimum": 0, "description": "the position after the first N events"}
_SEED = {"type": "integer"}

#: The operations, in the order the errors and the HTTP service list them.
OPS: dict[str, Op] = {
    "version": Op(_op_version, "The library version and the protocol number."),
    "validate": Op(_op_validate, "Check a record against the rules and that some deal fits it: the summary of "
                                 "`validate --json`.", {"record": _RECORD}, ("record",)),
    "replay": Op(_op_replay, "The table after each event from one seat's view: the JSON of `replay --json`.",
                 {"record": _RECORD, "seat": _SEAT_OR_ALL, "after": _AFTER}, ("record",)),
    "state": Op(_op_state, "One frame of `replay --json` (the position after `after` events) plus `legal`, the "
                           "legal reveals.", {"record": _RECORD, "seat": _SEAT_OR_ALL, "after": _AFTER}, ("record",)),
    "beliefs": Op(_op_beliefs, "The exact probabilities of the hidden cards: the JSON of `beliefs --json`.",
                  {"record": _RECORD, "seat": _SEAT, "after": _AFTER, "swap_budget": {"type": "integer"}},
                  ("record",)),
    "advise": Op(_op_advise, "Every legal reveal of the seat to move with p_trio and p_win: the JSON of "
                             "`advise --json`.",
                 {"record": _RECORD, "seat": _SEAT, "after": _AFTER,
                  "objective": {"type": "string", "enum": list(queries.OBJECTIVES), "default": "turn",
                                "description": "turn: the turn's worth (3 p_win + p_trio + 0.5 progress / goal); "
                                               "trio or win: that chance first; game: the chance to win the game"},
                  "samples": {"type": "integer", "description": "game: the most posterior deals per reveal"},
                  "seed": _SEED,
                  "confidence": {"type": "number", "description": "game: stop once the ranking is clear at this"}},
                 ("record",)),
    "evaluate": Op(_op_evaluate, "Each seat's chance to win the game from the position: the JSON of "
                                 "`evaluate --json`.",
                   {"record": _RECORD, "seat": _SEAT, "after": _AFTER,
                    "samples": {"type": "integer", "description": "the most playouts"}, "seed": _SEED,
                    "precision": {"type": "number", "description": "stop once each standard error is at most this"}},
                   ("record",)),
    "analyse": Op(_op_analyse, "Every decision of the known seats judged against the best reveal: the JSON of "
                               "`analyse --json`.",
                  {"record": _RECORD,
                   "samples": {"type": "integer", "description": "the most deals per reveal; 0: by the turn only"},
                   "seed": _SEED,
                   "confidence": {"type": "number", "description": "stop once each label is clear at this"}},
                  ("record",)),
    "new_game": Op(_op_new_game, "A new full-deal record with no events, dealt from `seed`.",
                   {"rules": {"type": "object"}, "seed": _SEED, "first_player": {"type": "integer"},
                    "names": {"type": "array", "items": {"type": "string"}}}, ("rules",)),
    "move": Op(_op_move, "The record with one reveal (`c3`, or `c3=10` for a record without the deal) or swap "
                         "added.",
               {"record": _RECORD, "reveal": {"type": ["string", "object"],
                                              "description": "c3, or c3=10, or {\"swap\": [a, b], \"cards\": [va, vb]}"}},
               ("record", "reveal")),
    "bot": Op(_op_bot, "The reveal a bot chooses for the seat to move, or with swap_seat the card it gives at "
                       "that seat's team swap, from that seat's view only.",
              {"record": _RECORD, "bot": {"type": "string", "enum": list(BOT_NAMES)}, "seed": _SEED,
               "budget": {"type": "integer", "description": "expert: playouts a decision"},
               "swap_seat": {"type": "integer", "description": "a seat whose team may swap now: the card the "
                                                               "bot gives for it ({\"card\": value or null})"}},
              ("record", "bot")),
}


def handle(op: str, args: dict[str, Any]) -> dict[str, Any]:
    """Run operation ``op`` on ``args`` (the request without ``op`` and ``id``).

    Returns the result object; raises :class:`TrioError` (one line) for a bad request,
    :class:`UnknownOp` for an operation that does not exist."""
    if not isinstance(op, str):
        raise RequestError(f"op: expected an operation name, got {_kind(op)}")
    name = "analyse" if op == "analyze" else op
    entry = OPS.get(name)
    if entry is None:
        raise UnknownOp(f"unknown op {show(op, 60)} (known: {', '.join(OPS)})")
    with limits.named(name):  # a time limit names the operation, not the step it stopped in
        return entry.run(_Args(name, args, entry.args))


def error_text(e: BaseException) -> str:
    """The one line for an error that escaped an operation."""
    if isinstance(e, TrioError):
        return " ".join(str(e).split("\n"))
    if isinstance(e, RecursionError):
        return "input nested too deeply"
    if isinstance(e, MemoryError):
        return "out of memory"
    return f"internal error ({type(e).__name__}); please report it with the request"


def read_id(rid: Any) -> Any:
    """A request's ``id`` as it is echoed back: any JSON value of at most :data:`~trio_solver._text.MAX_TEXT`
    characters as JSON whose strings are plain text (:func:`~trio_solver._args.check_text`); else
    :class:`RequestError` naming ``id``."""
    for place, text in strings(rid):
        check_text(f"id{'.' + place if place and not place.startswith('[') else place}", text, RequestError)
    size = len(json.dumps(rid, ensure_ascii=False))
    if size > MAX_TEXT:
        raise RequestError(f"id: longer than {MAX_TEXT} characters as JSON ({size})")
    return rid


def respond(line: str | bytes) -> dict[str, Any]:
    """The response object for one request line of the engine protocol."""
    try:
        data = parse_request(line)
    except TrioError as e:
        return {"id": None, "ok": False, "error": error_text(e)}
    try:
        rid = read_id(data.pop("id", None))
    except TrioError as e:
        return {"id": None, "ok": False, "error": error_text(e)}
    if "op" not in data:
        return {"id": rid, "ok": False, "error": f"op: missing (one of {', '.join(OPS)})"}
    op = data.pop("op")
    try:
        result = handle(op, data)
    except Exception as e:  # noqa: BLE001 - every failure is answered, the engine goes on
        return {"id": rid, "ok": False, "error": error_text(e)}
    return {"id": rid, "ok": True, "result": result}


def encode_response(resp: dict[str, Any]) -> bytes:
    """One response as a line of UTF-8 JSON; a result that cannot be written as JSON becomes an
    error response for the same id (the id was checked, so it always can be)."""
    try:
        return json.dumps(resp, ensure_ascii=False, allow_nan=False).encode("utf-8") + b"\n"
    except (ValueError, TypeError):  # UnicodeEncodeError is a ValueError
        fallback = {"id": resp.get("id"), "ok": False, "error": "internal error: a result that is not JSON; "
                    "please report it with the request"}
        return json.dumps(fallback, ensure_ascii=True).encode("ascii") + b"\n"


def _read_line(stream: IO[bytes]) -> bytes | None:
    """One line of at most :data:`MAX_REQUEST_BYTES` (longer lines are skipped to their end and
    returned cut, so they fail as too large); ``None`` at end of input."""
    line = stream.readline(MAX_REQUEST_BYTES + 1)
    if not line:
        return None
    if len(line) > MAX_REQUEST_BYTES and not line.endswith(b"\n"):
        while True:
            rest = stream.readline(1 << 20)
            if not rest or rest.endswith(b"\n"):
                break
    return line


def run_engine(stdin: IO[bytes], stdout: IO[bytes], *, time_limit: float | None = None) -> int:
    """``trio-solver engine``: answer one JSON request per line until end of input; returns 0.

    ``time_limit`` (seconds, ``None``: none) bounds each request on its own: a request that runs past
    it is answered with an error response (``... stopped at the time limit of S s``) and the next
    one has the whole limit again. With a limit the compiled playout kernel is loaded before the
    first request is read (:func:`~trio_solver.doors.queries.warm_up`: a second or two, or its
    build on a machine's first run), so that no request pays for it. A limit that is not a number
    of seconds above 0 and at most :data:`~trio_solver.limits.MAX_SECONDS` raises
    :class:`~trio_solver.errors.LimitError` before anything is read."""
    queries.warm_up_for(time_limit)
    while True:
        line = _read_line(stdin)
        if line is None:
            return 0
        if not line.strip():
            continue
        with limits.time_limit(time_limit):
            response = respond(line)
        stdout.write(encode_response(response))
        stdout.flush()

