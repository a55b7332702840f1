"""Readable text and JSON pictures of the table, for ``replay``, ``play`` and reports.

A frame shows each hand card by card as the view knows it
(:mod:`trio_solver.game.knowledge`: the value, whether the whole table knows it,
whether it lies face up), the centre slots with what is known of them (the value
they last showed, ``?`` if never shown, ``-`` once a trio took the card), the
cards face up in the turn, the trios of each seat and of each side (team), the
Picante links of those trios, the cards of the last move, and whose turn it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._text import pad, width as columns
from ..decide.search import live_links  # the one rule for the links a trio can still pair with
from ..game.state import Game
from ..game.events import Event, Swap, Turn
from ..game.knowledge import PublicReader, knowledge
from ..game.rules import SEVEN, Mode, Rules
from ..game.view import PlayerView

__all__ = ["Frame", "frame", "render_frame", "describe_event", "move_json", "seat_name", "side_name", "winner_text",
           "won_with", "won_by", "goal_text"]

Frame = dict[str, Any]


def seat_name(seat: int, names: Sequence[str] | None) -> str:
    """``seat 2 (Chloé)`` or ``seat 2``."""
    return f"seat {seat} ({names[seat]})" if names else f"seat {seat}"


def describe_event(event: Turn | Swap, names: Sequence[str] | None = None) -> str:
    """One line for an event: ``seat 1: l2=5 c3=5 h0=7 -> failure``."""
    if isinstance(event, Swap):
        a, b = event.seats
        who = f"{seat_name(a, names)} and {seat_name(b, names)}"
        if event.cards is None:
            return f"{who} swap a card secretly"
        return (f"swap: {seat_name(a, names)} gives {event.cards[0]}, {seat_name(b, names)} gives "
                f"{event.cards[1]}")
    shown = " ".join(str(r) for r in event.reveals)
    outcome = move_json(event)["outcome"]
    if outcome == "trio":
        outcome = f"trio of {event.reveals[0].value}s"
    return f"{seat_name(event.seat, names)}: {shown} -> {outcome}"


def move_json(event: Turn | Swap) -> dict[str, Any]:
    """An event for a move list: ``{"seat", "reveals": ["l2=5", ...], "outcome": "failure" | "trio" |
    "in progress"}`` for a turn, ``{"swap": [a, b], "cards": [va, vb] or None}`` for a swap (``None``:
    secret to this view)."""
    if isinstance(event, Swap):
        return {"swap": list(event.seats), "cards": None if event.cards is None else list(event.cards)}
    values = [r.value for r in event.reveals]
    if len(values) > 1 and values[-1] != values[0]:
        outcome = "failure"
    elif len(values) == 3:
        outcome = "trio"
    else:
        outcome = "in progress"
    return {"seat": event.seat, "reveals": [str(r) for r in event.reveals], "outcome": outcome}


def frame(state: Game | PlayerView, seat: int | None | str = "all", *,
          reader: PublicReader | None = None) -> Frame:
    """The table as data, from the true state (``seat="all"``: every hand shown) or a view.

    Each hand lists, per sorted position, the value the chosen view knows
    (``cards``, ``None`` where unknown), whether every player knows it (``public``)
    and whether it lies face up in the turn (``up``): :func:`~trio_solver.game.knowledge.knowledge`
    is the one source. ``seat=None`` on a seat's view shows only what the table knows. ``reader``: one
    :class:`~trio_solver.game.knowledge.PublicReader` handed the positions of a game in order, so that
    the frames of a whole game cost one replay (the frame is the same without it).
    """
    reader = reader if reader is not None else PublicReader()
    if isinstance(state, Game):
        view = state.view(None if seat == "all" else seat)  # type: ignore[arg-type]
        truth = [list(h) for h in state.hands] if seat == "all" else None
        know = knowledge(view, truth=truth, reader=reader)
        centre_true: list[int | None] | None = list(state.centre) if seat == "all" else None
    else:
        view = state
        know = knowledge(view, spectator=seat is None and view.seat is not None, reader=reader)
        centre_true = None
    present = view.centre_present
    up = {r.reveal.index for r in view.turn if r.reveal.is_centre}
    centre = []
    for slot in range(len(present)):
        entry: dict[str, Any] = {"slot": slot, "present": present[slot]}
        if present[slot]:
            entry["known"] = centre_true[slot] if centre_true is not None else know.slots[slot]
            entry["public"] = know.slots[slot] is not None
            entry["face_up"] = slot in up
        centre.append(entry)
    rules = view.rules
    trios = [list(t) for t in view.trios]
    pairs_with: dict[int, list[int]] = {}
    if rules.mode is Mode.PICANTE:
        pairs_with = {v: sorted(live_links(view, v)) for t in trios for v in t}
    taken = {v for t in trios for v in t}  # a value taken in a trio makes no second one
    sides = []
    for seats in rules.teams_of_seats:
        held = sorted(v for s in seats for v in trios[s])
        sides.append({
            "seats": list(seats),
            "trios": held,
            "to_goal": rules.goal_distance(held),
            "links": [[a, b] for i, a in enumerate(held) for b in held[i + 1:] if rules.linked(a, b)]
                     if rules.mode is Mode.PICANTE else [],
            "pairs_with": {str(v): pairs_with[v] for v in held} if rules.mode is Mode.PICANTE else {},
            "wins": [] if view.winner is not None else sorted(rules.winning_values(held) - taken),
        })
        sides[-1]["goal"] = goal_text(rules.mode.value, sides[-1])
    return {
        "to_move": view.to_move,
        "winner": view.winner,
        "hands": [h.to_json() for h in know.hands],
        "centre": centre,
        "turn": [str(r) for r in view.turn],
        "trios": trios,
        "swap_open": [list(t) for t in view.swap_open],
        "mode": rules.mode.value,
        "teams": [list(t) for t in rules.teams_of_seats] if rules.teams else [],
        "sides": sides,
        "last": _last_places(view, reader),
    }


def _last_places(view: PlayerView, reader: PublicReader) -> list[dict[str, Any]]:
    """The cards of the last event still on the table, as ``{"seat", "position"}`` (a hand card at its
    sorted position now) or ``{"slot"}``, each with the ``value`` it showed; empty after a swap or a
    trio (the trio's cards left the table) and at the start."""
    out: list[dict[str, Any]] = []
    for step in reader.last_event(view):
        if step.swap is not None or step.trio is not None:
            return []
        assert step.reveal is not None
        if step.position is None:
            out.append({"slot": step.reveal.index, "value": step.value})
        else:
            out.append({"seat": step.reveal.index, "position": step.position, "value": step.value})
    return out


def side_name(rules: Rules, seat: int, names: Sequence[str] | None = None) -> str:
    """Who scores with ``seat``'s trios: ``seat 2`` alone, or ``team of seats 2 and 5`` (with names)."""
    if not rules.teams:
        return seat_name(seat, names)
    a, b = rules.teams_of_seats[rules.team_of(seat)]
    if names:
        return f"team {names[a]} & {names[b]} (seats {a} and {b})"
    return f"team of seats {a} and {b}"


def winner_text(rules: Rules, winner: int, names: Sequence[str] | None = None) -> str:
    """``Winner: seat 2`` or, in team play, ``Winner: team of seats 2 and 5; seat 5 took the last trio``."""
    if not rules.teams:
        return f"Winner: {seat_name(winner, names)}"
    return f"Winner: {side_name(rules, winner, names)}; {seat_name(winner, names)} took the last trio"


def won_with(rules: Rules, held: Sequence[int]) -> str:
    """What won, from the winning side's trios in the order taken (the winning one last): ``the trio of 7s``;
    in Picante ``the linked trios of 2s and 5s``; else ``the trios of 3s, 9s, 2s`` (``""`` for none)."""
    if not held:
        return ""
    last = held[-1]
    if last == SEVEN or len(held) == 1:
        return f"the trio of {last}s"
    partner = next((v for v in held[:-1] if rules.linked(v, last)), None) if rules.mode is Mode.PICANTE else None
    if partner is not None:
        return f"the linked trios of {partner}s and {last}s"
    return f"the trios of {', '.join(f'{v}s' for v in held)}"


def won_by(rules: Rules, events: Sequence[Event], winner: int) -> str:
    """:func:`won_with` of the trios that ``winner``'s side took in ``events``, in the order taken."""
    seats = rules.teams_of_seats[rules.team_of(winner)]  # the side that scores with the winner's trios
    return won_with(rules, [e.reveals[0].value for e in events
                            if isinstance(e, Turn) and e.seat in seats and move_json(e)["outcome"] == "trio"])


def goal_text(mode: str, side: dict[str, Any]) -> str:
    """How far a side of a frame is from the goal: ``goal met``, ``needs 2 more trios (or the 7s)``, in
    Picante ``needs 2 linked trios (or the 7s)`` or ``a trio of 2, 12 wins (or the 7s)``."""
    need = side["to_goal"]
    if need == 0:
        return "goal met"
    if mode == Mode.PICANTE.value:
        wins = sorted({w for ws in side["pairs_with"].values() for w in ws})
        if wins:
            return f"a trio of {', '.join(map(str, wins))} wins (or the 7s)"
        return f"needs {need} linked {'trio' if need == 1 else 'trios'} (or the 7s)"
    return f"needs {need} more {'trio' if need == 1 else 'trios'} (or the 7s)"


def _card_text(value: int | None, public: bool, up: bool, own: bool) -> str:
    text = "?" if value is None else str(value)
    if up:
        return text + "*"
    if own and public:
        return text + "^"
    return text


def _trio_text(fr: Frame, values: Sequence[int]) -> str:
    """``5, 9`` or in Picante ``5 (pairs with 2, 12), 9``."""
    side = next((sd for sd in fr.get("sides", []) if any(str(v) in sd["pairs_with"] for v in values)), None)
    parts = []
    for v in values:
        pairs = side["pairs_with"].get(str(v)) if side is not None else None
        parts.append(f"{v} (pairs with {', '.join(map(str, pairs))})" if pairs else str(v))
    return ", ".join(parts) or "-"


def render_frame(fr: Frame, names: Sequence[str] | None = None, viewer: int | None = None,
                 certain: dict[int, list[int]] | None = None) -> str:
    """The frame as a few lines of text: a hand per seat with what the view knows (``?``: unknown,
    ``*``: face up this turn, ``^``: a card of ``viewer``'s own hand that the table knows), the centre,
    and in team play each team's trios and how many it still needs. ``certain``: values each seat holds
    for certain at places the view does not know (:func:`~trio_solver.report.seen.certain_holdings`),
    told on a line of their own."""
    lines = []
    teams = fr.get("teams") or []
    team_of = {s: t for t, seats in enumerate(teams) for s in seats}
    width = max(columns(seat_name(h["seat"], names)) for h in fr["hands"])
    marked = False
    rows = []
    for h in fr["hands"]:
        s = h["seat"]
        cards_known = h["cards"] if h["cards"] is not None else [None] * h["size"]
        public = h.get("public") or [False] * len(cards_known)
        up = h.get("up") or [False] * len(cards_known)
        texts = [_card_text(v, p, u, viewer == s) for v, p, u in zip(cards_known, public, up)]
        marked = marked or any(t.endswith("^") for t in texts)
        rows.append((s, "[" + " ".join(texts) + "]"))
    cards_width = max(len(cards) for _, cards in rows)  # the hands' columns line up, and no wider
    for s, cards in rows:
        who = pad(seat_name(s, names), width)
        team = f"  team {'+'.join(map(str, teams[team_of[s]]))}" if s in team_of else ""
        trios = fr["trios"][s]
        mark = "  <- to move" if fr["winner"] is None and fr["to_move"] == s else ""
        mark = "  <- WINNER" if fr["winner"] == s else mark
        lines.append(f"  {who}  {cards:<{cards_width}}  trios: {_trio_text(fr, trios)}{team}{mark}")
    if teams:
        for sd in fr["sides"]:
            # the partners by name, as the analysis names a team (the rows above say "team 0+2")
            seats = "+".join(map(str, sd["seats"]))
            who = f"{' & '.join(names[x] for x in sd['seats'])} ({seats})" if names else seats
            lines.append(f"  team {who}: trios {_trio_text(fr, sd['trios'])}; "
                         f"{goal_text(fr.get('mode', 'simple'), sd)}")
    if fr["centre"]:
        slots = []
        for c in fr["centre"]:
            if not c["present"]:
                slots.append(f"c{c['slot']}:-")
            else:
                k = "?" if c["known"] is None else str(c["known"])
                slots.append(f"c{c['slot']}:{k}{'*' if c.get('face_up') else ''}")
        lines.append("  centre  " + "  ".join(slots))
    if fr["turn"]:
        lines.append("  face up " + " ".join(fr["turn"]) + "  (marked * above)")
    if marked:
        lines.append("  (^: your card that every player knows)")
    if certain:
        held = "; ".join(f"{seat_name(s, names)} {' '.join(map(str, vs))}" for s, vs in sorted(certain.items()))
        lines.append(f"  held for certain, place unknown: {held}")
    if fr["swap_open"]:
        lines.append("  swap moment: " + "; ".join(" & ".join(seat_name(s, names) for s in t) for t in fr["swap_open"])
                     + " may swap before the next reveal")
    return "\n".join(lines)
