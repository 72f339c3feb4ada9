# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's ista and fista: the classes ISTA and FISTA run from setup to finalize."""
from distlops._solvers import _sparse

from .cls_sparsity import FISTA, ISTA


def _solver(solver_class, name):
    """PyLops-MPI's ista or fista (their signature): (x, niter, cost)."""
    def solver(Op, y, x0, niter=10, SOp=None, eps=0.1, alpha=None, eigsdict=None, tol=1e-10,
               rtol=0.0, rtol1=0.0, threshkind="soft", decay=None, monitorres=False,
               show=False, itershow=(10, 10, 10), callback=None):
        return _sparse(solver_class, Op, y, x0, niter, SOp, eps, alpha, eigsdict, tol, rtol,
                       rtol1, threshkind, decay, monitorres, show, itershow, callback)

    solver.__name__ = solver.__qualname__ = name.lower()
    solver.__doc__ = f"{name}: (x, niter, cost)."
    return solver


ista = _solver(ISTA, "ISTA")
fista = _solver(FISTA, "FISTA")
