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
  scripts need them; :func:`name_key` leaves them out when names are compared);
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
           "width", "pad", "isolate", "right_to_left", "RTL_CLASS", "MAX_MARKS", "marks_run", "blank"]

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
_VARIATIONS = "\ufe00-\ufe0f\U000e0100-\U000e01ef"
_VARIATION = re.compile(f"[{_VARIATIONS}]")
#: What :func:`name_key` leaves out: the variation selectors and the zero-width joiner and non-joiner.
_UNSEEN = re.compile(f"[{_VARIATIONS}\u200c\u200d]")

#: What a spreadsheet may read as the start of a formula (OWASP's list for CSV injection, CWE-1236).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


#: The flags of England, Scotland and Wales: a black flag, tag letters (``gbeng``...) and the cancel tag,
#: the only use of the tag characters Unicode recommends for display. They are text a reader sees, so
#: their tags are not unsafe there (anywhere else, tags are invisible text).
_FLAGS = "\U0001f3f4\U000e0067\U000e0062(?:\U000e0065\U000e006e\U000e0067|\U000e0073\U000e0063\U000e0074|" \
         "\U000e0077\U000e006c\U000e0073)\U000e007f"

#: An unsafe character, or one of :data:`_FLAGS` (group 1), which is skipped.
_SCAN = re.compile(f"({_FLAGS})|{UNSAFE.pattern}")


def first_unsafe(text: str) -> str | None:
    """The first unsafe character of ``text``, or ``None`` when it has none."""
    if UNSAFE.search(text) is None:
        return None
    return next((m.group() for m in _SCAN.finditer(text) if m.group(1) is None), None)


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
    return _SCAN.sub(lambda m: m.group() if m.group(1) is not None or m.group() in keep else _escaped(m.group()),
                     text)


def name_key(name: str) -> str:
    """What two names are compared by, so that two that look the same, or differ only in capitals, are
    one player: the Unicode composed form (NFC: "Å" typed as one character or as "A" and a ring) without
    variation selectors or the zero-width joiner and non-joiner, in lower case (Unicode's case folding:
    "Dan", "dan" and "DAN" are the same name written down at three tables), its spaces of any kind (a
    no-break space, an ideographic one) as one plain space between words and none at either end ("Bob",
    "Bob " and "Bob\u200d" are one name)."""
    folded = unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())
    return " ".join(_UNSEEN.sub("", folded).split())


def csv_cell(text: str) -> str:
    """A text cell as a spreadsheet must show it: one that starts like a formula (``=``, ``+``,
    ``-``, ``@``, tab, carriage return) gets a leading ``'``, which spreadsheets read as "text"."""
    return "'" + text if text.startswith(FORMULA_START) else text


def width(text: str) -> int:
    """The columns ``text`` takes on a terminal: 2 for a wide character (East Asian wide and full-width
    characters, most emoji), 0 for a combining mark, a joiner, a variation selector or a tag (of a flag),
    else 1. (An emoji sequence joined by U+200D is counted as its parts: terminals differ on it.)"""
    n = 0
    for c in text:
        if (unicodedata.combining(c) or c in "\u200c\u200d" or _VARIATION.match(c)
                or "\U000e0000" <= c <= "\U000e007f"):
            continue
        n += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return n


def blank(name: str) -> bool:
    """Whether ``name`` shows nothing: only spaces and characters of no width (a joiner, a combining mark
    on nothing)."""
    return all(c.isspace() or width(c) == 0 for c in name)


def pad(text: str, columns: int) -> str:
    """``text`` followed by spaces up to ``columns`` terminal columns (:func:`width`), for tables that line
    up whatever the names hold."""
    return text + " " * max(0, columns - width(text))


#: The characters of Unicode's bidirectional classes R, AL and AN (the right-to-left letters, the Arabic
#: digits), as inclusive ranges of code points: Unicode 14 (Python 3.11's database). One table for the
#: library and the pages: :data:`RTL_CLASS` is the same set for a JavaScript ``/.../u`` pattern, which the
#: report embeds and the board's script holds as a copy (tests hold the three equal).
_RTL_RANGES: tuple[tuple[int, int], ...] = (
    (0x05BE, 0x05BE), (0x05C0, 0x05C0), (0x05C3, 0x05C3), (0x05C6, 0x05C6), (0x05D0, 0x05EA), (0x05EF, 0x05F4),
    (0x0600, 0x0605), (0x0608, 0x0608), (0x060B, 0x060B), (0x060D, 0x060D), (0x061B, 0x064A), (0x0660, 0x0669),
    (0x066B, 0x066F), (0x0671, 0x06D5), (0x06DD, 0x06DD), (0x06E5, 0x06E6), (0x06EE, 0x06EF), (0x06FA, 0x070D),
    (0x070F, 0x0710), (0x0712, 0x072F), (0x074D, 0x07A5), (0x07B1, 0x07B1), (0x07C0, 0x07EA), (0x07F4, 0x07F5),
    (0x07FA, 0x07FA), (0x07FE, 0x0815), (0x081A, 0x081A), (0x0824, 0x0824), (0x0828, 0x0828), (0x0830, 0x083E),
    (0x0840, 0x0858), (0x085E, 0x085E), (0x0860, 0x086A), (0x0870, 0x088E), (0x0890, 0x0891), (0x08A0, 0x08C9),
    (0x08E2, 0x08E2), (0x200F, 0x200F), (0xFB1D, 0xFB1D), (0xFB1F, 0xFB28), (0xFB2A, 0xFB36), (0xFB38, 0xFB3C),
    (0xFB3E, 0xFB3E), (0xFB40, 0xFB41), (0xFB43, 0xFB44), (0xFB46, 0xFBC2), (0xFBD3, 0xFD3D), (0xFD50, 0xFD8F),
    (0xFD92, 0xFDC7), (0xFDF0, 0xFDFC), (0xFE70, 0xFE74), (0xFE76, 0xFEFC), (0x10800, 0x10805),
    (0x10808, 0x10808), (0x1080A, 0x10835), (0x10837, 0x10838), (0x1083C, 0x1083C), (0x1083F, 0x10855),
    (0x10857, 0x1089E), (0x108A7, 0x108AF), (0x108E0, 0x108F2), (0x108F4, 0x108F5), (0x108FB, 0x1091B),
    (0x10920, 0x10939), (0x1093F, 0x1093F), (0x10980, 0x109B7), (0x109BC, 0x109CF), (0x109D2, 0x10A00),
    (0x10A10, 0x10A13), (0x10A15, 0x10A17), (0x10A19, 0x10A35), (0x10A40, 0x10A48), (0x10A50, 0x10A58),
    (0x10A60, 0x10A9F), (0x10AC0, 0x10AE4), (0x10AEB, 0x10AF6), (0x10B00, 0x10B35), (0x10B40, 0x10B55),
    (0x10B58, 0x10B72), (0x10B78, 0x10B91), (0x10B99, 0x10B9C), (0x10BA9, 0x10BAF), (0x10C00, 0x10C48),
    (0x10C80, 0x10CB2), (0x10CC0, 0x10CF2), (0x10CFA, 0x10D23), (0x10D30, 0x10D39), (0x10E60, 0x10E7E),
    (0x10E80, 0x10EA9), (0x10EAD, 0x10EAD), (0x10EB0, 0x10EB1), (0x10F00, 0x10F27), (0x10F30, 0x10F45),
    (0x10F51, 0x10F59), (0x10F70, 0x10F81), (0x10F86, 0x10F89), (0x10FB0, 0x10FCB), (0x10FE0, 0x10FF6),
    (0x1E800, 0x1E8C4), (0x1E8C7, 0x1E8CF), (0x1E900, 0x1E943), (0x1E94B, 0x1E94B), (0x1E950, 0x1E959),
    (0x1E95E, 0x1E95F), (0x1EC71, 0x1ECB4), (0x1ED01, 0x1ED3D), (0x1EE00, 0x1EE03), (0x1EE05, 0x1EE1F),
    (0x1EE21, 0x1EE22), (0x1EE24, 0x1EE24), (0x1EE27, 0x1EE27), (0x1EE29, 0x1EE32), (0x1EE34, 0x1EE37),
    (0x1EE39, 0x1EE39), (0x1EE3B, 0x1EE3B), (0x1EE42, 0x1EE42), (0x1EE47, 0x1EE47), (0x1EE49, 0x1EE49),
    (0x1EE4B, 0x1EE4B), (0x1EE4D, 0x1EE4F), (0x1EE51, 0x1EE52), (0x1EE54, 0x1EE54), (0x1EE57, 0x1EE57),
    (0x1EE59, 0x1EE59), (0x1EE5B, 0x1EE5B), (0x1EE5D, 0x1EE5D), (0x1EE5F, 0x1EE5F), (0x1EE61, 0x1EE62),
    (0x1EE64, 0x1EE64), (0x1EE67, 0x1EE6A), (0x1EE6C, 0x1EE72), (0x1EE74, 0x1EE77), (0x1EE79, 0x1EE7C),
    (0x1EE7E, 0x1EE7E), (0x1EE80, 0x1EE89), (0x1EE8B, 0x1EE9B), (0x1EEA1, 0x1EEA3), (0x1EEA5, 0x1EEA9),
    (0x1EEAB, 0x1EEBB),
)

#: :data:`_RTL_RANGES` as a JavaScript character class (``\\u{...}``, for a pattern with the ``u`` flag).
RTL_CLASS = "[" + "".join(f"\\u{{{lo:x}}}" + (f"-\\u{{{hi:x}}}" if hi > lo else "") for lo, hi in _RTL_RANGES) + "]"

_RTL = re.compile("[" + "".join(re.escape(chr(lo)) + ("-" + re.escape(chr(hi))) * (hi > lo)
                                for lo, hi in _RTL_RANGES) + "]")


def right_to_left(name: str) -> bool:
    """Whether ``name`` holds a right-to-left letter or an Arabic digit (:data:`_RTL_RANGES`): a character
    that pulls the figures and words beside it out of order on a page."""
    return _RTL.search(name) is not None


def isolate(text: str, names: Sequence[str]) -> str:
    """``text`` with every occurrence of a name written right to left (:func:`right_to_left`: one holding
    a Hebrew, Arabic or other right-to-left letter, or an Arabic digit) between U+2068 and U+2069, the
    Unicode isolates, for a page.

    Without them a browser's bidirectional algorithm joins the neutral and numeric characters next to
    such a name to it and shows them reversed: "Turn 3, نور, played l1=2 [1 2 3]" would show the hand
    as [3 2 1]. The isolates are invisible and keep the name's order to itself. A name of left-to-right
    letters needs none and is left as it is; the longest names are matched first."""
    rtl = sorted({n for n in names if n and right_to_left(n)}, key=len, reverse=True)
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
