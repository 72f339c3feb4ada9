# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's cg and cgls: the native solvers, with ``tol`` compared with the squared norm
of the residual (of the normal equations for cgls) as PyLops-MPI does."""
from mpi4py import MPI

import distlops as _dl

from .._layer import operand, stacked_as_theirs
from .cls_basic import CG, CGLS  # noqa: F401 (PyLops-MPI's module holds them)
from .cls_basic import squared_tol as _tol


def _shown(show, y):
    """Whether any rank asked for the log: PyLops-MPI's scripts may pass show=True on rank 0
    only (it prints there), which the native solvers' agreement check on their options
    refuses."""
    comm = getattr(y, "base_comm", None) or MPI.COMM_WORLD
    return bool(comm.allreduce(bool(show), op=MPI.LOR))


def cg(Op, y, x0, niter=10, tol=1e-4, show=False, itershow=(10, 10, 10), callback=None):
    """Conjugate gradient: (x, iit, cost)."""
    y = operand(Op, y, adjoint=True)
    x, iterations, cost = _dl.cg(Op, y, operand(Op, x0), niter=niter, tol=_tol(tol),
                                 show=_shown(show, y), itershow=itershow, callback=callback)
    return stacked_as_theirs(x), iterations, cost


def cgls(Op, y, x0, niter=10, damp=0.0, tol=1e-4, show=False, itershow=(10, 10, 10),
         callback=None):
    """CGLS: (x, istop, iit, r1norm, r2norm, cost). r1norm is PyLops-MPI's: the squared norm
    of the normal equations' residual Op^H (y - Op x) - damp^2 x at the solution (the native
    r1norm is ||y - Op x||), one more apply of Op and of its adjoint."""
    y = operand(Op, y, adjoint=True)
    x, istop, iterations, _, r2norm, cost = _dl.cgls(
        Op, y, operand(Op, x0), niter=niter, damp=damp, tol=_tol(tol), show=_shown(show, y),
        itershow=itershow, callback=callback)
    x = stacked_as_theirs(x)
    normal = Op.rmatvec(y - Op.matvec(x)) - (damp ** 2) * x
    r1norm = float(abs(normal.dot(normal.conj())))
    return x, istop, iterations, r1norm, r2norm, cost
