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


def _steps(solver, x, n):
    """The iterates of n steps taken by hand (global copies)."""
    iterates = []
    for _ in range(n):
        x = solver.step(x)
        x = x[0] if isinstance(x, tuple) else x
        iterates.append(x.asarray().copy())
    return x, iterates


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_class_solvers_step_as_their_functions_solve(comm, dtype):
    # The same iterates stepped by hand, run, and solved by the function forms; the model
    # setup returned stays the solver's iterate, valid after finalize.
    A, dense, y, y_global = problem(comm, dtype)
    N, Ny = A.H @ A, A.H @ y
    alpha = 1.0 / np.linalg.norm(dense, 2) ** 2
    cases = [(dl.CG, N, Ny, {"tol": 0}, lambda: dl.cg(N, Ny, niter=4, tol=0)),
             (dl.CGLS, A, y, {"damp": 0.3, "tol": 0},
              lambda: dl.cgls(A, y, niter=4, damp=0.3, tol=0)),
             (dl.LSQR, A, y, {"damp": 0.3}, lambda: dl.lsqr(A, y, niter=4, damp=0.3)),
             (dl.ISTA, A, y, {"eps": 0.2, "alpha": alpha, "tol": 0},
              lambda: dl.ista(A, y, niter=4, eps=0.2, alpha=alpha, tol=0)),
             (dl.FISTA, A, y, {"eps": 0.2, "alpha": alpha, "tol": 0},
              lambda: dl.fista(A, y, niter=4, eps=0.2, alpha=alpha, tol=0))]
    for cls, op, data, options, function in cases:
        reference = function()
        solver = cls(op)
        x = solver.setup(data, niter=4, **options)
        x, iterates = _steps(solver, x, 2)
        x = solver.run(x)
        assert solver.iiter == 4 and solver._solver.finished
        solver.finalize()
        np.testing.assert_allclose(x.asarray(), reference[0].asarray(), rtol=1e-13, atol=1e-14)
        np.testing.assert_allclose(solver.cost, reference[-1], rtol=1e-13)
        again = cls(op)
        solved = again.solve(data, niter=4, **options)
        np.testing.assert_allclose(solved[0].asarray(), x.asarray(), rtol=1e-13, atol=1e-14)
        assert not np.allclose(iterates[0], iterates[1])
        with pytest.raises(ValueError):
            solver.step(x)


def test_class_solver_callbacks_and_bad_use(comm):
    A, dense, y, _ = problem(comm, np.float64)
    seen, events = [], []

    class Recorder:
        def __getattr__(self, name):
            return lambda solver, x: events.append(name)

    solver = dl.CGLS(A, callbacks=[Recorder()])
    solver.callback = lambda x: seen.append(x.asarray().copy())
    x = solver.setup(y, niter=3, tol=0)
    x = solver.run(x)
    solver.finalize()
    assert len(seen) == 3
    np.testing.assert_allclose(seen[-1], x.asarray(), rtol=1e-15)
    assert events == ["on_setup_begin", "on_setup_end", "on_run_begin"] + \
        ["on_step_begin", "on_step_end"] * 3 + ["on_run_end"]
    # A callback that returns True stops the run.
    stopper = dl.CG(A.H @ A)
    stopper.callback = lambda x: stopper.iiter >= 2
    x, iit, cost = stopper.solve(A.H @ y, niter=10, tol=0)
    assert iit == 2 and len(cost) == 3
    other = dl.CG(A.H @ A)
    xo = other.setup(A.H @ y, niter=3)
    with pytest.raises(ValueError, match="setup"):
        other.step(xo.copy())
    with pytest.raises(ValueError, match="exceeds"):
        other.run(xo, niter=4)
    with pytest.raises(ValueError, match="niter"):
        dl.CG(A.H @ A).setup(A.H @ y)


def test_ista_monitorres_and_sop(comm):
    A, dense, y, y_global = problem(comm, np.float64, rows=8, cols=5)
    # A step far beyond 2 / lambda_max makes the residual grow at once: the second step
    # (the first to start from a larger residual) raises, as PyLops-MPI.
    alpha = 10.0 / np.linalg.norm(dense, 2) ** 2
    for cls in (dl.ISTA, dl.FISTA):
        solver = cls(A)
        x = solver.setup(y, niter=10, eps=0.1, alpha=alpha, tol=0, monitorres=True)
        x, _ = solver.step(x)
        with pytest.raises(ValueError, match="stopped at iteration 1 due to residual"):
            solver.step(x)
    # Analysis form with SOp = -I (orthogonal): the thresholded coefficients of -x, mapped back,
    # are the synthesis iterates of soft thresholding, which is odd.
    sop = -1.0 * dl.MPIBlockDiag([dl.MatrixMult(np.eye(5))])
    alpha = 1.0 / np.linalg.norm(dense, 2) ** 2
    plain = dl.fista(A, y, niter=5, eps=0.3, alpha=alpha, tol=0)
    analysis = dl.fista(A, y, niter=5, SOp=sop, eps=0.3, alpha=alpha, tol=0)
    np.testing.assert_allclose(analysis[0].asarray(), plain[0].asarray(), rtol=1e-13)
