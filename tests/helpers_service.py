"""A live ``trio-solver serve`` (uvicorn in a thread, on a free port of 127.0.0.1) for the tests."""

from __future__ import annotations

import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn
from fastapi.testclient import TestClient

from trio_solver.doors import service
from trio_solver.doors.service import create_app, server_config

#: Seconds a test waits for the service's workers to start (on a machine's first run they build the
#: playout kernel: about a minute, more on a busy machine).
START_SECONDS = 600


def delayed_start(seconds: float) -> int:
    """A worker's start (the service's ``_warm``) that takes ``seconds`` more, as a first run's build
    does (handed to the pool as ``functools.partial(delayed_start, seconds)``)."""
    time.sleep(seconds)
    return service._warm()


def until_ready(health: Callable[[], int]) -> None:
    """Wait until ``health()`` (the status of ``GET /v1/health``) is 200: the workers have started."""
    deadline = time.monotonic() + START_SECONDS
    while (status := health()) != 200:
        if status != 503 or time.monotonic() > deadline:
            raise RuntimeError(f"the service did not become ready (health {status})")
        time.sleep(0.1)


@contextmanager
def service_client(base_url: str = "http://localhost", **options: Any) -> Iterator[TestClient]:
    """A :class:`TestClient` of ``create_app(**options)`` whose workers have started."""
    with TestClient(create_app(**options), base_url=base_url) as client:
        until_ready(lambda: client.get("/v1/health").status_code)
        yield client


def _health(url: str) -> int:
    try:
        with urllib.request.urlopen(url + "/v1/health", timeout=30) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as e:
        return e.code


@contextmanager
def live_server(**options: Any) -> Iterator[str]:
    """Run the service with ``create_app(**options)``, as ``serve`` runs it (:func:`server_config`),
    and yield its base URL once its workers have started."""
    app = create_app(**options)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(server_config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the service did not start")
        time.sleep(0.05)
    try:
        url = f"http://127.0.0.1:{port}"
        until_ready(lambda: _health(url))
        yield url
    finally:
        server.should_exit = True
        thread.join(timeout=60)
        sock.close()
