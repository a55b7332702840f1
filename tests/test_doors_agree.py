"""One record, one seed, one verdict: the default game-level analysis is the same from the command, the
engine protocol, the HTTP service (which the web board calls) and the HTML report."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx

from helpers_cli import run_main
from helpers_service import live_server
from trio_solver.doors.protocol import respond

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "viewer_3p_picante.json"


def _labels(analysis: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(d["event"], d["reveal_index"], d["label"], d["sure"], d["loss"]) for d in analysis["decisions"]]


def test_every_door_gives_the_same_analysis(tmp_path: Path) -> None:
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    out = tmp_path / "report.html"
    status, printed, _ = run_main(["analyse", str(EXAMPLE), "--json", "--seed", "7", "--html", str(out)])
    assert status == 0
    cli = json.loads(printed)
    assert cli["judged_by"] == "game" and cli["samples"] > 16  # the default analysis, not a cheaper one
    engine = respond(json.dumps({"id": 1, "op": "analyse", "record": record, "seed": 7}))
    assert engine["ok"], engine
    with live_server() as base:
        served = httpx.post(f"{base}/v1/analyse", json={"record": record, "seed": 7}, timeout=300).json()
    page = out.read_text(encoding="utf-8")
    embedded = re.search(r'<script type="application/json" id="analysis">(.*?)</script>', page, re.S)
    assert embedded is not None
    report = json.loads(embedded.group(1))
    for other in (engine["result"], served, report):
        assert other == cli
    assert _labels(cli) and any(d["scored"] for d in cli["decisions"])
