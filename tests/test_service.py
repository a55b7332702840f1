"""The HTTP service: the operations over HTTP, status codes, limits, CORS, the schema and the pool."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

import helpers_service
from helpers_service import live_server, service_client
from trio_solver import __version__
from trio_solver.doors.protocol import OPS, handle
from trio_solver.doors import service
from trio_solver.doors.service import WEB_DIR, create_app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
FULL = json.loads((ROOT / "examples" / "full_deal_4p.json").read_text(encoding="utf-8"))
VIEWER = json.loads((ROOT / "examples" / "viewer_3p_picante.json").read_text(encoding="utf-8"))
#: The test client's address: a loopback name, which the service's Host check accepts.
LOCAL = "http://localhost"
JSON = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with service_client(LOCAL, workers=2, timeout=120, cors=["http://board.example"]) as c:
        yield c


def error_of(resp: httpx.Response, status: int) -> str:
    assert resp.status_code == status, resp.text
    assert resp.headers["content-type"].startswith("application/json")
    body = resp.json()
    assert set(body) == {"error"} and isinstance(body["error"], str)
    assert "\n" not in body["error"] and "Traceback" not in body["error"]
    return str(body["error"])


# ---------------------------------------------------------------------------
# the operations


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_op_over_http_equals_the_protocol(client: TestClient, path: Path) -> None:
    rec = json.loads(path.read_text(encoding="utf-8"))
    n = len(rec["events"])
    requests: list[tuple[str, dict[str, Any]]] = [
        ("validate", {"record": rec}), ("replay", {"record": rec}), ("state", {"record": rec, "after": n // 2}),
        ("beliefs", {"record": rec, "after": n // 2}), ("beliefs", {"record": rec, "seat": None}),
        ("analyse", {"record": rec, "samples": 8, "seed": 2}), ("evaluate", {"record": rec, "samples": 20, "seed": 1}),
    ]
    for op, body in requests:
        resp = client.post(f"/v1/{op}", json=body)
        assert resp.status_code == 200, resp.text
        assert resp.json() == handle(op, dict(body)), op


def test_advise_new_game_move_bot(client: TestClient) -> None:
    body = {"record": FULL, "after": 4, "seat": 0, "objective": "win"}
    resp = client.post("/v1/advise", json=body)
    assert resp.status_code == 200 and resp.json() == handle("advise", dict(body))
    game = client.post("/v1/new_game", json={"rules": {"players": 3, "mode": "simple"}, "seed": 9}).json()
    assert game == handle("new_game", {"rules": {"players": 3, "mode": "simple"}, "seed": 9})
    choice = client.post("/v1/bot", json={"record": game["record"], "bot": "solver", "seed": 1}).json()
    moved = client.post("/v1/move", json={"record": game["record"], "reveal": choice["reveal"]}).json()
    assert moved["status"] in ("continue", "failed") and isinstance(moved["value"], int)
    assert len(moved["record"]["events"]) == 1
    assert client.post("/v1/version").json()["version"] == __version__


def test_health_schema_and_board(client: TestClient) -> None:
    assert client.get("/v1/health").json()["status"] == "ok"
    schema = client.get("/openapi.json").json()
    for op in ("version", "validate", "state", "beliefs", "advise", "evaluate", "analyse", "new_game", "move", "bot"):
        post = schema["paths"][f"/v1/{op}"]["post"]
        assert set(post["responses"]) >= {"200", "400", "413", "503", "504"}
    assert "record" in schema["paths"]["/v1/beliefs"]["post"]["requestBody"]["content"]["application/json"][
        "schema"]["properties"]
    page = client.get("/")
    assert page.status_code == 200 and page.text == (WEB_DIR / "index.html").read_text(encoding="utf-8")
    for name in ("board.js", "board.css", "examples/full_deal_4p.json"):
        assert client.get(f"/static/{name}").status_code == 200


def test_the_schema_is_the_protocols_table(client: TestClient) -> None:
    """The routes and the OpenAPI schema are built from the protocol's one table of operations."""
    paths = client.get("/openapi.json").json()["paths"]
    assert [p for p in paths if p.startswith("/v1/") and p != "/v1/health"] == [f"/v1/{op}" for op in OPS]
    for name, op in OPS.items():
        post = paths[f"/v1/{name}"]["post"]
        body = post["requestBody"]["content"]["application/json"]["schema"]
        assert post["summary"] == op.summary
        assert body["properties"] == op.args and body["required"] == list(op.required)


def test_bundled_examples_are_the_examples() -> None:
    shipped = sorted(p.name for p in (WEB_DIR / "examples").glob("*.json"))
    assert shipped == [p.name for p in EXAMPLES]
    for p in EXAMPLES:
        assert (WEB_DIR / "examples" / p.name).read_bytes() == p.read_bytes()


# ---------------------------------------------------------------------------
# errors


@pytest.mark.parametrize("body, needle", [
    (b"{broken", "not valid JSON"),
    (b"[1]", "JSON object, got a list"),
    (b'"x"', 'JSON object, got "x"'),
    (b"\xff\xfe", "UTF-8"),
    (json.dumps({"record": 5}).encode(), "expected a trio-record/1 object"),
    (json.dumps({"record": FULL, "seat": "one"}).encode(), "seat"),
    (json.dumps({"record": FULL, "after": 1000}).encode(), "expected 0 to 17 events"),
    (json.dumps({"record": FULL, "op": "beliefs"}).encode(), "unknown argument"),
    (json.dumps({"record": {**VIEWER, "events": [{"turn": 2, "reveals": []}]}}).encode(), "event 0"),
    (b"", "record: missing"),
])
def test_bad_requests_are_400_with_one_line(client: TestClient, body: bytes, needle: str) -> None:
    msg = error_of(client.post("/v1/beliefs", content=body, headers=JSON), 400)
    assert needle in msg, msg
    # and the service goes on
    assert client.post("/v1/beliefs", json={"record": VIEWER}).status_code == 200


def test_unknown_paths_and_methods(client: TestClient) -> None:
    assert 'unknown op "solve"' in error_of(client.post("/v1/solve", json={}), 404)
    error_of(client.get("/nowhere"), 404)
    error_of(client.get("/v1/advise"), 405)
    error_of(client.get("/static/../pyproject.toml"), 404)


def test_body_size_limit_is_413(client: TestClient) -> None:
    big = b'{"record": "' + b"x" * (9 * 1024 * 1024) + b'"}'
    assert "larger than" in error_of(client.post("/v1/validate", content=big), 413)

    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit is counted while reading
        for _ in range(9):
            yield b" " * (1024 * 1024)

    error_of(client.post("/v1/validate", content=chunks()), 413)
    assert client.post("/v1/validate", json={"record": FULL}).status_code == 200


def test_time_limit_is_504_and_the_worker_stops_itself() -> None:
    with service_client(LOCAL, workers=1, timeout=0.5) as client:
        pool = client.app.state.pool  # type: ignore[attr-defined]
        before = pool.pids()
        # 150,000 playouts (precision 0: no early stop): far over half a second
        msg = error_of(client.post("/v1/evaluate", json={"record": FULL, "after": 2, "samples": 150_000,
                                                         "precision": 0}), 504)
        assert "time limit" in msg
        assert client.post("/v1/version").status_code == 200
        assert client.post("/v1/state", json={"record": FULL}).status_code == 200
        assert pool.pids() == before  # the same worker: it stopped itself, nothing was replaced


def test_a_killed_worker_is_replaced() -> None:
    with service_client(LOCAL, workers=1, timeout=30) as c:
        pool = c.app.state.pool  # type: ignore[attr-defined]
        (pid,) = pool.pids()
        os.kill(pid, signal.SIGKILL)
        resp = c.post("/v1/beliefs", json={"record": VIEWER})
        assert resp.status_code == 200 and resp.json() == handle("beliefs", {"record": VIEWER})
        assert pool.pids() and pool.pids() != [pid]


def test_cors(client: TestClient) -> None:
    pre = client.options("/v1/advise", headers={"Origin": "http://board.example", "Access-Control-Request-Method": "POST",
                                                "Access-Control-Request-Headers": "content-type"})
    assert pre.status_code == 200 and pre.headers["access-control-allow-origin"] == "http://board.example"
    resp = client.post("/v1/version", headers={"Origin": "http://elsewhere.example"})
    assert "access-control-allow-origin" not in resp.headers
    with service_client(LOCAL, workers=1) as c:
        resp = c.post("/v1/version", headers={"Origin": "http://board.example"})
        assert "access-control-allow-origin" not in resp.headers


def test_busy_is_503_over_a_real_socket() -> None:
    """One worker and room for one request: a second request while the first computes is turned away."""
    with live_server(workers=1, queue=1, timeout=90) as url:
        slow: dict[str, Any] = {}

        def run_slow() -> None:
            # 60,000 playouts (precision 0: no early stop), several seconds of work
            slow["resp"] = httpx.post(f"{url}/v1/evaluate", json={"record": FULL, "after": 2, "samples": 60_000,
                                                                  "precision": 0}, timeout=80)

        t = threading.Thread(target=run_slow)
        t.start()
        deadline = 0
        while deadline < 200:
            if httpx.get(f"{url}/v1/health", timeout=10).json()["admitted"] == 1:
                break
            threading.Event().wait(0.02)
            deadline += 1
        busy = httpx.post(f"{url}/v1/validate", json={"record": FULL}, timeout=60)
        assert "busy" in error_of(busy, 503)
        t.join(80)
        assert slow["resp"].status_code == 200
        assert httpx.post(f"{url}/v1/validate", json={"record": FULL}, timeout=60).status_code == 200


def test_the_service_answers_while_its_workers_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """The workers' start (3 s here; a minute on a machine's first run, while they build the kernel)
    does not hold the service back: the health check and every request answer 503 "starting" at once
    once the start has taken longer than the notice, then the service answers as usual."""
    monkeypatch.setattr(service, "_warm", functools.partial(helpers_service.delayed_start, 3))
    monkeypatch.setattr(service, "WARM_NOTICE", 0.2)
    with TestClient(create_app(workers=1, timeout=30), base_url=LOCAL) as client:
        health = client.get("/v1/health")
        assert health.status_code == 503 and health.json()["status"] == "starting"
        time.sleep(0.5)
        started = time.monotonic()
        assert "starting" in error_of(client.post("/v1/validate", json={"record": FULL}), 503)
        assert time.monotonic() - started < 2
        helpers_service.until_ready(lambda: client.get("/v1/health").status_code)
        assert client.get("/v1/health").json()["status"] == "ok"
        assert client.post("/v1/validate", json={"record": FULL}).status_code == 200


def test_a_request_during_a_short_start_waits_for_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A start shorter than the notice (the kernel loaded from disk) keeps a request waiting, within
    its time limit, instead of turning it away."""
    monkeypatch.setattr(service, "_warm", functools.partial(helpers_service.delayed_start, 3))
    monkeypatch.setattr(service, "WARM_NOTICE", 30.0)
    with TestClient(create_app(workers=1, timeout=30), base_url=LOCAL) as client:
        assert client.get("/v1/health").status_code == 503
        resp = client.post("/v1/state", json={"record": FULL})
        assert resp.status_code == 200 and resp.json() == handle("state", {"record": FULL})


def _slow_start_service(sigint: Any) -> tuple[subprocess.Popen[str], list[int]]:
    """``serve`` in a process of its own, started with SIGINT handled by ``sigint``, whose workers would take
    a minute to start: the process, once it answers 503, and its workers."""
    port = _free_port()
    script = textwrap.dedent(f"""
        import functools
        import sys
        import helpers_service
        from trio_solver.__main__ import main
        from trio_solver.doors import service
        service._warm = functools.partial(helpers_service.delayed_start, 60)
        sys.argv = ["trio-solver", "serve", "--port", "{port}", "--workers", "1"]
        sys.exit(main())
    """)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, sigint))
    url = f"http://127.0.0.1:{port}/v1/health"
    deadline = time.monotonic() + 60
    status = None
    while status is None and time.monotonic() < deadline and proc.poll() is None:
        try:
            status = httpx.get(url, timeout=5).status_code
        except httpx.TransportError:
            time.sleep(0.1)
    children = _children(proc.pid)
    assert status == 503, (status, proc.poll())
    assert children  # the worker, starting
    return proc, children


def _kill_all(proc: subprocess.Popen[str], children: list[int]) -> None:
    for pid in [proc.pid, *children, *_children(proc.pid)]:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    proc.communicate(timeout=30)


def test_ctrl_c_stops_the_service_while_its_workers_start() -> None:
    """A start that would take a minute: the service answers 503 meanwhile, and Ctrl-C ends it in a
    few seconds, its workers with it."""
    # SIG_DFL: Ctrl-C works even when the tests run in the background, where the shell starts them with
    # SIGINT ignored (and children inherit that)
    proc, children = _slow_start_service(signal.SIG_DFL)
    try:
        stopped = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        assert time.monotonic() - stopped < 15, err
        assert proc.returncode == 130, (proc.returncode, err)
        assert err.endswith("trio-solver: interrupted\n"), err
        assert "Traceback" not in err and "never retrieved" not in err, err
        assert "; 1 worker, 30 s limit)" in out, out  # the banner
        time.sleep(0.5)
        assert not [pid for pid in children if _alive(pid)]
    finally:
        _kill_all(proc, children)


def test_a_background_service_ignores_ctrl_c_and_stops_on_sigterm() -> None:
    """Started with Ctrl-C ignored, as a shell starts a background job, the service keeps serving through
    a SIGINT (as every command keeps an ignored Ctrl-C ignored); SIGTERM ends it, its workers with it."""
    proc, children = _slow_start_service(signal.SIG_IGN)
    try:
        proc.send_signal(signal.SIGINT)
        time.sleep(2)
        assert proc.poll() is None
        assert all(_alive(pid) for pid in children)
        stopped = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
        assert time.monotonic() - stopped < 15, err
        assert proc.returncode == -signal.SIGTERM, (proc.returncode, err)
        assert "Traceback" not in err and "never retrieved" not in err, err
        time.sleep(0.5)
        assert not [pid for pid in children if _alive(pid)]
    finally:
        _kill_all(proc, children)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_the_workers_load_every_compiled_function_a_request_uses_before_the_first() -> None:
    """A worker starts with :func:`queries.warm_up`, which loads the playout kernel (or builds it, on the
    machine's first run: about a minute, which a request under its time limit could not pay). After it,
    no request of the game-level kind loads or compiles another function of the kernel: the game-level
    questions and the searching bots at 3 to 6 players, teams and swaps included. A fresh process, so
    that nothing loaded by other tests hides a miss."""
    script = textwrap.dedent(f"""
        import json
        from numba.core.registry import CPUDispatcher
        from trio_solver import kernel
        from trio_solver.doors import protocol, queries

        def loaded():
            return {{name: set(d.signatures) for name, d in vars(kernel).items() if isinstance(d, CPUDispatcher)}}

        queries.warm_up()
        before = loaded()
        for name in {[str(p) for p in (ROOT / "examples" / "full_deal_4p.json", ROOT / "examples" / "teams_4p.json",
                                     ROOT / "tests" / "corpus" / "p3_picante_bot.json",
                                     ROOT / "tests" / "corpus" / "p6_simple_teams_bot.json")]!r}:
            record = json.load(open(name, encoding="utf-8"))
            for after in (len(record["events"]) // 3, len(record["events"]) // 2):
                protocol.handle("evaluate", {{"record": record, "after": after, "samples": 64}})
                protocol.handle("advise", {{"record": record, "after": after, "objective": "game", "samples": 64}})
                for bot in ("expert", "expert-ties", "playout"):
                    protocol.handle("bot", {{"record": {{**record, "events": record["events"][:after]}}, "bot": bot,
                                            "budget": 64}})
            protocol.handle("analyse", {{"record": record, "samples": 8}})
        after = loaded()
        print(json.dumps({{"warmed": sum(map(len, before.values())),
                          "new": sorted(n for n in after if after[n] - before[n])}}))
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-2000:]
    got = json.loads(run.stdout.strip().splitlines()[-1])
    assert got["new"] == []
    assert got["warmed"] >= 5  # the batch runners at least: outcomes, tallies, swaps, the reading, the sampler


@contextlib.contextmanager
def _as_a_worker() -> Iterator[None]:
    """This process set up as a service worker (its alarm, Ctrl-C and unraisable hook), then put back."""
    before = signal.getsignal(signal.SIGALRM), signal.getsignal(signal.SIGINT), sys.unraisablehook
    try:
        service._init_worker()
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before[0])
        signal.signal(signal.SIGINT, before[1])
        sys.unraisablehook = before[2]


def test_the_alarm_set_again_after_a_callback_rings_until_the_request_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a busy machine the worker may be held up right after the alarm is set again (the test holds up
    the hook that sets it for 50 ms): a ring that falls there is lost, and the next one still ends the
    request as over its time limit, instead of letting it run on."""
    import ctypes

    def compiling(op: str, args: dict[str, object]) -> dict[str, object]:
        ctypes.CFUNCTYPE(None)(lambda: time.sleep(0.3))()  # the alarm rings in there
        end = time.monotonic() + 10.0
        while time.monotonic() < end:
            time.sleep(0.001)
        return {}

    def held_up(unraisable: Any) -> None:
        service._overtime_again(unraisable)
        time.sleep(0.05)

    monkeypatch.setattr(service, "handle", compiling)
    with _as_a_worker():
        sys.unraisablehook = held_up
        started = time.monotonic()
        status, line = service._work("analyse", b"", 0.1, 30.0)
        took = time.monotonic() - started
        left = signal.getitimer(signal.ITIMER_REAL)
    assert (status, line) == ("timeout", "analyse: over the time limit of 30 s")
    assert took < 5
    assert left == (0.0, 0.0)  # no ring is left set after the request


@pytest.mark.parametrize("then", ["fails", "goes on"])
def test_the_time_limit_inside_a_native_callback_is_a_timeout(monkeypatch: pytest.MonkeyPatch, then: str) -> None:
    """The time limit's alarm may ring in Python code called back from native code (numba's compiler does
    that), where its exception cannot unwind: the native code then fails with an error of its own, or goes
    on. Either way the request ends as over its time limit (504), never as an internal error (500), and
    the worker keeps no traceback in the log."""
    import ctypes

    calls: list[str] = []

    def compiling(op: str, args: dict[str, object]) -> dict[str, object]:
        end = time.monotonic() + 10.0
        callback = ctypes.CFUNCTYPE(None)(lambda: time.sleep(0.3))  # the alarm rings in there
        callback()
        calls.append("after the callback")
        if then == "fails":
            raise RuntimeError("no compiled object yet")
        while time.monotonic() < end:  # the alarm, rung again, stops this
            time.sleep(0.001)
        calls.append("ran to its end")
        return {}

    monkeypatch.setattr(service, "handle", compiling)
    printed: list[object] = []
    monkeypatch.setattr(sys, "__unraisablehook__", printed.append)
    with _as_a_worker():
        status, line = service._work("analyse", b"", 0.1, 30.0)
    assert (status, line) == ("timeout", "analyse: over the time limit of 30 s")
    assert calls == ["after the callback"]
    assert printed == []
