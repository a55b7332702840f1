"""HTML pictures of the library's objects, for Jupyter (``_repr_html_``), like python-chess boards.

:class:`~trio_solver.game.state.Game`, :class:`~trio_solver.game.view.PlayerView`,
:class:`~trio_solver.infer.beliefs.Beliefs`, :class:`~trio_solver.decide.search.Advice` and
:class:`~trio_solver.report.analysis.Analysis` show themselves with these functions: the
table as cards (the value printed on a colour per value, ``?`` for an unknown
card; a dot marks a card of the viewer's own hand that every player knows, an
outline a card face up in the turn), the beliefs as bars, the advice as a table
of percentages, an analysis as its summary. Every text that comes from a record
(names) is escaped; the HTML is static (no script) and styled inline, so it shows
the same in a notebook, an exported page or an e-mail. The classes reach these
functions through :mod:`trio_solver._display`, where this module registers them
when the package is imported.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from .._display import register
from .._text import isolate
from .analysis import Analysis
from ..infer.beliefs import Beliefs
from ..game.state import Game
from .render import Frame, frame, goal_text, seat_name
from ..decide.search import Advice
from ..game.view import PlayerView
from ..words import percent, pm

__all__ = ["VALUE_COLOURS", "card_html", "frame_html", "game_html", "view_html", "beliefs_html", "advice_html",
           "analysis_summary_html"]

#: The colour of each card value 1 to 12 (index 0 unused), shared with the web board's stylesheet
#: (``web/board.css``, classes ``v1`` .. ``v12``). The value is always printed on the card too, so no
#: one needs to tell the colours apart.
VALUE_COLOURS = ("", "#f6a5a0", "#f9c784", "#fbe58a", "#cfe89a", "#9fdcb8", "#93d3e8",
                 "#ffd23f", "#b9c3f4", "#d9b3ee", "#f5b3d2", "#d6c5b4", "#b8c4cc")

_STYLE = ("<style>.trio-nb{font-family:system-ui,sans-serif;font-size:14px;color:#1d1d1f}"
          ".trio-nb .row{display:flex;align-items:center;gap:8px;margin:3px 0;flex-wrap:wrap}"
          ".trio-nb .who{min-width:9em;font-weight:600}"
          ".trio-nb .c{display:inline-flex;align-items:center;justify-content:center;width:26px;height:36px;"
          "border:1px solid #8a8574;border-radius:4px;font-weight:700;position:relative;margin-right:2px}"
          ".trio-nb .c.back{background:repeating-linear-gradient(45deg,#2f4b7c,#2f4b7c 4px,#3d5e96 4px,"
          "#3d5e96 8px);color:#fff}"
          ".trio-nb .c.up{outline:3px solid #ff9f1c}"
          ".trio-nb .c.pub::after{content:'';position:absolute;top:2px;right:2px;width:6px;height:6px;"
          "border-radius:3px;background:#1d1d1f}"
          ".trio-nb .muted{color:#5d5d66;font-size:12px}"
          ".trio-nb table{border-collapse:collapse}.trio-nb td,.trio-nb th{padding:2px 8px;text-align:right}"
          ".trio-nb td:first-child,.trio-nb th:first-child{text-align:left}</style>")


def card_html(value: int | None, *, public: bool = False, up: bool = False, title: str = "") -> str:
    """One card: its value on its colour, or a back (``None``); ``public`` adds the dot of "every player
    knows it", ``up`` the outline of a card face up in the turn."""
    cls = "c" + (" back" if value is None else "") + (" pub" if public else "") + (" up" if up else "")
    style = "" if value is None else f" style='background:{VALUE_COLOURS[value]}'"
    tip = f" title='{html.escape(title, quote=True)}'" if title else ""
    return f"<span class='{cls}'{style}{tip}>{'' if value is None else value}</span>"


def frame_html(fr: Frame, names: Sequence[str] | None = None, viewer: int | None = None) -> str:
    """A :func:`~trio_solver.report.render.frame` as HTML: a row per seat (its cards as the view knows them, its
    trios, its team), the centre, and in team play each team's trios and how many it still needs."""
    rows = []
    teams = fr.get("teams") or []
    for h in fr["hands"]:
        s = h["seat"]
        cards = []
        for i, v in enumerate(h["cards"] or [None] * h["size"]):
            pub = bool(h.get("public", [False] * h["size"])[i])
            up = bool(h.get("up", [False] * h["size"])[i])
            mine = s == viewer and pub
            tip = ("yours, known to every player" if mine else "known to every player" if pub and v is not None
                   else "")
            cards.append(card_html(v, public=mine, up=up, title=tip))
        trios = " ".join(card_html(v, title=f"trio of {v}s") for v in fr["trios"][s])
        team = next((t for t in teams if s in t), None)
        mark = " · winner" if fr["winner"] == s else " · to move" if fr["winner"] is None and fr["to_move"] == s else ""
        rows.append(f"<div class='row'><span class='who'>{html.escape(isolate(seat_name(s, names), names or ()))}"
                    f"<span class='muted'>{' · team ' + '+'.join(map(str, team)) if team else ''}{mark}</span></span>"
                    f"{''.join(cards) or '<span class=muted>no card</span>'}"
                    f"{' <span class=muted>trios</span> ' + trios if trios else ''}</div>")
    if fr["centre"]:
        slots = [card_html(c["known"], up=bool(c.get("face_up")), title=f"c{c['slot']}") if c["present"]
                 else "<span class='c' style='border-style:dashed' title='taken'>–</span>" for c in fr["centre"]]
        rows.append(f"<div class='row'><span class='who'>centre</span>{''.join(slots)}</div>")
    if teams:
        for sd in fr["sides"]:
            rows.append(f"<div class='muted'>team {'+'.join(map(str, sd['seats']))}: trios "
                        f"{', '.join(map(str, sd['trios'])) or '-'}; {goal_text(fr['mode'], sd)}</div>")
    if any(sd.get("pairs_with") for sd in fr.get("sides", [])):
        links = [f"{v} pairs with {', '.join(map(str, ws))}" for sd in fr["sides"]
                 for v, ws in sd["pairs_with"].items() if ws]
        if links:
            rows.append(f"<div class='muted'>Picante links still open: {'; '.join(links)}</div>")
    if viewer is not None:
        rows.append("<div class='muted'>A dot: a card of your hand that every player knows; "
                    "an orange outline: face up this turn.</div>")
    return f"<div class='trio-nb'>{_STYLE}{''.join(rows)}</div>"


def game_html(game: Game) -> str:
    """The true table of a game: every hand, with what the table knows marked."""
    return frame_html(frame(game, "all"))


def view_html(view: PlayerView) -> str:
    """The table as ``view``'s seat knows it."""
    return frame_html(frame(view, view.seat), None, view.seat)


def _bars(dist: dict[int, float]) -> str:
    top = max(dist.items(), key=lambda t: t[1], default=(0, 0.0))
    bars = "".join(f"<span title='{v}: {percent(dist.get(v, 0.0))}' style='display:inline-block;width:10px;"
                   f"height:{max(1, round(24 * dist.get(v, 0.0)))}px;background:{VALUE_COLOURS[v]};"
                   "margin-right:1px;vertical-align:bottom'></span>" for v in range(1, 13))
    return f"{bars} <span class='muted'>{top[0]} · {percent(top[1])}</span>"


def beliefs_html(beliefs: Beliefs) -> str:
    """The table the beliefs are about, then the chances of each card a request could show now."""
    view = beliefs.view
    rows = [view_html(view) if view.seat is not None else frame_html(frame(view, None))]
    items: list[tuple[str, dict[int, float]]] = [(f"c{k}", d) for k, d in beliefs.centre().items()]
    for s in range(view.rules.players):
        if s != view.seat and view.accessible(s) > 0:
            items += [(f"l{s}", beliefs.lowest(s)), (f"h{s}", beliefs.highest(s))]
    rows.append("<table><tr><th>card</th><th>chances of 1 .. 12</th></tr>"
                + "".join(f"<tr><td>{name}</td><td>{_bars(d)}</td></tr>" for name, d in items) + "</table>")
    deductions = beliefs.deductions()
    if deductions:
        rows.append("<div class='muted'>" + "<br>".join(html.escape(d) for d in deductions[:12]) + "</div>")
    return f"<div class='trio-nb'>{_STYLE}{''.join(rows)}</div>"


def advice_html(advice: Advice) -> str:
    """The advice as a table of percentages, best first (its order), with the objective."""
    game = bool(advice.evaluations) and advice.evaluations[0].p_game is not None
    head = "<tr><th>reveal</th><th>win now</th><th>trio</th>" + ("<th>win game</th>" if game else "") + "</tr>"
    rows = []
    for i, e in enumerate(advice.evaluations):
        style = " style='background:#e9f5ef;font-weight:700'" if i == 0 else ""
        cells = (f"<td>{e.reveal}</td><td>{percent(e.p_win, 1)}</td><td>{percent(e.p_trio, 1)}</td>"
                 + (f"<td>{pm(e.p_game or 0.0, e.p_game_stderr)}</td>" if game else ""))
        rows.append(f"<tr{style}>{cells}</tr>")
    face = f", face up: {html.escape(' '.join(advice.turn))}" if advice.turn else ""
    return (f"<div class='trio-nb'>{_STYLE}<div class='muted'>Advice for seat {advice.seat}, objective "
            f"{html.escape(str(advice.objective))}{face}</div><table>{head}{''.join(rows)}</table></div>")


def analysis_summary_html(analysis: Analysis) -> str:
    """An analysis in a notebook: its header, the per-player table and the key moments (the full
    interactive page is :meth:`~trio_solver.report.analysis.Analysis.html`)."""
    said = analysis.players  # right-to-left names isolated (trio_solver._text.isolate)
    header = "<br>".join(html.escape(isolate(line, said)) for line in analysis.header().splitlines())
    seats = "".join(
        f"<tr><td>{html.escape(isolate(s.name, said))}{' (won)' if s.won else ''}</td><td>{s.decisions}</td>"
        f"<td>{'-' if s.accuracy is None else percent(s.accuracy)}</td>"
        f"<td>{'-' if s.average_loss is None else percent(s.average_loss, 1)}</td>"
        f"<td>{s.inaccuracies}/{s.mistakes}/{s.blunders}</td></tr>" for s in analysis.seats)
    moments = "".join(f"<li>{html.escape(isolate(m.text, said))}</li>" for m in analysis.moments)
    return (f"<div class='trio-nb'>{_STYLE}<p>{header}</p><table><tr><th>player</th><th>choices</th>"
            f"<th>accuracy</th><th>avg loss</th><th>inacc./mist./blund.</th></tr>{seats}</table>"
            f"{'<ul>' + moments + '</ul>' if moments else ''}</div>")


for _cls, _draw in ((Game, game_html), (PlayerView, view_html), (Beliefs, beliefs_html), (Advice, advice_html),
                    (Analysis, analysis_summary_html)):
    register(_cls, _draw)
