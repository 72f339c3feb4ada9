# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Proximal operators against their closed forms on the global arrays, and the proximal
solvers against their iterations written in NumPy on the global problem (fixed steps, fixed
iteration counts), on uneven splits with a rank that owns nothing."""
import numpy as np
import pytest
from mpi4py import MPI
from conftest import DTYPES, blockdiag_problem, random_array, tolerance, uneven_local_shapes

import distlops as dl

N = 13


def vector(comm, dtype, seed, n=N, uneven=True):
    """A random array split unevenly (the last rank owns nothing) or by the default rule."""
    x = random_array(n, dtype, seed)
    shapes = uneven_local_shapes(n, comm.size) if uneven else None
    return dl.DistributedArray.to_dist(x, local_shapes=shapes), x


def close(actual, expected, dtype, scale=10):
    rtol = tolerance(dtype) * scale
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=rtol)


def soft(x, threshold):
    magnitude = np.abs(x)
    return x * np.maximum(0, 1 - threshold / np.maximum(magnitude, 1e-300))


@pytest.mark.parametrize("dtype", DTYPES)
def test_l1_l2_ball_and_compositions_match_their_closed_forms(comm, dtype):
    x, xg = vector(comm, dtype, 1)
    w, wg = vector(comm, dtype, 2)
    weights = dl.DistributedArray.to_dist(np.abs(wg).astype(dtype),
                                          local_shapes=uneven_local_shapes(N, comm.size))
    tau, sigma = 0.7, 1.3

    l1 = dl.L1(sigma=sigma)
    assert l1(x) == pytest.approx(sigma * np.abs(xg).sum(), rel=tolerance(dtype) * 10)
    close(l1.prox(x, tau).asarray(), soft(xg, sigma * tau), dtype)
    close(l1.proxdual(x, tau).asarray(), xg * np.minimum(1, sigma / np.abs(xg)), dtype)
    weighted = dl.L1(sigma=sigma * weights)
    close(weighted.prox(x, tau).asarray(), soft(xg, sigma * tau * np.abs(wg)), dtype)
    shifted = dl.L1(sigma=sigma, g=w)  # sigma ||x - g||_1
    assert shifted(x) == pytest.approx(sigma * np.abs(xg - wg).sum(), rel=tolerance(dtype) * 10)
    close(shifted.prox(x, tau).asarray(), wg + soft(xg - wg, sigma * tau), dtype)

    l2 = dl.L2(b=w, sigma=sigma)
    assert l2(x) == pytest.approx(sigma / 2 * np.linalg.norm(xg - wg) ** 2,
                                  rel=tolerance(dtype) * 10)
    close(l2.prox(x, tau).asarray(), (xg + sigma * tau * wg) / (1 + sigma * tau), dtype)
    close(l2.grad(x).asarray(), sigma * (xg - wg), dtype)

    radius = 0.5 * np.linalg.norm(xg)
    ball = dl.EuclideanBall(0, radius)
    close(ball.prox(x, tau).asarray(), xg * radius / np.linalg.norm(xg), dtype)
    shifted = dl.EuclideanBall(w, radius)
    d = xg - wg
    close(shifted.prox(x, tau).asarray(), wg + d * min(1, radius / np.linalg.norm(d)), dtype)

    # g(x) = f(a x + b): prox_{tau g}(x) = (prox_{a^2 tau f}(a x + b) - b) / a.
    a = -1.5
    pre = l1.precomposition(a, w)
    assert pre(x) == pytest.approx(sigma * np.abs(a * xg + wg).sum(), rel=tolerance(dtype) * 10)
    close(pre.prox(x, tau).asarray(), (soft(a * xg + wg, a * a * tau * sigma) - wg) / a, dtype)
    post = l1.postcomposition(2.0)
    close(post.prox(x, tau).asarray(), soft(xg, 2 * sigma * tau), dtype)
    affine = l1.affine_addition(w)
    assert affine(x) == pytest.approx(sigma * np.abs(xg).sum() + np.real(np.vdot(wg, xg)),
                                      rel=tolerance(dtype) * 10)
    close(affine.prox(x, tau).asarray(), soft(xg - tau * wg, sigma * tau), dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_box_clips_real_arrays(comm, dtype):
    x, xg = vector(comm, dtype, 3)
    box = dl.Box(-0.5, 0.25)
    close(box.prox(x, 2.0).asarray(), np.clip(xg, -0.5, 0.25), dtype)
    assert box(box.prox(x, 1.0)) == 0
    assert box(x) == np.inf


@pytest.mark.parametrize("dtype", DTYPES)
def test_l21_on_a_stacked_array(comm, dtype):
    x1, g1 = vector(comm, dtype, 4)
    x2, g2 = vector(comm, dtype, 5)
    stacked = dl.StackedDistributedArray([x1, x2])
    sigma, tau = 0.8, 0.9
    l21 = dl.L21(ndim=2, sigma=sigma)
    norms = np.sqrt(np.abs(g1) ** 2 + np.abs(g2) ** 2)
    assert l21(stacked) == pytest.approx(sigma * norms.sum(), rel=tolerance(dtype) * 10)
    shrink = np.maximum(0, 1 - sigma * tau / norms)
    out = l21.prox(stacked, tau)
    close(out[0].asarray(), g1 * shrink, dtype)
    close(out[1].asarray(), g2 * shrink, dtype)
    with pytest.raises(ValueError, match="StackedDistributedArray of 3"):
        dl.L21(ndim=3)(stacked)


@pytest.mark.parametrize("dtype", DTYPES)
def test_l2_with_an_operator_solves_its_normal_equations(comm, dtype):
    Op, dense, b, bg, x, xg = blockdiag_problem(comm, dtype)
    sigma, tau = 0.5, 0.8
    # CG converges in n steps in exact arithmetic; 2n leave room for rounding. Far past
    # convergence single precision drifts (4n steps: 1.6e-3 relative at 4 ranks).
    l2 = dl.L2(Op=Op, b=b, sigma=sigma, niter=2 * dense.shape[0], rtol=0)
    assert l2(x) == pytest.approx(sigma / 2 * np.linalg.norm(dense @ xg - bg) ** 2,
                                  rel=tolerance(dtype) * 10)
    normal = np.eye(dense.shape[0]) + tau * sigma * dense.conj().T @ dense
    expected = np.linalg.solve(normal, xg + tau * sigma * dense.conj().T @ bg)
    close(l2.prox(x, tau).asarray(), expected, dtype, scale=100)
    close(l2.grad(x).asarray(), sigma * dense.conj().T @ (dense @ xg - bg), dtype, scale=100)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("acceleration", [None, "fista"])
def test_proximal_gradient_follows_the_iteration(comm, dtype, acceleration):
    Op, dense, b, bg, x0, x0g = blockdiag_problem(comm, dtype)
    tau, epsg, niter = 0.02, 0.3, 6
    x = dl.ProximalGradient(dl.L2(Op=Op, b=b), dl.L1(), x0, epsg=epsg, tau=tau, niter=niter,
                            acceleration=acceleration)
    xk, y, t = x0g.astype(np.complex128), x0g.astype(np.complex128), 1.0
    for _ in range(niter):
        xold = xk
        xk = soft(y - tau * dense.conj().T @ (dense @ y - bg), epsg * tau)
        omega = 0.0
        if acceleration == "fista":
            t_next = (1 + np.sqrt(1 + 4 * t * t)) / 2
            omega, t = (t - 1) / t_next, t_next
        y = xk + omega * (xk - xold)
    close(x.asarray(), xk, dtype, scale=100)


def forward_difference(n):
    """PyLops' forward first derivative (last sample 0) as a dense matrix."""
    d = np.zeros((n, n))
    for i in range(n - 1):
        d[i, i], d[i, i + 1] = -1, 1
    return d


@pytest.mark.parametrize("dtype", DTYPES)
def test_linearized_admm_follows_its_iteration(comm, dtype):
    x0, x0g = vector(comm, dtype, 6, uneven=False)
    b, bg = vector(comm, dtype, 7, uneven=False)
    A = dl.MPIFirstDerivative(N, kind="forward", dtype=dtype)
    D = forward_difference(N)
    tau, mu, niter, sigma = 1.0, 0.2, 5, 0.4
    x, z = dl.LinearizedADMM(dl.L2(b=b), dl.L1(sigma=sigma), A, x0, tau=tau, mu=mu, niter=niter)
    xk, uk = x0g.astype(np.complex128), np.zeros(N, complex)
    zk = D @ xk  # z_0 = A x_0, PyProximal's start
    for _ in range(niter):
        w = xk - mu / tau * D.T @ (D @ xk - zk + uk)
        xk = (w + mu * bg) / (1 + mu)  # prox_{mu f}, f = 1/2 ||x - b||^2
        ax = D @ xk
        zk = soft(ax + uk, tau * sigma)
        uk = uk + ax - zk
    close(x.asarray(), xk, dtype, scale=100)
    close(z.asarray(), zk, dtype, scale=100)


@pytest.mark.parametrize("dtype", DTYPES)
def test_admml2_follows_its_iteration(comm, dtype):
    Op, dense, b, bg, x0, x0g = blockdiag_problem(comm, dtype)
    A, denseA, *_ = blockdiag_problem(comm, dtype, seed=90)
    tau, niter, sigma = 0.7, 4, 0.3
    n = dense.shape[0]
    x, z = dl.ADMML2(dl.L1(sigma=sigma), Op, b, A, x0, tau=tau, niter=niter,
                     kwargs_solver={"niter": 4 * n, "rtol": 0.0})
    xk, uk = x0g.astype(np.complex128), np.zeros(n, complex)
    zk = denseA @ xk
    normal = dense.conj().T @ dense + denseA.conj().T @ denseA / tau
    for _ in range(niter):
        xk = np.linalg.solve(normal, dense.conj().T @ bg + denseA.conj().T @ (zk - uk) / tau)
        ax = denseA @ xk
        zk = soft(ax + uk, tau * sigma)
        uk = uk + ax - zk
    close(x.asarray(), xk, dtype, scale=1000)
    close(z.asarray(), zk, dtype, scale=1000)


def gradient_2d(n0, n1):
    """The forward-difference gradient of an (n0, n1) array as two dense matrices."""
    return (np.kron(forward_difference(n0), np.eye(n1)),
            np.kron(np.eye(n0), forward_difference(n1)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_primal_dual_total_variation_follows_its_iteration(comm, dtype):
    shape = (5, 4)
    x0g, bg = random_array(shape, dtype, 11), random_array(shape, dtype, 12)
    x0, b = dl.DistributedArray.to_dist(x0g), dl.DistributedArray.to_dist(bg)
    K = dl.MPIGradient(shape, kind="forward", dtype=dtype)
    D0, D1 = gradient_2d(*shape)
    tau, mu, theta, niter, sigma = 0.3, 0.3, 1.0, 6, 0.5
    x, y = dl.PrimalDual(dl.L2(b=b), dl.L21(ndim=2, sigma=sigma), K, x0, tau=tau, mu=mu,
                         theta=theta, niter=niter, gfirst=False, returny=True)
    xk, b_flat = x0g.ravel().astype(np.complex128), bg.ravel()
    y0, y1 = np.zeros(xk.size, complex), np.zeros(xk.size, complex)
    for _ in range(niter):
        xold = xk
        v = xk - tau * (D0.T @ y0 + D1.T @ y1)
        xk = (v + tau * b_flat) / (1 + tau)
        xbar = xk + theta * (xk - xold)
        y0, y1 = y0 + mu * D0 @ xbar, y1 + mu * D1 @ xbar
        scale = np.minimum(1, sigma / np.maximum(np.sqrt(abs(y0) ** 2 + abs(y1) ** 2), 1e-300))
        y0, y1 = y0 * scale, y1 * scale
    close(x.asarray().ravel(), xk, dtype, scale=100)
    close(y[0].asarray().ravel(), y0, dtype, scale=100)
    close(y[1].asarray().ravel(), y1, dtype, scale=100)


def test_bad_input_raises_on_every_rank(comm):
    x, _ = vector(comm, np.float64, 20, uneven=False)
    A = dl.MPIFirstDerivative(N, kind="forward")
    with pytest.raises(ValueError, match="Op needs b"):
        dl.L2(Op=A)
    # tau mu ||A||^2 = 4 * 4 * ~4 > 1: the step check refuses to diverge.
    with pytest.raises(ValueError, match="primal_dual"):
        dl.PrimalDual(dl.L2(b=x), dl.L1(), A, x, tau=4.0, mu=4.0, niter=2)
    with pytest.raises(ValueError, match="acceleration"):
        dl.ProximalGradient(dl.L2(b=x), dl.L1(), x, tau=0.1, acceleration="nesterov")
    with pytest.raises(TypeError, match="L1"):
        dl.L1(g=dl.DistributedArray.to_dist(np.ones(N, np.float32)))(x)


class SoftThreshold(dl.ProxOperator):
    """sigma ||x||_1 written in Python, as a user writes a proximal operator of their own; with
    `fail_on` it raises on that rank (prox) or returns another value there (__call__)."""

    def __init__(self, sigma, fail_on=None, failure="prox"):
        super().__init__()
        self.sigma, self.fail_on, self.failure = sigma, fail_on, failure

    def _fails(self, failure):
        return self.failure == failure and self.fail_on == MPI.COMM_WORLD.rank

    def __call__(self, x):
        return self.sigma * float(x.norm(1)) + (1.0 if self._fails("value") else 0.0)

    def prox(self, x, tau):
        if self._fails("prox"):
            raise ValueError("the user's prox failed")
        y = x.copy()
        y.local_array[:] = soft(x.local_array, self.sigma * tau)
        return y


@pytest.mark.parametrize("dtype", [np.float64, np.complex64])
def test_a_proximal_operator_written_in_python_runs_in_the_solvers(comm, dtype):
    Op, _, b, _, x0, _ = blockdiag_problem(comm, dtype)
    options = dict(epsg=0.3, tau=0.02, niter=6)
    ours = dl.ProximalGradient(dl.L2(Op=Op, b=b), SoftThreshold(1.0), x0, **options)
    library = dl.ProximalGradient(dl.L2(Op=Op, b=b), dl.L1(), x0, **options)
    close(ours.asarray(), library.asarray(), dtype)
    # The conjugate's prox through Moreau's identity and the Python prox: the projection onto
    # |y_i| <= sigma.
    x, xg = vector(comm, dtype, 7)
    projection = xg * np.minimum(1, 0.5 / np.maximum(np.abs(xg), 1e-300))
    close(SoftThreshold(0.5).proxdual(x, 2.0).asarray(), projection, dtype)


def every_rank_raises(exception, call, text):
    """`call` raises `exception` on every rank with the same message, which contains `text`."""
    with pytest.raises(exception) as raised:
        call()
    message = str(raised.value)
    assert text in message
    assert len(set(MPI.COMM_WORLD.allgather(message))) == 1
    return message


@pytest.mark.parametrize("rank", ["first", "last"])
def test_user_code_failing_on_one_rank_raises_on_every_rank(comm, rank):
    Op, _, b, _, x0, _ = blockdiag_problem(comm, np.float64)
    failing = 0 if rank == "first" else comm.size - 1
    f = dl.L2(Op=Op, b=b)
    message = every_rank_raises(
        dl.Error, lambda: dl.ProximalGradient(f, SoftThreshold(1.0, failing), x0, tau=0.02, niter=4),
        "ValueError: the user's prox failed")
    if comm.size > 1:
        assert f"(raised on rank {failing})" in message
    # A callable sigma that raises on one rank.

    def schedule(k):
        if k >= 2 and comm.rank == failing:
            raise RuntimeError("the user's schedule failed")
        return 0.1

    every_rank_raises(dl.Error, lambda: dl.ProximalGradient(f, dl.L1(schedule), x0, tau=0.02,
                                                            niter=4),
                      "RuntimeError: the user's schedule failed")
    # A value that differs between ranks.
    if comm.size > 1:
        every_rank_raises(
            dl.InvalidArgument,
            lambda: dl.ProximalGradient(f, SoftThreshold(1.0, failing, "value"), x0, tau=0.02,
                                        niter=4),
            "differs between ranks")


def test_parameters_that_differ_between_ranks_are_refused(comm):
    if comm.size == 1:
        pytest.skip("needs two ranks: a parameter differs between ranks")
    Op, _, b, _, x0, _ = blockdiag_problem(comm, np.float64)
    sigma = 0.1 if comm.rank == 0 else 0.2
    every_rank_raises(dl.InvalidArgument, lambda: dl.L1(sigma)(x0), "differs between ranks")
    every_rank_raises(dl.InvalidArgument, lambda: dl.ProximalGradient(
        dl.L2(Op=Op, b=b), dl.L1(sigma), x0, tau=0.02, niter=3, tol=1e-12),
        "differs between ranks")
    # A bad parameter on one rank only: the first call reports it on every rank.
    every_rank_raises(dl.InvalidArgument,
                      lambda: dl.L1(-1.0 if comm.rank == comm.size - 1 else 1.0)(x0),
                      "sigma must be finite and non-negative")
