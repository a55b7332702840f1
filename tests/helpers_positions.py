"""Shared helpers that generate game positions for the tests of the belief model.

Everything here is deterministic given a :class:`random.Random` (or a seed), so
tests built on it are reproducible. Other test modules may import it
(``from helpers_positions import ...``; pytest puts ``tests/`` on the path).

* :func:`random_rules`, :func:`random_game`: a dealt game driven by random legal
  reveals (and, in team play, random swaps), optionally taking trios on purpose
  so that positions deep into a game appear;
* :func:`trio_line`, :func:`small_position`: an omniscient driver that takes
  non-winning trios so that few cards stay hidden from a chosen viewer, for the
  exact comparisons with the CSP and with brute force;
* :func:`viewer_record_json`: the record a person at the table would have kept
  (no deal; other teams' swap cards hidden);
* :func:`brute_force`: every placement of the cards hidden from a view, each
  weighted by its number of physical shuffles, checked by replaying the public
  history through the engine — an oracle independent of ``facts.py`` and the
  lattice.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from trio_solver.infer.beliefs import Placement
from trio_solver.game.state import Game
from trio_solver.infer.facts import extract
from trio_solver.game.record import Record
from trio_solver.game.reveal import Reveal
from trio_solver.game.rules import COPIES, VALUES, Mode, Rules
from trio_solver.game.events import Swap, Turn
from trio_solver.game.view import PlayerView

__all__ = [
    "ALL_RULES",
    "NO_TEAM_RULES",
    "random_rules",
    "viewers",
    "random_swaps",
    "random_game",
    "trio_line",
    "take_trio",
    "small_position",
    "hidden_count",
    "viewer_record_json",
    "BruteForce",
    "brute_force",
    "view_cards_in_play",
    "quick_hidden_count",
    "play_failed_turn",
    "own_top_shown",
    "end_value",
    "collect_small_positions",
    "request_sequences",
    "sequence_values",
    "all_show",
    "chi2_sf",
    "z_score",
]

#: Every setting of the game: 3-6 players, both modes, team play at 4 and 6.
ALL_RULES: tuple[Rules, ...] = tuple(
    Rules(n, mode, teams)
    for n in (3, 4, 5, 6)
    for mode in (Mode.SIMPLE, Mode.PICANTE)
    for teams in ((False, True) if n in (4, 6) else (False,))
)
#: The settings without team play (exact beliefs, no secret swaps).
NO_TEAM_RULES: tuple[Rules, ...] = tuple(r for r in ALL_RULES if not r.teams)


def random_rules(rng: random.Random, *, teams: bool | None = False) -> Rules:
    """A random setting; ``teams=None`` allows team play, ``True`` forces it."""
    pool = [r for r in ALL_RULES if teams is None or r.teams == teams]
    return rng.choice(pool)


def viewers(rules: Rules) -> list[int | None]:
    """Every seat, and the spectator (``None``)."""
    return [*range(rules.players), None]


def random_swaps(game: Game, rng: random.Random, prob: float = 0.5, only: int | None = None,
                 on_swap: Callable[[int, int, int, int], None] | None = None) -> None:
    """At a swap moment, let each team that may swap do so with probability ``prob`` (random cards);
    ``only``: just the team of this seat; ``on_swap(a, b, card_a, card_b)`` after each swap."""
    if game.turn or game.over:
        return
    for a, b in game.swap_moment():
        if only is not None and game.rules.team_of(a) != game.rules.team_of(only):
            continue
        if game.hands[a] and game.hands[b] and rng.random() < prob:
            ga, gb = rng.choice(game.hands[a]), rng.choice(game.hands[b])
            game.swap(a, b, ga, gb)
            if on_swap is not None:
                on_swap(a, b, ga, gb)


def trio_line(game: Game, rng: random.Random | None = None) -> list[Reveal] | None:
    """Three legal reveals that take a trio without winning, from the start of a turn; ``None`` if none.

    Looks at the true cards (an omniscient driver); leaves ``game`` as it found it.
    """
    if game.turn or game.over:
        return None
    firsts = game.legal_reveals()
    if rng is not None:
        rng.shuffle(firsts)
    team = game.rules.team_of(game.to_move)
    held = list(game.table.team_trios(team))
    for a in firsts:
        va = game.peek(a)
        if game.rules.is_win(held + [va]):
            continue
        game.reveal(a)
        try:
            seconds = game.legal_reveals()
            if rng is not None:
                rng.shuffle(seconds)
            for b in seconds:
                if game.peek(b) != va:
                    continue
                game.reveal(b)
                try:
                    for c in game.legal_reveals():
                        if game.peek(c) == va:
                            return [a, b, c]
                finally:
                    game.undo()
        finally:
            game.undo()
    return None


def take_trio(game: Game, rng: random.Random | None = None) -> bool:
    """Play a non-winning trio now if one can be taken (see :func:`trio_line`)."""
    line = trio_line(game, rng)
    if line is None:
        return False
    for r in line:
        game.reveal(r)
    return True


def play_failed_turn(game: Game, rng: random.Random) -> None:
    """Random reveals until the turn ends, avoiding a winning trio when possible."""
    while True:
        legal = game.legal_reveals()
        if not legal:
            return
        rng.shuffle(legal)
        team = game.rules.team_of(game.to_move)
        chosen = legal[0]
        if len(game.turn) == 2:
            held = list(game.table.team_trios(team))
            v = game.turn[0].value
            if game.rules.is_win(held + [v]):
                for r in legal:
                    if game.peek(r) != v:
                        chosen = r
                        break
        game.reveal(chosen)
        if not game.turn:
            return


def random_game(
    rules: Rules,
    rng: random.Random,
    reveals: int,
    *,
    trio_rate: float = 0.0,
    swap_prob: float = 0.5,
    avoid_win: bool = True,
    first_player: int | None = None,
) -> Game:
    """Deal from ``rng`` and make ``reveals`` random legal reveals (fewer if the game ends).

    At the start of each turn, with probability ``trio_rate``, an omniscient
    non-winning trio is taken (3 reveals) instead. With ``avoid_win`` a reveal
    that would win is replaced by another when possible, so positions stay in
    play. In team play, teams swap random cards at each swap moment with
    probability ``swap_prob``. The last turn may be left in progress.
    """
    game = Game.deal(rules, rng=rng, first_player=first_player)
    done = 0
    while done < reveals and not game.over:
        random_swaps(game, rng, swap_prob)
        if not game.turn and trio_rate and rng.random() < trio_rate and reveals - done >= 3:
            if take_trio(game, rng):
                done += 3
                continue
        legal = game.legal_reveals()
        r = rng.choice(legal)
        if avoid_win and len(game.turn) == 2:
            v = game.turn[0].value
            team = rules.team_of(game.to_move)
            if rules.is_win(list(game.table.team_trios(team)) + [v]) and game.peek(r) == v:
                others = [x for x in legal if game.peek(x) != v]
                if others:
                    r = rng.choice(others)
        game.reveal(r)
        done += 1
    return game


def hidden_count(view: PlayerView) -> int:
    """Cards hidden from ``view``: the sizes of the hidden rows of the facts (hands and unseen slots)."""
    return sum(r.size for r in extract(view).rows)


def quick_hidden_count(game: Game, seat: int | None, shown: set[int] | None = None) -> int:
    """Same as :func:`hidden_count` for a true game, from public counts (no fact extraction).

    ``shown``: the centre slots shown in finished turns, if the caller keeps track of them.
    """
    cards = sum(len(h) for h in game.hands) + sum(c is not None for c in game.centre)
    if seat is not None:
        cards -= len(game.hands[seat])
    if shown is None:
        shown = set()
        for e in game.table.events:
            if isinstance(e, Turn):
                for r, _ in e.reveals:
                    if r.is_centre:
                        shown.add(r.index)
    shown = set(shown)
    for r, _ in game.table.turn:
        if r.is_centre:
            shown.add(r.index)
    cards -= sum(1 for c in shown if game.centre[c] is not None)
    return cards


def view_cards_in_play(view: PlayerView) -> Counter[int]:
    """Cards still in play (hands and centre), computed from public trios only."""
    c: Counter[int] = Counter({v: COPIES for v in VALUES})
    for trios in view.trios:
        for v in trios:
            c[v] -= COPIES
    return +c


def small_position(
    rules: Rules,
    rng: random.Random,
    max_hidden: int,
    viewer: int | None | str = "random",
    *,
    trio_rate: float = 0.7,
    swap_prob: float = 0.5,
    own_swaps_only: bool = False,
    min_hidden: int = 1,
    max_turns: int = 400,
    mid_turn: bool = False,
) -> tuple[Game, int | None] | None:
    """Drive a dealt game with an omniscient player that often takes non-winning trios, until at most
    ``max_hidden`` cards are hidden from the viewer (a seat, ``None`` or ``"random"``: chosen now).

    Turns that take no trio are random failed turns, so that hand ends get shown.
    Returns ``(game, viewer)`` or ``None`` when the game got stuck (no non-winning
    trio left before enough cards left play). With ``mid_turn``, one extra
    reveal of a new turn is made at the end (a turn in progress).
    """
    game = Game.deal(rules, rng=rng)
    seat: int | None
    seat = rng.choice(viewers(rules)) if viewer == "random" else viewer  # type: ignore[assignment]
    shown: set[int] = set()
    seen_events = 0
    for _ in range(max_turns):
        if game.over:
            return None
        events = game.table.events
        for e in events[seen_events:]:
            if isinstance(e, Turn):
                shown.update(r.index for r, _ in e.reveals if r.is_centre)
        seen_events = len(events)
        h = quick_hidden_count(game, seat, shown)
        if min_hidden <= h <= max_hidden and rng.random() < 0.6:
            break
        if h < min_hidden:
            return None
        random_swaps(game, rng, swap_prob, only=seat if own_swaps_only and seat is not None else None)
        if rng.random() < trio_rate and take_trio(game, rng):
            continue
        play_failed_turn(game, rng)
    else:
        return None
    h = hidden_count(game.view(seat))
    if not min_hidden <= h <= max_hidden or game.over:
        return None
    if mid_turn:
        legal = game.legal_reveals()
        game.reveal(rng.choice(legal))
        if not game.turn:  # cannot happen in a dealt game (a first reveal never ends a turn)
            return None
    return game, seat


def viewer_record_json(game: Game, seat: int | None) -> dict[str, Any]:
    """The JSON a person at ``seat`` would have kept: no deal, values shown, other teams' swaps secret."""
    rec = Record.from_game(game, viewer=seat)
    data = rec.to_json()
    data.pop("deal", None)
    if seat is None:
        data.pop("viewer", None)
    rules = game.rules
    for ev in data["events"]:
        if "swap" in ev:
            a = ev["swap"][0]
            if seat is None or rules.team_of(a) != rules.team_of(seat):
                ev["cards"] = None
    return data


# ---------------------------------------------------------------------------
# Brute force over physical shuffles


@dataclass
class BruteForce:
    """Every placement of the hidden cards that replays the public history, with its weight.

    ``weight`` is proportional to the probability of the placement under a
    uniformly shuffled deck (the number of labelled-copy deals behind it: hands
    unordered, centre slots distinct places) and uniformly chosen swap cards
    (each swap weighs the number of cards of its value in the hand it was chosen
    from), summed over the cards of the secret swaps. ``placements`` has one entry
    per distinct placement of the cards now in play.
    """

    view: PlayerView
    placements: list[tuple[Placement, int]]
    tried: int

    @property
    def total(self) -> int:
        return sum(w for _, w in self.placements)

    def prob(self, pred: Callable[[Placement], bool]) -> Fraction:
        t = self.total
        return Fraction(sum(w for p, w in self.placements if pred(p)), t)

    def distribution(self, fn: Callable[[Placement], Any]) -> dict[Any, Fraction]:
        """The exact distribution of ``fn(placement)``."""
        acc: dict[Any, int] = {}
        for p, w in self.placements:
            k = fn(p)
            acc[k] = acc.get(k, 0) + w
        t = self.total
        return {k: Fraction(w, t) for k, w in acc.items()}


def sub_multisets(counts: dict[int, int], size: int) -> Iterator[dict[int, int]]:
    """Every sub-multiset of ``counts`` with ``size`` cards."""
    vals = sorted(v for v, c in counts.items() if c > 0)

    def rec(i: int, left: int) -> Iterator[dict[int, int]]:
        if left == 0:
            yield {}
            return
        if i == len(vals):
            return
        v = vals[i]
        rest_cap = sum(counts[u] for u in vals[i + 1 :])
        for k in range(min(counts[v], left), -1, -1):
            if left - k > rest_cap:
                break
            for tail in rec(i + 1, left - k):
                out = dict(tail)
                if k:
                    out[v] = k
                yield out

    yield from rec(0, size)


def _multiset_permutations(counts: dict[int, int]) -> Iterator[tuple[int, ...]]:
    """Every distinct ordering of a multiset of values."""
    total = sum(counts.values())
    if total == 0:
        yield ()
        return
    for v in sorted(counts):
        if counts[v] > 0:
            counts[v] -= 1
            for tail in _multiset_permutations(counts):
                yield (v, *tail)
            counts[v] += 1


def _public_changes(view: PlayerView) -> list[tuple[Any, ...]]:
    """The hand changes of the history from the public table alone, in order:
    ``("trio", value, {seat: cards}, slots)`` and ``("swap", event index, (a, b), cards or None)``."""
    from trio_solver.game.table import Table

    table = Table(view.rules, view.first_player)
    out: list[tuple[Any, ...]] = []
    for i, e in enumerate(view.events):
        if isinstance(e, Swap):
            table.apply_swap(e.seats, e.cards)
            out.append(("swap", i, e.seats, e.cards))
            continue
        for r, v in e.reveals:
            status = table.apply_reveal(r, v)
            trio = table.last_trio
            if status.value == "trio":
                assert trio is not None
                taken = {s: lo + hi for s, lo, hi in trio.hands}
                out.append(("trio", v, taken, trio.slots))
    return out


def _undo_history(
    changes: list[tuple[Any, ...]], hands: list[list[int]], centre: list[int | None]
) -> Iterator[tuple[list[list[int]], list[int | None], dict[int, tuple[int, int]]]]:
    """Every (dealt hands, dealt centre, swap cards) that leads to ``hands``/``centre`` through ``changes``.

    Secret swaps are undone in every possible way (which value each partner received)."""

    def rec(k: int, hs: list[list[int]], cs: list[int | None], cards: dict[int, tuple[int, int]]) -> Iterator[
            tuple[list[list[int]], list[int | None], dict[int, tuple[int, int]]]]:
        if k < 0:
            yield hs, cs, cards
            return
        ch = changes[k]
        if ch[0] == "trio":
            _, value, taken, slots = ch
            hs2 = [h[:] for h in hs]
            cs2 = cs[:]
            for s, c in taken.items():
                hs2[s].extend([value] * c)
            for c in slots:
                cs2[c] = value
            yield from rec(k - 1, hs2, cs2, cards)
            return
        _, i, (a, b), known = ch
        options = [known] if known is not None else [
            (ga, gb) for ga in sorted(set(hs[b])) for gb in sorted(set(hs[a]))]
        for ga, gb in options:  # a gave ga (now in b's hand) and received gb (now in a's hand)
            if gb not in hs[a] or ga not in hs[b]:
                continue
            hs2 = [h[:] for h in hs]
            hs2[a].remove(gb)
            hs2[a].append(ga)
            hs2[b].remove(ga)
            hs2[b].append(gb)
            yield from rec(k - 1, hs2, cs, {**cards, i: (ga, gb)})

    yield from rec(len(changes) - 1, [h[:] for h in hands], centre[:], {})


def _replay_weight(view: PlayerView, hands: list[list[int]], centre: list[int | None],
                   cards: dict[int, tuple[int, int]], read: Fraction | None = None) -> Any:
    """Replay the view's history from a deal with the engine; 0 if it does not reproduce what was shown,
    else the deal's weight (labelled shuffles) times the likelihood of the swap choices; with ``read``,
    times ``read`` for every card of the turn's value a player other than the viewer passed over in
    the middle of its turn (its own accessible lowest or highest card, asking for another card)."""
    from trio_solver.errors import IllegalMoveError

    if any(c is None for c in centre):
        return 0
    rules = view.rules
    if view.initial_hand is not None and sorted(hands[view.seat]) != sorted(view.initial_hand):
        return 0
    try:
        game = Game.from_deal(rules, hands, [c for c in centre if c is not None], view.first_player)
    except IllegalMoveError:
        return 0
    w = 1
    for s, hand in enumerate(game.dealt.hands):
        if s != view.seat:
            for v in VALUES:
                w *= 6 // math.factorial(hand.count(v))
    for i, e in enumerate(view.events):
        if isinstance(e, Swap):
            a, b = e.seats
            ga, gb = cards[i]
            w *= game.hands[a].count(ga) * game.hands[b].count(gb)
            if not w:
                return 0
            game.swap(a, b, ga, gb)
            continue
        for j, (r, v) in enumerate(e.reveals):
            if read is not None and j and e.seat != view.seat and (r.is_centre or r.index != e.seat):
                w *= read ** _passed_over(game, e.seat, e.reveals[0][1])
            if not game.is_legal(r) or game.peek(r) != v:
                return 0
            game.reveal(r)
    return w


def _passed_over(game: Game, seat: int, value: int) -> int:
    """How many of ``seat``'s accessible end cards (one when its lowest is its highest) show ``value``."""
    ends = [Reveal(kind, seat) for kind in ("lowest", "highest")]  # type: ignore[arg-type]
    hits = [r for r in ends if game.is_legal(r) and game.peek(r) == value]
    return min(len(hits), game.view(None).accessible(seat))


def brute_force(view: PlayerView, limit: int = 200_000, read: Fraction | None = None) -> BruteForce | None:
    """Enumerate every assignment of the cards the viewer cannot see, check each by replaying the history.

    Independent of ``facts.py`` and ``beliefs.py``: the cards in play are computed
    from public trios only (3 copies of every value not taken) minus the viewer's
    hand; they are spread over the other non-empty hands and over *every* centre
    slot still holding a card (shown or not); the history is undone (trios, and
    secret swaps in every possible way) to a deal, which the engine replays: that
    is what pins down what was shown. Returns ``None`` when more than ``limit``
    assignments would have to be tried.
    """
    rules = view.rules
    n = rules.players
    cards = view_cards_in_play(view)
    if view.hand is not None:
        cards.subtract(Counter(view.hand))
    assert all(c >= 0 for c in cards.values()), "the view shows more copies than exist"
    counts = {v: c for v, c in cards.items() if c > 0}
    seats = [s for s in range(n) if s != view.seat and view.sizes[s] > 0]
    slots = [i for i, here in enumerate(view.centre_present) if here]
    sizes = [view.sizes[s] for s in seats]
    assert sum(counts.values()) == sum(sizes) + len(slots), "card count mismatch"
    changes = _public_changes(view)

    def assign(i: int, left: dict[int, int], hands: dict[int, tuple[int, ...]]) -> Iterator[
            tuple[dict[int, tuple[int, ...]], dict[int, int]]]:
        if i == len(seats):
            yield hands, left
            return
        s = seats[i]
        for ms in sub_multisets(left, view.sizes[s]):
            rest = dict(left)
            for v, k in ms.items():
                rest[v] -= k
            hand = tuple(v for v in sorted(ms) for _ in range(ms[v]))
            yield from assign(i + 1, rest, {**hands, s: hand})

    # count first (cheap), so that a position too big for the oracle costs no replay
    planned = 0
    for _, left in assign(0, counts, {}):
        rest = {v: c for v, c in left.items() if c > 0}
        planned += math.factorial(sum(rest.values())) // math.prod(math.factorial(c) for c in rest.values())
        if planned > limit:
            return None
    out: list[tuple[Placement, int]] = []
    tried = 0
    for hands, left in assign(0, counts, {}):
        for perm in _multiset_permutations({v: c for v, c in left.items() if c > 0}):
            all_hands: list[list[int]] = [[] for _ in range(n)]
            for s, h in hands.items():
                all_hands[s] = list(h)
            if view.seat is not None and view.hand is not None:
                all_hands[view.seat] = list(view.hand)
            centre: list[int | None] = [None] * len(view.centre_present)
            for slot, v in zip(slots, perm):
                centre[slot] = v
            total = 0
            for dealt, dcentre, swap_cards in _undo_history(changes, all_hands, centre):
                tried += 1
                if tried > limit:
                    return None
                total += _replay_weight(view, dealt, dcentre, swap_cards, read)
            if total:
                out.append((Placement(tuple(tuple(h) for h in all_hands), tuple(centre)), total))
    return BruteForce(view, out, tried)


def end_value(view: PlayerView, placement: Placement, reveal: Reveal) -> int:
    """The value ``reveal`` shows now in ``placement`` (the turn in progress taken into account)."""
    if reveal.is_centre:
        v = placement.centre[reveal.index]
        assert v is not None
        return v
    return placement.hands[reveal.index][view.position(reveal)]


# ---------------------------------------------------------------------------
# Position collections and request sequences


def collect_small_positions(
    count: int,
    *,
    max_hidden: int,
    min_hidden: int = 1,
    seed: int = 0,
    rules_pool: Sequence[Rules] = ALL_RULES,
    mid_turn_rate: float = 0.3,
    swap_prob: float = 0.5,
    own_swaps_only: bool = False,
    accept: Callable[[Game, int | None], bool] | None = None,
    max_tries: int = 2000,
) -> list[tuple[Game, int | None]]:
    """``count`` positions with ``min_hidden..max_hidden`` hidden cards, from seeds ``seed, seed+1, ...``."""
    out: list[tuple[Game, int | None]] = []
    for k in range(max_tries):
        if len(out) >= count:
            break
        rng = random.Random(seed * 100_003 + k)
        rules = rules_pool[k % len(rules_pool)]
        r = small_position(rules, rng, max_hidden, min_hidden=min_hidden, mid_turn=rng.random() < mid_turn_rate,
                           swap_prob=swap_prob, own_swaps_only=own_swaps_only)
        if r is None:
            continue
        if accept is not None and not accept(*r):
            continue
        out.append(r)
    return out


def request_sequences(view: PlayerView, rng: random.Random, count: int) -> list[list[Reveal]]:
    """Random sequences of requests from now to the end of the turn (centre slots at most once each)."""
    room = 3 - len(view.turn)
    if room <= 0 or view.over:
        return []
    table = view.table_copy()
    base = table.legal_reveals()
    out: list[list[Reveal]] = []
    for _ in range(count):
        length = rng.randint(1, room)
        seq: list[Reveal] = []
        used: set[int] = set()
        for _ in range(length):
            options = [r for r in base if not (r.is_centre and r.index in used)]
            if not options:
                break
            r = rng.choice(options)
            if r.is_centre:
                used.add(r.index)
            seq.append(r)
        out.append(seq)
    return out


def sequence_values(view: PlayerView, placement: Placement, seq: Sequence[Reveal]) -> list[int] | None:
    """What the requests of ``seq`` show one after the other from now (``None``: a hand runs out)."""
    table = view.table_copy()
    lo = [table.used(s)[0] for s in range(view.rules.players)]
    hi = [table.used(s)[1] for s in range(view.rules.players)]
    out: list[int] = []
    for r in seq:
        if r.is_centre:
            v = placement.centre[r.index]
            assert v is not None
            out.append(v)
            continue
        s = r.index
        hand = placement.hands[s]
        if lo[s] + hi[s] >= len(hand):
            return None
        if r.kind == "lowest":
            out.append(hand[lo[s]])
            lo[s] += 1
        else:
            out.append(hand[len(hand) - 1 - hi[s]])
            hi[s] += 1
    return out


def all_show(view: PlayerView, placement: Placement, value: int, seq: Sequence[Reveal]) -> bool:
    """Whether the cards face up now and the requests of ``seq`` all show ``value`` in ``placement``."""
    if any(r.value != value for r in view.turn):
        return False
    vals = sequence_values(view, placement, seq)
    return vals is not None and all(v == value for v in vals)


# ---------------------------------------------------------------------------
# Small statistics without scipy


def chi2_sf(x: float, k: int) -> float:
    """Upper tail P(X >= x) of a chi-square with ``k`` degrees of freedom (regularised gamma)."""
    if x <= 0:
        return 1.0
    a = k / 2.0
    z = x / 2.0
    if z < a + 1:
        # series for the lower incomplete gamma
        term = 1.0 / a
        total = term
        n = 1
        while abs(term) > 1e-15 * abs(total) and n < 10_000:
            term *= z / (a + n)
            total += term
            n += 1
        lower = total * math.exp(-z + a * math.log(z) - math.lgamma(a))
        return max(0.0, 1.0 - lower)
    # continued fraction for the upper incomplete gamma (Lentz)
    tiny = 1e-300
    b = z + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return h * math.exp(-z + a * math.log(z) - math.lgamma(a))


def z_score(observed: int, n: int, p: float) -> float:
    """Binomial z of ``observed`` successes in ``n`` trials against probability ``p``."""
    if p <= 0 or p >= 1:
        return 0.0 if (observed == 0 and p <= 0) or (observed == n and p >= 1) else math.inf
    return (observed - n * p) / math.sqrt(n * p * (1 - p))


def random_position(rules: Rules, seed: int, reveals: int, swap_prob: float = 0.5,
                    swap_teams: tuple[int, ...] | None = None) -> Game:
    """Random legal reveals; in team play random swaps (only by ``swap_teams`` when given)."""
    rng = random.Random(seed)
    game = Game.deal(rules, rng=rng)
    for _ in range(reveals):
        if game.over:
            break
        if not game.turn:
            for a, b in game.swap_moment():
                if swap_teams is not None and rules.team_of(a) not in swap_teams:
                    continue
                if game.hands[a] and game.hands[b] and rng.random() < swap_prob:
                    game.swap(a, b, rng.choice(game.hands[a]), rng.choice(game.hands[b]))
        legal = game.legal_reveals()
        r = rng.choice(legal)
        if len(game.turn) == 2 and game.peek(r) == game.turn[0].value:
            team = rules.team_of(game.to_move)
            if rules.is_win(list(game.table.team_trios(team)) + [game.turn[0].value]):
                others = [x for x in legal if game.peek(x) != game.turn[0].value]
                if others:
                    r = rng.choice(others)
        game.reveal(r)
    return game


TEAM_RULES: tuple[Rules, ...] = tuple(r for r in ALL_RULES if r.teams)


def swap_views(max_reveals: int) -> Any:
    """A hypothesis strategy: ``(game, seat)`` at a swap moment of :func:`swap_position` in any team
    setting, after up to ``max_reveals`` random reveals, and any seat."""
    from hypothesis import strategies as st

    def build(rules: Rules, seed: int, reveals: int) -> Any:
        game = swap_position(rules, seed, reveals)
        return st.tuples(st.just(game), st.sampled_from(range(rules.players)))

    return st.builds(lambda *a: a, st.sampled_from(TEAM_RULES), st.integers(0, 10**6),
                     st.integers(0, max_reveals)).flatmap(lambda a: build(*a))


def swap_position(rules: Rules, seed: int, reveals: int) -> Game:
    """The last swap moment (before any of its teams swapped) of a game of random reveals, in which
    earlier moments got random swaps; ``reveals`` bounds the reveals made before it."""
    rng = random.Random(seed)
    game = Game.deal(rules, rng=rng)
    last = game.copy()
    for _ in range(reveals):
        if game.over:
            break
        if not game.turn and game.swap_moment():
            last = game.copy()
            for a, b in game.swap_moment():
                if game.hands[a] and game.hands[b] and rng.random() < 0.5:
                    game.swap(a, b, rng.choice(game.hands[a]), rng.choice(game.hands[b]))
        game.reveal(rng.choice(game.legal_reveals()))
    return last


def close_dist(got: dict[int, float], want: dict[int, Fraction], what: str) -> None:
    """Assert that a float distribution equals an exact one to 1e-9."""
    for k in set(got) | set(want):
        assert abs(got.get(k, 0.0) - float(want.get(k, 0))) < 1e-9, f"{what}: {k}: {got.get(k)} vs {want.get(k)}"


def assert_beliefs_match(view: PlayerView, b: Any, exact: Any, bf: BruteForce, centre_slots: Sequence[int],
                         rng: random.Random, sequences: int) -> None:
    """The belief model against a brute force of the same view: the exact count distribution of every
    hidden row (``exact``: the model with ``exact=True``), and, from ``b``, every centre place in
    ``centre_slots``, every accessible end, every position of every hidden hand and the joint events
    of ``sequences`` random request sequences."""
    from trio_solver.infer.facts import POOL

    Z = exact.total_weight
    for row in exact.facts.rows:
        cells = exact.exact_cell_weights(None if row.key == POOL else row.key)
        for v in VALUES:
            if row.key == POOL:
                want = bf.distribution(lambda p, v=v: sum(p.centre[c] == v for c in exact.facts.pool_slots))
            else:
                want = bf.distribution(lambda p, s=row.key, v=v: p.hands[s].count(v))
            assert {c: Fraction(w) / Z for c, w in cells[v].items() if w} == want, (row.key, v)
    for slot, v in exact.facts.known_slots.items():
        assert bf.distribution(lambda p, slot=slot: p.centre[slot]) == {v: 1}
    centre = b.centre()
    for slot in centre_slots:
        close_dist(centre[slot], bf.distribution(lambda p, slot=slot: p.centre[slot]), f"c{slot}")
    for s in range(view.rules.players):
        if view.accessible(s) <= 0:
            continue
        for kind in ("lowest", "highest"):
            r = Reveal(kind, s)  # type: ignore[arg-type]
            close_dist(b.end(r), bf.distribution(lambda p, r=r: end_value(view, p, r)), str(r))
    for s in b.hidden_seats():
        for k in range(view.sizes[s]):
            close_dist(b.position_distribution(s, k), bf.distribution(lambda p, s=s, k=k: p.hands[s][k]), f"{s}@{k}")
    values = {r.value for r in view.turn}
    for seq in request_sequences(view, rng, sequences):
        for value in (values or set(VALUES)):
            want_p = bf.prob(lambda p: all_show(view, p, value, seq))
            got = b.prob_all_show(value, seq)
            assert abs(got - float(want_p)) < 1e-9, ([str(r) for r in seq], value, got, float(want_p))


def assert_sampler_matches(b: Any, bf: BruteForce, rng: random.Random, n: int = 6000) -> None:
    """``b.sample`` draws count matrices (hands, and the cards of the never-shown slots as a multiset:
    the sampler shuffles those over their slots) with the brute force's frequencies: every draw is a
    placement that replays, and a chi-square test over ``n`` draws passes at 1e-4."""
    def key(p: Placement) -> tuple[object, ...]:
        pool = tuple(sorted(c for i, c in enumerate(p.centre) if i in b.facts.pool_slots and c is not None))
        return (p.hands, pool)

    want = bf.distribution(key)
    seen: dict[tuple[object, ...], int] = {}
    for _ in range(n):
        k = key(b.sample(rng))
        assert k in want, "the sampler produced a placement that does not replay"
        seen[k] = seen.get(k, 0) + 1
    chi2 = sum((seen.get(k, 0) - n * float(q)) ** 2 / (n * float(q)) for k, q in want.items())
    dof = len(want) - 1
    assert chi2_sf(chi2, dof) > 1e-4, f"chi2={chi2:.1f} with {dof} degrees of freedom"


def own_top_shown(seed: int = 5) -> tuple[Game, int, int]:
    """A 3-player game whose first mover showed its own highest card and failed: ``(game, mover, value)``
    (that card is then known to every player)."""
    game = Game.deal(Rules(3), seed=seed)
    mover = game.to_move
    top = game.peek(Reveal.highest(mover))
    game.reveal(Reveal.highest(mover))
    game.reveal(next(r for r in game.legal_reveals() if game.peek(r) != top))
    return game, mover, top
