"""The HTTP service: the operations over HTTP, status codes, limits, CORS, the schema and the pool."""

from __future__ import annotations

import json
import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from helpers_service import live_server
from trio_solver import __version__
from trio_solver.doors.protocol import handle
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
    with TestClient(create_app(workers=2, timeout=120, cors=["http://board.example"]), base_url=LOCAL) as c:
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
    (b'"x"', "JSON object, got a string"),
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
    assert "unknown op 'solve'" in error_of(client.post("/v1/solve", json={}), 404)
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
    with TestClient(create_app(workers=1, timeout=0.5), base_url=LOCAL) as client:
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
    with TestClient(create_app(workers=1, timeout=30), base_url=LOCAL) as c:
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
    with TestClient(create_app(workers=1), base_url=LOCAL) as c:
        resp = c.post("/v1/version", headers={"Origin": "http://board.example"})
        assert "access-control-allow-origin" not in resp.headers


def test_busy_is_503_over_a_real_socket() -> None:
    """One worker and room for one request: a second request while the first computes is turned away."""
    with live_server(workers=1, queue=1, timeout=90) as url:
        slow: dict[str, Any] = {}

        def run_slow() -> None:
            slow["resp"] = httpx.post(f"{url}/v1/evaluate", json={"record": FULL, "after": 2, "samples": 2000},
                                      timeout=60)

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
        t.join(60)
        assert slow["resp"].status_code == 200
        assert httpx.post(f"{url}/v1/validate", json={"record": FULL}, timeout=60).status_code == 200
