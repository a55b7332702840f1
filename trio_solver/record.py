"""Game records in the ``trio-record/1`` JSON format (see RECORD.md).

Read, validate, replay and write records, for full-deal records (a program that
knew every card) and for viewer records (a person who knew only their hand).

>>> rec = Record.loads('{"format": "trio-record/1", "rules": {"players": 3, "mode": "simple"}, '
...                    '"viewer": {"seat": 0, "hand": [1,2,3,4,5,6,7,8,9]}, '
...                    '"events": [{"turn": 0, "reveals": [{"centre": 4, "value": 11}, {"lowest": 1, "value": 2}]}]}')
>>> rec.view().to_move
1

Every problem is reported as one :class:`~trio_solver.errors.RecordError`
whose message names the place, e.g. ``event 7 (turn of seat 2), reveal 2: ...``
(events and reveals are counted from 0, as indices into the JSON arrays).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from .engine import Deal, Game
from .errors import IllegalMoveError, RecordError, RulesError
from .reveal import Reveal, Revealed
from .rules import COPIES, VALUES, Rules
from .table import Event, Swap, Table, Turn, TurnStatus
from .view import PlayerView

__all__ = ["FORMAT", "Record", "Viewer", "event_to_json", "replay_view", "where", "MAX_RECORD_BYTES"]

FORMAT = "trio-record/1"
#: Larger documents are refused before parsing (a real game is a few kB).
MAX_RECORD_BYTES = 8 * 1024 * 1024
#: More events than this cannot come from one game and are refused.
MAX_EVENTS = 100_000

_TOP_KEYS = ("format", "rules", "names", "first_player", "deal", "viewer", "events")


def where(index: int, event: Event | None = None, reveal: int | None = None) -> str:
    """The location prefix of an error: ``event 7 (turn of seat 2), reveal 2``."""
    text = f"event {index}"
    if isinstance(event, Turn):
        text += f" (turn of seat {event.seat})"
    elif isinstance(event, Swap):
        text += f" (swap of seats {event.seats[0]} and {event.seats[1]})"
    if reveal is not None:
        text += f", reveal {reveal}"
    return text


@dataclass(frozen=True)
class Viewer:
    """The record keeper: their seat and their hand as dealt."""

    seat: int
    hand: tuple[int, ...]


@dataclass(frozen=True)
class Record:
    """A validated game record.

    Values of every reveal are filled in (for full-deal records they follow from
    the deal). Build one with :meth:`loads` / :meth:`load` / :meth:`from_json`,
    or from a game with :meth:`from_game`.
    """

    rules: Rules
    events: tuple[Event, ...]
    first_player: int = 0
    names: tuple[str, ...] | None = None
    deal: Deal | None = None
    viewer: Viewer | None = None
    _final: PlayerView | Game | None = field(default=None, repr=False, compare=False)

    # -- reading ------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Record:
        """Read a record file (``"-"`` reads standard input)."""
        name = str(path)
        try:
            if name == "-":
                data = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
            else:
                with open(path, "rb") as f:
                    data = f.read(MAX_RECORD_BYTES + 1)
        except OSError as e:
            raise RecordError(name, f"cannot read: {e.strerror or e}") from None
        return cls.loads(data)

    @classmethod
    def loads(cls, text: str | bytes) -> Record:
        """Parse and validate a record from JSON text."""
        if len(text) > MAX_RECORD_BYTES or (
            isinstance(text, str) and len(text) > MAX_RECORD_BYTES // 4
            and len(text.encode("utf-8", "surrogatepass")) > MAX_RECORD_BYTES
        ):
            raise RecordError("record", f"larger than {MAX_RECORD_BYTES // (1024 * 1024)} MB; a game record is a few kB")
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8-sig")
            except UnicodeDecodeError as e:
                raise RecordError("record", f"not UTF-8 text (byte {e.start})") from None
        try:
            data = json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_bad_constant)
        except json.JSONDecodeError as e:
            raise RecordError("record", f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
        except RecursionError:
            raise RecordError("record", "JSON nested too deeply") from None
        except ValueError as e:  # duplicate keys, NaN, over-long integers
            raise RecordError("record", f"not valid JSON: {e}") from None
        return cls.from_json(data)

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Validate a parsed JSON document and replay it (raises :class:`RecordError`)."""
        if not isinstance(data, dict):
            raise RecordError("record", f"expected a JSON object, got {_kind(data)}")
        for key in data:
            if key not in _TOP_KEYS:
                raise RecordError(_key_text(key), f"unknown key (allowed: {', '.join(_TOP_KEYS)})")
        if "format" not in data:
            raise RecordError("format", f"missing; expected {FORMAT!r}")
        if data["format"] != FORMAT:
            raise RecordError("format", f"expected {FORMAT!r}, got {data['format']!r}")
        if "rules" not in data:
            raise RecordError("rules", "missing")
        try:
            rules = Rules.from_json(data["rules"])
        except RulesError as e:
            raise RecordError("", str(e)) from None
        n = rules.players
        names = None
        if "names" in data:
            raw = data["names"]
            if not isinstance(raw, list) or len(raw) != n or not all(isinstance(x, str) for x in raw):
                raise RecordError("names", f"expected a list of {n} strings, one per seat")
            for k, x in enumerate(raw):
                if not _is_text(x):
                    raise RecordError(f"names[{k}]", f"not valid Unicode text: {x!r}")
            names = tuple(raw)
        first = data.get("first_player", 0)
        if not _is_int(first) or not 0 <= first < n:
            raise RecordError("first_player", f"expected a seat 0 to {n - 1}, got {first!r}")
        deal = _read_deal(data["deal"], rules) if "deal" in data else None
        viewer = _read_viewer(data["viewer"], rules) if "viewer" in data else None
        if deal is not None and viewer is not None and deal.hands[viewer.seat] != viewer.hand:
            raise RecordError(
                "viewer.hand", f"{list(viewer.hand)} differs from seat {viewer.seat}'s hand in the deal "
                f"{list(deal.hands[viewer.seat])}"
            )
        if "events" not in data:
            raise RecordError("events", "missing (use [] for a game not yet started)")
        raw_events = _read_events(data["events"], rules, need_values=deal is None)
        rec = cls(rules, (), first, names, deal, viewer)
        events, final = _replay(rec, raw_events)
        return cls(rules, tuple(events), first, names, deal, viewer, final)

    @classmethod
    def from_game(cls, game: Game, names: Sequence[str] | None = None, viewer: int | None = None) -> Record:
        """The full-deal record of a game (its turn in progress included)."""
        return cls(
            game.rules,
            tuple(game.table.finished_events()),
            game.table.first_player,
            None if names is None else tuple(names),
            game.deal_,
            None if viewer is None else Viewer(viewer, game.deal_.hands[viewer]),
        )

    # -- writing ------------------------------------------------------------------
    def to_json(self, *, values: bool = True) -> dict[str, Any]:
        """The JSON document (``values=False`` leaves out values that follow from the deal)."""
        out: dict[str, Any] = {"format": FORMAT, "rules": self.rules.to_json()}
        if self.names is not None:
            out["names"] = list(self.names)
        out["first_player"] = self.first_player
        if self.deal is not None:
            out["deal"] = {"hands": [list(h) for h in self.deal.hands], "centre": list(self.deal.centre)}
        if self.viewer is not None:
            out["viewer"] = {"seat": self.viewer.seat, "hand": list(self.viewer.hand)}
        evs = [event_to_json(e, values=values or self.deal is None) for e in self.events]
        out["events"] = evs
        return out

    def dumps(self, *, indent: int | None = None, values: bool = True) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_json(values=values), indent=indent, ensure_ascii=False)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record atomically: the file is complete or untouched."""
        from .files import write_text

        write_text(path, self.dumps(indent=None) + "\n")

    # -- replay ---------------------------------------------------------------------
    @property
    def has_deal(self) -> bool:
        return self.deal is not None

    def _check_after(self, after: int | None) -> int:
        if after is None:
            return len(self.events)
        if not _is_int(after) or not 0 <= after <= len(self.events):
            raise RecordError("--after", f"expected 0 to {len(self.events)} events, got {after!r}")
        return after

    def game(self, after: int | None = None) -> Game:
        """The true state after the first ``after`` events (all by default); full-deal records only."""
        if self.deal is None:
            raise RecordError("deal", "this record has no deal: only a player view can be replayed")
        n = self._check_after(after)
        if n == len(self.events) and isinstance(self._final, Game):
            return self._final.copy()
        _, final = _replay(self, [_raw(e) for e in self.events[:n]])
        assert isinstance(final, Game)
        return final

    def default_seat(self) -> int | None:
        """The seat whose view commands use by default: the viewer's, else the seat to move."""
        if self.viewer is not None:
            return self.viewer.seat
        return self.view(None).to_move

    def known_seats(self) -> tuple[int, ...]:
        """Seats whose hand this record knows."""
        if self.deal is not None:
            return tuple(range(self.rules.players))
        return () if self.viewer is None else (self.viewer.seat,)

    def view(self, seat: int | None | str = "default", after: int | None = None) -> PlayerView:
        """What ``seat`` knew after the first ``after`` events (``None``: a spectator).

        ``"default"`` is the record's viewer, else the seat to move. A seat whose
        hand the record does not know raises :class:`RecordError`.
        """
        n = self._check_after(after)
        if seat == "default":
            seat = self.viewer.seat if self.viewer is not None else None
            if seat is None:
                seat = self.view(None, n).to_move
                if self.deal is None:
                    seat = None
        if seat is not None and (not _is_int(seat) or not 0 <= seat < self.rules.players):  # type: ignore[operator]
            raise RecordError("--seat", f"expected a seat 0 to {self.rules.players - 1} or none, got {seat!r}")
        assert seat is None or isinstance(seat, int)
        if self.deal is not None:
            return self.game(n).view(seat)
        if seat is not None and (self.viewer is None or seat != self.viewer.seat):
            known = "only seat " + str(self.viewer.seat) + "'s" if self.viewer else "no"
            raise RecordError("--seat", f"this record knows {known} hand, not seat {seat}'s")
        hand = None if seat is None or self.viewer is None else self.viewer.hand
        events = self.events[:n]
        if seat is None:
            # a spectator does not see the values of any team's swap (the viewer's own included)
            events = tuple(Swap(e.seats, None) if isinstance(e, Swap) else e for e in events)
        return replay_view(self.rules, events, seat=seat, hand=hand, first_player=self.first_player)

    def states(self) -> list[Game] | list[PlayerView]:
        """The position after 0, 1, ... all events: true states for full-deal records, else the
        record keeper's views (one replay, not one per position)."""
        start: Game | PlayerView
        if self.deal is not None:
            start = Game(self.rules, self.deal, self.first_player)
        else:
            start = replay_view(self.rules, (), seat=None if self.viewer is None else self.viewer.seat,
                                hand=None if self.viewer is None else self.viewer.hand,
                                first_player=self.first_player)
        out: list[Any] = [start]
        _replay(self, [_raw(e) for e in self.events], out.append)
        return out

    @property
    def winner(self) -> int | None:
        """The seat that won, if the game ended."""
        final = self._final if self._final is not None else self.view(None)
        return final.winner


def event_to_json(event: Event, *, values: bool = True) -> dict[str, Any]:
    """One event in the record form (``values=False`` leaves out the values of reveals)."""
    if isinstance(event, Turn):
        return {"turn": event.seat,
                "reveals": [r.to_json() if values else r.reveal.to_json() for r in event.reveals]}
    return {"swap": list(event.seats), "cards": None if event.cards is None else list(event.cards)}


def replay_view(
    rules: Rules,
    events: Sequence[Event],
    *,
    seat: int | None = None,
    hand: Sequence[int] | None = None,
    first_player: int = 0,
) -> PlayerView:
    """Replay public ``events`` for a viewer holding ``hand`` at ``seat`` (``None``: spectator).

    Checks every event against the rules and against the contradictions that
    need no search (a fourth copy of a value, a value outside the range a hand
    showed, a reveal of the viewer's own hand that differs from the hand); raises
    :class:`RecordError` naming the event. The full consistency check (does any
    deal fit?) is in :mod:`trio_solver.beliefs`.
    """
    viewer = None if seat is None or hand is None else Viewer(seat, tuple(sorted(hand)))
    if (seat is None) != (hand is None):
        raise RecordError("viewer", "a viewer needs both a seat and a hand")
    if viewer is not None:
        _check_viewer(viewer, rules)
    rec = Record(rules, (), first_player, None, None, viewer)
    _, final = _replay(rec, [_raw(e) for e in events])
    assert isinstance(final, PlayerView)
    return final


# ---------------------------------------------------------------------------
# Parsing


def _fail(where_: str, reason: str, event: int | None = None) -> NoReturn:
    raise RecordError(where_, reason, event=event)


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"duplicate key {k!r}")
        out[k] = v
    return out


def _bad_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not allowed")


def _key_text(key: object) -> str:
    """A JSON key as it may appear in a one-line message (quoted when it holds control characters)."""
    return key if isinstance(key, str) and key.isprintable() else repr(key)


def _is_text(x: str) -> bool:
    """Whether ``x`` can be written out as UTF-8 (JSON escapes can produce lone surrogates)."""
    try:
        x.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _kind(x: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(x), "a number"
    )


def _read_cards(raw: Any, loc: str, size: int | None) -> tuple[int, ...]:
    if not isinstance(raw, list):
        _fail(loc, f"expected a list of card values, got {_kind(raw)}")
    for k, v in enumerate(raw):
        if not _is_int(v) or v not in VALUES:
            _fail(f"{loc}[{k}]", f"card values are 1 to 12, got {v!r}")
    if size is not None and len(raw) != size:
        _fail(loc, f"{len(raw)} cards, the rules deal {size}")
    for v in VALUES:
        if raw.count(v) > COPIES:
            _fail(loc, f"{raw.count(v)} cards of value {v}, the deck has {COPIES}")
    return tuple(raw)


def _object(raw: Any, loc: str, allowed: tuple[str, ...]) -> dict[str, Any]:
    """``raw`` as a JSON object whose keys are all in ``allowed``."""
    if not isinstance(raw, dict):
        _fail(loc, f"expected an object, got {_kind(raw)}")
    for key in raw:
        if key not in allowed:
            _fail(f"{loc}.{_key_text(key)}", f"unknown key (allowed: {', '.join(allowed)})")
    return raw


def _read_deal(raw: Any, rules: Rules) -> Deal:
    raw = _object(raw, "deal", ("hands", "centre"))
    if "hands" not in raw:
        _fail("deal.hands", "missing")
    hands = raw["hands"]
    if not isinstance(hands, list) or len(hands) != rules.players:
        _fail("deal.hands", f"expected a list of {rules.players} hands")
    parsed = tuple(tuple(sorted(_read_cards(h, f"deal.hands[{s}]", rules.hand_size))) for s, h in enumerate(hands))
    if "centre" not in raw and rules.centre_size:
        _fail("deal.centre", f"missing ({rules.centre_size} centre cards)")
    centre = _read_cards(raw.get("centre", []), "deal.centre", rules.centre_size)
    deal = Deal(parsed, centre)
    try:
        deal.check(rules)
    except IllegalMoveError as e:
        _fail("deal", str(e).removeprefix("deal: "))
    return deal


def _check_viewer(viewer: Viewer, rules: Rules) -> None:
    if not _is_int(viewer.seat) or not 0 <= viewer.seat < rules.players:
        _fail("viewer.seat", f"expected a seat 0 to {rules.players - 1}, got {viewer.seat!r}")
    _read_cards(list(viewer.hand), "viewer.hand", rules.hand_size)


def _read_viewer(raw: Any, rules: Rules) -> Viewer:
    raw = _object(raw, "viewer", ("seat", "hand"))
    for key in ("seat", "hand"):
        if key not in raw:
            _fail(f"viewer.{key}", "missing")
    seat = raw["seat"]
    if not _is_int(seat) or not 0 <= seat < rules.players:
        _fail("viewer.seat", f"expected a seat 0 to {rules.players - 1}, got {seat!r}")
    return Viewer(seat, tuple(sorted(_read_cards(raw["hand"], "viewer.hand", rules.hand_size))))


# A parsed event before replay: values may be missing (None) in full-deal records.
_RawReveal = tuple[Reveal, "int | None"]


@dataclass(frozen=True)
class _RawTurn:
    seat: int
    reveals: tuple[_RawReveal, ...]


_RawEvent = _RawTurn | Swap


def _raw(e: Event) -> _RawEvent:
    return _RawTurn(e.seat, tuple((r.reveal, r.value) for r in e.reveals)) if isinstance(e, Turn) else e


def _read_events(raw: Any, rules: Rules, need_values: bool) -> list[_RawEvent]:
    if not isinstance(raw, list):
        _fail("events", f"expected a list, got {_kind(raw)}")
    if len(raw) > MAX_EVENTS:
        _fail("events", f"{len(raw)} events; no game is that long (limit {MAX_EVENTS})")
    out: list[_RawEvent] = []
    n = rules.players
    for i, ev in enumerate(raw):
        loc = f"event {i}"
        if not isinstance(ev, dict):
            _fail(loc, f"expected an object, got {_kind(ev)}", i)
        if "turn" in ev:
            for key in ev:
                if key not in ("turn", "reveals"):
                    _fail(loc, f"unknown key {key!r} in a turn (allowed: turn, reveals)", i)
            seat = ev["turn"]
            if not _is_int(seat) or not 0 <= seat < n:
                _fail(loc, f"'turn' must be a seat 0 to {n - 1}, got {seat!r}", i)
            loc = f"event {i} (turn of seat {seat})"
            reveals = ev.get("reveals")
            if not isinstance(reveals, list):
                _fail(loc, "'reveals' must be a list of 1 to 3 reveals" + ("" if "reveals" in ev else ", missing"), i)
            if not 1 <= len(reveals) <= 3:
                _fail(loc, f"a turn lists 1 to 3 reveals, got {len(reveals)}", i)
            parsed: list[_RawReveal] = []
            for j, r in enumerate(reveals):
                rloc = f"{loc}, reveal {j}"
                if not isinstance(r, dict):
                    _fail(rloc, f"expected an object such as {{\"centre\": 3, \"value\": 10}}, got {_kind(r)}", i)
                for key in r:
                    if key not in ("centre", "lowest", "highest", "value"):
                        _fail(rloc, f"unknown key {key!r} (allowed: centre, lowest, highest, value)", i)
                places = [k for k in ("centre", "lowest", "highest") if k in r]
                if len(places) != 1:
                    _fail(rloc, "needs exactly one of 'centre', 'lowest', 'highest'"
                          + (f", got {', '.join(places)}" if places else ""), i)
                idx = r[places[0]]
                if not _is_int(idx) or idx < 0:
                    _fail(rloc, f"'{places[0]}' must be a {'slot' if places[0] == 'centre' else 'seat'} number, "
                          f"got {idx!r}", i)
                if "value" in r:
                    value = r["value"]
                    if not _is_int(value) or value not in VALUES:
                        _fail(rloc, f"'value' must be 1 to 12, got {value!r}", i)
                elif need_values:
                    _fail(rloc, "'value' is required in a record without a deal", i)
                else:
                    value = None
                parsed.append((Reveal(places[0], idx), value))  # type: ignore[arg-type]
            out.append(_RawTurn(seat, tuple(parsed)))
        elif "swap" in ev:
            for key in ev:
                if key not in ("swap", "cards"):
                    _fail(loc, f"unknown key {key!r} in a swap (allowed: swap, cards)", i)
            seats = ev["swap"]
            if not isinstance(seats, list) or len(seats) != 2 or not all(_is_int(s) and 0 <= s < n for s in seats):
                _fail(loc, f"'swap' must be two seats 0 to {n - 1}, got {seats!r}", i)
            if "cards" not in ev:
                _fail(loc, "'cards' missing (use null when the values were secret)", i)
            cards = ev["cards"]
            if cards is not None and (
                not isinstance(cards, list) or len(cards) != 2 or not all(_is_int(c) and c in VALUES for c in cards)
            ):
                _fail(loc, f"'cards' must be two card values 1 to 12 or null, got {cards!r}", i)
            out.append(Swap((seats[0], seats[1]), None if cards is None else (cards[0], cards[1])))
        else:
            _fail(loc, "an event is a turn {\"turn\": SEAT, \"reveals\": [...]} or a swap "
                  "{\"swap\": [A, B], \"cards\": [VA, VB]}", i)
    return out


# ---------------------------------------------------------------------------
# Replay: one driver for full-deal records (true state) and viewer records.


def _replay(rec: Record, events: Sequence[_RawEvent],
            on_event: Callable[[Game | PlayerView], None] | None = None) -> tuple[list[Event], PlayerView | Game]:
    rules = rec.rules
    game: Game | None = None
    if rec.deal is not None:
        game = Game(rules, rec.deal, rec.first_player)
        table = game.table
    else:
        try:
            table = Table(rules, rec.first_player)
        except IllegalMoveError as e:
            _fail("first_player", str(e))
    seat = rec.viewer.seat if rec.viewer is not None else None
    own: list[int] | None = list(rec.viewer.hand) if rec.viewer is not None and game is None else None
    checker = _CheapContradictions(rules)
    filled: list[Event] = []
    last = len(events) - 1
    for i, event in enumerate(events):
        if table.winner is not None:
            _fail(where(i, _cooked(event)), f"the game is over: seat {table.winner} won at event {i - 1}", i)
        if isinstance(event, Swap):
            loc = where(i, event)
            try:
                table.check_swap(event.seats)
            except IllegalMoveError as e:
                _fail(loc, str(e), i)
            if game is not None:
                if event.cards is None:
                    _fail(loc, "'cards' is required in a record with a deal", i)
                try:
                    game.swap(event.seats[0], event.seats[1], event.cards[0], event.cards[1])
                except IllegalMoveError as e:
                    _fail(loc, str(e), i)
            else:
                own = _view_swap(table, loc, i, event, seat, own)
            checker.hand_changed(event.seats[0])
            checker.hand_changed(event.seats[1])
            filled.append(event)
            if on_event is not None:
                on_event(game.copy() if game is not None else _snapshot_view(rec, filled, own, table))
            continue
        turn_ev = _cooked(event)
        if event.seat != table.to_move:
            _fail(where(i, turn_ev), f"it is seat {table.to_move}'s turn, not seat {event.seat}'s", i)
        status = TurnStatus.ONGOING
        shown: list[Revealed] = []
        for j, (reveal, value) in enumerate(event.reveals):
            loc = where(i, turn_ev, j)
            if status is not TurnStatus.ONGOING:
                _fail(loc, f"the turn already ended ({status.value}) at reveal {j - 1}", i)
            try:
                table.check_reveal(reveal)
            except IllegalMoveError as e:
                _fail(loc, str(e), i)
            if game is not None:
                true = game._value(reveal)
                if value is not None and value != true:
                    _fail(loc, f"{reveal}={value}, but the deal puts a {true} there", i)
                value = true
                checker.check(loc, i, table, reveal, value, None, None)
                status = game.reveal(reveal)
            else:
                assert value is not None
                if own is not None and reveal.index == seat and not reveal.is_centre:
                    pos = table.position(reveal)
                    if own[pos] != value:
                        end = "lowest" if reveal.kind == "lowest" else "highest"
                        _fail(loc, f"{reveal}={value} contradicts the viewer's hand {own}: its {end} card "
                              f"here is {own[pos]}", i)
                checker.check(loc, i, table, reveal, value, own, seat)
                status = table.apply_reveal(reveal, value)
                if status is TurnStatus.TRIO and own is not None and seat is not None:
                    lo, hi = table.last_lo[seat], table.last_hi[seat]
                    own = own[lo : len(own) - hi]
            if status is TurnStatus.TRIO:
                checker.trio_taken(table)
            shown.append(Revealed(reveal, value))
        if status is TurnStatus.ONGOING and i != last:
            _fail(where(i, turn_ev), f"the turn stops after {len(shown)} equal value(s) although reveals are "
                  "left; only the last event may be a turn in progress", i)
        filled.append(Turn(event.seat, tuple(shown)))
        if on_event is not None:
            on_event(game.copy() if game is not None else _snapshot_view(rec, filled, own, table))
    if game is not None:
        return filled, game
    view = PlayerView(rules, rec.first_player, seat, None if rec.viewer is None else rec.viewer.hand,
                      tuple(filled), None if own is None else tuple(own), table)
    table.events = []
    return filled, view


def _snapshot_view(rec: Record, filled: list[Event], own: list[int] | None, table: Table) -> PlayerView:
    t = table.copy()
    t.events = []
    seat = rec.viewer.seat if rec.viewer is not None else None
    return PlayerView(rec.rules, rec.first_player, seat, None if rec.viewer is None else rec.viewer.hand,
                      tuple(filled), None if own is None else tuple(own), t)


def _cooked(event: _RawEvent) -> Event:
    if isinstance(event, Swap):
        return event
    return Turn(event.seat, ())


def _view_swap(table: Table, loc: str, i: int, event: Swap, seat: int | None, own: list[int] | None) -> list[int] | None:
    rules = table.rules
    a, b = event.seats
    mine = seat is not None and rules.team_of(a) == rules.team_of(seat)
    if not mine:
        if event.cards is not None:
            _fail(loc, f"the cards of this swap are secret to the "
                  f"{'spectator' if seat is None else f'viewer (seat {seat})'}; write null", i)
        table.apply_swap(event.seats, None)
        return own
    if event.cards is None:
        _fail(loc, "the viewer's own team swap needs its 'cards'", i)
    assert own is not None
    give, get = (event.cards[0], event.cards[1]) if seat == a else (event.cards[1], event.cards[0])
    if seat is not None and give not in own:
        _fail(loc, f"seat {seat} gives a {give} but the viewer's hand {own} holds none", i)
    own = own[:]
    own.remove(give)
    own.append(get)
    own.sort()
    table.apply_swap(event.seats, event.cards)
    return own


class _CheapContradictions:
    """Contradictions found without search while a record is replayed."""

    def __init__(self, rules: Rules) -> None:
        n = rules.players
        # per seat, since its hand last changed: (event, value) shown at its very lowest / highest
        self.lo0: list[tuple[int, int] | None] = [None] * n
        self.hi0: list[tuple[int, int] | None] = [None] * n
        self.slot: dict[int, int] = {}

    def hand_changed(self, seat: int) -> None:
        self.lo0[seat] = None
        self.hi0[seat] = None

    def trio_taken(self, table: Table) -> None:
        for s in range(len(table.sizes)):
            if table.last_lo[s] or table.last_hi[s]:
                self.hand_changed(s)
        for c in table.last_centre:
            self.slot.pop(c, None)

    def check(self, loc: str, i: int, table: Table, reveal: Reveal, value: int,
              own: list[int] | None, seat: int | None) -> None:
        kind, idx = reveal
        if kind == "centre":
            known = self.slot.get(idx)
            if known is not None and known != value:
                _fail(loc, f"centre slot {idx} showed {known} before and nothing has moved it", i)
            self.slot[idx] = value
        else:
            pos = table.position(reveal)
            lo = self.lo0[idx]
            hi = self.hi0[idx]
            if kind == "lowest" and pos == 0:
                if lo is not None and lo[1] != value:
                    _fail(loc, f"seat {idx}'s lowest card showed {lo[1]} at event {lo[0]} and its hand has not "
                          "changed since", i)
                lo = self.lo0[idx] = (i, value)
            if kind == "highest" and pos == table.sizes[idx] - 1:
                if hi is not None and hi[1] != value:
                    _fail(loc, f"seat {idx}'s highest card showed {hi[1]} at event {hi[0]} and its hand has not "
                          "changed since", i)
                hi = self.hi0[idx] = (i, value)
            if lo is not None and value < lo[1]:
                _fail(loc, f"seat {idx} shows {value}, below the lowest card {lo[1]} it showed at event {lo[0]}, "
                      "and its hand has not changed since", i)
            if hi is not None and value > hi[1]:
                _fail(loc, f"seat {idx} shows {value}, above the highest card {hi[1]} it showed at event {hi[0]}, "
                      "and its hand has not changed since", i)
        # A fourth copy: cards of this value that are certainly distinct.
        own_reveal = own is not None and kind != "centre" and idx == seat
        copies = COPIES if value in table.taken_values() else 0
        copies += own.count(value) if own is not None else 0
        copies += sum(1 for r, v in table.turn if v == value and not (own is not None and r.kind != "centre"
                                                                       and r.index == seat))
        copies += 0 if own_reveal else 1
        copies += sum(
            1
            for s, v in self.slot.items()
            if v == value and table.centre[s] and not table.centre_up[s] and not (kind == "centre" and s == idx)
        )
        if copies > COPIES:
            _fail(loc, f"this would be a fourth card of value {value} (counting trios taken, the viewer's hand, "
                  "cards face up and known centre slots)", i)
