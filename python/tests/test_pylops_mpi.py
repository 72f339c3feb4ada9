# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The same problems through PyLops-MPI (from PyPI, pinned by tests/porting/compare_poststack.py)
and through distlops, in the same run: operators, CGLS with damping and FISTA agree to
rounding; a distlops operator runs inside PyLops-MPI's own solvers."""
import numpy as np
import pytest
from conftest import random_array

import distlops as dl

pylops = pytest.importorskip("pylops")
pylops_mpi = pytest.importorskip("pylops_mpi")
from distlops.pylops_mpi_interop import from_pylops_mpi, to_pylops_mpi  # noqa: E402

RTOL = 1e-12


def their_array(global_values, local_sizes=None, partition=None):
    """A flat PyLops-MPI array holding this rank's part of `global_values`."""
    kwargs = {} if partition is None else {"partition": partition}
    x = pylops_mpi.DistributedArray(global_shape=global_values.size,
                                    local_shapes=None if local_sizes is None else
                                    [(n,) for n in local_sizes], dtype=global_values.dtype,
                                    **kwargs)
    if x.partition == pylops_mpi.Partition.SCATTER:
        start = sum(s[0] for s in x.local_shapes[:x.rank])
        x[:] = global_values[start:start + x.local_shape[0]]
    else:
        x[:] = global_values
    return x


def blocks(comm, rows, cols, seed):
    return random_array((rows + comm.rank % 2, cols), np.float64, seed + comm.rank) + \
        2 * np.eye(rows + comm.rank % 2, cols)


def test_block_diag_vstack_hstack_agree(comm):
    m = blocks(comm, 5, 4, 70)
    x = random_array(4 * comm.size, np.float64, 1)
    for ours, theirs, xs in [
            (dl.MPIBlockDiag([pylops.MatrixMult(m)]), pylops_mpi.MPIBlockDiag([pylops.MatrixMult(m)]),
             their_array(x, [4] * comm.size)),
            (dl.MPIVStack([pylops.MatrixMult(m)]), pylops_mpi.MPIVStack([pylops.MatrixMult(m)]),
             their_array(x[:4], partition=pylops_mpi.Partition.BROADCAST))]:
        assert ours.shape == theirs.shape
        expected = theirs.matvec(xs).asarray()
        np.testing.assert_allclose(ours.matvec(from_pylops_mpi(xs)).asarray(), expected,
                                   rtol=RTOL)
        ys = their_array(random_array(ours.shape[0], np.float64, 2),
                         [n for n in comm.allgather(m.shape[0])])
        np.testing.assert_allclose(ours.rmatvec(from_pylops_mpi(ys)).asarray(),
                                   theirs.rmatvec(ys).asarray(), rtol=RTOL)
    ours = dl.MPIHStack([pylops.MatrixMult(m.T)])
    theirs = pylops_mpi.MPIHStack([pylops.MatrixMult(m.T)])
    ys = their_array(random_array(ours.shape[1], np.float64, 3), comm.allgather(m.shape[0]))
    np.testing.assert_allclose(ours.matvec(from_pylops_mpi(ys)).asarray(),
                               theirs.matvec(ys).asarray(), rtol=RTOL)


@pytest.mark.parametrize("kind", ["centered", "forward", "backward"])
def test_derivatives_agree(comm, kind):
    dims = (11, 6)
    g = random_array(dims, np.float64, 4)
    for ours, theirs in [
            (dl.MPIFirstDerivative(dims, sampling=0.5, kind=kind, edge=True),
             pylops_mpi.MPIFirstDerivative(dims, sampling=0.5, kind=kind, edge=True)),
            (dl.MPISecondDerivative(dims, sampling=2.0, kind=kind),
             pylops_mpi.MPISecondDerivative(dims, sampling=2.0, kind=kind)),
            (dl.MPILaplacian(dims, weights=(1, 3)), pylops_mpi.MPILaplacian(dims, weights=(1, 3)))]:
        sizes = comm.allgather(ours.domain_zeros().local_array.size)
        xs = their_array(g.ravel(), sizes)
        np.testing.assert_allclose(ours.matvec(from_pylops_mpi(xs)).asarray().ravel(),
                                   theirs.matvec(xs).asarray(), rtol=RTOL, atol=RTOL)
        np.testing.assert_allclose(ours.rmatvec(from_pylops_mpi(xs)).asarray().ravel(),
                                   theirs.rmatvec(xs).asarray(), rtol=RTOL, atol=RTOL)


@pytest.mark.parametrize("damp", [0.0, 0.3])
def test_cgls_with_damping_agrees(comm, damp):
    m = blocks(comm, 6, 4, 80)
    ours = dl.MPIBlockDiag([pylops.MatrixMult(m)])
    theirs = pylops_mpi.MPIBlockDiag([pylops.MatrixMult(m)])
    ys = their_array(random_array(ours.shape[0], np.float64, 5), comm.allgather(m.shape[0]))
    x0 = their_array(np.zeros(ours.shape[1]), [4] * comm.size)
    reference = pylops_mpi.cgls(theirs, ys, x0=x0, niter=8, damp=damp, tol=0)
    x, istop, iit, r1norm, r2norm, cost = dl.cgls(ours, from_pylops_mpi(ys), niter=8, damp=damp,
                                                  tol=0)
    np.testing.assert_allclose(x.asarray(), reference[0].asarray(), rtol=1e-10)
    np.testing.assert_allclose(cost, reference[5], rtol=1e-10)
    assert iit == reference[2]


def test_fista_agrees(comm):
    m = blocks(comm, 7, 5, 90)
    ours = dl.MPIBlockDiag([pylops.MatrixMult(m)])
    theirs = pylops_mpi.MPIBlockDiag([pylops.MatrixMult(m)])
    ys = their_array(random_array(ours.shape[0], np.float64, 6), comm.allgather(m.shape[0]))
    alpha = 1.0 / max(comm.allgather(np.linalg.norm(m, 2) ** 2))
    x0 = their_array(np.zeros(ours.shape[1]), [5] * comm.size)
    reference = pylops_mpi.optimization.sparsity.fista(theirs, ys, x0=x0, niter=15, eps=0.4,
                                                       alpha=alpha, tol=0)
    x, niter, cost = dl.fista(ours, from_pylops_mpi(ys), niter=15, eps=0.4, alpha=alpha, tol=0)
    np.testing.assert_allclose(x.asarray(), reference[0].asarray(), rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(cost, reference[2], rtol=1e-10)


def test_distlops_operator_inside_pylops_mpi_solvers(comm):
    dims = (9, 4)
    ours = 2.0 * dl.MPIFirstDerivative(dims) + dl.MPISecondDerivative(dims, axis=1)
    theirs = to_pylops_mpi(ours)
    assert isinstance(theirs, pylops_mpi.MPILinearOperator) and theirs.shape == ours.shape
    sizes = comm.allgather(ours.domain_zeros().local_array.size)
    ys = their_array(random_array(ours.shape[0], np.float64, 7), sizes)
    x0 = their_array(np.zeros(ours.shape[1]), sizes)
    reference = pylops_mpi.cgls(theirs, ys, x0=x0, niter=6, tol=0)
    x, istop, iit, r1norm, r2norm, cost = dl.cgls(ours, from_pylops_mpi(ys), niter=6, tol=0)
    np.testing.assert_allclose(reference[0].asarray(), x.asarray().ravel(), rtol=1e-10)
    # PyLops-MPI's own algebra on the wrapped operator.
    both = theirs.H @ theirs
    np.testing.assert_allclose(both.matvec(ys).asarray(),
                               ours.rmatvec(ours.matvec(from_pylops_mpi(ys))).asarray().ravel(),
                               rtol=1e-12)
