# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's class solvers ISTA and FISTA over the native step-wise Ista, on flat vectors."""
import numpy as np

import distlops as _dl
from distlops._solvers import _threshold_kind

from .cls_basic import _Flat
from .eigs import power_iteration


class ISTA(_Flat, _dl.ISTA):
    """PyLops-MPI's ISTA: ``step(x)`` returns (x, xupdate); ``monitorres`` raises ValueError at
    the step that starts from a larger residual norm than the previous one."""

    def setup(self, y, x0, niter=None, SOp=None, eps=0.1, alpha=None, eigsdict=None, tol=1e-10,
              threshkind="soft", decay=None, monitorres=False, show=False, rtol=0.0, rtol1=0.0,
              itershow=(10, 10, 10)):
        _threshold_kind(threshkind)  # checked first, as PyLops-MPI does
        y_, x0_ = self._operands(y, x0)
        if alpha is None:
            # PyLops-MPI's estimate, from the same random start: 1 / |lambda_max(Op^H Op)| by
            # its power iteration, kept for later setups of the same solver.
            if hasattr(self, "alpha"):
                alpha = self.alpha
            else:
                normal = self.Op.H @ self.Op
                alpha = float(1.0 / np.abs(power_iteration(normal, b_k=x0.empty_like(),
                                                           dtype=normal.dtype,
                                                           **(eigsdict or {}))[0]))
        x = super().setup(y_, x0_, niter=niter, SOp=SOp, eps=eps, alpha=alpha,
                          eigsdict=eigsdict, tol=tol, rtol=rtol, rtol1=rtol1,
                          threshkind=threshkind, decay=decay, monitorres=monitorres, show=show,
                          itershow=itershow)
        self.y = y_
        return x

    def finalize(self, show=False):
        super().finalize(show)
        if self.result["non_finite"]:
            # The native solver stops at the first NaN or infinity, keeping the last finite
            # model; PyLops-MPI iterates on, so that its cost history ends non-finite.
            self.cost = np.append(self.cost, np.nan)


class FISTA(ISTA, _dl.FISTA):
    """PyLops-MPI's FISTA: ``step(x, z)`` returns (x, z, xupdate), where z is the solver's own
    extrapolated point."""

    # PyLops-MPI's arithmetic: the residual at the extrapolated point by an apply of Op.
    _residual_by_apply = True

    def step(self, x, z=None, show=False):
        x, xupdate = super().step(x, show)
        return x, self.z, xupdate
