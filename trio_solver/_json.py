"""Small helpers shared by the JSON readers (records, events, positions): strict parsing
and one-line messages about what a value is. Internal to the package."""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Iterator
from typing import Any, NoReturn

from ._args import show as _show
from ._text import describe
from .errors import RecordError

__all__ = ["fail", "is_int", "kind", "key_text", "json_object", "strings", "strict_loads"]


def fail(where_: str, reason: str, event: int | None = None) -> NoReturn:
    """Raise the :class:`RecordError` for ``where_``."""
    raise RecordError(where_, reason, event=event)


def is_int(x: Any) -> bool:
    """Whether ``x`` is a JSON integer (``bool`` is not)."""
    return isinstance(x, int) and not isinstance(x, bool)


def kind(x: Any) -> str:
    """What a JSON value is, in words: ``"a list"`` (a value JSON has no word for, by its Python type)."""
    word = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null",
            int: "a number", float: "a number"}.get(type(x))
    return word if word is not None else f"a {type(x).__name__} (not a JSON value)"


def key_text(key: object) -> str:
    """A JSON key as it may appear in a one-line message (quoted when it holds control characters)."""
    return key if isinstance(key, str) and key.isprintable() else _show(key)


def json_object(raw: Any, loc: str, allowed: tuple[str, ...]) -> dict[str, Any]:
    """``raw`` as a JSON object whose keys are all in ``allowed`` (else :class:`RecordError`)."""
    if not isinstance(raw, dict):
        fail(loc, f"expected an object, got {kind(raw)}")
    for key in raw:
        if key not in allowed:
            fail(f"{loc}.{key_text(key)}" if loc else key_text(key), f"unknown key (allowed: {', '.join(allowed)})")
    return raw


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"duplicate key {_show(k)}")
        out[k] = v
    return out


def _bad_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not allowed")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {_show(text)} is beyond the range of a float")
    return value


#: A ``\\uD800``-``\\uDFFF`` escape in JSON text, or a surrogate in a ``str``: only then can a parsed
#: string hold a lone surrogate, so only then are the strings walked.
_MAY_HOLD_SURROGATE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}|[\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def strings(data: Any) -> Iterator[tuple[str, str]]:
    """Every string of a parsed JSON value, keys and values, with its place (``names[0]``, ``a.b``;
    ``""`` for ``data`` itself)."""
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        value, place = stack.pop()
        if isinstance(value, str):
            yield place, value
        elif isinstance(value, dict):
            for key, item in value.items():
                inner = f"{place}.{key_text(key)}" if place else key_text(key)
                yield inner, key
                stack.append((item, inner))
        elif isinstance(value, list):
            stack.extend((item, f"{place}[{k}]") for k, item in enumerate(value))


def _utf8_text(data: Any) -> bool:
    """Whether every string of parsed ``data`` can be written as UTF-8 (holds no lone surrogate): one
    pass of the compiled encoder, so that a record full of emoji escapes (surrogate pairs, which are
    text) is not walked string by string in Python."""
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, RecursionError):  # the encoder recurses a little deeper than the parser:
        return False  # the strings are then walked, without recursion
    return True


def strict_loads(text: str, what: str = "record") -> Any:
    """Parse JSON text, refusing duplicate keys, NaN/Infinity and numbers beyond a float
    (``1e999``), over-long integers, deep nesting, and strings that are not Unicode text (a lone
    surrogate, from an escape such as ``\\ud800``: such a string cannot be written out as UTF-8).

    Raises :class:`RecordError`: ``what`` for the text as a whole, the key path (``names[0]``)
    for a string that is not Unicode text."""
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_bad_constant,
                          parse_float=_finite)
    except json.JSONDecodeError as e:
        # the decoder's "Unterminated string starting at" names its place itself: one "at", not two
        raise RecordError(what, f"not valid JSON: {e.msg.removesuffix(' at')} at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise RecordError(what, "JSON nested too deeply") from None
    except ValueError as e:  # duplicate keys, NaN, numbers beyond a float, over-long integers
        if "integer string conversion" in str(e):  # Python's own words name a setting of Python
            raise RecordError(what, f"not valid JSON: an integer of more than {sys.get_int_max_str_digits()} "
                                    "digits") from None
        raise RecordError(what, f"not valid JSON: {e}") from None
    if _MAY_HOLD_SURROGATE.search(text) is not None and not _utf8_text(data):
        for place, string in strings(data):
            m = _SURROGATE.search(string)
            if m is not None:
                raise RecordError(place or what, f"holds {describe(m.group())}")
    return data
