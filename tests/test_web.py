"""The web board in a real browser: Playwright driving Debian's Chromium against a live service."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from helpers_service import live_server
from trio_solver.doors.cli import main
from trio_solver.decide.bots import make_bot
from trio_solver.doors.protocol import handle
from trio_solver.game.record import Record
from trio_solver.game.rules import Rules
from trio_solver.game.view import replay_view
from trio_solver.run.simulate import play_game
from trio_solver.words import percent, pm

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
TIMEOUT = 60_000  # ms: the machine may be busy
expect.set_options(timeout=TIMEOUT)


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with live_server(workers=2, timeout=120) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@contextmanager
def board(browser: Browser, url: str, width: int, height: int, **options: Any) -> Iterator[tuple[Page, list[str]]]:
    """The board loaded at ``width`` × ``height`` (a phone's context below 500 px), and the list that
    collects its uncaught JavaScript errors; the context is closed on leaving."""
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=width < 500,
                                  has_touch=width < 500, **options)
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(url + "/")
    pg.wait_for_selector("body[data-ready]")
    try:
        yield pg, errors
    finally:
        context.close()


@pytest.fixture
def page(browser: Browser, url: str) -> Iterator[Page]:
    with board(browser, url, 1280, 900, accept_downloads=True) as (pg, errors):
        yield pg
    assert errors == [], errors  # no uncaught JavaScript error on the page


def settle(page: Page) -> None:
    """Wait until the page has no request in flight (the board marks ``body[data-busy]``)."""
    page.wait_for_selector("body[data-ready]:not([data-busy])", state="attached")


def cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    capsys.readouterr()
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def cli_error(capsys: pytest.CaptureFixture[str], path: Path) -> str:
    capsys.readouterr()
    assert main(["validate", str(path)]) == 1
    return capsys.readouterr().err.strip().split(f"{path}: ", 1)[1]


def advice_rows(page: Page) -> list[tuple[str, str, str]]:
    """(reveal, win now, trio) of each row of the advice table, as shown."""
    rows = page.locator("#advice tbody tr")
    return [(r.get_attribute("data-reveal") or "", r.locator("td").nth(1).inner_text(), r.locator("td").nth(2).inner_text())
            for r in rows.all()]


def fine(p: float) -> str:
    """A chance as the advice table shows it: a second decimal below 1%."""
    return percent(p, 2) if 0 < p < 0.01 else percent(p, 1)


def winning_values(path: Path, after: int | None = None) -> list[int]:
    """The values no one has taken whose trio would win the game at once for the side of the seat to move
    after ``after`` events of the record at ``path`` (all of them by default), from the rules' goal."""
    return winning_values_of(json.loads(path.read_text()), after)


def winning_values_of(doc: dict[str, Any], after: int | None = None) -> list[int]:
    """:func:`winning_values` of a record's JSON document."""
    record = Record.from_json(doc)
    view = replay_view(record.rules, record.events[:after], first_player=record.first_player)
    rules = view.rules
    taken = {v for t in view.trios for v in t}
    held = [v for s in rules.teams_of_seats[rules.team_of(view.to_move)] for v in view.trios[s]]
    return [v for v in range(1, 13) if v not in taken and rules.is_win([*held, v])]


def plan_words(top: dict[str, Any], names: list[str] | None = None, shown: int = 0, wins: list[int] = []) -> str:
    """The advice's plan line for reveal ``top`` of `advise --json`: the four likeliest values that can still
    make a trio and every other one whose trio wins the game (``wins``), each with what to ask next and said
    so if it wins, then the other values in two sums (``shown``: the cards face up in the turn before the
    reveal)."""
    r = top["reveal"]
    (kind, index), = r.items()
    seat = f"{names[index]} (seat {index})" if names and kind != "centre" else f"Seat {index}"
    where = f"centre slot {index}" if kind == "centre" else f"{kind} card of {seat}"
    hopes = sorted((st for st in top["plan"] if st["p_trio"] > 0), key=lambda st: -st["probability"])
    if not hopes:
        dead = [st for st in top["plan"] if st["probability"] > 0]
        if not shown:
            end = "no trio can be made this turn: the turn goes on and fails at the first card that differs"
        elif not dead:
            end = "it cannot show the value face up: the turn fails whatever it shows"
        else:
            end = "; ".join(f"if it shows {st['value']} ({percent(st['probability'])}), no trio of {st['value']}s can "
                            "follow: the turn goes on and fails at the first card that differs" for st in dead)
            other = 1 - sum(st["probability"] for st in dead)
            end += f"; any other value ({percent(other)}) fails the turn" if other > 1e-9 else ""
        return f"The plan for {short(r)} ({where}): {end}."
    parts = []
    listed = [st for k, st in enumerate(hopes) if k < 4 or st["value"] in wins]
    for st in listed:
        then = ", then ".join(short(x) for x in st["then"])
        parts.append(f"if it shows {st['value']} ({percent(st['probability'])}), "
                     + (f"then {then}: {fine(st['p_trio'])} chance of a trio" if then else "the trio is made")
                     + (", which wins the game" if st["value"] in wins else ""))
    text = "; ".join(parts)
    others = [st for st in hopes if st not in listed]
    if others:
        more = len(others)
        text += f"; {more} more value{'s' if more > 1 else ''} ({percent(sum(st['probability'] for st in others))}) that can still make one"
    none = 1 - sum(st["probability"] for st in hopes)  # every value the plan gives no chance, or does not list
    if none > 1e-9:
        text += f"; any other value ({percent(none)}) " + ("fails the turn" if shown else "leaves no trio this turn")
    return f"The plan for {short(r)} ({where}): {text}."


def event_words(fr: dict[str, Any], names: list[str] | None) -> str:
    """How the board tells an event: a turn as ``Alice (seat 0): l0=5 h2=7 — no match``, a swap as the
    replay's description with a capital."""
    move = fr["move"]
    if "seat" not in move:
        return fr["description"][:1].upper() + fr["description"][1:]
    seat = move["seat"]
    who = f"{names[seat]} (seat {seat})" if names else f"Seat {seat}"
    value = move["reveals"][0].split("=")[1]
    out = {"failure": "no match", "trio": f"a trio of {value}s", "in progress": "the turn goes on"}[move["outcome"]]
    if move["outcome"] == "trio" and fr["winner"] is not None:
        out = f"a trio of {value}s, and the game"
    return f"{who}: {' '.join(move['reveals'])} — {out}"


def short(r: dict[str, int]) -> str:
    (k, v), = r.items()
    return {"centre": "c", "lowest": "l", "highest": "h"}[k] + str(v)


def load_example(page: Page, name: str) -> None:
    page.select_option("#example", name)
    expect(page.locator("#board")).to_be_visible()
    page.wait_for_selector("#beliefs .dist")


def test_load_an_example_and_step_through_it(page: Page, capsys: pytest.CaptureFixture[str]) -> None:
    path = ROOT / "examples" / "full_deal_4p.json"
    replay = cli_json(capsys, "replay", "--json", str(path))
    frames = replay["frames"]
    names = json.loads(path.read_text()).get("names")
    n = len(frames) - 1
    expect(page.locator("#resume-box")).to_be_hidden()  # no game kept in this browser
    load_example(page, "full_deal_4p.json")
    expect(page.locator("#position")).to_contain_text(f"After {n} of {n} events")
    expect(page.locator("#table .seat")).to_have_count(4)
    # the game is over: the advice says so, with no empty table under it
    expect(page.locator("#advice-note")).to_have_text("The game is over.")
    expect(page.locator("#advice")).to_be_hidden()
    page.locator("body").press("ArrowLeft")  # the keyboard steps too
    expect(page.locator("#advice tbody tr").first).to_be_visible()
    expect(page.locator("#position")).to_contain_text(f"After {n - 1} of {n} events")
    expect(page.locator("#event-desc")).to_have_text(f"Event {n - 1}: {event_words(frames[n - 1], names)}")
    page.click("#first")
    expect(page.locator("#position")).to_contain_text(f"After 0 of {n} events")
    for k in (1, 2, 3):
        page.click("#next")
        expect(page.locator("#position")).to_contain_text(f"After {k} of {n} events")
        expect(page.locator("#event-desc")).to_have_text(f"Event {k}: {event_words(frames[k], names)}")
        # every hand as the frame has it (the default view of a full deal shows every hand)
        for hand in frames[k]["hands"]:
            cards = page.locator(f"#table .seat[data-seat='{hand['seat']}'] .cards").first.locator(".card")
            expect(cards).to_have_text([str(v) for v in hand["cards"]] or ["–"])
        slots = page.locator("#table .centre .slot .card")
        expect(slots).to_have_count(len(frames[k]["centre"]))
    page.locator("#slider").fill("5")
    expect(page.locator("#position")).to_contain_text(f"After 5 of {n} events")
    # the analysis chart: a point opens its position; by default each decision is judged by the game,
    # with the library's defaults: the board sends no playout count of its own
    with page.expect_request(lambda r: r.url.endswith("/v1/analyse")) as req:
        page.click("#analyse")
    assert req.value.post_data_json == {"record": json.loads(path.read_text())}
    point = page.locator("#chart circle.pt[data-after='7']")
    point.click()
    expect(page.locator("#position")).to_contain_text(f"After 7 of {n} events")
    expect(page.locator("#decisions li")).not_to_have_count(0)
    # each labelled decision with its loss and the interval its label goes by, as `analyse --json` has them
    want = cli_json(capsys, "analyse", "--json", str(path))
    labelled = [d for d in want["decisions"] if d["label"]]
    assert labelled and all(d["loss_stderr"] is not None for d in labelled)
    # named as the key moments name a decision, with the analysis's verdict in words
    names = json.loads(path.read_text())["names"]
    expect(page.locator("#decisions li:not(.moment) button")).to_have_text(
        [f"Turn {d['turn']} (row {d['event'] + 1}), {names[d['seat']]} (seat {d['seat']}), {['1st', '2nd', '3rd'][d['reveal_index']]} reveal: "
         f"played {short(d['played'])}={d['shown']} — {d['verdict']}; best {short(d['best'])}, "
         f"loss {percent(d['loss'], 1)} (likely {percent(d['loss_low'], 1)} to {percent(d['loss_high'], 1)})"
         for d in labelled])
    # what accuracy counts, in the analysis's own words
    expect(page.locator("#decisions li.hint")).to_have_text(
        f"Accuracy: {want['accuracy_rule']}. A label goes by the likely range of the loss.")
    assert "loss below 2%" in want["accuracy_rule"]
    # the chart's points name a better reveal only where the loss is told apart from 0
    tips = [page.locator("#chart circle.pt").nth(k).get_attribute("aria-label") or ""
            for k in range(page.locator("#chart circle.pt").count())]
    noise = [d for d in want["decisions"] if d["verdict"] == "within noise"]
    assert noise and any("within noise; loss" in t for t in tips) and not any("within noise; best" in t for t in tips)
    # a labelled decision opens the position after its event, the event's row in the move list
    page.locator("#decisions li:not(.moment) button").first.click()
    expect(page.locator("#position")).to_contain_text(f"After {labelled[0]['event'] + 1} of {n} events")


def test_advice_list_matches_advise_json(page: Page, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = ROOT / "examples" / "full_deal_4p.json"
    n = len(json.loads(path.read_text())["events"])
    load_example(page, "full_deal_4p.json")
    page.click("#prev")
    expect(page.locator("#position")).to_contain_text(f"After {n - 1} of {n} events")
    expect(page.locator("#advice tbody tr").first).to_be_visible()
    for objective in ("turn", "trio", "win"):
        page.select_option("#objective", objective)
        want = cli_json(capsys, "advise", "--json", str(path), "--after", str(n - 1), "--seat", "0",
                        "--objective", objective)
        rows = [(short(r["reveal"]), fine(r["p_win"]), fine(r["p_trio"])) for r in want["reveals"]]
        expect(page.locator("#advice tbody tr")).to_have_count(len(rows))
        expect(page.locator("#advice-note")).to_contain_text(f"“{objective}”")
        assert advice_rows(page) == rows
        # the first reveal's plan in words: the likeliest values that can still make a trio, what to ask next
        top = want["reveals"][0]
        plan = page.locator("#advice-plan")
        expect(plan).to_contain_text(f"The plan for {short(top['reveal'])} (")
        expect(plan).to_have_text(plan_words(top, json.loads(path.read_text()).get("names"),
                                             wins=winning_values(path, n - 1)))
    # a centre card may show many values: the plan names the likeliest, then sums the others
    page.select_option("#objective", "trio")
    page.locator("#slider").fill("4")
    settle(page)
    want = cli_json(capsys, "advise", "--json", str(path), "--after", "4", "--objective", "trio")
    assert "centre" in want["reveals"][0]["reveal"]
    words = plan_words(want["reveals"][0], json.loads(path.read_text()).get("names"), wins=winning_values(path, 4))
    expect(page.locator("#advice-plan")).to_have_text(words)
    assert "more value" in words and "leaves no trio this turn" in words  # a centre card: twelve values, some lost at once
    page.click("#last")
    page.click("#prev")
    settle(page)
    # the chance to win the game after each reveal: the p_game column
    page.select_option("#objective", "game")
    want = cli_json(capsys, "advise", "--json", str(path), "--after", str(n - 1), "--seat", "0", "--objective", "game")
    expect(page.locator("#advice-note")).to_contain_text("“game”")
    expect(page.locator("#advice th.game-col").first).to_be_visible()
    expect(page.locator("#advice th.game-col").nth(1)).to_have_text("gap ±")
    shown = [(r.get_attribute("data-reveal"), r.locator("td").nth(3).inner_text(), r.locator("td").nth(4).inner_text())
             for r in page.locator("#advice tbody tr").all()]
    # the first row is what the gaps are measured from: it has none
    assert shown == [(short(r["reveal"]), pm(r["p_game"], r["p_game_stderr"]),
                      "—" if i == 0 else percent(r["p_game_gap_stderr"], 1))
                     for i, r in enumerate(want["reveals"])]
    # the note says which reveals the playouts do not tell apart from the first, as the service names them (at
    # most twice the error of their gap below it; here, after 8 events, a hand's end against a centre card)
    page.locator("#slider").fill("8")
    settle(page)
    want = cli_json(capsys, "advise", "--json", str(path), "--after", "8", "--seat", "0", "--objective", "game")
    assert want["seat"] == 0
    first = want["reveals"][0]
    tied = [short(r["reveal"]) for r in want["reveals"][1:] if first["p_game"] - r["p_game"] <= 2 * r["p_game_gap_stderr"]]
    assert tied, "the position has no reveal within noise of the first"
    assert [short(r) for r in want["not_told_apart"]] == tied
    expect(page.locator("#advice-note")).to_contain_text(
        f"Not told apart from {short(first['reveal'])} by the playouts: {', '.join(tied)}; their chances this turn "
        "(win now, trio) are exact.")
    page.locator("#slider").fill(str(n - 1))
    settle(page)
    # the beliefs shown are those of the seat to move: one box per centre slot and hand end
    beliefs = cli_json(capsys, "beliefs", "--json", str(path), "--after", str(n - 1), "--seat", "0")
    names = {f"c{s}" for s in beliefs["centre"]} | {f"{e}{s}" for s in beliefs["lowest"] for e in "lh"}
    assert {d.get_attribute("data-name") for d in page.locator("#beliefs .dist").all()} == names
    # a turn cut after its first card, a 7 that no card left can match: the plan says the turn fails whatever
    # the reveal shows (as the command's plan does), not only that no trio can follow
    cut = json.loads(path.read_text())
    cut["events"] = cut["events"][:13] + [{**cut["events"][13], "reveals": cut["events"][13]["reveals"][:1]}]
    page.click("#paste-box summary")
    page.select_option("#objective", "trio")
    page.fill("#paste", json.dumps(cut))
    page.click("#load-paste")
    settle(page)
    expect(page.locator("#advice-plan")).to_contain_text(
        "): it cannot show the value face up: the turn fails whatever it shows.")
    # a reveal that shows the value face up for certain, with no third card left: a pair, then the turn fails
    game = play_game(Rules(3), [make_bot("memory", random.Random(30 + s)) for s in range(3)], rng=random.Random(10))
    pair = Record.from_game(game).to_json()
    pair["events"] = pair["events"][:2] + [{**pair["events"][2], "reveals": pair["events"][2]["reveals"][:1]}]
    pair_path = tmp_path / "pair.json"
    pair_path.write_text(json.dumps(pair), encoding="utf-8")
    top = cli_json(capsys, "advise", "--json", str(pair_path), "--objective", "trio")["reveals"][0]
    assert top["plan"] and not any(st["p_trio"] > 0 for st in top["plan"])
    page.fill("#paste", json.dumps(pair))
    page.click("#load-paste")
    settle(page)
    words = plan_words(top, None, shown=1, wins=winning_values(pair_path))
    assert "no trio of" in words and "can follow: the turn goes on and fails at the first card that differs" in words
    expect(page.locator("#advice-plan")).to_have_text(words)
    # one trio from the goal, any trio wins: the plan lists every value that can make one, and says it wins
    for seed in range(50):
        game = play_game(Rules(3), [make_bot("memory", random.Random(60 + 3 * seed + s)) for s in range(3)],
                         rng=random.Random(seed))
        near = Record.from_game(game).to_json()
        cut_at = next((k for k in range(len(near["events"]))
                       if len(winning_values_of(near, k)) > 1), None)
        if cut_at is not None:
            break
    assert cut_at is not None
    near["events"] = near["events"][:cut_at]
    near_path = tmp_path / "near.json"
    near_path.write_text(json.dumps(near), encoding="utf-8")
    top = cli_json(capsys, "advise", "--json", str(near_path), "--objective", "trio")["reveals"][0]
    page.fill("#paste", json.dumps(near))
    page.click("#load-paste")
    settle(page)
    words = plan_words(top, None, wins=winning_values(near_path))
    assert ", which wins the game" in words and "more value" not in words
    expect(page.locator("#advice-plan")).to_have_text(words)


def reload_and_resume_table_game(page: Page, events: int) -> None:
    """Reload the board (a phone's browser drops pages) and resume the game at the table it offers back, of
    ``events`` events, at its last position."""
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#resume")).to_contain_text(f"game at the table ({events} event{'s' if events != 1 else ''})")
    page.click("#resume")
    settle(page)
    expect(page.locator("#position")).to_contain_text(f"After {events} of {events} events")


def table_game_with_one_turn(page: Page, turn: bool = True) -> dict[str, Any]:
    """A real-table game of the example kept by seat 1 (3 players, Picante), its first turn typed in (unless
    not ``turn``); the example's record."""
    example: dict[str, Any] = json.loads((ROOT / "examples" / "viewer_3p_picante.json").read_text())
    page.click("button[data-mode=table]")
    page.select_option("#t-players", "3")
    page.select_option("#t-mode", "picante")
    page.fill("#t-seat", str(example["viewer"]["seat"]))
    page.fill("#t-first", str(example["first_player"]))
    page.fill("#t-hand", " ".join(map(str, example["viewer"]["hand"])))
    page.click("#t-start")
    page.wait_for_selector("#entry-targets button")
    if not turn:
        return example
    for r in example["events"][0]["reveals"]:
        target = short({key: v for key, v in r.items() if key != "value"})
        page.fill("#entry-text", f"{target}={r['value']}")
        page.press("#entry-text", "Enter")
        settle(page)
    expect(page.locator("#moves li")).to_have_count(2)  # the start and row 1
    return example


def test_a_game_at_the_table_is_given_up_only_when_the_player_says_so(page: Page) -> None:
    """Start at a real table, or a new game against the bots, would put a new game in the place of the game
    at the table kept in the browser, whose events no seed deals again: the board asks first, and keeps the
    game when the player says no."""
    example = table_game_with_one_turn(page)
    asked: list[str] = []

    def answer(accept: bool) -> None:
        def on_dialog(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()
        page.once("dialog", on_dialog)

    answer(False)
    page.click("#t-start")
    settle(page)
    assert len(asked) == 1 and "1 event entered" in asked[0], asked
    expect(page.locator("#position")).to_contain_text("After 1 of 1 events")
    expect(page.locator("#status")).to_have_text("The game at the table is kept.")
    # a game against the bots, refused too: the game at the table is still offered back after a reload
    page.click("button[data-mode=play]")
    answer(False)
    page.click("#play-form button[type=submit]")
    settle(page)
    assert len(asked) == 2
    reload_and_resume_table_game(page, 1)
    # the set-up form shows the game resumed
    assert [page.input_value(f"#t-{k}") for k in ("players", "mode", "seat", "first", "hand")] == [
        "3", "picante", str(example["viewer"]["seat"]), str(example["first_player"]),
        " ".join(map(str, example["viewer"]["hand"]))]
    # said yes: the new game takes its place
    answer(True)
    page.click("#t-start")
    settle(page)
    assert len(asked) == 3
    expect(page.locator("#position")).to_contain_text("After 0 of 0 events")


def test_the_slips_of_a_person_entering_a_game(page: Page) -> None:
    """Entering a game at a real table: several reveals typed at once are entered in order, and a refused one
    stays in the field with those after it; Undo says what it took back; an entry by buttons clears a refused
    text (Enter would send it again); a reveal typed at an earlier position is refused, as the panel says; a
    tap on one's own card says why no value was asked for."""
    example = table_game_with_one_turn(page, turn=False)
    me = example["viewer"]["seat"]
    # beside the buttons: whose turn it is and what is face up
    expect(page.locator("#entry-now")).to_have_text("Seat 0 to move · a new turn")
    first = example["events"][0]["reveals"]
    typed = " ".join(f"{short({k: v for k, v in r.items() if k != 'value'})}={r['value']}" for r in first)
    assert typed == "l0=3 c3=9"
    page.fill("#entry-text", typed)
    page.press("#entry-text", "Enter")
    settle(page)
    expect(page.locator("#status")).to_have_text("c3=9: no match: the turn passes.")
    expect(page.locator("#moves li")).to_have_count(2)
    expect(page.locator("#entry-text")).to_have_value("")
    page.click("#entry-undo")
    settle(page)
    expect(page.locator("#status")).to_have_text("Undone: c3=9 (row 1).")
    expect(page.locator("#entry-now")).to_have_text("Seat 0 to move · face up this turn: l0=3")
    expect(page.locator("#position")).to_contain_text("After 1 of 1 events")  # row 1, a turn in progress
    # the turn's last card, then one the events rule out: the first is entered, the second stays to be mended
    page.fill("#entry-text", "c3=9 l0=2")
    page.press("#entry-text", "Enter")
    settle(page)
    expect(page.locator("#error")).to_contain_text("event 2 (turn of seat 1), reveal 1: seat 0's lowest card showed 3")
    expect(page.locator("#entry-text")).to_have_value("l0=2")
    expect(page.locator("#moves li")).to_have_count(2)
    # by buttons instead: the refused text goes
    page.click("#entry-targets button[data-target='c0']")
    page.click("#entry-values button[data-value='4']")
    settle(page)
    expect(page.locator("#status")).to_have_text("c0=4: the turn goes on.")
    expect(page.locator("#entry-text")).to_have_value("")
    expect(page.locator("#entry-now")).to_have_text(f"Seat {me} (you) to move · face up this turn: c0=4")
    # my own lowest card (a 1): its value is entered for me, and the status says so
    page.click(f"#entry-targets button[data-target='l{me}']")
    settle(page)
    expect(page.locator("#status")).to_have_text(
        f"l{me}={min(example['viewer']['hand'])}: no match: the turn passes. (your own card: its value is entered for you)")
    # at an earlier position, a typed reveal is refused: nothing is added at the end
    events = page.locator("#moves li").count()
    page.click("#first")
    settle(page)
    page.fill("#entry-text", "c1=4")
    page.press("#entry-text", "Enter")
    settle(page)
    expect(page.locator("#error")).to_have_text("Go to the last position to enter the next reveal.")
    page.click("#last")
    settle(page)
    expect(page.locator("#moves li")).to_have_count(events)


def test_a_refused_entry_names_the_move_list_s_row(page: Page) -> None:
    """At a real table, a reveal that the events so far rule out is refused in one line that numbers the events
    and reveals as the move list does (from 1), for the event refused and for the event it contradicts."""
    example = table_game_with_one_turn(page)
    assert example["events"][0]["reveals"][0] == {"lowest": 0, "value": 3}  # row 1: seat 0's lowest card shows 3
    expect(page.locator("#error")).to_be_hidden()
    page.fill("#entry-text", "l0=2")  # row 2, its first reveal: seat 0's lowest card cannot be below 3
    page.press("#entry-text", "Enter")
    settle(page)
    expect(page.locator("#error")).to_have_text(re.compile(
        r"^event 2 \(turn of seat 1\), reveal 1: seat 0's lowest card showed 3 at event 1 and"))
    # a value of the person's own card that their hand rules out: the refusal speaks of their hand as theirs
    me, low = example["viewer"]["seat"], min(example["viewer"]["hand"])
    page.fill("#entry-text", f"l{me}={low + 1}")
    page.press("#entry-text", "Enter")
    settle(page)
    expect(page.locator("#error")).to_contain_text(f"l{me}={low + 1} contradicts your hand")
    expect(page.locator("#error")).not_to_contain_text("viewer")


def test_a_game_at_a_real_table_entered_reveal_by_reveal(page: Page, capsys: pytest.CaptureFixture[str],
                                                         tmp_path: Path) -> None:
    example = json.loads((ROOT / "examples" / "viewer_3p_picante.json").read_text())
    me = example["viewer"]["seat"]
    page.click("button[data-mode=table]")
    page.select_option("#t-players", "3")
    page.select_option("#t-mode", "picante")
    page.fill("#t-seat", str(me))
    page.fill("#t-first", str(example["first_player"]))
    page.fill("#t-hand", " ".join(map(str, example["viewer"]["hand"])))
    page.click("#t-start")
    page.wait_for_selector("#entry-targets button")
    count = 0
    for k, event in enumerate(example["events"]):
        for j, r in enumerate(event["reveals"]):
            target = short({key: v for key, v in r.items() if key != "value"})
            text = f"{target}={r['value']}"
            if count % 2:  # typed
                page.fill("#entry-text", text)
                page.press("#entry-text", "Enter")
            else:  # clicked: the place, then the value (own cards need no value)
                page.click(f"#entry-targets button[data-target='{target}']")
                if int(target[1:]) != me or target[0] == "c":
                    page.click(f"#entry-values button[data-value='{r['value']}']")
            count += 1
            settle(page)
            expect(page.locator("#status")).to_contain_text(text)
            expect(page.locator("#error")).to_be_hidden()
            expect(page.locator("#beliefs .dist").first).to_be_visible()
        if k == 0:
            # now it is my turn: the advice list is there and matches the command, ranked by default by the
            # chance to win the game, the analysis's judgement
            part = dict(example, events=example["events"][:1])
            p = tmp_path / "part.json"
            p.write_text(json.dumps(part))
            want = cli_json(capsys, "advise", "--json", str(p), "--objective", "game")
            expect(page.locator("#advice-note")).to_contain_text("“game”")
            rows = [(short(x["reveal"]), fine(x["p_win"]), fine(x["p_trio"])) for x in want["reveals"]]
            expect(page.locator("#advice tbody tr")).to_have_count(len(rows))
            assert advice_rows(page) == rows
    n = len(example["events"])
    expect(page.locator("#position")).to_contain_text(f"After {n} of {n} events")
    with page.expect_download() as dl:
        page.click("#download")
    saved = json.loads(Path(dl.value.path()).read_text())
    assert saved["events"] == example["events"]
    assert saved["viewer"] == example["viewer"] and saved["rules"]["mode"] == "picante"
    # undo takes the last reveal back
    page.click("#entry-undo")
    expect(page.locator("#status")).not_to_contain_text("Working")
    with page.expect_download() as dl:
        page.click("#download")
    undone = json.loads(Path(dl.value.path()).read_text())
    assert undone["events"][-1]["reveals"] == example["events"][-1]["reveals"][:-1]


def test_a_bad_record_gives_a_readable_message(page: Page, capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    page.click("#paste-box summary")  # the paste box opens on demand
    page.fill("#paste", "{this is not a record")
    page.click("#load-paste")
    expect(page.locator("#error")).to_be_visible()
    expect(page.locator("#error")).to_contain_text("not JSON")
    bad = json.loads((ROOT / "examples" / "viewer_3p_picante.json").read_text())
    bad["events"][2]["reveals"][0]["value"] = 13
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(bad))
    # the command's line, with events and reveals numbered from 1 as in the move list
    line = re.sub(r"\b(event|reveal) (\d+)\b", lambda m: f"{m[1]} {int(m[2]) + 1}", cli_error(capsys, p))
    assert line.startswith("event 3")
    page.fill("#paste", json.dumps(bad))
    page.click("#load-paste")
    expect(page.locator("#error")).to_have_text(line)
    # a file with the same problem, chosen with the file input
    page.set_input_files("#file", str(p))
    expect(page.locator("#error")).to_have_text(line)
    # a good record clears the message
    load_example(page, "teams_4p.json")
    expect(page.locator("#error")).to_be_hidden()


def test_phone_width_and_play_against_bots(browser: Browser, url: str) -> None:
    with board(browser, url, 390, 844, accept_downloads=True) as (page, errors):
        load_example(page, "in_progress_5p.json")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width}px wide on a 390px screen"
        page.click("button[data-mode=play]")
        page.fill("#p-seed", "4")
        page.click("#play-form button[type=submit]")
        page.wait_for_selector("#play-legal button")
        expect(page.locator("#seat")).to_be_disabled()  # the bots' hands stay hidden while the game goes on
        expect(page.locator("#advice tbody tr")).to_have_count(0)
        page.click("#hint")
        expect(page.locator("#advice tbody tr").first).to_be_visible()
        best = page.locator("#advice tbody tr").first.get_attribute("data-reveal")
        page.click(f"#play-legal button[data-reveal='{best}']")
        expect(page.locator("#status")).to_contain_text(f"{best}=")
        page.wait_for_function("document.querySelector('#play-legal button') || "
                               "document.querySelector('#play-prompt').textContent.includes('won')")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width}px wide on a 390px screen"
        with page.expect_download() as dl:
            page.click("#download")
        saved = json.loads(Path(dl.value.path()).read_text())
        assert saved["events"] and saved["deal"]
        first_reveal = next(e for e in saved["events"] if e["turn"] == 0)["reveals"][0] if any(
            e["turn"] == 0 for e in saved["events"]) else None
        assert first_reveal is not None and short({k: v for k, v in first_reveal.items() if k != "value"}) == best
    assert errors == [], errors


def test_team_swaps_at_a_real_table(page: Page) -> None:
    page.click("button[data-mode=table]")
    page.select_option("#t-players", "4")
    page.select_option("#t-teams", "yes")
    page.fill("#t-seat", "0")
    page.fill("#t-hand", "1 2 3 4 5 6 7 8 9")
    page.click("#t-start")
    settle(page)
    # the line above the buttons says that swaps may come before the first reveal, and which
    expect(page.locator("#entry-now")).to_have_text(
        "Seat 0 (you) to move · a new turn (before it, a swap of seats 0 and 2 or seats 1 and 3 may come)")
    for text in ("swap 0 2 9 12", "swap 1 3", "l0=1"):
        page.fill("#entry-text", text)
        page.press("#entry-text", "Enter")
        settle(page)
        expect(page.locator("#status")).to_contain_text(text)
        expect(page.locator("#error")).to_be_hidden()
        if text == "swap 0 2 9 12":  # my team has swapped: only the other team's swap may come
            expect(page.locator("#entry-now")).to_have_text(
                "Seat 0 (you) to move · a new turn (before it, a swap of seats 1 and 3 may come)")
    with page.expect_download() as dl:
        page.click("#download")
    saved = json.loads(Path(dl.value.path()).read_text())
    assert saved["rules"]["teams"] is True
    assert saved["events"][:2] == [{"swap": [0, 2], "cards": [9, 12]}, {"swap": [1, 3], "cards": None}]
    # my hand now holds the 12 my partner gave: my highest card is certain
    expect(page.locator("#beliefs .dist[data-name='h0'] .top")).to_have_text("12 · 100%")
    # a reload (a phone's browser drops pages) loses nothing: the game is offered back
    reload_and_resume_table_game(page, 3)
    page.fill("#entry-text", "l1=2")
    page.press("#entry-text", "Enter")
    settle(page)
    expect(page.locator("#status")).to_contain_text("l1=2")


def test_analysis_depth_is_sent_and_a_time_limit_is_explained(page: Page, capsys: pytest.CaptureFixture[str]) -> None:
    """The chosen depth goes to the service; a time-limit answer tells the user what to change; the
    key moments are the command's, each a button that opens its position."""
    load_example(page, "full_deal_4p.json")
    settle(page)
    page.route("**/v1/analyse", lambda route: route.fulfill(
        status=504, content_type="application/json",
        body=json.dumps({"error": "analyse: over the time limit of 30 s"})))
    page.select_option("#analyse-depth", "game")
    with page.expect_request(lambda r: r.url.endswith("/v1/analyse")) as req:
        page.click("#analyse")
    assert "samples" not in req.value.post_data_json
    expect(page.locator("#error")).to_contain_text("analyse: over the time limit of 30 s")
    expect(page.locator("#error")).to_contain_text("judge by the turn only")
    page.unroute("**/v1/analyse")
    page.select_option("#analyse-depth", "0")
    with page.expect_request(lambda r: r.url.endswith("/v1/analyse")) as req:
        page.click("#analyse")
    assert req.value.post_data_json["samples"] == 0
    moments = cli_json(capsys, "analyse", "--quick", "--json", str(ROOT / "examples" / "full_deal_4p.json"))["moments"]
    assert moments
    expect(page.locator("#decisions li.moment")).to_have_text([m["text"] for m in moments])
    expect(page.locator("#error")).to_be_hidden()
    n = len(json.loads((ROOT / "examples" / "full_deal_4p.json").read_text())["events"])
    page.locator("#decisions li.moment button").last.click()
    expect(page.locator("#position")).to_contain_text(f"After {moments[-1]['event'] + 1} of {n} events")


# -- the table: seats around a felt, every known card, hindsight, moves, chart ---------------

@pytest.fixture(params=[(1366, 768), (390, 844)], ids=["desktop", "phone"])
def sized_page(request: pytest.FixtureRequest, browser: Browser, url: str) -> Iterator[Page]:
    """The board at a laptop's and at a phone's size; no page error, and never wider than the screen."""
    width, height = request.param
    with board(browser, url, width, height) as (pg, errors):
        yield pg
        scroll = pg.evaluate("document.documentElement.scrollWidth")
    assert errors == [], errors
    assert scroll <= width, f"the page is {scroll}px wide on a {width}px screen"


def table_cards(page: Page, seat: int) -> list[tuple[str, bool]]:
    """(text, has the 'every player knows it' marker) of each card of a seat's hand on the table."""
    cards = page.locator(f"#table .seat[data-seat='{seat}'] .cards .card")
    return [(c.inner_text(), "pub" in (c.get_attribute("class") or "").split()) for c in cards.all()]


def test_the_table_shows_every_card_the_view_knows(sized_page: Page, capsys: pytest.CaptureFixture[str]) -> None:
    page = sized_page
    path = ROOT / "examples" / "in_progress_5p.json"
    frames = cli_json(capsys, "replay", "--json", str(path))["frames"]
    load_example(page, "in_progress_5p.json")
    settle(page)
    me = 2
    # the viewer sits at the bottom; the others clockwise from its left
    assert "pos-b" in (page.locator(f"#table .seat[data-seat='{me}']").get_attribute("class") or "")
    assert "pos-l" in (page.locator("#table .seat[data-seat='3']").get_attribute("class") or "")
    for k in (3, len(frames) - 1):
        page.locator(f"#moves li[data-after='{k}'] button").click()
        expect(page.locator("#position")).to_contain_text(f"After {k} of")
        for h in frames[k]["hands"]:
            want = [("" if v is None else str(v), bool(p) and v is not None) for v, p in zip(h["cards"], h["public"])]
            assert table_cards(page, h["seat"]) == want, (k, h)
    # seat 1 showed its highest 10 twice: both 10s are on its row, known to every player
    assert table_cards(page, 1)[-2:] == [("10", True), ("10", True)]
    # the viewer's own cards that the table knows carry the marker, the others not
    own = frames[-1]["hands"][me]
    assert [p for _, p in table_cards(page, me)] == own["public"] and any(own["public"])
    # the last move's cards are ringed; the card face up this turn is outlined
    last = frames[-1]["last"]
    expect(page.locator("#table .card.last")).to_have_count(len(last))
    expect(page.locator("#table .card.up")).to_have_count(sum(sum(h["up"]) for h in frames[-1]["hands"]))


def test_hindsight_shows_where_the_cards_were(sized_page: Page, capsys: pytest.CaptureFixture[str]) -> None:
    page = sized_page
    path = ROOT / "examples" / "full_deal_4p.json"
    seen = cli_json(capsys, "replay", "--json", "--seat", "1", str(path))["frames"]
    truth = cli_json(capsys, "replay", "--json", "--seat", "all", str(path))["frames"]
    load_example(page, "full_deal_4p.json")
    page.select_option("#seat", "1")
    settle(page)
    expect(page.locator("#hindsight-box")).to_be_visible()
    page.click("#first")
    page.click("#next")
    page.click("#next")
    expect(page.locator("#position")).to_contain_text("After 2 of")
    assert table_cards(page, 0) == [("" if v is None else str(v), bool(p) and v is not None)
                                    for v, p in zip(seen[2]["hands"][0]["cards"], seen[2]["hands"][0]["public"])]
    page.check("#hindsight")
    settle(page)
    for h_seen, h_true in zip(seen[2]["hands"], truth[2]["hands"]):
        s = h_seen["seat"]
        assert [t for t, _ in table_cards(page, s)] == [str(v) for v in h_true["cards"]]
        hind = page.locator(f"#table .seat[data-seat='{s}'] .cards .card")
        flags = ["hind" in (c.get_attribute("class") or "").split() for c in hind.all()]
        assert flags == [v is None for v in h_seen["cards"]]  # faded: what seat 1 could not know
    page.uncheck("#hindsight")
    settle(page)
    expect(page.locator("#table .card.hind")).to_have_count(0)
    # a record without the deal has no hindsight
    load_example(page, "in_progress_5p.json")
    expect(page.locator("#hindsight-box")).to_be_hidden()


def test_move_list_teams_and_computing_state(sized_page: Page, capsys: pytest.CaptureFixture[str]) -> None:
    page = sized_page
    path = ROOT / "examples" / "teams_4p.json"
    frames = cli_json(capsys, "replay", "--json", str(path))["frames"]
    load_example(page, "teams_4p.json")
    settle(page)
    moves = page.locator("#moves li")
    expect(moves).to_have_count(len(frames))
    expect(page.locator("#moves li.current")).to_have_attribute("data-after", str(len(frames) - 1))
    page.locator("#moves li[data-after='3'] button").click()
    expect(page.locator("#position")).to_contain_text("After 3 of")
    expect(page.locator("#moves li.current")).to_have_attribute("data-after", "3")
    # team markers on every seat, each side's trios and progress in the middle of the table
    for s in range(4):
        expect(page.locator(f"#table .seat[data-seat='{s}'] .badge")).to_have_text(f"team {'AB'[s % 2]}")
    for side in frames[3]["sides"]:
        row = page.locator(f"#table .scores .side[data-side='{'+'.join(map(str, side['seats']))}']")
        expect(row).to_contain_text(", ".join(map(str, side["trios"])) if side["trios"] else "no trio")
    # the chances: one row per team; while a new request runs, the old figures are gone
    expect(page.locator("#chances .chance")).to_have_count(2)
    held: list[Any] = []
    page.route("**/v1/evaluate", lambda route: held.append(route))
    page.click("#prev")
    expect(page.locator("#chances .computing")).to_have_text("computing…")
    expect(page.locator("#chances .chance")).to_have_count(0)
    page.wait_for_timeout(300)
    assert held
    for route in held:
        route.continue_()
    page.unroute("**/v1/evaluate")
    expect(page.locator("#chances .chance")).to_have_count(2)


def test_picante_links_and_the_example_menu(page: Page, tmp_path: Path) -> None:
    import random

    from helpers_positions import random_game
    from trio_solver.doors.queries import replay
    from trio_solver.game.record import Record
    from trio_solver.game.rules import Rules

    for seed in range(60):
        game = random_game(Rules(3, "picante"), random.Random(seed), 30, trio_rate=0.6)
        if any(game.trios[s] for s in range(3)) and not game.over:
            break
    record = Record.from_game(game, names=["<b>Ann</b>", "Bo", "Cy"])
    fr = replay(record)["frames"][-1]
    load_example(page, "teams_4p.json")
    page.click("#paste-box summary")
    page.fill("#paste", json.dumps(record.to_json()))
    page.click("#load-paste")
    settle(page)
    expect(page.locator("#example")).to_have_value("")  # the menu no longer names the example
    expect(page.locator("#table .seat[data-seat='0'] .who")).to_contain_text("<b>Ann</b>")  # as text, not markup
    for side in fr["sides"]:
        for v, pairs in side["pairs_with"].items():
            s = side["seats"][0]
            trio = page.locator(f"#table .seat[data-seat='{s}'] .trios .set").filter(has_text=v).first
            if pairs and not side["links"]:
                expect(trio.locator(".links")).to_have_text("↔ " + ", ".join(map(str, pairs)))


@pytest.mark.parametrize("width,height", [(1366, 768), (390, 844)])
def test_chart_ticks_marker_and_sizes(browser: Browser, url: str, width: int, height: int) -> None:
    with board(browser, url, width, height) as (page, errors):
        load_example(page, "viewer_3p_picante.json")
        settle(page)
        n = page.locator("#moves li").count() - 1
        page.select_option("#analyse-depth", "0")
        page.click("#analyse")
        page.wait_for_selector("#chart svg")
        settle(page)
        expect(page.locator("#chart line.tick")).to_have_count(n + 1)
        now = page.locator("#chart line.now")
        x_last = float(now.get_attribute("x1") or "nan")
        page.click("#first")
        settle(page)
        x_first = float(now.get_attribute("x1") or "nan")
        ticks = page.locator("#chart line.tick")
        assert x_first == pytest.approx(float(ticks.first.get_attribute("x1") or "nan"))
        assert x_last == pytest.approx(float(ticks.last.get_attribute("x1") or "nan"))
        # drawn at its real width: labels and points keep their size on a phone
        label = page.locator("#chart text.ticklabel").first.bounding_box()
        point = page.locator("#chart circle.pt").first.bounding_box()
        assert label is not None and label["height"] >= 10
        assert point is not None and point["width"] >= (13.5 if width < 500 else 9.5)
        labels = [page.locator("#chart text.ticklabel").nth(i).bounding_box() for i in range(page.locator("#chart text.ticklabel").count())]
        for a, b in zip(labels, labels[1:]):
            assert a is not None and b is not None and a["x"] + a["width"] < b["x"]  # never run together
        width_now = page.evaluate("document.documentElement.scrollWidth")
        assert width_now <= width, f"the page is {width_now}px wide on a {width}px screen"
        # a point opens its position; on a phone, where the table lies far above, the table comes into view
        second = page.locator("#chart circle.pt").nth(1)
        after = second.get_attribute("data-after")
        second.scroll_into_view_if_needed()
        second.click()
        settle(page)
        expect(page.locator("#position")).to_contain_text(f"After {after} of {n} events")
        top = page.evaluate("document.querySelector('#board').getBoundingClientRect().top")
        assert (abs(top) < 2) if width < 760 else (top < 0), top
    assert errors == [], errors


def long_record(bot: str, events: int) -> Record:
    """The first 6-player game of ``bot`` bots (seeds 0, 1, ...) with at least ``events`` events, cut there."""
    for seed in range(100):
        game = play_game(Rules(6), [make_bot(bot, random.Random(10 * seed + seat)) for seat in range(6)],
                         rng=random.Random(seed), first_player=0)
        record = Record.from_game(game)
        if len(record.events) >= events:
            return Record.from_json({**record.to_json(), "events": record.to_json()["events"][:events]})
    raise AssertionError(f"no game of {bot} bots has {events} events")


@pytest.mark.parametrize("bot,events", [("memory", 30), ("random", 90)])
def test_a_long_game_s_chart_on_a_phone_keeps_every_point_apart_and_tappable(browser: Browser, url: str, bot: str,
                                                                             events: int) -> None:
    """A 6-player game of 30 events on a phone: no two points overlap, no two labels touch, and a tap on the
    middle of any point lands on that point (no neighbour's tap area lies over it) and opens its position. A
    game of 90 events keeps the same room between its points and scrolls sideways in its box, which keeps
    the position shown in view."""
    record = long_record(bot, events)
    with board(browser, url, 390, 844) as (page, errors):
        page.locator("#paste").evaluate("(e, text) => { e.closest('details').open = true; e.value = text; }",
                                        record.dumps())
        page.click("#load-paste")
        expect(page.locator("#board")).to_be_visible()
        settle(page)
        page.select_option("#analyse-depth", "0")
        page.click("#analyse")
        page.wait_for_selector("#chart svg")
        settle(page)
        page.locator("#chart").scroll_into_view_if_needed()
        box = page.locator("#chart .chart-scroll")
        scrolls = box.evaluate("(b) => b.scrollWidth > b.clientWidth + 1")
        assert scrolls == (events > 40)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the page itself never scrolls
        # the position shown is the last: the dashed line is in view
        now = page.locator("#chart line.now").bounding_box()
        view = box.bounding_box()
        assert now is not None and view is not None and view["x"] <= now["x"] <= view["x"] + view["width"]
        marks = page.evaluate("""() => [...document.querySelectorAll('#chart circle.pt')].map((c) => {
            const b = c.getBoundingClientRect(), x = b.x + b.width / 2, y = b.y + b.height / 2;
            const top = document.elementFromPoint(x, y);
            return { k: Number(c.dataset.after), x: Number(c.getAttribute('cx')), y: Number(c.getAttribute('cy')),
                     r: Number(c.getAttribute('r')) + Number(c.getAttribute('stroke-width') || 0) / 2,
                     top: top === null ? null : top === c, cx: x, cy: y }; })""")
        assert len(marks) >= 20
        marks.sort(key=lambda m: m["k"])
        for a, b in zip(marks, marks[1:]):
            assert ((a["x"] - b["x"]) ** 2 + (a["y"] - b["y"]) ** 2) ** 0.5 >= a["r"] + b["r"], (a, b)
        seen = [m for m in marks if view["x"] + 2 < m["cx"] < view["x"] + view["width"] - 2]
        assert len(seen) >= 10
        assert [m["k"] for m in seen if not m["top"]] == []
        boxes = [page.locator("#chart text.mark").nth(i).bounding_box()
                 for i in range(page.locator("#chart text.mark").count())]
        assert boxes, "no decision of the game is labelled"
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert a is not None and b is not None
                assert (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                        or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"]), (a, b)
        middle = seen[len(seen) // 2]
        page.mouse.click(middle["cx"], middle["cy"])
        settle(page)
        expect(page.locator("#position")).to_contain_text(f"After {middle['k']} of {len(record.events)} events")
        # back to the start: the chart scrolls with the position shown
        page.click("#first")
        settle(page)
        now = page.locator("#chart line.now").bounding_box()
        view = box.bounding_box()
        assert now is not None and view is not None and view["x"] <= now["x"] <= view["x"] + view["width"]
    assert errors == [], errors


def start_play(page: Page, players: int, seed: int, ready: str = "#play-legal button") -> None:
    """A new game against the bots, waited for until ``ready`` shows and nothing is in flight."""
    page.click("button[data-mode=play]")
    page.select_option("#p-players", str(players))
    page.fill("#p-seed", str(seed))
    page.click("#play-form button[type=submit]")
    page.wait_for_selector(ready)
    settle(page)


def test_a_card_on_the_table_plays_it(page: Page) -> None:
    start_play(page, 3, 2)
    playable = page.locator("#table .card.playable")
    expect(playable).not_to_have_count(0)
    target = playable.first.get_attribute("data-reveal")
    assert target and page.locator(f"#play-legal button[data-reveal='{target}']").count() == 1
    events = page.locator("#moves li").count()
    playable.first.click()
    expect(page.locator("#status")).to_contain_text(f"{target}=")
    page.wait_for_function(f"document.querySelectorAll('#moves li').length > {events}")


def saved_record(page: Page) -> Any:
    """The record as the board's download button saves it."""
    with page.expect_download() as dl:
        page.click("#download")
    return json.loads(Path(dl.value.path()).read_text())


def bot_card(record: dict[str, Any], seat: int) -> Any:
    """The card the ``solver`` bot gives at ``seat``'s team swap of ``record``, as the engine answers it."""
    return handle("bot", {"record": record, "bot": "solver", "swap_seat": seat})["card"]


def test_a_team_game_against_the_bots_with_swaps(page: Page) -> None:
    """In a team game the other team swaps first, each bot from its own view and in secret; then I give a
    card or pass, my partner (a bot) gives its own, and the swap is made only if both gave one."""
    page.click("button[data-mode=play]")
    page.select_option("#p-teams", "yes")
    page.select_option("#p-bot", "solver")
    page.fill("#p-seed", "3")
    page.click("#play-form button[type=submit]")
    expect(page.locator("#play-prompt")).to_contain_text("Swap moment: give Seat 2 one of your cards, or pass")
    settle(page)
    before = saved_record(page)
    assert before["rules"]["teams"] and before["events"] in ([], [{"swap": [1, 3], "cards": before["events"][0]["cards"]
                                                                    if before["events"] else None}])
    start = dict(before, events=[])
    theirs = [bot_card(start, 1), bot_card(start, 3)]
    assert before["events"] == ([{"swap": [1, 3], "cards": theirs}] if None not in theirs else [])
    # their cards stay secret to me: the move list says a secret swap, the status names no card
    if before["events"]:
        expect(page.locator("#moves")).to_contain_text("secret swap")
        expect(page.locator("#status")).to_have_text("Team B (Seat 1 & Seat 3) swap a card secretly")
    # no reveal before the swap is decided: the buttons give cards
    give = page.locator("#play-legal button[data-give]")
    hand = sorted(set(before["deal"]["hands"][0]))
    expect(give).to_have_text([f"give {v}" for v in hand] + ["pass"])
    # no Hint at a swap moment, and the advice note says what comes first
    expect(page.locator("#hint")).to_be_hidden()
    expect(page.locator("#advice-note")).not_to_have_text("Press Hint for advice on your move.")
    mine = hand[0]
    partner = bot_card(before, 2)
    assert partner is not None
    page.click(f"#play-legal button[data-give='{mine}']")
    expect(page.locator("#status")).to_contain_text(f"Your team swaps: you give {mine}, Seat 2 gives {partner}")
    page.wait_for_function("document.querySelector('#play-legal button[data-reveal]') || "
                           "document.querySelector('#play-legal button[data-give]') || "
                           "document.querySelector('#play-prompt').textContent.includes('won')")
    after = saved_record(page)
    assert after["events"][:len(before["events"]) + 1] == before["events"] + [{"swap": [0, 2], "cards": [mine, partner]}]
    Record.from_json(after)  # the engine replays it: every swap and reveal legal
    # passing: no swap for my team, and the game goes on to the reveals
    page.click("#play-form button[type=submit]")
    expect(page.locator("#play-legal button[data-give='pass']")).to_be_visible()
    settle(page)
    page.click("#play-legal button[data-give='pass']")
    expect(page.locator("#status")).to_contain_text("You pass: your team does not swap")
    # the bots play on until my turn, the next swap moment (after the other team's trio) or the end; the
    # status keeps my pass before their turns
    page.wait_for_function("document.querySelector('#play-legal button[data-reveal]') || "
                           "(document.querySelector('#play-legal button[data-give]') && "
                           " document.querySelector('#status').textContent.includes(' · ')) || "
                           "document.querySelector('#play-prompt').textContent.includes('won')")
    settle(page)
    expect(page.locator("#status")).to_contain_text("You pass: your team does not swap · ")
    events = saved_record(page)["events"]
    assert not any(e.get("swap") == [0, 2] for e in events) and any("turn" in e for e in events)


def test_a_team_game_against_the_bots_is_won_by_a_side(page: Page) -> None:
    """The end of a team game names the winning side: my partner's winning trio is my team's win. (Finished
    games between bots, resumed on the board as games against the bots with me at seat 0.)"""
    wins: dict[str, dict[str, Any]] = {}
    for seed in range(60):
        game = play_game(Rules(4, teams=True), [make_bot("memory", random.Random(seed * 4 + s)) for s in range(4)],
                         rng=random.Random(seed))
        key = {0: "me", 2: "partner"}.get(game.winner, "them")  # type: ignore[arg-type]
        wins.setdefault(key, Record.from_game(game).to_json())
        if len(wins) == 3:
            break
    texts = {"me": "You won!", "partner": "Your team won! (Seat 2 took the winning trio)",
             "them": "Team B (Seat 1 & Seat 3) won."}
    assert set(wins) == set(texts)
    for key, record in wins.items():
        saved = {"mode": "play", "me": 0, "bot": "memory", "seed": 1, "record": record, "swaps": []}
        page.evaluate("g => localStorage.setItem('trio-board-game', JSON.stringify(g))", saved)
        page.reload()
        page.click("#resume")
        settle(page)
        expect(page.locator("#play-prompt")).to_have_text(texts[key])
        # a finished game: no Hint, here or one step back, and the note says why
        expect(page.locator("#hint")).to_be_hidden()
        page.click("#prev")
        settle(page)
        expect(page.locator("#hint")).to_be_hidden()
        expect(page.locator("#advice-note")).to_have_text("Hints are for a game in progress.")
        # the game over, the other hands may be seen: every hand at once, or where the cards were from my seat
        expect(page.locator("#seat")).to_be_enabled()
        expect(page.locator("#hindsight-box")).to_be_visible()
        hidden = page.locator(".seat .card.back")
        assert hidden.count() > 0
        page.select_option("#seat", "all")
        settle(page)
        expect(hidden).to_have_count(0)
        expect(page.locator("#play-prompt")).to_contain_text(texts[key].split(" (")[0])


def test_a_pass_at_a_swap_moment_survives_a_reload(page: Page) -> None:
    """Seed 6 deals me the first turn: after my pass the swap moment is still open (no reveal yet), and a
    reload and resume must not ask it again; the form shows the resumed game."""
    page.click("button[data-mode=play]")
    page.select_option("#p-teams", "yes")
    page.select_option("#p-bot", "solver")
    page.fill("#p-seed", "6")
    page.click("#play-form button[type=submit]")
    expect(page.locator("#play-legal button[data-give='pass']")).to_be_visible()
    settle(page)
    assert saved_record(page)["first_player"] == 0
    page.click("#play-legal button[data-give='pass']")
    expect(page.locator("#play-legal button[data-reveal]").first).to_be_visible()
    settle(page)
    events = saved_record(page)["events"]
    assert all("swap" in e for e in events)  # no reveal yet: the moment is open
    page.reload()
    page.click("#resume")
    settle(page)
    expect(page.locator("#play-legal button[data-reveal]").first).to_be_visible()
    expect(page.locator("#play-legal button[data-give]")).to_have_count(0)
    expect(page.locator("#p-teams")).to_have_value("yes")
    expect(page.locator("#p-seed")).to_have_value("6")
    expect(page.locator("#p-bot")).to_have_value("solver")
    assert saved_record(page)["events"] == events


def test_a_move_is_played_once_and_only_at_the_live_position(page: Page) -> None:
    """A double tap plays one reveal and no bot plays for me; the advice of a past position cannot play."""
    start_play(page, 4, 7, "#play-legal button[data-reveal='l0']")
    page.click("#play-legal button[data-reveal='l0']")
    expect(page.locator("#play-prompt")).to_contain_text("Your turn goes on")
    settle(page)
    # before any hint: the note says where a hint is asked for (the button shows only at the live position)
    expect(page.locator("#advice-note")).to_have_text("Press Hint for advice on your move.")
    page.click("#prev")
    settle(page)
    expect(page.locator("#advice-note")).to_have_text("Go to the last position and press Hint for advice on your move.")
    page.click("#last")
    settle(page)
    # advice at the live position plays; one step back it is only to look at
    page.click("#hint")
    expect(page.locator("#advice tbody tr.clickable").first).to_be_visible()
    events = saved_record(page)["events"]
    page.click("#prev")
    settle(page)
    expect(page.locator("#play-prompt")).to_have_text("Go to the last position to play.")
    expect(page.locator("#hint")).to_be_hidden()  # a hint is for the move to play, at the live position
    expect(page.locator("#advice tbody tr").first).to_be_visible()
    expect(page.locator("#advice tbody tr.clickable")).to_have_count(0)
    page.locator("#advice tbody tr").first.click()
    settle(page)
    assert saved_record(page)["events"] == events
    page.click("#last")
    settle(page)
    expect(page.locator("#hint")).to_be_visible()
    # my highest card cannot match my lowest: the double tap fails the turn once, and the bots play theirs
    page.dblclick("#play-legal button[data-reveal='h0']")
    page.wait_for_function("!document.body.dataset.busy && (document.querySelector('#play-legal button') || "
                           "document.querySelector('#play-prompt').textContent.includes('won'))")
    record = saved_record(page)
    mine = [k for k, e in enumerate(record["events"]) if e.get("turn") == 0]
    assert mine, record["events"]
    first = record["events"][mine[0]]
    assert [short({k: v for k, v in r.items() if k != "value"}) for r in first["reveals"]] == ["l0", "h0"]
    assert mine == [mine[0]], "a bot played a turn for me"
    expect(page.locator("#error")).to_be_hidden()


def test_a_team_game_is_analysed_by_the_game(page: Page, capsys: pytest.CaptureFixture[str]) -> None:
    """The whole-game analysis of a team game draws one line per team; a swap keeps the chance before it. A
    reveal judged by its best follow-up says so where the chart tells it."""
    load_example(page, "teams_4p.json")
    settle(page)
    page.select_option("#analyse-depth", "game")
    page.click("#analyse")
    page.wait_for_selector("#chart svg")
    settle(page)
    expect(page.locator("#error")).to_be_hidden()
    lines = page.locator("#chart polyline.seatline")
    expect(lines).to_have_count(2)
    positions = page.locator("#moves li").count()
    for line in lines.all():
        ys = [float(p.split(",")[1]) for p in (line.get_attribute("points") or "").split()]
        assert len(ys) == positions
        assert ys[1] == ys[0] and ys[2] == ys[0]  # the two opening swaps keep the chance before them
    data = cli_json(capsys, "analyse", "--json", str(ROOT / "examples" / "teams_4p.json"))
    followed = [d["follow_up"] for d in data["decisions"] if d["follow_up"]]
    assert followed
    tips = " ".join(page.locator("#chart circle.pt").nth(k).get_attribute("aria-label") or ""
                    for k in range(page.locator("#chart circle.pt").count()))
    for follow_up in followed:
        assert f"with {follow_up} next, the best follow-up" in tips
    # a loss known exactly (its range one figure) is told without a range, as the analysis's text tells it
    i = next(k for k, d in enumerate(data["decisions"]) if d["label"])
    exact = data["decisions"][i]
    exact.update(loss_low=exact["loss"], loss_high=exact["loss"], loss_stderr=0.0)
    page.route("**/v1/analyse", lambda route: route.fulfill(status=200, content_type="application/json",
                                                            body=json.dumps(data)))
    page.click("#analyse")
    settle(page)
    page.unroute("**/v1/analyse")
    told = page.locator("#decisions li:not(.moment) button").first
    expect(told).to_contain_text(f"loss {percent(exact['loss'], 1)}")
    expect(told).not_to_contain_text("likely")


def test_a_request_waits_while_the_service_is_starting(page: Page) -> None:
    """A 503 "starting" answer is tried again (the status line says why) until the service answers."""
    calls: list[str] = []

    def starting_twice(route: Any) -> None:
        calls.append(route.request.url)
        if len(calls) <= 2:
            route.fulfill(status=503, content_type="application/json",
                          body=json.dumps({"error": "the service is starting: its workers are loading the kernel"}))
        else:
            route.continue_()

    page.route("**/v1/validate", starting_twice)
    page.select_option("#example", "full_deal_4p.json")
    expect(page.locator("#status")).to_contain_text("The service is starting")
    expect(page.locator("#board")).to_be_visible()
    settle(page)
    assert len(calls) == 3
    expect(page.locator("#error")).to_be_hidden()


SLOW_MOVES = """
(() => {
  const fetch0 = window.fetch.bind(window);
  window.slow = {};  // op -> milliseconds a request of it waits before it is sent
  window.fetch = async (url, opts) => {
    if (String(url).endsWith('/v1/move') && window.slowMoves) await new Promise((r) => setTimeout(r, 2500));
    const op = String(url).split('/v1/')[1];
    if (op && window.slow[op]) {  // a slow answer, that an abort ends at once as it ends a real request
      await new Promise((resolve, reject) => {
        const t = setTimeout(resolve, window.slow[op]);
        if (opts && opts.signal) opts.signal.addEventListener('abort', () => {
          clearTimeout(t);
          reject(new DOMException('aborted', 'AbortError'));
        });
      });
    }
    return fetch0(url, opts);
  };
})();
"""


def my_turn_going_on(page: Page) -> None:
    """A new 3-player game (seed 7) in which I have shown my lowest card: my turn goes on."""
    start_play(page, 3, 7, "#play-legal button[data-reveal='l0']")
    page.click("#play-legal button[data-reveal='l0']")
    expect(page.locator("#play-prompt")).to_contain_text("Your turn goes on")
    settle(page)


def test_a_dropped_game_s_late_moves_change_nothing(browser: Browser, url: str) -> None:
    """A move still on its way when the player loads another record, or starts a new game, is dropped when
    its answer comes: the board keeps what was loaded last, and the old game's bots stop."""
    with board(browser, url, 1280, 900, accept_downloads=True) as (page, errors):
        page.add_init_script(SLOW_MOVES)
        page.reload()
        page.wait_for_selector("body[data-ready]")
        start_play(page, 3, 7, "#play-legal button[data-reveal='l0']")
        page.evaluate("window.slowMoves = true")
        page.click("#play-legal button[data-reveal='l0']")
        # another record while the move is on its way
        page.click("button[data-mode=record]")
        load_example(page, "full_deal_4p.json")
        n = len(json.loads((ROOT / "examples" / "full_deal_4p.json").read_text())["events"])
        page.wait_for_timeout(3500)  # the old move's answer has come by now
        settle(page)
        expect(page.locator("#position")).to_contain_text(f"After {n} of {n} events")
        expect(page.locator("#table .seat")).to_have_count(4)
        # a new game while my turn-ending move is on its way: the old game's bots never play into it
        page.evaluate("window.slowMoves = false")
        my_turn_going_on(page)
        page.evaluate("window.slowMoves = true")
        page.click("#play-legal button[data-reveal='h0']")  # my highest card cannot match my lowest
        page.select_option("#p-players", "4")
        page.fill("#p-seed", "8")
        page.click("#play-form button[type=submit]")
        page.evaluate("window.slowMoves = false")
        page.wait_for_timeout(3500)
        page.wait_for_function("!document.body.dataset.busy && (document.querySelector('#play-legal button') || "
                               "document.querySelector('#play-prompt').textContent.includes('won'))")
        record = saved_record(page)
        assert record["rules"]["players"] == 4
        Record.from_json(record)  # a record of the new game only: every move in it replays on its deal
        expect(page.locator("#table .seat")).to_have_count(4)
        expect(page.locator("#error")).to_be_hidden()
    assert errors == [], errors


def test_the_game_asked_for_last_is_the_one_on_the_board(browser: Browser, url: str) -> None:
    """Two new games asked for in a row: the second is dealt. A new game, then another mode before it
    comes: nothing appears. A bot that answers late in a dropped game holds nothing up in the new one. A
    tap on the mode already shown keeps the game."""
    with board(browser, url, 1280, 900, accept_downloads=True) as (page, errors):
        page.add_init_script(SLOW_MOVES)
        page.reload()
        page.wait_for_selector("body[data-ready]")
        page.click("button[data-mode=play]")
        page.select_option("#p-players", "3")
        page.evaluate("window.slow.new_game = 2000")
        page.fill("#p-seed", "21")
        page.click("#play-form button[type=submit]")
        page.fill("#p-seed", "22")
        page.click("#play-form button[type=submit]")
        page.evaluate("window.slow.new_game = 0")
        page.wait_for_selector("#play-legal button")
        settle(page)
        want = page.request.post(url + "/v1/new_game", data={"rules": {"players": 3, "mode": "simple"}, "seed": 22})
        assert saved_record(page)["deal"] == want.json()["record"]["deal"]
        # a new game, and Record mode before it is dealt: no game appears
        page.evaluate("window.slow.new_game = 2000")
        page.click("#play-form button[type=submit]")
        page.click("button[data-mode=record]")
        page.evaluate("window.slow.new_game = 0")
        page.wait_for_timeout(3000)
        settle(page)
        expect(page.locator("#board")).to_be_hidden()
        # my turn ends, the bots think for long, and I start a new game: it answers at once
        page.click("button[data-mode=play]")
        my_turn_going_on(page)
        page.evaluate("window.slow.bot = 20000")
        page.click("#play-legal button[data-reveal='h0']")
        page.wait_for_timeout(500)
        page.evaluate("window.slow.bot = 0")
        started = page.evaluate("performance.now()")
        my_turn_going_on(page)
        assert page.evaluate("performance.now()") - started < 15000  # not held up by the dropped game's bot
        # the mode already shown, tapped again: the game stays
        page.click("button[data-mode=play]")
        expect(page.locator("#play-prompt")).to_contain_text("Your turn goes on")
        expect(page.locator("#board")).to_be_visible()
        expect(page.locator("#resume-box")).to_be_hidden()
        # another mode, and the game left is offered back where it was
        page.click("button[data-mode=record]")
        expect(page.locator("#resume")).to_contain_text("game against the bots")
        page.click("#resume")
        settle(page)
        expect(page.locator("#play-prompt")).to_contain_text("Your turn goes on")
        expect(page.locator("#error")).to_be_hidden()
    assert errors == [], errors


def test_a_refusal_leaves_the_game_under_way_and_stays_in_sight(browser: Browser, url: str) -> None:
    """A new game or a record refused while the bots think: the game under way goes on where it was (its bots
    play to my turn), and the refusal stays in sight until the player dismisses it or does something else."""
    with board(browser, url, 1280, 900, accept_downloads=True) as (page, errors):
        page.add_init_script(SLOW_MOVES)
        page.reload()
        page.wait_for_selector("body[data-ready]")
        my_turn_going_on(page)
        before = len(saved_record(page)["events"])
        for refuse, line in [(lambda: page.fill("#p-seed", "1" + "0" * 30), "seed: expected"),
                             (lambda: page.select_option("#p-teams", "yes"), "Team play needs 4 or 6 players.")]:
            page.evaluate("window.slow.bot = 1500")
            while "is playing" not in page.locator("#play-prompt").inner_text():  # my turn, played to its end
                page.locator("#play-legal button[data-reveal]").first.click()
                page.wait_for_function("!document.body.dataset.busy || "
                                       "document.querySelector('#play-prompt').textContent.includes('is playing')")
            refuse()  # a seed the service refuses; then teams at 3 players, which the form refuses
            page.click("#play-form button[type=submit]")
            expect(page.locator("#error")).to_contain_text(line)
            page.evaluate("window.slow.bot = 0")
            page.wait_for_selector("#play-legal button[data-reveal], #play-prompt:has-text('won')")
            settle(page)
            expect(page.locator("#error")).to_contain_text(line)
            record = saved_record(page)
            assert record["rules"]["players"] == 3 and len(record["events"]) > before
            before = len(record["events"])
            page.fill("#p-seed", "7")
            page.select_option("#p-teams", "no")
            page.click("#error-close")
            expect(page.locator("#error")).to_be_hidden()
        # a record refused while another is shown: the refusal stays (the board draws the one it shows again)
        page.click("button[data-mode=record]")
        load_example(page, "full_deal_4p.json")
        page.click("#paste-box summary")
        page.fill("#paste", "{bad")
        page.click("#load-paste")
        expect(page.locator("#error")).to_contain_text("not JSON")
        settle(page)
        page.wait_for_timeout(500)
        expect(page.locator("#error")).to_contain_text("not JSON")
        expect(page.locator("#table .seat")).to_have_count(4)
    assert errors == [], errors


def told_kinds(status: str) -> list[str]:
    """The events the status line tells, in its order: ``swap`` for a swap made, ``turn`` for a turn."""
    parts = status.split(" · ")
    return ["swap" if p.endswith("swap a card secretly") or p.startswith("Your team swaps") else "turn"
            for p in parts if p.endswith("swap a card secretly") or p.startswith("Your team swaps") or " — " in p]


def test_the_bots_news_in_the_order_it_happened(page: Page) -> None:
    """After my move in a team game, the status tells the swaps and turns in the order of the move list: a
    team's swap after the trio that allowed it."""
    page.click("button[data-mode=play]")
    page.select_option("#p-teams", "yes")
    page.select_option("#p-bot", "solver")
    page.fill("#p-seed", "3")
    page.click("#play-form button[type=submit]")
    swap_after_turn = 0
    for _ in range(16):  # give my lowest card at each swap moment, reveal the first legal place on my turns
        page.wait_for_selector("#play-legal button[data-reveal], #play-legal button[data-give], "
                               "#play-prompt:has-text('won')")
        settle(page)
        kinds = told_kinds(page.locator("#status").inner_text())
        events = saved_record(page)["events"]
        assert kinds == ["swap" if "swap" in e else "turn" for e in events[len(events) - len(kinds):]]
        swap_after_turn += "turn" in kinds and "swap" in kinds[kinds.index("turn"):]
        if "won" in page.locator("#play-prompt").inner_text() or swap_after_turn:
            break
        give = page.locator("#play-legal button[data-give]")
        (give.first if give.count() else page.locator("#play-legal button[data-reveal]").first).click()
    assert swap_after_turn, "no status told a swap made after a turn"


def test_discarding_a_game_at_the_table_asks_first(page: Page) -> None:
    """*Discard it* gives up a game at the table with events entered only when the player says so."""
    table_game_with_one_turn(page)
    page.reload()
    page.wait_for_selector("body[data-ready]")
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.click("#forget")
    assert len(asked) == 1 and "1 event entered" in asked[0], asked
    expect(page.locator("#resume-box")).to_be_visible()
    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    page.click("#forget")
    expect(page.locator("#resume-box")).to_be_hidden()
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#resume-box")).to_be_hidden()


# the top and left edges of each of ``names`` as shown inside element ``e``'s text
_NAME_XS = """(e, names) => {
  const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
  const xs = {};
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const n of names) {
      const i = node.textContent.indexOf(n);
      if (i < 0 || n in xs) continue;
      const r = document.createRange();
      r.setStart(node, i);
      r.setEnd(node, i + n.length);
      const box = r.getClientRects()[0];
      xs[n] = [box.top, box.left];
    }
  }
  return xs;
}"""


def test_right_to_left_partners_keep_their_order(page: Page) -> None:
    """Two partners with Hebrew and Arabic names: "Team A (نور & דנה)" must not show them swapped (the
    bidirectional algorithm would run "نور & דנה" right to left); the board isolates such names."""
    record = json.loads((ROOT / "examples" / "teams_4p.json").read_text(encoding="utf-8"))
    record["names"] = ["نور", "Bob", "דנה", "Dan"]
    page.click("#paste-box summary")
    page.fill("#paste", json.dumps(record, ensure_ascii=False))
    page.click("#load-paste")
    settle(page)
    # the side's name in the chances, and a swap in the list of moves
    labels = [page.locator("#chances .chance[data-seat='0'] .cname"), page.locator("#moves .mv-who", has_text="⇄").first]
    expect(labels[0]).to_contain_text("Team A (")
    for label in labels:
        (top0, left0), (top1, left1) = label.evaluate(_NAME_XS, ["نور", "דנה"]).values()
        # the first partner first: on the line above (a label may wrap), or to the left on the same line
        assert top0 < top1 - 4 or (abs(top0 - top1) <= 4 and left0 < left1), (label, top0, left0, top1, left1)


def test_the_longest_names_keep_the_board_in_the_window(sized_page: Page) -> None:
    """Names of the longest length a record allows (200 characters, no space to break at) never make the
    page scroll sideways: not the table, the move list, the chances nor the "View as" choice."""
    page = sized_page
    record = json.loads((ROOT / "examples" / "full_deal_4p.json").read_text(encoding="utf-8"))
    record["names"] = ["W" * 200, "M" * 200, "x" * 200, "Dan"]
    page.click("#paste-box summary")
    page.fill("#paste", json.dumps(record))
    page.click("#load-paste")
    settle(page)
    expect(page.locator("#seat option", has_text="W" * 200)).to_have_count(1)
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.locator("#seat").bounding_box()["width"] <= width  # type: ignore[index]
    # the analysis too: the chart's legend and the decisions, which name the players
    page.select_option("#analyse-depth", "0")
    page.click("#analyse")
    page.wait_for_selector("#decisions li")
    settle(page)
    expect(page.locator("#chart p.hint")).to_contain_text("W" * 200)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
