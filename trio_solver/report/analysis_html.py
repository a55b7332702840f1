"""The analysis of one game as a self-contained HTML page, to open in a browser or to share.

The page has the players and the result, the per-player summary, the key
moments, one chart of the chances through the game (x: every reveal, a tick
and number per turn; y: the chance of a trio this turn; the trios marked), and
the full table. Every point of the chart, every key moment and every row of the
table is clickable and shows the position as the mover saw it, what was played
and what was best. The page needs nothing from the network; the analysis is
embedded as JSON (with ``<``, ``>`` and ``&`` written as ``\\u003c`` and so on,
so the browser's ``JSON.parse`` reads exactly the data of ``--json``).
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .._text import RTL_CLASS, escape, isolate
from ..words import percent as _pct
from ..words import pm as _pm

__all__ = ["page", "embed_json", "Judged"]


class Judged(Protocol):
    """What the page reads of an :class:`~trio_solver.report.analysis.Analysis` (which draws itself
    with :func:`page`, so this module does not import it)."""

    @property
    def decisions(self) -> Sequence[Any]: ...

    @property
    def seats(self) -> Sequence[Any]: ...

    @property
    def moments(self) -> Sequence[Any]: ...

    @property
    def curve(self) -> Sequence[Any]: ...

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]: ...

    @property
    def trios(self) -> tuple[tuple[int, int, int, int], ...]: ...

    @property
    def judged_by(self) -> str: ...

    @property
    def turns(self) -> int: ...

    @property
    def samples(self) -> int: ...

    @property
    def confidence(self) -> float: ...

    @property
    def viewer(self) -> int | None: ...

    def header(self) -> str: ...

    def accuracy_rule(self) -> str: ...

    def to_json(self) -> dict[str, Any]: ...


COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")

@dataclass(frozen=True)
class _Frame:
    """A chart's geometry, in the SVG's own units (it scales to the page's width): the desktop chart is
    wide and low; the phone's is narrow, so that its text and points keep a readable size."""

    id: str
    w: int
    h: int
    left: int = 56
    right: int = 16
    top: int = 30
    bottom: int = 52
    labels: int = 25  # the most turn numbers written under the axis

    def x(self, i: int, n: int) -> float:
        """The x of decision ``i`` of ``n``."""
        return self.left + (self.w - self.left - self.right) * (i + 0.5) / max(n, 1)

    def xb(self, k: int, n: int) -> float:
        """The x of the boundary before decision ``k`` (after ``k`` decisions)."""
        return self.left + (self.w - self.left - self.right) * k / max(n, 1)

    def y(self, p: float) -> float:
        return self.top + (self.h - self.top - self.bottom) * (1 - min(max(p, 0.0), 1.0))


_WIDE = _Frame("chart", 900, 320)
_NARROW = _Frame("chart-phone", 420, 300, left=48, right=10, labels=10)


def embed_json(data: Any) -> str:
    """JSON that is safe inside ``<script type="application/json">`` and parses back to ``data``."""
    return (json.dumps(data, ensure_ascii=False)
            .replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


class _Slots:
    """The chart's x axis: one slot per decision, and one per turn with no decision judged (another
    player's turn in a record of one seat's view), so that every turn has its tick and its curve point."""

    def __init__(self, a: Judged) -> None:
        turns = max([a.turns] + [d.turn for d in a.decisions] + [c.turns for c in a.curve] + [0])
        by_turn: dict[int, list[int]] = {}
        for i, d in enumerate(a.decisions):
            by_turn.setdefault(d.turn, []).append(i)
        self.of: dict[int, int] = {}  # decision -> slot
        self.start: dict[int, int] = {}  # turn -> its first slot
        slot = 0
        for t in range(1, turns + 1):
            self.start[t] = slot
            for i in by_turn.get(t, []):
                self.of[i] = slot
                slot += 1
            slot += 0 if t in by_turn else 1
        self.start[turns + 1] = slot
        self.n = slot

    def after(self, turns: int) -> int:
        """The boundary after turn ``turns`` (0: the start)."""
        return self.start.get(turns + 1, self.n) if turns else 0


def _chart(a: Judged, f: _Frame) -> str:
    slots = _Slots(a)
    n = slots.n
    game = a.judged_by == "game"
    parts: list[str] = []
    # y axis: grid every 25%, title
    for k in range(5):
        p = k / 4
        y = f.y(p)
        parts.append(f'<line x1="{f.left}" y1="{y:.1f}" x2="{f.w - f.right}" y2="{y:.1f}" class="grid"/>'
                     f'<text x="{f.left - 6}" y="{y + 4:.1f}" class="tick" text-anchor="end">{k * 25}%</text>')
    mid = (f.top + f.h - f.bottom) / 2
    ytitle = "chance to win the game" if game else "chance of a trio this turn"
    parts.append(f'<text class="axis" transform="translate(14 {mid:.1f}) rotate(-90)" text-anchor="middle">'
                 f'{ytitle}</text>')
    # x axis: a tick at the start of each turn, numbered (thinned out when crowded)
    starts = [(slots.start[t], t) for t in sorted(slots.start) if slots.start[t] < n]
    every = max(1, -(-len(starts) // f.labels))
    base = f.h - f.bottom
    parts.append(f'<line x1="{f.left}" y1="{base}" x2="{f.w - f.right}" y2="{base}" class="axisline"/>')
    for k, (i, turn) in enumerate(starts):
        x = f.x(i, n) - (f.w - f.left - f.right) / max(n, 1) / 2
        parts.append(f'<line x1="{x:.1f}" y1="{f.top}" x2="{x:.1f}" y2="{base + 5}" class="turnline"/>')
        if k % every == 0:
            parts.append(f'<text x="{x + 2:.1f}" y="{base + 17}" class="tick">{turn}</text>')
    parts.append(f'<text x="{(f.left + f.w - f.right) / 2:.0f}" y="{f.h - 8}" class="axis" text-anchor="middle">'
                 f'turn (each point is one reveal)</text>')
    # judged by the game: each seat's chance to win after every turn, one line per side
    if game and a.curve:
        sides = [t[0] for t in a.teams] if a.teams else list(range(len(a.players)))
        for s in sides:
            colour = COLOURS[s % len(COLOURS)]
            pts = " ".join(f"{f.xb(slots.after(c.turns), n):.1f},{f.y(c.win_chance[s]):.1f}" for c in a.curve)
            parts.append(f'<polyline points="{pts}" class="seatline" stroke="{colour}"/>')
    # the best reveal's chance: a grey line
    if n:
        pts = " ".join(f"{f.x(slots.of[i], n):.1f},{f.y(_best_y(a, d)):.1f}" for i, d in enumerate(a.decisions))
        parts.append(f'<polyline points="{pts}" class="bestline"/>')
    # trios: a marker at the top of the turn's last reveal
    for (event, turn, seat, value) in a.trios:
        idx = [i for i, d in enumerate(a.decisions) if d.event == event]
        # the turn's last reveal judged, else the turn's own slot (a seat whose hand is unknown)
        x = f.x(slots.of[idx[-1]] if idx else slots.start[turn], n)
        colour = COLOURS[seat % len(COLOURS)]
        tip = _html(a, f"turn {turn}: {a.players[seat]} takes the trio of {value}s")
        parts.append(f'<g class="trio"><title>{tip}</title>'
                     f'<path d="M{x:.1f} {f.top - 4} l6 -10 h-12 z" fill="{colour}"/>'
                     f'<text x="{x:.1f}" y="{f.top - 16}" text-anchor="middle" class="triotext">{value}</text></g>')
    # the reveals played: one clickable dot each. Touch areas never overlap: a dot's reaches half way to the
    # next dot, a turn point's (drawn on top, half way between two dots) a quarter, so that a tap on a dot's
    # centre opens that dot, however many reveals the narrow chart holds
    spacing = (f.w - f.left - f.right) / max(n, 1)
    hit, cp_hit = min(12.0, spacing / 2), min(7.0, spacing / 4)
    for i, d in enumerate(a.decisions):
        colour = COLOURS[d.seat % len(COLOURS)]
        r = 6 if d.label in ("mistake", "blunder") else 4.5 if d.label else 3.5
        hollow = ' fill-opacity="0.25"' if not d.scored else ""
        best = "" if d.verdict == "within noise" else f", best {d.best}"  # as the tables name it
        tip = _html(a, f"turn {d.turn}, {a.players[d.seat]}: {d.played}={d.shown}{best}"
                          f"{', ' + d.verdict if d.verdict else ''}")
        parts.append(f'<g class="pt" data-i="{i}" tabindex="0" role="button"><title>{tip}</title>'
                     f'<circle cx="{f.x(slots.of[i], n):.1f}" cy="{f.y(_played_y(a, d)):.1f}" r="{hit:.1f}" class="hit"/>'
                     f'<circle cx="{f.x(slots.of[i], n):.1f}" cy="{f.y(_played_y(a, d)):.1f}" r="{r}" fill="{colour}"{hollow}/></g>')
    # the points of the win-chance lines, on top: one clickable dot per side and turn
    if game and a.curve:
        sides = [t[0] for t in a.teams] if a.teams else list(range(len(a.players)))
        for k, c in enumerate(a.curve):
            chances = ", ".join(f"{a.players[s]} {_pct(c.win_chance[s])}" for s in sides)
            # the point after turn t sits at the tick of turn t + 1, where that turn starts: both are said
            when = (f"after turn {c.turns}" + (f", before turn {c.turns + 1}" if k + 1 < len(a.curve) else "")
                    if c.turns else "start")
            tip = _html(a, f"{when}: {chances}")
            x = f.xb(slots.after(c.turns), n)
            parts.append(f'<g class="cp" data-k="{k}" tabindex="0" role="button"><title>{tip}</title>'
                         + "".join(f'<circle cx="{x:.1f}" cy="{f.y(c.win_chance[s]):.1f}" r="{cp_hit:.1f}" '
                                   'class="hit cphit"/>'
                                   f'<circle cx="{x:.1f}" cy="{f.y(c.win_chance[s]):.1f}" r="2.5" '
                                   f'fill="{COLOURS[s % len(COLOURS)]}"/>' for s in sides) + '</g>')
    return (f'<svg id="{f.id}" class="chart" viewBox="0 0 {f.w} {f.h}" preserveAspectRatio="xMidYMid meet" role="img" '
            f'xmlns="http://www.w3.org/2000/svg" aria-label="chance of a trio at each reveal">{"".join(parts)}</svg>')


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 0 auto; padding: 1em; max-width: 1180px; color: #222; }
/* a name may be one word of 200 letters: the page's text breaks it rather than grow wider than the screen */
body { overflow-wrap: break-word; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.4em; }
.wrap { overflow-x: auto; }
table { border-collapse: collapse; font-size: 13px; }
td, th { padding: 3px 6px; border-bottom: 1px solid #eee; text-align: left; white-space: nowrap; }
tr.blunder td { background: #fdd; } tr.mistake td { background: #fed; } tr.inaccuracy td { background: #ffe; }
tr.pick { cursor: pointer; } tr.pick:hover td { outline: 1px solid #99c; }
tr.unscored td { color: #888; }
td.rv { font-family: ui-monospace, monospace; }  /* the notation: l1 never reads as I1 */
.chartwrap { overflow-x: auto; }
.chart { width: 100%; height: auto; display: block; }
#chart { min-width: 620px; } #chart-phone { display: none; }
#players .short { display: none; } #players .who { white-space: nowrap; }
@media (max-width: 640px) {
  body { padding: 0.6em; }
  #chart { display: none; } #chart-phone { display: block; }
  #players { font-size: 12px; } #players td, #players th { padding: 3px 3px; }
  #players th, #players td:first-child, #players td:last-child { white-space: normal; }
  #players .long { display: none; } #players .short { display: inline; }
}
.chart .grid { stroke: #eee; } .chart .axisline { stroke: #888; } .chart .turnline { stroke: #ddd; }
.chart .tick { font-size: 11px; fill: #555; } .chart .axis { font-size: 12px; fill: #333; }
.chart .bestline { fill: none; stroke: #bbb; stroke-width: 1.5; stroke-dasharray: 4 3; }
.chart .seatline { fill: none; stroke-width: 2; opacity: 0.85; } .chart .cp { cursor: pointer; }
.chart .triotext { font-size: 11px; font-weight: bold; }
.chart .hit { fill: transparent; } .chart .pt { cursor: pointer; }
.chart .pt circle:not(.hit), .chart .cp circle:not(.hit) { pointer-events: none; }
.chart .pt.sel circle:not(.hit) { stroke: #000; stroke-width: 2; }
/* a legend entry stays on one line, unless it is longer than a line */
.legend span { margin-right: 1em; display: inline-block; max-width: calc(100% - 1em); }
#position { border: 1px solid #ccd; border-radius: 6px; padding: 0.6em 1em; background: #f8f9fc; min-height: 3em; }
#position pre { font-size: 14px; margin: 0.4em 0; white-space: pre; overflow-x: auto; }
#position pre .label { display: inline-block; }
/* a box wider than the screen scrolls sideways: a shadow on the side with more to see says so (the covers
   scroll with the content and hide the shadow at either end) */
.wrap, #position pre {
  background-image: linear-gradient(to right, var(--cover) 30%, transparent), linear-gradient(to left, var(--cover) 30%, transparent),
    linear-gradient(to right, rgba(0, 0, 0, 0.18), transparent), linear-gradient(to left, rgba(0, 0, 0, 0.18), transparent);
  background-position: left center, right center, left center, right center;
  background-repeat: no-repeat; background-size: 40px 100%, 40px 100%, 12px 100%, 12px 100%;
  background-attachment: local, local, scroll, scroll; --cover: #fff;
}
#position pre { --cover: #f8f9fc; }
ul.moments li { margin: 0.3em 0; } ul.moments li[data-pick] { cursor: pointer; }
ul.moments a { color: #135; text-decoration: underline; font-weight: 600; }
dl.labels dt { font-weight: bold; float: left; clear: left; width: 7em; } dl.labels dd { margin-left: 7.5em; }
"""

_SCRIPT = r"""
const data = JSON.parse(document.getElementById('analysis').textContent);
// a name holding a right-to-left letter or an Arabic digit (trio_solver._text.RTL_CLASS) between the Unicode
// isolates, as the page's own text has it (trio_solver._text.isolate): it never reorders the text around it
const RTL = /@RTL_CLASS@/u;
const names = data.names.map(n => RTL.test(n) ? '\u2068' + n + '\u2069' : n);
// the one format of a chance, as trio_solver.words.percent writes it (never 100% unless certain)
function pctN(p, digits) {
  const scale = 10 ** digits, x = p * 100 * scale;
  let n = Math.floor(x + 1e-9);
  if (x - n >= 0.5 - 1e-9) n += 1;
  if (p >= 1 - 1e-12) n = 100 * scale; else if (n >= 100 * scale) n = 100 * scale - 1;
  if (p > 0 && n === 0) return '<' + (1 / scale).toFixed(digits) + '%';
  return (n / scale).toFixed(digits) + '%';
}
function pct(p) { return pctN(p, 0); }
function pm(p, se) { return pctN(p, 1) + (se === null || se === undefined ? '' : ' \u00b1 ' + pctN(se, 1)); }
// a hand as the viewer knew it: ? unknown, * face up this turn, ^ the viewer's own card every player knows
function hand(h, viewer) {
  const pub = h.public || [], up = h.up || [];
  const cards = (h.cards || []).map((c, i) => (c === null ? '?' : String(c)) +
    (up[i] ? '*' : (h.seat === viewer && pub[i] ? '^' : ''))).join(' ');
  return '[' + cards + ']';
}
function trioText(pos, values) {
  const side = (pos.sides || []).find(sd => values.some(v => String(v) in sd.pairs_with));
  return values.map(v => {
    const pairs = side ? side.pairs_with[String(v)] : null;
    return pairs && pairs.length ? v + ' (pairs with ' + pairs.join(', ') + ')' : String(v);
  }).join(', ') || '-';
}
// the columns a label takes in the monospaced table, as trio_solver._text.width counts them: 2 for a wide
// character (CJK, most emoji), 0 for a combining mark, a joiner or a variation selector, else 1
function cols(t) {
  let n = 0;
  for (const ch of t) {
    const c = ch.codePointAt(0);
    if (/\p{M}/u.test(ch) || c === 0x200c || c === 0x200d || (c >= 0xfe00 && c <= 0xfe0f) ||
      (c >= 0xe0000 && c <= 0xe007f)) continue;
    n += (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) || (c >= 0xac00 && c <= 0xd7a3) ||
      (c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
      (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1faff) || (c >= 0x20000 && c <= 0x3fffd) ? 2 : 1;
  }
  return n;
}
// the table as the viewer saw it, one [label, rest] per line (label null: a line of its own)
function tableLines(pos, mover, viewer) {
  const lines = [];
  const hands = pos.hands.map(h => hand(h, viewer));
  const hw = Math.max(...hands.map(c => c.length));
  const teams = pos.teams || [];
  let marked = false;
  pos.hands.forEach((h, k) => {
    const mark = h.seat === mover ? '  <- to move' : '';
    const team = teams.find(t => t.includes(h.seat));
    marked = marked || hands[k].includes('^');
    lines.push([names[h.seat], hands[k].padEnd(hw) + '  trios: ' + trioText(pos, pos.trios[h.seat]) +
      (team ? '  team ' + team.join('+') : '') + mark]);
  });
  if (teams.length) {
    // the partners by name, as the text's table names them (team North & South (0+2))
    for (const sd of pos.sides) {
      lines.push(['team ' + sd.seats.map(s => names[s]).join(' & ') + ' (' + sd.seats.join('+') + ')',
        'trios ' + trioText(pos, sd.trios) + '; ' + sd.goal]);
    }
  }
  if (pos.centre.length) {
    lines.push(['centre', pos.centre.map(c => 'c' + c.slot + ':' +
      (!c.present ? '-' : (c.known === null ? '?' : c.known) + (c.face_up ? '*' : ''))).join(' ')]);
  }
  if (pos.turn.length) lines.push(['face up', pos.turn.join(' ')]);
  if (marked) lines.push([null, '(^: ' + names[viewer] + "'s card that every player knows)"]);
  return lines;
}
// the lines in a <pre>, each label in a box as wide as the widest: the columns line up whatever the
// width of a name's letters in the font
function tablePre(lines) {
  const pre = document.createElement('pre');
  const w = Math.max(...lines.map(([label]) => label === null ? 0 : cols(label)), 7);
  lines.forEach(([label, rest], k) => {
    if (label !== null) {
      const box = document.createElement('span');
      box.className = 'label';
      box.style.minWidth = w + 'ch';
      box.textContent = label;
      pre.appendChild(box);
    }
    pre.appendChild(document.createTextNode((label === null ? '' : '  ') + rest + (k + 1 < lines.length ? '\n' : '')));
  });
  return pre;
}
function select(kind, i) {
  document.querySelectorAll('.chart .pt').forEach(g => g.classList.toggle('sel', kind === 'pt' && Number(g.dataset.i) === i));
  document.querySelectorAll('.chart .cp').forEach(g => g.classList.toggle('sel', kind === 'cp' && Number(g.dataset.k) === i));
}
function showCurve(k) {
  const c = data.curve[k];
  select('cp', k);
  const el = document.getElementById('position');
  el.textContent = '';
  const head = document.createElement('p');
  head.textContent = (c.turns ? 'After turn ' + c.turns + (k + 1 < data.curve.length ? ', before turn ' + (c.turns + 1) : '')
    : 'At the start') + ' - the table as ' +
    (data.viewer === null || data.viewer === undefined ? 'a spectator' : names[data.viewer]) + ' sees it:';
  el.appendChild(head);
  el.appendChild(tablePre(tableLines(c.position, c.position.winner === null ? c.position.to_move : -1, data.viewer)));
  const verdict = document.createElement('p');
  verdict.id = 'verdict';
  verdict.textContent = 'Chance to win the game: ' + data.teams.map(t => t.map(x => names[x]).join(' & ') + ' ' +
    pct(c.win_chance[t[0]])).join(', ') + '.';
  el.appendChild(verdict);
}
function show(i) {
  const d = data.decisions[i];
  select('pt', i);
  const pos = d.position;
  const lines = tableLines(pos, d.seat, d.seat);
  const el = document.getElementById('position');
  el.textContent = '';
  const head = document.createElement('p');
  head.innerHTML = '';
  head.appendChild(document.createTextNode('Turn ' + d.turn + ', ' + names[d.seat] + ', reveal ' +
    (d.reveal_index + 1) + ' of the turn - the table as ' + names[d.seat] + ' saw it:'));
  el.appendChild(head);
  el.appendChild(tablePre(lines));
  const verdict = document.createElement('p');
  const g = d.p_game_played !== null && d.p_game_best !== null;
  let v = 'Played ' + d.played_text + ' (showed ' + d.shown + '): ' +
    (g ? 'chance to win the game ' + pct(d.p_game_played) +
      (d.follow_up ? ' (with ' + d.follow_up + ' next, the best follow-up)' : '') + ', ' : '') +
    'trio chance ' + pct(d.p_trio_played) +
    ', win now ' + pct(d.p_win_played) + '. ' +
    (d.verdict === 'within noise' ? '' :  // no better reveal is named when the loss is not told apart from 0
     'Best: ' + d.best_text + ': ' + (g ? 'chance to win the game ' + pct(d.p_game_best) + ', ' : '') +
     'trio chance ' + pct(d.p_trio_best) + ', win now ' + pct(d.p_win_best) + '. ');
  if (!d.scored) v += d.options > 1 ? 'A clear choice: the only sensible reveal (not scored).' : 'No choice (not scored).';
  else if (d.verdict === 'within noise')
    v += 'Loss ' + pm(d.loss, d.loss_stderr) + ': within the noise of the playouts, so no better reveal is named.';
  else v += 'Loss ' + (d.loss_low === null ? pm(d.loss, d.loss_stderr) :
    // one range, as the text; none for a loss known exactly (the range is one figure)
    pctN(d.loss_low, 1) === pctN(d.loss_high, 1) ? pctN(d.loss, 1) : pctN(d.loss, 1) + ' (likely ' +
    pctN(d.loss_low, 1) + ' to ' + pctN(d.loss_high, 1) + ')') + ': ' + (d.verdict || 'no label') + '.';
  verdict.textContent = v;
  verdict.id = 'verdict';
  el.appendChild(verdict);
}
document.querySelectorAll('.chart .pt').forEach(g => {
  g.addEventListener('click', () => show(Number(g.dataset.i)));
  g.addEventListener('keydown', e => { if (e.key === 'Enter') show(Number(g.dataset.i)); });
});
document.querySelectorAll('.chart .cp').forEach(g => {
  g.addEventListener('click', () => showCurve(Number(g.dataset.k)));
  g.addEventListener('keydown', e => { if (e.key === 'Enter') showCurve(Number(g.dataset.k)); });
});
document.querySelectorAll('[data-pick]').forEach(el => {
  el.addEventListener('click', () => { show(Number(el.dataset.pick));
    document.getElementById('position').scrollIntoView({block: 'nearest'}); });
});
"""


def _mover_chance(a: Judged, d: Any, p_win: float, p_trio: float) -> float:
    """For a reveal not played out: 1 when it wins the game for certain (``p_win``, its chance to win this
    turn); the mover's chance on the curve after the turn when it makes a trio for certain (``p_trio``: what
    the turn comes to is then known); else the mover's chance on the curve before decision ``d``."""
    if p_win >= 1 - 1e-9:
        return 1.0
    i = a.decisions.index(d)
    if p_trio >= 1 - 1e-9:
        after = [c for c in a.curve if c.decisions > i]
        if after:
            return float(after[0].win_chance[d.seat])
    before = [c for c in a.curve if c.decisions <= i]
    return before[-1].win_chance[d.seat] if before else 0.0


def _played_y(a: Judged, d: Any) -> float:
    if a.judged_by != "game":
        return float(d.p_trio_played)
    return float(d.p_game_played) if d.p_game_played is not None else _mover_chance(a, d, d.p_win_played, d.p_trio_played)


def _best_y(a: Judged, d: Any) -> float:
    if a.judged_by != "game":
        return float(d.p_trio_best)
    return float(d.p_game_best) if d.p_game_best is not None else _mover_chance(a, d, d.p_win_best, d.p_trio_best)


def _heads(*names: tuple[str, str]) -> str:
    """Table headings, each with a short form that a phone shows instead (:data:`_STYLE`)."""
    return "".join(f'<th><span class="long">{long}</span><span class="short" title="{long}">{short}</span></th>'
                   for long, short in names)


def _html(a: Judged, text: str) -> str:
    """``text`` for the page: HTML-escaped, each right-to-left player's name isolated (:func:`isolate`)."""
    return html.escape(isolate(text, a.players))


def _seat_rows(a: Judged) -> str:
    rows = []
    for s in a.seats:
        colour = COLOURS[s.seat % len(COLOURS)]
        acc = "-" if s.accuracy is None else f"{s.accuracy:.0%}"
        loss = "-" if s.average_loss is None else _pct(s.average_loss, 1)
        rows.append(f"<tr><td><span class='who'><span style='color:{colour}'>&#9679;</span> {_html(a, s.name)}</span>"
                    f"{' (won)' if s.won else ''}</td><td>{s.decisions}</td><td>{acc}</td><td>{loss}</td>"
                    f"<td>{s.inaccuracies}</td><td>{s.mistakes}</td><td>{s.blunders}</td>"
                    f"<td>{', '.join(map(str, s.trios)) or '-'}</td></tr>")
    return "".join(rows)


def _decision_rows(a: Judged) -> str:
    rows = []
    for i, d in enumerate(a.decisions):
        label = html.escape(d.verdict)
        cls = f"pick {d.label or ''}{'' if d.scored else ' unscored'}"
        rows.append(f"<tr class='{cls}' data-pick='{i}'><td>{d.turn}</td><td>{d.reveal_index + 1}</td>"
                    f"<td>{_html(a, a.players[d.seat])}</td><td class='rv'>{d.played}={d.shown}</td>"
                    f"<td class='rv'>{'-' if d.within_noise else d.best}</td>"
                    f"<td>{played_best(d, d.p_trio_played, d.p_trio_best)}</td>"
                    f"<td>{played_best(d, d.p_win_played, d.p_win_best)}</td>"
                    + (f"<td>{played_best(d, d.p_game_played, d.p_game_best)}</td>" if a.judged_by == "game" else "")
                    + f"<td>{_pm(d.loss, d.loss_stderr)}</td>"
                    f"<td>{label}</td></tr>")
    return "".join(rows)


def played_best(d: Any, played: float | None, best: float | None, sep: str = " / ") -> str:
    """A figure of decision ``d`` for the reveal played and the best, as the analysis's tables give it
    (``18% / 31%``): ``-`` for a figure not known, and for the best where no best is named (a loss within
    noise), so that a table shows no chance of a reveal it does not name."""
    if played is None or best is None:
        return "-"
    return f"{_pct(played)}{sep}{'-' if d.within_noise else _pct(best)}"


def _chart_text(a: Judged) -> str:
    if a.judged_by == "game":
        who = "a spectator" if a.viewer is None else _html(a, a.players[a.viewer])
        return (f"<p>The coloured lines are each player's chance to win the game after every turn, as {who} sees "
                "it (in team play, one line per team); a jump that no decision explains is luck. Each dot is a "
                "reveal, placed at the mover's chance to win the game after the reveal played; the dashed grey line "
                "is the same chance after the best reveal. The worse the label, the bigger the dot (an inaccuracy, "
                "larger a mistake or a blunder); faint dots were no real choice. Click a dot, a point of a line, a key moment or a row of the table to see the "
                "position.</p>")
    return ("<p>Each dot is a reveal, placed at the chance of a trio this turn that the reveal played kept; the dashed "
            "grey line is the chance the best reveal would have kept. The worse the label, the bigger the dot (an "
            "inaccuracy, larger a mistake or a blunder); faint dots were no real choice. Click a dot, a key moment or a row of the table to see the position.</p>")


def _labels_text(a: Judged) -> str:
    common = ("<dt>trio chance</dt><dd>the chance of taking a trio this turn, on the mover's own exact beliefs, "
              "with the best continuation after the reveal.</dd>"
              "<dt>win now</dt><dd>the chance of winning the game this turn.</dd>")
    if a.judged_by == "game":
        return common + (
            f"<dt>win game</dt><dd>the mover's chance to win the game, from up to {a.samples} playouts of the rest "
            "of the game on deals drawn from the mover's exact beliefs (every reveal on the same deals).</dd>"
            "<dt>loss</dt><dd>the drop in the chance to win the game: best reveal minus reveal played, with its "
            f"standard error. A label needs the loss to be above its threshold at {a.confidence:.0%} confidence; "
            "'perhaps a mistake' says the playouts stopped before the label was clear, and it may be that bad; "
            "'within noise' that the loss is not told apart from 0, so no better reveal is named, nor its chances "
            "('-'). A clear choice (the one sensible reveal) is not scored.</dd>"
            "<dt>inaccuracy</dt><dd>a loss of 5% or more;</dd>"
            "<dt>mistake</dt><dd>10% or more;</dd><dt>blunder</dt><dd>20% or more.</dd>")
    return common + ("<dt>loss</dt><dd>(trio chance + win now) of the best reveal minus that of the reveal played."
                     "</dd><dt>inaccuracy</dt><dd>a loss of 5% or more;</dd>"
                     "<dt>mistake</dt><dd>15% or more;</dd><dt>blunder</dt><dd>30% or more.</dd>")


def _moment(a: Judged, m: Any) -> str:
    """A key moment: one told by a decision opens it on a tap anywhere on it; its heading (``Turn 14, Bob, 1st
    reveal``) looks like a link, its story is plain text, easy to read on a phone."""
    if m.decision is None:
        return f"<li>{_html(a, m.text)}</li>"
    head, sep, story = m.text.partition(": ")
    return f"<li data-pick='{m.decision}'><a>{_html(a, head)}</a>{_html(a, sep + story)}</li>"


def page(a: Judged, title: str) -> str:
    """The whole page for analysis ``a``."""
    moments = "".join(_moment(a, m) for m in a.moments) or "<li>none</li>"
    legend = "".join(f'<span style="color:{COLOURS[s % len(COLOURS)]}">&#9679; {_html(a, n)}</span> '
                     for s, n in enumerate(a.players)) + " "
    if a.judged_by == "game" and a.curve and a.teams and len(a.teams[0]) > 1:  # one line per team
        legend += "".join(f'<span class="teamline" style="color:{COLOURS[t[0] % len(COLOURS)]}">&#8212; team '
                          f'{_html(a, " & ".join(a.players[s] for s in t))}</span> ' for t in a.teams)
    header = _html(a, a.header()).replace("\n", "<br>")
    title = html.escape(escape(title))  # a file name may hold control characters; names cannot
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{_STYLE}</style></head><body>
<h1>{title}</h1>
<p id="header">{header}</p>
<h2>Players</h2>
<div class="wrap"><table id="players"><tr><th>player</th><th>choices</th>{_heads(("accuracy", "acc."),
    ("average loss", "avg loss"), ("inaccuracies", "inacc."), ("mistakes", "mist."), ("blunders", "blund."))}<th>trios</th></tr>{_seat_rows(a)}</table></div>
<h2>Key moments</h2><ul class="moments">{moments}</ul>
<h2>The game in one chart</h2>
<p class="legend">{legend}<span>&#9660; a trio (its value above)</span> <span style="color:#999">- - best reveal</span></p>
<div class="chartwrap">{_chart(a, _WIDE)}{_chart(a, _NARROW)}</div>
{_chart_text(a)}
<div id="position"><p>Click a point of the chart to see the table as the mover saw it.</p></div>
<h2>What the labels mean</h2>
<dl class="labels">
{_labels_text(a)}
<dt>choices</dt><dd>reveals that were a real choice; a reveal with nothing to choose, or with one sensible
option that was played, is shown but not scored.</dd>
<dt>accuracy</dt><dd>{html.escape(a.accuracy_rule())}.</dd>
</dl>
<h2>Every reveal</h2>
<div class="wrap"><table id="decisions"><tr><th>turn</th><th>reveal</th><th>player</th><th>played</th><th>best</th>
<th>trio chance (played / best)</th><th>win now (played / best)</th>{"<th>win game (played / best)</th>" if a.judged_by == "game" else ""}<th>loss</th><th>label</th></tr>
{_decision_rows(a)}</table></div>
<script type="application/json" id="analysis">{embed_json(a.to_json())}</script>
<script>{_SCRIPT.replace("@RTL_CLASS@", RTL_CLASS)}</script>
</body></html>
"""
