# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's class solvers CG and CGLS: the native ones on flat vectors, with ``tol``
compared with the squared norm of the residual (of the normal equations for CGLS) as
PyLops-MPI does."""
import math

import distlops as _dl

from .._layer import operand, stacked_as_theirs


def squared_tol(tol):
    """The native tolerance of PyLops-MPI's ``tol``, which it compares with a squared norm."""
    return math.sqrt(tol) if tol > 0 else 0.0


class _Flat:
    """What PyLops-MPI's solvers add to the native ones: flat vectors in any split, stacks with
    PyLops-MPI's global_shape."""

    def _wrap(self, native):
        return stacked_as_theirs(super()._wrap(native))

    def _operands(self, y, x0):
        return operand(self.Op, y, adjoint=True), operand(self.Op, x0)


class CG(_Flat, _dl.CG):
    """PyLops-MPI's CG over the native step-wise Cg."""

    def setup(self, y, x0, niter=None, tol=1e-4, show=False, itershow=(10, 10, 10)):
        x = super().setup(*self._operands(y, x0), niter=niter, tol=squared_tol(tol), show=show,
                          itershow=itershow)
        self.y, self.tol = y, tol
        return x


class CGLS(_Flat, _dl.CGLS):
    """PyLops-MPI's CGLS over the native step-wise Cgls."""

    def setup(self, y, x0, niter=None, damp=0.0, tol=1e-4, show=False, itershow=(10, 10, 10)):
        x = super().setup(*self._operands(y, x0), niter=niter, damp=damp,
                          tol=squared_tol(tol), show=show, itershow=itershow)
        self.y, self.tol = y, tol
        return x
