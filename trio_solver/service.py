"""``trio-solver serve``: the operations of :mod:`trio_solver.protocol` over HTTP, and the web board.

Stateless: every request carries its record. ``POST /v1/OP`` with the request
object (without ``op`` and ``id``) as its JSON body answers 200 and the result
object; errors are ``{"error": "one line"}`` with status 400 (invalid record or
request), 404 (unknown operation or path), 413 (body over the size limit), 503
(too many requests waiting) or 504 (over the time limit). No status 500 ever
carries a traceback.

The computations run in a pool of worker processes, off the event loop. Each
worker enforces the time limit on itself with an interval timer, so a request
that runs too long stops computing instead of holding its worker; the server
also stops waiting a little after the limit in case a worker cannot be
interrupted, and then replaces the pool.

``GET /`` serves the web board (static files in ``trio_solver/web``),
``GET /v1/health`` a liveness answer and ``GET /openapi.json`` the schema.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import multiprocessing
import os
import signal
import time
from collections.abc import AsyncIterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from types import FrameType
from typing import Any

from fastapi import FastAPI, Request
from fastapi.middleware.cors import CORSMiddleware
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from . import __version__
from .bots import BOT_NAMES
from .protocol import MAX_REQUEST_BYTES, OPS, UnknownOp, error_text, handle, parse_request

__all__ = ["create_app", "serve", "WEB_DIR", "DEFAULT_PORT"]

DEFAULT_PORT = 8765
#: The web board's files, shipped inside the package.
WEB_DIR = Path(__file__).with_name("web")
#: Extra seconds the server waits past the time limit for a worker that did not stop itself.
GRACE = 5.0


# -- the worker side ---------------------------------------------------------------------


class _Overtime(BaseException):
    """Raised inside a worker when its request is over the time limit (a BaseException, so no
    ``except Exception`` of the library can swallow it)."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise _Overtime()


def _init_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops the workers
    signal.signal(signal.SIGALRM, _alarm)


def _work(op: str, args: dict[str, Any], timeout: float) -> tuple[str, Any]:
    """Run one operation in a worker: ``("ok", result)``, ``("bad", line)``, ``("timeout", line)``
    or ``("internal", line)``. Never raises, so nothing unpicklable crosses the pipe."""
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        return "ok", handle(op, args)
    except _Overtime:
        return "timeout", f"{op}: over the time limit of {timeout:g} s"
    except UnknownOp as e:
        return "unknown", error_text(e)
    except Exception as e:  # noqa: BLE001 - one line back, never a traceback
        from .errors import TrioError

        return ("bad" if isinstance(e, (TrioError, RecursionError)) else "internal"), error_text(e)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _warm() -> int:
    """Import the heavy modules once per worker, so the first real request is not slow."""
    from . import analysis, beliefs, bots, search, validate  # noqa: F401

    return os.getpid()


# -- the server side -----------------------------------------------------------------------


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class _Pool:
    """The worker processes, the count of requests admitted and the pool's replacement when a
    worker dies or cannot be stopped."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.executor: concurrent.futures.ProcessPoolExecutor | None = None
        self.admitted = 0

    def start(self) -> None:
        self.executor = concurrent.futures.ProcessPoolExecutor(
            max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_init_worker)
        futures = [self.executor.submit(_warm) for _ in range(self.workers)]
        concurrent.futures.wait(futures, timeout=60)

    def restart(self, failed: concurrent.futures.ProcessPoolExecutor) -> None:
        """Replace the pool ``failed`` (once: a request that saw it fail after another replaced it
        does nothing)."""
        if self.executor is not failed:
            return
        old = self.executor
        self.executor = None
        if old is not None:
            procs = list(getattr(old, "_processes", {}).values())
            old.shutdown(wait=False, cancel_futures=True)
            for p in procs:
                with contextlib.suppress(Exception):
                    p.kill()
        self.start()

    def stop(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=True, cancel_futures=True)
            self.executor = None

    def pids(self) -> list[int]:
        ex = self.executor
        return [] if ex is None else [p.pid for p in getattr(ex, "_processes", {}).values() if p.pid]


_OP_DOCS: dict[str, str] = {
    "version": "The library version and the protocol number.",
    "validate": "Check a record against the rules and that some deal fits it: the summary of `validate --json`.",
    "replay": "The table after each event from one seat's view: the JSON of `replay --json`.",
    "state": "One frame of `replay --json` (the position after `after` events) plus `legal`, the legal reveals.",
    "beliefs": "The exact probabilities of the hidden cards: the JSON of `beliefs --json`.",
    "advise": "Every legal reveal of the seat to move with p_trio and p_win: the JSON of `advise --json`.",
    "analyse": "Every decision of the known seats judged against the best reveal: the JSON of `analyse --json`.",
    "new_game": "A new full-deal record with no events, dealt from `seed`.",
    "move": "The record with one reveal (`c3`, or `c3=10` for a record without the deal) or swap added.",
    "bot": "The reveal a bot chooses for the seat to move, from that seat's view only.",
    "evaluate": "Each seat's chance to win the game from the position: the JSON of `evaluate --json`.",
}

_RECORD = {"type": "object", "description": "a trio-record/1 document"}
_SEAT = {"type": ["integer", "null"], "description": "whose view; null: a spectator; omitted: the record's default"}
_AFTER = {"type": "integer", "minimum": 0, "description": "the position after the first N events"}
_ARGS: dict[str, dict[str, Any]] = {
    "version": {},
    "validate": {"record": _RECORD},
    "replay": {"record": _RECORD, "seat": {"type": ["integer", "null", "string"]}, "after": _AFTER},
    "state": {"record": _RECORD, "seat": {"type": ["integer", "null", "string"]}, "after": _AFTER},
    "beliefs": {"record": _RECORD, "seat": _SEAT, "after": _AFTER, "swap_budget": {"type": "integer"}},
    "advise": {"record": _RECORD, "seat": _SEAT, "after": _AFTER,
               "objective": {"type": "string", "enum": ["trio", "win", "game"]},
               "samples": {"type": "integer", "description": "game: the most posterior deals per reveal"},
               "seed": {"type": "integer"},
               "confidence": {"type": "number", "description": "game: stop once the ranking is clear at this"}},
    "evaluate": {"record": _RECORD, "seat": _SEAT, "after": _AFTER,
                 "samples": {"type": "integer", "description": "the most playouts"}, "seed": {"type": "integer"},
                 "precision": {"type": "number", "description": "stop once each standard error is at most this"}},
    "analyse": {"record": _RECORD,
                "samples": {"type": "integer", "description": "the most deals per reveal; 0: by the turn only"},
                "seed": {"type": "integer"},
                "confidence": {"type": "number", "description": "stop once each label is clear at this"}},
    "new_game": {"rules": {"type": "object"}, "seed": {"type": "integer"}, "first_player": {"type": "integer"},
                 "names": {"type": "array", "items": {"type": "string"}}},
    "move": {"record": _RECORD, "reveal": {"type": ["string", "object"],
                                           "description": "c3, or c3=10, or {\"swap\": [a, b], \"cards\": [va, vb]}"}},
    "bot": {"record": _RECORD, "bot": {"type": "string", "enum": list(BOT_NAMES)},
            "seed": {"type": "integer"}, "budget": {"type": "integer", "description": "expert: playouts a decision"}},
}
_REQUIRED = {"validate": ["record"], "replay": ["record"], "state": ["record"], "beliefs": ["record"],
             "advise": ["record"], "evaluate": ["record"], "analyse": ["record"], "new_game": ["rules"],
             "move": ["record", "reveal"], "bot": ["record", "bot"]}
_ERROR_SCHEMA = {"type": "object", "properties": {"error": {"type": "string"}}, "required": ["error"]}


def _openapi_extra(op: str) -> dict[str, Any]:
    body = {"type": "object", "properties": _ARGS.get(op, {}), "additionalProperties": False,
            "required": _REQUIRED.get(op, [])}
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


async def _read_body(request: Request, limit: int) -> bytes | JSONResponse:
    """The body, or the 413 answer once it is known to be over ``limit`` bytes."""
    too_big = _error(413, f"request body larger than {limit} bytes; a game record is a few kB")
    length = request.headers.get("content-length")
    if length is not None:
        if not length.isdigit():
            return _error(400, "Content-Length is not a number")
        if int(length) > limit:
            return too_big
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return too_big
        chunks.append(chunk)
    return b"".join(chunks)


def create_app(*, workers: int = 2, timeout: float = 30.0, queue: int = 64, cors: Sequence[str] = (),
               max_body: int = MAX_REQUEST_BYTES) -> FastAPI:
    """The ASGI application: ``workers`` processes compute, a request runs at most ``timeout``
    seconds, at most ``queue`` requests are admitted at once (more get 503), bodies over
    ``max_body`` bytes get 413, and pages from the ``cors`` origins may call the API."""
    if workers < 1 or queue < 1 or not timeout > 0:
        raise ValueError("workers and queue must be 1 or more, timeout positive")
    pool = _Pool(workers)
    free = asyncio.Semaphore(workers)  # a request is handed to the pool only when a worker is free

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.get_running_loop().run_in_executor(None, pool.start)
        try:
            yield
        finally:
            pool.stop()

    app = FastAPI(
        title="trio_solver", version=__version__, lifespan=lifespan, docs_url="/docs", redoc_url=None,
        description="Rules engine, exact beliefs and advice for the card game Trio. Every request carries its "
                    "record; errors are {\"error\": \"one line\"}.",
    )
    app.state.pool = pool
    app.add_middleware(GZipMiddleware, minimum_size=2048)  # replays and analyses compress well, phones like it
    if cors:
        app.add_middleware(CORSMiddleware, allow_origins=list(cors), allow_methods=["GET", "POST"],
                           allow_headers=["Content-Type"], max_age=600)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        message = {404: f"no such path: {request.url.path[:200]}", 405: "method not allowed"}.get(
            exc.status_code, str(exc.detail))
        return _error(exc.status_code, message)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> Response:
        return _error(500, f"internal error ({type(exc).__name__})")

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        return response

    @app.get("/v1/health", summary="Liveness")
    async def health() -> dict[str, Any]:
        return {"status": "ok", "version": __version__, "workers": pool.workers, "admitted": pool.admitted}

    async def run(op: str, request: Request) -> Response:
        # admission first: at most `queue` requests hold a body in memory or wait for a worker
        if pool.admitted >= queue:
            return _error(503, f"busy: {pool.admitted} requests in progress; try again shortly")
        pool.admitted += 1
        started = time.monotonic()
        kind: str
        out: Any
        try:
            try:
                body = await asyncio.wait_for(_read_body(request, max_body), timeout)
            except asyncio.TimeoutError:
                return _error(408, f"the request body did not arrive within {timeout:g} s")
            if isinstance(body, Response):
                return body
            try:
                args = parse_request(body) if body.strip() else {}
            except Exception as e:  # noqa: BLE001
                return _error(400, error_text(e))
            if op == "version":  # no computation: answered here
                try:
                    kind, out = "ok", handle(op, args)
                except Exception as e:  # noqa: BLE001
                    kind, out = "bad", error_text(e)
            else:
                kind, out = await _submit(op, args, started + timeout)
        finally:
            pool.admitted -= 1
        status = {"ok": 200, "bad": 400, "unknown": 404, "timeout": 504, "busy": 503, "internal": 500}[kind]
        if status == 200:
            response: Response = JSONResponse(out)
        else:
            response = _error(status, out)
        response.headers["Server-Timing"] = f"op;dur={(time.monotonic() - started) * 1000:.1f}"
        return response

    async def _submit(op: str, args: dict[str, Any], deadline: float) -> tuple[str, Any]:
        over = f"{op}: over the time limit of {timeout:g} s"
        loop = asyncio.get_running_loop()
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
                    fut = executor.submit(_work, op, args, left)
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
        app.add_api_route(f"/v1/{op}", route(op), methods=["POST"], summary=_OP_DOCS.get(op, op),
                          openapi_extra=_openapi_extra(op), tags=["operations"])

    @app.post("/v1/{op}", include_in_schema=False)
    async def unknown(op: str) -> Response:
        return _error(404, f"unknown op {op[:60]!r} (known: {', '.join(OPS)})")

    @app.get("/", include_in_schema=False)
    async def board() -> Response:
        return FileResponse(WEB_DIR / "index.html", media_type="text/html; charset=utf-8")

    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    return app


def serve(*, host: str = "127.0.0.1", port: int = DEFAULT_PORT, workers: int = 2, timeout: float = 30.0,
          queue: int = 64, cors: Sequence[str] = (), log_level: str = "warning") -> None:
    """Run the service until interrupted."""
    import uvicorn

    app = create_app(workers=workers, timeout=timeout, queue=queue, cors=cors)
    print(f"trio-solver service on http://{host}:{port}/  (web board at /, API under /v1, schema at "
          f"/openapi.json; {workers} workers, {timeout:g} s limit)", flush=True)
    uvicorn.run(app, host=host, port=port, log_level=log_level, server_header=False)
