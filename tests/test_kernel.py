"""The compiled playout kernel against the engine (the rules) and against the readable reference model
(the policy), on random games of every setting; its generator and its on-disk cache."""

from __future__ import annotations

import os

import random
import subprocess
import sys
import textwrap

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers_positions import ALL_RULES, TEAM_RULES, random_position, random_swaps, swap_position
from reference_rollout import ReferenceSim
from trio_solver import Game, Rules
from trio_solver import kernel
from trio_solver.decide.evaluate import Posterior
from trio_solver.decide.rollout import DEFAULT_POLICY, POLICIES, ModelBot, Sim, public_memory, to_action, to_reveal

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _pair(game: Game, seat: int | None, policy: str = DEFAULT_POLICY) -> tuple[Sim, ReferenceSim]:
    view = game.view(seat)
    memory = public_memory(view)
    return (Sim.from_view(view, memory, game.hands, game.centre, policy),
            ReferenceSim.from_view(view, memory, game.hands, game.centre, policy))


@SETTINGS
@given(st.sampled_from(ALL_RULES), st.integers(0, 10**6), st.integers(0, 80), st.integers(0, 10**6))
def test_kernel_plays_like_the_engine(rules: Rules, seed: int, before: int, seed2: int) -> None:
    """Random reveals (and, in team play, random swaps at every swap moment) on the kernel and on the
    engine: the same legal reveals, the same values, the same turn outcomes, trios, seat to move and
    winner, the same hands and centre, until the game ends."""
    game = random_position(rules, seed, before)
    memory = public_memory(game.view(game.to_move))
    for s, known in enumerate(memory.hands):  # what everyone remembers is true
        assert len(known) == len(game.hands[s])
        assert all(v is None or v == true for v, true in zip(known, game.hands[s]))
    assert all(v is None or v == game.centre[i] for i, v in enumerate(memory.slots))
    sim, _ = _pair(game, game.to_move)
    rng = random.Random(seed2)
    for _ in range(400):
        assert sorted(sim.legal()) == sorted(to_action(r) for r in game.legal_reveals())
        if game.over:
            break
        random_swaps(game, rng, on_swap=sim.swap)
        a = rng.choice(sim.legal())
        assert sim.value(a) == game.peek(to_reveal(a))
        trios = [len(t) for t in game.trios]
        shown = game.reveal(to_reveal(a))
        status = sim.apply(a)
        took = [len(t) for t in game.trios] != trios
        assert status == ("trio" if took else "ongoing" if game.turn else "failure"), shown
        assert (sim.to_move, sim.winner) == (game.to_move, game.winner)
        assert sim.hands == game.hands
        assert sim.centre == list(game.centre)
        for team, seats in enumerate(rules.teams_of_seats):
            assert sim.trios[team] == set(game.table.team_trios(team))
        assert sim.face == [r.value for r in game.turn]


@SETTINGS
@given(st.sampled_from(ALL_RULES), st.integers(0, 10**6), st.integers(0, 60), st.sampled_from(sorted(POLICIES)))
def test_kernel_policy_is_the_reference_model(rules: Rules, seed: int, before: int, policy: str) -> None:
    """At a random position (mid-turn included), the kernel's rollout policy (each of them) makes the
    reference model's choice, on the true state and on a bot's own state (unknown cards as
    placeholders); then both play the whole game out move by move, the same moves, to the same winner."""
    game = random_position(rules, seed, before)
    if game.over:
        return
    view = game.view(game.to_move)
    sim, ref = _pair(game, game.to_move, policy)
    assert sim.choose() == ref.choose(ref.face[0] if ref.face else 0)
    assert to_action(ModelBot(policy=policy).choose_reveal(view)) == sim.choose()
    for _ in range(3000):
        if ref.winner is not None:
            break
        a = ref.choose(ref.face[0] if ref.face else 0)
        assert sim.choose() == a
        if a is None:
            break
        assert sim.apply(a) == ref.apply(a)
    assert (sim.winner, sim.turns) == (ref.winner, ref.turns)
    again, _ = _pair(game, game.to_move, policy)
    assert again.playout() == ref.winner


@SETTINGS
@given(st.sampled_from(TEAM_RULES), st.integers(0, 10**6), st.integers(0, 60), st.data())
def test_kernel_swap_and_give_are_the_reference(rules: Rules, seed: int, before: int, data: st.DataObject) -> None:
    """At a swap moment: the card the model gives is the reference's, for every seat; a swap sorts both
    hands like the engine and forgets what the table knew of them."""
    game = swap_position(rules, seed, before)
    seat = data.draw(st.sampled_from(range(rules.players)))
    sim, ref = _pair(game, seat)
    for s in range(rules.players):
        assert sim.give(s) == ref.give(s)
    a, b = data.draw(st.sampled_from(game.swap_moment()))
    if not (game.hands[a] and game.hands[b]):
        return
    ga, gb = data.draw(st.sampled_from(game.hands[a])), data.draw(st.sampled_from(game.hands[b]))
    sim.swap(a, b, ga, gb)
    ref.swap(a, b, ga, gb)
    game.swap(a, b, ga, gb)
    assert sim.hands == ref.hands == game.hands
    assert sim.known == ref.known
    assert not any(sim.known[a]) and not any(sim.known[b])


def test_deals_do_not_depend_on_the_batch() -> None:
    """Deal ``j`` of a seed is the same state whichever batch draws it; another seed draws other deals."""
    game = random_position(Rules(4), 3, 5)
    post = Posterior(game.view(game.to_move))
    one = [post.sim(7, j).key() for j in range(12)]
    assert [post.sim(7, j).key() for j in reversed(range(12))] == one[::-1]
    assert len(set(one)) > 6
    assert [post.sim(8, j).key() for j in range(12)] != one
    a = post.outcomes(7, range(0, 40))
    b = np.concatenate([post.outcomes(7, range(0, 13)), post.outcomes(7, range(13, 40))])
    assert (a == b).all()


def test_uniform_is_uniform() -> None:
    """The generator's floats over 20 bins, by a chi-square test; distinct seeds give distinct streams."""
    state = kernel.stream(kernel.seed64(12345), 0)
    xs = np.array([kernel.uniform(state) for _ in range(20000)])
    assert ((0 <= xs) & (xs < 1)).all()
    counts = np.bincount((xs * 20).astype(int), minlength=20)
    chi2 = float(((counts - 1000) ** 2 / 1000).sum())
    assert chi2 < 45.3  # 19 degrees of freedom, p = 0.0006
    firsts = {kernel.uniform(kernel.stream(kernel.seed64(s), j)) for s in range(-20, 20) for j in range(5)}
    assert len(firsts) == 200


def test_compiled_code_is_cached_across_processes() -> None:
    """A second process loads the kernel from the on-disk cache instead of compiling it again."""
    code = textwrap.dedent("""
        from trio_solver import Game, Rules
        from trio_solver.decide.evaluate import Posterior
        from trio_solver import kernel
        game = Game.deal(Rules(3), seed=1)
        Posterior(game.view(0)).outcomes(0, range(2))
        print(sum(kernel.run_outcomes.stats.cache_hits.values()), sum(kernel.run_outcomes.stats.cache_misses.values()))
    """)
    run = [sys.executable, "-c", code]
    subprocess.run(run, check=True, capture_output=True, text=True)  # fills the cache if it is empty
    hits, misses = map(int, subprocess.run(run, check=True, capture_output=True, text=True).stdout.split())
    assert (hits, misses) == (1, 0)


def test_every_compiled_function_lives_in_the_kernel() -> None:
    """numba's cache is kept per source file and is not renewed when a function it calls changes in another
    file: compiled code outside ``kernel.py`` that calls the kernel could run a stale copy of it (a stale
    workspace layout crashes). So no other module compiles anything."""
    import ast
    from pathlib import Path

    import trio_solver

    root = Path(trio_solver.__file__).parent
    for path in sorted(root.rglob("*.py")):
        if path.name == "kernel.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names = {d.id if isinstance(d, ast.Name) else getattr(d, "attr", "") for d in
                         (dec.func if isinstance(dec, ast.Call) else dec for dec in node.decorator_list)}
                assert not names & {"njit", "jit", "compiled", "inlined"}, (path.relative_to(root), node.name)


def test_the_first_compilation_is_announced_once() -> None:
    """:func:`kernel.first_compile_announced` calls its callback as the first function of the kernel starts to
    compile, once, only inside its block, and not for compiled code of other modules."""
    from numba import njit

    def fresh(module: str) -> object:
        def f(x: int) -> int:
            return x + 1
        f.__module__ = module
        return njit(f)  # no cache: every new dispatcher compiles on its first call

    calls: list[int] = []
    fresh(kernel.__name__)(1)  # type: ignore[operator]
    with kernel.first_compile_announced(lambda: calls.append(1)):
        fresh("elsewhere")(1)  # type: ignore[operator]
        assert calls == []
        fresh(kernel.__name__)(1)  # type: ignore[operator]
        assert calls == [1]
        fresh(kernel.__name__)(2)  # type: ignore[operator]
        kernel.popcount(5)  # compiled or loaded already: no event
    fresh(kernel.__name__)(1)  # type: ignore[operator]
    assert calls == [1]


def test_a_forked_worker_does_not_announce_the_compilation() -> None:
    """A process forked inside the block (a worker of ``simulate --workers``) inherits numba's listener
    but stays silent: only the process that opened the block announces, once."""
    from numba import njit

    def fresh() -> object:
        def f(x: int) -> int:
            return x + 1
        f.__module__ = kernel.__name__
        return njit(f)

    r, w = os.pipe()
    try:
        with kernel.first_compile_announced(lambda: os.write(w, b"x")):
            pid = os.fork()
            if pid == 0:  # the worker compiles first
                try:
                    fresh()(1)  # type: ignore[operator]
                finally:
                    os._exit(0)
            os.waitpid(pid, 0)
            fresh()(1)  # type: ignore[operator]
        os.close(w)
        w = -1
        with os.fdopen(r, "rb") as got:
            assert got.read() == b"x"
    finally:
        if w >= 0:
            os.close(w)
