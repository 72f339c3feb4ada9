# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Operators against dense or serial PyLops references built from the global problem, their
algebra, dot tests and Python callables as local operators."""
import numpy as np
import pylops
import pytest
import scipy.linalg
from conftest import DTYPES, random_array, tolerance

import distlops as dl
from distlops import _distlops as ext
from distlops import Partition


def local_matrix(comm, rows, cols, dtype, seed):
    """This rank's matrix and every rank's, for the dense reference."""
    mine = random_array((rows[comm.rank], cols[comm.rank]), dtype, seed + comm.rank)
    return mine, comm.allgather(mine)


def block_sizes(comm, base):
    """Uneven block sizes; the last of several ranks gets no block."""
    sizes = [base + r % 3 for r in range(comm.size)]
    if comm.size > 1:
        sizes[-1] = 0
    return sizes


def apply_global(op, x_global, local_shapes=None, partition=Partition.SCATTER):
    x = dl.DistributedArray.to_dist(x_global, partition=partition, local_shapes=local_shapes)
    return op.matvec(x).asarray()


def domain_like(op, values):
    """A domain array of op holding the global `values` (every rank passes all of them)."""
    x = op.domain_zeros()
    start = sum(x.base_comm.allgather(x.local_array.size)[:x.rank])
    if x.partition == Partition.SCATTER:
        x.local_array[...] = values.ravel()[start:start + x.local_array.size].reshape(
            x.local_array.shape)
    else:
        x.local_array[...] = values.reshape(x.local_array.shape)
    return x


@pytest.mark.parametrize("dtype", DTYPES)
def test_block_diag_against_dense(comm, dtype):
    rows, cols = block_sizes(comm, 4), block_sizes(comm, 3)
    mine, all_blocks = local_matrix(comm, rows, cols, dtype, 10)
    A = dl.MPIBlockDiag([dl.MatrixMult(mine)])
    dense = scipy.linalg.block_diag(*all_blocks).astype(np.complex128)
    assert A.shape == dense.shape
    x = random_array(dense.shape[1], dtype, 1)
    y = random_array(dense.shape[0], dtype, 2)
    rtol = tolerance(dtype) * 10
    np.testing.assert_allclose(A.matvec(domain_like(A, x)).asarray(), dense @ x, rtol=rtol)
    np.testing.assert_allclose(A.rmatvec(domain_like(A.H, y)).asarray(), dense.conj().T @ y,
                               rtol=rtol)
    assert dl.dottest(A)


@pytest.mark.parametrize("dtype", DTYPES)
def test_vstack_and_hstack_against_dense(comm, dtype):
    rows = block_sizes(comm, 3)
    mine, all_blocks = local_matrix(comm, rows, [5] * comm.size, dtype, 20)
    V = dl.MPIVStack([dl.MatrixMult(mine)])
    H = dl.MPIHStack([dl.MatrixMult(mine.conj().T)])
    dense = np.vstack(all_blocks)
    x = random_array(5, dtype, 3)
    y = random_array(dense.shape[0], dtype, 4)
    rtol = tolerance(dtype) * 10
    np.testing.assert_allclose(V.matvec(domain_like(V, x)).asarray(), dense @ x, rtol=rtol)
    np.testing.assert_allclose(V.rmatvec(domain_like(V.H, y)).asarray(), dense.conj().T @ y,
                               rtol=rtol)
    np.testing.assert_allclose(H.matvec(domain_like(H, y)).asarray(), dense.conj().T @ y,
                               rtol=rtol)
    assert dl.dottest(V) and dl.dottest(H)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("kind", ["centered", "forward", "backward"])
def test_derivatives_against_serial_pylops(comm, dtype, kind):
    dims = (9, 4)
    g = random_array(dims, dtype, 5)
    rtol = tolerance(dtype) * 10
    for axis in (0, 1):
        D = dl.MPIFirstDerivative(dims, sampling=0.5, kind=kind, edge=True, axis=axis, dtype=dtype)
        ref = pylops.FirstDerivative(dims, axis=axis, sampling=0.5, kind=kind, edge=True,
                                     dtype=dtype)
        np.testing.assert_allclose(D.matvec(domain_like(D, g)).asarray().ravel(),
                                   ref @ g.ravel(), rtol=rtol, atol=rtol)
        np.testing.assert_allclose(D.rmatvec(domain_like(D, g)).asarray().ravel(),
                                   ref.H @ g.ravel(), rtol=rtol, atol=rtol)
        assert dl.dottest(D)
    if kind == "centered":
        S = dl.MPISecondDerivative(dims, sampling=2.0, dtype=dtype)
        ref = pylops.SecondDerivative(dims, axis=0, sampling=2.0, dtype=dtype)
        np.testing.assert_allclose(S.matvec(domain_like(S, g)).asarray().ravel(),
                                   ref @ g.ravel(), rtol=rtol, atol=rtol)
        L = dl.MPILaplacian(dims, weights=(1, 2), dtype=dtype)
        ref = pylops.Laplacian(dims, weights=(1, 2), dtype=dtype)
        np.testing.assert_allclose(L.matvec(domain_like(L, g)).asarray().ravel(),
                                   ref @ g.ravel(), rtol=rtol, atol=rtol)
        G = dl.MPIGradient(dims, dtype=dtype)
        ref = pylops.Gradient(dims, dtype=dtype)
        np.testing.assert_allclose(G.matvec(domain_like(G, g)).asarray(), ref @ g.ravel(),
                                   rtol=rtol, atol=rtol)
        assert dl.dottest(S) and dl.dottest(L) and dl.dottest(G)


@pytest.mark.parametrize("dtype", DTYPES)
def test_algebra_against_dense(comm, dtype):
    rows, cols = block_sizes(comm, 3), block_sizes(comm, 3)
    a, all_a = local_matrix(comm, rows, cols, dtype, 30)
    b, all_b = local_matrix(comm, rows, cols, dtype, 40)
    A = dl.MPIBlockDiag([dl.MatrixMult(a)])
    B = dl.MPIBlockDiag([dl.MatrixMult(b)])
    Ad = scipy.linalg.block_diag(*all_a)
    Bd = scipy.linalg.block_diag(*all_b)
    x = random_array(Ad.shape[1], dtype, 6)
    s = 2.5 if np.isrealobj(x) else 2.5 - 1j
    rtol = tolerance(dtype) * 100
    cases = [(A + B, Ad + Bd), (A - B, Ad - Bd), (s * A, s * Ad), (A * s, s * Ad),
             (-A, -Ad), (A.H, Ad.conj().T), (A.T, Ad.T), (A.conj(), Ad.conj()),
             (A.H * B, Ad.conj().T @ Bd), (A.H @ B + 2 * A, Ad.conj().T @ Bd + 2 * Ad),
             (A / 2, Ad / 2)]
    for op, dense in cases:
        np.testing.assert_allclose(op.matvec(domain_like(op, x)).asarray(), dense @ x, rtol=rtol,
                                   atol=rtol)
        np.testing.assert_allclose((op @ domain_like(op, x)).asarray(), dense @ x, rtol=rtol,
                                   atol=rtol)
        assert dl.dottest(op)


@pytest.mark.parametrize("dtype", DTYPES)
def test_python_callables_and_serial_pylops_inside_block_diag(comm, dtype):
    rows, cols = block_sizes(comm, 4), block_sizes(comm, 2)
    m, all_m = local_matrix(comm, rows, cols, dtype, 50)
    dense = scipy.linalg.block_diag(*all_m)
    x = random_array(dense.shape[1], dtype, 7)
    rtol = tolerance(dtype) * 10
    calls = []

    def forward(v):
        calls.append(v.shape)
        return m @ v

    F = dl.MPIBlockDiag([dl.FunctionOperator(forward, lambda w: m.conj().T @ w, cols[comm.rank],
                                             rows[comm.rank], dtype=dtype)])
    P = dl.MPIBlockDiag([pylops.MatrixMult(m, dtype=dtype)], dtype=dtype)
    for op in (F, P):
        np.testing.assert_allclose(op.matvec(domain_like(op, x)).asarray(), dense @ x, rtol=rtol)
        assert dl.dottest(op)
    assert calls and calls[0] == (cols[comm.rank],)


def test_function_operator_of_wrong_size_raises(comm):
    bad = dl.MPIBlockDiag([dl.FunctionOperator(lambda v: np.zeros(2), lambda w: np.zeros(3),
                                               3, 4)])
    with pytest.raises(ValueError, match="returned 2 values"):
        bad.matvec(bad.domain_zeros())


@pytest.mark.parametrize("stack", ["blockdiag", "vstack", "cgls"])
def test_python_callable_failing_on_one_rank_raises_on_every_rank(comm, stack):
    # The last rank's function fails; the other ranks must raise too instead of waiting in the
    # norm or the solver's reductions that follow.
    def forward(v):
        if comm.rank == comm.size - 1:
            raise ZeroDivisionError("the user's function failed")
        return 2 * v

    F = dl.FunctionOperator(forward, lambda w: 2 * w, 3, 3)
    op = dl.MPIVStack([F]) if stack == "vstack" else dl.MPIBlockDiag([F])
    with pytest.raises(dl.Error, match="the user's function failed"):
        if stack == "cgls":
            y = op.range_zeros()
            y.local_array[:] = 1
            dl.cgls(op, y, niter=3)
        else:
            op.matvec(op.domain_zeros()).norm()


@pytest.mark.parametrize("dtype", DTYPES)
def test_halo_of_layout_extends_the_blocks_of_an_uneven_grid(comm, dtype):
    # The last rank holds one plane more than the others (the default split gives it to the
    # first); widths (minus, plus) = (1, 2) along axis 0 and (0, 1) along axis 1, kept at the
    # array's ends as zeros.
    from distlops._arrays import communicator, ext_class
    parts = [3] * (comm.size - 1) + [4]
    dims = (sum(parts), 4)
    layout = ext.Layout(communicator(comm), list(dims), Partition.SCATTER, 0, [], [],
                        [comm.size, 1], [parts, [4]])
    H = dl.MPIHaloOfLayout(layout, [1, 2, 0, 1], dtype=dtype)
    g = random_array(dims, dtype, 60)
    x = dl.DistributedArray._wrap(ext_class("DistributedArray", dtype).from_global(layout, g))
    start = sum(parts[:comm.rank])
    padded = np.pad(g, ((1, 2), (0, 1)))
    expected = padded[start:start + parts[comm.rank] + 3]
    np.testing.assert_array_equal(H.matvec(x).local_array, expected.ravel())
    assert dl.dottest(H)


def test_ranks_in_different_calls_raise_on_every_rank(comm):
    # A program whose ranks left each other's path (an assertion that failed on rank 0 only,
    # PyLops-MPI's tests going on): rank 0 builds the next operator, whose layout it agrees on,
    # while the others apply the last one, whose ghost exchange waits for rank 0. Both raise;
    # before, rank 0 waited in the check's error path and the others in the exchange.
    if comm.size == 1:
        pytest.skip("ranks in different calls need two ranks or more")
    A = dl.MPISecondDerivative((6 * comm.size, 3))
    x = A.domain_zeros()
    with pytest.raises(dl.InvalidArgument, match="different collective calls"):
        if comm.rank == 0:
            dl.MPISecondDerivative((5, 3))
        else:
            A.matvec(x)
    # In step again.
    assert comm.allreduce(1) == comm.size


def test_bad_parameters_raise_on_every_rank(comm):
    with pytest.raises(ValueError, match="kind"):
        dl.MPIFirstDerivative((5, 3), kind="sideways")
    # Blocks of VStack must share their columns: rank 0's has one more (at one rank, its
    # second block), and every rank raises alike.
    cols = 4 if comm.rank == 0 else 3
    blocks = [dl.MatrixMult(np.ones((2, cols)))]
    if comm.size == 1:
        blocks.append(dl.MatrixMult(np.ones((2, 3))))
    with pytest.raises(ValueError, match="VStack"):
        dl.MPIVStack(blocks)
    A = dl.MPIFirstDerivative((6, 2))
    with pytest.raises(dl.ShapeMismatch):
        A.matvec(dl.DistributedArray(11))
