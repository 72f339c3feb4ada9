# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's MPIL2: the native L2 with PyLops-MPI's arguments."""
from numbers import Integral, Number

import distlops as _dl

from ..._layer import operand
from ..ProxOperator import _Precomposed


class ScalarShift:
    """PyLops-MPI's precomposition f(a x + b) with a number b: the native one takes arrays."""

    def precomposition(self, a, b=0.0):
        if isinstance(b, Number) and b != 0:
            return _Precomposed(self, float(a), b)
        return super().precomposition(a, b)


class MPIL2(ScalarShift, _dl.L2):
    """f(x) = sigma/2 ||Op x - b||^2 + alpha q^T x. With ``Op`` the prox solves its normal
    equations iteratively (the native CG, ``niter`` iterations at most, the relative tolerance
    ``kwargs_solver["tol"]``, 1e-6 by default); ``x0``, required with ``Op`` as in PyLops-MPI,
    fixes the model's split, ``warm`` and ``solver`` are PyLops-MPI's choice of inner solver and
    its start (the native prox starts from the point it is evaluated at)."""

    def __init__(self, Op=None, b=None, q=None, sigma=1.0, alpha=1.0, qgrad=True, niter=10,
                 x0=None, warm=True, solver="cgls", kwargs_solver=None):
        if Op is not None and x0 is None:
            raise ValueError("x0 must be passed when Op is not None")
        if solver not in ("cg", "cgls"):
            raise ValueError(f"Provided solver={solver}. Available options are 'cg' or "
                             f"'cgls'.")
        if not isinstance(niter, Integral):
            raise ValueError("MPIL2: niter must be an integer (callables are not supported)")
        kwargs_solver = dict(kwargs_solver or {})
        if Op is not None and b is not None:
            b = operand(Op, b, adjoint=True)
        super().__init__(Op=Op, b=b, q=q, sigma=sigma, alpha=alpha, qgrad=qgrad, niter=niter,
                         rtol=kwargs_solver.get("tol", 1e-6))
        self.x0, self.warm, self.solver, self.kwargs_solver = x0, warm, solver, kwargs_solver
