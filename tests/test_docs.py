"""The project's own documents (docs/RULES.md, docs/RECORD.md, docs/INTERFACE.md) and LICENSE
agree with the code: the records they show load, every command is documented, the JSON
examples have the keys the commands really print, and the figures they quote are the
library's constants.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shlex
import tomllib
from pathlib import Path
from typing import Any

import pytest

from trio_solver import Record, Rules
from trio_solver.report.analysis import ACCURATE, ACCURATE_GAME, DEFAULT_CONFIDENCE, DEFAULT_SAMPLES, GAME_THRESHOLDS, THRESHOLDS
from trio_solver.doors.cli import build_parser, main
from trio_solver.doors.protocol import run_engine
from trio_solver.infer.facts import STATE_BUDGET
from trio_solver.game.record import MAX_EVENTS, MAX_RECORD_BYTES
from trio_solver.game.rules import DEAL_TABLE, TEAM_HAND_SIZE, VALUES, Mode
from trio_solver.infer.validate import check_record

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
DOCUMENTS = ("RULES", "RECORD", "INTERFACE")
RULES_MD, RECORD_MD, INTERFACE_MD = ((DOCS / f"{name}.md").read_text(encoding="utf-8") for name in DOCUMENTS)



def contract_only(command: str) -> bool:
    """Example command lines of the interface document for commands that other work implements
    (``evaluate``, ``advise --objective game``): where the parser lacks them they are not run, and
    any other example that cannot run fails."""
    argv = shlex.split(command)[1:]
    return argv[0] == "evaluate" or (argv[0] == "advise" and "--objective game" in command)


def flat(text: str) -> str:
    """Markdown text with every run of blanks and line breaks made one space."""
    return " ".join(text.split())


def json_blocks(text: str) -> list[str]:
    return re.findall(r"^```json\n(.*?)^```", text, re.S | re.M)


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("the parser has no subcommands")


# -- docs/RECORD.md ---------------------------------------------------------------------------


def test_every_json_block_of_record_md_is_json_and_every_record_loads() -> None:
    blocks = json_blocks(RECORD_MD)
    records = []
    for text in blocks:
        data = json.loads(text)  # a fragment would have to be marked as something other than json
        if isinstance(data, dict) and "format" in data:
            records.append(Record.loads(text))
    # full deal, viewer, team viewer, turn in progress
    assert len(records) >= 4
    kinds = {(r.deal is not None, r.viewer is not None, r.rules.teams) for r in records}
    assert (True, False, False) in kinds and (False, True, False) in kinds and (False, True, True) in kinds
    assert any(r.view("default").turn for r in records), "an example of a turn in progress"
    for r in records:
        summary = check_record(r)  # some deal fits every example, not only its rules
        assert summary.winner is None


def test_record_md_limits_are_the_library_limits() -> None:
    assert f"larger than {MAX_RECORD_BYTES // (1024 * 1024)} MB" in flat(RECORD_MD)
    assert f"More than {MAX_EVENTS:,} events" in flat(RECORD_MD)


def test_record_md_error_lines_are_real() -> None:
    # the no-deal-fits example: the bundled viewer record with one value changed
    data = json.loads((ROOT / "examples" / "viewer_3p_picante.json").read_text(encoding="utf-8"))
    data["events"][4]["reveals"][2]["value"] = 3
    with pytest.raises(Exception) as info:
        check_record(Record.from_json(data))
    assert str(info.value) in RECORD_MD


# -- docs/RULES.md ----------------------------------------------------------------------------


def test_rules_md_deal_table_is_the_engine_table() -> None:
    rows = re.findall(r"^\| (\d) \| (\d+) \| (\d+) \|$", RULES_MD, re.M)
    assert {int(p): (int(h), int(c)) for p, h, c in rows} == DEAL_TABLE
    assert f"{TEAM_HAND_SIZE[4]} per hand at 4 players, {TEAM_HAND_SIZE[6]} at 6 players" in flat(RULES_MD)


def test_rules_md_link_table_is_the_default_link_graph() -> None:
    head = re.search(r"^\s*\| value \|(.*)\|$", RULES_MD, re.M)
    links = re.search(r"^\s*\| linked to \|(.*)\|$", RULES_MD, re.M)
    assert head is not None and links is not None
    values = [int(v) for v in head.group(1).split("|")]
    assert values == list(VALUES)
    graph = Rules(3, Mode.PICANTE).link_graph
    for v, cell in zip(values, links.group(1).split("|")):
        shown = set() if cell.strip() == "—" else {int(x) for x in cell.split(",")}
        assert shown == set(graph.neighbors(v)), v


def test_rules_md_names_its_sources_by_what_they_are() -> None:
    for decision in ("**The turn ends after a trio.**", "**The worked example of the French rules sheet cannot happen.**",
                     "**Picante links are data, not arithmetic.**"):
        assert decision in RULES_MD
    for source in ("Czech description", "English guide", "French rules Q&A", "French rules sheet"):
        assert source in RULES_MD


# -- docs/INTERFACE.md ------------------------------------------------------------------------


def test_every_subcommand_is_documented() -> None:
    commands = subcommands()
    assert {"validate", "replay", "beliefs", "advise", "analyse", "simulate", "play"} <= set(commands)
    for name, sub in commands.items():
        assert f"`trio-solver {name}" in INTERFACE_MD, f"docs/INTERFACE.md does not name {name!r}"
        if sub.prog.split()[-1] == name:  # not an alias: a section of its own
            assert re.search(rf"^## .*`trio-solver {name}[ `]", INTERFACE_MD, re.M), name


def test_contract_sections_exist() -> None:
    for heading in ("## `trio-solver evaluate", "## `trio-solver advise --objective game",
                    "## The engine protocol: `trio-solver engine`", "## The HTTP service: `trio-solver serve"):
        assert heading in INTERFACE_MD
    for key in ('"p_game"', '"p_game_stderr"', '"win_chance"', '"stderr"', "/v1/health", "/openapi.json"):
        assert key in INTERFACE_MD


def test_every_json_block_of_interface_md_is_json() -> None:
    blocks = json_blocks(INTERFACE_MD)
    assert len(blocks) >= 9
    for text in blocks:
        assert isinstance(json.loads(text), dict)


def test_interface_md_figures_are_the_library_constants() -> None:
    text = flat(INTERFACE_MD)
    for threshold, label in GAME_THRESHOLDS:
        assert f"at least {threshold:.2f} *{label}*" in text
    quick = " / ".join(f"{t:.2f}" for t, _ in reversed(THRESHOLDS))
    assert f"labels at {quick}" in text
    assert f"a loss below {ACCURATE}" in text and f"loss below {ACCURATE_GAME} or not told apart from 0" in text
    assert f"(default {DEFAULT_SAMPLES}; `--confidence" in text or f"(default {DEFAULT_SAMPLES})" in text
    assert f"--confidence\nC` the confidence of the labels (default {DEFAULT_CONFIDENCE};" in INTERFACE_MD
    assert f"default {STATE_BUDGET} lattice states" in text
    assert f"({MAX_RECORD_BYTES // (1024 * 1024)} MB" in text


EXAMPLES = re.findall(r"<!-- example: (trio-solver [^>]*?) -->\n```json\n(.*?)^```", INTERFACE_MD, re.S | re.M)


def _runnable(command: str) -> bool:
    argv = shlex.split(command)[1:]
    commands = subcommands()
    if argv[0] not in commands:
        return False
    if "--objective" in argv:
        value = argv[argv.index("--objective") + 1]
        for action in commands[argv[0]]._actions:
            if action.dest == "objective":
                return action.choices is None or value in action.choices
    return True


def test_examples_that_cannot_run_are_only_the_contract_ones() -> None:
    assert len(EXAMPLES) >= 9
    ran = {shlex.split(c)[1] for c, _ in EXAMPLES if _runnable(c)}
    assert {"validate", "replay", "beliefs", "advise", "analyse", "simulate"} <= ran
    for command, _ in EXAMPLES:
        if not _runnable(command):
            assert contract_only(command), f"cannot run the example {command!r}"


def _kind(x: Any) -> str:
    if isinstance(x, bool):
        return "bool"
    if isinstance(x, (int, float)):
        return "number"
    return type(x).__name__


def _is_reveal(x: Any) -> bool:
    return isinstance(x, dict) and len(x) == 1 and next(iter(x)) in ("centre", "lowest", "highest")


def same_shape(doc: Any, real: Any, path: str = "$") -> None:
    """``doc`` (an example, possibly cut short) has the structure of ``real``: the same keys in every
    object of fixed fields; keys that are seats, slots or values (digits) taken from those printed."""
    if doc is None or real is None:
        return
    if _is_reveal(doc) and _is_reveal(real):
        return  # {"centre": 3} / {"lowest": 2} / {"highest": 0}: one shape with three spellings
    assert _kind(doc) == _kind(real), f"{path}: the example has {_kind(doc)}, the command prints {_kind(real)}"
    if isinstance(doc, dict):
        if doc and all(k.isdigit() for k in doc):
            missing = set(doc) - set(real)
            assert not missing, f"{path}: keys {sorted(missing)} are not printed"
        else:
            assert set(doc) == set(real), (f"{path}: the example has keys {sorted(doc)}, "
                                           f"the command prints {sorted(real)}")
        for k in doc:
            same_shape(doc[k], real[k], f"{path}.{k}")
    elif isinstance(doc, list):
        if not real:
            assert not any(isinstance(x, (dict, list)) for x in doc), f"{path}: nothing printed to compare with"
            return
        for i, x in enumerate(doc):
            same_shape(x, real[min(i, len(real) - 1)], f"{path}[{i}]")


@pytest.mark.parametrize("command,example", [(c, e) for c, e in EXAMPLES if _runnable(c)],
                         ids=[c.split(" --json")[0] for c, _ in EXAMPLES if _runnable(c)])
def test_json_example_has_the_keys_the_command_prints(command: str, example: str,
                                                      capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the command lines name the bundled examples/ relative to the repository
    argv = shlex.split(command)[1:]
    if argv[0] == "analyse" and not {"--samples", "--quick"} & set(argv):
        argv += ["--samples", "4"]  # the same keys at fewer playouts per reveal (48 by default: a minute)
    assert main(argv) == 0, capsys.readouterr().err
    real = json.loads(capsys.readouterr().out)
    same_shape(json.loads(example), real)


def test_same_shape_catches_a_missing_or_extra_key() -> None:
    real = {"seat": 1, "reveals": [{"reveal": {"centre": 0}, "p_trio": 0.5}], "centre": {"0": {"3": 1.0}}}
    same_shape({"seat": 1, "reveals": [{"reveal": {"centre": 0}, "p_trio": 0.1}], "centre": {"0": {"3": 1.0}}}, real)
    for bad in ({"seat": 1, "reveals": [], "centre": {}, "extra": 1},
                {"seat": 1, "reveals": [{"reveal": {"centre": 0}}], "centre": {}},
                {"seat": 1, "reveals": [], "centre": {"5": {}}},
                {"seat": "1", "reveals": [], "centre": {}}):
        with pytest.raises(AssertionError):
            same_shape(bad, real)


# -- the repository as a whole ----------------------------------------------------------------

_SKIP_DIRS = {".git", ".venv", "venv", "__pycache__", ".mypy_cache", ".pytest_cache", ".hypothesis", "build",
              "dist", "out"}


def repository_text_files() -> list[Path]:
    out = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in _SKIP_DIRS and not d.endswith(".egg-info")]
        for name in files:
            path = Path(folder) / name
            try:
                path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            out.append(path)
    return out


def test_no_file_points_outside_the_repository() -> None:
    internal = ("../" + "shared", "/work/" + "shared")
    files = repository_text_files()
    assert any(p.name == "cli.py" for p in files) and any(p.parent == DOCS for p in files)
    for path in files:
        text = path.read_text(encoding="utf-8")
        for word in internal:
            assert word not in text, f"{path.relative_to(ROOT)} mentions {word}"


def test_documents_are_named_with_their_folder() -> None:
    bare = re.compile(r"(?<![\w/])(RULES|RECORD|INTERFACE)\.md")
    for path in repository_text_files():
        if path.parent == DOCS:
            continue  # the documents link to each other by relative name
        text = path.read_text(encoding="utf-8")
        m = bare.search(text)
        assert m is None, f"{path.relative_to(ROOT)} names {m.group(0)} without docs/" if m else ""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    help_text = build_parser().format_help()
    for name in DOCUMENTS:
        assert (DOCS / f"{name}.md").is_file()
        assert f"docs/{name}.md" in readme
        assert f"docs/{name}.md" in help_text


def test_license_is_mit_as_pyproject_says() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 the trio_solver authors" in text
    assert "THE SOFTWARE IS PROVIDED \"AS IS\"" in text
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == {"text": "MIT"}


def _anchors(text: str) -> set[str]:
    """The anchors GitHub gives the headings of a Markdown text: lower case, punctuation dropped,
    spaces made hyphens."""
    out = set()
    for heading in re.findall(r"^#+ (.*)$", re.sub(r"^```.*?^```", "", text, flags=re.S | re.M), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        out.add(slug)
    return out


def test_every_relative_link_of_the_readme_and_docs_resolves() -> None:
    pages = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
    assert {"DESIGN.md", "MEASUREMENTS.md"} <= {p.name for p in pages}
    checked = 0
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)):
            if re.match(r"[a-z]+:", target):
                continue  # a web address
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            assert file.exists(), f"{page.relative_to(ROOT)}: {target} does not exist"
            if anchor:
                assert anchor in _anchors(file.read_text(encoding="utf-8")), \
                    f"{page.relative_to(ROOT)}: {target}: no such heading"
            checked += 1
    assert checked >= 20


def _abridged(doc: Any, real: Any) -> bool:
    """Whether ``real`` is what the document shows, where the document abridges: ``{...}`` (read as
    :data:`_ANY`) stands for any value, ``"..."`` for any text, and a list ending in ``...`` for any list
    that starts with the items shown."""
    if doc == _ANY or doc == "...":
        return True
    if isinstance(doc, dict):
        return isinstance(real, dict) and doc.keys() <= real.keys() and all(
            _abridged(v, real[k]) for k, v in doc.items())
    if isinstance(doc, list) and doc and doc[-1] is Ellipsis:
        return isinstance(real, list) and len(real) >= len(doc) - 1 and all(
            _abridged(d, r) for d, r in zip(doc[:-1], real))
    return bool(doc == real)


_ANY = "\u0001any"  # what ``{...}`` stands for in a response the document shows


def _doc_json(line: str) -> Any:
    """A response line of the document as JSON: ``{...}`` read as ``null``, an object's closing ``, ...``
    dropped (an object shown is compared by its keys shown), a list's as a final :data:`Ellipsis`."""
    text = line.replace("{...}", json.dumps(_ANY)).replace(", ...}", "}").replace(", ...]", ', "\\u0000..."]')
    return _marked(json.loads(text))


def _marked(value: Any) -> Any:
    if isinstance(value, list):
        return [Ellipsis if v == "\x00..." else _marked(v) for v in value]
    if isinstance(value, dict):
        return {k: _marked(v) for k, v in value.items()}
    return value


def test_the_engine_session_of_interface_md_is_real() -> None:
    """The documented engine session, run: each request (its records the ones the session made) gets the
    response the document shows, up to its abridgements."""
    block = INTERFACE_MD.split("A session (requests and responses", 1)[1]
    lines = re.search(r"```text\n(.*?)```", block, re.S).group(1).splitlines()  # type: ignore[union-attr]
    requests, responses = lines[0::2], [_doc_json(line) for line in lines[1::2]]
    record = None
    for request, shown in zip(requests, responses):
        if request.startswith("{"):
            asked = json.loads(request.replace("{...}", "null"))
            if "record" in asked:
                asked["record"] = record
            request = json.dumps(asked)
        out = io.BytesIO()
        assert run_engine(io.BytesIO(request.encode() + b"\n"), out) == 0
        real = json.loads(out.getvalue())
        assert _abridged(shown, real), (request[:80], real)
        record = (real.get("result") or {}).get("record", record)
    assert len(requests) == 4 and record is not None


def test_the_readme_s_test_command_is_what_ci_runs() -> None:
    """The README's second set-up command (under ``# 2.``) is the last line of ``.ci/run``: what a reader
    runs to test is what CI runs."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("```bash\n", 1)[1].split("```", 1)[0].splitlines()
    second = block[block.index(next(line for line in block if line.startswith("# 2."))) + 1]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").rstrip().splitlines()
    assert second.startswith("python3 -m venv .venv && ") and ci[-1] == second
