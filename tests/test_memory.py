"""Perfect memory (:mod:`trio_solver.decide.memory`): the kernel's positional memory equals a plain
replay of the public history that follows each card by its position."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers_positions import ALL_RULES, random_position
from trio_solver.decide.memory import public_memory
from trio_solver.game.rules import Rules
from trio_solver.game.table import steps
from trio_solver.game.view import PlayerView


def _replayed(view: PlayerView) -> tuple[list[list[int | None]], list[int | None]]:
    """Each card shown, followed by its sorted position: a swap forgets both hands, a trio takes its
    cards off the ends (and its centre cards out)."""
    rules = view.rules
    hands: list[list[int | None]] = [[None] * rules.hand_size for _ in range(rules.players)]
    slots: list[int | None] = [None] * rules.centre_size
    for step in steps(rules, view.first_player, view.events):
        if step.swap is not None:
            for s in step.swap.seats:
                hands[s] = [None] * len(hands[s])
            continue
        assert step.reveal is not None
        if step.position is None:
            slots[step.reveal.index] = step.value
        else:
            hands[step.reveal.index][step.position] = step.value
        if step.trio is not None:
            for s, lo, hi in step.trio.hands:
                hands[s] = hands[s][lo:len(hands[s]) - hi]
            for i in step.trio.slots:
                slots[i] = None
    return hands, [v if here else None for v, here in zip(slots, view.centre_present)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ALL_RULES), st.integers(0, 10**6), st.integers(0, 90), st.booleans())
def test_public_memory_is_the_positional_replay(rules: Rules, seed: int, before: int, spectator: bool) -> None:
    game = random_position(rules, seed, before)
    view = game.view(None if spectator else game.to_move)
    memory = public_memory(view)
    hands, slots = _replayed(view)
    assert [list(h) for h in memory.hands] == hands and list(memory.slots) == slots
    assert [len(h) for h in memory.hands] == list(view.sizes)
    assert memory.turn == tuple((r.reveal, r.value) for r in view.turn)
    for s, h in enumerate(memory.hands):  # what is remembered is true
        assert all(v is None or v == game.hands[s][p] for p, v in enumerate(h))
