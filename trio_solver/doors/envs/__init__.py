"""Trio for learning agents.

* :mod:`trio_solver.doors.envs.trio_v0` — a PettingZoo AEC environment
  (``from trio_solver.doors.envs import trio_v0; env = trio_v0.env(players=4)``).
* :mod:`trio_solver.doors.openspiel` — the OpenSpiel game ``python_trio``.
* :mod:`trio_solver.doors.envs.agents` — trio_solver bots as agents of both, and their
  agents as trio_solver bots.
* :mod:`trio_solver.doors.envs.core` — what they share: action ids, the decision flow,
  the observation encoding (no PettingZoo or OpenSpiel needed).

PettingZoo and OpenSpiel come with the ``rl`` extra (``pip install 'trio-solver[rl]'``)
and are imported only by the modules that need them.
"""

from .core import ActionCodec, Encoder, TrioMatch

__all__ = ["ActionCodec", "Encoder", "TrioMatch"]
