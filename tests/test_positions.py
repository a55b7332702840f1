"""Positions as values: push/pop against the engine, JSON round trips of every core type,
equality and keys, outcomes, and the package's structure (one replayer, no import cycle)."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trio_solver
from trio_solver import (
    Advice,
    Beliefs,
    Deal,
    Game,
    IllegalMoveError,
    NotationError,
    Outcome,
    PlayerView,
    Record,
    RecordError,
    Reveal,
    Revealed,
    Rules,
    Swap,
    Turn,
    TurnStatus,
    advise,
)
from trio_solver.game.events import event_from_json, event_to_json
from trio_solver.game.rules import VALUES

SETTINGS = [(3, "simple", False), (4, "picante", False), (5, "simple", False), (6, "picante", False),
            (4, "simple", True), (6, "simple", True)]


def random_game(seed: int, players: int, mode: str, teams: bool, stop: float) -> Game:
    """A game played at random (random swaps too) until a random share ``stop`` of its reveals."""
    rng = random.Random(seed)
    game = Game.deal(Rules(players, mode, teams=teams), rng=rng)
    budget = int(stop * 80)
    for _ in range(budget):
        if game.over:
            break
        for a, b in game.swap_moment():
            if game.hands[a] and game.hands[b] and rng.random() < 0.6:
                game.swap(a, b, rng.choice(game.hands[a]), rng.choice(game.hands[b]))
        game.reveal(rng.choice(game.legal_reveals()))
    return game


games = st.builds(
    lambda seed, setting, stop: random_game(seed, *setting, stop),
    st.integers(0, 10_000), st.sampled_from(SETTINGS), st.floats(0, 1),
)


def pushed_view(game: Game, seat: int | None) -> tuple[PlayerView, list[PlayerView]]:
    """``seat``'s position rebuilt by pushing every event of ``game`` onto the start; with every
    intermediate position."""
    rules = game.rules
    view = PlayerView.start(rules, seat, None if seat is None else game.dealt.hands[seat], game.first_player)
    seen = [view]
    team = None if seat is None else rules.team_of(seat)
    for e in game.table.finished_events():
        if isinstance(e, Swap):
            mine = team is not None and rules.team_of(e.seats[0]) == team
            view = view.push_swap(e.seats, e.cards if mine else None)
            seen.append(view)
            continue
        for r in e.reveals:
            own = seat is not None and r.reveal.seat == seat
            # the viewer's own card needs no value; every other card does
            view = view.push(r.reveal) if own else view.push(str(r))
            seen.append(view)
    return view, seen


@settings(max_examples=40, deadline=None)
@given(games, st.integers(-1, 5))
def test_pushing_the_history_gives_the_engines_view(game: Game, pick: int) -> None:
    seat = None if pick < 0 else pick % game.rules.players
    view, seen = pushed_view(game, seat)
    truth = game.view(seat)
    assert view == truth and hash(view) == hash(truth) and view.key() == truth.key()
    assert (view.to_move, view.sizes, view.trios, view.turn, view.hand, view.winner) == (
        truth.to_move, truth.sizes, truth.trios, truth.turn, truth.hand, truth.winner)
    assert view.legal_reveals() == truth.legal_reveals()
    # pop walks back through every intermediate position
    back = view
    for earlier in reversed(seen[:-1]):
        back = back.pop()
        assert back == earlier and back.key() == earlier.key()
    with pytest.raises(IllegalMoveError, match="nothing to take back"):
        back.pop()


@settings(max_examples=40, deadline=None)
@given(games, st.integers(-1, 5))
def test_views_and_games_round_trip_through_json(game: Game, pick: int) -> None:
    seat = None if pick < 0 else pick % game.rules.players
    view = game.view(seat)
    text = json.dumps(view.to_json())
    again = PlayerView.from_json(json.loads(text))
    assert again == view and again.key() == view.key() and again.to_json() == view.to_json()
    g2 = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert g2 == game and g2.to_json() == game.to_json()
    assert (g2.hands, g2.centre, g2.to_move, g2.turn, g2.trios, g2.winner) == (
        game.hands, game.centre, game.to_move, game.turn, game.trios, game.winner)
    assert Deal.from_json(game.dealt.to_json(), game.rules) == game.dealt
    assert Rules.from_json(game.rules.to_json()) == game.rules
    for e in game.table.finished_events():
        assert event_from_json(event_to_json(e), players=game.rules.players) == e


@settings(max_examples=30, deadline=None)
@given(games)
def test_game_reveal_returns_the_card_shown(game: Game) -> None:
    if game.over:
        return
    for r in game.legal_reveals():
        expected = game.peek(r)
        shown = game.reveal(r)
        assert (shown.reveal, shown.value) == (r, expected) and str(shown) == f"{r}={expected}"
        assert shown.status in TurnStatus
        game.undo()


def test_different_positions_differ() -> None:
    game = random_game(3, 4, "simple", False, 0.3)
    a = game.view(0)
    b = game.view(1)
    assert a != b and a.key() != b.key()
    r = game.legal_reveals()[0]
    game.reveal(r)
    c = game.view(0)
    assert c != a and c.key() != a.key() and c.pop() == a
    cache = {a: "first", c: "second"}
    assert cache[PlayerView.from_json(a.to_json())] == "first"


def test_push_refuses_what_the_rules_or_the_hand_forbid() -> None:
    hand = [1, 2, 3, 4, 5, 6, 7, 8, 9]
    v = PlayerView.start(Rules(3), seat=0, hand=hand)
    with pytest.raises(IllegalMoveError, match="which value"):
        v.push("c0")  # a centre card: the value must be said
    with pytest.raises(IllegalMoveError, match="contradicts the viewer's hand"):
        v.push("l0=5")  # the viewer's lowest card is a 1
    with pytest.raises(IllegalMoveError, match="no centre slot 9"):
        v.push("c9=4")
    with pytest.raises(IllegalMoveError, match='"x1=3" is not a shown card'):
        v.push("x1=3")
    with pytest.raises(IllegalMoveError, match="1 to 12"):
        v.push(Reveal.centre(0), 13)
    w = v.push("l0")  # own card: value known
    assert w.turn == (Revealed(Reveal.lowest(0), 1),)
    w = w.push("c0=1").push("h2=1")  # a trio of 1s for seat 0
    assert w.trios[0] == (1,) and w.hand == (2, 3, 4, 5, 6, 7, 8, 9) and w.to_move == 1
    with pytest.raises(IllegalMoveError, match="fourth card of value 1"):
        w.push("c1=1")
    with pytest.raises(IllegalMoveError, match="swaps exist only in team play"):
        w.push_swap((0, 1))


def test_outcome_of_a_won_game() -> None:
    for seed in range(6):
        game = random_game(seed, 3 + seed % 4, "simple" if seed % 2 else "picante", False, 100.0)
        out = game.outcome()
        assert game.over and out is not None and out.winner == game.winner
        assert out.seats == (game.winner,) and game.rules.is_win(out.trios)
        assert out.reason == ("trio of 7s" if 7 in out.trios else
                              "three trios" if game.rules.mode.value == "simple" else "two linked trios")
        assert Outcome.from_json(out.to_json()) == out
        assert game.view(None).outcome() == out == Record.from_game(game).outcome()
    assert Game.deal(Rules(3), seed=0).outcome() is None


def test_team_outcome_names_both_partners() -> None:
    for seed in range(40):
        game = random_game(seed, 4, "simple", True, 100.0)
        out = game.outcome()
        assert out is not None
        assert set(out.seats) == set(game.rules.teams_of_seats[game.rules.team_of(out.winner)])


def test_advice_and_beliefs_round_trip() -> None:
    game = random_game(5, 4, "picante", False, 0.4)
    view = game.view(game.to_move)
    adv = advise(view, "trio")
    data = json.loads(json.dumps(adv.to_json()))
    again = Advice.from_json(data)
    assert again.to_json() == adv.to_json()
    assert [e.reveal for e in again.evaluations] == [e.reveal for e in adv.evaluations]
    assert all(len(e.plan) == len(f.plan) for e, f in zip(again.evaluations, adv.evaluations))
    assert all(e.plan for e in adv.evaluations if e.p_trio > 0), "every reveal that can take a trio has a plan"
    b = Beliefs(view)
    doc = json.loads(json.dumps(b.to_json(view=True)))
    assert Beliefs.from_json(doc).to_json(view=True) == b.to_json(view=True)
    read = Beliefs(view, read=0.02)  # beliefs that read the opponents keep their weight
    again_read = Beliefs.from_json(json.loads(json.dumps(read.to_json(view=True))))
    assert again_read.read == 0.02 and again_read.to_json() == read.to_json()
    with pytest.raises(RecordError):
        Advice.from_json({"seat": 0})
    for objective in ("best", ["turn"]):  # what no advice ranks by, refused in one line
        with pytest.raises(RecordError, match="advice.objective: expected"):
            Advice.from_json({**data, "objective": objective})
    with pytest.raises(RecordError):
        Beliefs.from_json({"centre": {}})


@given(st.sampled_from(["centre", "lowest", "highest"]), st.integers(0, 99), st.integers(1, 12))
def test_reveal_notation_round_trips(kind: str, index: int, value: int) -> None:
    r = Reveal(kind, index)  # type: ignore[arg-type]
    assert Reveal.from_str(str(r)) == r and Reveal.from_json(r.to_json()) == r
    shown = Revealed(r, value)
    assert Revealed.from_str(str(shown)) == shown and Revealed.from_json(shown.to_json()) == shown


@given(st.one_of(st.text(max_size=8), st.integers(), st.none()), st.one_of(st.integers(), st.text(max_size=3)))
def test_reveal_refuses_what_is_not_a_reveal(kind: object, index: object) -> None:
    if kind in ("centre", "lowest", "highest") and type(index) is int and 0 <= index <= 99:
        return
    with pytest.raises(NotationError):
        Reveal(kind, index)  # type: ignore[arg-type]


def test_rules_are_truly_immutable() -> None:
    rules = Rules(3, "picante")
    with pytest.raises(nx.NetworkXError):
        rules.link_graph.add_edge(1, 2)
    assert not rules.is_win([1, 2]) and rules == Rules(3, "picante")
    with pytest.raises(AttributeError):
        rules.players = 4  # type: ignore[misc]


def test_library_errors_speak_of_arguments_not_options() -> None:
    rec = Record.from_game(random_game(1, 3, "simple", False, 0.2))
    with pytest.raises(RecordError) as e1:
        rec.view(9)
    with pytest.raises(RecordError) as e2:
        rec.view(0, after=10_000)
    for e in (e1, e2):
        assert "--" not in str(e.value)
    assert str(e1.value).startswith("seat: ") and str(e2.value).startswith("after: ")


def test_the_readme_names_are_exported() -> None:
    for name in trio_solver.__all__:
        assert getattr(trio_solver, name) is not None
    for name in ("Game", "Rules", "Record", "PlayerView", "Beliefs", "advise", "analyse", "make_bot",
                 "play_game", "run_tournament", "Outcome", "sample_game"):
        assert name in trio_solver.__all__


# ---------------------------------------------------------------------------
# Structure

PACKAGE = Path(trio_solver.__file__).parent


def _module_imports(source: str, package: list[str]) -> set[str]:
    """The package's modules that ``source`` (a module of subpackage ``package``) imports, at any
    depth of the file, including the imports for type annotations only (``if TYPE_CHECKING:``): a
    module that names another's types depends on it as much as one that runs its code."""
    deps: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level >= 1 and node.module:
            base = package[:len(package) - (node.level - 1)]
            deps.add(".".join(base + node.module.split(".")))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("trio_solver."):
            deps.add(node.module.removeprefix("trio_solver."))
    return deps


def _imports() -> dict[str, set[str]]:
    """Module (dotted, inside the package) -> the package's modules it imports (:func:`_module_imports`)."""
    out: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        package = parts[:-1]
        name = ".".join(package if parts[-1] == "__init__" else parts)
        out[name] = _module_imports(path.read_text(), package)
    return out


def test_imports_for_types_count() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "from .page import draw\n"
        "if TYPE_CHECKING:\n"
        "    from .analysis import Analysis\n"
        "    from trio_solver.game.view import PlayerView\n"
        "def f() -> None:\n"
        "    from ..infer import beliefs\n"
    )
    assert _module_imports(source, ["report"]) == {"report.page", "report.analysis", "game.view", "infer"}


def test_no_import_cycle() -> None:
    graph = nx.DiGraph()
    for mod, deps in _imports().items():
        for d in deps:
            if d != mod:
                graph.add_edge(mod, d)
    cycles = list(nx.simple_cycles(graph))
    assert not cycles, f"import cycles: {cycles}"


LAYERS = ("game", "infer", "decide", "report", "run", "doors")


def _layer(module: str) -> int:
    """A module's place in the flow of data: -1 for the shared top-level modules (errors, limits,
    wording, the compiled kernel), else the index of its subpackage in :data:`LAYERS`."""
    head = module.split(".")[0]
    return LAYERS.index(head) if head in LAYERS else -1


def test_subpackages_import_only_from_those_above() -> None:
    """game -> infer -> decide -> report -> run -> doors: no module reaches down the flow, and the
    shared modules import no subpackage (the package root and ``__main__`` gather the API)."""
    wrong = [(mod, dep) for mod, deps in _imports().items() if mod not in ("", "__main__")
             for dep in deps if _layer(dep) > _layer(mod)]
    assert not wrong, f"imports against the flow of data: {wrong}"
    assert {_layer(mod) for mod in _imports()} == {-1, *range(len(LAYERS))}


def test_one_replayer_of_the_public_history() -> None:
    """A Table is built only by the replayer and by the two states it drives (the true game and a
    seat's position); everyone else walks the history with ``table.steps``. The table's state is
    read through properties."""
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text()
        if path.name not in ("table.py", "state.py", "view.py"):
            assert "Table(" not in text, f"{path.name} builds its own Table"
        if path.name != "table.py":
            for private in ("._sizes", "._lo", "._hi", "._turn", "._trios", "._centre"):
                assert private not in text, f"{path.name} reads the table's {private}"


def test_beliefs_do_not_depend_on_the_true_state() -> None:
    imports = _imports()
    for mod in ("infer.facts", "infer.beliefs", "decide.search", "game.view", "game.table", "game.events"):
        assert "game.state" not in imports[mod] and "game.record" not in imports[mod], mod
    assert Turn is trio_solver.game.events.Turn


def test_value_types_print_and_compare() -> None:
    game = Game.deal(Rules(3), seed=2)
    v = game.view(0)
    assert repr(v).startswith("PlayerView(seat 0") and eval(repr(Reveal.centre(3))) == Reveal.centre(3)
    assert Game.from_json(game.to_json()) == game and game != Game.deal(Rules(3), seed=3)
    assert sorted({game.view(s).key() for s in range(3)}) == sorted(game.view(s).key() for s in range(3))
    assert all(Reveal.from_str(str(r)) == r for r in game.legal_reveals())
    assert {Revealed(Reveal.centre(0), v) for v in VALUES} == {Revealed.from_str(f"c0={v}") for v in VALUES}
