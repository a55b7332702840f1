"""``python -m trio_solver`` runs the ``trio-solver`` command."""

import sys

from .doors.cli import main

sys.exit(main())
