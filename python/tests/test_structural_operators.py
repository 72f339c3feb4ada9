# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Zero, Scaling, Transpose, Pad, Restriction and Convolve1D as the blocks of a BlockDiag (one
per rank, each rank its own parameters) against PyLops' serial operators applied block by
block, with dot tests, at any rank count; Reshape of a flat BlockDiag onto a derivative's
grid; stacked operators of stacked operators (nested stacks) against PyLops-MPI."""
import numpy as np
import pylops
import pytest
import scipy.linalg
from conftest import DTYPES, random_array, tolerance

import distlops as dl

DIMS = (3, 4)


def blocks(comm, dtype):
    """Per rank: (distlops local operator, PyLops operator), with parameters that differ over
    the ranks."""
    r = comm.rank
    iava = np.array([3, 0, 0, 2][: 1 + r % 4])
    h = random_array(3, dtype, 120)
    return [
        (dl.Zero(5 + r, 4, dtype=dtype), pylops.Zero(5 + r, 4, dtype=dtype)),
        (dl.Scaling(DIMS, 1.5 - r, dtype=dtype),
         pylops.Identity(12, dtype=dtype) * (1.5 - r)),
        (dl.Transpose((2, 3, 1 + r), (2, 0, 1), dtype=dtype),
         pylops.Transpose((2, 3, 1 + r), (2, 0, 1), dtype=dtype)),
        (dl.Pad(DIMS, ((r, 1), (0, 2)), dtype=dtype),
         pylops.Pad(DIMS, ((r, 1), (0, 2)), dtype=dtype)),
        (dl.Restriction(DIMS, iava, axis=-1, dtype=dtype),
         pylops.Restriction(DIMS, iava, axis=-1, dtype=dtype)),
        (dl.Convolve1D((3, 4 + r), h, offset=1, axis=-1, dtype=dtype),
         pylops.signalprocessing.Convolve1D((3, 4 + r), h, offset=1, axis=-1, dtype=dtype)),
    ]


@pytest.mark.parametrize("dtype", DTYPES)
def test_blocks_match_pylops(comm, dtype):
    for index in range(6):
        ours, theirs = blocks(comm, dtype)[index]
        A = dl.MPIBlockDiag([ours])
        rows, cols = ours.shape
        col_counts = comm.allgather(cols)
        x_global = random_array(sum(col_counts), dtype, 70 + index)
        start = sum(col_counts[: comm.rank])
        x = dl.DistributedArray.to_dist(x_global, local_shapes=[(c,) for c in col_counts])
        expected = np.concatenate(comm.allgather(theirs @ x_global[start:start + cols]))
        y = A.matvec(x).asarray().ravel()
        np.testing.assert_allclose(y, expected, rtol=tolerance(dtype), atol=tolerance(dtype))
        assert dl.dottest(A), f"block {index}"


def test_bad_parameters_raise(comm):
    with pytest.raises(ValueError):
        dl.Transpose((2, 3), (0, 0))
    with pytest.raises(ValueError):
        dl.Restriction(DIMS, [0, 7], axis=-1)
    with pytest.raises(ValueError):
        dl.Pad(DIMS, ((-1, 0), (0, 0)))


def centered_difference(n):
    """PyLops' centered first derivative without edges as a dense matrix."""
    d = np.zeros((n, n))
    for i in range(1, n - 1):
        d[i, i - 1], d[i, i + 1] = -0.5, 0.5
    return d


@pytest.mark.parametrize("dtype", DTYPES)
def test_reshape_lets_a_flat_blockdiag_add_to_a_derivative(comm, dtype):
    ncols, rows = 4, 2 * comm.size + 1
    counts = [rows // comm.size + (r < rows % comm.size) for r in range(comm.size)]
    mats = [random_array((c * ncols, c * ncols), dtype, 100 + r) for r, c in enumerate(counts)]
    B = dl.MPIBlockDiag([dl.MatrixMult(mats[comm.rank])])
    D = dl.MPIFirstDerivative((rows, ncols), dtype=dtype)
    S = dl.Reshape(B, (rows, ncols), (rows, ncols)) + D
    m = random_array((rows, ncols), dtype, 110)
    expected = scipy.linalg.block_diag(*mats) @ m.ravel() + \
        np.kron(centered_difference(rows), np.eye(ncols)) @ m.ravel()
    y = S.matvec(dl.DistributedArray.to_dist(m)).asarray().ravel()
    np.testing.assert_allclose(y, expected, rtol=tolerance(dtype) * 10,
                               atol=tolerance(dtype) * 10)
    assert dl.dottest(S)
    with pytest.raises(ValueError, match="cannot be split"):
        dl.Reshape(B, (rows + 1, ncols), (rows, ncols))


@pytest.mark.parametrize("dtype", DTYPES)
def test_halo_extends_each_block_by_its_neighbours_rows(comm, dtype):
    dims, width = (7, 3), 1
    counts = [dims[0] // comm.size + (r < dims[0] % comm.size) for r in range(comm.size)]
    starts = np.concatenate([[0], np.cumsum(counts)])
    H = dl.MPIHalo(dims, width, proc_grid_shape=(comm.size, 1), dtype=dtype)
    m = random_array(dims, dtype, 140)
    x = dl.DistributedArray.to_dist(m.ravel(), local_shapes=[(c * dims[1],) for c in counts])
    expected = np.concatenate([
        m[max(0, starts[r] - width):min(dims[0], starts[r + 1] + width)].ravel()
        for r in range(comm.size)])
    np.testing.assert_allclose(H.matvec(x).asarray().ravel(), expected, rtol=0, atol=0)
    assert dl.dottest(H)
    with pytest.raises(ValueError, match="one per side"):
        dl.MPIHalo(dims, (1, 1, 1), dtype=dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_replicated_applies_a_local_operator_to_every_replica(comm, dtype):
    W = random_array((5, 3), dtype, 180)
    R = dl.asmpilinearoperator(dl.MatrixMult(W))
    m = random_array(3, dtype, 181)
    y = R.matvec(dl.DistributedArray.to_dist(m, partition=dl.Partition.BROADCAST))
    np.testing.assert_allclose(y.local_array, W @ m, rtol=tolerance(dtype) * 10)
    assert y.partition == dl.Partition.BROADCAST
    assert dl.dottest(R)
    with pytest.raises(ValueError, match="BROADCAST"):
        dl.asmpilinearoperator(dl.MatrixMult(W), partition=dl.Partition.SCATTER)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_stacked_operators_take_flat_stacks_and_other_nestings_raise(comm, dtype):
    W1, W2 = random_array((4, 3), dtype, 190 + comm.rank), random_array((2, 3), dtype, 195)
    A1, A2 = dl.MPIBlockDiag([dl.MatrixMult(W1)]), dl.MPIBlockDiag([dl.MatrixMult(W2)])
    V = dl.MPIStackedVStack([A1, A2])
    m = random_array(3 * comm.size, dtype, 191)
    x = dl.DistributedArray.to_dist(m, local_shapes=[(3,)] * comm.size)
    dense1 = scipy.linalg.block_diag(*comm.allgather(W1))
    dense2 = scipy.linalg.block_diag(*([W2] * comm.size))
    y = V.matvec(x)
    np.testing.assert_allclose(y.asarray(), np.concatenate([dense1 @ m, dense2 @ m]),
                               rtol=tolerance(dtype) * 10)
    # Blocks whose shared side differs in kind (a stacked model beside a plain one) or layout.
    with pytest.raises(ValueError, match="operator 1"):
        dl.MPIStackedVStack([A1, dl.MPIStackedBlockDiag([A1])])
    with pytest.raises(ValueError, match="operator 1"):
        dl.MPIStackedHStack([A1, V])
    with pytest.raises(TypeError):
        dl.MPIStackedVStack([A1, dl.MatrixMult(W1)])
    # A nested stack with the same elements as V's range is another vector: every rank raises.
    nested = dl.StackedDistributedArray([dl.StackedDistributedArray([y[0]]), y[1]])
    with pytest.raises(ValueError):
        V.rmatvec(nested)
    with pytest.raises(ValueError):
        dl.cgls(V, nested, niter=2)


def their_copy(pylops_mpi, comm, ours):
    """A PyLops-MPI copy of a distlops (nested) stack or SCATTER array, flat as PyLops-MPI's
    operators take them: each rank's part in its local order."""
    if isinstance(ours, dl.StackedDistributedArray):
        return pylops_mpi.StackedDistributedArray(
            [their_copy(pylops_mpi, comm, ours[i]) for i in range(ours.narrays)])
    sizes = comm.allgather(ours.local_array.size)
    theirs = pylops_mpi.DistributedArray(global_shape=sum(sizes), base_comm=comm,
                                         local_shapes=[(n,) for n in sizes], dtype=ours.dtype)
    theirs[:] = ours.local_array.ravel()
    return theirs


def regularised_problems(comm, dtype, pylops_mpi):
    """[A; eps G] over a (2P + 1, 4) grid split along axis 0, A block diagonal (one tall block
    per rank), G the gradient, in distlops and in PyLops-MPI."""
    dims, eps = (2 * comm.size + 1, 4), 0.5
    n = dims[0] // comm.size + (comm.rank < dims[0] % comm.size)
    W = random_array((n + 1, n), dtype, 300 + comm.rank) + 2 * np.eye(n + 1, n)
    ours_a = dl.MPIBlockDiag([dl.MatrixMult(W, otherdims=(4,))])
    theirs_a = pylops_mpi.MPIBlockDiag([pylops.MatrixMult(W, otherdims=(4,), dtype=dtype)])
    ours_g = dl.MPIGradient(dims, dtype=dtype)
    theirs_g = pylops_mpi.MPIGradient(dims, dtype=dtype)
    ours = dl.MPIStackedVStack([ours_a, eps * ours_g])
    theirs = pylops_mpi.MPIStackedVStack([theirs_a, eps * theirs_g])
    return dims, (ours_a, ours_g, ours), (theirs_a, theirs_g, theirs)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_nested_stacks_match_pylops_mpi(comm, dtype):
    pylops_mpi = pytest.importorskip("pylops_mpi")
    rtol = tolerance(dtype) * 10
    dims, (ours_a, ours_g, ours), (theirs_a, theirs_g, theirs) = \
        regularised_problems(comm, dtype, pylops_mpi)
    x = dl.DistributedArray.to_dist(random_array(dims, dtype, 310))
    their_x = their_copy(pylops_mpi, comm, x)

    # [A; eps G]: the gradient's stack nests in the data.
    y = ours.matvec(x)
    assert y.narrays == 2 and isinstance(y[1], dl.StackedDistributedArray) and y[1].narrays == 2
    np.testing.assert_allclose(y.asarray(), theirs.matvec(their_x).asarray(), rtol=rtol)
    z = ours.range_zeros()
    for i, item in enumerate((z[0], z[1][0], z[1][1])):
        item.local_array[...] = random_array(item.local_array.shape, dtype,
                                             311 + 10 * i + comm.rank)
    np.testing.assert_allclose(ours.rmatvec(z).asarray().ravel(),
                               theirs.rmatvec(their_copy(pylops_mpi, comm, z)).asarray(),
                               rtol=rtol)
    assert dl.dottest(ours)

    # Block diagonal with a nested block, and a vertical stack of a stacked operator.
    diag = dl.MPIStackedBlockDiag([ours_a, ours])
    their_diag = pylops_mpi.MPIStackedBlockDiag([theirs_a, theirs])
    xs = dl.StackedDistributedArray([x, 2 * x])
    np.testing.assert_allclose(diag.matvec(xs).asarray(),
                               their_diag.matvec(their_copy(pylops_mpi, comm, xs)).asarray(),
                               rtol=rtol)
    ys = diag.matvec(xs)
    np.testing.assert_allclose(diag.rmatvec(ys).asarray(),
                               their_diag.rmatvec(their_copy(pylops_mpi, comm, ys)).asarray(),
                               rtol=rtol)
    assert dl.dottest(diag)
    twice = dl.MPIStackedVStack([ours, ours_g])
    their_twice = pylops_mpi.MPIStackedVStack([theirs, theirs_g])
    np.testing.assert_allclose(twice.matvec(x).asarray(), their_twice.matvec(their_x).asarray(),
                               rtol=rtol)
    assert dl.dottest(twice)

    # Horizontal stack with a nested model item: [A, eps G]^H's blocks summed into one model.
    wide = dl.MPIStackedHStack([ours.H, ours_a.H])
    zs = dl.StackedDistributedArray([z, z[0]])
    expected = theirs.rmatvec(their_copy(pylops_mpi, comm, z)).asarray() + \
        theirs_a.rmatvec(their_copy(pylops_mpi, comm, z[0])).asarray()
    np.testing.assert_allclose(wide.matvec(zs).asarray().ravel(), expected, rtol=rtol)
    assert dl.dottest(wide)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_cgls_on_a_regularised_nested_stack_matches_pylops_mpi(comm, dtype):
    pylops_mpi = pytest.importorskip("pylops_mpi")
    dims, (ours_a, _, ours), (_, _, theirs) = regularised_problems(comm, dtype, pylops_mpi)
    # Data [A x_true; 0]: a plain item and the gradient's nested stack of zeros.
    y = ours.range_zeros()
    y[0] = ours_a.matvec(dl.DistributedArray.to_dist(random_array(dims, dtype, 320)))
    x0 = ours.domain_zeros()
    reference = pylops_mpi.cgls(theirs, their_copy(pylops_mpi, comm, y),
                                x0=their_copy(pylops_mpi, comm, x0), niter=10, tol=0)
    x, istop, iiter, r1norm, r2norm, cost = dl.cgls(ours, y, x0=x0, niter=10, tol=0)
    np.testing.assert_allclose(x.asarray().ravel(), reference[0].asarray(), rtol=1e-9,
                               atol=1e-12)
    np.testing.assert_allclose(cost, reference[5], rtol=1e-9)
    assert iiter == reference[2]
