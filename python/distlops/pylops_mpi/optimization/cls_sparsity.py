# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's class solvers ISTA and FISTA over the native step-wise Ista, on flat vectors."""
import distlops as _dl

from .cls_basic import _Flat


class ISTA(_Flat, _dl.ISTA):
    """PyLops-MPI's ISTA: ``step(x)`` returns (x, xupdate); ``monitorres`` raises ValueError at
    the step that starts from a larger residual norm than the previous one."""

    def setup(self, y, x0, niter=None, SOp=None, eps=0.1, alpha=None, eigsdict=None, tol=1e-10,
              threshkind="soft", decay=None, monitorres=False, show=False, rtol=0.0, rtol1=0.0,
              itershow=(10, 10, 10)):
        y_, x0_ = self._operands(y, x0)
        x = super().setup(y_, x0_, niter=niter, SOp=SOp, eps=eps, alpha=alpha,
                          eigsdict=eigsdict, tol=tol, rtol=rtol, rtol1=rtol1,
                          threshkind=threshkind, decay=decay, monitorres=monitorres, show=show,
                          itershow=itershow)
        self.y = y_
        return x


class FISTA(ISTA, _dl.FISTA):
    """PyLops-MPI's FISTA: ``step(x, z)`` returns (x, z, xupdate), where z is the solver's own
    extrapolated point."""

    def step(self, x, z=None, show=False):
        x, xupdate = super().step(x, show)
        return x, self.z, xupdate
