"""The lattice's transition weights the obvious way: one composition and one set of flipping swap bits at a
time, in Python integers. :func:`trio_solver.infer.lattice._transitions` weighs every set of bits of a
composition at once and must give the same list (``tests/test_lattice_fast.py``)."""

from __future__ import annotations

import math

from trio_solver.infer.lattice import Transition, _compositions, _RowTerms


def reference_transitions(u: int, total: int, cdims: tuple[int, ...], flags: int, unit: bool, implicit: bool,
                          rows: tuple[_RowTerms, ...]) -> tuple[Transition, ...]:
    """The transitions of value ``u``, with the arguments of the library's ``_transitions``."""
    offsets = [r[0] for r in rows]
    chooser = [r[1] for r in rows]
    plain = not any(offsets) and not any(chooser) and flags == 0
    out: list[Transition] = []
    flips = [tuple(b for b in range(flags) if mask >> b & 1) for mask in range(1 << flags)]
    for x, rest, w in _compositions(len(cdims), total):
        if any(xi > d - 1 for xi, d in zip(x, cdims)):
            continue
        if plain:
            out.append((x, rest, (), 1 if unit else w))
            continue
        counts = x + (rest,) if implicit else x
        for phi in flips:
            on = set(phi)
            dealt = [c + r[0] + sum(coef for bit, coef in r[2] if bit in on) for c, r in zip(counts, rows)]
            if any(c < 0 for c in dealt):
                continue
            weight = math.factorial(sum(dealt))
            for c in dealt:
                weight //= math.factorial(c)
            for c, extras in zip(counts, chooser):
                for extra in extras:
                    weight *= max(c + extra, 0)
            for c, r in zip(counts, rows):
                for bit, extra, terms in r[3]:
                    if bit in on:
                        weight *= max(c + extra + sum(coef for b, coef in terms if b in on), 0)
            if weight:
                out.append((x, rest, phi, 1 if unit else weight))
    return tuple(out)
