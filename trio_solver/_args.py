"""Checks of public arguments: each raises the given TrioError subclass with one line naming the argument.

Kept free of the package's other modules so that every layer can use it.
"""

from __future__ import annotations

import itertools
import random
import reprlib
from enum import EnumMeta
from collections.abc import Iterator
from typing import Any

from ._text import MAX_MARKS, MAX_TEXT, describe, first_unsafe, marks_run
from .errors import TrioError


def show(value: Any, width: int = 40) -> str:
    """A short one-line picture of any value, in the notation of the JSON it most often comes from
    (``null``, ``true``, ``"text"``, ``[1, 2]``; other objects by their ``repr``): non-printable
    characters escaped, huge numbers named by size, long pictures cut to ``width`` with ``...``."""
    try:
        text = _notation(value, 0, width)
    except Exception:  # noqa: BLE001 - a hostile __repr__ or __str__ must not escape
        text = f"<{type(value).__name__}>"
    if len(text) <= width:
        return text
    # a string cut keeps its closing quote, so that the message reads as one quoted value
    return text[:width] + ('..."' if text.startswith('"') else "...")


#: Items of a list or object, and characters of a string, shown in a message; the rest are ``...``.
_ITEMS, _TEXT = 20, 200
#: The picture of a value that is not JSON's kind (a set, bytes, an object): Python's, bounded alike.
_REPR = reprlib.Repr()
_REPR.maxlevel = 4
_REPR.maxtuple = _REPR.maxlist = _REPR.maxarray = _REPR.maxdict = _REPR.maxset = _REPR.maxfrozenset = \
    _REPR.maxdeque = _ITEMS
_REPR.maxstring = _REPR.maxlong = _REPR.maxother = _TEXT


def _notation(value: Any, depth: int, width: int) -> str:
    """``value`` in JSON notation where it is JSON's kind of value, else its ``repr`` (nested
    containers beyond a few levels, items past the first :data:`_ITEMS`, and the items of a container
    once its picture is longer than ``width``, as ``...``, so that the picture stays small whatever the
    value's size)."""
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, int) and abs(value) >= 10**12:
        return f"a {value.bit_length()}-bit integer"
    if type(value) in (int, float):
        return repr(value)
    if isinstance(value, str):
        return '"' + "".join(_char(c) for c in value[:_TEXT]) + "..." * (len(value) > _TEXT) + '"'
    if depth > 3:
        return "..."
    if type(value) in (list, tuple):
        return "[" + _items((_notation(v, depth + 1, width) for v in value[:_ITEMS]), len(value), width) + "]"
    if type(value) is dict:
        return "{" + _items((f"{_notation(k, depth + 1, width)}: {_notation(v, depth + 1, width)}"
                             for k, v in itertools.islice(value.items(), _ITEMS)), len(value), width) + "}"
    if isinstance(value, (bytes, bytearray, set, frozenset)) and len(value) > _ITEMS:
        return f"<{type(value).__name__} of {len(value)} {'bytes' if isinstance(value, (bytes, bytearray)) else 'items'}>"
    return " ".join(_REPR.repr(value).split())  # on one line, its size bounded as a JSON value's


def _items(parts: Iterator[str], count: int, width: int) -> str:
    """The pictures of a container's items, joined, drawn only until they are longer than ``width``
    (the rest, and the items past the first :data:`_ITEMS`, as one ``...``)."""
    out: list[str] = []
    size = 0
    for part in parts:
        out.append(part)
        size += len(part) + 2
        if size > width:  # the next item would not be seen: it is not drawn
            break
    return ", ".join(out + ["..."] * (len(out) < count))


_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _char(c: str) -> str:
    """One character of a string's picture: quotes, backslashes and non-printable characters escaped."""
    if c in '"\\':
        return "\\" + c
    if c.isprintable():
        return c
    if c in _ESCAPES:
        return _ESCAPES[c]
    code = ord(c)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def is_int(value: Any) -> bool:
    """An ``int`` that is not a ``bool``."""
    return isinstance(value, int) and not isinstance(value, bool)


#: The seeds the library takes: an integer of 64 bits with its sign.
SEED_RANGE = (-(2**63), 2**63 - 1)


def seeded(name: str, value: Any, error: type[TrioError]) -> random.Random:
    """A generator for seed ``value`` (an integer of 64 bits with its sign), else raise ``error`` naming
    ``name``. A negative seed has a generator of its own: :class:`random.Random` takes ``-s`` as ``s``, so
    seeds 1 and -1 would deal the same games."""
    seed = int_in(name, value, *SEED_RANGE, error)
    return random.Random(seed if seed >= 0 else f"trio seed {seed}")


def bot(name: str, value: Any, error: type[TrioError]) -> Any:
    """``value`` if it plays as a bot does (a ``name`` string, ``choose_reveal`` and ``choose_swap``),
    else raise ``error`` naming ``name``."""
    if not (isinstance(getattr(value, "name", None), str) and callable(getattr(value, "choose_reveal", None))
            and callable(getattr(value, "choose_swap", None))):
        raise error(f"{name}: expected a bot (an object with a name, choose_reveal and choose_swap), got "
                    f"{show(value)}")
    return value


def int_in(name: str, value: Any, lo: int, hi: int, error: type[TrioError], what: str = "an integer") -> int:
    """``value`` if it is an integer ``lo..hi``; else raise ``error`` naming ``name``."""
    if not is_int(value) or not lo <= value <= hi:
        raise error(f"{name}: expected {what} {lo} to {hi}, got {show(value)}")
    return int(value)


def number_in(name: str, value: Any, lo: float, hi: float, error: type[TrioError]) -> float:
    """``value`` as a float if it is a number ``lo..hi`` (an int of any size or a float; NaN and
    booleans refused); else raise ``error`` naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:
        raise error(f"{name}: expected a number from {lo} to {hi}, got {show(value)}")
    return float(value)


def seat(name: str, value: Any, players: int, error: type[TrioError], *, none: bool = False) -> int | None:
    """A seat number ``0..players-1`` (or ``None`` when ``none``)."""
    if value is None and none:
        return None
    if not is_int(value) or not 0 <= value < players:
        extra = " or null" if none else ""
        raise error(f"{name}: expected a seat 0 to {players - 1}{extra}, got {show(value)}")
    return int(value)


def card(name: str, value: Any, error: type[TrioError]) -> int:
    """A card value 1..12."""
    return int_in(name, value, 1, 12, error, "a card value")


def read_weight(name: str, value: Any, error: type[TrioError]) -> float | None:
    """``None``, or a weight in (0, 1] as a float (NaN and booleans refused)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 1:
        raise error(f"{name}: expected null or a weight in (0, 1], got {show(value)}")
    return float(value)


def check_text(name: str, value: Any, error: type[TrioError], what: str = "a string") -> str:
    """``value`` if it is a string of at most :data:`~trio_solver._text.MAX_TEXT` characters with no
    unsafe character (:mod:`trio_solver._text`: controls, line separators, bidirectional formatting,
    lone surrogates) and no letter with more than :data:`~trio_solver._text.MAX_MARKS` combining marks:
    the check of names and ids at every door. Else raise ``error`` naming ``name``."""
    if not isinstance(value, str):
        raise error(f"{name}: expected {what}, got {show(value)}")
    if len(value) > MAX_TEXT:
        raise error(f"{name}: longer than {MAX_TEXT} characters ({len(value)})")
    bad = first_unsafe(value)
    if bad is not None:
        raise error(f"{name}: holds {describe(bad)}; names and ids are plain text")
    marks = marks_run(value)
    if marks > MAX_MARKS:
        raise error(f"{name}: holds a letter with {marks} combining marks (at most {MAX_MARKS}); names and ids "
                    "are plain text")
    return value


def boolean(name: str, value: Any, error: type[TrioError]) -> bool:
    """``True`` or ``False`` exactly."""
    if not isinstance(value, bool):
        raise error(f"{name}: expected true or false, got {show(value)}")
    return value


def rng(name: str, value: Any, error: type[TrioError]) -> random.Random:
    """A :class:`random.Random` (the library's randomness always comes from a given generator)."""
    if not isinstance(value, random.Random):
        raise error(f"{name}: expected a random.Random, got {type(value).__name__}")
    return value


def instance(name: str, value: Any, cls: type[Any], error: type[TrioError]) -> Any:
    """``value`` if it is a ``cls``."""
    if not isinstance(value, cls):
        raise error(f"{name}: expected {cls.__name__}, got {type(value).__name__}")
    return value


class ChoiceMeta(EnumMeta):
    """Metaclass of the library's enums: a lookup of an unknown value always ends in the enum's
    ``_missing_`` (which raises a :class:`TrioError`), even for values whose ``repr`` fails
    (a 5,000-digit number)."""

    def __call__(cls, value: Any, *args: Any, **kwargs: Any) -> Any:
        if args or kwargs:  # the functional API (Enum("Name", "A B")): unchanged
            return super().__call__(value, *args, **kwargs)
        try:
            return super().__call__(value)
        except TrioError:
            raise
        except (ValueError, TypeError):
            return getattr(cls, "_missing_")(value)
