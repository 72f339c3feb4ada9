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
    x, y = dl.PrimalDual(dl.L2(b=b), dl.L21(ndim=2, sigma=0.5), K, x0, returny=True, **kwargs)
    xe, ye = pyproximal.optimization.primaldual.PrimalDual(
        pyproximal.L2(b=bg.ravel()), pyproximal.L21(ndim=2, sigma=0.5),
        pylops.Gradient(shape, kind="forward", dtype=dtype), x0g.ravel().copy(),
        gfirst=False, returny=True, **kwargs)
    close(x.asarray().ravel(), xe, dtype, scale=100)
    close(np.concatenate([y[0].asarray().ravel(), y[1].asarray().ravel()]), ye, dtype,
          scale=100)


def test_refused_options_raise_on_every_rank(comm):
    x, _ = vector(comm, np.float64, 20, uneven=False)
    A = dl.MPIFirstDerivative(N, kind="forward")
    with pytest.raises(ValueError, match="rtol"):
        dl.ProximalGradient(dl.L2(b=x), dl.L1(), x, tau=0.1, rtol=1e-3)
    with pytest.raises(ValueError, match="callables"):
        dl.L1(sigma=lambda count: 1.0)
    with pytest.raises(ValueError, match="L21: sigma"):
        dl.L21(ndim=2, sigma=x)
    with pytest.raises(ValueError, match="gfirst"):
        dl.PrimalDual(dl.L2(b=x), dl.L1(), A, x, tau=0.1, mu=0.1, gfirst=True)
