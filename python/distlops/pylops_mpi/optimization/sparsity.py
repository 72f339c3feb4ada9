# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's ista and fista (the native solvers on flat vectors)."""
import distlops as _dl

from .._layer import operand


def ista(Op, y, x0, niter=10, SOp=None, eps=0.1, alpha=None, eigsdict=None, tol=1e-10,
         rtol=0.0, rtol1=0.0, threshkind="soft", decay=None, monitorres=False, show=False,
         itershow=(10, 10, 10), callback=None):
    """ISTA: (x, niter, cost)."""
    return _dl.ista(Op, operand(Op, y, adjoint=True), operand(Op, x0), niter=niter, SOp=SOp,
                    eps=eps, alpha=alpha, eigsdict=eigsdict, tol=tol, rtol=rtol, rtol1=rtol1,
                    threshkind=threshkind, decay=decay, monitorres=monitorres, show=show,
                    itershow=itershow, callback=callback)


def fista(Op, y, x0, niter=10, SOp=None, eps=0.1, alpha=None, eigsdict=None, tol=1e-10,
          rtol=0.0, rtol1=0.0, threshkind="soft", decay=None, monitorres=False, show=False,
          itershow=(10, 10, 10), callback=None):
    """FISTA: (x, niter, cost)."""
    return _dl.fista(Op, operand(Op, y, adjoint=True), operand(Op, x0), niter=niter, SOp=SOp,
                     eps=eps, alpha=alpha, eigsdict=eigsdict, tol=tol, rtol=rtol, rtol1=rtol1,
                     threshkind=threshkind, decay=decay, monitorres=monitorres, show=show,
                     itershow=itershow, callback=callback)
