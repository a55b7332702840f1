"""trio_solver: rules engine, exact hidden-card inference, advice, bots and analysis for Trio.

The package follows one flow of data (each module imports only from those before it)::

    rules, reveal            value types
    events                   turns and swaps, and their JSON grammar
    replay                   the one replayer of the public history (Table), Outcome
    view                     PlayerView: one seat's position (push/pop, JSON, keys)
    engine                   Game: the true state (deal, reveal, undo, JSON)
    record                   the trio-record/1 file format
    facts -> beliefs         exact posterior over the hidden cards
    sampling                 whole deals drawn from the posterior
    search                   the expectimax advisor
    bots, simulate, analysis players, tournaments, judged games
    knowledge                what a seat knows of each hand (after view; search and render read it)
    render, play, cli        text, the terminal game, the commands
    notebook                 the HTML pictures of Jupyter (registered through _display)

The names below are the public API; see README.md and docs/.
"""

from .analysis import Analysis, Decision, analyse
from .beliefs import Beliefs, Placement
from .bots import BOT_NAMES, Bot, make_bot
from .engine import Deal, Game, Shown
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
from .events import Event, Swap, Turn, TurnStatus
from .record import Record
from .replay import Outcome
from .reveal import Reveal, Revealed
from .rules import Mode, Rules
from .sampling import sample_game
from .search import Advice, Evaluation, advise
from .simulate import Tournament, play_game, run_tournament
from .view import PlayerView, replay_view
from . import notebook as _notebook  # noqa: F401  registers the notebook pictures (_repr_html_)

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
    "Swap",
    "Tournament",
    "TrioError",
    "Turn",
    "TurnStatus",
    "ViewError",
    "advise",
    "analyse",
    "make_bot",
    "play_game",
    "replay_view",
    "run_tournament",
    "sample_game",
    "time_limit",
]
