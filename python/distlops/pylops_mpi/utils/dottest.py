# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's dottest: <Op u, v> against <u, Op^H v> on the gathered vectors, so that u and v
may be in any split, as PyLops-MPI's flat vectors are."""
import numpy as np

__all__ = ["dottest"]


def dottest(Op, u, v, nr=None, nc=None, rtol=1e-6, atol=1e-21, raiseerror=True, verb=False):
    """True when v^H (Op u) and (Op^H v)^H u agree to ``rtol``/``atol`` (np.isclose); an
    AssertionError with both values otherwise (``raiseerror``), or a printed line (``verb``).
    ``nr``, ``nc`` default to Op.shape and must equal it."""
    rows = Op.shape[0] if nr is None else nr
    cols = Op.shape[1] if nc is None else nc
    if (rows, cols) != tuple(Op.shape):
        raise AssertionError("Provided nr and nc do not match operator shape")
    forward = np.vdot(Op.matvec(u).asarray(), v.asarray())
    adjoint = np.vdot(u.asarray(), Op.rmatvec(v).asarray())
    passed = bool(np.isclose(adjoint, forward, rtol, atol))
    if verb or (raiseerror and not passed):
        message = (f"Dot test {'passed' if passed else 'failed'}, v^H(Opu)={forward} - "
                   f"u^H(Op^Hv)={adjoint}")
        if raiseerror and not passed:
            raise AssertionError(message)
        print(message)
    return passed
