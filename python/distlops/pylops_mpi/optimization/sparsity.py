# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's ista and fista (the native solvers on flat vectors)."""
import distlops as _dl

from .._layer import operand


def _monitored(name, Op, y, callback):
    """A callback that stops the run when the residual norm grows (PyLops-MPI's
    ``monitorres``), after calling the user's; the solver raises after the run."""
    state = {"previous": float("inf"), "stopped": None, "iteration": 0}

    def monitor(x):
        state["iteration"] += 1
        if callback is not None and callback(x):
            return True
        norm = (y - Op.matvec(x)).norm()
        if norm > state["previous"]:
            state["stopped"] = state["iteration"]
            return True
        state["previous"] = norm
        return False

    def check():
        if state["stopped"] is not None:
            raise ValueError(f"{name} stopped at iteration {state['stopped']} due to residual "
                             f"increasing, consider modifying eps and/or alpha...")

    return monitor, check


def _sparse(solver, name, Op, y, x0, monitorres, callback, **kwargs):
    y, x0 = operand(Op, y, adjoint=True), operand(Op, x0)
    check = None
    if monitorres:
        callback, check = _monitored(name, Op, y, callback)
    result = solver(Op, y, x0, callback=callback, **kwargs)
    if check is not None:
        check()
    return result


def _solver(native, name):
    """PyLops-MPI's ista or fista (their signature) over the native solver: (x, niter, cost)."""
    def solver(Op, y, x0, niter=10, SOp=None, eps=0.1, alpha=None, eigsdict=None, tol=1e-10,
               rtol=0.0, rtol1=0.0, threshkind="soft", decay=None, monitorres=False,
               show=False, itershow=(10, 10, 10), callback=None):
        return _sparse(native, name, Op, y, x0, monitorres, callback, niter=niter, SOp=SOp,
                       eps=eps, alpha=alpha, eigsdict=eigsdict, tol=tol, rtol=rtol,
                       rtol1=rtol1, threshkind=threshkind, decay=decay, show=show,
                       itershow=itershow)

    solver.__name__ = solver.__qualname__ = name.lower()
    solver.__doc__ = f"{name}: (x, niter, cost)."
    return solver


ista = _solver(_dl.ista, "ISTA")
fista = _solver(_dl.fista, "FISTA")
