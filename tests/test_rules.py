"""One test per rule of docs/RULES.md, the beginner mistakes and the worked example.

Positions are built with :meth:`Game.from_deal` (explicit hands and centre
slots), or, for positions a dealt game never reaches (a stuck turn), on a
:class:`Table` or a game whose state is edited directly.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trio_solver.game.state import Deal, Game
from trio_solver.errors import IllegalMoveError, NotationError, RecordError, RulesError
from trio_solver.game.record import Record
from trio_solver.game.reveal import Reveal
from trio_solver.game.rules import COPIES, DEAL_TABLE, SEVEN, VALUES, Mode, Rules, default_links
from trio_solver.game.events import Swap, Turn, TurnStatus
from trio_solver.game.table import Table

C, L, H = Reveal.centre, Reveal.lowest, Reveal.highest


# ---------------------------------------------------------------------------
# helpers


def build(
    players: int = 3,
    *,
    hands: Mapping[int, Sequence[int]] | None = None,
    centre: Mapping[int, int] | None = None,
    mode: str = "simple",
    teams: bool = False,
    first: int = 0,
    links: Any = None,
) -> Game:
    """A game whose given hands and centre slots are fixed; the other places are
    filled with the cards left, in ascending order."""
    rules = Rules(players, mode, teams=teams) if links is None else Rules(players, mode, teams=teams, links=links)
    hands = dict(hands or {})
    centre = dict(centre or {})
    deck = Counter({v: COPIES for v in VALUES})
    for cards in [*hands.values(), list(centre.values())]:
        deck.subtract(cards)
    assert all(c >= 0 for c in deck.values()), f"more than three copies in {deck}"
    rest = sorted(deck.elements())
    full_hands = []
    for s in range(players):
        if s in hands:
            assert len(hands[s]) == rules.hand_size
            full_hands.append(list(hands[s]))
        else:
            full_hands.append([rest.pop(0) for _ in range(rules.hand_size)])
    slots = []
    for i in range(rules.centre_size):
        slots.append(centre[i] if i in centre else rest.pop(0))
    assert not rest
    return Game.from_deal(rules, full_hands, slots, first)


def state(game: Game) -> tuple[Any, ...]:
    """Everything mutable in a game, copied, for before/after comparisons."""
    t = game.table
    return ([h[:] for h in game.hands], game.centre[:], t.snapshot(), t.events, t.last_trio)


def refused(game: Game, action: Callable[[], object], match: str | None = None) -> IllegalMoveError:
    """``action`` raises IllegalMoveError and the game is exactly as before."""
    before = state(game)
    with pytest.raises(IllegalMoveError, match=match) as info:
        action()
    assert state(game) == before
    assert "\n" not in str(info.value)
    return info.value


def play(game: Game, *reveals: Reveal) -> list[TurnStatus]:
    return [game.reveal(r).status for r in reveals]


def total_cards(game: Game) -> Counter[int]:
    counts = Counter(game.cards_in_play())
    for seat_trios in game.table.trios:
        for v in seat_trios:
            counts[v] += COPIES
    return counts


# ---------------------------------------------------------------------------
# Components, players, seats, deal


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_deal_table(players: int) -> None:
    hand, centre = {3: (9, 9), 4: (7, 8), 5: (6, 6), 6: (5, 6)}[players]
    rules = Rules(players)
    assert (rules.hand_size, rules.centre_size) == (hand, centre) == DEAL_TABLE[players]
    for seed in range(5):
        g = Game.deal(rules, seed=seed)
        assert [len(h) for h in g.hands] == [hand] * players
        assert len(g.centre) == centre
        assert all(h == sorted(h) for h in g.hands)
        assert Counter(g.cards_in_play()) == {v: 3 for v in range(1, 13)}
        assert 0 <= g.to_move < players


@pytest.mark.parametrize("players,hand", [(4, 9), (6, 6)])
def test_team_deal_has_no_centre(players: int, hand: int) -> None:
    rules = Rules(players, teams=True)
    assert (rules.hand_size, rules.centre_size) == (hand, 0)
    g = Game.deal(rules, seed=3)
    assert [len(h) for h in g.hands] == [hand] * players
    assert g.centre == []
    assert Counter(g.cards_in_play()) == {v: 3 for v in range(1, 13)}
    assert not any(r.is_centre for r in g.legal_reveals())
    refused(g, lambda: g.reveal(C(0)), "no centre")


def test_first_player_is_a_parameter_or_drawn_from_the_seed() -> None:
    rules = Rules(4)
    assert {Game.deal(rules, seed=s).to_move for s in range(40)} == {0, 1, 2, 3}
    assert Game.deal(rules, seed=5, first_player=2).to_move == 2
    g = Game.deal(rules, seed=5)
    assert Game.deal(rules, seed=5).dealt == g.dealt and Game.deal(rules, seed=5).to_move == g.to_move
    with pytest.raises(IllegalMoveError):
        Game.deal(rules, seed=5, first_player=4)


def test_play_goes_clockwise() -> None:
    g = build(4, hands={0: [1, 2, 3, 4, 5, 6, 7]}, first=2)
    seats = []
    for _ in range(6):
        seats.append(g.to_move)
        play(g, L(0), H(0))  # 1 then 7: a failure
    assert seats == [2, 3, 0, 1, 2, 3]
    assert [e.seat for e in g.events] == seats


def test_deal_refuses_wrong_card_counts() -> None:
    rules = Rules(3)
    good = Game.deal(rules, seed=0).dealt
    hands = [list(h) for h in good.hands]
    # one card written as another: both values named, the one over its count first
    low, high = hands[0][0], hands[0][-1]
    assert low != high
    with pytest.raises(IllegalMoveError) as e:
        Game.from_deal(rules, [[high] + hands[0][1:], hands[1], hands[2]], good.centre)
    assert str(e.value) == f"deal: 4 cards of value {high}, 2 cards of value {low}; the deck has 3 of each value"
    with pytest.raises(IllegalMoveError, match="seat 0 has 8 cards"):
        Game.from_deal(rules, [hands[0][1:], hands[1], hands[2]], list(good.centre) + [hands[0][0]])
    with pytest.raises(IllegalMoveError, match="3 hands for 4 players"):
        Game(Rules(4), good)
    with pytest.raises(IllegalMoveError, match="not a card value"):
        Game.from_deal(rules, [[13] + hands[0][1:], hands[1], hands[2]], good.centre)


def test_from_deal_sorts_the_hands() -> None:
    g = build(3, hands={1: [12, 1, 5, 3, 3, 9, 2, 8, 1]})
    assert g.hands[1] == [1, 1, 2, 3, 3, 5, 8, 9, 12]
    assert g.peek(L(1)) == 1 and g.peek(H(1)) == 12


def test_centre_slots_keep_their_identity() -> None:
    g = build(3, hands={0: [1, 1, 2, 2, 3, 3, 4, 4, 12]}, centre={0: 9, 3: 5, 8: 11})
    dealt = g.centre[:]
    assert g.reveal(C(3)).status is TurnStatus.ONGOING
    assert g.reveal(C(8)).status is TurnStatus.FAILURE  # 5 then 11
    assert g.centre == dealt  # each card went back face down to its own slot
    assert g.table.centre_up == (False,) * 9
    # the public log says which slot showed what, and the slot still holds it
    assert g.events[-1] == Turn(0, ((C(3), 5), (C(8), 11)))
    assert g.peek(C(3)) == 5 and g.peek(C(8)) == 11 and g.peek(C(0)) == 9
    # a slot face up in this turn cannot be revealed again in the same turn
    g.reveal(C(3))
    refused(g, lambda: g.reveal(C(3)), "already face up")


# ---------------------------------------------------------------------------
# A turn


def test_lowest_and_highest_of_any_seat_including_own() -> None:
    g = build(3, hands={0: [1, 2, 4, 5, 6, 8, 9, 10, 12], 1: [1, 3, 4, 5, 6, 8, 9, 10, 11],
                        2: [2, 3, 4, 5, 6, 7, 8, 9, 10]})
    assert g.to_move == 0
    legal = set(g.legal_reveals())
    for s in range(3):
        assert L(s) in legal and H(s) in legal
    assert {g.peek(L(s)) for s in range(3)} == {1, 2}
    assert g.peek(L(0)) == 1 and g.peek(H(0)) == 12  # own hand: both ends
    assert g.peek(L(2)) == 2 and g.peek(H(1)) == 11
    assert play(g, L(0), L(1)) == [TurnStatus.ONGOING, TurnStatus.ONGOING]  # 1, 1 from own and other hand
    assert [r.value for r in g.turn] == [1, 1]


def test_only_the_two_ends_of_a_hand_are_accessible() -> None:
    g = build(3, hands={0: [1, 2, 4, 5, 6, 8, 9, 10, 12]})
    hand_reveals = [r for r in g.legal_reveals() if not r.is_centre]
    assert sorted(map(str, hand_reveals)) == sorted(f"{k}{s}" for k in "lh" for s in range(3))
    # no request can show a middle card: the values reachable from seat 0 are its ends
    assert {g.peek(L(0)), g.peek(H(0))} == {1, 12}


def test_repeated_request_reveals_the_next_card() -> None:
    g = build(3, hands={1: [4, 4, 5, 6, 7, 8, 9, 11, 11]}, first=0)
    assert g.reveal(L(1)).status is TurnStatus.ONGOING
    assert g.peek(L(1)) == 4  # the next card is now the lowest still in hand
    assert g.reveal(L(1)).status is TurnStatus.ONGOING
    assert [r.value for r in g.turn] == [4, 4]
    assert g.table.position(L(1)) == 2
    assert g.peek(L(1)) == 5
    # the highest end is independent of the lowest
    assert g.peek(H(1)) == 11


def test_one_card_per_request_even_with_duplicates() -> None:
    g = build(3, hands={1: [3, 3, 3, 5, 6, 7, 8, 9, 10]}, first=0)
    assert g.reveal(L(1)).status is TurnStatus.ONGOING
    assert g.turn == [(L(1), 3)]  # one card, not the three 3s
    assert g.table.accessible(1) == 8
    assert g.hands[1] == [3, 3, 3, 5, 6, 7, 8, 9, 10]  # still the owner's until the turn ends
    assert g.reveal(L(1)).status is TurnStatus.ONGOING
    assert g.reveal(L(1)).status is TurnStatus.TRIO  # three requests for three cards
    assert g.hands[1] == [5, 6, 7, 8, 9, 10]
    assert g.table.trios[0] == (3,)


def test_every_card_of_a_hand_face_up_cannot_be_asked_again() -> None:
    # a constructed position: seat 1 holds only two cards
    full = build(3, hands={1: [6, 6, 1, 2, 3, 4, 5, 7, 8]}, first=0)
    g = Game.constructed(full.rules, [full.hands[0], [6, 6], full.hands[2]], full.centre, to_move=0)
    play(g, L(1), H(1))
    assert L(1) not in g.legal_reveals() and H(1) not in g.legal_reveals()
    refused(g, lambda: g.reveal(L(1)), "already face up")
    refused(g, lambda: g.reveal(H(1)), "already face up")


def test_empty_hand_cannot_be_asked_but_its_player_still_plays() -> None:
    # Picante so that three unlinked trios (1, 2, 3) do not end the game
    g = build(3, mode="picante", hands={2: [1, 1, 1, 2, 2, 2, 3, 3, 3]}, first=0)
    assert play(g, L(2), L(2), L(2))[-1] is TurnStatus.TRIO  # seat 0 takes the 1s
    assert play(g, H(2), H(2), H(2))[-1] is TurnStatus.TRIO  # seat 1 takes the 3s
    assert play(g, L(2), L(2), L(2))[-1] is TurnStatus.TRIO  # seat 2 takes its own 2s
    assert g.hands[2] == [] and g.table.sizes[2] == 0 and not g.over
    assert g.to_move == 0
    legal = g.legal_reveals()
    assert L(2) not in legal and H(2) not in legal
    refused(g, lambda: g.reveal(L(2)), "no card in hand")
    refused(g, lambda: g.reveal(H(2)), "no card in hand")
    # seats 0 and 1 fail, then seat 2 plays its turn with the centre and the other hands
    for seat in (0, 1):
        assert g.to_move == seat
        a, b = g.peek(L(0)), g.peek(H(0))
        assert a != b
        play(g, L(0), H(0))
    assert g.to_move == 2
    assert g.reveal(C(0)).status is TurnStatus.ONGOING
    assert g.table.turn[0].reveal == C(0)


def test_turn_fails_at_once_after_a_different_value() -> None:
    g = build(3, hands={0: [2, 3, 4, 5, 6, 8, 9, 10, 12], 1: [2, 3, 4, 5, 6, 8, 9, 10, 12]},
              centre={4: 2}, first=0)
    hands, centre = [h[:] for h in g.hands], g.centre[:]
    assert play(g, L(1), C(4)) == [TurnStatus.ONGOING, TurnStatus.ONGOING]  # 2, 2
    assert g.reveal(H(0)).status is TurnStatus.FAILURE  # 12
    # every card went back exactly where it came from
    assert g.hands == hands and g.centre == centre
    assert [g.table.used(s) for s in range(3)] == [(0, 0)] * 3
    assert g.table.sizes == (9, 9, 9) and g.table.trios == ((), (), ())
    assert g.peek(L(1)) == 2 and g.peek(C(4)) == 2 and g.peek(H(0)) == 12
    assert g.to_move == 1
    assert g.events == [Turn(0, ((L(1), 2), (C(4), 2), (H(0), 12)))]
    assert not g.events[0].took_trio  # type: ignore[union-attr]


def test_failure_after_two_cards_returns_them() -> None:
    g = build(3, hands={2: [1, 3, 4, 5, 6, 8, 9, 10, 11]}, first=0)
    before = ([h[:] for h in g.hands], g.centre[:])
    assert play(g, H(2), L(2)) == [TurnStatus.ONGOING, TurnStatus.FAILURE]
    assert ([h[:] for h in g.hands], g.centre[:]) == before
    assert g.hands[2] == sorted(g.hands[2])


def test_trio_from_centre_other_hand_and_own_hand() -> None:
    g = build(4, hands={0: [4, 5, 6, 8, 9, 10, 11], 1: [1, 2, 3, 5, 6, 8, 4]}, centre={5: 4}, first=0)
    assert g.hands[1] == [1, 2, 3, 4, 5, 6, 8]
    assert play(g, L(0), C(5)) == [TurnStatus.ONGOING, TurnStatus.ONGOING]
    refused(g, lambda: g.reveal(C(5)), "already face up")
    # seat 1's 4 sits in the middle of its hand: not reachable
    assert g.peek(L(1)) == 1 and g.peek(H(1)) == 8
    # with the third 4 at the top of seat 2's hand instead
    g3 = build(4, hands={0: [4, 5, 6, 8, 9, 10, 11], 2: [1, 1, 2, 2, 3, 3, 4]}, centre={5: 4}, first=0)
    assert play(g3, L(0), C(5), H(2)) == [TurnStatus.ONGOING] * 2 + [TurnStatus.TRIO]
    assert g3.hands[0] == [5, 6, 8, 9, 10, 11]  # lowest removed from own hand
    assert g3.hands[2] == [1, 1, 2, 2, 3, 3]  # highest removed from another hand
    assert g3.centre[5] is None and g3.table.centre_present[5] is False
    assert C(5) not in g3.legal_reveals()
    refused(g3, lambda: g3.reveal(C(5)), "empty")
    assert g3.table.trios == ((4,), (), (), ())
    assert [e.took_trio for e in g3.events] == [True]  # type: ignore[union-attr]
    assert g3.table.sizes == (6, 7, 6, 7)
    assert total_cards(g3) == {v: 3 for v in VALUES}


def test_trio_entirely_from_the_centre() -> None:
    g = build(3, centre={1: 9, 4: 9, 7: 9}, first=1)
    assert play(g, C(1), C(4), C(7))[-1] is TurnStatus.TRIO
    assert g.table.trios[1] == (9,)
    assert [i for i, v in enumerate(g.centre) if v is None] == [1, 4, 7]


def test_turn_passes_after_a_trio_no_extra_turn() -> None:
    g = build(3, hands={1: [2, 2, 2, 3, 3, 3, 4, 4, 4]}, first=1)
    assert play(g, L(1), L(1), L(1))[-1] is TurnStatus.TRIO
    assert g.to_move == 2
    assert g.turn == []
    # the next reveal is seat 2's turn, not a continuation of seat 1's
    g.reveal(L(1))
    assert g.table.to_move == 2
    assert g.view(None).events[-1].seat == 2  # type: ignore[union-attr]
    assert [e.seat for e in g.events] == [1]
    assert g.events[0].took_trio  # type: ignore[union-attr]
    assert not Turn(2, ((L(1), 2), (L(1), 2))).took_trio  # two equal cards: the turn goes on


def test_turn_passes_after_a_failure() -> None:
    g = build(5, hands={4: [1, 2, 3, 4, 5, 6]}, first=4)
    assert play(g, L(4), H(4)) == [TurnStatus.ONGOING, TurnStatus.FAILURE]
    assert g.to_move == 0  # clockwise wrap-around


def test_two_equal_values_force_a_third_reveal() -> None:
    g = build(3, hands={0: [5, 6, 7, 8, 9, 10, 11, 12, 12], 1: [5, 6, 7, 8, 9, 10, 11, 12, 1]}, first=0)
    assert play(g, H(0), H(1)) == [TurnStatus.ONGOING, TurnStatus.ONGOING]  # 12, 12
    # the turn is still seat 0's: there is no way to stop voluntarily
    assert g.to_move == 0 and len(g.turn) == 2 and g.events == []
    assert g.legal_reveals()


def test_stuck_turn_is_a_failure_on_a_table() -> None:
    t = Table.constructed(Rules(3), [0, 0, 0], [True, True] + [False] * 7)
    assert t.legal_reveals() == [C(0), C(1)]
    assert t.apply_reveal(C(0), 5) is TurnStatus.ONGOING
    assert t.apply_reveal(C(1), 5) is TurnStatus.STUCK
    assert t.to_move == 1 and t.turn == ()
    assert t.centre_present == (True, True) + (False,) * 7 and t.centre_up == (False,) * 9
    assert t.trios == ((), (), ())
    assert t.events == (Turn(0, ((C(0), 5), (C(1), 5))),)


def test_stuck_turn_in_the_engine_returns_the_cards() -> None:
    # positions a dealt game never reaches: only two centre cards and one hand card left in play
    rules = Rules(3)
    g = Game.constructed(rules, [[], [8], []], [8, 8] + [None] * 7, to_move=0)
    assert play(g, C(0), C(1), L(1)) == [TurnStatus.ONGOING, TurnStatus.ONGOING, TurnStatus.TRIO]
    for _ in range(3):
        g.undo()
    assert g.hands == [[], [8], []] and g.turn == []
    g = Game.constructed(rules, [[], [], []], [8, 8] + [None] * 7, to_move=0)
    assert play(g, C(0), C(1))[-1] is TurnStatus.STUCK
    assert g.centre[:2] == [8, 8] and g.to_move == 1
    # a single card left: stuck at the first reveal, no hang
    g = Game.constructed(rules, [[], [], []], [8] + [None] * 8, to_move=1)
    assert g.reveal(C(0)).status is TurnStatus.STUCK
    assert g.to_move == 2 and g.centre[0] == 8


def test_a_position_with_no_card_in_play_is_refused() -> None:
    """A position built with no card anywhere could never be played: no reveal is legal and no one can win."""
    with pytest.raises(IllegalMoveError, match="no card in play"):
        Table.constructed(Rules(3), [0, 0, 0], [False] * 9)
    with pytest.raises(IllegalMoveError, match="no card in play"):
        Game.constructed(Rules(4, teams=True), [[], [], [], []], [])
    assert Game.constructed(Rules(3), [[], [], []], [4] + [None] * 8).legal_reveals() == [C(0)]


# ---------------------------------------------------------------------------
# Winning


def test_trio_of_sevens_wins_at_once_even_as_first_trio() -> None:
    for mode in ("simple", "picante"):
        g = build(4, mode=mode, centre={0: 7, 3: 7, 6: 7}, first=2)
        assert play(g, C(0), C(3), C(6))[-1] is TurnStatus.TRIO
        assert g.over and g.winner == 2
        assert g.legal_reveals() == []
        refused(g, lambda g=g: g.reveal(C(1)), "game is over")


def test_holding_three_sevens_is_not_a_win() -> None:
    g = build(3, hands={0: [1, 7, 7, 7, 8, 9, 10, 11, 12]}, first=0)
    assert not g.over and g.winner is None
    assert g.peek(L(0)) == 1 and g.peek(H(0)) == 12  # the 7s are stuck in the middle
    play(g, L(0), H(0))
    assert not g.over and g.to_move == 1


def test_simple_needs_three_trios() -> None:
    rules = Rules(3, Mode.SIMPLE)
    assert not rules.is_win([1, 2])
    assert rules.is_win([1, 2, 3]) and rules.is_win([4, 10, 12])
    assert rules.is_win([7])
    g = build(3, hands={0: [1, 1, 1, 2, 2, 2, 3, 3, 3]}, first=0)
    for k, v in enumerate((1, 2, 3)):
        assert g.to_move == 0
        assert play(g, L(0), L(0), L(0))[-1] is TurnStatus.TRIO
        assert g.table.trios[0] == (1, 2, 3)[: k + 1]
        if v < 3:
            assert not g.over
            for _ in range(2):  # seats 1 and 2 fail
                play(g, L(1), H(1))
    assert g.over and g.winner == 0


def test_picante_default_links() -> None:
    rules = Rules(3, Mode.PICANTE)
    expected = {(1, 6), (1, 8), (2, 5), (2, 9), (3, 4), (3, 10), (4, 11), (5, 12)}
    assert rules.links == default_links() == expected
    for a, b in itertools.combinations(VALUES, 2):
        linked = (a, b) in expected
        assert rules.linked(a, b) is linked and rules.linked(b, a) is linked
        assert rules.is_win([a, b]) is (linked or SEVEN in (a, b))
    # three unlinked trios do not win in Picante
    assert not rules.is_win([1, 2, 3])
    assert rules.winning_values([2]) == {5, 9, 7}


@settings(max_examples=200)
@given(links=st.sets(st.tuples(st.sampled_from(VALUES), st.sampled_from(VALUES)).filter(lambda ab: ab[0] != ab[1]),
                     max_size=20),
       held=st.lists(st.sampled_from(VALUES), max_size=6))
def test_picante_goal_is_the_link_graph_s(links: set[tuple[int, int]], held: list[int]) -> None:
    """The goal's checks on the hot path of play agree with their definition on the links as a graph: a side
    wins with a 7 or two linked trios; one more trio wins when it is a 7 or linked to one held."""
    rules = Rules(3, Mode.PICANTE, links=sorted(links))
    graph = rules.link_graph
    wins = SEVEN in held or graph.subgraph(set(held)).number_of_edges() > 0
    assert rules.is_win(held) is wins
    assert rules.winning_values(held) == (
        {SEVEN} | {b for a in held for b in graph.neighbors(a)}) - set(held)
    assert rules.goal_distance(held) == (0 if wins else 1 if any(graph.degree(a) for a in held) else 2)
    for a, b in itertools.combinations(VALUES, 2):
        assert rules.linked(a, b) is graph.has_edge(a, b) is rules.linked(b, a)


def test_picante_win_in_the_engine() -> None:
    g = build(3, mode="picante", hands={1: [2, 2, 2, 3, 3, 3, 5, 5, 5]}, first=1)
    play(g, L(1), L(1), L(1))  # 2s
    assert not g.over
    play(g, L(0), H(0))
    play(g, L(0), H(0))
    play(g, L(1), L(1), L(1))  # 3s: not linked to 2
    assert not g.over
    play(g, L(0), H(0))
    play(g, L(0), H(0))
    play(g, L(1), L(1), L(1))  # 5s: 2-5 linked
    assert g.over and g.winner == 1 and g.table.trios[1] == (2, 3, 5)


def test_picante_custom_links() -> None:
    rules = Rules(3, "picante", links=[(1, 2), [11, 3]])
    assert rules.links == {(1, 2), (3, 11)}
    assert rules.is_win([1, 2]) and rules.is_win([11, 3])
    assert not rules.is_win([1, 6]) and not rules.is_win([2, 5])
    assert rules.is_win([7])
    g = build(3, mode="picante", links=[(1, 2)], hands={1: [1, 1, 1, 2, 2, 2, 3, 3, 3]}, first=1)
    play(g, L(1), L(1), L(1))
    play(g, L(0), H(0))
    play(g, L(0), H(0))
    play(g, H(1), H(1), H(1))  # 3: not linked to 1 in this printing
    assert not g.over
    play(g, L(0), H(0))
    play(g, L(0), H(0))
    play(g, L(1), L(1), L(1))  # 2: linked to 1
    assert g.winner == 1
    # the custom links go into records and come back
    rec = Record.loads(Record.from_game(g).dumps())
    assert rec.rules.links == {(1, 2)} and rec.winner == 1
    for bad in ([(1, 1)], [(0, 3)], [(1, 2, 3)], [("1", 2)], [(True, 2)]):
        with pytest.raises(RulesError):
            Rules(3, "picante", links=bad)


def test_seven_is_linked_to_nothing() -> None:
    rules = Rules(4, "picante")
    assert rules.link_graph.degree(SEVEN) == 0
    assert all(not rules.linked(SEVEN, v) for v in VALUES)
    assert rules.is_win([SEVEN])  # it wins alone
    assert SEVEN in rules.winning_values([])
    assert rules.winning_values([]) == {SEVEN}
    assert Rules(4, "simple").winning_values([1]) == {SEVEN}
    assert Rules(4, "simple").winning_values([1, 2]) == set(VALUES) - {1, 2}


# ---------------------------------------------------------------------------
# Team play


def test_teams_are_opposite_seats() -> None:
    r4 = Rules(4, teams=True)
    assert r4.teams_of_seats == ((0, 2), (1, 3))
    assert [r4.partner(s) for s in range(4)] == [2, 3, 0, 1]
    r6 = Rules(6, teams=True)
    assert r6.teams_of_seats == ((0, 3), (1, 4), (2, 5))
    assert [r6.partner(s) for s in range(6)] == [3, 4, 5, 0, 1, 2]
    assert [r6.team_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    assert Rules(4).partner(0) is None
    assert Rules(4).teams_of_seats == ((0,), (1,), (2,), (3,))


@pytest.mark.parametrize("players", [4, 6])
def test_every_team_may_swap_once_before_the_first_turn(players: int) -> None:
    g = Game.deal(Rules(players, teams=True), seed=11, first_player=0)
    teams = Rules(players, teams=True).teams_of_seats
    assert g.swap_moment() == list(teams)
    for a, b in teams:
        ha, hb = g.hands[a][:], g.hands[b][:]
        give, get = ha[len(ha) // 2], hb[0]  # any card, not only an end
        g.swap(a, b, give, get)
        assert g.hands[a] == sorted(ha[:len(ha) // 2] + ha[len(ha) // 2 + 1:] + [get])
        assert g.hands[b] == sorted(hb[1:] + [give])
        assert (a, b) not in g.swap_moment()
        assert g.events[-1] == Swap((a, b), (give, get))
        # at most once per team per moment
        refused(g, lambda a=a, b=b: g.swap(a, b, g.hands[a][0], g.hands[b][0]), "already swapped")
        refused(g, lambda a=a, b=b: g.swap(b, a, g.hands[b][0], g.hands[a][0]), "already swapped")
    assert g.swap_moment() == []
    assert Counter(g.cards_in_play()) == {v: 3 for v in VALUES}


def test_swapping_is_optional_and_closes_at_the_first_reveal() -> None:
    g = Game.deal(Rules(4, teams=True), seed=2, first_player=1)
    g.reveal(g.legal_reveals()[0])
    assert g.swap_moment() == []
    refused(g, lambda: g.swap(0, 2, g.hands[0][0], g.hands[2][0]))


def test_swap_refusals() -> None:
    g = Game.deal(Rules(4, teams=True), seed=4, first_player=0)
    refused(g, lambda: g.swap(0, 1, g.hands[0][0], g.hands[1][0]), "between two partners")
    refused(g, lambda: g.swap(0, 0, g.hands[0][0], g.hands[0][0]), "between two partners")
    refused(g, lambda: g.swap(0, 9, g.hands[0][0], 1), "between two partners")
    missing = next(v for v in VALUES if v not in g.hands[0])
    refused(g, lambda: g.swap(0, 2, missing, g.hands[2][0]), f"holds no {missing}")
    missing2 = next(v for v in VALUES if v not in g.hands[2])
    refused(g, lambda: g.swap(0, 2, g.hands[0][0], missing2), f"holds no {missing2}")
    g.hands[0][0] = 1  # even when the hand holds a 1, True is not a card
    refused(g, lambda: g.swap(0, 2, True, g.hands[2][0]), "holds no true")
    refused(g, lambda: g.swap(0, 2, g.hands[0][0], 2.0), "holds no 2.0")  # type: ignore[arg-type]
    plain = Game.deal(Rules(4), seed=4)
    refused(plain, lambda: plain.swap(0, 2, plain.hands[0][0], plain.hands[2][0]), "only in team play")


def _team4() -> Game:
    # seat 1 holds three trios; the other hands hold the rest in ascending order
    return build(4, teams=True, first=0, hands={1: [1, 1, 1, 2, 2, 2, 3, 3, 3],
                                                0: [4, 4, 4, 5, 5, 5, 6, 6, 8]})


def test_after_a_trio_only_the_other_teams_may_swap() -> None:
    g = _team4()
    assert play(g, L(1), L(1), L(1))[-1] is TurnStatus.TRIO  # seat 0 (team 0) takes 1s
    assert g.swap_moment() == [(1, 3)]
    refused(g, lambda: g.swap(0, 2, g.hands[0][0], g.hands[2][0]), "swaps are allowed only")
    g.swap(3, 1, g.hands[3][0], g.hands[1][-1])
    assert g.swap_moment() == []
    refused(g, lambda: g.swap(1, 3, g.hands[1][0], g.hands[3][0]), "already swapped")
    g.reveal(L(0))  # the next turn closes the moment
    assert g.swap_moment() == []


def test_six_player_moment_excludes_scorer_and_team_with_empty_partner() -> None:
    g = build(6, teams=True, first=0, hands={4: [1, 1, 1, 2, 2, 2], 0: [3, 4, 5, 6, 8, 9]})
    play(g, L(4), L(4), L(4))  # seat 0 (team 0) takes 1s
    assert g.swap_moment() == [(1, 4), (2, 5)]
    play(g, L(0), H(0))  # seat 1 fails
    assert g.swap_moment() == []
    play(g, H(4), H(4), H(4))  # seat 2 (team 2) takes the 2s: seat 4 is left empty
    assert g.hands[4] == [] and not g.over
    assert g.swap_moment() == [(0, 3)]  # team 1 cannot swap (partner 4 has no card), team 2 scored
    refused(g, lambda: g.swap(1, 4, g.hands[1][0], 1), "no card")
    g.swap(0, 3, g.hands[0][0], g.hands[3][0])
    # seat 4 still plays its turns
    play(g, L(0), H(0))  # seat 3 fails
    assert g.to_move == 4
    assert L(4) not in g.legal_reveals()
    assert g.reveal(L(0)).status is TurnStatus.ONGOING


def test_a_constructed_position_opens_no_swap_to_a_team_with_an_empty_hand() -> None:
    # before the first turn as after a trio: a team whose partner holds no card cannot swap
    g = Game.constructed(Rules(4, teams=True), [[1, 1, 1], [4, 4, 4], [2, 2, 2], []], [])
    assert g.swap_moment() == [(0, 2)]
    refused(g, lambda: g.swap(1, 3, 4, 5), "a partner has no card")
    g.swap(0, 2, 1, 2)
    assert g.swap_moment() == []


def test_team_trios_are_pooled() -> None:
    g = _team4()
    play(g, L(1), L(1), L(1))  # seat 0: 1s
    play(g, L(0), H(0))  # seat 1 fails (4, 8)
    play(g, L(1), L(1), L(1))  # seat 2 (partner): 2s
    assert not g.over
    assert g.table.team_trios(0) == [1, 2]
    play(g, L(0), H(0))  # seat 3 fails
    play(g, L(1), L(1), L(1))  # seat 0: 3s -> three trios for team 0
    assert g.over and g.winner == 0
    assert g.table.trios[0] == (1, 3) and g.table.trios[2] == (2,)
    v = g.view(2)
    assert v.team_trios(0) == v.team_trios(2) == (1, 2, 3)  # in the order taken


def test_team_picante_linked_trios_of_partners_win() -> None:
    g = build(4, mode="picante", teams=True, first=0, hands={1: [1, 1, 1, 2, 2, 2, 9, 9, 9],
                                                              0: [4, 4, 4, 5, 5, 5, 6, 6, 8]})
    play(g, L(1), L(1), L(1))  # seat 0: 1s
    play(g, L(0), H(0))  # seat 1 fails
    play(g, L(1), L(1), L(1))  # seat 2: 2s -- 1 and 2 are not linked
    assert not g.over
    play(g, L(0), H(0))  # seat 3 fails
    play(g, H(1), H(1), H(1))  # seat 0: 9s, linked to its partner's 2s
    assert g.winner == 0


def test_partners_may_ask_each_other() -> None:
    g = Game.deal(Rules(4, teams=True), seed=8, first_player=0)
    assert L(2) in g.legal_reveals() and H(2) in g.legal_reveals()
    assert g.reveal(L(2)).status is TurnStatus.ONGOING


# ---------------------------------------------------------------------------
# Impossible rules


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 5, "teams": True},
        {"players": 3, "teams": True},
        {"players": 2},
        {"players": 7},
        {"players": 0},
        {"players": "4"},
        {"players": True},
        {"players": 4.0},
        {"players": 4, "mode": "hard"},
        {"players": 4, "mode": None},
        {"players": 4, "teams": "yes"},
        {"players": 4, "teams": 1},
    ],
)
def test_impossible_rules_are_refused(kwargs: dict[str, Any]) -> None:
    with pytest.raises(RulesError) as info:
        Rules(**kwargs)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "rules,fragment",
    [
        ({"players": 5, "mode": "simple", "teams": True}, "team play needs 4 or 6"),
        ({"players": 2, "mode": "simple"}, "3 to 6"),
        ({"players": 4, "mode": "spicy!"}, "rules.mode"),
        ({"players": 4}, "rules.mode: missing"),
        ({"players": 4, "mode": "simple", "colour": 1}, "unknown key"),
        ({"players": 4, "mode": "simple", "links": 5}, "rules.links"),
    ],
)
def test_impossible_rules_in_a_record(rules: dict[str, Any], fragment: str) -> None:
    with pytest.raises(RecordError, match=fragment):
        Record.from_json({"format": "trio-record/1", "rules": rules, "events": []})


# ---------------------------------------------------------------------------
# Beginner mistakes


def test_mistake_middle_card_of_own_hand() -> None:
    # the active player knows 5 5 sit in the middle of its hand: not accessible
    g = build(6, hands={0: [2, 5, 5, 8, 11]}, centre={0: 5}, first=0)
    g.reveal(C(0))
    assert [g.peek(r) for r in (L(0), H(0))] == [2, 11]
    assert all(g.peek(r) != 5 for r in g.legal_reveals() if r.seat == 0)
    # an unknown kind of request is not a way round the rule
    with pytest.raises(NotationError, match="not a kind of reveal"):
        Reveal("middle", 0)  # type: ignore[arg-type]
    refused(g, lambda: g.reveal(("middle", 0)))  # type: ignore[arg-type]  # nor is a bare tuple
    assert g.hands[0] == [2, 5, 5, 8, 11]


def test_mistake_going_on_after_two_different_values() -> None:
    g = build(3, hands={0: [1, 2, 3, 4, 5, 6, 8, 9, 12]}, first=0)
    assert play(g, L(0), H(0)) == [TurnStatus.ONGOING, TurnStatus.FAILURE]
    # the engine ended the turn: the next reveal belongs to seat 1
    assert g.to_move == 1 and g.turn == []
    g.reveal(C(0))
    assert g.view(None).events[-1].seat == 1  # type: ignore[union-attr]
    # in a record, a third reveal after the mismatch is rejected
    doc = json_record(g, events=[{"turn": 0, "reveals": [{"lowest": 0}, {"highest": 0}, {"centre": 0}]}])
    with pytest.raises(RecordError) as info:
        Record.from_json(doc)
    assert str(info.value).startswith("event 0 (turn of seat 0), reveal 2: ")
    assert "already ended (failure)" in str(info.value)


def test_mistake_two_cards_in_one_request() -> None:
    g2 = build(3, hands={1: [6, 6, 9, 9, 10, 10, 11, 11, 12]}, first=0)
    assert g2.reveal(L(1)).status is TurnStatus.ONGOING
    assert len(g2.turn) == 1 and g2.table.used(1) == (1, 0)
    # a record cannot write two places, or two values, in one reveal
    for reveal in ({"lowest": 1, "highest": 1, "value": 6}, {"lowest": 1, "value": [6, 6]},
                   {"lowest": [1, 1], "value": 6}):
        doc = json_record(g2, events=[{"turn": 0, "reveals": [reveal]}])
        with pytest.raises(RecordError, match=r"^event 0 \(turn of seat 0\), reveal 0: "):
            Record.from_json(doc)


def test_mistake_another_turn_after_a_trio() -> None:
    g = build(3, hands={1: [2, 2, 2, 3, 3, 3, 4, 4, 4]}, first=0)
    play(g, L(1), L(1), L(1))
    assert g.to_move == 1
    trio = {"turn": 0, "reveals": [{"lowest": 1}, {"lowest": 1}, {"lowest": 1}]}
    again = {"turn": 0, "reveals": [{"lowest": 1}, {"lowest": 1}, {"lowest": 1}]}
    doc = json_record(g, events=[trio, again])
    with pytest.raises(RecordError) as info:
        Record.from_json(doc)
    assert str(info.value) == "event 1 (turn of seat 0): it is seat 1's turn, not seat 0's"
    # a fourth reveal inside the trio's turn is refused too
    doc = json_record(g, events=[{"turn": 0, "reveals": [{"lowest": 1}] * 3 + [{"lowest": 1}]}])
    with pytest.raises(RecordError, match="1 to 3 reveals"):
        Record.from_json(doc)


def test_mistake_declaring_a_win_with_unrevealed_sevens() -> None:
    g = build(3, hands={0: [1, 7, 7, 7, 8, 9, 10, 11, 12]}, first=0)
    assert not g.over
    # the record of a full deal cannot claim the three 7s from the middle of the hand
    doc = json_record(g, events=[{"turn": 0, "reveals": [{"lowest": 0, "value": 7}, {"lowest": 0, "value": 7},
                                                          {"lowest": 0, "value": 7}]}])
    with pytest.raises(RecordError, match=r"^event 0 \(turn of seat 0\), reveal 0: l0=7, but the deal puts a 1"):
        Record.from_json(doc)
    # nor can the record kept by that player
    doc = {"format": "trio-record/1", "rules": {"players": 3, "mode": "simple"},
           "viewer": {"seat": 0, "hand": [1, 7, 7, 7, 8, 9, 10, 11, 12]},
           "events": [{"turn": 0, "reveals": [{"lowest": 0, "value": 7}] * 3}]}
    with pytest.raises(RecordError, match=r"^event 0 \(turn of seat 0\), reveal 0: .*contradicts the viewer's hand"):
        Record.from_json(doc)


def json_record(game: Game, events: list[dict[str, Any]]) -> dict[str, Any]:
    d = game.dealt
    return {"format": "trio-record/1", "rules": game.rules.to_json(), "first_player": game.table.first_player,
            "deal": {"hands": [list(h) for h in d.hands], "centre": list(d.centre)}, "events": events}


# ---------------------------------------------------------------------------
# The worked example of the French rules sheet (docs/RULES.md, "Decisions")


def test_worked_example_as_printed_is_not_a_possible_deal() -> None:
    # The sheet's hand holds two 5s while the centre and Alice show three more:
    # five 5s. The engine refuses such a deal instead of playing it.
    with pytest.raises(IllegalMoveError) as e:
        Game(Rules(6), Deal(((2, 5, 5, 8, 11), (5, 5, 9, 10, 12), (1, 1, 1, 2, 2), (3, 3, 3, 4, 4),
                             (4, 6, 6, 6, 7), (7, 7, 8, 8, 9)), (5, 9, 10, 10, 11, 11)))
    # the message docs/RULES.md quotes (one card: no plural)
    assert str(e.value) == "deal: 5 cards of value 5, 1 card of value 12; the deck has 3 of each value"


def test_worked_example_question_1_middle_five_not_accessible() -> None:
    g = build(6, hands={0: [2, 5, 5, 8, 11]}, centre={2: 5}, first=0)
    assert g.reveal(C(2)).status is TurnStatus.ONGOING
    assert C(2) not in g.legal_reveals()
    own = [r for r in g.legal_reveals() if r.seat == 0]
    assert sorted(map(str, own)) == ["h0", "l0"]
    assert sorted(g.peek(r) for r in own) == [2, 11]
    # revealing an end of the own hand shows 2 (or 11): a failure, the 5s stay
    assert g.reveal(L(0)).status is TurnStatus.FAILURE
    assert g.hands[0] == [2, 5, 5, 8, 11] and g.centre[2] == 5


def test_worked_example_questions_2_and_3() -> None:
    # Same turn with Alice (seat 1) holding the two other 5s at her lowest end
    # (the own hand is 2 6 6 8 11 so that the deck has exactly three 5s).
    alice = [5, 5, 9, 10, 12]
    g = build(6, hands={0: [2, 6, 6, 8, 11], 1: alice}, centre={2: 5}, first=0)
    assert g.reveal(C(2)).status is TurnStatus.ONGOING
    # Q2: Alice's lowest is a 5; the same request may be repeated
    assert g.reveal(L(1)).status is TurnStatus.ONGOING
    assert L(1) in g.legal_reveals() and g.peek(L(1)) == 5
    # Q3: the second 5 completes the trio and the turn passes
    assert g.reveal(L(1)).status is TurnStatus.TRIO
    assert g.table.trios[0] == (5,) and g.to_move == 1
    assert g.hands[1] == [9, 10, 12]
    # "Had Alice shown a 6, the turn would also have ended, the three cards back in place"
    g6 = build(6, hands={0: [2, 5, 8, 11, 12], 1: [5, 6, 9, 10, 12]}, centre={2: 5}, first=0)
    hands, centre = [h[:] for h in g6.hands], g6.centre[:]
    assert play(g6, C(2), L(1), L(1)) == [TurnStatus.ONGOING, TurnStatus.ONGOING, TurnStatus.FAILURE]
    assert g6.hands == hands and g6.centre == centre and g6.to_move == 1
    assert g6.table.trios == ((),) * 6


# ---------------------------------------------------------------------------
# Every illegal action leaves the state unchanged


def test_illegal_actions_leave_the_state_unchanged() -> None:
    g = build(3, hands={0: [1, 1, 1, 2, 3, 4, 5, 6, 12]}, centre={0: 9}, first=0)
    refused(g, lambda: g.reveal(C(9)), "no centre slot 9")
    refused(g, lambda: g.reveal(("centre", -1)), "no centre slot")  # type: ignore[arg-type]
    refused(g, lambda: g.reveal(L(3)), "no seat 3")
    refused(g, lambda: g.reveal(("highest", -1)), "no seat")  # type: ignore[arg-type]
    for kind in ("centre", "lowest", "highest"):
        with pytest.raises(NotationError, match="number 0 to 99"):
            Reveal(kind, -1)  # type: ignore[arg-type]  # a Reveal is valid by construction
    refused(g, lambda: g.peek(C(40)))
    refused(g, lambda: g.undo(), "nothing to take back")
    refused(g, lambda: g.view(3))
    refused(g, lambda: g.swap(0, 1, 1, 1), "only in team play")
    play(g, C(0))
    refused(g, lambda: g.reveal(C(0)), "already face up")
    play(g, H(0), L(0), L(0), L(0))  # 9 12: failure; seat 1 takes 1 1 1 from seat 0
    assert g.table.trios[1] == (1,)
    refused(g, lambda: g.reveal(Reveal("lowest", 99)))
    with pytest.raises(IllegalMoveError):
        Table(Rules(3), first_player=3)
    with pytest.raises(IllegalMoveError):
        Game.deal(Rules(3), seed=0, first_player=-1)


def test_undo_walks_back_to_the_deal() -> None:
    g = Game.deal(Rules(4), seed=21)
    start = state(g)
    states = [start]
    for r in ("c0", "c1", "c2", "l0", "h3", "c5"):
        g.play(r)
        states.append(state(g))
    for s in reversed(states[:-1]):
        g.undo()
        assert state(g) == s
    assert state(g) == start


def test_a_table_snapshot_can_be_restored_twice() -> None:
    t = Table(Rules(3))
    snap = t.snapshot()
    for _ in range(2):
        for _ in range(3):
            t.apply_reveal(L(1), 4)
        assert t.sizes == (9, 6, 9) and t.trios == ((4,), (), ())
        t.restore(snap)
        assert t.sizes == (9, 9, 9) and t.trios == ((), (), ()) and t.events == () and t.to_move == 0
