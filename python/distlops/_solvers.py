# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The solvers with PyLops-MPI's signatures and return tuples, as functions and as PyLops'
class solvers (CG, CGLS, LSQR, ISTA, FISTA: setup, step, run, finalize, solve). Both drive the
native step-wise solvers (_distlops.StepwiseSolver), whose steps run in C++ without the GIL;
``callback(x)`` is called after every iteration with the current model (an array valid during
the call: keep ``x.copy()``), and may return True to stop."""
import time

import numpy as np

from . import _distlops as _ext
from ._arrays import wrap_vector

_THRESHOLDS = {"soft": _ext.ThresholdKind.soft, "hard": _ext.ThresholdKind.hard,
               "half": _ext.ThresholdKind.half}


def _threshold_kind(threshkind):
    """The native rule of PyLops' ``threshkind`` (ValueError for another name)."""
    if threshkind not in _THRESHOLDS:
        raise ValueError(f"threshkind must be one of {sorted(_THRESHOLDS)}, got {threshkind!r}")
    return _THRESHOLDS[threshkind]


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


def _cg_solver(Op, y, x0, niter, tol, show, itershow, callback):
    return _ext.cg_solver(Op._op, _y(Op, y, "cg"), _x0(Op, x0, "cg"),
                          **_common(niter, tol, show, itershow, callback, Op._comm))


def _cgls_solver(Op, y, x0, niter, damp, tol, show, itershow, callback):
    return _ext.cgls_solver(Op._op, _y(Op, y, "cgls"), _x0(Op, x0, "cgls"), damp=float(damp),
                            **_common(niter, tol, show, itershow, callback, Op._comm))


def _lsqr_solver(Op, y, x0, damp, atol, btol, conlim, niter, calc_var, show, itershow,
                 callback):
    if calc_var:
        raise ValueError("lsqr: calc_var is not supported by distlops")
    return _ext.lsqr_solver(Op._op, _y(Op, y, "lsqr"), _x0(Op, x0, "lsqr"), damp=float(damp),
                            atol=float(atol), btol=float(btol), conlim=float(conlim),
                            **_common(niter, 0.0, show, itershow, callback, Op._comm))


def _ista_solver(accelerated, Op, y, x0, niter, SOp, eps, alpha, eigsdict, tol, rtol, rtol1,
                 threshkind, decay, show, itershow, callback, residual_by_apply=False):
    eigsdict = dict(eigsdict or {})
    name = "fista" if accelerated else "ista"
    return _ext.ista_solver(
        Op._op, _y(Op, y, name), _x0(Op, x0, name), accelerated=accelerated,
        sop=None if SOp is None else SOp._op, eps=float(eps),
        alpha=None if alpha is None else float(alpha),
        eigs_niter=int(eigsdict.get("niter", 30)), eigs_tol=float(eigsdict.get("tol", 1e-6)),
        threshold=_threshold_kind(threshkind),
        decay=[] if decay is None else [float(d) for d in decay],
        rtol=float(rtol), rtol1=float(rtol1), residual_by_apply=bool(residual_by_apply),
        **_common(niter, tol, show, itershow, callback, Op._comm))


def cg(Op, y, x0=None, niter=10, tol=1e-4, show=False, itershow=(10, 10, 10), callback=None):
    """Conjugate gradient for a square Hermitian positive definite Op: (x, iit, cost).

    ``tol`` is compared with the residual norm (PyLops compares it with its square)."""
    r = _cg_solver(Op, y, x0, niter, tol, show, itershow, callback).solve()
    return wrap_vector(r["x"], Op._comm), r["iterations"], np.asarray(r["costs"])


def _cgls_tuple(r, comm):
    istop = 1 if r["stopped_by_tolerance"] else 2
    return (wrap_vector(r["x"], comm), istop, r["iterations"], r["r1norm"], r["r2norm"],
            np.asarray(r["costs"]))


def cgls(Op, y, x0=None, niter=10, damp=0.0, tol=1e-4, show=False, itershow=(10, 10, 10),
         callback=None):
    """CGLS for min ||y - Op x||^2 + damp^2 ||x||^2: (x, istop, iit, r1norm, r2norm, cost).

    istop is 1 when ``tol`` stopped the run (compared with the normal residual's norm) and 2
    otherwise, as PyLops; r1norm is ||y - Op x||."""
    r = _cgls_solver(Op, y, x0, niter, damp, tol, show, itershow, callback).solve()
    return _cgls_tuple(r, Op._comm)


def _lsqr_tuple(r, comm):
    return (wrap_vector(r["x"], comm), r["istop"], r["iterations"], r["r1norm"], r["r2norm"],
            r["anorm"], r["acond"], r["arnorm"], r["xnorm"], None, np.asarray(r["costs"]))


def lsqr(Op, y, x0=None, damp=0.0, atol=1e-08, btol=1e-08, conlim=100000000.0, niter=10,
         calc_var=False, show=False, itershow=(10, 10, 10), callback=None):
    """LSQR (PyLops' signature): (x, istop, iit, r1norm, r2norm, anorm, acond, arnorm, xnorm,
    var, cost); var is None (not computed)."""
    r = _lsqr_solver(Op, y, x0, damp, atol, btol, conlim, niter, calc_var, show, itershow,
                     callback).solve()
    return _lsqr_tuple(r, Op._comm)


def _sparse(solver_class, Op, y, x0, niter, SOp, eps, alpha, eigsdict, tol, rtol, rtol1,
            threshkind, decay, monitorres, show, itershow, callback):
    """ista or fista through the class ``solver_class``'s setup, run and finalize."""
    solver = solver_class(Op)
    if callback is not None:
        solver.callback = callback
    x = solver.setup(y, x0, niter=niter, SOp=SOp, eps=eps, alpha=alpha, eigsdict=eigsdict,
                     tol=tol, rtol=rtol, rtol1=rtol1, threshkind=threshkind, decay=decay,
                     monitorres=monitorres, show=show, itershow=itershow)
    x = solver.run(x, niter)
    solver.finalize()
    return x, solver.iiter, solver.cost


def ista(Op, y, x0=None, niter=10, SOp=None, eps=0.1, alpha=None, eigsdict=None, tol=1e-10,
         rtol=0.0, rtol1=0.0, threshkind="soft", decay=None, monitorres=False, show=False,
         itershow=(10, 10, 10), callback=None):
    """ISTA: (x, niter, cost), PyLops-MPI's signature; the class ISTA's solve."""
    return _sparse(ISTA, Op, y, x0, niter, SOp, eps, alpha, eigsdict, tol, rtol, rtol1,
                   threshkind, decay, monitorres, show, itershow, callback)


def fista(Op, y, x0=None, niter=10, SOp=None, eps=0.1, alpha=None, eigsdict=None, tol=1e-10,
          rtol=0.0, rtol1=0.0, threshkind="soft", decay=None, monitorres=False, show=False,
          itershow=(10, 10, 10), callback=None):
    """FISTA: (x, niter, cost), PyLops-MPI's signature; the class FISTA's solve."""
    return _sparse(FISTA, Op, y, x0, niter, SOp, eps, alpha, eigsdict, tol, rtol, rtol1,
                   threshkind, decay, monitorres, show, itershow, callback)


def power_iteration(Op, b_k=None, niter=10, tol=1e-5, dtype="float64", backend="numpy", seed=0):
    """The eigenvalue of largest modulus of a square Op: (maxeig, b_k, iiter)."""
    r = _ext.power_iteration(Op._op, _x0(Op, b_k, "power_iteration", "b_k"), niter=int(niter),
                             tol=float(tol), seed=int(seed))
    return r["eigenvalue"], wrap_vector(r["eigenvector"], Op._comm), r["iterations"]


class _ClassSolver:
    """PyLops' class solvers (``setup``, ``step``, ``run``, ``finalize``, ``solve``) over a
    native step-wise solver, which keeps the iterate and the whole state: ``setup`` returns
    the iterate, and ``step`` and ``run`` update that same array in place and return it (pass
    back what they returned). The progress table is the native solver's, printed by rank 0
    when ``setup`` (or ``solve``) is given ``show=True``. After every step ``run`` calls
    ``self.callback(x)`` (assign a function to it, as in PyLops; one that returns True stops
    the run), and each object of ``callbacks`` (PyLops' Callbacks) has its ``on_setup_*``,
    ``on_step_*`` and ``on_run_*`` methods called around those stages."""

    def __init__(self, Op, callbacks=None):
        self.Op = Op
        self.callbacks = callbacks
        self.iiter = 0
        self.tstart = time.time()
        self._solver = None

    def callback(self, x, *args, **kwargs):
        """Called by ``run`` with the current model after every step; does nothing unless
        replaced."""

    def memory_usage(self, *args, **kwargs):
        """Not tracked: the native solver allocates its work vectors once in ``setup``."""

    def _hooks(self, stage, x, end=False):
        for callbacks in (self.callbacks or [])[::-1 if end else 1]:
            getattr(callbacks, f"on_{stage}_{'end' if end else 'begin'}")(self, x)

    def _wrap(self, native):
        """The Python array of a native iterate (the compatibility package's own types)."""
        return wrap_vector(native, self.Op._comm)

    def _start(self, make, x0, niter):
        """Runs ``make(niter)`` (a factory of the native solver, set up from x0) and returns the
        iterate."""
        self._hooks("setup", x0)
        if niter is None:
            raise ValueError(f"{type(self).__name__}.setup: niter must be given (the native "
                             f"solver allocates its histories for niter iterations)")
        self.niter = int(niter)
        self._solver = make(self.niter)
        self.iiter = 0
        self.tstart = time.time()
        self.x = self._wrap(self._solver.x())
        self._hooks("setup", self.x, end=True)
        return self.x

    def _check_iterate(self, x):
        if self._solver is None:
            raise ValueError(f"{type(self).__name__}.step: call setup() first")
        if x is not None and getattr(x, "_a", None) is not self.x._a:
            raise ValueError(f"{type(self).__name__}.step: x must be the model that setup() "
                             f"or step() returned (the solver updates its own iterate)")

    def _iterate(self):
        """One native step, the iterate updated in place."""
        self._hooks("step", self.x)
        self._solver.step()
        self.iiter = self._solver.iteration
        self._hooks("step", self.x, end=True)

    def step(self, x, show=False):
        """One iteration from the current model ``x`` (what setup or the previous step
        returned): the updated model."""
        self._check_iterate(x)
        self._iterate()
        return self.x

    def run(self, x, niter=None, show=False, itershow=(10, 10, 10)):
        """Steps until ``niter`` iterations in all (the setup's by default, at most that), a
        stopping rule or the callback ends the run: the model."""
        self._check_iterate(x)
        niter = self.niter if niter is None else int(niter)
        if niter > self.niter:
            raise ValueError(f"{type(self).__name__}.run: niter = {niter} exceeds the "
                             f"{self.niter} iterations setup() was given")
        self._hooks("run", self.x)
        while self.iiter < niter and not self._solver.finished:
            self._iterate()
            if self.callback(self.x) is True:
                break
        self._hooks("run", self.x, end=True)
        return self.x

    def finalize(self, show=False):
        """Ends the run: the results become attributes (``cost``, ``reason``, ``result``: the
        native solver's whole result as a dict); the model stays valid."""
        if self._solver is None:
            raise ValueError(f"{type(self).__name__}.finalize: call setup() first")
        result = self._solver.finalize()
        self.x._a = result["x"]  # the same memory, now owned by the array itself
        self._solver = None
        self.tend = time.time()
        self.telapsed = self.tend - self.tstart
        self.reason = result["reason"]
        self.result = result
        self.cost = np.asarray(result["costs"])
        return result


class CG(_ClassSolver):
    """Conjugate gradient for a square Hermitian positive definite ``Op`` (PyLops' CG over the
    native Cg). ``tol`` is compared with the residual norm (PyLops compares its square)."""

    def setup(self, y, x0=None, niter=None, tol=1e-4, show=False, itershow=(10, 10, 10)):
        """Starts from x0 (zeros when None): the model."""
        self.y, self.tol = y, tol
        return self._start(lambda n: _cg_solver(self.Op, y, x0, n, tol, show, itershow, None),
                           x0, niter)

    def finalize(self, show=False):
        super().finalize(show)

    def solve(self, y, x0=None, niter=10, tol=1e-4, show=False, itershow=(10, 10, 10)):
        """The whole run: (x, iit, cost)."""
        x = self.setup(y, x0, niter=niter, tol=tol, show=show, itershow=itershow)
        x = self.run(x, niter)
        self.finalize(show)
        return x, self.iiter, self.cost


class CGLS(_ClassSolver):
    """CGLS for min ||y - Op x||^2 + damp^2 ||x||^2 (PyLops' CGLS over the native Cgls).
    ``tol`` is compared with the norm of the normal residual; after ``finalize``: istop (1 when
    ``tol`` stopped the run, 2 otherwise), r1norm = ||y - Op x||, r2norm, cost."""

    def setup(self, y, x0=None, niter=None, damp=0.0, tol=1e-4, show=False,
              itershow=(10, 10, 10)):
        """Starts from x0 (zeros when None): the model."""
        self.y, self.damp, self.tol = y, damp, tol
        return self._start(
            lambda n: _cgls_solver(self.Op, y, x0, n, damp, tol, show, itershow, None), x0, niter)

    def finalize(self, show=False):
        result = super().finalize(show)
        self.istop = 1 if result["stopped_by_tolerance"] else 2
        self.r1norm, self.r2norm = result["r1norm"], result["r2norm"]

    def solve(self, y, x0=None, niter=10, damp=0.0, tol=1e-4, show=False,
              itershow=(10, 10, 10)):
        """The whole run: (x, istop, iit, r1norm, r2norm, cost)."""
        x = self.setup(y, x0, niter=niter, damp=damp, tol=tol, show=show, itershow=itershow)
        x = self.run(x, niter)
        self.finalize(show)
        return x, self.istop, self.iiter, self.r1norm, self.r2norm, self.cost


class LSQR(_ClassSolver):
    """LSQR (PyLops' LSQR over the native Lsqr); after ``finalize``: istop, r1norm, r2norm,
    anorm, acond, arnorm, xnorm, cost (PyLops' meanings)."""

    def setup(self, y, x0=None, damp=0.0, atol=1e-08, btol=1e-08, conlim=100000000.0,
              niter=10, calc_var=False, show=False, itershow=(10, 10, 10)):
        """Starts from x0 (zeros when None): the model."""
        self.y, self.damp = y, damp
        return self._start(lambda n: _lsqr_solver(self.Op, y, x0, damp, atol, btol, conlim, n,
                                                  calc_var, show, itershow, None), x0, niter)

    def finalize(self, show=False):
        result = super().finalize(show)
        for name in ("istop", "r1norm", "r2norm", "anorm", "acond", "arnorm", "xnorm"):
            setattr(self, name, result[name])
        self.var = None

    def solve(self, y, x0=None, damp=0.0, atol=1e-08, btol=1e-08, conlim=100000000.0,
              niter=10, calc_var=False, show=False, itershow=(10, 10, 10)):
        """The whole run: (x, istop, iit, r1norm, r2norm, anorm, acond, arnorm, xnorm, var,
        cost)."""
        x = self.setup(y, x0, damp, atol, btol, conlim, niter, calc_var, show, itershow)
        x = self.run(x, niter)
        self.finalize(show)
        return (x, self.istop, self.iiter, self.r1norm, self.r2norm, self.anorm, self.acond,
                self.arnorm, self.xnorm, self.var, self.cost)


class ISTA(_ClassSolver):
    """ISTA (PyLops-MPI's ISTA over the native Ista): ``step`` returns (x, xupdate). With
    ``monitorres`` each step first checks that the residual norm did not grow since the
    previous step and raises ValueError otherwise, as PyLops-MPI."""

    _accelerated = False
    # FISTA's residual at the extrapolated point by linearity (False) or by applying Op there
    # (True: PyLops' arithmetic, one more apply per iteration; the compatibility package's).
    _residual_by_apply = False

    def setup(self, y, x0=None, niter=None, SOp=None, eps=0.1, alpha=None, eigsdict=None,
              tol=1e-10, rtol=0.0, rtol1=0.0, threshkind="soft", decay=None, monitorres=False,
              show=False, itershow=(10, 10, 10)):
        """Starts from x0 (zeros when None), estimating the step when ``alpha`` is None: the
        model."""
        self.y, self.SOp, self.eps, self.tol = y, SOp, eps, tol
        self.threshkind, self.monitorres = threshkind, monitorres
        self.normresold = np.inf
        x = self._start(
            lambda n: _ista_solver(self._accelerated, self.Op, y, x0, n, SOp, eps, alpha,
                                   eigsdict, tol, rtol, rtol1, threshkind, decay, show,
                                   itershow, None, self._residual_by_apply), x0, niter)
        self.alpha = self._solver.scalar("alpha")
        self.thresh = eps * self.alpha * 0.5
        return x

    def _residual_norm(self):
        """||y - Op x|| at the point the next step starts from (FISTA: its extrapolated z)."""
        if self._accelerated:
            z = self._wrap(self._solver.vector("z"))
            return (self.y - self.Op.matvec(z)).norm()
        return self._wrap(self._solver.vector("residual")).norm()

    def _iterate(self):
        if self.monitorres:
            normres = self._residual_norm()
            if normres > self.normresold:
                raise ValueError(f"{type(self).__name__} stopped at iteration {self.iiter} due "
                                 f"to residual increasing, consider modifying eps and/or "
                                 f"alpha...")
            self.normresold = normres
        super()._iterate()

    def step(self, x, show=False):
        """One iteration: (x, ||x_k - x_{k-1}||)."""
        return super().step(x, show), self._solver.model_updates[-1]

    def finalize(self, show=False):
        result = super().finalize(show)
        self.model_updates = np.asarray(result["model_updates"])

    def solve(self, y, x0=None, niter=None, SOp=None, eps=0.1, alpha=None, eigsdict=None,
              tol=1e-10, rtol=0.0, rtol1=0.0, threshkind="soft", decay=None, monitorres=False,
              show=False, itershow=(10, 10, 10)):
        """The whole run: (x, iit, cost)."""
        x = self.setup(y, x0, niter=niter, SOp=SOp, eps=eps, alpha=alpha, eigsdict=eigsdict,
                       tol=tol, rtol=rtol, rtol1=rtol1, threshkind=threshkind, decay=decay,
                       monitorres=monitorres, show=show, itershow=itershow)
        x = self.run(x, niter)
        self.finalize(show)
        return x, self.iiter, self.cost


class FISTA(ISTA):
    """FISTA (PyLops-MPI's FISTA over the native Ista with momentum): as ISTA; ``step(x)``
    returns (x, xupdate), the extrapolated point being the solver's own (``z``)."""

    _accelerated = True

    @property
    def z(self):
        """The extrapolated point the next step starts from."""
        return self._wrap(self._solver.vector("z"))
