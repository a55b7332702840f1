"""Fuzz suite: the public API and the commands never answer bad input with anything but a TrioError.

* every public function and method (``trio_solver.__all__`` and what the README shows) is driven
  by hypothesis with arbitrary values of wrong types and ranges: it may succeed or raise a
  :class:`~trio_solver.errors.TrioError` whose message is one line; any other exception fails;
* records mutated from the bundled examples and the golden corpus load, replay and answer, or
  fail with one line;
* the commands at the edges of the file system and of their standard streams (``test_fuzz_cli.py``).

``TRIO_FUZZ_LONG=1`` (or ``pytest --fuzz-long``) multiplies the number of cases by 20.
"""

from __future__ import annotations

import functools
import json
import math
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import trio_solver
from trio_solver import (
    BOT_NAMES,
    Advice,
    Beliefs,
    Deal,
    Evaluation,
    Game,
    Mode,
    Outcome,
    PlayerView,
    Record,
    Reveal,
    Revealed,
    Rules,
    Swap,
    TrioError,
    Turn,
    TurnStatus,
    advise,
    advise_game,
    analyse,
    check_record,
    evaluate,
    make_bot,
    play_game,
    replay_view,
    run_tournament,
    sample_game,
)
from trio_solver.limits import Deadline, check, time_limit

from fuzz_settings import FUZZ_SCALE

ROOT = Path(__file__).resolve().parent.parent
RECORDS = sorted((ROOT / "examples").glob("*.json")) + sorted((ROOT / "tests" / "corpus").glob("*.json"))

# -- hostile values --------------------------------------------------------------------------

_SPECIAL: list[Any] = [
    None, True, False, 0, 1, 2, 3, 5, 6, 7, 11, 12, 13, 99, 100, -1, -7, 2**31, 2**63, -(2**63), 10**5000,
    0.5, 3.0, -0.0, math.nan, math.inf, -math.inf, "", " ", "x", "c3", "l0", "h1", "h9", "c3=5", "l1=13",
    "9" * 5000, "c" + "9" * 5000, "\x00", "é", b"", b"c3", [], [0], [0, 1], [1, 2, 3], [[1, 2]], {}, (),
    (0, 1), (0, 2), {"centre": 3}, {"lowest": 0}, {"highest": 99}, {"players": 3, "mode": "simple"},
    object(), random.Random(0), Reveal.centre(0), Reveal.lowest(1), Reveal.highest(2), Reveal.lowest(7),
    Reveal.centre(99), Revealed(Reveal.centre(1), 5), Rules(3), Rules(4, "picante", True), "trio", "win",
    "random", "memory", "solver", "simple", "picante", "default", "all", frozenset({1}), {1, 2}, range(3),
    complex(1, 1), float("1e308"), -(10**400), "../../etc/passwd", "/dev/full", "/nonexistent/dir/x.json",
]

_json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-20, 20), st.integers(), st.floats(),
                       st.text(max_size=8))
_json_like = st.recursive(_json_leaf, lambda kids: st.one_of(
    st.lists(kids, max_size=5),
    st.dictionaries(st.sampled_from(["centre", "lowest", "highest", "players", "mode", "teams", "turn",
                                     "reveals", "swap", "cards", "value", "rules", "events", "seat", "hand",
                                     "first_player", "deal", "hands", "view", "format", "x"]),
                    kids, max_size=4)), max_leaves=12)

HOSTILE = st.one_of(
    st.sampled_from(_SPECIAL),
    st.integers(min_value=-3, max_value=15),
    st.integers(),
    st.floats(),
    st.text(max_size=12),
    st.lists(st.integers(-2, 14), max_size=12),
    st.lists(st.lists(st.integers(0, 13), max_size=10), max_size=7),
    _json_like,
)

# -- fixtures: a few real objects to call methods on ------------------------------------------


def _game(seed: int, rules: Rules, reveals: int) -> Game:
    rng = random.Random(seed)
    g = Game.deal(rules, seed)
    for _ in range(reveals):
        if g.over:
            break
        for a, b in g.swap_moment():
            g.swap(a, b, g.hands[a][0], g.hands[b][-1])
        legal = g.legal_reveals()
        g.reveal(rng.choice(legal))
    return g


GAMES = [
    _game(1, Rules(3, "picante"), 7),
    _game(2, Rules(4), 0),
    _game(3, Rules(4, "simple", True), 12),
    _game(4, Rules(5, "picante"), 15),
]
VIEWS = [g.view(g.to_move) for g in GAMES] + [GAMES[0].view(None), GAMES[2].view((GAMES[2].to_move + 1) % 4)]
RECORD_OBJS = [Record.load(p) for p in RECORDS[:4]] + [Record.from_game(g) for g in GAMES]


@functools.cache
def _beliefs() -> list[Beliefs]:
    """The beliefs of :data:`VIEWS`, built at their first use rather than on import: beliefs call the
    compiled kernel, which a test process collecting the tests must not build (tests/conftest.py)."""
    return [Beliefs(v) for v in VIEWS]


@functools.cache
def _advice() -> list[Advice]:
    """The advice at the first views, built at its first use (as :func:`_beliefs`)."""
    return [advise(v) for v in VIEWS[:4] if not v.over]


def _valid(pool: list[Any] | Callable[[], list[Any]]) -> st.SearchStrategy[Any]:
    """One of ``pool`` (or of what the function ``pool`` gives, called when the first example is drawn)."""
    if callable(pool):
        return st.deferred(lambda: st.sampled_from(pool()))
    return st.sampled_from(pool)


class _Receiver:
    """The object a method is called on: always a real one (only the arguments are hostile)."""

    def __init__(self, pool: list[Any] | Callable[[], list[Any]]) -> None:
        self.strategy = _valid(pool)


def _receiver(pool: list[Any] | Callable[[], list[Any]]) -> Any:
    return _Receiver(pool)


SEAT = st.integers(-1, 6)
VALUE = st.integers(0, 13)
REVEAL = st.sampled_from([Reveal(k, i) for k in ("centre", "lowest", "highest") for i in range(10)])
RNG = st.builds(random.Random, st.integers(0, 10))

# name -> (call, strategies for the valid form of each argument)
Call = Callable[..., Any]
TARGETS: dict[str, tuple[Call, list[st.SearchStrategy[Any]]]] = {
    # value types
    "Rules": (lambda p, m, t: Rules(p, m, t), [st.integers(2, 7), st.sampled_from(["simple", "picante"]),
                                               st.booleans()]),
    "Rules.links": (lambda links: Rules(3, "picante", links=links), [st.just([(1, 6), (2, 5)])]),
    "Rules.from_json": (Rules.from_json, [_json_like]),
    "Rules.team_of": (lambda r, s: r.team_of(s), [_receiver([Rules(3), Rules(4, teams=True)]), SEAT]),
    "Rules.partner": (lambda r, s: r.partner(s), [_receiver([Rules(3), Rules(4, teams=True)]), SEAT]),
    "Rules.linked": (lambda a, b: Rules(3, "picante").linked(a, b), [VALUE, VALUE]),
    "Rules.is_win": (lambda t: Rules(3, "picante").is_win(t), [st.lists(VALUE, max_size=4)]),
    "Rules.winning_values": (lambda t: Rules(3).winning_values(t), [st.lists(VALUE, max_size=4)]),
    "Rules.goal_distance": (lambda t: Rules(4, "picante").goal_distance(t), [st.lists(VALUE, max_size=4)]),
    "Reveal": (Reveal, [st.sampled_from(["centre", "lowest", "highest"]), st.integers(-1, 100)]),
    "Reveal.centre": (Reveal.centre, [st.integers(-1, 100)]),
    "Reveal.lowest": (Reveal.lowest, [st.integers(-1, 100)]),
    "Reveal.highest": (Reveal.highest, [st.integers(-1, 100)]),
    "Reveal.from_str": (Reveal.from_str, [st.sampled_from(["c3", "l0", "H2 ", "x"])]),
    "Reveal.from_json": (Reveal.from_json, [_json_like]),
    "Revealed": (Revealed, [REVEAL, VALUE]),
    "Mode": (Mode, [st.sampled_from(["simple", "picante"])]),
    "TurnStatus": (TurnStatus, [st.sampled_from(["ongoing", "trio", "failure", "stuck"])]),
    "Revealed.from_str": (Revealed.from_str, [st.sampled_from(["c3=4", "l0=12", "h1", "c2=13"])]),
    "Revealed.from_json": (Revealed.from_json, [_json_like]),
    "Turn": (Turn, [SEAT, st.just((Revealed(Reveal.centre(0), 3),))]),
    "Turn.from_json": (Turn.from_json, [_json_like]),
    "Swap": (Swap, [st.just((0, 2)), st.just((3, 4))]),
    "Swap.from_json": (Swap.from_json, [_json_like]),
    "Outcome.from_json": (Outcome.from_json, [_json_like]),
    # the true state
    "Deal": (lambda h, c: Game(Rules(3), Deal(h, c)), [st.just(GAMES[0].dealt.hands),
                                                       st.just(GAMES[0].dealt.centre)]),
    "Deal.from_json": (Deal.from_json, [_json_like, _valid([Rules(3), Rules(4, teams=True)])]),
    "Deal.shuffle": (Deal.shuffle, [_valid([Rules(3)]), RNG]),
    "Deal.check": (lambda d, r: d.check(r), [_receiver([g.dealt for g in GAMES]), _valid([Rules(3), Rules(5)])]),
    "Game": (Game, [_valid([Rules(3)]), _valid([GAMES[0].dealt]), SEAT]),
    "Game.deal": (lambda r, s, f: Game.deal(r, s, first_player=f), [_valid([Rules(3), Rules(6, teams=True)]),
                                                                     st.integers(0, 9), SEAT]),
    "Game.deal.rng": (lambda r, g: Game.deal(r, rng=g), [_valid([Rules(4)]), RNG]),
    "Game.from_deal": (Game.from_deal, [_valid([Rules(3)]), st.just(GAMES[0].dealt.hands),
                                        st.just(GAMES[0].dealt.centre), SEAT]),
    "Game.replay": (Game.replay, [_valid([Rules(3)]), _valid([GAMES[0].dealt]),
                                  st.just(GAMES[0].events), SEAT]),
    "Game.from_json": (Game.from_json, [_json_like]),
    "Game.is_legal": (lambda g, r: g.is_legal(r), [_receiver(GAMES), REVEAL]),
    "Game.peek": (lambda g, r: g.peek(r), [_receiver(GAMES), REVEAL]),
    "Game.reveal": (lambda g, r: g.copy().reveal(r), [_receiver(GAMES), REVEAL]),
    "Game.play": (lambda g, t: g.copy().play(t), [_receiver(GAMES), st.sampled_from(["c0", "l0", "h1", "c9"])]),
    "Game.swap": (lambda g, a, b, x, y: g.copy().swap(a, b, x, y), [_receiver(GAMES), SEAT, SEAT, VALUE, VALUE]),
    "Game.view": (lambda g, s: g.view(s), [_receiver(GAMES), SEAT]),
    "Game.constructed": (Game.constructed, [_valid([Rules(3)]), st.just([[1, 2], [3], [4]]),
                                            st.just([5, None, 6]), SEAT]),
    # positions
    "PlayerView.start": (lambda r, s, h, f: PlayerView.start(r, s, h, f),
                         [_valid([Rules(3), Rules(4, teams=True)]), SEAT,
                          st.lists(VALUE, min_size=9, max_size=9), SEAT]),
    "PlayerView.push": (lambda v, r, x: v.push(r, x), [_receiver(VIEWS), REVEAL, VALUE]),
    "PlayerView.push_swap": (lambda v, s, c: v.push_swap(s, c), [_receiver(VIEWS), st.just((0, 2)),
                                                                 st.just((3, 4))]),
    "PlayerView.pop": (lambda v: v.pop(), [_receiver(VIEWS)]),
    "PlayerView.from_json": (PlayerView.from_json, [_json_like]),
    "PlayerView.team_trios": (lambda v, s: v.team_trios(s), [_receiver(VIEWS), SEAT]),
    "PlayerView.position": (lambda v, r: v.position(r), [_receiver(VIEWS), REVEAL]),
    "PlayerView.accessible": (lambda v, s: v.accessible(s), [_receiver(VIEWS), SEAT]),
    "PlayerView.used": (lambda v, s: v.used(s), [_receiver(VIEWS), SEAT]),
    "PlayerView.own_value": (lambda v, r: v.own_value(r), [_receiver(VIEWS), REVEAL]),
    "replay_view": (lambda r, e, s, h, f: replay_view(r, e, seat=s, hand=h, first_player=f),
                    [_valid([GAMES[0].rules]), st.just(GAMES[0].events), st.just(0),
                     st.just(list(GAMES[0].dealt.hands[0])), st.just(GAMES[0].table.first_player)]),
    # records
    "Record.load": (Record.load, [st.sampled_from([str(p) for p in RECORDS[:3]] + ["/", "/nonexistent.json",
                                                                               "/dev/zero", "/dev/null"])]),
    "Record.loads": (Record.loads, [st.sampled_from([p.read_text() for p in RECORDS[:3]])]),
    "Record.from_json": (Record.from_json, [_json_like]),
    "Record.from_game": (lambda g, n, v: Record.from_game(g, n, v), [_valid(GAMES), st.none(), SEAT]),
    "Record.game": (lambda r, a: r.game(a), [_receiver(RECORD_OBJS), st.integers(-1, 60)]),
    "Record.view": (lambda r, s, a: r.view(s, a), [_receiver(RECORD_OBJS), SEAT, st.integers(-1, 60)]),
    "Record.to_json": (lambda r, v: r.to_json(values=v), [_receiver(RECORD_OBJS), st.booleans()]),
    "Record.dumps": (lambda r, i, v: r.dumps(indent=i, values=v), [_receiver(RECORD_OBJS), st.integers(0, 4),
                                                                   st.booleans()]),
    # beliefs
    "Beliefs": (lambda v, e, b: Beliefs(v, exact=e, swap_budget=b), [_valid(VIEWS), st.booleans(),
                                                                       st.integers(1, 50_000)]),
    "Beliefs.deadline": (lambda v, d: Beliefs(v, deadline=d), [_valid(VIEWS), st.just(None)]),
    "Beliefs.from_json": (Beliefs.from_json, [_json_like]),
    "Beliefs.lowest": (lambda b, s: b.lowest(s), [_receiver(_beliefs), SEAT]),
    "Beliefs.highest": (lambda b, s: b.highest(s), [_receiver(_beliefs), SEAT]),
    "Beliefs.end": (lambda b, r: b.end(r), [_receiver(_beliefs), REVEAL]),
    "Beliefs.position_distribution": (lambda b, s, p: b.position_distribution(s, p),
                                      [_receiver(_beliefs), SEAT, st.integers(-1, 10)]),
    "Beliefs.count_distribution": (lambda b, s: b.count_distribution(s), [_receiver(_beliefs), SEAT]),
    "Beliefs.expected": (lambda b, s: b.expected(s), [_receiver(_beliefs), SEAT]),
    "Beliefs.exact_cell_weights": (lambda b, s: b.exact_cell_weights(s), [_receiver(_beliefs), SEAT]),
    "Beliefs.row_of_seat": (lambda b, s: b.row_of_seat(s), [_receiver(_beliefs), SEAT]),
    "Beliefs.prob_all_show": (lambda b, v, r: b.prob_all_show(v, r), [_receiver(_beliefs), VALUE,
                                                                      st.lists(REVEAL, max_size=3)]),
    "Beliefs.demands": (lambda b, v, lo, hi, sl, po: b.demands(v, lo, hi, sl, po),
                        [_receiver(_beliefs), VALUE, st.dictionaries(SEAT, st.integers(0, 3), max_size=2),
                         st.dictionaries(SEAT, st.integers(0, 3), max_size=2), st.lists(st.integers(0, 9),
                                                                                        max_size=2),
                         st.integers(0, 3)]),
    "Beliefs.sample": (lambda b, g: b.sample(g), [_receiver(_beliefs), RNG]),
    "Beliefs.to_json": (lambda b, a, v: b.to_json(a, view=v), [_receiver(_beliefs), st.integers(0, 9),
                                                               st.booleans()]),
    "sample_game": (sample_game, [_valid(_beliefs), RNG]),
    # advice, bots
    "advise": (lambda v, o, b: advise(v, o, beliefs=b), [_valid(VIEWS), st.sampled_from(["trio", "win"]),
                                                         st.none()]),
    "evaluate": (lambda v, n, s, p: evaluate(v, samples=n, seed=s, precision=p),
                 [_valid(VIEWS[:4]), st.integers(1, 16), st.integers(0, 9), st.sampled_from([0.0, 0.05])]),
    "advise_game": (lambda v, n, s, c: advise_game(v, samples=n, seed=s, confidence=c),
                    [_valid(VIEWS[:4]), st.integers(1, 16), st.integers(0, 9), st.sampled_from([0.8, 0.95])]),
    "check_record": (lambda r: check_record(r), [_valid(RECORD_OBJS)]),
    "Advice.get": (lambda a, r: a.get(r), [_receiver(_advice), REVEAL]),
    "Advice.from_json": (Advice.from_json, [_json_like]),
    "Evaluation.from_json": (Evaluation.from_json, [_json_like]),
    "make_bot": (make_bot, [st.sampled_from(list(BOT_NAMES)), RNG]),
    "Bot.choose_reveal": (lambda n, v: make_bot(n, random.Random(0), budget=8).choose_reveal(v),
                          [st.sampled_from(list(BOT_NAMES)), _valid(VIEWS)]),
    "Bot.choose_swap": (lambda n, v: make_bot(n, random.Random(0), budget=8).choose_swap(v),
                        [st.sampled_from(list(BOT_NAMES)), _valid(VIEWS)]),
    # games between bots, analysis (valid calls kept cheap: random bots, 1 game, judged by the turn)
    "play_game": (lambda r, b, g, f: play_game(r, b, rng=g, first_player=f),
                   [_valid([Rules(3)]), st.just([make_bot("random", random.Random(s)) for s in range(3)]), RNG,
                    st.sampled_from([None, 0, 2])]),
    # a valid but large number of games (99 of NASTY) plays 3: what is checked is the handling of the argument
    "run_tournament": (lambda r, b, n, s, w: run_tournament(r, b, 3 if type(n) is int and 3 < n <= 10**6 else n, s,
                                                            workers=w),
                       [_valid([Rules(3)]), st.just(["random", "random", "random"]), st.just(1),
                        st.integers(0, 9), st.just(1)]),
    "analyse": (lambda r, p, n, s: analyse(r, p, samples=n, seed=s),
                [_valid([Record.from_game(GAMES[0])]), st.none(), st.just(0), st.integers(0, 9)]),
    # limits
    "Deadline": (Deadline, [st.floats(0.001, 100)]),
    "time_limit": (lambda x: _under_limit(x), [st.floats(0.001, 100)]),
}


def _under_limit(seconds: Any) -> None:
    with time_limit(seconds):
        check("a quick job")


def _check_call(fn: Call, args: list[Any]) -> None:
    try:
        fn(*args)
    except TrioError as e:
        msg = str(e)
        assert msg and "\n" not in msg and len(msg.splitlines()) == 1, f"not a one-line message: {msg!r:.300}"
        assert len(msg) <= 1000, f"message of {len(msg)} characters"


CASES = settings(max_examples=40 * FUZZ_SCALE, deadline=None, derandomize=True,
                 suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("name", sorted(TARGETS))
@CASES
@given(data=st.data())
def test_public_api_answers_bad_arguments_with_trio_errors(name: str, data: st.DataObject) -> None:
    """Each argument is either a valid one or a hostile value; the call succeeds or raises a TrioError."""
    fn, valid = TARGETS[name]
    args = [data.draw(s.strategy) if isinstance(s, _Receiver)
            else data.draw(st.one_of(s, HOSTILE) if data.draw(st.booleans()) else s)
            for s in valid]
    _check_call(fn, args)


#: Values that broke the API before: each one is tried in every argument of every target.
NASTY: list[Any] = [None, 10**5000, -(10**5000), 2**1100, -1, 99, "9" * 5000, math.nan, math.inf, object(), [],
                    {}, "", b"\xff", [[[]]], True]


@pytest.mark.parametrize("name", sorted(TARGETS))
@settings(max_examples=2 * FUZZ_SCALE, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_each_argument_with_each_nasty_value(name: str, data: st.DataObject) -> None:
    """Every argument position, in turn, gets each of the NASTY values; the others stay valid."""
    fn, valid = TARGETS[name]
    base = [data.draw(s.strategy if isinstance(s, _Receiver) else s) for s in valid]
    for i, s in enumerate(valid):
        if isinstance(s, _Receiver):
            continue
        for bad in NASTY:
            _check_call(fn, base[:i] + [bad] + base[i + 1:])


def test_every_public_callable_is_driven() -> None:
    """Every class and function of ``trio_solver.__all__`` is fuzzed (directly or through its methods)."""
    untested = {"Analysis", "Decision", "GameEvaluation", "Summary",  # results, not functions to call
                "Tournament", "Placement", "Bot", "BOT_NAMES", "Event", "Shown",
                "TurnObjective",  # a type for the type checker (the names advise takes), nothing to call
                "TrioError", "RulesError", "NotationError", "IllegalMoveError", "RecordError",
                "ContradictionError", "ViewError", "LimitError", "RunError"}
    driven = {name.split(".")[0] for name in TARGETS}
    missing = set(trio_solver.__all__) - driven - untested
    assert not missing, f"public names with no fuzz target: {sorted(missing)}"


# -- mutated records ------------------------------------------------------------------------------

def _mutate(doc: Any, rng: random.Random, depth: int = 0) -> Any:
    """One random change somewhere inside a JSON document."""
    if isinstance(doc, dict) and doc and depth < 8 and rng.random() < 0.8:
        key = rng.choice(sorted(doc))
        out = dict(doc)
        r = rng.random()
        if r < 0.1:
            del out[key]
        elif r < 0.15:
            out["extra"] = 1
        else:
            out[key] = _mutate(doc[key], rng, depth + 1)
        return out
    if isinstance(doc, list) and doc and depth < 8 and rng.random() < 0.8:
        out_l = list(doc)
        i = rng.randrange(len(doc))
        r = rng.random()
        if r < 0.1:
            del out_l[i]
        elif r < 0.2:
            out_l.insert(i, doc[i])
        elif r < 0.25:
            out_l.extend(doc[: rng.randrange(1, len(doc) + 1)])
        else:
            out_l[i] = _mutate(doc[i], rng, depth + 1)
        return out_l
    return rng.choice(_SPECIAL[:40] + [[], {}, -1, 13, 7, 0, None, "x", 10**30, {"centre": 2}, [1, 1, 1]])


def _exercise(record: Record) -> None:
    """Everything a command does with a loaded record."""
    record.dumps()
    record.game() if record.has_deal else None
    for seat in (None, record.seat()):
        try:
            view = record.view(seat)
        except TrioError:
            continue
        b = Beliefs(view, deadline=Deadline(10))
        if b.consistent:
            b.to_json()
            if view.seat == view.to_move and not view.over and view.hand is not None:
                advise(view, beliefs=b)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
@settings(max_examples=12 * FUZZ_SCALE, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), rounds=st.integers(1, 4))
def test_mutated_records_load_or_fail_in_one_line(path: Path, seed: int, rounds: int) -> None:
    rng = random.Random(seed)
    doc = json.loads(path.read_text())
    for _ in range(rounds):
        doc = _mutate(doc, rng)
    try:
        text = json.dumps(doc)
    except (ValueError, OverflowError):
        return
    try:
        record = Record.loads(text)
        _exercise(record)
    except TrioError as e:
        assert "\n" not in str(e) and str(e)


@settings(max_examples=30 * FUZZ_SCALE, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(text=st.one_of(st.text(max_size=200), st.binary(max_size=200),
                      st.sampled_from(["[" * 100_000, '{"format": "trio-record/1", "events": ' + "[" * 5000,
                                       "1" * 5000, '"' + "a" * 100_000 + '"', "\udcff", "\x00" * 10,
                                       '{"format": "trio-record/1"}' + " " * 10])))
def test_arbitrary_text_is_not_a_record(text: str | bytes) -> None:
    try:
        Record.loads(text)
    except TrioError as e:
        assert "\n" not in str(e)
    else:  # pragma: no cover - no arbitrary text is a valid record
        pytest.fail(f"{text!r:.80} was accepted as a record")
