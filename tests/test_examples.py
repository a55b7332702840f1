"""The examples of the README and of examples/ actually run."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from trio_solver import Record
from trio_solver.doors.cli import main
from trio_solver.infer.validate import check_record

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A scratch folder holding a copy of examples/, as the README's commands expect."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_there_are_examples_of_every_kind() -> None:
    records = [Record.load(p) for p in EXAMPLES]
    assert any(r.deal is not None and not r.rules.teams for r in records)
    assert any(r.deal is None and r.viewer is not None for r in records)
    assert any(r.rules.teams for r in records)
    assert any(r.view().turn for r in records if r.deal is None)  # a turn in progress


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_records_are_valid(path: Path) -> None:
    summary = check_record(Record.load(path))
    assert summary.players == Record.load(path).rules.players


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README, flags=re.S)


def test_readme_python_blocks_run(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocks = _python_blocks()
    assert len(blocks) >= 2
    for code in blocks:
        exec(compile(code, "README.md", "exec"), {"__name__": "readme"})
    out = capsys.readouterr().out
    assert out.strip(), "the README's Python prints something"
    assert (workdir / "partial.json").exists()
    assert Record.load(workdir / "partial.json").view(None).turn  # saved with its turn in progress


def _commands() -> list[list[str]]:
    block = re.search(r"## Commands.*?```bash\n(.*?)```", README, flags=re.S)
    assert block is not None
    out = []
    for line in block.group(1).splitlines():
        line = line.split("#")[0].strip()
        if not line.startswith("trio-solver "):
            continue
        argv = shlex.split(line)[1:]
        if argv[0] == "play":
            continue  # interactive; tests/test_play.py drives it
        if argv[0] == "simulate":
            argv[argv.index("--games") + 1] = "3"
        if argv[0] == "analyse" and "--quick" not in argv:
            argv += ["--samples", "4"]  # the figures' noise does not matter here, the time does
        out.append(argv)
    return out


def test_readme_commands_run(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commands = _commands()
    assert {c[0] for c in commands} >= {"validate", "replay", "beliefs", "advise", "analyse", "simulate"}
    for argv in commands:
        status = main(argv)
        out, err = capsys.readouterr()
        assert status == 0, f"{argv}: exit {status}: {err}"
        assert out.strip(), argv
    assert (workdir / "report.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_readme_setup_command_names_a_bundled_example() -> None:
    first = re.search(r"```bash\n# 1\..*?\n(.*?)\n", README, flags=re.S)
    assert first is not None
    target = first.group(1).split("trio-solver", 1)[1].split()
    assert target[0] in ("analyse", "advise", "beliefs", "replay", "validate")
    assert (ROOT / target[1]).exists()


@pytest.mark.parametrize("script,args,expect", [
    ("advise.py", [], "Reveal "),
    ("analyse.py", [], "worst decision"),
    ("simulate.py", ["2"], "95% interval"),
])
def test_example_scripts_run(script: str, args: list[str], expect: str) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "examples" / script), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert expect in done.stdout
