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

The names below are the public API; see README.md and docs/.
"""

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
from .decide.search import Advice, Evaluation, advise
from .infer.validate import Summary, check_record
from .run.simulate import Tournament, play_game, run_tournament
from .game.view import PlayerView, replay_view
from .report import notebook as _notebook  # noqa: F401  registers the notebook pictures (_repr_html_)

__version__ = "0.2.0"

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
    "Shown",
    "Summary",
    "Swap",
    "Tournament",
    "TrioError",
    "Turn",
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
