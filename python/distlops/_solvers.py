# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The solvers with PyLops-MPI's signatures and return tuples. Each runs in C++ without the
GIL; ``callback(x)`` is called after every iteration with the current model (an array valid
during the call: keep ``x.copy()``), and may return True to stop."""
import numpy as np

from . import _distlops as _ext
from ._arrays import wrap_vector

_THRESHOLDS = {"soft": _ext.ThresholdKind.soft, "hard": _ext.ThresholdKind.hard,
               "half": _ext.ThresholdKind.half}


def _callback(callback, comm):
    if callback is None:
        return None

    def call(iteration, x, residual_norm, cost):
        return bool(callback(wrap_vector(x, comm)))

    return call


def _y(Op, y, solver):
    """The data, cast to the operator's data dtype where PyLops-MPI casts (Op._side)."""
    return Op._side(y, True, f"{solver}(y)")


def _x0(Op, x0, solver, name="x0"):
    """The starting model, cast to the operator's model dtype likewise; None stays None."""
    return None if x0 is None else Op._side(x0, False, f"{solver}({name})")


def _common(niter, tol, show, itershow, callback, comm):
    return dict(niter=int(niter), tol=float(tol), show=bool(show),
                itershow=[int(n) for n in itershow], callback=_callback(callback, comm))


def cg(Op, y, x0=None, niter=10, tol=1e-4, show=False, itershow=(10, 10, 10), callback=None):
    """Conjugate gradient for a square Hermitian positive definite Op: (x, iit, cost).

    ``tol`` is compared with the residual norm (PyLops compares it with its square)."""
    r = _ext.cg(Op._op, _y(Op, y, "cg"), _x0(Op, x0, "cg"),
                **_common(niter, tol, show, itershow, callback, Op._comm))
    return wrap_vector(r["x"], Op._comm), r["iterations"], np.asarray(r["costs"])


def cgls(Op, y, x0=None, niter=10, damp=0.0, tol=1e-4, show=False, itershow=(10, 10, 10),
         callback=None):
    """CGLS for min ||y - Op x||^2 + damp^2 ||x||^2: (x, istop, iit, r1norm, r2norm, cost).

    istop is 1 when ``tol`` stopped the run (compared with the normal residual's norm) and 2
    otherwise, as PyLops; r1norm is ||y - Op x||."""
    r = _ext.cgls(Op._op, _y(Op, y, "cgls"), _x0(Op, x0, "cgls"), damp=float(damp),
                  **_common(niter, tol, show, itershow, callback, Op._comm))
    istop = 1 if r["stopped_by_tolerance"] else 2
    return (wrap_vector(r["x"], Op._comm), istop, r["iterations"], r["r1norm"], r["r2norm"],
            np.asarray(r["costs"]))


def lsqr(Op, y, x0=None, damp=0.0, atol=1e-08, btol=1e-08, conlim=100000000.0, niter=10,
         calc_var=False, show=False, itershow=(10, 10, 10), callback=None):
    """LSQR (PyLops' signature): (x, istop, iit, r1norm, r2norm, anorm, acond, arnorm, xnorm,
    var, cost); var is None (not computed)."""
    if calc_var:
        raise ValueError("lsqr: calc_var is not supported by distlops")
    r = _ext.lsqr(Op._op, _y(Op, y, "lsqr"), _x0(Op, x0, "lsqr"), damp=float(damp),
                  atol=float(atol), btol=float(btol), conlim=float(conlim),
                  **_common(niter, 0.0, show, itershow, callback, Op._comm))
    return (wrap_vector(r["x"], Op._comm), r["istop"], r["iterations"], r["r1norm"], r["r2norm"],
            r["anorm"], r["acond"], r["arnorm"], r["xnorm"], None, np.asarray(r["costs"]))


def _sparse(accelerated, Op, y, x0, niter, SOp, eps, alpha, eigsdict, tol, rtol, rtol1,
            threshkind, decay, monitorres, show, itershow, callback):
    if SOp is not None:
        raise ValueError("ista/fista: SOp is not bound in the Python package yet")
    if threshkind not in _THRESHOLDS:
        raise ValueError(f"threshkind must be one of {sorted(_THRESHOLDS)}, got {threshkind!r}")
    eigsdict = dict(eigsdict or {})
    name = "fista" if accelerated else "ista"
    r = _ext.ista(Op._op, _y(Op, y, name), _x0(Op, x0, name), accelerated=accelerated,
                  eps=float(eps), alpha=None if alpha is None else float(alpha),
                  eigs_niter=int(eigsdict.get("niter", 30)),
                  eigs_tol=float(eigsdict.get("tol", 1e-6)), threshold=_THRESHOLDS[threshkind],
                  decay=[] if decay is None else [float(d) for d in decay], rtol=float(rtol),
                  rtol1=float(rtol1), **_common(niter, tol, show, itershow, callback, Op._comm))
    return wrap_vector(r["x"], Op._comm), r["iterations"], np.asarray(r["costs"])


def ista(Op, y, x0=None, niter=10, SOp=None, eps=0.1, alpha=None, eigsdict=None, tol=1e-10,
         rtol=0.0, rtol1=0.0, threshkind="soft", decay=None, monitorres=False, show=False,
         itershow=(10, 10, 10), callback=None):
    """ISTA: (x, niter, cost), PyLops-MPI's signature."""
    return _sparse(False, Op, y, x0, niter, SOp, eps, alpha, eigsdict, tol, rtol, rtol1,
                   threshkind, decay, monitorres, show, itershow, callback)


def fista(Op, y, x0=None, niter=10, SOp=None, eps=0.1, alpha=None, eigsdict=None, tol=1e-10,
          rtol=0.0, rtol1=0.0, threshkind="soft", decay=None, monitorres=False, show=False,
          itershow=(10, 10, 10), callback=None):
    """FISTA: (x, niter, cost), PyLops-MPI's signature."""
    return _sparse(True, Op, y, x0, niter, SOp, eps, alpha, eigsdict, tol, rtol, rtol1,
                   threshkind, decay, monitorres, show, itershow, callback)


def power_iteration(Op, b_k=None, niter=10, tol=1e-5, dtype="float64", backend="numpy", seed=0):
    """The eigenvalue of largest modulus of a square Op: (maxeig, b_k, iiter)."""
    r = _ext.power_iteration(Op._op, _x0(Op, b_k, "power_iteration", "b_k"), niter=int(niter),
                             tol=float(tol), seed=int(seed))
    return r["eigenvalue"], wrap_vector(r["eigenvector"], Op._comm), r["iterations"]
