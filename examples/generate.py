"""Regenerate the example records of this folder from seeded bot games.

    python examples/generate.py

Every record comes from trio_solver itself, so the files are valid by
construction; the seeds make them identical on every run.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from trio_solver import Record, Rules
from trio_solver.decide.bots import make_bot
from trio_solver.run.simulate import play_game

HERE = Path(__file__).parent


def bot_game(rules: Rules, bots: list[str], seed: int):
    players = [make_bot(name, random.Random(seed * 10 + s)) for s, name in enumerate(bots)]
    return play_game(rules, players, rng=random.Random(seed), first_player=0)


def viewer_record(record: Record, seat: int, events: int | None = None) -> dict:
    """The record a person at seat ``seat`` would keep: their hand and the values shown, no deal."""
    data = record.to_json()
    data.pop("deal")
    data["viewer"] = {"seat": seat, "hand": list(record.deal.hands[seat])}
    team = record.rules.team_of(seat)
    for e in data["events"]:
        if "swap" in e and record.rules.team_of(e["swap"][0]) != team:
            e["cards"] = None
    if events is not None:
        data["events"] = data["events"][:events]
    return data


def main() -> None:
    names4 = ["Alice", "Bob", "Chloé", "Dan"]
    g = bot_game(Rules(4, "simple"), ["solver", "memory", "memory", "memory"], seed=11)
    full = Record.from_game(g, names=names4)
    (HERE / "full_deal_4p.json").write_text(full.dumps(indent=1) + "\n", encoding="utf-8")

    g3 = bot_game(Rules(3, "picante"), ["memory", "solver", "memory"], seed=5)
    rec3 = Record.from_game(g3, names=["Ana", "Ben", "Cleo"])
    viewer = viewer_record(rec3, seat=1, events=len(rec3.events) // 2)
    (HERE / "viewer_3p_picante.json").write_text(json.dumps(viewer, indent=1, ensure_ascii=False) + "\n",
                                                 encoding="utf-8")

    gt = bot_game(Rules(4, "simple", teams=True), ["solver", "memory", "solver", "memory"], seed=3)
    teams = Record.from_game(gt, names=["North", "East", "South", "West"])
    (HERE / "teams_4p.json").write_text(teams.dumps(indent=1) + "\n", encoding="utf-8")

    # A turn in progress: the person at seat 2 has just revealed one card and asks what to do next.
    g5 = bot_game(Rules(5, "simple"), ["memory"] * 5, seed=8)
    rec5 = Record.from_game(g5)
    data = viewer_record(rec5, seat=2)
    events = data["events"]
    cut = next(i for i, e in enumerate(events) if i >= 6 and e.get("turn") == 2 and len(e["reveals"]) >= 2
               and e["reveals"][0]["value"] == e["reveals"][1]["value"])
    events[cut]["reveals"] = events[cut]["reveals"][:1]
    data["events"] = events[: cut + 1]
    (HERE / "in_progress_5p.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    # the web board serves the same examples from the package
    board = HERE.parent / "trio_solver" / "doors" / "web" / "examples"
    for name in ("full_deal_4p.json", "viewer_3p_picante.json", "teams_4p.json", "in_progress_5p.json"):
        (board / name).write_bytes((HERE / name).read_bytes())
    print("wrote full_deal_4p.json, viewer_3p_picante.json, teams_4p.json and in_progress_5p.json in", HERE.name,
          "and the web board's copies")


if __name__ == "__main__":
    main()
