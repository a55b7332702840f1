"""Readable text and JSON pictures of the table, for ``replay``, ``play`` and reports.

A frame shows each hand (its cards when the view may see them, else its size),
the centre slots with what is known of them (the value they last showed, ``?``
if never shown, ``-`` once a trio took the card), the cards face up in the turn,
the trios of each seat, and whose turn it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .engine import Game
from .events import Swap, Turn
from .view import PlayerView

__all__ = ["Frame", "frame", "render_frame", "describe_event", "seat_name"]

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
        return f"{who} swap: {a} gives {event.cards[0]}, {b} gives {event.cards[1]}"
    shown = " ".join(str(r) for r in event.reveals)
    values = [r.value for r in event.reveals]
    if len(values) > 1 and values[-1] != values[0]:
        outcome = "failure"
    elif len(values) == 3:
        outcome = f"trio of {values[0]}s"
    else:
        outcome = "in progress"
    return f"{seat_name(event.seat, names)}: {shown} -> {outcome}"


def frame(state: Game | PlayerView, seat: int | None | str = "all") -> Frame:
    """The table as data, from the true state (``seat="all"``: every hand shown) or a view."""
    if isinstance(state, Game):
        hands: list[list[int] | None] = [
            list(h) if seat == "all" or seat == s else None for s, h in enumerate(state.hands)
        ]
        centre_true: list[int | None] | None = list(state.centre) if seat == "all" else None
        view = state.view(None if seat == "all" else seat)  # type: ignore[arg-type]
    else:
        view = state
        hands = [list(view.hand) if view.hand is not None and s == view.seat and seat is not None else None
                 for s in range(view.rules.players)]
        centre_true = None
    sizes = view.sizes
    seen = view.centre_seen()
    present = view.centre_present
    up = {r.reveal.index: r.value for r in view.turn if r.reveal.is_centre}
    centre = []
    for slot in range(len(present)):
        entry: dict[str, Any] = {"slot": slot, "present": present[slot]}
        if present[slot]:
            known = centre_true[slot] if centre_true is not None else seen[slot]
            entry["known"] = known
            entry["face_up"] = slot in up
        centre.append(entry)
    return {
        "to_move": view.to_move,
        "winner": view.winner,
        "hands": [
            {"seat": s, "size": sizes[s], "cards": hands[s]} for s in range(view.rules.players)
        ],
        "centre": centre,
        "turn": [str(r) for r in view.turn],
        "trios": [list(t) for t in view.trios],
        "swap_open": [list(t) for t in view.swap_open],
    }


def render_frame(fr: Frame, names: Sequence[str] | None = None) -> str:
    """The frame as a few lines of text."""
    lines = []
    face_up = fr["turn"]
    width = max(len(seat_name(h["seat"], names)) for h in fr["hands"])
    for h in fr["hands"]:
        who = seat_name(h["seat"], names).ljust(width)
        if h["cards"] is not None:
            cards = "[" + " ".join("?" if c is None else str(c) for c in h["cards"]) + "]" if h["cards"] else "[]"
        else:
            cards = ("[" + " ".join("?" for _ in range(h["size"])) + "]") if h["size"] else "[]"
        trios = fr["trios"][h["seat"]]
        mark = "  <- to move" if fr["winner"] is None and fr["to_move"] == h["seat"] else ""
        mark = "  <- WINNER" if fr["winner"] == h["seat"] else mark
        lines.append(f"  {who}  {cards:<30} trios: {', '.join(map(str, trios)) or '-'}{mark}")
    if fr["centre"]:
        slots = []
        for c in fr["centre"]:
            if not c["present"]:
                slots.append(f"c{c['slot']}:-")
            else:
                k = "?" if c["known"] is None else str(c["known"])
                slots.append(f"c{c['slot']}:{k}{'*' if c.get('face_up') else ''}")
        lines.append("  centre  " + "  ".join(slots))
    if face_up:
        lines.append("  face up " + " ".join(face_up))
    if fr["swap_open"]:
        lines.append("  swap moment for " + ", ".join(str(t) for t in fr["swap_open"]))
    return "\n".join(lines)
