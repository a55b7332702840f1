"""``trio-solver serve``: the operations of :mod:`trio_solver.doors.protocol` over HTTP, and the web board.

Stateless: every request carries its record. ``POST /v1/OP`` with the request
object (without ``op`` and ``id``) as its JSON body (``Content-Type:
application/json``) answers 200 and the result object; errors are
``{"error": "one line"}`` with status 400 (invalid record or request, a
``Host`` that is not the service's, or a body framed by both ``Content-Length``
and ``Transfer-Encoding``), 404 (unknown operation or path), 405 (method), 408
(headers or body too slow), 413 (body over the size limit), 415 (a body that is
not declared JSON, or is encoded), 503 (too many requests waiting, overall or
from one client, or too many bytes of bodies held) or 504 (over the time limit).
No status 500 ever carries a traceback.

Hostile clients: the ``Host`` header must name the service (its address, a
loopback name, or a name given with ``allow_hosts``), so a page whose domain
was made to resolve to this machine (DNS rebinding) gets nothing; a body must be
declared JSON, so a page of another site cannot post one without the browser
asking first (CORS preflight); request headers and bodies must arrive within
``read_timeout`` seconds; one client address may hold at most ``client_share``
of the ``queue`` places, so stalled requests from one client cannot lock the
others out; the bodies held at once are at most :data:`HELD_BYTES` bytes, unparsed (a
worker parses each), so that many large bodies at once cannot exhaust the server's memory;
a client that disconnects mid-body is one line in the log.

The computations, and the parsing of the bodies, run in a pool of worker processes, off
the event loop. Each
worker enforces the time limit on itself with an interval timer, so a request
that runs too long stops computing instead of holding its worker; the server
also stops waiting a little after the limit in case a worker cannot be
interrupted, and then replaces the pool.

``GET /`` serves the web board (static files in ``trio_solver/doors/web``),
``GET /v1/health`` a liveness answer, ``GET /openapi.json`` the schema and
``GET /docs`` a page of the operations built from it (no script, nothing
loaded from elsewhere). Every ``GET`` route answers ``HEAD`` too.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import html
import ipaddress
import json
import logging
import multiprocessing
import os
import signal
import socket
import sys
import time
from collections.abc import AsyncIterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, cast

import h11
from fastapi import FastAPI, Request
from fastapi.middleware.cors import CORSMiddleware
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Receive, Scope, Send

from .. import __version__
from .._args import int_in, show
from .._text import escape
from .hosts import MAX_QUEUE, MAX_WORKERS, cors_origin, host_pattern, listen_host
from ..errors import RunError, TrioError
from ..words import plural
from .protocol import MAX_REQUEST_BYTES, OPS, UnknownOp, error_text, handle, parse_request
from .queries import warm_up

if TYPE_CHECKING:
    import uvicorn

__all__ = ["create_app", "serve", "server_config", "HostCheck", "WEB_DIR", "DEFAULT_PORT", "LOCAL_HOSTS",
           "DEFAULT_READ_TIMEOUT"]

DEFAULT_PORT = 8765
#: The web board's files, shipped inside the package.
WEB_DIR = Path(__file__).with_name("web")
#: Extra seconds the server waits past the time limit for a worker that did not stop itself.
GRACE = 5.0
#: Seconds a client has to send a request's headers, and then its body (a game record is a few kB).
DEFAULT_READ_TIMEOUT = 10.0
#: The Host names every service answers to: this machine's loopback names, which no other site can use.
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
#: Seconds an idle keep-alive connection stays open.
KEEP_ALIVE = 5
#: After an answer that refuses a body still arriving (413, 415, ...), the rest is read and dropped for at
#: most this many seconds and bytes before the connection closes (see :func:`_timed_protocol`).
LINGER_SECONDS, LINGER_BYTES = 5.0, 64 * 1024 * 1024
#: The most bytes of request bodies the server holds at once, all requests together (at least one body of
#: the size limit): a body is parsed in a worker, so the server holds its bytes only; more get 503.
HELD_BYTES = 64 * 1024 * 1024
#: The ``Retry-After`` seconds of a 503 busy answer.
RETRY_AFTER = 1
#: ``version`` is answered by the server itself when its body is at most this many bytes (``{}``, say);
#: a larger one is parsed in a worker, as every other request's.
SMALL_BODY = 1024
#: Seconds the workers' start may take before the log says why (the kernel is being built), and at most.
WARM_NOTICE, WARM_SECONDS = 5.0, 600.0
#: The answer (503) to a request that comes while the workers start.
STARTING = ("the service is starting: its workers are loading the playout kernel (on a machine's first run "
            "they build it, about a minute); try again shortly")
#: The log of the service (uvicorn's, so that ``--log-level`` applies to it).
_LOG = logging.getLogger("uvicorn.error")


# -- the worker side ---------------------------------------------------------------------


class _Overtime(BaseException):
    """Raised inside a worker when its request is over the time limit (a BaseException, so no
    ``except Exception`` of the library can swallow it)."""


#: Whether the request under way in this worker is over its time limit.
_over = [False]
#: Whether a request is under way in this worker: the alarm stops only a request.
_armed = [False]


def _alarm(signum: int, frame: FrameType | None) -> None:
    if not _armed[0] or (frame is not None and frame.f_code is _overtime_again.__code__):
        return  # no request under way, or inside the hook that set the alarm ringing again: the next ring
    _over[0] = True
    raise _Overtime()


def _overtime_again(unraisable: Any) -> None:
    """``sys.unraisablehook`` of a worker. :class:`_Overtime` raised inside a callback from native code
    (numba's compiler calls back into Python) cannot unwind past it: the alarm is set to ring again every
    10 ms until the request ends, outside the callback, instead of a traceback in the server's log. (A
    single ring could fall inside this hook on a busy machine, where it is lost.)"""
    if isinstance(unraisable.exc_value, _Overtime):
        signal.setitimer(signal.ITIMER_REAL, 0.01, 0.01)
        return
    sys.__unraisablehook__(unraisable)


def _init_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops the workers
    signal.signal(signal.SIGALRM, _alarm)
    sys.unraisablehook = _overtime_again


def _work(op: str, body: bytes, seconds: float, limit: float) -> tuple[str, Any]:
    """Run one operation in a worker on the request's ``body`` (its JSON as received; blank: no
    arguments), for at most ``seconds`` (what is left of the request's ``limit``): ``("ok", result)``,
    ``("bad", line)``, ``("timeout", line)`` or ``("internal", line)``. The body is parsed here, not in
    the server, which so holds a request's bytes only (parsed, a body can take 24 times its size). Never
    raises, so nothing unpicklable crosses the pipe. An error raised after the time limit rang (native
    code that the alarm broke off) is the timeout it stands for; the line names the request's limit."""
    over = f"{op}: over the time limit of {limit:g} s"
    _over[0] = False
    try:
        _armed[0] = True
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return "ok", handle(op, _arguments(body))
        finally:
            # before any answer is made, no alarm rings in the handlers below: clearing the flag is the
            # block's first statement, before which no signal handler runs, and a ring after it is ignored
            _armed[0] = False
            signal.setitimer(signal.ITIMER_REAL, 0)
    except _Overtime:
        _armed[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        return "timeout", over
    except UnknownOp as e:
        return "unknown", error_text(e)
    except Exception as e:  # noqa: BLE001 - one line back, never a traceback
        if _over[0]:
            return "timeout", over
        return ("bad" if isinstance(e, (TrioError, RecursionError)) else "internal"), error_text(e)


def _arguments(body: bytes) -> dict[str, Any]:
    """The arguments of a request's body: its JSON object, ``{}`` for a blank body. Raises
    :class:`~trio_solver.errors.TrioError` in one line."""
    return parse_request(body) if body.strip() else {}


def _warm() -> int:
    """Start a worker before the first request: unpickling this function imports this module, and with
    it every module a request uses, and the playout kernel is loaded (or, on the machine's first run,
    built: about a minute), so that no request pays for either under its time limit."""
    warm_up()
    return os.getpid()


# -- the server side -----------------------------------------------------------------------


def _error(status: int, message: str, *, close: bool = False) -> JSONResponse:
    """``{"error": message}`` with ``status``; ``close``: the connection is closed after it (for an
    answer sent before the request's body was read whole)."""
    response = JSONResponse({"error": message}, status_code=status)
    if close:
        response.headers["Connection"] = "close"
    return response


def _busy(message: str) -> JSONResponse:
    """The 503 of a request turned away before its body was read whole (too many requests, or too many
    bytes of bodies, at once): ``Retry-After`` a second, and the connection closed after it."""
    response = _error(503, message, close=True)
    response.headers["Retry-After"] = str(RETRY_AFTER)
    return response


def _host_name(header: str) -> str:
    """The host of a ``Host`` header, without its port and final dot, in lower case
    (``"[::1]:8765"`` is ``"::1"``, ``"LocalHost.:80"`` is ``"localhost"``)."""
    text = header.strip().lower()
    if text.startswith("["):
        end = text.find("]")
        return text[1:end] if end > 0 else text
    if text.count(":") == 1:
        text = text.split(":")[0]
    return text.rstrip(".")


class HostCheck:
    """Which ``Host`` headers the service answers: the loopback names, the address it is bound to
    (any IP address when it is bound to every address, 0.0.0.0 or ::), and the ``allow`` patterns
    (:func:`host_pattern`). A page of another site that made its own domain resolve to this machine
    (DNS rebinding) sends that domain as the Host, which none of these match; an address typed as
    digits cannot be rebound. A request without a Host (HTTP/1.0) names no site and is answered."""

    def __init__(self, bind: str = "127.0.0.1", allow: Sequence[str] = ()) -> None:
        names = set(LOCAL_HOSTS)
        names.update(host_pattern(a) for a in allow)
        bound = _host_name(bind) if bind else ""
        self.any_ip = bound in ("", "0.0.0.0", "::")
        if not self.any_ip:
            names.add(bound)
        self.any = "*" in names
        self.suffixes = tuple(n[1:] for n in names if n.startswith("*."))
        self.names = frozenset(names)

    def allows(self, header: str | None) -> bool:
        """Whether a request with this ``Host`` header (``None``: none) is answered."""
        if header is None or self.any:
            return True
        name = _host_name(header)
        if name in self.names or (self.suffixes and name.endswith(self.suffixes)):
            return True
        if self.any_ip:
            try:
                ipaddress.ip_address(name)
            except ValueError:
                return False
            return True
        return False


class _Gate:
    """The outermost layer of the application: a request whose ``Host`` the :class:`HostCheck` refuses
    (or with several Host headers), or whose body's length is given twice over, by ``Content-Length`` and
    ``Transfer-Encoding`` (a proxy in front may read the body otherwise, and take the rest of it for
    another request: RFC 9112, section 6.1), is answered 400, the connection closed, and nothing else
    runs."""

    def __init__(self, app: ASGIApp, hosts: HostCheck) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refused = self._refusal(scope["headers"])
            if refused is not None:
                await _error(400, refused, close=True)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _refusal(self, headers: Sequence[tuple[bytes, bytes]]) -> str | None:
        """Why a request with these headers is refused; ``None``: it is not."""
        raw = [v for k, v in headers if k == b"host"]
        found = [v.decode("latin-1") for v in raw]
        if len(found) > 1 or not self.hosts.allows(found[0] if found else None):
            # a Host of other bytes than ASCII is no name (a name of other letters is sent in its xn-- form)
            shown = ("a Host that is not ASCII" if not all(v.isascii() for v in raw)
                     else "Host " + show(found[0] if len(found) == 1 else found, 80))
            return f"{shown} is not an address of this service (a proxy's name is allowed with serve --allow-host NAME)"
        names = {k for k, _ in headers}
        if b"content-length" in names and b"transfer-encoding" in names:
            return "a request with both Content-Length and Transfer-Encoding (its body's length is ambiguous)"
        return None


class _Place:
    """One admitted request: its client address and the bytes of its body it holds so far."""

    def __init__(self, client: str) -> None:
        self.client = client
        self.held = 0


class _Admission:
    """The requests admitted at once: at most ``queue`` in all, at most ``share`` from one client
    address (a request holds its place from its arrival to its answer), and their bodies: at most
    ``held`` bytes of them in all (a body holds its bytes from their arrival to the request's answer)."""

    def __init__(self, queue: int, share: int, held: int) -> None:
        self.queue = queue
        self.share = share
        self.total = 0
        self.by_client: dict[str, int] = {}
        self.held = held
        self.bytes = 0

    def enter(self, client: str) -> _Place | str:
        """Admit a request of ``client``: its place, or the one-line reason when it is refused."""
        mine = self.by_client.get(client, 0)
        if self.total >= self.queue:
            return f"busy: {self.total} requests in progress; try again shortly"
        if mine >= self.share:
            return (f"busy: {mine} requests of this client in progress (at most {self.share} at once); "
                    "try again when one is answered")
        self.total += 1
        self.by_client[client] = mine + 1
        return _Place(client)

    def room(self, size: int, own: int = 0) -> str | None:
        """Whether ``size`` more bytes of a body that holds ``own`` bytes already fit now: the one-line
        reason when they do not, which names what the other requests' bodies hold (the same figure
        however the refused body's bytes happened to arrive)."""
        if self.bytes + size > self.held:
            return (f"busy: other requests' bodies in progress hold {_amount(self.bytes - own)} (at most "
                    f"{_amount(self.held)} at once); try again shortly")
        return None

    def hold(self, place: _Place, size: int) -> str | None:
        """``place`` holds ``size`` more bytes of its body, when they fit (else the reason, see :meth:`room`)."""
        refused = self.room(size, place.held)
        if refused is None:
            self.bytes += size
            place.held += size
        return refused

    def leave(self, place: _Place) -> None:
        """The request of ``place`` is answered: its place and the bytes of its body are free."""
        self.total -= 1
        self.bytes -= place.held
        place.held = 0
        left = self.by_client[place.client] - 1
        if left:
            self.by_client[place.client] = left
        else:
            del self.by_client[place.client]


def _amount(size: int) -> str:
    """A number of bytes in kB or MB, to a tenth (``"29.3 kB"``, ``"64.0 MB"``)."""
    return f"{size / 2 ** 20:,.1f} MB" if size >= 2 ** 20 else f"{size / 1024:,.1f} kB"


def _is_json(content_type: str) -> bool:
    return content_type.split(";", 1)[0].strip().lower() == "application/json"


def _timed_protocol(read_timeout: float) -> type[Any]:
    """uvicorn's h11 protocol with a time limit on request headers: a connection whose next request's
    headers have not all arrived ``read_timeout`` seconds after it opened, or after its last answer,
    is answered 408 and closed (uvicorn itself waits for headers forever); a request HTTP cannot read
    is answered 400 in JSON, as every other error, and closed."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    def closing(status: bytes, message: str) -> bytes:
        """A whole answer ``{"error": message}`` with ``status``, the connection closed after it."""
        body = json.dumps({"error": message}).encode()
        return (b"HTTP/1.1 " + status + b"\r\ncontent-type: application/json\r\nconnection: close\r\n"
                b"content-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)

    answer = closing(b"408 Request Timeout", f"the request headers did not arrive within {read_timeout:g} s")
    malformed = closing(b"400 Bad Request", "not a valid HTTP/1.1 request (its request line, headers or framing)")

    class TimedH11Protocol(H11Protocol):
        _timer: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            self._disarm()
            self._timer = self.loop.call_later(read_timeout, self._headers_late)

        def _disarm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(cast(asyncio.Transport, _Lingering(transport, self)))  # the same methods
            self._arm()

        def data_received(self, data: bytes) -> None:
            if isinstance(self.transport, _Lingering) and self.transport.lingering:
                self.transport.dropped(len(data))  # the rest of a refused body: answered already
                return
            super().data_received(data)

        def eof_received(self) -> None:
            if isinstance(self.transport, _Lingering) and self.transport.lingering:
                self.transport.close_now()  # the client has sent everything: it reads the answer

        def handle_events(self) -> None:
            cycle = self.cycle
            super().handle_events()
            if self.cycle is not cycle:  # a request's headers arrived: its body has the app's limit
                self._disarm()

        def on_response_complete(self) -> None:
            self._arm()  # before the next request (a pipelined one disarms it at once)
            super().on_response_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if isinstance(self.transport, _Lingering):
                self.transport.close_now()
            super().connection_lost(exc)

        def send_400_response(self, msg: str) -> None:
            # a request HTTP cannot read (uvicorn answers it in plain text): JSON, as every other error
            self._disarm()
            if not self.transport.is_closing():
                self.transport.write(malformed)
                self.transport.close()

        def _headers_late(self) -> None:
            self._timer = None
            if self.transport.is_closing() or (self.cycle is not None and not self.cycle.response_complete):
                return
            self.transport.write(answer)
            self.transport.close()

    return TimedH11Protocol


class _Lingering:
    """A connection's transport whose :meth:`close`, while the client is still sending the body of a request
    that was answered without it (a 413 or 415, say), sends the answer and the end of the stream first, then
    reads and drops what still arrives (at most :data:`LINGER_SECONDS` and :data:`LINGER_BYTES`) before it
    closes. Closing with unread data would reset the connection, and a client that sends its whole body
    before reading the answer would see the reset instead of the answer. Everything else is the transport's."""

    def __init__(self, transport: asyncio.Transport, protocol: Any) -> None:
        self._transport = transport
        self._protocol = protocol
        self.lingering = False
        self._left = LINGER_BYTES
        self._timer: asyncio.TimerHandle | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)

    def is_closing(self) -> bool:
        return self.lingering or self._transport.is_closing()

    def close(self) -> None:
        t = self._transport
        if self.lingering or t.is_closing():
            return
        if self._protocol.conn.their_state is not h11.SEND_BODY or not t.can_write_eof():
            t.close()
            return
        self.lingering = True
        t.write_eof()
        t.resume_reading()
        self._timer = asyncio.get_running_loop().call_later(LINGER_SECONDS, self.close_now)

    def dropped(self, size: int) -> None:
        """``size`` more bytes of a refused body were read and dropped."""
        self._left -= size
        if self._left < 0:
            self.close_now()

    def close_now(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self._transport.is_closing():
            self._transport.close()


def _read_error(f: asyncio.Future[Any]) -> None:
    if not f.cancelled():
        f.exception()


class _Pool:
    """The worker processes, their start (each loads the playout kernel first, see :func:`_warm`) and
    the pool's replacement when a worker dies or cannot be stopped."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.executor: concurrent.futures.ProcessPoolExecutor | None = None
        #: the start of the current workers, until each has loaded the kernel
        self._warming: list[concurrent.futures.Future[int]] = []
        #: whether the start took longer than :data:`WARM_NOTICE` (the kernel is being built): requests
        #: are then answered 503 at once instead of waiting for it
        self.building = False

    def start(self) -> None:
        """New workers, each starting with :func:`_warm`; returns at once (see :meth:`ready`)."""
        self.executor = concurrent.futures.ProcessPoolExecutor(
            max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_init_worker)
        self._warming = [self.executor.submit(_warm) for _ in range(self.workers)]

    def ready(self) -> bool:
        """Whether every worker has finished its start. A start that failed counts as finished (its
        error is logged once): the requests then meet the failure themselves, as a 500 or a retry."""
        if any(not f.done() for f in self._warming):
            return False
        for f in self._warming:
            error = None if f.cancelled() else f.exception()
            if error is not None:
                _LOG.warning("a worker could not load the playout kernel: %s", escape(error_text(error)))
        self._warming = []
        self.building = False
        return True

    async def wait_ready(self, seconds: float) -> bool:
        """:meth:`ready`, waiting at most ``seconds`` for it."""
        pending = [asyncio.wrap_future(f) for f in self._warming if not f.done()]
        for f in pending:  # a start's error is read (and logged) by ready(), not by asyncio at exit
            f.add_done_callback(_read_error)
        if pending and seconds > 0:
            await asyncio.wait(pending, timeout=seconds)
        return self.ready()

    async def tell_the_log(self) -> None:
        """Once the workers' start has taken :data:`WARM_NOTICE` seconds, say in the log why (the kernel
        is being built, on the machine's first run) and when it is over."""
        if await self.wait_ready(WARM_NOTICE):
            return
        self.building = True
        _LOG.warning("building the playout kernel for this machine (about a minute; kept for later runs); until it is "
                     "ready the service answers 503 (starting)")
        if await self.wait_ready(WARM_SECONDS):
            _LOG.warning("the playout kernel is ready")

    def restart(self, failed: concurrent.futures.ProcessPoolExecutor) -> None:
        """Replace the pool ``failed`` (once: a request that saw it fail after another replaced it
        does nothing)."""
        if self.executor is not failed:
            return
        self.stop()
        self.start()

    def stop(self) -> None:
        """End the workers at once, a start or a request under way included (at shutdown the server has
        already answered or dropped its requests)."""
        old = self.executor
        self.executor = None
        self._warming = []
        if old is None:
            return
        procs = list(getattr(old, "_processes", {}).values())
        old.shutdown(wait=False, cancel_futures=True)
        for p in procs:
            with contextlib.suppress(Exception):
                p.kill()
        for p in procs:
            with contextlib.suppress(Exception):
                p.join(timeout=5)

    def pids(self) -> list[int]:
        ex = self.executor
        return [] if ex is None else [p.pid for p in getattr(ex, "_processes", {}).values() if p.pid]


_ERROR_SCHEMA = {"type": "object", "properties": {"error": {"type": "string"}}, "required": ["error"]}


def _openapi_extra(op: str) -> dict[str, Any]:
    body = {"type": "object", "properties": OPS[op].args, "additionalProperties": False,
            "required": list(OPS[op].required)}
    err = {"content": {"application/json": {"schema": _ERROR_SCHEMA}}}
    return {
        "requestBody": {"required": op != "version", "content": {"application/json": {"schema": body}}},
        "responses": {
            "200": {"description": "the result object", "content": {"application/json": {"schema": {"type": "object"}}}},
            "400": {"description": "invalid record or request", **err},
            "413": {"description": "body over the size limit", **err},
            "503": {"description": "busy: too many requests waiting", **err},
            "504": {"description": "over the time limit", **err},
        },
    }


async def _read_body(request: Request, limit: int, admission: _Admission, place: _Place) -> bytes | JSONResponse:
    """The body, held by ``place`` as it arrives, or the answer that refuses it: 413 once it is known to be
    over ``limit`` bytes, 503 busy once it does not fit in what ``admission`` has left for bodies (at
    once for a ``Content-Length`` that does not). Raises :class:`ClientDisconnect` when the client goes
    away before its end."""
    too_big = _error(413, f"request body larger than {limit} bytes; a game record is a few kB", close=True)
    length = request.headers.get("content-length")
    if length is not None:
        if not (length.isascii() and length.isdigit()):
            return _error(400, "Content-Length is not a number", close=True)
        if len(length) > 18 or int(length) > limit:
            return too_big
        refused = admission.room(int(length))
        if refused is not None:
            return _busy(refused)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return too_big
        refused = admission.hold(place, len(chunk))
        if refused is not None:
            return _busy(refused)
        chunks.append(chunk)
    return b"".join(chunks)


def _api_page(schema: dict[str, Any]) -> str:
    """The page of ``GET /docs``: every operation of the OpenAPI ``schema`` with its arguments and
    answers, as plain HTML (no script, no style sheet or font from elsewhere: it works offline)."""
    e = html.escape
    info = schema.get("info", {})
    parts = [f"<h1>{e(str(info.get('title', '')))} {e(str(info.get('version', '')))}: the HTTP API</h1>",
             f"<p>{e(str(info.get('description', '')))}</p>",
             "<p>Each operation is <code>POST /v1/OP</code> with a JSON body (<code>Content-Type: "
             "application/json</code>). The machine-readable schema is <a href=\"/openapi.json\">/openapi.json</a>; "
             "the web board is at <a href=\"/\">/</a>; docs/INTERFACE.md tells the rest.</p>"]
    for path, item in schema.get("paths", {}).items():
        for method, op in item.items():
            parts.append(f"<h2 id=\"{e(path)}\"><code>{e(method.upper())} {e(path)}</code></h2>")
            parts.append(f"<p>{e(str(op.get('summary', '')))}</p>")
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
            props = body.get("properties", {})
            if props:
                required = set(body.get("required", []))
                rows = "".join(
                    f"<tr><td><code>{e(name)}</code></td><td>{e(json.dumps(spec.get('type', 'any')))}</td>"
                    f"<td>{'yes' if name in required else 'no'}</td><td>{e(str(spec.get('description', '')))}"
                    f"{(' (one of ' + e(', '.join(map(str, spec['enum']))) + ')') if 'enum' in spec else ''}</td></tr>"
                    for name, spec in props.items())
                parts.append("<table><tr><th>argument</th><th>type</th><th>required</th><th>meaning</th></tr>"
                             f"{rows}</table>")
            answers = "; ".join(f"{e(code)} {e(str(r.get('description', '')))}"
                                for code, r in op.get("responses", {}).items())
            parts.append(f"<p>Answers: {answers}.</p>")
    style = ("body{font:15px/1.45 system-ui,sans-serif;max-width:56em;margin:2em auto;padding:0 1em;color:#222}"
             "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;"
             "vertical-align:top}code{font-size:95%}h2{margin-top:1.6em}")
    return (f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
            f"content=\"width=device-width, initial-scale=1\"><title>trio_solver API</title><style>{style}</style>"
            f"</head><body>{''.join(parts)}</body></html>")


def _check_options(workers: Any, timeout: Any, queue: Any, read_timeout: Any, client_share: Any,
                   max_body: Any) -> None:
    int_in("workers", workers, 1, MAX_WORKERS, RunError)
    int_in("queue", queue, 1, MAX_QUEUE, RunError)
    int_in("max_body", max_body, 1, 1 << 40, RunError, "a number of bytes")
    if client_share is not None:
        int_in("client_share", client_share, 1, queue, RunError, "a number of requests")
    for name, value in (("timeout", timeout), ("read_timeout", read_timeout)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 86400:
            raise RunError(f"{name}: expected seconds above 0 and at most 86400, got {show(value)}")


def create_app(*, workers: int = 2, timeout: float = 30.0, queue: int = 64, cors: Sequence[str] = (),
               max_body: int = MAX_REQUEST_BYTES, host: str = "127.0.0.1", allow_hosts: Sequence[str] = (),
               read_timeout: float = DEFAULT_READ_TIMEOUT, client_share: int | None = None) -> FastAPI:
    """The ASGI application: ``workers`` processes compute, a request runs at most ``timeout``
    seconds, at most ``queue`` requests are admitted at once and at most ``client_share`` (default a
    quarter of ``queue``, at least 1) from one client address (more get 503), a body must arrive within
    ``read_timeout`` seconds (else 408), bodies over ``max_body`` bytes get 413, requests whose
    ``Host`` is not ``host`` (the address the service is bound to), a loopback name or one of
    ``allow_hosts`` get 400 (:class:`HostCheck`), and pages from the ``cors`` origins (:func:`cors_origin`)
    may call the API. The bodies held at once are at most :data:`HELD_BYTES` bytes, or one of ``max_body``
    when that is more (more get 503).

    Raises :class:`~trio_solver.errors.RunError` naming the option for a value out of range. Run it
    with :func:`server_config` (:func:`serve` does), which adds the time limit on request headers."""
    _check_options(workers, timeout, queue, read_timeout, client_share, max_body)
    origins = [cors_origin(c) for c in cors]
    hosts = HostCheck(host, allow_hosts)
    share = client_share if client_share is not None else max(1, queue // 4)
    pool = _Pool(workers)
    admission = _Admission(queue, share, max(HELD_BYTES, max_body))
    free = asyncio.Semaphore(workers)  # a request is handed to the pool only when a worker is free

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # the service answers at once; its workers start beside it (a minute on a machine's first run,
        # while they build the playout kernel), so that Ctrl-C and the health check work meanwhile
        await asyncio.get_running_loop().run_in_executor(None, pool.start)
        notice = asyncio.create_task(pool.tell_the_log())
        try:
            yield
        finally:
            notice.cancel()
            pool.stop()

    app = FastAPI(
        title="trio_solver", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
        description="Rules engine, exact beliefs and advice for the card game Trio. Every request carries its "
                    "record; errors are {\"error\": \"one line\"}.",
    )
    app.state.pool = pool
    app.state.admission = admission
    app.state.read_timeout = float(read_timeout)
    app.add_middleware(GZipMiddleware, minimum_size=2048)  # replays and analyses compress well, phones like it
    if origins:
        app.add_middleware(CORSMiddleware, allow_origins=origins, allow_methods=["GET", "POST"],
                           allow_headers=["Content-Type"], max_age=600)
    app.add_middleware(_Gate, hosts=hosts)  # added last: the outermost layer, before anything runs

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        message = {404: f"no such path: {escape(request.url.path[:200])}", 405: "method not allowed"}.get(
            exc.status_code, str(exc.detail))
        response = _error(exc.status_code, message)
        for name, value in (exc.headers or {}).items():  # Allow, on a 405
            response.headers[name] = value
        return response

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> Response:
        return _error(500, f"internal error ({type(exc).__name__})")

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        return response

    @app.get("/v1/health", summary="Liveness: 200 when the workers are ready, 503 while they start")
    async def health() -> JSONResponse:
        ready = pool.ready()
        return JSONResponse({"status": "ok" if ready else "starting", "version": __version__,
                             "workers": pool.workers, "admitted": admission.total}, status_code=200 if ready else 503)

    app.add_api_route("/v1/health", health, methods=["HEAD"], include_in_schema=False)

    async def run(op: str, request: Request) -> Response:
        # admission first: at most `queue` requests (and a client's share of them) wait or run, and their
        # bodies hold at most `held` bytes of the server's memory (see _read_body)
        client = request.client.host if request.client is not None else ""
        place = admission.enter(client)
        if isinstance(place, str):
            return _busy(place)
        started = time.monotonic()
        kind: str
        out: Any
        try:
            declared = request.headers.get("content-type")
            if declared is not None and not _is_json(declared):
                return _error(415, f"the body must be JSON (Content-Type: application/json), not "
                                   f"{show(declared, 60)}", close=True)
            codings = [c.strip() for v in request.headers.getlist("content-encoding") for c in v.split(",")]
            coded = [c for c in codings if c and c.lower() != "identity"]
            if coded:
                return _error(415, f"the body must be plain JSON, not encoded (Content-Encoding "
                                   f"{show(', '.join(coded), 60)} is not supported)", close=True)
            try:
                body = await asyncio.wait_for(_read_body(request, max_body, admission, place), read_timeout)
            except asyncio.TimeoutError:
                return _error(408, f"the request body did not arrive within {read_timeout:g} s", close=True)
            except ClientDisconnect:
                _LOG.warning("%s: the client %s went away before the end of its request body",
                             escape(request.url.path[:80]), escape(client) or "?")
                return _error(400, "the client went away before the end of its request body", close=True)
            if isinstance(body, Response):
                return body
            if declared is None and body.strip():
                return _error(415, "the body must be JSON: send it with Content-Type: application/json")
            if op == "version" and len(body) <= SMALL_BODY:  # no computation: answered here
                try:
                    kind, out = "ok", handle(op, _arguments(body))
                except Exception as e:  # noqa: BLE001
                    kind, out = "bad", error_text(e)
            else:
                kind, out = await _submit(op, body, started + timeout)
        finally:
            admission.leave(place)
        status = {"ok": 200, "bad": 400, "unknown": 404, "timeout": 504, "busy": 503, "internal": 500}[kind]
        if status == 200:
            response: Response = JSONResponse(out)
        else:
            response = _error(status, out)
        response.headers["Server-Timing"] = f"op;dur={(time.monotonic() - started) * 1000:.1f}"
        return response

    async def _submit(op: str, body: bytes, deadline: float) -> tuple[str, Any]:
        over = f"{op}: over the time limit of {timeout:g} s"
        loop = asyncio.get_running_loop()
        # while the workers start: wait for them within the time limit, unless they are building the kernel
        if not pool.ready() and (pool.building or not await pool.wait_ready(deadline - time.monotonic())):
            return "busy", STARTING
        try:
            await asyncio.wait_for(free.acquire(), max(0.0, deadline - time.monotonic()))
        except asyncio.TimeoutError:
            return "busy", f"busy: no worker became free within the time limit of {timeout:g} s; try again"
        try:
            for attempt in (0, 1):
                executor = pool.executor
                left = deadline - time.monotonic()
                if left <= 0:
                    return "timeout", over
                if executor is None:
                    return "busy", "the service is starting or stopping"
                try:
                    fut = executor.submit(_work, op, body, left, timeout)
                    result: tuple[str, Any] = await asyncio.wait_for(asyncio.wrap_future(fut), left + GRACE)
                    return result
                except asyncio.TimeoutError:
                    # the worker did not stop itself: replace the pool
                    await loop.run_in_executor(None, pool.restart, executor)
                    return "timeout", over
                except (BrokenProcessPool, RuntimeError):
                    # a worker died (killed, out of memory): new workers, and one more try
                    await loop.run_in_executor(None, pool.restart, executor)
                    if attempt:
                        return "busy", f"{op}: the worker stopped unexpectedly; try again"
            return "busy", "unreachable"  # pragma: no cover
        finally:
            free.release()

    def route(op: str) -> Any:
        async def endpoint(request: Request) -> Response:
            return await run(op, request)

        endpoint.__name__ = f"op_{op}"
        return endpoint

    for op in OPS:
        app.add_api_route(f"/v1/{op}", route(op), methods=["POST"], summary=OPS[op].summary,
                          openapi_extra=_openapi_extra(op), tags=["operations"])

    @app.post("/v1/{op}", include_in_schema=False)
    async def unknown(op: str) -> Response:
        return _error(404, f"unknown op {show(op, 60)} (known: {', '.join(OPS)})")

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def board() -> Response:
        return FileResponse(WEB_DIR / "index.html", media_type="text/html; charset=utf-8")

    @app.api_route("/docs", methods=["GET", "HEAD"], include_in_schema=False)
    async def docs() -> Response:
        return HTMLResponse(_api_page(app.openapi()), headers={
            "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'"})

    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    return app


def server_config(app: FastAPI, **options: Any) -> uvicorn.Config:
    """The uvicorn configuration the service runs under (``options`` are uvicorn's: host, port,
    log_level, ...): uvicorn's h11 protocol with the time limit on request headers of ``app``
    (its ``read_timeout``), idle keep-alive connections closed after :data:`KEEP_ALIVE` seconds, no
    ``Server`` header."""
    import uvicorn

    return uvicorn.Config(app, http=_timed_protocol(app.state.read_timeout), timeout_keep_alive=KEEP_ALIVE,
                          server_header=False, **options)


def serve(*, host: str = "127.0.0.1", port: int = DEFAULT_PORT, workers: int = 2, timeout: float = 30.0,
          queue: int = 64, cors: Sequence[str] = (), log_level: str = "warning", allow_hosts: Sequence[str] = (),
          read_timeout: float = DEFAULT_READ_TIMEOUT, client_share: int | None = None) -> None:
    """Run the service until interrupted: Ctrl-C, or SIGTERM (the options are :func:`create_app`'s). Started
    with Ctrl-C ignored (a background job), it keeps ignoring it."""
    import uvicorn

    app = create_app(workers=workers, timeout=timeout, queue=queue, cors=cors, host=host, allow_hosts=allow_hosts,
                     read_timeout=read_timeout, client_share=client_share)
    sock = listening_socket(host, port)  # before the banner: a port in use or a bad address is one line
    shown = f"[{host}]" if ":" in host else host
    print(f"trio-solver service on http://{shown}:{port}/  (web board at /, API under /v1, schema at "
          f"/openapi.json, its page at /docs; {plural(workers, 'worker')}, {timeout:g} s limit)", flush=True)
    server = uvicorn.Server(server_config(app, host=host, port=port, log_level=log_level))
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        # started with Ctrl-C ignored (a background job): it stays ignored, as for every command; uvicorn
        # would take it as a stop and end with status 0. SIGTERM still stops the service.
        stop = server.handle_exit

        def handle_exit(sig: int, frame: FrameType | None) -> None:
            if sig != signal.SIGINT:
                stop(sig, frame)

        server.handle_exit = handle_exit  # type: ignore[method-assign]
    server.run(sockets=[sock])


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host`` (a name or an address; not empty, which would mean every interface) and
    ``port``. Raises :class:`~trio_solver.errors.RunError` in one line when the name is not known or the
    port cannot be had (in use, or not allowed)."""
    host = listen_host(host)
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        # a name (localhost) listens on its IPv4 address when it has one, as uvicorn binds it; an IPv6
        # address is written with ":"
        family, kind, proto, _, address = min(found, key=lambda f: f[0] != socket.AF_INET or ":" in host)
    except (socket.gaierror, UnicodeError) as e:
        raise RunError(f"host: cannot listen on {show(host)}: {getattr(e, 'strerror', None) or e}") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as e:
        sock.close()
        raise RunError(f"cannot listen on {show(host)} port {port}: {e.strerror or e}") from None
    return sock
