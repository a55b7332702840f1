"""The operations of the engine protocol and the HTTP service (docs/INTERFACE.md).

One request is a JSON object ``{"op": NAME, ...arguments}``; :func:`handle`
turns it into the ``result`` object or raises a :class:`~trio_solver.errors.TrioError`
whose message is the one line a frontend shows. The JSON of every operation is
built by the same functions as the ``--json`` output of the commands
(:func:`replay_json`, :func:`beliefs_of`, :func:`advise_result`,
:func:`analysis_of`), so the three doors give the same answers.

:func:`run_engine` is ``trio-solver engine``: JSON lines in, JSON lines out.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any, NoReturn, cast

from .._args import check_text, show
from .._json import strict_loads, strings
from .._text import MAX_TEXT
from ..errors import RecordError, TrioError
from ..game.record import MAX_RECORD_BYTES, Record
from ..decide.stopping import DEFAULT_CONFIDENCE
from ..decide.stopping import MAX_DEALS as MAX_SAMPLES

if TYPE_CHECKING:
    from ..report.analysis import Analysis
    from ..infer.beliefs import Beliefs
    from ..game.state import Game
    from ..decide.evaluate import GameEvaluation
    from ..decide.search import Advice
    from ..game.view import PlayerView

__all__ = [
    "PROTOCOL",
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
    "replay_json",
    "beliefs_of",
    "advise_result",
    "evaluate_result",
    "analysis_of",
]

#: Version of the request/response format.
PROTOCOL = 1

#: A request line or HTTP body may be this long: the record size limit plus room for the arguments.
MAX_REQUEST_BYTES = MAX_RECORD_BYTES + 64 * 1024


class RequestError(TrioError):
    """A request the protocol cannot run: not JSON, wrong argument types, an unknown operation."""


class UnknownOp(RequestError):
    """A request naming an operation that does not exist (HTTP 404)."""


# -- the JSON of the commands -----------------------------------------------------------


def replay_json(record: Record, seat: int | None | str = "default", after: int | None = None) -> dict[str, Any]:
    """The JSON of ``replay --json``: the table after 0, 1, ... ``after`` events from ``seat``'s view.

    ``seat`` is a seat, ``None`` (a spectator), ``"all"`` (every hand; full-deal records)
    or ``"default"`` (the viewer, else every hand for a full-deal record, else a spectator).
    """
    from ..report.render import describe_event, frame, move_json

    if seat == "default":
        seat = record.viewer.seat if record.viewer is not None else ("all" if record.deal is not None else None)
    if seat == "all" and record.deal is None:
        raise RecordError("seat", "'all' needs a record with the whole deal")
    last = len(record.events) if after is None else after
    if not isinstance(last, int) or isinstance(last, bool) or not 0 <= last <= len(record.events):
        raise RecordError("after", f"expected 0 to {len(record.events)} events, got {show(last)}")
    if seat is not None and seat != "all" and (not isinstance(seat, int) or isinstance(seat, bool)
                                               or not 0 <= seat < record.rules.players):
        raise RecordError("seat", f"expected a seat 0 to {record.rules.players - 1}, none or all, got {show(seat)}")
    if record.deal is None and seat != (record.viewer.seat if record.viewer is not None else None):
        record.view(seat)  # raises: this record does not know that seat's hand
    # the events as the chosen view saw them: other teams' swap values stay secret
    shown = record.events if seat == "all" else record.view(seat).events
    frames = []
    for k, state in enumerate(record.states()[: last + 1]):
        label = "start" if k == 0 else describe_event(shown[k - 1], record.names)
        move = None if k == 0 else move_json(shown[k - 1])
        frames.append({"after": k, "event": None if k == 0 else k - 1, "description": label, "move": move,
                       **frame(cast("Game | PlayerView", state), seat)})
    return {"seat": seat, "frames": frames}


def beliefs_of(record: Record, seat: int | None | str = "default", after: int | None = None,
               swap_budget: int | None = None) -> Beliefs:
    """The :class:`~trio_solver.infer.beliefs.Beliefs` of ``beliefs``: raises the explained contradiction
    when no deal fits. Its ``to_json(after)`` is the JSON of ``beliefs --json``."""
    from ..infer.beliefs import Beliefs
    from ..infer.facts import STATE_BUDGET

    if seat == "all":
        raise RecordError("seat", "beliefs are for one seat or 'none' (a spectator)")
    view = record.view(seat, after)
    beliefs = Beliefs(view, swap_budget=STATE_BUDGET if swap_budget is None else swap_budget)
    if not beliefs.consistent:
        from ..infer.validate import explain_contradiction

        raise explain_contradiction(record)
    return beliefs


def advise_result(record: Record, seat: int | None | str = "default", after: int | None = None,
                  objective: str = "win", *, samples: int | None = None, seed: int = 0,
                  confidence: float | None = None) -> tuple[Advice, dict[str, Any]]:
    """The :class:`~trio_solver.decide.search.Advice` for the seat to move and the JSON of ``advise --json``.

    ``objective`` is ``trio``, ``win`` or ``game`` (ranked by the chance to win the game, from at most
    ``samples`` posterior deals drawn from ``seed``, until the ranking is clear at ``confidence``)."""
    from ..decide.search import advise

    if seat == "all" or seat is None:
        raise RecordError("seat", "advice is for the seat to move, whose hand must be known")
    if objective not in ("trio", "win", "game"):
        raise RequestError(f"objective: expected 'trio', 'win' or 'game', got {objective!r}")
    view = record.view(seat, after)
    if objective == "game":
        from ..decide.evaluate import DEFAULT_ADVISE_SAMPLES, advise_game

        advice = advise_game(view, samples=DEFAULT_ADVISE_SAMPLES if samples is None else samples, seed=seed,
                             confidence=DEFAULT_CONFIDENCE if confidence is None else confidence)
    else:
        advice = advise(view, objective)  # type: ignore[arg-type]
    data = advice.to_json()
    data["after"] = len(view.events) if after is None else after
    return advice, data


def evaluate_result(record: Record, seat: int | None | str = "default", after: int | None = None, *,
                    samples: int | None = None, seed: int = 0,
                    precision: float | None = None) -> tuple[GameEvaluation, dict[str, Any]]:
    """The :class:`~trio_solver.decide.evaluate.GameEvaluation` of ``evaluate`` and its JSON (``evaluate --json``):
    at most ``samples`` playouts, fewer once each side's standard error is at most ``precision``."""
    from ..decide.evaluate import DEFAULT_PRECISION, DEFAULT_SAMPLES, evaluate

    if seat == "all":
        raise RecordError("seat", "evaluate is for one seat or 'none' (a spectator)")
    view = record.view(seat, after)
    result = evaluate(view, samples=DEFAULT_SAMPLES if samples is None else samples, seed=seed,
                      precision=DEFAULT_PRECISION if precision is None else precision)
    after_n = len(view.events) if after is None else after
    data: dict[str, Any] = result.to_json(after_n)
    return result, data


def analysis_of(record: Record, progress: Callable[[int, int], None] | None = None, *,
                samples: int | None = None, seed: int = 0, confidence: float | None = None) -> Analysis:
    """The :class:`~trio_solver.report.analysis.Analysis` of ``analyse``; its ``to_json()`` is ``analyse --json``.

    ``samples``: the most posterior deals per candidate reveal (``None``: the default; ``0``: judge by
    the turn only); ``confidence``: at which each label counts as clear (``None``: the default)."""
    from ..report.analysis import DEFAULT_SAMPLES, analyse

    if not record.known_seats():
        raise RecordError("record", "no seat's hand is known: a spectator record cannot be analysed")
    return analyse(record, progress, samples=DEFAULT_SAMPLES if samples is None else samples, seed=seed,
                   confidence=DEFAULT_CONFIDENCE if confidence is None else confidence)


# -- reading requests ------------------------------------------------------------------


def _kind(x: Any) -> str:
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "a boolean"
    return {dict: "an object", list: "a list", str: "a string", int: "an integer", float: "a number"}.get(
        type(x), type(x).__name__)


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
    """The arguments of one request, checked as they are read; unread ones are errors."""

    def __init__(self, op: str, data: dict[str, Any]) -> None:
        self.op = op
        self.data = data
        self.used: set[str] = set()

    def _get(self, key: str) -> Any:
        self.used.add(key)
        return self.data.get(key)

    def fail(self, key: str, reason: str) -> NoReturn:
        raise RequestError(f"{self.op}: {key}: {reason}")

    def record(self) -> Record:
        self.used.add("record")
        if "record" not in self.data:
            self.fail("record", "missing (a trio-record/1 object)")
        raw = self.data["record"]
        if not isinstance(raw, dict):
            self.fail("record", f"expected a trio-record/1 object, got {_kind(raw)}")
        return Record.from_json(raw)

    def seat(self, allow_all: bool = False) -> int | None | str:
        self.used.add("seat")
        if "seat" not in self.data:
            return "default"
        s = self.data["seat"]
        if s is None:
            return None
        if allow_all and s == "all":
            return "all"
        if isinstance(s, bool) or not isinstance(s, int):
            also = ' or "all"' if allow_all else ""
            self.fail("seat", f"expected a seat number or null{also}, got {_kind(s)}")
        return s

    def int_(self, key: str, *, minimum: int = 0, maximum: int | None = None, default: int | None = None) -> int | None:
        x = self._get(key)
        if x is None:
            return default
        if isinstance(x, bool) or not isinstance(x, int):
            self.fail(key, f"expected an integer, got {_kind(x)}")
        if x < minimum or (maximum is not None and x > maximum):
            self.fail(key, f"expected {minimum} to {maximum}, got {x}" if maximum is not None
                      else f"expected {minimum} or more, got {x}")
        return x

    def float_(self, key: str, minimum: float, maximum: float) -> float | None:
        """A finite number ``minimum`` to ``maximum`` (``None`` when absent)."""
        x = self._get(key)
        if x is None:
            return None
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not minimum <= x <= maximum:
            self.fail(key, f"expected a number from {minimum} to {maximum}, got {_kind(x)}"
                      if isinstance(x, bool) or not isinstance(x, (int, float)) else
                      f"expected a number from {minimum} to {maximum}, got {x}")
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
        extra = [k for k in self.data if k not in self.used]
        if extra:
            allowed = ", ".join(sorted(self.used)) or "none"
            self.fail(repr(extra[0])[:60], f"unknown argument (allowed: {allowed})")


# -- the operations ------------------------------------------------------------------------


def _op_version(a: _Args) -> dict[str, Any]:
    from .. import __version__

    a.done()
    return {"version": __version__, "protocol": PROTOCOL, "ops": sorted(OPS)}


def _op_validate(a: _Args) -> dict[str, Any]:
    from ..infer.validate import check_record

    record = a.record()
    a.done()
    return check_record(record).to_json()


def _op_replay(a: _Args) -> dict[str, Any]:
    record = a.record()
    seat = a.seat(allow_all=True)
    after = a.int_("after")
    a.done()
    return replay_json(record, seat, after)


def _op_state(a: _Args) -> dict[str, Any]:
    record = a.record()
    seat = a.seat(allow_all=True)
    after = a.int_("after")
    a.done()
    data = replay_json(record, seat, after)
    out: dict[str, Any] = {"seat": data["seat"], **data["frames"][-1]}
    view = record.view(None, after)
    out["legal"] = [] if view.over else [str(r) for r in view.legal_reveals()]
    out["events"] = len(record.events)
    return out


def _op_beliefs(a: _Args) -> dict[str, Any]:
    from ..infer.facts import STATE_BUDGET

    record = a.record()
    seat = a.seat()
    after = a.int_("after")
    budget = a.int_("swap_budget", minimum=1, maximum=10 * STATE_BUDGET)
    a.done()
    data: dict[str, Any] = beliefs_of(record, seat, after, budget).to_json(after)
    return data


def _op_advise(a: _Args) -> dict[str, Any]:
    record = a.record()
    seat = a.seat()
    after = a.int_("after")
    objective = a.str_("objective", "win")
    assert objective is not None
    samples = a.int_("samples", minimum=1, maximum=MAX_SAMPLES)
    seed = a.int_("seed", minimum=-(2**63), maximum=2**63 - 1, default=0)
    assert seed is not None
    confidence = a.float_("confidence", 0.5, 1.0)
    a.done()
    if objective != "game" and samples is not None:
        a.fail("samples", "only for objective 'game'")
    if objective != "game" and confidence is not None:
        a.fail("confidence", "only for objective 'game'")
    return advise_result(record, seat, after, objective, samples=samples, seed=seed, confidence=confidence)[1]


def _op_evaluate(a: _Args) -> dict[str, Any]:
    record = a.record()
    seat = a.seat()
    after = a.int_("after")
    samples = a.int_("samples", minimum=1, maximum=MAX_SAMPLES)
    seed = a.int_("seed", minimum=-(2**63), maximum=2**63 - 1, default=0)
    assert seed is not None
    precision = a.float_("precision", 0.0, 0.5)
    a.done()
    return evaluate_result(record, seat, after, samples=samples, seed=seed, precision=precision)[1]


def _op_analyse(a: _Args) -> dict[str, Any]:
    record = a.record()
    samples = a.int_("samples", minimum=0, maximum=MAX_SAMPLES)  # 0: by the turn only, as --quick
    seed = a.int_("seed", minimum=-(2**63), maximum=2**63 - 1, default=0)
    assert seed is not None
    confidence = a.float_("confidence", 0.5, 1.0)
    a.done()
    data: dict[str, Any] = analysis_of(record, samples=samples, seed=seed, confidence=confidence).to_json()
    return data


def _op_new_game(a: _Args) -> dict[str, Any]:
    from ..game.state import Game
    from ..game.rules import Rules

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
    game = Game.deal(rules, seed, first_player=first)
    record = Record.from_game(game, names)
    return {"record": record.to_json(values=False), "seed": seed}


def _status(record: Record) -> str:
    from ..game.events import Turn

    view = record.view(None)
    if view.winner is not None:
        return "won"
    if view.turn:
        return "continue"
    last = record.events[-1]
    assert isinstance(last, Turn)
    values = [r.value for r in last.reveals]
    return "trio" if len(values) == 3 and len(set(values)) == 1 else "failed"


def _op_move(a: _Args) -> dict[str, Any]:
    from ..game.reveal import Reveal, Revealed

    record = a.record()
    move = a.raw("reveal")
    a.done()
    entry: dict[str, Any]
    if isinstance(move, dict):
        if set(move) - {"swap", "cards"} or "swap" not in move:
            a.fail("reveal", "a swap is {\"swap\": [a, b], \"cards\": [va, vb] or null}")
    elif isinstance(move, str):
        text = move.strip()
        if "=" in text:
            shown = Revealed.from_str(text)
            entry = {**shown.reveal.to_json(), "value": shown.value}
        else:
            if record.deal is None:
                a.fail("reveal", f"a record without the deal needs the value shown, such as \"{text[:20]}=10\"")
            entry = Reveal.from_str(text).to_json()
    else:
        a.fail("reveal", f"expected a reveal such as \"c3\" or \"c3=10\", or a swap object, got {_kind(move)}")
    spectator = record.view(None)
    if spectator.over:
        raise RequestError(f"move: the game is over (seat {spectator.winner} won)")
    doc = record.to_json()
    events: list[Any] = doc["events"]
    if isinstance(move, dict):
        events.append({"swap": move["swap"], "cards": move.get("cards")})
        new = Record.from_json(doc)
        return {"record": new.to_json(), "value": None, "status": "swap", "to_move": new.view(None).to_move}
    if spectator.turn:
        events[-1]["reveals"].append(entry)
    else:
        events.append({"turn": spectator.to_move, "reveals": [entry]})
    new = Record.from_json(doc)
    value = new.events[-1].reveals[-1].value  # type: ignore[union-attr]
    return {"record": new.to_json(), "value": value, "status": _status(new), "to_move": new.view(None).to_move}


def _op_bot(a: _Args) -> dict[str, Any]:
    from ..decide.bots import BOT_NAMES, make_bot

    record = a.record()
    name = a.str_("bot")
    if name is None:
        a.fail("bot", f"missing (one of {', '.join(BOT_NAMES)})")
    if name not in BOT_NAMES:
        a.fail("bot", f"unknown bot {name[:40]!r} (known: {', '.join(BOT_NAMES)})")
    seed = a.int_("seed", minimum=0, maximum=2**63 - 1, default=0)
    budget = a.int_("budget", minimum=1, maximum=100_000)
    a.done()
    spectator = record.view(None)
    if spectator.over:
        raise RequestError(f"bot: the game is over (seat {spectator.winner} won)")
    view = record.view(spectator.to_move)
    bot = make_bot(name, random.Random(seed), budget=budget)
    return {"reveal": str(bot.choose_reveal(view)), "seat": view.to_move}


OPS: dict[str, Callable[[_Args], dict[str, Any]]] = {
    "version": _op_version,
    "validate": _op_validate,
    "replay": _op_replay,
    "state": _op_state,
    "beliefs": _op_beliefs,
    "advise": _op_advise,
    "evaluate": _op_evaluate,
    "analyse": _op_analyse,
    "new_game": _op_new_game,
    "move": _op_move,
    "bot": _op_bot,
}


def handle(op: str, args: dict[str, Any]) -> dict[str, Any]:
    """Run operation ``op`` on ``args`` (the request without ``op`` and ``id``).

    Returns the result object; raises :class:`TrioError` (one line) for a bad request,
    :class:`UnknownOp` for an operation that does not exist."""
    if not isinstance(op, str):
        raise RequestError(f"op: expected an operation name, got {_kind(op)}")
    fn = OPS.get("analyse" if op == "analyze" else op)
    if fn is None:
        raise UnknownOp(f"unknown op {op[:60]!r} (known: {', '.join(OPS)})")
    return fn(_Args(op, args))


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


def run_engine(stdin: IO[bytes], stdout: IO[bytes]) -> int:
    """``trio-solver engine``: answer one JSON request per line until end of input; returns 0."""
    while True:
        line = _read_line(stdin)
        if line is None:
            return 0
        if not line.strip():
            continue
        stdout.write(encode_response(respond(line)))
        stdout.flush()

