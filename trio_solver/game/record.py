"""The game record file format, ``trio-record/1`` (see docs/RECORD.md).

This module reads and writes the format; replaying the events it holds is the
job of :mod:`trio_solver.game.table` (through :meth:`Game.replay` for records that
have the deal, and :func:`~trio_solver.game.view.replay_view` for records kept by a
person at a real table), and the grammar of one event is :mod:`trio_solver.game.events`'s.

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
import stat
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, overload

from .._args import check_text
from .._args import show as _show
from .. import _args, limits
from .._json import fail, is_int, json_object, key_text, kind, strict_loads
from .state import Deal, Game
from ..errors import RecordError, RulesError
from ..files import output_target, write_text
from .events import MAX_EVENTS, Event, Swap, Turn, event_to_json, read_events, where
from .table import Outcome
from .reveal import Revealed
from .rules import Rules, read_cards
from .view import PlayerView, replay_view

__all__ = ["FORMAT", "DEFAULT_SEAT", "SeatChoice", "Record", "Viewer", "event_to_json", "read_source", "replay_view", "where",
           "MAX_RECORD_BYTES", "MAX_EVENTS"]

FORMAT = "trio-record/1"
#: Larger documents are refused before parsing (a real game is a few kB).
MAX_RECORD_BYTES = 8 * 1024 * 1024

#: The ``seat`` that names no seat: the record's own view (:meth:`Record.seat` says which).
DEFAULT_SEAT: Literal["default"] = "default"
#: A ``seat`` argument of :class:`Record`: a seat, ``None`` (a spectator) or :data:`DEFAULT_SEAT`.
SeatChoice = int | None | Literal["default"]

_TOP_KEYS = ("format", "rules", "names", "first_player", "deal", "viewer", "events")


@dataclass(frozen=True)
class Viewer:
    """The record keeper: their seat and their hand as dealt."""

    seat: int
    hand: tuple[int, ...]


def read_source(path: str | os.PathLike[str]) -> bytes | str:
    """The bytes of a record file, read once (``"-"``: standard input), as :meth:`Record.load` parses them
    (text if standard input is a text stream without bytes).

    Reads at most one byte more than :data:`MAX_RECORD_BYTES` (so that a larger input is refused for its
    size, whatever it holds, and a stream never runs on); a pipe or a device is read as it flows, never
    opened twice. Raises :class:`~trio_solver.errors.RecordError` naming the path for a name that is not a
    file name, an input that cannot be read, and an empty one."""
    try:
        name = os.fspath(path) if isinstance(path, (str, os.PathLike)) else None
    except TypeError:  # a PathLike whose __fspath__ gives no text
        name = None
    if not isinstance(name, str):
        raise RecordError("path", f"expected a file name, got {type(path).__name__}")
    if not name:
        raise RecordError("path", "an empty file name")
    try:
        if name == "-":
            if sys.stdin is None:
                raise RecordError("-", "standard input is closed")
            # bytes from a real stream; text from one that has no bytes (a StringIO in place of stdin)
            data: bytes | str = getattr(sys.stdin, "buffer", sys.stdin).read(MAX_RECORD_BYTES + 1)
        else:
            # opened without waiting (a named pipe that nothing writes to would hold open() for ever), then
            # read as usual: such a pipe reads as empty, one with a writer as it flows
            fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
            with open(fd, "rb") as f:
                os.set_blocking(fd, True)
                data = f.read(MAX_RECORD_BYTES + 1)
                pipe = stat.S_ISFIFO(os.fstat(fd).st_mode)
            if pipe and not data:
                raise RecordError(name, "a named pipe that nothing wrote to")
    except (OSError, ValueError) as e:
        if isinstance(e, RecordError):
            raise
        raise RecordError(name, f"cannot read: {getattr(e, 'strerror', None) or e}") from None
    if len(data) <= MAX_RECORD_BYTES and not data.strip():  # nothing to parse: say so, rather than where
        # JSON expected a value (a larger file is refused for its size, whatever it holds)
        raise RecordError(name, "standard input is empty" if name == "-" else "the file is empty")
    return data


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

    def __post_init__(self) -> None:
        if self.names is not None and isinstance(self.rules, Rules):
            object.__setattr__(self, "names", read_names(self.names, self.rules.players))

    # -- reading ------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Record:
        """Read a record file (``"-"`` reads standard input)."""
        return cls.loads(read_source(path))

    @classmethod
    def loads(cls, text: str | bytes) -> Record:
        """Parse and validate a record from JSON text."""
        if not isinstance(text, (str, bytes, bytearray)):
            raise RecordError("record", f"expected JSON text, got {type(text).__name__}")
        if len(text) > MAX_RECORD_BYTES or (
            isinstance(text, str) and len(text) > MAX_RECORD_BYTES // 4
            and len(text.encode("utf-8", "surrogatepass")) > MAX_RECORD_BYTES
        ):
            raise RecordError("record", f"larger than {MAX_RECORD_BYTES // (1024 * 1024)} MB; a game record is a few kB")
        if isinstance(text, (bytes, bytearray)):
            try:
                text = bytes(text).decode("utf-8-sig")
            except UnicodeDecodeError as e:
                raise RecordError("record", f"not UTF-8 text (byte {e.start})") from None
        # a byte order mark read as text (a file opened without "utf-8-sig") is accepted as in bytes
        return cls.from_json(strict_loads(text.removeprefix("\ufeff")))

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Validate a parsed JSON document and replay it (raises :class:`RecordError`)."""
        if not isinstance(data, dict):
            raise RecordError("record", f"expected a JSON object, got {kind(data)}")
        for key in data:
            if key not in _TOP_KEYS:
                raise RecordError(key_text(key), f"unknown key (allowed: {', '.join(_TOP_KEYS)})")
        if "format" not in data:
            raise RecordError("format", f"missing; expected {_show(FORMAT)}")
        if data["format"] != FORMAT:
            raise RecordError("format", f"expected {_show(FORMAT)}, got {_show(data['format'], 80)}")
        if "rules" not in data:
            raise RecordError("rules", "missing")
        try:
            rules = Rules.from_json(data["rules"])
        except RulesError as e:
            raise RecordError("", str(e)) from None
        n = rules.players
        names = read_names(data["names"], n) if "names" in data else None
        first = data.get("first_player", 0)
        if not is_int(first) or not 0 <= first < n:
            raise RecordError("first_player", f"expected a seat 0 to {n - 1}, got {_show(first, 80)}")
        deal = Deal.from_json(data["deal"], rules) if "deal" in data else None
        viewer = _read_viewer(data["viewer"], rules) if "viewer" in data else None
        if deal is not None and viewer is not None and deal.hands[viewer.seat] != viewer.hand:
            raise RecordError(
                "viewer.hand", f"{list(viewer.hand)} differs from seat {viewer.seat}'s hand in the deal "
                f"{list(deal.hands[viewer.seat])}"
            )
        if "events" not in data:
            raise RecordError("events", "missing (use [] for a game not yet started)")
        raw_events = read_events(data["events"], n, need_values=deal is None)
        final: Game | PlayerView
        if deal is not None:
            final = Game.replay(rules, deal, raw_events, first, undo=False)
            events = final.table.finished_events()
        else:
            cooked = [Turn(e.seat, tuple(Revealed(r, v) for r, v in e.reveals))  # type: ignore[arg-type]
                      if not isinstance(e, Swap) else e for e in raw_events]
            final = replay_view(rules, cooked, seat=None if viewer is None else viewer.seat,
                                hand=None if viewer is None else viewer.hand, first_player=first)
            events = list(final.events)
        return cls(rules, tuple(events), first, names, deal, viewer, final)

    @classmethod
    def from_game(cls, game: Game, names: Sequence[str] | None = None, viewer: int | None = None) -> Record:
        """The full-deal record of a game (its turn in progress included).

        ``names``: one display name per seat, as in a record (plain text, see :func:`read_names`);
        raises :class:`RecordError` naming ``names[k]``, ``viewer`` or ``game`` for a bad argument."""
        if not isinstance(game, Game):
            raise RecordError("game", f"expected a Game, got {type(game).__name__}")
        checked = None if names is None else read_names(names, game.rules.players)
        if viewer is not None and (not is_int(viewer) or not 0 <= viewer < game.rules.players):
            raise RecordError("viewer", f"expected a seat 0 to {game.rules.players - 1}, got {_show(viewer, 40)}")
        return cls(
            game.rules,
            tuple(game.table.finished_events()),
            game.first_player,
            checked,
            game.dealt,
            None if viewer is None else Viewer(viewer, game.dealt.hands[viewer]),
        )

    # -- writing ------------------------------------------------------------------
    def to_json(self, *, values: bool = True) -> dict[str, Any]:
        """The JSON document (``values=False`` leaves out values that follow from the deal).

        Raises :class:`RecordError` (where ``"values"``) unless ``values`` is a bool."""
        _args.boolean("values", values, _ArgError)
        out: dict[str, Any] = {"format": FORMAT, "rules": self.rules.to_json()}
        if self.names is not None:
            out["names"] = list(self.names)
        out["first_player"] = self.first_player
        if self.deal is not None:
            out["deal"] = self.deal.to_json()
        if self.viewer is not None:
            out["viewer"] = {"seat": self.viewer.seat, "hand": list(self.viewer.hand)}
        out["events"] = [event_to_json(e, values=values or self.deal is None) for e in self.events]
        return out

    def dumps(self, *, indent: int | None = None, values: bool = True) -> str:
        """The record as JSON text (``indent``: ``None`` or 0 to 16 spaces).

        Raises :class:`RecordError` naming ``indent`` or ``values`` for other values."""
        if indent is not None:
            _args.int_in("indent", indent, 0, 16, _ArgError, "a number of spaces")
        return json.dumps(self.to_json(values=values), indent=indent, ensure_ascii=False)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record atomically: the file is complete or untouched (mode as the umask allows). A path
        :func:`~trio_solver.files.output_target` refuses raises :class:`RecordError` before any work."""
        output_target(path)
        write_text(path, self.dumps(indent=None) + "\n")

    # -- replay ---------------------------------------------------------------------
    @property
    def has_deal(self) -> bool:
        """Whether the record holds the whole deal."""
        return self.deal is not None

    def _check_after(self, after: int | None) -> int:
        if after is None:
            return len(self.events)
        if not is_int(after) or not 0 <= after <= len(self.events):
            raise RecordError("after", f"expected 0 to {len(self.events)} events, got {_show(after, 40)}")
        return after

    def game(self, after: int | None = None) -> Game:
        """The true state after the first ``after`` events (all by default); full-deal records only. Its undo
        history is empty (:meth:`Game.copy`'s), so a long record's replay keeps one position in memory."""
        if self.deal is None:
            raise RecordError("deal", "this record has no deal: only a player view can be replayed")
        n = self._check_after(after)
        if n == len(self.events) and isinstance(self._final, Game):
            return self._final.copy()
        return Game.replay(self.rules, self.deal, self.events[:n], self.first_player, undo=False)

    def known_seats(self) -> tuple[int, ...]:
        """Seats whose hand this record knows."""
        if self.deal is not None:
            return tuple(range(self.rules.players))
        return () if self.viewer is None else (self.viewer.seat,)

    @overload
    def seat(self, seat: SeatChoice = DEFAULT_SEAT, after: int | None = None, *,
             every_hand: Literal[False] = False) -> int | None: ...

    @overload
    def seat(self, seat: SeatChoice | Literal["all"], after: int | None = None, *,
             every_hand: bool) -> int | None | Literal["all"]: ...

    def seat(self, seat: SeatChoice | Literal["all"] = DEFAULT_SEAT, after: int | None = None, *,
             every_hand: bool = False) -> int | None | Literal["all"]:
        """The seat whose view a question about this record takes after the first ``after`` events:
        the one rule of every door.

        ``seat`` is a seat whose hand the record knows, or ``None`` (a spectator: the public view).
        :data:`DEFAULT_SEAT` (no seat named) is the record keeper's seat; a full-deal record has no
        keeper, and gives the seat to move. ``every_hand=True`` is for a question that can show the
        true state: it also takes ``"all"`` (every hand; full-deal records only), which is then the
        default of a full-deal record. Raises :class:`RecordError` naming ``seat`` or ``after``.
        """
        if every_hand and seat == "all" and self.deal is None:
            raise RecordError("seat", "'all' needs a record with the whole deal")
        n = self._check_after(after)
        if seat == DEFAULT_SEAT:
            if self.viewer is not None:
                return self.viewer.seat
            if self.deal is None:
                return None
            return "all" if every_hand else self.view(None, n).to_move
        if every_hand and seat == "all":
            return "all"
        if seat is not None and (not is_int(seat) or not 0 <= seat < self.rules.players):  # type: ignore[operator]
            also = ', null (a spectator) or "all"' if every_hand else " or null (a spectator)"
            raise RecordError("seat", f"expected a seat 0 to {self.rules.players - 1}{also}, got {_show(seat, 40)}")
        assert seat is None or isinstance(seat, int)
        if self.deal is None and seat is not None and (self.viewer is None or seat != self.viewer.seat):
            known = "only seat " + str(self.viewer.seat) + "'s" if self.viewer else "no"
            raise RecordError("seat", f"this record knows {known} hand, not seat {seat}'s")
        return seat

    def view(self, seat: SeatChoice = DEFAULT_SEAT, after: int | None = None) -> PlayerView:
        """What ``seat`` knew after the first ``after`` events (``None``: a spectator; by default the
        record keeper, else the seat to move: :meth:`seat`, which checks ``seat``)."""
        n = self._check_after(after)
        chosen = self.seat(seat, n)
        if self.deal is not None:
            return self.game(n).view(chosen)
        hand = None if chosen is None or self.viewer is None else self.viewer.hand
        events = self.events[:n]
        if chosen is None:
            # a spectator does not see the values of any team's swap (the viewer's own included)
            events = tuple(e.hidden() if isinstance(e, Swap) else e for e in events)
        return replay_view(self.rules, events, seat=chosen, hand=hand, first_player=self.first_player)

    def walk(self, on_position: Callable[[Game | PlayerView], None], upto: int | None = None) -> None:
        """Call ``on_position`` with the position after 0, 1, ... ``upto`` events (all by default), in one
        replay: true states for full-deal records, else the record keeper's views. No position is kept,
        so memory is that of the positions the caller keeps; the replay looks at the time limit
        (:func:`trio_solver.limits.check`) before each event."""
        if not callable(on_position):
            raise RecordError("on_position", f"expected a function of a position, got {_show(on_position)}")
        n = self._check_after(upto)
        if self.deal is not None:
            on_position(Game(self.rules, self.deal, self.first_player))
            Game.replay(self.rules, self.deal, self.events[:n], self.first_player, on_event=on_position, undo=False)
            return
        on_position(self._keeper_view(0))
        self._keeper_view(n, on_position)

    def states(self) -> list[Game] | list[PlayerView]:
        """The position after 0, 1, ... all events (:meth:`walk`, every position kept)."""
        out: list[Any] = []
        self.walk(out.append)
        return out

    def position(self, after: int | None = None) -> Game | PlayerView:
        """The position after the first ``after`` events (all by default), as :meth:`states` has it: the true
        state of a full-deal record, else the record keeper's view; one replay, no copy per event."""
        n = self._check_after(after)
        return self.game(n) if self.deal is not None else self._keeper_view(n)

    def _keeper_view(self, n: int, on_event: Callable[[PlayerView], None] | None = None) -> PlayerView:
        """The record keeper's view after the first ``n`` events (a spectator's for a record without one),
        ``on_event`` seeing the view after each."""
        seat = None if self.viewer is None else self.viewer.seat
        hand = None if self.viewer is None else self.viewer.hand
        return replay_view(self.rules, self.events[:n], seat=seat, hand=hand, first_player=self.first_player,
                           on_event=on_event)

    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None``."""
        final = self._final if self._final is not None else self.view(None)
        return final.outcome()

    @property
    def winner(self) -> int | None:
        """The seat that won, if the game ended."""
        final = self._final if self._final is not None else self.view(None)
        return final.winner


class _ArgError(RecordError):
    """A bad argument of a :class:`Record` method (a :class:`RecordError` whose ``where`` is the argument)."""

    def __init__(self, message: str) -> None:
        name, _, reason = message.partition(": ")
        super().__init__(name, reason)


def read_names(raw: Any, players: int) -> tuple[str, ...]:
    """One display name per seat: a list (or tuple) of ``players`` strings of at most
    :data:`~trio_solver._text.MAX_TEXT` characters, none holding a control character, a line
    separator, a bidirectional formatting character or a lone surrogate (so a name is safe to print
    and to show in a page). Raises :class:`RecordError` naming ``names`` or ``names[k]``."""
    if not isinstance(raw, (list, tuple)) or len(raw) != players:
        raise RecordError("names", f"expected a list of {players} names, one per seat, got {_show(raw, 80)}")
    return tuple(check_text(f"names[{k}]", x, _ArgError, "a name") for k, x in enumerate(raw))


def _read_viewer(raw: Any, rules: Rules) -> Viewer:
    raw = json_object(raw, "viewer", ("seat", "hand"))
    for key in ("seat", "hand"):
        if key not in raw:
            fail(f"viewer.{key}", "missing")
    seat = raw["seat"]
    if not is_int(seat) or not 0 <= seat < rules.players:
        fail("viewer.seat", f"expected a seat 0 to {rules.players - 1}, got {_show(seat, 40)}")
    return Viewer(seat, tuple(sorted(read_cards(raw["hand"], "viewer.hand", rules.hand_size))))
