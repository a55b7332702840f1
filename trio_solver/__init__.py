"""trio_solver: rules engine, exact hidden-card inference, advice, bots and analysis for Trio.

The package follows one flow of data; each subpackage imports only from those above it::

    errors, limits, words, kernel   shared: error classes, time/size limits, wording, compiled core
    game/     rules, reveal         value types
              events                turns and swaps, and their JSON grammar
              table                 the one replayer of the public history (Table), Outcome
              view                  PlayerView: one seat's position (push/pop, JSON, keys)
              state                 Game: the true state (deal, reveal, undo, JSON)
              record                the trio-record/1 file format
              knowledge             what a seat knows of each hand
    infer/    facts -> beliefs      exact posterior over the hidden cards
              sampling              whole deals drawn from the posterior
    decide/   search                the exact advisor within a turn
              rollout, evaluate     playouts and the game-level judgement; stopping rules
              bots, expert          players
    report/   analysis              judged games; render, analysis_html, notebook: their pictures
    run/      simulate, parallel    tournaments on processes or Ray; results files, collections
    doors/    cli, protocol,        the commands, the stdio engine protocol, the HTTP service and
              service, play, envs   web board, the terminal game, PettingZoo and OpenSpiel

The names below are the public API; see README.md and docs/. Each is imported from its module
the first time it is asked for (``trio_solver.Game``, ``from trio_solver import Game``), so that
``import trio_solver`` and the command's start are quick, and a Ctrl-C while the command loads is
still one line (see :mod:`trio_solver.__main__`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .report.analysis import Analysis, Decision, analyse
    from .infer.beliefs import Beliefs, Placement
    from .decide.bots import BOT_NAMES, Bot, make_bot
    from .game.state import Deal, Game, Shown
    from .errors import (
        ContradictionError,
        IllegalMoveError,
        LimitError,
        NotationError,
        RecordError,
        RulesError,
        RunError,
        TrioError,
        ViewError,
    )
    from .limits import Deadline, time_limit
    from .game.events import Event, Swap, Turn, TurnStatus
    from .game.record import Record
    from .game.table import Outcome
    from .game.reveal import Reveal, Revealed
    from .game.rules import Mode, Rules
    from .infer.sampling import sample_game
    from .decide.evaluate import GameEvaluation, advise_game, evaluate
    from .decide.search import Advice, Evaluation, TurnObjective, advise
    from .infer.validate import Summary, check_record
    from .run.simulate import Tournament, play_game, run_tournament
    from .game.view import PlayerView, replay_view

__version__ = "0.2.0"

#: The public names of each module (the imports above, for the type checker), imported on first use.
_NAMES = {
    ".report.analysis": ("analyse", "Analysis", "Decision"),
    ".infer.beliefs": ("Beliefs", "Placement"),
    ".decide.bots": ("Bot", "BOT_NAMES", "make_bot"),
    ".game.state": ("Deal", "Game", "Shown"),
    ".errors": ("ContradictionError", "IllegalMoveError", "LimitError", "NotationError", "RecordError", "RulesError",
                "RunError", "TrioError", "ViewError"),
    ".limits": ("Deadline", "time_limit"),
    ".game.events": ("Event", "Swap", "Turn", "TurnStatus"),
    ".game.record": ("Record",),
    ".game.table": ("Outcome",),
    ".game.reveal": ("Reveal", "Revealed"),
    ".game.rules": ("Mode", "Rules"),
    ".infer.sampling": ("sample_game",),
    ".decide.evaluate": ("advise_game", "evaluate", "GameEvaluation"),
    ".decide.search": ("Advice", "advise", "Evaluation", "TurnObjective"),
    ".infer.validate": ("check_record", "Summary"),
    ".run.simulate": ("play_game", "run_tournament", "Tournament"),
    ".game.view": ("PlayerView", "replay_view"),
}
_WHERE = {name: module for module, names in _NAMES.items() for name in names}


def __getattr__(name: str) -> object:
    """A public name, imported from its module on first use (PEP 562)."""
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(where, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "Advice",
    "Analysis",
    "BOT_NAMES",
    "Beliefs",
    "Bot",
    "ContradictionError",
    "Deadline",
    "Deal",
    "Decision",
    "Evaluation",
    "Event",
    "GameEvaluation",
    "Game",
    "IllegalMoveError",
    "LimitError",
    "Mode",
    "NotationError",
    "Outcome",
    "Placement",
    "PlayerView",
    "Record",
    "RecordError",
    "Reveal",
    "Revealed",
    "Rules",
    "RulesError",
    "RunError",
    "Shown",
    "Summary",
    "Swap",
    "Tournament",
    "TrioError",
    "Turn",
    "TurnObjective",
    "TurnStatus",
    "ViewError",
    "advise",
    "advise_game",
    "analyse",
    "check_record",
    "evaluate",
    "make_bot",
    "play_game",
    "replay_view",
    "run_tournament",
    "sample_game",
    "time_limit",
]
