# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Solvers against dense NumPy solutions of the global problems; callbacks, progress tables
and the GIL released while C++ iterates."""
import threading
import time

import numpy as np
import pytest
import scipy.linalg
from conftest import DTYPES, random_array

import distlops as dl


def problem(comm, dtype, rows=6, cols=4, seed=60):
    """A well-conditioned block-diagonal least-squares problem (every rank owns a block)."""
    blocks = [random_array((rows, cols), dtype, seed + r) + 3 * np.eye(rows, cols, dtype=dtype)
              for r in range(comm.size)]
    A = dl.MPIBlockDiag([dl.MatrixMult(blocks[comm.rank])])
    dense = scipy.linalg.block_diag(*blocks)
    y_global = random_array(dense.shape[0], dtype, seed - 1)
    y = dl.DistributedArray.to_dist(y_global)
    return A, dense, y, y_global


def rtol_of(dtype):
    return 1e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-9


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("damp", [0.0, 0.5])
def test_cgls_and_lsqr_solve_the_damped_problem(comm, dtype, damp):
    A, dense, y, y_global = problem(comm, dtype)
    n = dense.shape[1]
    normal = dense.conj().T @ dense + damp ** 2 * np.eye(n)
    expected = np.linalg.solve(normal, dense.conj().T @ y_global)
    x, istop, iit, r1norm, r2norm, cost = dl.cgls(A, y, niter=3 * n, damp=damp, tol=0)
    np.testing.assert_allclose(x.asarray(), expected, rtol=rtol_of(dtype) * 10,
                               atol=rtol_of(dtype))
    assert istop == 2 and iit == 3 * n and cost.shape == (3 * n + 1,)
    residual = np.linalg.norm(y_global - dense @ x.asarray())
    assert r1norm == pytest.approx(residual, rel=rtol_of(dtype) * 100)
    assert r2norm == pytest.approx(np.hypot(residual, damp * np.linalg.norm(x.asarray())),
                                   rel=rtol_of(dtype) * 100)
    out = dl.lsqr(A, y, damp=damp, niter=3 * n, atol=0, btol=0)
    assert len(out) == 11
    np.testing.assert_allclose(out[0].asarray(), expected, rtol=rtol_of(dtype) * 10,
                               atol=rtol_of(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_cg_and_power_iteration_on_a_hermitian_positive_operator(comm, dtype):
    A, dense, y, y_global = problem(comm, dtype, rows=5, cols=5)
    N = A.H @ A
    normal = dense.conj().T @ dense
    x, iit, cost = dl.cg(N, y, x0=y.zeros_like(), niter=40, tol=0)
    np.testing.assert_allclose(x.asarray(), np.linalg.solve(normal, y_global),
                               rtol=rtol_of(dtype) * 100, atol=rtol_of(dtype) * 10)
    assert iit <= 40 and len(cost) == iit + 1
    maxeig, vector, iterations = dl.power_iteration(N, niter=500, tol=1e-10)
    assert abs(maxeig) == pytest.approx(np.linalg.eigvalsh(normal).max(), rel=1e-3)


def test_fista_and_ista_match_serial_pylops(comm):
    import pylops
    from pylops.optimization.sparsity import fista as serial_fista
    from pylops.optimization.sparsity import ista as serial_ista
    A, dense, y, y_global = problem(comm, np.float64, rows=8, cols=5)
    alpha = 1.0 / np.linalg.norm(dense, 2) ** 2
    for ours, theirs in [(dl.fista, serial_fista), (dl.ista, serial_ista)]:
        x, niter, cost = ours(A, y, niter=30, eps=0.5, alpha=alpha, tol=0)
        reference = theirs(pylops.MatrixMult(dense), y_global, niter=30, eps=0.5, alpha=alpha,
                           tol=0)
        np.testing.assert_allclose(x.asarray(), reference[0], rtol=1e-10, atol=1e-12)
        # Serial PyLops records the residual of the previous iterate in its cost; distlops
        # records J(x_k) = ||y - A x_k||^2 / 2 + eps ||x_k||_1 of each iterate (PyLops-MPI's).
        xk = x.asarray()
        assert niter == 30 and len(cost) == 30
        assert cost[-1] == pytest.approx(
            0.5 * np.linalg.norm(y_global - dense @ xk) ** 2 + 0.5 * np.abs(xk).sum(), rel=1e-12)


def test_callback_sees_every_iterate_and_can_stop(comm):
    A, dense, y, _ = problem(comm, np.float64)
    norms = []
    dl.cgls(A, y, niter=5, tol=0, callback=lambda x: norms.append(x.norm()))
    assert len(norms) == 5 and norms[-1] > 0
    x, istop, iit, *_ = dl.cgls(A, y, niter=50, tol=0, callback=lambda x: len(norms) >= 7
                                or norms.append(None))
    assert iit == 3  # the third call found 7 entries and said True


def test_show_prints_the_progress_table_on_rank_zero(comm, capfd):
    A, dense, y, _ = problem(comm, np.float64)
    dl.cgls(A, y, niter=3, tol=0, show=True, itershow=(1, 1, 1))
    out = capfd.readouterr().out
    if comm.rank == 0:
        assert "CGLS" in out.upper() and "r1norm" in out
    else:
        assert out == ""


def test_solvers_release_the_gil(comm):
    A, dense, y, _ = problem(comm, np.float64, rows=100, cols=100)
    done = threading.Event()
    counts = [0]

    def spin():
        while not done.is_set():
            counts[0] += 1
            time.sleep(0.0002)

    thread = threading.Thread(target=spin)
    thread.start()
    try:
        before = counts[0]
        calls = 10  # the same on every rank: the solves are collective
        for _ in range(calls):
            dl.cgls(A, y, niter=2000, tol=0)
        during = counts[0] - before
    finally:
        done.set()
        thread.join()
    # With the GIL held during the solves the thread could count at most once or twice per call
    # (between them); released, it counts every 0.2 ms or so while they run (10 ms or more
    # each).
    assert during > 3 * calls + 20


def test_bad_solver_input_raises_on_every_rank(comm):
    A, dense, y, _ = problem(comm, np.float64)
    with pytest.raises(ValueError, match="damp"):
        dl.cgls(A, y, damp=-1.0)
    with pytest.raises(ValueError):
        dl.cgls(A, dl.DistributedArray(3), niter=2)
    with pytest.raises(ValueError, match="threshkind"):
        dl.fista(A, y, threshkind="soft-ish")
