# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Proximal operators and proximal solvers with PyProximal's (and PyLops-MPI's) names.

A proximal operator here is built without knowing the arrays it will see (as in PyProximal);
the library object for a vector type (plain or stacked, and its dtype) is made on first use
and kept. Operators that hold a vector (weights, data, a centre) take the vector type of
that vector."""
import weakref
from numbers import Number

import numpy as np

from . import _distlops as _ext
from ._arrays import (DistributedArray, StackedDistributedArray, dtype_suffix, same_engine,
                      unwrap_vector, wrap_vector)


def _kind(x):
    """The suffix of the extension's class names for the vector x: 'float64',
    'stacked_float64', ..."""
    if isinstance(x, (DistributedArray, StackedDistributedArray)):
        # The proximal operators and solvers are bound for the host's arrays only.
        same_engine("the proximal operators and solvers (bound for NumPy-engine arrays)",
                    "numpy", x.engine)
    if isinstance(x, StackedDistributedArray):
        return "stacked_" + dtype_suffix(x.dtype)
    if isinstance(x, DistributedArray):
        return dtype_suffix(x.dtype)
    raise TypeError(f"expected a DistributedArray or StackedDistributedArray, got "
                    f"{type(x).__name__}")


def _range_kind(op):
    """The suffix of the vectors in the range of a distlops LinearOperator."""
    stacked = type(op._op).__name__.startswith(("Stacked", "ToStacked"))
    return ("stacked_" if stacked else "") + dtype_suffix(op.dtype)


def _domain_kind(op):
    stacked = type(op._op).__name__.startswith(("Stacked", "FromStacked"))
    return ("stacked_" if stacked else "") + dtype_suffix(op.dtype)


class ProxOperator:
    """A proximal operator: ``f(x)``, ``prox(x, tau)``, ``proxdual(x, tau)``, ``grad(x)`` on
    DistributedArray or StackedDistributedArray, and PyProximal's compositions.

    A function of one's own is a subclass that defines ``__call__(x)`` and ``prox(x, tau)``
    (and ``proxdual`` and ``grad`` where it has them) on these arrays, as PyProximal's are, and
    calls ``super().__init__()``; the solvers call them back. That code is the user's: an
    exception it raises on some ranks only is raised on every rank (as distlops.Error naming
    the rank, its message "<type>: <message>"), and a value of ``__call__`` that differs between
    ranks raises InvalidArgument. Without ``proxdual`` the conjugate's prox goes through
    Moreau's identity; without ``grad`` the function is not differentiable."""

    def __init__(self):
        self._handles = {}

    def _make(self, kind):
        """The extension's object for vectors of `kind`: for a function written in Python, one
        that calls its methods back."""
        return _python_prox(self, kind)

    def _handle(self, kind):
        if kind not in self._handles:
            self._handles[kind] = self._make(kind)
        return self._handles[kind]

    def _of(self, x):
        return self._handle(_kind(x))

    def __call__(self, x):
        return self._of(x).value(unwrap_vector(x))

    def prox(self, x, tau):
        """prox_{tau f}(x) = argmin_y f(y) + ||y - x||^2 / (2 tau), a new array of x's layout."""
        return wrap_vector(self._of(x).prox(unwrap_vector(x), float(tau)), x._comm)

    def proxdual(self, x, tau):
        """The prox of the convex conjugate (Moreau's identity where no closed form)."""
        return wrap_vector(self._of(x).prox_conjugate(unwrap_vector(x), float(tau)), x._comm)

    def grad(self, x):
        """The gradient of f at x (differentiable functions only: L2, and subclasses that define
        it)."""
        return wrap_vector(self._of(x).gradient(unwrap_vector(x)), x._comm)

    def precomposition(self, a, b=0.0):
        """g(x) = f(a x + b), b a scalar 0 or an array."""
        return _Composed(self, "Precomposed", float(a), b)

    def postcomposition(self, sigma):
        """g(x) = sigma f(x), sigma > 0."""
        return _Composed(self, "Postcomposed", float(sigma), 0.0)

    def affine_addition(self, v):
        """g(x) = f(x) + Re<v, x>."""
        return _Composed(self, "Postcomposed", 1.0, v)

    @property
    def name(self):
        """The name of the function's class (PyProximal's attribute)."""
        return type(self).__name__


def _python_prox(f, kind):
    cls = type(f)
    if cls.__call__ is ProxOperator.__call__ or cls.prox is ProxOperator.prox:
        raise TypeError(f"{cls.__name__}: a proximal operator written in Python defines __call__ "
                        f"and prox")
    # A weak reference: the extension's object, kept by f, must not keep f alive.
    ref = weakref.ref(f)

    def value(x):
        return float(ref()(wrap_vector(x)))

    def prox(x, tau):
        return unwrap_vector(ref().prox(wrap_vector(x), tau))

    def proxdual(x, tau):
        return unwrap_vector(ref().proxdual(wrap_vector(x), tau))

    def grad(x):
        return unwrap_vector(ref().grad(wrap_vector(x)))

    overrides = {name: getattr(cls, name) is not getattr(ProxOperator, name)
                 for name in ("proxdual", "grad")}
    return getattr(_ext, f"PythonProxOperator_{kind}")(
        cls.__name__, value, prox, proxdual if overrides["proxdual"] else None,
        grad if overrides["grad"] else None)


def _scalar_sigma(sigma, owner):
    if not isinstance(sigma, Number) or isinstance(sigma, complex):
        raise ValueError(f"{owner}: sigma must be a real number (arrays and callables are not "
                         f"supported)")
    return float(sigma)


def _vector_or_zero(value, what):
    """A DistributedArray/StackedDistributedArray, or None for the scalar 0."""
    if isinstance(value, (DistributedArray, StackedDistributedArray)):
        return value
    if isinstance(value, Number) and value == 0:
        return None
    raise ValueError(f"{what} must be 0 or a DistributedArray/StackedDistributedArray, got "
                     f"{value!r}")


def _same_kind(vector, kind, owner):
    if _kind(vector) != kind:
        raise TypeError(f"{owner}: its array is {_kind(vector)}, the vector it is applied to is "
                        f"{kind}")
    return unwrap_vector(vector)


class _Composed(ProxOperator):
    def __init__(self, f, form, scalar, vector):
        super().__init__()
        self._f, self._form, self._scalar = f, form, scalar
        self._vector = _vector_or_zero(vector, f"{form}: the shift")

    def _make(self, kind):
        make = getattr(_ext, f"{self._form}_{kind}")
        inner = self._f._handle(kind)
        if self._vector is None:
            return make(inner, self._scalar)
        return make(inner, self._scalar, _same_kind(self._vector, kind, self._form))


class L1(ProxOperator):
    """``f(x) = sum_i sigma_i |x_i - g_i|`` (PyProximal's L1): sigma a number, an array of weights
    (a DistributedArray or StackedDistributedArray) or a callable sigma(k), g an optional shift.
    A callable gives sigma for the k-th prox call (k = 1, 2, ...; sigma(0) before any, as the
    value and proxdual read the count of calls so far); it must return the same number on
    every rank."""

    def __init__(self, sigma=1.0, g=None):
        super().__init__()
        self.schedule = None
        if isinstance(sigma, (DistributedArray, StackedDistributedArray)):
            self.sigma, self.weights = 1.0, sigma
        elif isinstance(sigma, Number) and not isinstance(sigma, complex):
            self.sigma, self.weights = float(sigma), None
        elif callable(sigma):
            self.sigma, self.weights, self.schedule = sigma, None, sigma
        else:
            raise ValueError("L1: sigma must be a number, a DistributedArray/"
                             "StackedDistributedArray of weights or a callable")
        self.g = _vector_or_zero(0 if g is None else g, "L1: g")
        # One count of prox calls for the function, whatever vector types it meets.
        self._shared = None

    def _make(self, kind):
        make = getattr(_ext, f"L1_{kind}")
        if self.schedule is not None:
            if self._shared is not None:
                raise TypeError("L1: a callable sigma counts the prox calls of one vector type; "
                                f"this one serves {self._shared}, not {kind}")
            self._shared = kind
            schedule = self.schedule  # not self: the C++ object would keep a cycle alive
            l1 = self._scheduled = make(lambda k: float(schedule(int(k))))
        elif self.weights is None:
            l1 = make(self.sigma)
        else:
            l1 = make(_same_kind(self.weights, kind, "L1"), self.sigma)
        if self.g is None:
            return l1
        # |x - g|: the precomposition with x -> x - g.
        return getattr(_ext, f"Precomposed_{kind}")(l1, 1.0, _same_kind(-self.g, kind, "L1"))

    @property
    def count(self):
        """PyProximal's count of prox calls (with a callable sigma)."""
        return 0 if self._shared is None else self._scheduled.prox_calls


class L2(ProxOperator):
    """f(x) = sigma/2 ||Op x - b||^2 + alpha Re<q, x> (PyProximal's L2, PyLops-MPI's MPIL2); Op
    square (domain and range of one vector type), b required with Op. The prox with Op solves
    its normal equations by CG: ``niter`` iterations at most, relative tolerance ``rtol``. The
    linear term is the library's postcomposition: prox_{tau f}(x - tau alpha q)."""

    def __init__(self, Op=None, b=None, q=None, sigma=1.0, alpha=1.0, qgrad=True, niter=10,
                 rtol=1e-6):
        super().__init__()
        if Op is not None and b is None:
            raise ValueError("L2: Op needs b")
        if not qgrad:
            # The solvers take the gradient of the function they minimise; one without the
            # linear term would describe another function.
            raise ValueError("L2: qgrad=False is not supported (the gradient always holds "
                             "alpha q)")
        if not isinstance(alpha, Number) or isinstance(alpha, complex):
            raise ValueError("L2: alpha must be a real number")
        self.Op, self.b, self.sigma = Op, b, _scalar_sigma(sigma, "L2")
        self.q = _vector_or_zero(0 if q is None else q, "L2: q")
        self.alpha = float(alpha)
        self.niter, self.rtol = int(niter), float(rtol)

    def _make(self, kind):
        l2 = self._make_quadratic(kind)
        if self.q is None or self.alpha == 0:
            return l2
        linear = _same_kind(self.alpha * self.q, kind, "L2")
        return getattr(_ext, f"Postcomposed_{kind}")(l2, 1.0, linear)

    def _make_quadratic(self, kind):
        make = getattr(_ext, f"L2_{kind}")
        if self.Op is not None:
            if _domain_kind(self.Op) != kind or _range_kind(self.Op) != kind:
                raise TypeError(f"L2: Op maps {_domain_kind(self.Op)} to {_range_kind(self.Op)}, "
                                f"the vector it is applied to is {kind}")
            return make(self.Op._op, _same_kind(self.b, kind, "L2"), self.sigma, self.niter,
                        self.rtol)
        if self.b is None:
            return make(self.sigma)
        return make(_same_kind(self.b, kind, "L2"), self.sigma)


MPIL2 = L2


class L21(ProxOperator):
    """f(x) = sigma sum_i ||(x_1[i], ..., x_ndim[i])||_2 on a StackedDistributedArray of ndim
    arrays (PyProximal's L21 on a flat vector of ndim blocks)."""

    def __init__(self, ndim, sigma=1.0):
        super().__init__()
        self.ndim, self.sigma = int(ndim), _scalar_sigma(sigma, "L21")

    def _of(self, x):
        if not isinstance(x, StackedDistributedArray) or x.narrays != self.ndim:
            raise ValueError(f"L21(ndim={self.ndim}): needs a StackedDistributedArray of "
                             f"{self.ndim} arrays")
        return super()._of(x)

    def _make(self, kind):
        if not kind.startswith("stacked_"):
            raise ValueError(f"L21(ndim={self.ndim}): needs a StackedDistributedArray")
        return getattr(_ext, f"L21_{kind}")(self.sigma)


class Box(ProxOperator):
    """The indicator of {lower <= x_i <= upper}: lower and upper real numbers or arrays of x's
    type (PyProximal's array bounds; a number next to an array bounds every element alike).
    Complex x: both parts are clipped, by a number alike, by an array's real and imaginary
    parts separately."""

    def __init__(self, lower=-np.inf, upper=np.inf):
        super().__init__()
        for name, bound in (("lower", lower), ("upper", upper)):
            if not isinstance(bound, (DistributedArray, StackedDistributedArray)) and (
                    not isinstance(bound, Number) or isinstance(bound, complex)):
                raise ValueError(f"Box: {name} must be a real number or a DistributedArray/"
                                 f"StackedDistributedArray, got {bound!r}")
        self.lower, self.upper = lower, upper

    def _make(self, kind):
        make = getattr(_ext, f"Box_{kind}")
        arrays = [b for b in (self.lower, self.upper) if not isinstance(b, Number)]
        if not arrays:
            return make(float(self.lower), float(self.upper))
        template = arrays[0]

        def bound(b):
            if not isinstance(b, Number):
                return _same_kind(b, kind, "Box")
            value = complex(b, b) if np.iscomplexobj(np.empty(0, template.dtype)) else float(b)
            return _same_kind(template.zeros_like() + value, kind, "Box")

        return make(bound(self.lower), bound(self.upper))


class EuclideanBall(ProxOperator):
    """The indicator of {||x - center|| <= radius}; center 0 or an array."""

    def __init__(self, center, radius):
        super().__init__()
        self.center = _vector_or_zero(center, "EuclideanBall: center")
        self.radius = float(radius)

    def _make(self, kind):
        make = getattr(_ext, f"EuclideanBall_{kind}")
        if self.center is None:
            return make(self.radius)
        return make(_same_kind(self.center, kind, "EuclideanBall"), self.radius)


# ---- solvers ----------------------------------------------------------------------------------
def _callback(callback, comm):
    if callback is None:
        return None
    return lambda x: bool(callback(wrap_vector(x, comm)))


def _run(niter, tol, rtol, show, itershow, callback, x0, solver):
    """The arguments every bound solver takes last."""
    return dict(niter=int(niter), tol=_tolerance(tol, rtol, solver), show=bool(show),
                itershow=[int(n) for n in itershow], callback=_callback(callback, x0._comm))


def _start(vector, kind, solver, name):
    """The extension's vector of a start vector (None when absent), of the vector type `kind`."""
    if vector is None:
        return None
    if not isinstance(vector, (DistributedArray, StackedDistributedArray)):
        raise TypeError(f"{solver}: {name} must be a DistributedArray or "
                        f"StackedDistributedArray, got {type(vector).__name__}")
    return _same_kind(vector, kind, f"{solver}: {name}")


def _tolerance(tol, rtol, solver):
    # tol is PyProximal's |1 - J_k / J_{k-1}| < tol, the library's rule. PyProximal's rtol
    # (stop when J falls below rtol times its first value) has no counterpart.
    if rtol is not None:
        raise ValueError(f"{solver}: rtol (the objective relative to its first value) is not "
                         "supported; tol (the relative change of the objective) is")
    return 0.0 if tol is None else float(tol)


def ProximalGradient(proxf, proxg, x0, epsg=1.0, tau=None, backtracking=False, beta=0.5,
                     eta=1.0, niter=10, niterback=100, acceleration=None, tol=None, rtol=None,
                     callback=None, show=False, itershow=(10, 10, 10)):
    """min f(x) + epsg g(x) (PyProximal's and PyLops-MPI's ProximalGradient): returns x.

    tau None (or backtracking=True, which starts from tau or 1) chooses the step by
    backtracking; epsg is a number."""
    if not isinstance(epsg, Number):
        raise ValueError("ProximalGradient: epsg must be a number")
    kind = _kind(x0)
    step = None if (tau is None or backtracking) else float(tau)
    r = _ext.proximal_gradient(
        proxf._handle(kind), proxg._handle(kind), unwrap_vector(x0), epsg=float(epsg), tau=step,
        tau0=1.0 if tau is None else float(tau), beta=float(beta), eta=float(eta),
        niterback=int(niterback),
        acceleration="none" if acceleration is None else str(acceleration),
        **_run(niter, tol, rtol, show, itershow, callback, x0, "ProximalGradient"))
    return wrap_vector(r["x"], x0._comm)


def AcceleratedProximalGradient(proxf, proxg, x0, epsg=1.0, tau=None, beta=0.5, eta=1.0,
                                niter=10, niterback=100, acceleration="vandenberghe", tol=None,
                                rtol=None, callback=None, show=False, itershow=(10, 10, 10)):
    """ProximalGradient with an extrapolation step (PyProximal's AcceleratedProximalGradient):
    ``acceleration`` "vandenberghe" (k/(k+3)) or "fista"; returns x."""
    return ProximalGradient(proxf, proxg, x0, epsg=epsg, tau=tau, beta=beta, eta=eta,
                            niter=niter, niterback=niterback, acceleration=acceleration, tol=tol,
                            rtol=rtol, callback=callback, show=show, itershow=itershow)


def ADMML2(proxg, Op, b, A, x0, tau, niter=10, z0=None, gfirst=False, tol=None, rtol=None,
           callback=None, callbackz=False, show=False, itershow=(10, 10, 10), kwargs_solver=None):
    """min 1/2 ||Op x - b||^2 + g(A x) (PyProximal's and PyLops-MPI's ADMML2): returns (x, z).

    z0 None starts from z = A x0; gfirst=True updates z before x (z0 is then not read; u is
    updated with A x_{k+1}, as ADMM's scaled dual, where PyProximal's ADMML2 uses A x_k). The
    x-update solves its normal equations by CG: kwargs_solver (a dict, as PyLops-MPI's)
    ``niter`` (20) iterations at most, relative tolerance ``rtol`` (1e-10)."""
    kwargs_solver = dict(kwargs_solver or {})
    if callbackz:
        raise ValueError("ADMML2: callbackz is not supported (the callback receives x only)")
    unknown = set(kwargs_solver) - {"niter", "rtol"}
    if unknown:
        raise ValueError(f"ADMML2: kwargs_solver takes niter and rtol, got {sorted(unknown)}")
    aux = _range_kind(A)
    r = _ext.admm_l2(proxg._handle(aux), Op._op, unwrap_vector(b), A._op, unwrap_vector(x0),
                     z0=_start(z0, aux, "ADMML2", "z0"), gfirst=bool(gfirst), tau=float(tau),
                     inner_niter=int(kwargs_solver.get("niter", 20)),
                     inner_rtol=float(kwargs_solver.get("rtol", 1e-10)),
                     **_run(niter, tol, rtol, show, itershow, callback, x0, "ADMML2"))
    return wrap_vector(r["x"], x0._comm), wrap_vector(r["aux"], x0._comm)


def LinearizedADMM(proxf, proxg, A, x0, tau, mu=None, niter=10, z0=None, tol=None, rtol=None,
                   callback=None, show=False, itershow=(10, 10, 10), check_steps=True):
    """min f(x) + g(A x) (PyProximal's LinearizedADMM): returns (x, z). mu None picks
    0.95 tau / ||A||^2; check_steps raises when mu ||A||^2 > tau. z0 None starts from z = A x0;
    the first x-update is linearised at A x0 (PyProximal's at z0)."""
    aux = _range_kind(A)
    r = _ext.linearized_admm(proxf._handle(_kind(x0)), proxg._handle(aux), A._op,
                             unwrap_vector(x0), z0=_start(z0, aux, "LinearizedADMM", "z0"),
                             tau=float(tau), mu=None if mu is None else float(mu),
                             check_steps=bool(check_steps),
                             **_run(niter, tol, rtol, show, itershow, callback, x0,
                                    "LinearizedADMM"))
    return wrap_vector(r["x"], x0._comm), wrap_vector(r["aux"], x0._comm)


def PrimalDual(proxf, proxg, A, x0, tau=None, mu=None, y0=None, z=None, theta=1.0, niter=10,
               gfirst=True, tol=None, rtol=None, callback=None, callbacky=False, returny=False,
               show=False, itershow=(10, 10, 10), check_steps=True):
    """min f(x) + Re<z, x> + g(A x) by Chambolle-Pock (PyProximal's PrimalDual; gfirst=True,
    its default, updates the dual variable first): returns x, or (x, y) with returny. tau and
    mu (the dual step) None pick 0.95 / ||A||; check_steps raises when tau mu ||A||^2 > 1. y0
    None starts from y = 0; z (an array of x's type) adds the linear term, as proxf's
    affine_addition."""
    if callbacky:
        raise ValueError("PrimalDual: callbacky is not supported (the callback receives x only)")
    for name, step in (("tau", tau), ("mu", mu)):
        if step is not None and (not isinstance(step, Number) or isinstance(step, complex)):
            raise ValueError(f"PrimalDual: {name} must be a real number or None (steps per "
                             f"iteration are not supported)")
    kind, aux = _kind(x0), _range_kind(A)
    f = proxf if z is None else proxf.affine_addition(z)
    r = _ext.primal_dual(f._handle(kind), proxg._handle(aux), A._op, unwrap_vector(x0),
                         y0=_start(y0, aux, "PrimalDual", "y0"), gfirst=bool(gfirst),
                         tau=None if tau is None else float(tau),
                         sigma=None if mu is None else float(mu), theta=float(theta),
                         check_steps=bool(check_steps),
                         **_run(niter, tol, rtol, show, itershow, callback, x0, "PrimalDual"))
    x = wrap_vector(r["x"], x0._comm)
    return (x, wrap_vector(r["aux"], x0._comm)) if returny else x
