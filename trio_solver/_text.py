"""Text from outside and text for people: one rule for every door. Internal to the package.

A character is *unsafe* when it can act on a terminal or a page beyond showing itself, or is not
text at all:

* the C0 and C1 control characters (NUL, BEL, BS, TAB, LF, CR, ESC, DEL, U+0080 to U+009F):
  they ring, move the cursor, clear the screen, retitle the window or forge a new output line;
* the line and paragraph separators U+2028 and U+2029 (line breaks to many editors and viewers);
* the bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to
  U+2069): they reorder the text that follows them, so what is shown is not what is there;
* the invisible characters that join or split nothing a reader sees (U+00AD soft hyphen, U+034F
  combining grapheme joiner, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, U+180E, U+200B
  zero-width space, U+2060 to U+2064, U+FEFF, the interlinear annotation marks U+FFF9 to U+FFFB,
  the musical formatting characters U+1D173 to U+1D17A, the tag characters U+E0000 to U+E007F):
  "Dan" and "Dan" with one of them are two different names that look the same (the zero-width joiner
  and non-joiner, U+200C and U+200D, and the variation selectors stay: emoji sequences and several
  scripts need them; :func:`name_key` leaves the variation selectors out when names are compared);
* lone surrogates (U+D800 to U+DFFF): JSON escapes can produce them, but they are not Unicode
  text and cannot be written as UTF-8.

:func:`trio_solver._args.check_text` refuses a name or an id that holds one (or is longer than
:data:`MAX_TEXT`), :func:`escape` writes each one of a text meant for people as a visible escape
(``\\x1b``), and :func:`csv_cell` keeps a spreadsheet from reading a cell as a formula. This module
imports nothing of the package, so that every module (errors included) can use it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
__all__ = ["MAX_TEXT", "UNSAFE", "first_unsafe", "describe", "escape", "csv_cell", "FORMULA_START", "name_key",
           "width", "pad", "isolate", "MAX_MARKS", "marks_run"]

#: The longest name or id accepted, in characters (a display name is a word or two).
MAX_TEXT = 200

#: The unsafe characters by kind (see the module's docstring), as inclusive ranges of code points;
#: :data:`UNSAFE` and :func:`describe` are both built from them.
_KINDS: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = (
    ("a control character", ((0x00, 0x1F), (0x7F, 0x9F))),
    ("a line separator", ((0x2028, 0x2029),)),
    ("a bidirectional formatting character", ((0x061C, 0x061C), (0x200E, 0x200F), (0x202A, 0x202E),
                                              (0x2066, 0x2069))),
    ("an invisible character", ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x115F, 0x1160), (0x180E, 0x180E),
                                (0x200B, 0x200B), (0x2060, 0x2064), (0x3164, 0x3164), (0xFEFF, 0xFEFF),
                                (0xFFA0, 0xFFA0), (0xFFF9, 0xFFFB), (0x1D173, 0x1D17A), (0xE0000, 0xE007F))),
    ("a lone surrogate, which is not Unicode text", ((0xD800, 0xDFFF),)),
)

#: One unsafe character.
UNSAFE = re.compile("[" + "".join(re.escape(chr(lo)) + ("-" + re.escape(chr(hi))) * (hi > lo)
                                  for _, ranges in _KINDS for lo, hi in ranges) + "]")

#: The most combining marks (accents, vowel signs: Unicode's categories Mn and Me) one letter of a name
#: may carry. Real writing stacks at most three or four (Vietnamese, pointed Hebrew, Tibetan); a pile
#: of dozens ("zalgo" text) draws over the lines above and below it on a page.
MAX_MARKS = 4

#: The variation selectors (U+FE00 to U+FE0F, U+E0100 to U+E01EF): they choose a glyph's style (an
#: emoji's colour), not a different character.
_VARIATION = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]")

#: What a spreadsheet may read as the start of a formula (OWASP's list for CSV injection, CWE-1236).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def first_unsafe(text: str) -> str | None:
    """The first unsafe character of ``text``, or ``None`` when it has none."""
    m = UNSAFE.search(text)
    return None if m is None else m.group()


def _escaped(c: str) -> str:
    n = ord(c)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n <= 0xFFFF else f"\\U{n:08x}"


def describe(c: str) -> str:
    """An unsafe character in words, for an error message: ``a control character (\\x1b)``."""
    n = ord(c)
    kind = next((kind for kind, ranges in _KINDS if any(lo <= n <= hi for lo, hi in ranges)), "a character")
    return f"{kind} ({_escaped(c)})"


def escape(text: str, keep: str = "") -> str:
    """``text`` with every unsafe character but those in ``keep`` written as a visible escape
    (``\\x1b``, ``\\u202e``): safe to write to a terminal or into a page as text."""
    if UNSAFE.search(text) is None:
        return text
    return UNSAFE.sub(lambda m: m.group() if m.group() in keep else _escaped(m.group()), text)


def name_key(name: str) -> str:
    """What two names are compared by, so that two that look the same are one player: the Unicode
    composed form (NFC: "Å" typed as one character or as "A" and a ring) without variation selectors."""
    return _VARIATION.sub("", unicodedata.normalize("NFC", name))


def csv_cell(text: str) -> str:
    """A text cell as a spreadsheet must show it: one that starts like a formula (``=``, ``+``,
    ``-``, ``@``, tab, carriage return) gets a leading ``'``, which spreadsheets read as "text"."""
    return "'" + text if text.startswith(FORMULA_START) else text


def width(text: str) -> int:
    """The columns ``text`` takes on a terminal: 2 for a wide character (East Asian wide and full-width
    characters, most emoji), 0 for a combining mark, a joiner or a variation selector, else 1. (An emoji
    sequence joined by U+200D is counted as its parts: terminals differ on it.)"""
    n = 0
    for c in text:
        if unicodedata.combining(c) or c in "\u200c\u200d" or _VARIATION.match(c):
            continue
        n += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return n


def pad(text: str, columns: int) -> str:
    """``text`` followed by spaces up to ``columns`` terminal columns (:func:`width`), for tables that line
    up whatever the names hold."""
    return text + " " * max(0, columns - width(text))


def _right_to_left(name: str) -> bool:
    return any(unicodedata.bidirectional(c) in ("R", "AL") for c in name)


def isolate(text: str, names: Sequence[str]) -> str:
    """``text`` with every occurrence of a name written right to left (one holding a Hebrew, Arabic or
    other right-to-left letter) between U+2068 and U+2069, the Unicode isolates, for a page.

    Without them a browser's bidirectional algorithm joins the neutral and numeric characters next to
    such a name to it and shows them reversed: "Turn 3, نور, played l1=2 [1 2 3]" would show the hand
    as [3 2 1]. The isolates are invisible and keep the name's order to itself. A name of left-to-right
    letters needs none and is left as it is; the longest names are matched first."""
    rtl = sorted({n for n in names if n and _right_to_left(n)}, key=len, reverse=True)
    if not rtl:
        return text
    return re.sub("|".join(map(re.escape, rtl)), lambda m: "\u2068" + m.group(0) + "\u2069", text)


def marks_run(text: str) -> int:
    """The longest run of combining marks (categories Mn and Me) in ``text``: the most marks one letter
    carries."""
    longest = run = 0
    for c in text:
        run = run + 1 if unicodedata.category(c) in ("Mn", "Me") else 0
        longest = max(longest, run)
    return longest
