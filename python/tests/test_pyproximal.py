# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The proximal operators and solvers against PyProximal's on the same global problems (fixed
steps and iteration counts), at any rank count, on uneven splits with a rank that owns nothing.
Skipped, with the reason, where PyProximal is not installed."""
import numpy as np
import pylops
import pytest
from conftest import DTYPES, blockdiag_problem, random_array, tolerance, uneven_local_shapes

import distlops as dl

pyproximal = pytest.importorskip(
    "pyproximal", reason="PyProximal is not installed (build/porting-venv installs it)")

# PyLops' MatrixMult of a complex matrix warns that it computes in complex128.
pytestmark = pytest.mark.filterwarnings("ignore:Matrix A is a complex object:UserWarning")

N = 13


def vector(comm, dtype, seed, uneven=True):
    x = random_array(N, dtype, seed)
    shapes = uneven_local_shapes(N, comm.size) if uneven else None
    return dl.DistributedArray.to_dist(x, local_shapes=shapes), x


def close(actual, expected, dtype, scale=10):
    rtol = tolerance(dtype) * scale
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=rtol * np.abs(expected).max())


def same_value(ours, theirs, dtype):
    assert ours == pytest.approx(theirs, rel=tolerance(dtype) * 10)


@pytest.mark.parametrize("dtype", DTYPES)
def test_l1_and_l2_match_pyproximal(comm, dtype):
    x, xg = vector(comm, dtype, 1)
    w, wg = vector(comm, dtype, 2)
    weights = np.abs(wg).astype(np.real(wg).dtype) + 0.1
    sigma_array = dl.DistributedArray.to_dist(weights.astype(dtype),
                                              local_shapes=uneven_local_shapes(N, comm.size))
    tau = 0.7
    cases = [(dl.L1(sigma=1.3), pyproximal.L1(sigma=1.3)),
             (dl.L1(sigma=sigma_array), pyproximal.L1(sigma=weights)),
             (dl.L1(sigma=0.8, g=w), pyproximal.L1(sigma=0.8, g=wg)),
             (dl.L2(b=w, sigma=1.3), pyproximal.L2(b=wg, sigma=1.3)),
             (dl.L2(sigma=0.6), pyproximal.L2(sigma=0.6))]
    for ours, theirs in cases:
        same_value(ours(x), theirs(xg), dtype)
        close(ours.prox(x, tau).asarray(), theirs.prox(xg, tau), dtype)
        # PyProximal's L1.proxdual clips real and imaginary parts (np.clip) where the
        # conjugate of |.| projects onto the disk: compared for real arrays only.
        if not np.iscomplexobj(xg) or isinstance(ours, dl.L2):
            close(ours.proxdual(x, tau).asarray(), theirs.proxdual(xg, tau), dtype)
    for ours, theirs in cases[3:]:
        close(ours.grad(x).asarray(), theirs.grad(xg), dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_box_and_l21_match_pyproximal(comm, dtype):
    x, xg = vector(comm, dtype, 3)
    y, yg = vector(comm, dtype, 4)
    box, theirs = dl.Box(-0.5, 0.25), pyproximal.Box(-0.5, 0.25)
    close(box.prox(x, 2.0).asarray(), theirs.prox(xg, 2.0), dtype)
    close(box.proxdual(x, 2.0).asarray(), theirs.proxdual(xg, 2.0), dtype)
    stacked = dl.StackedDistributedArray([x, y])
    both = np.concatenate([xg, yg])
    l21, theirs = dl.L21(ndim=2, sigma=0.8), pyproximal.L21(ndim=2, sigma=0.8)
    same_value(l21(stacked), theirs(both), dtype)
    for ours, expected in [(l21.prox(stacked, 0.9), theirs.prox(both, 0.9)),
                           (l21.proxdual(stacked, 0.9), theirs.proxdual(both, 0.9))]:
        close(np.concatenate([ours[0].asarray(), ours[1].asarray()]), expected, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_l1_callable_sigma_matches_pyproximal(comm, dtype):
    x, xg = vector(comm, dtype, 26)
    g, gg = vector(comm, dtype, 27)

    def schedule(k):
        return 0.5 + 0.25 * k

    for ours, theirs in [(dl.L1(sigma=schedule), pyproximal.L1(sigma=schedule)),
                         (dl.L1(sigma=schedule, g=g), pyproximal.L1(sigma=schedule, g=gg))]:
        same_value(ours(x), theirs(xg), dtype)
        if not np.iscomplexobj(xg) and ours.g is None:
            # Before any prox call both read sigma(0) (PyProximal's proxdual always does). With
            # g the library's proxdual goes through Moreau's identity, a prox call that counts.
            close(ours.proxdual(x, 0.3).asarray(), theirs.proxdual(xg, 0.3), dtype)
            assert ours.count == 0
        for tau in (0.7, 0.4, 1.1):
            close(ours.prox(x, tau).asarray(), theirs.prox(xg, tau), dtype)
            assert ours.count == theirs.count
        same_value(ours(x), theirs(xg), dtype)


SOLVER_DTYPES = [np.float32, np.float64, np.complex128]
# PyProximal keeps step sizes and epsg in float32: steps exact in float32 compare to rounding.


@pytest.mark.parametrize("dtype", SOLVER_DTYPES)
@pytest.mark.parametrize("acceleration", [None, "fista"])
def test_proximal_gradient_matches_pyproximal(comm, dtype, acceleration):
    Op, dense, b, bg, x0, x0g = blockdiag_problem(comm, dtype)
    kwargs = dict(epsg=0.25, tau=0.015625, niter=6, acceleration=acceleration)
    x = dl.ProximalGradient(dl.L2(Op=Op, b=b), dl.L1(), x0, **kwargs)
    expected = pyproximal.optimization.primal.ProximalGradient(
        pyproximal.L2(Op=pylops.MatrixMult(dense), b=bg), pyproximal.L1(), x0g.copy(), **kwargs)
    close(x.asarray(), expected, dtype, scale=100)


@pytest.mark.parametrize("dtype", SOLVER_DTYPES)
def test_proximal_gradient_with_a_sigma_schedule_matches_pyproximal(comm, dtype):
    Op, dense, b, bg, x0, x0g = blockdiag_problem(comm, dtype)
    kwargs = dict(epsg=0.25, tau=0.015625, niter=6)
    def schedule(k):
        return 8.0 / (k + 1)

    x = dl.ProximalGradient(dl.L2(Op=Op, b=b), dl.L1(sigma=schedule), x0, **kwargs)
    expected = pyproximal.optimization.primal.ProximalGradient(
        pyproximal.L2(Op=pylops.MatrixMult(dense), b=bg), pyproximal.L1(sigma=schedule),
        x0g.copy(), **kwargs)
    close(x.asarray(), expected, dtype, scale=100)


@pytest.mark.parametrize("dtype", [np.float64])
def test_tol_stops_where_pyproximal_stops(comm, dtype):
    # tol: |1 - J_k / J_{k-1}| < tol, PyProximal's rule; both runs stop at the same iterate
    # (after about 30 of the 200 iterations allowed; without the stop they would go on).
    Op, dense, b, bg, x0, x0g = blockdiag_problem(comm, dtype)
    kwargs = dict(epsg=0.25, tau=0.015625, niter=200, tol=1e-4)
    x = dl.ProximalGradient(dl.L2(Op=Op, b=b), dl.L1(), x0, **kwargs)
    expected = pyproximal.optimization.primal.ProximalGradient(
        pyproximal.L2(Op=pylops.MatrixMult(dense), b=bg), pyproximal.L1(), x0g.copy(), **kwargs)
    close(x.asarray(), expected, dtype, scale=100)
    unstopped = dl.ProximalGradient(dl.L2(Op=Op, b=b), dl.L1(), x0, epsg=0.25, tau=0.015625,
                                    niter=200)
    assert np.abs(unstopped.asarray() - expected).max() > 1e-6


@pytest.mark.parametrize("dtype", SOLVER_DTYPES)
def test_admml2_matches_pyproximal(comm, dtype):
    Op, dense, b, bg, x0, x0g = blockdiag_problem(comm, dtype)
    A, denseA, *_ = blockdiag_problem(comm, dtype, seed=90)
    n = dense.shape[0]
    x, z = dl.ADMML2(dl.L1(sigma=0.3), Op, b, A, x0, tau=0.7, niter=4,
                     kwargs_solver={"niter": 4 * n, "rtol": 0.0})
    xe, ze = pyproximal.optimization.primal.ADMML2(
        pyproximal.L1(sigma=0.3), pylops.MatrixMult(dense), bg, pylops.MatrixMult(denseA),
        x0g.copy(), tau=0.7, niter=4, iter_lim=8 * n, atol=0, btol=0, conlim=0)
    close(x.asarray(), xe, dtype, scale=1000)
    close(z.asarray(), ze, dtype, scale=1000)


@pytest.mark.parametrize("dtype", SOLVER_DTYPES)
def test_linearized_admm_matches_pyproximal(comm, dtype):
    x0, x0g = vector(comm, dtype, 6, uneven=False)
    b, bg = vector(comm, dtype, 7, uneven=False)
    A = dl.MPIFirstDerivative(N, kind="forward", dtype=dtype)
    kwargs = dict(tau=1.0, mu=0.25, niter=5)
    x, z = dl.LinearizedADMM(dl.L2(b=b), dl.L1(sigma=0.4), A, x0, **kwargs)
    xe, ze = pyproximal.optimization.primal.LinearizedADMM(
        pyproximal.L2(b=bg), pyproximal.L1(sigma=0.4),
        pylops.FirstDerivative(N, kind="forward", dtype=dtype), x0g.copy(), **kwargs)
    close(x.asarray(), xe, dtype, scale=100)
    close(z.asarray(), ze, dtype, scale=100)


@pytest.mark.parametrize("dtype", SOLVER_DTYPES)
def test_primal_dual_total_variation_matches_pyproximal(comm, dtype):
    shape = (5, 4)
    x0g, bg = random_array(shape, dtype, 11), random_array(shape, dtype, 12)
    x0, b = dl.DistributedArray.to_dist(x0g), dl.DistributedArray.to_dist(bg)
    K = dl.MPIGradient(shape, kind="forward", dtype=dtype)
    kwargs = dict(tau=0.25, mu=0.375, theta=1.0, niter=6)
    y0g = random_array((2,) + shape, dtype, 13)
    y0 = dl.StackedDistributedArray([dl.DistributedArray.to_dist(y0g[0]),
                                     dl.DistributedArray.to_dist(y0g[1])])
    zg = random_array(shape, dtype, 14)
    z = dl.DistributedArray.to_dist(zg)
    # gfirst (PyProximal's default, and the package's), from y = 0 or y0, with or without the
    # linear term z.
    for gfirst, start, linear in [(False, None, None), (True, None, None), (True, y0, z),
                                  (False, y0, None), (False, None, z)]:
        x, y = dl.PrimalDual(dl.L2(b=b), dl.L21(ndim=2, sigma=0.5), K, x0, y0=start, z=linear,
                             gfirst=gfirst, returny=True, **kwargs)
        xe, ye = pyproximal.optimization.primaldual.PrimalDual(
            pyproximal.L2(b=bg.ravel()), pyproximal.L21(ndim=2, sigma=0.5),
            pylops.Gradient(shape, kind="forward", dtype=dtype), x0g.ravel().copy(),
            y0=None if start is None else y0g.ravel().copy(),
            z=None if linear is None else zg.ravel(), gfirst=gfirst, returny=True, **kwargs)
        close(x.asarray().ravel(), xe, dtype, scale=100)
        close(np.concatenate([y[0].asarray().ravel(), y[1].asarray().ravel()]), ye, dtype,
              scale=100)
    # The package's default order is PyProximal's: the dual update first.
    x = dl.PrimalDual(dl.L2(b=b), dl.L21(ndim=2, sigma=0.5), K, x0, **kwargs)
    xe = pyproximal.optimization.primaldual.PrimalDual(
        pyproximal.L2(b=bg.ravel()), pyproximal.L21(ndim=2, sigma=0.5),
        pylops.Gradient(shape, kind="forward", dtype=dtype), x0g.ravel().copy(), **kwargs)
    close(x.asarray().ravel(), xe, dtype, scale=100)


@pytest.mark.parametrize("dtype", SOLVER_DTYPES)
def test_admml2_z0_and_gfirst_match_pyproximal(comm, dtype):
    Op, dense, b, bg, x0, x0g = blockdiag_problem(comm, dtype)
    A, denseA, *_ = blockdiag_problem(comm, dtype, seed=90)
    n = dense.shape[0]
    z0g = random_array(n, dtype, 91)
    z0 = dl.DistributedArray.to_dist(z0g, local_shapes=[(3,)] * comm.size)
    x, z = dl.ADMML2(dl.L1(sigma=0.3), Op, b, A, x0, tau=0.7, niter=4, z0=z0,
                     kwargs_solver={"niter": 4 * n, "rtol": 0.0})
    xe, ze = pyproximal.optimization.primal.ADMML2(
        pyproximal.L1(sigma=0.3), pylops.MatrixMult(dense), bg, pylops.MatrixMult(denseA),
        x0g.copy(), tau=0.7, niter=4, z0=z0g.copy(), iter_lim=8 * n, atol=0, btol=0, conlim=0)
    close(x.asarray(), xe, dtype, scale=1000)
    close(z.asarray(), ze, dtype, scale=1000)
    # gfirst=True: ADMM's scaled dual update, that of PyProximal's ADMM (its ADMML2 updates u
    # with A x_k); with A = I the x-update is the prox of 1/2 ||Op x - b||^2, solved exactly.
    identity = dl.MPIBlockDiag([dl.Identity(3, dtype=dtype)])
    x, z = dl.ADMML2(dl.L1(sigma=0.3), Op, b, identity, x0, tau=0.7, niter=4, z0=z0,
                     gfirst=True, kwargs_solver={"niter": 4 * n, "rtol": 0.0})
    xe, ze = pyproximal.optimization.primal.ADMM(
        pyproximal.L2(Op=pylops.MatrixMult(dense), b=bg), pyproximal.L1(sigma=0.3), x0g.copy(),
        tau=0.7, niter=4, gfirst=True)
    close(x.asarray(), xe, dtype, scale=1000)
    close(z.asarray(), ze, dtype, scale=1000)


@pytest.mark.parametrize("dtype", SOLVER_DTYPES)
def test_linearized_admm_z0_matches_pyproximal(comm, dtype):
    x0, x0g = vector(comm, dtype, 6, uneven=False)
    b, bg = vector(comm, dtype, 7, uneven=False)
    z0, z0g = vector(comm, dtype, 8, uneven=False)
    A = dl.MPIFirstDerivative(N, kind="forward", dtype=dtype)
    Ag = pylops.FirstDerivative(N, kind="forward", dtype=dtype)
    x, z = dl.LinearizedADMM(dl.L2(b=b), dl.L1(sigma=0.4), A, x0, tau=1.0, mu=0.25, niter=5,
                             z0=z0)
    # PyProximal's step-wise solver from z0, its first x-update linearised at A x0 (the
    # library's; PyProximal's own start linearises at z0).
    solver = pyproximal.optimization.cls_primal.LinearizedADMM()
    xe, ze = solver.setup(pyproximal.L2(b=bg), pyproximal.L1(sigma=0.4), Ag, x0g.copy(), tau=1.0,
                          mu=0.25, z0=z0g.copy(), niter=5)
    solver.Ax = Ag @ x0g
    xe, ze = solver.run(xe, ze, niter=5)
    close(x.asarray(), xe, dtype, scale=100)
    close(z.asarray(), ze, dtype, scale=100)


@pytest.mark.parametrize("dtype", DTYPES)
def test_l2_linear_term_matches_pyproximal(comm, dtype):
    x, xg = vector(comm, dtype, 21)
    q, qg = vector(comm, dtype, 22)
    w, wg = vector(comm, dtype, 23)
    Op, dense, b, bg, x0, x0g = blockdiag_problem(comm, dtype)
    y, yg = x0, x0g
    tau = 0.7
    cases = [(dl.L2(b=w, q=q, sigma=1.3, alpha=0.7), pyproximal.L2(b=wg, q=qg, sigma=1.3,
                                                                  alpha=0.7), x, xg),
             (dl.L2(q=q, sigma=0.6, alpha=-0.4), pyproximal.L2(q=qg, sigma=0.6, alpha=-0.4), x,
              xg),
             # CGLS drifts when it runs far past convergence: rtol stops it there.
             (dl.L2(Op=Op, b=b, q=x0, alpha=0.5, niter=50, rtol=tolerance(dtype) * 10),
              pyproximal.L2(Op=pylops.MatrixMult(dense), b=bg, q=x0g, alpha=0.5), y, yg)]
    for ours, theirs, v, vg in cases:
        if not np.iscomplexobj(vg):
            # PyProximal's value takes q^T x; the library Re(q^H x): equal for real arrays.
            same_value(ours(v), theirs(vg), dtype)
        # A copy: PyProximal's L2.prox without b subtracts tau alpha q from its argument in place.
        close(ours.prox(v, tau).asarray(), theirs.prox(vg.copy(), tau), dtype, scale=100)
        close(ours.grad(v).asarray(), theirs.grad(vg), dtype)
    ours = cases[0][0]
    expected = 0.65 * np.linalg.norm(xg - wg) ** 2 + 0.7 * np.real(np.vdot(qg, xg))
    same_value(ours(x), expected, dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_box_array_bounds_match_pyproximal(comm, dtype):
    x, xg = vector(comm, dtype, 24)
    c, cg = vector(comm, dtype, 25)
    lower, lowerg = c - 0.3, cg - 0.3
    for ours, theirs in [(dl.Box(lower, c + 0.4), pyproximal.Box(lowerg, cg + 0.4)),
                         (dl.Box(lower), pyproximal.Box(lowerg)),
                         (dl.Box(-5.0, c), pyproximal.Box(-5.0, cg))]:
        close(ours.prox(x, 2.0).asarray(), theirs.prox(xg, 2.0), dtype)
        close(ours.proxdual(x, 2.0).asarray(), theirs.proxdual(xg, 2.0), dtype)
        assert ours(x) == (0.0 if theirs(xg) else np.inf)
        assert ours(ours.prox(x, 1.0)) == 0.0


def test_refused_options_raise_on_every_rank(comm):
    x, _ = vector(comm, np.float64, 20, uneven=False)
    A = dl.MPIFirstDerivative(N, kind="forward")
    with pytest.raises(ValueError, match="rtol"):
        dl.ProximalGradient(dl.L2(b=x), dl.L1(), x, tau=0.1, rtol=1e-3)
    with pytest.raises(ValueError, match="callable"):
        dl.L1(sigma="0.5")
    with pytest.raises(ValueError, match="L21: sigma"):
        dl.L21(ndim=2, sigma=x)
    with pytest.raises(ValueError, match="callbacky"):
        dl.PrimalDual(dl.L2(b=x), dl.L1(), A, x, tau=0.1, mu=0.1, callbacky=True)
    with pytest.raises(ValueError, match="qgrad"):
        dl.L2(b=x, q=x, qgrad=False)
    with pytest.raises(ValueError, match="steps per iteration"):
        dl.PrimalDual(dl.L2(b=x), dl.L1(), A, x, tau=np.full(3, 0.1), mu=0.1, niter=3)
    with pytest.raises(ValueError, match="lower must be"):
        dl.Box(lower=1j)
    lower = dl.DistributedArray.to_dist(np.ones(N))
    with pytest.raises(ValueError, match="lower <= upper"):
        dl.Box(lower, 0.5).prox(x, 1.0)
