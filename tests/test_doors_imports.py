"""The imports of game/ and doors/: at the top of each module, so its dependencies are read in one
place, except the optional extras (and the POSIX-only terminal modules), which stay lazy so that the
command line starts without them."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "trio_solver"
#: The optional extras: a function imports them when it needs them.
EXTRAS = {"fastapi", "starlette", "uvicorn", "ray", "pettingzoo", "gymnasium", "open_spiel", "pyspiel", "playwright"}
#: Modules a function may import: the extras, and the modules of a terminal, imported where a person sits at one:
#: select and termios (POSIX only), and readline, whose import changes every later input() of the process.
LAZY = EXTRAS | {"select", "termios", "readline"}


def _inner_imports(path: Path) -> list[str]:
    """``module:line name`` of every import inside a function of ``path`` (relative imports by their
    module, absolute ones by their top-level package)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.Import):
                names = [a.name.split(".")[0] for a in inner.names]
            elif isinstance(inner, ast.ImportFrom):
                names = ["." * inner.level + (inner.module or "")] if inner.level else [(inner.module or "").split(".")[0]]
            else:
                continue
            found += [f"{path.relative_to(PACKAGE)}:{inner.lineno} {n}" for n in names if n not in LAZY]
    return sorted(set(found))


def test_game_and_doors_import_at_the_top() -> None:
    files = sorted(PACKAGE.glob("game/*.py")) + sorted(PACKAGE.glob("doors/**/*.py"))
    assert len(files) > 10
    inner = [line for f in files for line in _inner_imports(f)]
    # the one exception: the command line imports the service (which needs the serve extra) for `serve` alone
    assert len(inner) == 1 and inner[0].endswith(" .service"), inner


def test_the_command_line_starts_without_the_extras() -> None:
    code = ("import sys, trio_solver.doors.cli; "
            f"print(sorted(m for m in {sorted(EXTRAS)!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_package_loads_a_public_name_when_it_is_first_asked_for() -> None:
    """``import trio_solver`` loads none of the library (the command's first moment stays short and a
    Ctrl-C in it is handled by trio_solver.__main__); each public name then comes from its module, and a
    picture asked of a class imported from its own module is the notebook's drawing."""
    code = ("import sys, trio_solver; "
            "print(sorted(m for m in sys.modules if m.startswith('trio_solver.')), 'numpy' in sys.modules); "
            "from trio_solver import Game, Rules; "
            "from trio_solver.game.state import Game as G; "
            "print(Game is G, G.deal(Rules(3), seed=1)._repr_html_()[:21]); "
            "print(sorted(set(trio_solver.__all__) - set(dir(trio_solver))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["[] False", "True <div class='trio-nb'>", "[]"]
