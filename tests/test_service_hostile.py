"""The HTTP service against hostile clients: Host and content-type checks, HEAD, header and
body time limits, a client's fair share of the queue, disconnects in one log line, /docs offline."""

from __future__ import annotations

import gzip
import http.client
import json
import logging
import select
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from fastapi.testclient import TestClient

from helpers_service import live_server, service_client
from helpers_cli import run_main
from trio_solver.errors import RunError
from trio_solver.doors import service
from trio_solver.doors.hosts import cors_origin
from trio_solver.doors.service import HostCheck, create_app, host_pattern

ROOT = Path(__file__).resolve().parent.parent
FULL = json.loads((ROOT / "examples" / "full_deal_4p.json").read_text(encoding="utf-8"))
LOCAL = "http://localhost"
JSON = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with service_client(LOCAL, workers=1, timeout=120) as c:
        yield c


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    """The service on a port of its own, as ``serve`` runs it (uvicorn's HTTP parsing in front)."""
    with live_server(workers=1) as url:
        yield url


def error_of(resp: httpx.Response, status: int) -> str:
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert set(body) == {"error"} and "\n" not in body["error"]
    return str(body["error"])


# -- 2 and 6: a lone surrogate is a 400, errors name the argument ------------------------------------------


def test_2_lone_surrogate_names_are_400_not_500(client: TestClient) -> None:
    body = b'{"rules": {"players": 3, "mode": "simple"}, "names": ["a", "b", "\\ud800"]}'
    msg = error_of(client.post("/v1/new_game", content=body, headers=JSON), 400)
    assert msg == "names[2]: holds a lone surrogate, which is not Unicode text (\\ud800)"
    body = b'{"rules": {"players": 3, "mode": "simple"}, "names": ["a", "\\u001b]0;x\\u0007", "c"]}'
    assert error_of(client.post("/v1/new_game", content=body, headers=JSON), 400).startswith(
        "names[1]: holds a control character (\\x1b)")
    assert error_of(client.post("/v1/version", content=b'{"x": 1e999}', headers=JSON), 400).endswith(
        'the number "1e999" is beyond the range of a float')
    assert client.post("/v1/new_game", json={"rules": {"players": 3, "mode": "simple"},
                                             "names": ["Ann", "Bé", "=C"]}).status_code == 200


@pytest.mark.parametrize("depth, error", [(600, "x: unknown key"), (990, "request: JSON nested too deeply")])
def test_deep_json_is_a_400_and_the_workers_stay(client: TestClient, depth: int, error: str) -> None:
    """Deeply nested JSON (the worker parses the body; the parser gives up near 1,000 levels, pickle would
    have near 500) is the client's mistake: a 400 in one line, and the workers that serve the others stay."""
    workers = client.app.state.pool.executor  # type: ignore[attr-defined]
    body = '{"record": {"x": ' + "[" * depth + "]" * depth + "}}"
    msg = error_of(client.post("/v1/validate", content=body.encode(), headers=JSON), 400)
    assert msg.startswith(error)
    # the same workers answer the next request
    assert client.app.state.pool.executor is workers  # type: ignore[attr-defined]
    assert client.post("/v1/validate", json={"record": FULL}).status_code == 200


def test_6_service_names_the_argument(client: TestClient) -> None:
    msg = error_of(client.post("/v1/replay", json={"record": FULL, "after": 99}), 400)
    assert msg == "after: expected 0 to 17 events, got 99"
    msg = error_of(client.post("/v1/advise", json={"record": FULL, "seat": None}), 400)
    assert msg.startswith("seat: advice is for the seat to move")


# -- 9: HEAD on every GET route ------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/v1/health", "/docs", "/openapi.json", "/static/board.js"])
def test_9_head_answers_as_get_without_a_body(client: TestClient, path: str) -> None:
    get = client.get(path)
    head = client.head(path)
    assert get.status_code == head.status_code == 200
    assert head.content == b"" and get.content
    assert head.headers["content-type"] == get.headers["content-type"]


def test_9_wrong_methods_are_405_with_allow(client: TestClient) -> None:
    resp = client.head("/v1/advise")
    assert resp.status_code == 405 and resp.headers["allow"] == "POST"
    assert "method not allowed" in error_of(client.get("/v1/advise"), 405)


# -- 13: Host and content type -----------------------------------------------------------------------------


def test_13_host_check_unit() -> None:
    local = HostCheck("127.0.0.1")
    for ok in (None, "localhost", "LOCALHOST:8765", "localhost.", "127.0.0.1:8765", "[::1]:8765", "[::1]"):
        assert local.allows(ok), ok
    for bad in ("attacker.example", "attacker.example:8765", "127.0.0.1.attacker.example", "10.0.0.5",
                "localhost.attacker.example", "", "evil:80:80"):
        assert not local.allows(bad), bad
    wide = HostCheck("0.0.0.0", ["trio.example.org", "*.lan"])
    for ok in ("10.0.0.5:8765", "[fe80::1]", "trio.example.org", "box.lan:8765", "a.b.lan", "localhost"):
        assert wide.allows(ok), ok
    for bad in ("example.org", "lan", "xlan", "attacker.example"):
        assert not wide.allows(bad), bad
    assert HostCheck("192.168.1.5").allows("192.168.1.5:8765") and not HostCheck("192.168.1.5").allows("10.0.0.1")
    assert HostCheck("127.0.0.1", ["*"]).allows("anything.example")
    assert host_pattern(" Proxy.Example.ORG. ") == "proxy.example.org" and host_pattern("[::1]") == "::1"
    for bad in ("", "a b", "http://x", "x/y", "\x1b[2J", "*x", "a*b", ".x", "-x", "x" * 300):
        with pytest.raises(RunError, match="allow_hosts"):
            host_pattern(bad)


def test_13_foreign_hosts_are_refused_before_anything_runs(client: TestClient) -> None:
    for path in ("/", "/v1/health", "/docs", "/static/board.js"):
        msg = error_of(client.get(path, headers={"Host": "rebound.attacker.example:8765"}), 400)
        assert msg.startswith('Host "rebound.attacker.example:8765" is not an address of this service')
    resp = client.post("/v1/new_game", json={"rules": {"players": 3, "mode": "simple"}},
                       headers={"Host": "rebound.attacker.example"})
    assert resp.status_code == 400 and resp.headers["connection"] == "close"
    assert client.get("/v1/health", headers={"Host": "127.0.0.1:8765"}).status_code == 200
    with service_client("http://trio.example.org", workers=1, allow_hosts=["trio.example.org"]) as c:
        assert c.get("/v1/health").status_code == 200
        assert c.get("/v1/health", headers={"Host": "other.example.org"}).status_code == 400


@pytest.mark.parametrize("content_type", ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", "application/jsonx", "json"])
def test_13_bodies_must_be_declared_json(client: TestClient, content_type: str) -> None:
    """The types a page of another site may send without a CORS preflight are refused."""
    body = json.dumps({"rules": {"players": 3, "mode": "simple"}}).encode()
    msg = error_of(client.post("/v1/new_game", content=body, headers={"Content-Type": content_type}), 415)
    assert "Content-Type: application/json" in msg


def test_13_json_bodies_and_empty_bodies(client: TestClient) -> None:
    body = json.dumps({"rules": {"players": 3, "mode": "simple"}, "seed": 1}).encode()
    for ctype in ("application/json", "Application/JSON; charset=utf-8"):
        assert client.post("/v1/new_game", content=body, headers={"Content-Type": ctype}).status_code == 200
    assert "the body must be JSON" in error_of(client.post("/v1/new_game", content=body), 415)  # no type
    assert client.post("/v1/version").status_code == 200  # no body: nothing to declare


# -- 15: the API page works offline ------------------------------------------------------------------------


def test_15_docs_page_loads_nothing_from_elsewhere(client: TestClient) -> None:
    resp = client.get("/docs")
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/html")
    assert resp.headers["content-security-policy"] == "default-src 'none'; style-src 'unsafe-inline'"
    page = resp.text
    assert "<script" not in page and "http://" not in page and "https://" not in page and "cdn" not in page
    for op in ("version", "validate", "replay", "state", "beliefs", "advise", "evaluate", "analyse", "new_game",
               "move", "bot"):
        assert f"POST /v1/{op}</code>" in page
    assert "<code>record</code>" in page and "504 over the time limit" in page
    assert client.get("/redoc").status_code == 404


# -- 10, 14: over a real socket ----------------------------------------------------------------------------


def _port(url: str) -> int:
    port = urlsplit(url).port
    assert port is not None
    return port


def _read_all(sock: socket.socket, limit: float) -> tuple[bytes, float]:
    """Everything until the server closes the connection, and the seconds it took."""
    start = time.monotonic()
    sock.settimeout(limit)
    data = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        data += chunk
    return data, time.monotonic() - start


def _stalled_body(port: int, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), source_address=(source, 0))
    sock.sendall(b"POST /v1/validate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 5000\r\n\r\n{\"record\": ")
    return sock


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_10_a_disconnect_mid_body_is_one_log_line() -> None:
    with live_server(workers=1) as url:
        port = _port(url)
        log = logging.getLogger("uvicorn.error")
        lines = _Lines()
        log.addHandler(lines)
        try:
            for _ in range(5):
                sock = _stalled_body(port)
                time.sleep(0.2)
                sock.close()
            deadline = time.monotonic() + 30
            while len(lines.records) < 5 and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(0.3)
            assert httpx.get(f"{url}/v1/health", timeout=10).json()["admitted"] == 0
        finally:
            log.removeHandler(lines)
    texts = [r.getMessage() for r in lines.records]
    assert len(texts) == 5, texts
    for r, text in zip(lines.records, texts):
        assert r.exc_info is None and "\n" not in text and r.levelno == logging.WARNING
        assert text == "/v1/validate: the client 127.0.0.1 went away before the end of its request body"


def test_14_headers_that_never_finish_are_cut() -> None:
    with live_server(workers=1, read_timeout=1) as url:
        port = _port(url)
        partial = socket.create_connection(("127.0.0.1", port))
        partial.sendall(b"GET /v1/health HTTP/1.1\r\nHost: localhost\r\n")
        silent = socket.create_connection(("127.0.0.1", port))
        data, took = _read_all(partial, 30)
        assert data.startswith(b"HTTP/1.1 408 ") and b"the request headers did not arrive within 1 s" in data
        assert 0.9 < took < 10
        data, _ = _read_all(silent, 30)
        assert data.startswith(b"HTTP/1.1 408 ")
        # a kept-alive connection that then drips a header a byte at a time is cut all the same
        drip = socket.create_connection(("127.0.0.1", port))
        drip.sendall(b"GET /v1/health HTTP/1.1\r\nHost: localhost\r\n\r\n")
        first = drip.recv(65536)
        assert first.startswith(b"HTTP/1.1 200 ")
        start = time.monotonic()
        with pytest.raises(OSError):
            for byte in b"GET /v1/health HTTP/1.1\r\nX-Slow: " + b"a" * 200:
                drip.sendall(bytes([byte]))
                time.sleep(0.2)
        assert time.monotonic() - start < 10
        # a stalled body: 408 from the application after the limit, and the connection closed
        data, took = _read_all(_stalled_body(port), 30)
        assert data.startswith(b"HTTP/1.1 408 ") and b"the request body did not arrive within 1 s" in data
        assert took < 10
        assert httpx.get(f"{url}/v1/health", timeout=10).json()["admitted"] == 0


@pytest.mark.parametrize("raw", [
    b"GARBAGE\r\n\r\n",
    b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: other\r\n\r\n",
    b"GET /\xff\x1b HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"POST /v1/version HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -5\r\n\r\n",
    b"POST /v1/version HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 99999999999999999999999\r\n\r\n",
], ids=["request line", "two hosts", "bytes in the path", "negative length", "huge length"])
def test_a_request_http_cannot_read_is_answered_in_json(served: str, raw: bytes) -> None:
    """uvicorn answers such a request in plain text, or with nothing: the service answers 400 with
    ``{"error": ...}``, as every other error, and closes the connection."""
    sock = socket.create_connection(("127.0.0.1", _port(served)))
    sock.sendall(raw)
    data, _ = _read_all(sock, 30)
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 ") and b"content-type: application/json" in head.lower()
    assert json.loads(body) == {"error": "not a valid HTTP/1.1 request (its request line, headers or framing)"}


def test_14_stalled_bodies_from_one_client_cannot_lock_out_others() -> None:
    """The issue's attack: 64 stalled bodies from one address. With the default queue of 64 one client
    holds at most 16 places; the 48 others are turned away at once and another client is served."""
    with live_server(workers=1, read_timeout=30) as url:
        port = _port(url)
        stalled = [_stalled_body(port) for _ in range(64)]
        try:
            answered: dict[int, bytes] = {}
            deadline = time.monotonic() + 20
            while len(answered) < 48 and time.monotonic() < deadline:
                ready, _, _ = select.select([s for s in stalled if s.fileno() not in answered], [], [], 0.5)
                for sock in ready:
                    answered[sock.fileno()] = _read_all(sock, 10)[0]
            assert len(answered) == 48
            for head in answered.values():
                assert head.startswith(b"HTTP/1.1 503 ") and b"of this client in progress (at most 16" in head
            assert httpx.get(f"{url}/v1/health", timeout=10).json()["admitted"] == 16
            other = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"), timeout=60)
            with other:
                resp = other.post(f"{url}/v1/validate", json={"record": FULL})
            assert resp.status_code == 200 and resp.json()["valid"] is True
        finally:
            for sock in stalled:
                sock.close()


def test_options_are_checked() -> None:
    for kwargs, needle in [({"workers": 0}, "workers"), ({"timeout": float("nan")}, "timeout"),
                           ({"read_timeout": float("inf")}, "read_timeout"), ({"queue": 4, "client_share": 5},
                                                                              "client_share"),
                           ({"allow_hosts": ["a b"]}, "allow_hosts"), ({"timeout": True}, "timeout")]:
        with pytest.raises(RunError, match=needle):
            create_app(**kwargs)


def test_concurrent_clients_each_get_their_share() -> None:
    """Two addresses, each over its share: each is refused beyond its share, never the other one."""
    with live_server(workers=1, queue=4, read_timeout=5) as url:
        port = _port(url)
        mine = [_stalled_body(port, "127.0.0.1") for _ in range(2)]
        theirs = [_stalled_body(port, "127.0.0.3") for _ in range(2)]
        try:
            deadline = time.monotonic() + 20
            while httpx.get(f"{url}/v1/health", timeout=10).json()["admitted"] < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
            # share 1 (a quarter of 4): the second of each address is refused, the first holds its place
            for group in (mine, theirs):
                group[1].settimeout(10)
                assert _read_all(group[1], 10)[0].startswith(b"HTTP/1.1 503 ")
            assert httpx.get(f"{url}/v1/health", timeout=10).json()["admitted"] == 2
            done: dict[str, int] = {}

            def fourth() -> None:
                with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.4"), timeout=60) as c:
                    done["status"] = c.post(f"{url}/v1/version").status_code

            t = threading.Thread(target=fourth)
            t.start()
            t.join(60)
            assert done == {"status": 200}
        finally:
            for sock in mine + theirs:
                sock.close()


# -- serve's options on the command line -----------------------------------------------------------------------------


@pytest.mark.parametrize("argv, status, needle", [
    (["serve", "--timeout", "nan"], 2, "--timeout"),
    (["serve", "--timeout", "-1"], 2, "--timeout"),
    (["serve", "--read-timeout", "inf"], 2, "--read-timeout"),
    (["serve", "--port", "99999"], 2, "--port"),
    (["serve", "--port", "²"], 2, "--port"),
    (["serve", "--queue", "²"], 2, "--queue"),
    (["serve", "--client-share", "0"], 2, "--client-share"),
    (["serve", "--queue", "4", "--client-share", "5"], 2, "--client-share: expected a number of requests 1 to 4"),
    (["serve", "--client-share", "999"], 2, "--client-share: expected a number of requests 1 to 64 (--queue)"),
    (["serve", "--allow-host", "a b"], 2, "--allow-host: expected a host name"),
    (["serve", "--allow-host", "\x1b[2J"], 2, "--allow-host: expected a host name"),
    (["serve", "--host", ""], 2, "--host: expected an address to listen on"),
    (["serve", "--host", " "], 2, "--host: expected an address to listen on"),
    (["serve", "--host", "no such host.invalid"], 2, "--host: expected an address to listen on"),
    (["serve", "--host", "nosuchhost.invalid", "--port", "1"], 1, 'host: cannot listen on "nosuchhost.invalid"'),
])
def test_serve_options_are_checked_before_starting(argv: list[str], status: int, needle: str) -> None:
    got, out, err = run_main(argv)
    assert got == status and out == "", err
    assert needle in err and err.count("\n") == 1 and "\x1b" not in err


def test_a_port_in_use_is_one_line_before_any_banner() -> None:
    """``serve`` binds its port before it says it serves: a port in use is one line, status 1, nothing on
    standard output, and no worker started."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        got, out, err = run_main(["serve", "--port", str(port), "--workers", "1"])
    assert got == 1 and out == "", err
    assert err == f'trio-solver: cannot listen on "127.0.0.1" port {port}: Address already in use\n'


@pytest.mark.parametrize(("size", "content_type", "status"), [(9 * 1024 * 1024, "application/json", 413),
                                                              (8 * 1024 * 1024, "text/plain", 415)])
def test_a_client_that_sends_its_whole_refused_body_first_reads_the_answer(served: str, size: int,
                                                                            content_type: str, status: int) -> None:
    """A body refused before it is read (too large, not JSON) gets its answer even when the client sends all of
    it before reading: the service reads the rest and drops it instead of resetting the connection."""
    url = urlsplit(served)
    conn = http.client.HTTPConnection(url.hostname or "localhost", url.port, timeout=60)
    try:
        conn.request("POST", "/v1/validate", body=b"x" * size, headers={"Content-Type": content_type})
        resp = conn.getresponse()
        assert resp.status == status
        body = json.loads(resp.read())
        assert set(body) == {"error"}
        assert ("larger than" if status == 413 else "the body must be JSON") in body["error"]
    finally:
        conn.close()
    assert httpx.get(f"{served}/v1/health", timeout=30).status_code == 200


# -- the memory bodies take, the framing and coding of a body, the Host shown, the CORS origins --------------------


def test_the_server_holds_bodies_unparsed_and_the_workers_parse_them(client: TestClient,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A body is parsed in a worker (parsed, ``{"record": [[], [], ...]}`` takes 24 times its size), never in
    the server: the server's parser is not called, and a parse error is still the request's 400."""
    parsed: list[bytes] = []
    monkeypatch.setattr(service, "parse_request", lambda text: parsed.append(text) or {})
    assert client.post("/v1/validate", json={"record": FULL}).json()["valid"] is True
    msg = error_of(client.post("/v1/validate", content=b'{"record": [[], [], ', headers=JSON), 400)
    assert msg.startswith("request: ") and parsed == []


def _wait_for(check: Callable[[], bool], seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the service did not get there in time"
        time.sleep(0.02)


def test_the_bytes_of_bodies_held_at_once_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The review's attack: many large bodies at once, from several addresses. The bodies held at once are
    at most HELD_BYTES (here 48 kB): past it a request gets the busy answer (503, Retry-After), at once
    for a declared length, else as its bytes arrive; once the held body is gone the service answers as usual."""
    monkeypatch.setattr(service, "HELD_BYTES", 48 * 1024)
    admissions: list[service._Admission] = []

    class Seen(service._Admission):
        def __init__(self, *args: int) -> None:
            super().__init__(*args)
            admissions.append(self)

    monkeypatch.setattr(service, "_Admission", Seen)
    with live_server(workers=1, max_body=32 * 1024, read_timeout=30) as url:
        held = socket.create_connection(("127.0.0.1", _port(url)), source_address=("127.0.0.2", 0))
        held.sendall(b"POST /v1/validate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 32000\r\n\r\n" + b" " * 30_000)
        _wait_for(lambda: admissions[0].bytes == 30_000)
        record = json.dumps({"record": FULL}).encode()
        body = record + b" " * (20_000 - len(record))
        other = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.3"), timeout=60)
        with other:
            declared = other.post(f"{url}/v1/validate", content=body, headers=JSON)

            def in_two() -> Iterator[bytes]:
                """The body in two chunks, the second once the service holds the first."""
                yield body[:10_000]
                _wait_for(lambda: admissions[0].bytes == 40_000)
                yield body[10_000:]

            chunked = other.post(f"{url}/v1/validate", content=in_two(), headers=JSON)
            for resp in (declared, chunked):  # the refusal names the other requests' bodies, not its own
                assert error_of(resp, 503) == ("busy: other requests' bodies in progress hold 29.3 kB (at most 48.0 kB "
                                               "at once); try again shortly")
                assert resp.headers["retry-after"] == "1" and resp.headers["connection"] == "close"
            assert admissions[0].bytes == 30_000
            held.close()
            _wait_for(lambda: admissions[0].bytes == 0)
            resp = other.post(f"{url}/v1/validate", content=body, headers=JSON)
            assert resp.status_code == 200 and resp.json()["valid"] is True
        assert admissions[0].bytes == 0 and admissions[0].total == 0


def test_a_body_framed_twice_is_refused_and_the_connection_closed(served: str) -> None:
    """Content-Length and Transfer-Encoding both (RFC 9112, section 6.1): a proxy in front may read the body
    by the other one, and what one reads as the body's end the other reads as a request of its own."""
    sock = socket.create_connection(("127.0.0.1", _port(served)))
    sock.sendall(b"POST /v1/version HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
                 b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    data, _ = _read_all(sock, 10)
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 ") and b"connection: close" in head.lower()
    assert json.loads(body) == {"error": "a request with both Content-Length and Transfer-Encoding (its body's "
                                         "length is ambiguous)"}  # one answer: the second request was not read


@pytest.mark.parametrize("coding", ["gzip", "deflate", "br", "identity, gzip", "x-anything"])
def test_a_body_in_a_content_coding_is_415(client: TestClient, coding: str) -> None:
    body = gzip.compress(json.dumps({"record": FULL}).encode())
    resp = client.post("/v1/validate", content=body, headers={**JSON, "Content-Encoding": coding})
    msg = error_of(resp, 415)
    assert msg.startswith("the body must be plain JSON, not encoded (Content-Encoding ") and "identity" not in msg
    resp = client.post("/v1/validate", json={"record": FULL}, headers={"Content-Encoding": "Identity"})
    assert resp.status_code == 200 and resp.json()["valid"] is True


def test_a_host_that_is_not_ascii_is_not_shown_garbled(served: str) -> None:
    sock = socket.create_connection(("127.0.0.1", _port(served)))
    sock.sendall("GET /v1/health HTTP/1.1\r\nHost: évil.example\r\n\r\n".encode())
    data, _ = _read_all(sock, 10)
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 ")
    assert json.loads(body) == {"error": "a Host that is not ASCII is not an address of this service (a proxy's name "
                                         "is allowed with serve --allow-host NAME)"}


def test_cors_origins_are_checked() -> None:
    for given, origin in [("*", "*"), ("http://board.example", "http://board.example"),
                          (" HTTPS://Board.Example:8443/ ", "https://board.example:8443"),
                          ("http://127.0.0.1:8765", "http://127.0.0.1:8765"), ("http://[::1]:8080", "http://[::1]:8080")]:
        assert cors_origin(given) == origin
    for bad in ("", "null", "javascript:alert(1)", "http://a\x1b]0;x\x07", "file:///x", "ftp://a.example",
                "http://a.example/page", "http://a.example:", "http://a.example:99999", "http://user@a.example",
                "http://a b", "http://[::1", "http://[::1]x", "http://-a.example", "http://", "*.example"):
        with pytest.raises(RunError, match=r"^cors: expected \* or an origin"):
            cors_origin(bad)
    with pytest.raises(RunError, match="^cors: "):
        create_app(cors=["null"])


@pytest.mark.parametrize("origin", ["http://a\x1b]0;x\x07", "null", "javascript:alert(1)", "http://board.example/page"])
def test_serve_cors_is_checked_as_other_options(origin: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bad ``--cors`` is a usage error in one line, as a bad ``--allow-host`` (the service never starts)."""
    def started(**options: object) -> None:
        raise AssertionError(f"the service started with {options}")

    monkeypatch.setattr(service, "serve", started)
    got, out, err = run_main(["serve", "--cors", origin])
    assert got == 2 and out == "", err
    assert err.startswith("trio-solver: --cors: expected * or an origin http://HOST or https://HOST")
    assert err.count("\n") == 1 and "\x1b" not in err and "\x07" not in err
