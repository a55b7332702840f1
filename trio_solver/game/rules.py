"""The rules of Trio as data: players, mode, teams, the deal table and the links.

Everything here is immutable. :class:`Rules` refuses impossible combinations at
construction (:class:`~trio_solver.errors.RulesError`), so the engine never sees
one. The Picante links are held as a :mod:`networkx` graph whose vertices are the
card values; the published cards link two values exactly when they add up to 7
or differ by 7 (docs/RULES.md, "Winning").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from typing import TYPE_CHECKING, Any

import networkx as nx

from .._args import ChoiceMeta
from .._args import show as _show
from .._json import fail, is_int, json_object, kind
from ..errors import RecordError, RulesError

__all__ = [
    "VALUES",
    "COPIES",
    "SEVEN",
    "Mode",
    "Rules",
    "DEAL_TABLE",
    "TEAM_HAND_SIZE",
    "default_links",
    "read_cards",
]

#: The card values, 1 to 12.
VALUES: tuple[int, ...] = tuple(range(1, 13))
#: Copies of each value in the deck.
COPIES = 3
#: The value whose trio wins at once in every mode.
SEVEN = 7

#: players -> (cards per hand, centre cards), without teams.
DEAL_TABLE: dict[int, tuple[int, int]] = {3: (9, 9), 4: (7, 8), 5: (6, 6), 6: (5, 6)}
#: players -> cards per hand in team play (no centre).
TEAM_HAND_SIZE: dict[int, int] = {4: 9, 6: 6}


class Mode(str, Enum, metaclass=ChoiceMeta):
    """The winning goal besides the trio of 7s."""

    SIMPLE = "simple"
    """Any three trios."""
    PICANTE = "picante"
    """Two linked trios (also called Spicy)."""

    @classmethod
    def _missing_(cls, value: object) -> Mode:
        """``Mode("x")`` raises :class:`RulesError` (a ``ValueError``) in one line."""
        raise RulesError(f'mode: expected "simple" or "picante", got {_show(value)}')


def default_links() -> frozenset[tuple[int, int]]:
    """The links printed on the published cards: values that add up to 7 or differ by 7."""
    return frozenset(
        (a, b) for a in VALUES for b in VALUES if a < b and (a + b == 7 or b - a == 7)
    )


def _normalise_links(links: Iterable[Sequence[int]]) -> frozenset[tuple[int, int]]:
    out: set[tuple[int, int]] = set()
    if isinstance(links, (str, bytes, dict)) or not isinstance(links, Iterable):
        raise RulesError(f"rules.links: expected a list of value pairs, got {kind(links)}")
    for i, pair in enumerate(links):
        if i >= 66:
            raise RulesError("rules.links: more than the 66 pairs of values 1 to 12")
        if (
            not isinstance(pair, (list, tuple))
            or len(pair) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in pair)
        ):
            raise RulesError(f"rules.links[{i}]: expected a pair of card values, got {_show(pair)}")
        a, b = pair
        if a not in VALUES or b not in VALUES:
            raise RulesError(f"rules.links[{i}]: values must be 1 to 12, got {list(pair)}")
        if a == b:
            raise RulesError(f"rules.links[{i}]: a value cannot be linked to itself ({a})")
        out.add((min(a, b), max(a, b)))
    return frozenset(out)


def _held(trios: Iterable[int]) -> set[int]:
    """The set of trio values given; :class:`RulesError` unless an iterable of at most 12 values 1 to 12."""
    if isinstance(trios, (str, bytes)) or not isinstance(trios, Iterable):
        raise RulesError(f"trios: expected card values 1 to 12, got {type(trios).__name__}")
    held: set[int] = set()
    for v in trios:
        if type(v) is not int or not 1 <= v <= 12 or len(held) > 12:
            raise RulesError(f"trios: expected card values 1 to 12, got {_show(v)}")
        held.add(v)
    return held


@dataclass(frozen=True)
class Rules:
    """One setting of the game.

    >>> r = Rules(4, Mode.SIMPLE)
    >>> (r.hand_size, r.centre_size)
    (7, 8)
    >>> Rules(4, "picante", teams=True).teams_of_seats
    ((0, 2), (1, 3))
    """

    players: int
    mode: Mode = Mode.SIMPLE
    teams: bool = False
    links: frozenset[tuple[int, int]] = field(default_factory=default_links)

    if TYPE_CHECKING:
        # the signature for type checkers: ``mode`` may be given by its name ("simple", "picante"), as the
        # docs do; the dataclass's own __init__ takes it and __post_init__ checks and converts it
        def __init__(self, players: int, mode: Mode | str = Mode.SIMPLE, teams: bool = False,
                     links: Iterable[Sequence[int]] = ...) -> None: ...

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or isinstance(self.players, bool):
            raise RulesError(f"rules.players: expected an integer 3 to 6, got {_show(self.players)}")
        if self.players not in DEAL_TABLE:
            raise RulesError(f"rules.players: Trio is played by 3 to 6 players, got {_show(self.players)}")
        try:
            mode = Mode(self.mode)
        except (ValueError, TypeError):
            raise RulesError(
                f'rules.mode: expected "simple" or "picante", got {_show(self.mode)}'
            ) from None
        object.__setattr__(self, "mode", mode)
        if not isinstance(self.teams, bool):
            raise RulesError(f"rules.teams: expected true or false, got {_show(self.teams)}")
        if self.teams and self.players not in TEAM_HAND_SIZE:
            raise RulesError(
                f"rules.teams: team play needs 4 or 6 players, got {self.players}"
            )
        object.__setattr__(self, "links", _normalise_links(self.links))

    # -- the deal ---------------------------------------------------------
    @property
    def hand_size(self) -> int:
        """Cards dealt to each hand."""
        return TEAM_HAND_SIZE[self.players] if self.teams else DEAL_TABLE[self.players][0]

    @property
    def centre_size(self) -> int:
        """Face-down centre slots (0 in team play)."""
        return 0 if self.teams else DEAL_TABLE[self.players][1]

    # -- seats and teams ----------------------------------------------------
    @cached_property
    def teams_of_seats(self) -> tuple[tuple[int, ...], ...]:
        """The scoring sides: pairs of opposite seats in team play, else one seat each."""
        n = self.players
        if self.teams:
            half = n // 2
            return tuple((s, s + half) for s in range(half))
        return tuple((s,) for s in range(n))

    @cached_property
    def _team_index(self) -> tuple[int, ...]:
        index = [0] * self.players
        for t, seats in enumerate(self.teams_of_seats):
            for s in seats:
                index[s] = t
        return tuple(index)

    def team_of(self, seat: int) -> int:
        """Index (into :attr:`teams_of_seats`) of the side that ``seat`` scores for
        (:class:`RulesError` for a seat not at the table)."""
        if type(seat) is int and 0 <= seat < self.players:
            return self._team_index[seat]
        raise RulesError(f"seat: expected a seat 0 to {self.players - 1}, got {_show(seat)}")

    def partner(self, seat: int) -> int | None:
        """The partner of ``seat`` in team play, ``None`` otherwise (:class:`RulesError` for a seat
        not at the table)."""
        self.team_of(seat)
        if not self.teams:
            return None
        a, b = self.teams_of_seats[self.team_of(seat)]
        return b if seat == a else a

    # -- links and winning ----------------------------------------------------
    @cached_property
    def link_graph(self) -> nx.Graph:
        """The Picante links as an undirected graph on the values 1..12 (frozen: changing it raises)."""
        g = nx.Graph()
        g.add_nodes_from(VALUES)
        g.add_edges_from(self.links)
        return nx.freeze(g)  # the Rules are immutable, so is their graph

    @cached_property
    def _linked_to(self) -> tuple[frozenset[int], ...]:
        """The values linked to each value (indexed by value; index 0 unused): the graph's neighbours, read
        without the graph on the hot paths of play (a check of the goal after every trio)."""
        graph = self.link_graph
        return (frozenset(),) + tuple(frozenset(graph.neighbors(v)) for v in VALUES)

    def linked(self, a: int, b: int) -> bool:
        """Whether trios of ``a`` and ``b`` are linked (:class:`RulesError` unless both are values 1 to 12)."""
        _held((a, b))
        return b in self._linked_to[a]

    def is_win(self, trios: Iterable[int]) -> bool:
        """Whether a side holding trios of these values has met the goal."""
        held = _held(trios)
        if SEVEN in held:
            return True
        if self.mode is Mode.SIMPLE:
            return len(held) >= 3
        linked_to = self._linked_to
        return any(not linked_to[v].isdisjoint(held) for v in held)

    def winning_values(self, trios: Iterable[int]) -> frozenset[int]:
        """The values whose trio would make a side holding ``trios`` win at once."""
        held = _held(trios)
        out = {SEVEN}
        if self.mode is Mode.SIMPLE:
            if len(held) >= 2:
                out.update(VALUES)
        else:
            for v in held:
                out.update(self._linked_to[v])
        return frozenset(out - held)

    def goal_distance(self, trios: Iterable[int]) -> int:
        """Trios still needed, ignoring the trio of 7s (0 once the goal is met)."""
        held = _held(trios)
        if self.is_win(held):
            return 0
        if self.mode is Mode.SIMPLE:
            return 3 - len(held)
        return 1 if any(self._linked_to[v] for v in held) else 2

    # -- JSON -------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The ``rules`` object of a record (links only when they differ from the default)."""
        out: dict[str, Any] = {"players": self.players, "mode": self.mode.value, "teams": self.teams}
        if self.links != default_links():
            out["links"] = [list(p) for p in sorted(self.links)]
        return out

    @classmethod
    def from_json(cls, data: Any) -> Rules:
        """Read the ``rules`` object of a record; raises :class:`RulesError`."""
        if not isinstance(data, dict):
            raise RulesError(f"rules: expected an object, got {kind(data)}")
        unknown = set(data) - {"players", "mode", "teams", "links"}
        if unknown:
            raise RulesError(f"rules: unknown key {_show(sorted(unknown)[0])}")
        for key in ("players", "mode"):
            if key not in data:
                raise RulesError(f"rules.{key}: missing")
        links = data.get("links")
        if links is not None and not isinstance(links, list):
            raise RulesError(f"rules.links: expected a list of value pairs, got {kind(links)}")
        return cls(
            players=data["players"],
            mode=data["mode"],
            teams=data.get("teams", False),
            links=default_links() if links is None else _normalise_links(links),
        )


def read_position_head(data: Any, allowed: tuple[str, ...], required: tuple[str, ...]) -> tuple[dict[str, Any], Rules, int]:
    """The object of a game's or a position's JSON (only ``allowed`` keys, every ``required`` one),
    its :class:`Rules` and its first player (default 0); raises :class:`RecordError`."""
    d = json_object(data, "", allowed)
    for key in required:
        if key not in d:
            fail(key, "missing")
    try:
        rules = Rules.from_json(d["rules"])
    except RulesError as e:
        raise RecordError("", str(e)) from None
    first = d.get("first_player", 0)
    if not is_int(first) or not 0 <= first < rules.players:
        fail("first_player", f"expected a seat 0 to {rules.players - 1}, got {_show(first)}")
    return d, rules, first


def read_cards(raw: Any, loc: str, size: int | None) -> tuple[int, ...]:
    """Card values as a record or a position gives them (a hand, the centre), in the order given: a
    list (or tuple) of values 1 to 12, at most :data:`COPIES` of each, and ``size`` of them unless
    ``size`` is ``None``. Raises :class:`RecordError` naming ``loc`` or ``loc[k]``."""
    if not isinstance(raw, (list, tuple)):
        fail(loc, f"expected a list of card values, got {kind(raw)}")
    for k, v in enumerate(raw):
        if not is_int(v) or v not in VALUES:
            fail(f"{loc}[{k}]", f"card values are 1 to 12, got {_show(v, 40)}")
    if size is not None and len(raw) != size:
        fail(loc, f"{len(raw)} cards, the rules deal {size}")
    for v in VALUES:
        if raw.count(v) > COPIES:
            fail(loc, f"{raw.count(v)} cards of value {v}, the deck has {COPIES}")
    return tuple(raw)
