# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's MPIL2: the native L2 with PyLops-MPI's arguments."""
from math import sqrt
from numbers import Integral, Number

import numpy as np

import distlops as _dl
from distlops._proximal import _python_prox

from ...basicoperators import MPIBlockDiag, MPIStackedVStack
from ...DistributedArray import StackedDistributedArray
from ...LinearOperator import MPILinearOperator
from ...optimization.basic import cg, cgls
from ..._layer import operand
from ..ProxOperator import _Precomposed


class ScalarShift:
    """PyLops-MPI's precomposition f(a x + b) with a number b: the native one takes arrays."""

    def precomposition(self, a, b=0.0):
        if isinstance(b, Number) and b != 0:
            return _Precomposed(self, float(a), b)
        return super().precomposition(a, b)


class MPIL2(ScalarShift, _dl.L2):
    """f(x) = sigma/2 ||Op x - b||^2 + alpha q^T x. Without ``Op`` it is the native L2. With
    ``Op`` its prox is PyLops-MPI's: ``niter`` iterations of ``solver`` from ``x0`` (the last
    result when ``warm``), CGLS on [sqrt(tau sigma) Op; I] x = [sqrt(tau sigma) b; x - tau alpha
    q] or CG on (I + tau sigma Op^H Op) x = x + tau (sigma Op^H b - alpha q), with
    ``kwargs_solver`` (PyLops-MPI's ``tol``); the native L2 solves the normal equations by CG
    to a relative tolerance from the point the prox is evaluated at, which ends elsewhere after
    PyLops-MPI's few iterations."""

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
        self.count = 0

    def _make(self, kind):
        if self.Op is None:
            return super()._make(kind)
        return _python_prox(self, kind)

    def __call__(self, x):
        if self.Op is None:
            return super().__call__(x)
        value = (self.sigma / 2.0) * (self.Op.matvec(x) - self.b).norm() ** 2
        if self.q is not None:
            value += self.alpha * self.q.dot(x)
        return float(np.real(value))

    def grad(self, x):
        if self.Op is None:
            return super().grad(x)
        g = self.sigma * self.Op.rmatvec(self.Op.matvec(x) - self.b)
        return g if self.q is None else g + self.alpha * self.q

    def prox(self, x, tau, **kwargs):
        if self.Op is None:
            return super().prox(x, tau)
        self.count += 1
        if self.q is not None:
            x = x - (tau * self.alpha) * self.q
        identity = _identity(x, self.Op.dtype)
        if self.solver == "cg":
            rhs = x + (tau * self.sigma) * self.Op.rmatvec(self.b)
            normal = identity + float(tau * self.sigma) * (self.Op.H @ self.Op)
            x = cg(normal, rhs, x0=self.x0, niter=self.niter, **self.kwargs_solver)[0]
        else:
            scale = sqrt(tau * self.sigma)
            stacked = MPIStackedVStack([scale * self.Op, identity])
            rhs = StackedDistributedArray([scale * self.b, x])
            x = cgls(stacked, rhs, x0=self.x0, niter=self.niter, **self.kwargs_solver)[0]
        if self.warm:
            self.x0 = x
        return x


def _identity(x, dtype):
    """The identity on x's split: a block diagonal of local identities (PyLops-MPI's)."""
    n = int(np.prod(x.local_shape))
    if x.partition == _dl.Partition.SCATTER:
        return MPIBlockDiag([_dl.Identity(n, dtype=dtype)])
    return MPILinearOperator(_dl.Identity(n, dtype=dtype))
