"""trio_solver: rules engine, exact hidden-card inference and move advice for Trio.

The layout follows the flow of data: :mod:`~trio_solver.record` (game records)
-> :mod:`~trio_solver.engine` (the true state; :mod:`~trio_solver.table` holds
the public rules of a turn) -> :mod:`~trio_solver.view` (what one seat may see)
-> :mod:`~trio_solver.facts` and :mod:`~trio_solver.beliefs` (exact posterior
over the hidden cards) -> :mod:`~trio_solver.search` (the advisor).
"""

from .beliefs import Beliefs, Placement
from .engine import Deal, Game
from .errors import (
    ContradictionError,
    IllegalMoveError,
    NotationError,
    RecordError,
    RulesError,
    TrioError,
    ViewError,
)
from .record import Record, replay_view
from .reveal import Reveal, Revealed
from .rules import Mode, Rules
from .table import Swap, Turn, TurnStatus
from .view import PlayerView

__version__ = "0.1.0"

__all__ = [
    "Beliefs",
    "ContradictionError",
    "Deal",
    "Game",
    "IllegalMoveError",
    "Mode",
    "NotationError",
    "Placement",
    "PlayerView",
    "Record",
    "RecordError",
    "Reveal",
    "Revealed",
    "Rules",
    "RulesError",
    "Swap",
    "TrioError",
    "Turn",
    "TurnStatus",
    "ViewError",
    "replay_view",
]
