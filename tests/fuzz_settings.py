"""How hard the fuzz suite works: ``TRIO_FUZZ_LONG=1`` (or ``pytest --fuzz-long``) runs 20 times the cases."""

import os

FUZZ_SCALE = 20 if os.environ.get("TRIO_FUZZ_LONG", "") not in ("", "0") else 1
