"""How the library's objects show themselves in a notebook, without importing the drawing code.

``Game``, ``PlayerView``, ``Beliefs``, ``Advice`` and ``Analysis`` define ``_repr_html_`` by calling
:func:`html_of`. :mod:`trio_solver.report.notebook`, which needs all of those classes, registers its drawing
functions here when it is imported, which :func:`html_of` does the first time a picture is asked for:
the classes never import the module that imports them, and the package keeps its one flow of imports.
"""

from __future__ import annotations

import html
import importlib
from collections.abc import Callable
from typing import Any

__all__ = ["register", "html_of"]

_DRAW: dict[type, Callable[[Any], str]] = {}


def register(cls: type, draw: Callable[[Any], str]) -> None:
    """Draw instances of ``cls`` (and of its subclasses) with ``draw``."""
    _DRAW[cls] = draw


def html_of(obj: object) -> str:
    """The HTML picture of ``obj`` registered for its class (the nearest in its MRO), else its
    ``repr`` escaped in a ``<pre>``."""
    if not _DRAW:
        importlib.import_module("trio_solver.report.notebook")  # registers the drawings
    for klass in type(obj).__mro__:
        draw = _DRAW.get(klass)
        if draw is not None:
            return draw(obj)
    return f"<pre>{html.escape(repr(obj))}</pre>"
