"""The HTTP service's settings that the command line checks before the service (and FastAPI) loads, so
that a bad value is a usage error: the host names it may answer to (``serve --allow-host``), one check
shared with the service (:class:`~trio_solver.doors.service.HostCheck`), the address it listens on, and the bounds of
its workers and queue, and the origins of the pages that may call it (``serve --cors``)."""

from __future__ import annotations

import ipaddress
import re

from .._args import show
from .._text import UNSAFE
from ..errors import RunError

__all__ = ["MAX_QUEUE", "MAX_WORKERS", "cors_origin", "host_pattern", "listen_host"]

#: The most worker processes a service takes (``serve --workers``).
MAX_WORKERS = 1024
#: The most requests waiting or running a service takes (``serve --queue``).
MAX_QUEUE = 1_000_000


def host_pattern(text: str) -> str:
    """A name for ``allow_hosts`` (``--allow-host``): a host name or address, ``*.example.org``
    (that domain's subdomains) or ``*`` (any Host; for a proxy that checks it itself), in lower case.
    Raises :class:`~trio_solver.errors.RunError` for anything else."""
    name = text.strip().lower().rstrip(".") if isinstance(text, str) else ""
    if name.startswith("[") and name.endswith("]"):  # an IPv6 address as written in a URL
        name = name[1:-1]
    body = name[2:] if name.startswith("*.") else name
    if name != "*" and (not _plausible(body, "[]") or body.startswith((".", "-"))):
        raise RunError(f"allow_hosts: expected a host name, *.DOMAIN or *, got {show(text)}")
    return name


#: A host name of an origin, in lower case: dot-separated labels of letters, digits and inner hyphens
#: (an IPv4 address is one too).
_NAME = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*")


def cors_origin(text: str) -> str:
    """An origin whose pages may call the service (``cors``, ``--cors``): ``*`` (any), or
    ``http://HOST`` or ``https://HOST``, with ``:PORT`` or without, as a browser sends it in ``Origin``
    (in lower case; a final ``/`` is dropped). Raises :class:`~trio_solver.errors.RunError` for anything
    else: a path, another scheme, ``null``, a character that is not a host's."""
    origin = text.strip().lower() if isinstance(text, str) else ""
    if origin == "*":
        return origin
    origin = origin[:-1] if origin.endswith("/") else origin
    scheme, sep, rest = origin.partition("://")
    if rest.startswith("["):  # an IPv6 address: [::1]:8080
        end = rest.find("]") + 1
        valid = end > 0 and _is_ipv6(rest[1:end - 1])
    else:
        end = len(rest.partition(":")[0])
        valid = _NAME.fullmatch(rest[:end]) is not None and end <= 253
    port = rest[end:]  # empty, or ":PORT"
    if not (sep and scheme in ("http", "https") and valid and (port == "" or _is_port(port[1:]) and port[0] == ":")):
        raise RunError(f"cors: expected * or an origin http://HOST or https://HOST, with :PORT or without, "
                       f"no path, got {show(text)}")
    return origin


def _is_ipv6(text: str) -> bool:
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    return True


def _is_port(text: str) -> bool:
    return text.isascii() and text.isdigit() and len(text) <= 5 and 0 < int(text) <= 65535


def listen_host(text: str) -> str:
    """The address the service listens on (``serve --host``): a host name or address, not empty (which
    would mean every interface without saying so; ``0.0.0.0`` says it). Raises
    :class:`~trio_solver.errors.RunError` for anything else."""
    name = text.strip() if isinstance(text, str) else ""
    if not _plausible(name):
        raise RunError(f"host: expected an address to listen on, such as 127.0.0.1 (0.0.0.0: every interface), "
                       f"got {show(text)}")
    return name


def _plausible(name: str, also: str = "") -> bool:
    """Whether ``name`` can be a host name or address: not empty, at most 253 characters, no unsafe
    character and none of `` /\\@?#*`` (a URL's or a pattern's), nor of ``also``."""
    return (bool(name) and len(name) <= 253 and UNSAFE.search(name) is None
            and not any(c in name for c in " /\\@?#*" + also))
