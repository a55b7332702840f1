"""The HTML report in a real browser (Debian's chromium through Playwright): the embedded data
parses to exactly the --json output, the chart has its axes, turn ticks and trio markers, every
point shows its position when clicked, and the page fits a phone's width."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from trio_solver.report.analysis import analyse
from trio_solver.doors.cli import main
from trio_solver.game.record import Record
from trio_solver.words import percent
from trio_solver._text import right_to_left

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        yield b
        b.close()


def _tricky_record(tmp_path: Path) -> Path:
    """The 4-player example with names that HTML and JSON must both carry through unchanged (names
    are plain text: a line separator or a control character is refused on reading)."""
    data = json.loads((ROOT / "examples" / "full_deal_4p.json").read_text(encoding="utf-8"))
    data["names"] = ["Alice </script>", "Bob & \"Co\"", "Chloé <b>", "Dan <!-- ]]>"]
    path = tmp_path / "tricky.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_report_in_chromium(browser: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _tricky_record(tmp_path)
    out = tmp_path / "report.html"
    assert main(["analyse", str(path), "--html", str(out), "--samples", "6"]) == 0
    assert main(["analyse", str(path), "--json", "--samples", "6"]) == 0
    expected = json.loads(capsys.readouterr().out.splitlines()[-1])
    record = Record.load(path)
    a = analyse(record, samples=6)

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(out.as_uri())
    # the data the page's script reads is exactly the --json output
    parsed = page.evaluate("JSON.parse(document.getElementById('analysis').textContent)")
    assert parsed == expected
    assert errors == []
    # names, as text, in the header, the players table and the legend
    header = page.locator("#header").inner_text()
    for name in record.names or ():
        assert name.strip() in header
        assert name.strip() in page.locator("#players").inner_text()
    assert "Result:" in header and "wins" in header
    # the chart: axis titles, one tick line per turn, a marker per trio, a point per reveal
    svg = page.locator("#chart")
    assert "chance to win the game" in svg.inner_html() and "turn (each point is one reveal)" in svg.inner_html()
    # one line per player: the chance to win after every turn, each point clickable
    assert page.locator("#chart .seatline").count() == 4
    assert page.locator("#chart .cp").count() == len(a.curve) == a.turns + 1
    page.locator("#chart .cp").nth(5).locator(".cphit").first.click()
    text = page.locator("#position").inner_text()
    # the point after turn 5 sits at the tick of turn 6, and says both
    assert "After turn 5, before turn 6 - the table as a spectator sees it" in text
    assert "after turn 5, before turn 6:" in page.locator("#chart .cp").nth(5).locator("title").inner_html()
    page.locator("#chart .cp").last.locator(".cphit").first.click()
    assert f"After turn {a.turns} - the table" in page.locator("#position").inner_text()
    page.locator("#chart .cp").nth(5).locator(".cphit").first.click()
    text = page.locator("#position").inner_text()
    for s in range(4):
        assert f"{a.players[s].strip()} {percent(a.curve[5].win_chance[s])}" in text.replace("\u2028", "")
    # the page's script and the Python text write a chance the same way (halves round up)
    chances = [0.0, 0.001, 0.005, 0.125, 0.135, 0.145, 0.285, 0.5, 0.505, 0.995, 0.999, 1.0]
    chances += [c.win_chance[s] for c in a.curve for s in range(4)]
    assert page.evaluate("xs => xs.map(pct)", chances) == [percent(x) for x in chances]
    assert page.locator("#chart .turnline").count() == len({d.turn for d in a.decisions})
    assert page.locator("#chart .trio").count() == len(a.trios) > 0
    assert page.locator("#chart .pt").count() == len(a.decisions)
    # every point is clickable and shows the position as the mover saw it, the move and the best move
    for i in range(0, len(a.decisions), 7):
        d = a.decisions[i]
        page.locator("#chart .pt").nth(i).click()
        text = page.locator("#position").inner_text()
        assert f"Turn {d.turn}, {a.players[d.seat]}" in text
        assert f"Played {d.played} (showed {d.shown})" in text
        # a better reveal is named unless the loss is not told apart from 0
        assert (f"Best: {d.best}" in text) == (d.verdict != "within noise")
        if d.p_game_played is not None:
            assert f"chance to win the game {round(d.p_game_played * 100)}%" in text
        own = d.position["hands"][d.seat] if d.position else None
        assert own is not None and "[" + " ".join(map(str, own["cards"])) + "]" in text.replace("^", "").replace("*", "")
        # the mover's own cards that every player knew are marked ^ (face-up ones *)
        marks = ["*" if u else "^" if p else "" for p, u in zip(own["public"], own["up"])]
        assert "[" + " ".join(f"{v}{m}" for v, m in zip(own["cards"], marks)) + "]" in text
        assert page.locator("#chart .pt.sel").count() == 1
    # a key moment and a table row are clickable too
    first = next(m for m in a.moments if m.decision is not None)
    page.locator("ul.moments a").first.click()
    assert f"Turn {a.decisions[first.decision].turn}," in page.locator("#position").inner_text()  # type: ignore[index]
    # a key moment: its heading looks like a link, its story is plain text, and a tap on the story opens it too
    head, _, story = first.text.partition(": ")
    item = page.locator("ul.moments li[data-pick]").first
    assert item.locator("a").inner_text() == head and story and story in item.inner_text()
    page.locator("#decisions tr.pick").nth(3).click()
    box = item.bounding_box()
    assert box is not None
    item.click(position={"x": box["width"] - 5, "y": box["height"] - 5})  # the end of its story, not the heading
    assert f"Turn {a.decisions[first.decision].turn}," in page.locator("#position").inner_text()  # type: ignore[index]
    page.locator("#decisions tr.pick").nth(3).click()
    assert f"Turn {a.decisions[3].turn}, " in page.locator("#position").inner_text()
    # the labels are explained on the page
    labels = page.locator("dl.labels").inner_text()
    for word in ("inaccuracy", "mistake", "blunder", "accuracy", "trio chance"):
        assert word in labels
    assert page.locator("#chart-phone").is_hidden() and page.locator("#players th .long").first.is_visible()
    page.screenshot(path=str(tmp_path / "desktop.png"), full_page=True)
    assert errors == []
    page.close()


def test_report_fits_a_phone(browser: Browser, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    assert main(["analyse", str(ROOT / "examples" / "full_deal_4p.json"), "--html", str(out), "--quick"]) == 0
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(out.as_uri())
    # the page itself never scrolls sideways; the list of every reveal scrolls inside its box
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # the players table fits, with short headings; the chart is the phone's, whole and readable
    fits = "e => e.scrollWidth <= e.clientWidth"
    assert page.locator("#players").evaluate("e => e.parentElement.scrollWidth <= e.parentElement.clientWidth")
    assert page.locator("#players th .short").first.is_visible() and not page.locator("#players th .long").first.is_visible()
    assert page.locator("#chart").is_hidden() and page.locator("#chart-phone").is_visible()
    assert page.locator(".chartwrap").evaluate(fits)
    box = page.locator("#chart-phone").bounding_box()
    assert box is not None and box["width"] >= 330
    tick = page.locator("#chart-phone text.tick").first.bounding_box()
    assert tick is not None and tick["height"] >= 9  # text a person can read, not a scaled-down desktop chart
    assert page.locator("#chart-phone .pt").count() == page.locator("#chart .pt").count() > 5
    page.locator("#chart-phone .pt").nth(5).click()
    assert "Played" in page.locator("#verdict").inner_text()
    assert page.locator("#chart-phone .pt.sel").count() == 1
    # a box wider than the phone says that it scrolls: a shadow on each side with more to see (covers that
    # scroll with the content hide it at either end), the list of every reveal and the position panel alike
    every = page.locator(".wrap").last
    assert every.evaluate("e => e.scrollWidth > e.clientWidth + 100")
    for box in (every, page.locator("#position pre").first):
        style = box.evaluate("e => [getComputedStyle(e).backgroundAttachment, getComputedStyle(e).backgroundImage]")
        assert style[0] == "local, local, scroll, scroll" and style[1].count("linear-gradient") == 4
    # the notation of a reveal in a font where l1 never reads as I1
    cells = page.locator("td.rv")
    assert cells.count() >= 2 * page.locator("tr[data-pick]").count() > 0
    assert "monospace" in cells.first.evaluate("e => getComputedStyle(e).fontFamily")
    page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)
    page.close()


def test_a_tap_on_a_dot_of_the_phone_chart_opens_that_dot(browser: Browser, tmp_path: Path) -> None:
    """On the narrow chart the dots lie a few pixels apart and the turn points between them: a tap at the
    centre of any dot opens that dot's reveal, never a neighbour's or a turn point."""
    out = tmp_path / "report.html"
    assert main(["analyse", str(ROOT / "examples" / "full_deal_4p.json"), "--html", str(out), "--samples", "16"]) == 0
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.goto(out.as_uri())
    dots = page.locator("#chart-phone .pt")
    assert dots.count() > 40 and page.locator("#chart-phone .cp").count() > 10
    page.locator("#chart-phone").scroll_into_view_if_needed()
    verdicts = page.evaluate("JSON.parse(document.getElementById('analysis').textContent).decisions.map(d => d.verdict)")
    assert "within noise" in verdicts
    for i in range(dots.count()):
        box = dots.nth(i).locator("circle:not(.hit)").bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        assert page.locator("#chart-phone .pt.sel").get_attribute("data-i") == str(i), i
        # the panel names a better reveal only where the loss is told apart from 0
        assert ("Best:" in page.locator("#verdict").inner_text()) == (verdicts[i] != "within noise"), i
    page.close()


# the x position of each character of every hand ("[...]") of the position panel, in the text's order
# (and where each hand starts)
_HAND_XS = """pre => {
  const out = [];
  for (const node of pre.childNodes) {
    if (node.nodeType !== Node.TEXT_NODE) continue;
    const text = node.textContent, i = text.indexOf('[');
    if (i < 0) continue;
    const xs = [];
    for (let k = i; k <= text.indexOf(']', i); k++) {
      if (text[k] === ' ') continue;
      const r = document.createRange();
      r.setStart(node, k);
      r.setEnd(node, k + 1);
      xs.push(r.getBoundingClientRect().left);
    }
    out.push(xs);
  }
  return out;
}"""


def test_right_to_left_names_never_reverse_a_hand(browser: Browser, tmp_path: Path) -> None:
    """A Hebrew or Arabic name beside a hand would join the hand's digits to its own direction and show
    the hand reversed ([1 2 3] as [3 2 1]); the page isolates such names, so every hand of the position
    panel reads from left to right, the hands line up beside names of any script, and the page's own
    text is kept."""
    data = json.loads((ROOT / "examples" / "full_deal_4p.json").read_text(encoding="utf-8"))
    data["names"] = ["نور", "Bob", "דנה", "李雷"]
    path = tmp_path / "rtl.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "report.html"
    assert main(["analyse", str(path), "--html", str(out), "--quick"]) == 0
    a = analyse(Record.load(path), samples=0)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(out.as_uri())
    for i in (0, len(a.decisions) // 2, len(a.decisions) - 1):
        page.locator("#chart .pt").nth(i).click()
        hands = page.locator("#position pre").evaluate(_HAND_XS)
        assert len(hands) == 4
        for xs in hands:
            assert len(xs) >= 2 and xs == sorted(xs) and len(set(xs)) == len(xs), xs
        # the hands' column lines up, whatever the width of the names' letters in the font
        assert max(xs[0] for xs in hands) - min(xs[0] for xs in hands) < 0.5, hands
    # the page's own text: each right-to-left name between the isolates, the text otherwise unchanged
    header = page.locator("#header").inner_text()
    assert "\u2068نور\u2069" in header and "\u2068דנה\u2069" in header and "\u2068Bob" not in header
    assert header.replace("\u2068", "").replace("\u2069", "") == a.header()
    page.close()


def test_the_page_and_the_library_agree_on_right_to_left_names(browser: Browser, tmp_path: Path) -> None:
    """The page's script isolates the names the library's own text isolates (trio_solver._text.right_to_left),
    on names of every script a table may meet."""
    out = tmp_path / "report.html"
    assert main(["analyse", str(ROOT / "examples" / "full_deal_4p.json"), "--html", str(out), "--quick"]) == 0
    page = browser.new_page()
    page.goto(out.as_uri())
    names = ["Alice", "Chloé", "李雷", "👩‍👩‍👧", "नमस्ते", "Σοφία", "Ирина", "นภา", "דנה", "نور", "ܐܪܡܝܐ", "ދިވެހި",
             "ߒߞߏ", "Sam ٣", "Sam ۳", "3 ب", "ﻧﻮﺭ", "𐤀𐤁", "𞤀𞤣𞤤𞤢𞤥", "x\u05b0", "12", "-", "R2-D2"]
    assert page.evaluate("names => names.map(n => RTL.test(n))", names) == [right_to_left(n) for n in names]
    page.close()


def test_a_name_of_one_long_word_never_widens_the_page(browser: Browser, tmp_path: Path) -> None:
    """A name may be one word of 200 letters: the header, the key moments, the chart's legend and the
    position panel's heading break it, so that the page never grows wider than a phone or a desktop
    screen (the tables and the position's table scroll inside their own boxes)."""
    data = json.loads((ROOT / "examples" / "full_deal_4p.json").read_text(encoding="utf-8"))
    data["names"] = ["W" * 200, "Bob", "דנה 👩‍👩‍👧", "m" * 120]
    path = tmp_path / "long.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "report.html"
    assert main(["analyse", str(path), "--html", str(out), "--quick"]) == 0
    for width in (390, 1280):
        page = browser.new_page(viewport={"width": width, "height": 844})
        page.goto(out.as_uri())
        assert page.locator("ul.moments a").count() > 0
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.locator("ul.moments a").first.click()
        assert "W" * 200 in page.locator("#position").inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        # the legend still shows every name, each entry on one line when it fits
        assert page.locator(".legend span").nth(1).evaluate("e => e.getClientRects().length") == 1
        page.close()


def test_a_loss_known_exactly_has_no_range_in_the_panel(browser: Browser, tmp_path: Path) -> None:
    """A loss the turn decides (no playout needed: the range is one figure) is told as the key moments tell
    it, "Loss 36.1%: blunder.", never "likely 36.1% to 36.1%"; a loss with a range keeps it."""
    a = analyse(Record.load(ROOT / "examples" / "full_deal_4p.json"), samples=6)
    i = next(k for k, d in enumerate(a.decisions) if d.label is not None)
    exact = dataclasses.replace(a.decisions[i], loss_low=a.decisions[i].loss, loss_high=a.decisions[i].loss,
                                loss_stderr=0.0)
    out = tmp_path / "report.html"
    out.write_text(dataclasses.replace(a, decisions=a.decisions[:i] + (exact,) + a.decisions[i + 1:]).html(),
                   encoding="utf-8")
    page = browser.new_page()
    page.goto(out.as_uri())
    page.locator(f"tr[data-pick='{i}']").click()
    verdict = page.locator("#verdict").inner_text()
    assert f"Loss {percent(exact.loss, 1)}: {exact.verdict}." in verdict and "likely" not in verdict
    j = next((k for k, d in enumerate(a.decisions) if d.label is not None and k != i
              and percent(d.loss_low, 1) != percent(d.loss_high, 1)), None)
    if j is not None:
        page.locator(f"tr[data-pick='{j}']").click()
        assert "(likely " in page.locator("#verdict").inner_text()
    page.close()
