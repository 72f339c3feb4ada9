# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""pytest under mpiexec: every rank runs the same tests in the same order, and a test that
fails on any rank is reported failed on every rank, so that all ranks agree on the outcome and
exit status and none goes on alone into the collectives of the next test."""
import numpy as np
import pytest
from mpi4py import MPI

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when != "call":
        return
    failed_here = bool(report.failed)
    failed_ranks = MPI.COMM_WORLD.allgather(failed_here)
    if any(failed_ranks) and not failed_here:
        report.outcome = "failed"
        ranks = [r for r, failed in enumerate(failed_ranks) if failed]
        report.longrepr = f"failed on rank(s) {ranks}"


@pytest.fixture
def comm():
    return MPI.COMM_WORLD


def tolerance(dtype):
    """Relative tolerance of a comparison with a float64 NumPy reference."""
    return 1e-5 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-12


def random_array(shape, dtype, seed):
    """The same random global array on every rank (a seed every rank shares)."""
    rng = np.random.default_rng(seed)
    values = rng.standard_normal(shape)
    if np.issubdtype(np.dtype(dtype), np.complexfloating):
        values = values + 1j * rng.standard_normal(shape)
    return values.astype(dtype)


def uneven_local_shapes(n, size, rank_without_data=True):
    """A split of n items over size ranks that differs from the default: the last rank owns
    nothing (when there are 2 or more ranks), the first takes the remainder."""
    if size == 1:
        return [(n,)]
    owners = size - 1 if rank_without_data else size
    counts = [n // owners] * owners + [0] * (size - owners)
    counts[0] += n - sum(counts)
    return [(c,) for c in counts]


def blockdiag_problem(comm, dtype, block=3, seed=30):
    """A square, well-conditioned block-diagonal Op (a block per rank), its dense matrix, b and x0
    (distributed and global)."""
    import scipy.linalg

    import distlops as dl

    blocks = [random_array((block, block), dtype, seed + r) + 4 * np.eye(block, dtype=dtype)
              for r in range(comm.size)]
    Op = dl.MPIBlockDiag([dl.MatrixMult(blocks[comm.rank])])
    dense = scipy.linalg.block_diag(*blocks)
    n = dense.shape[0]
    shapes = [(block,)] * comm.size
    bg, x0g = random_array(n, dtype, seed - 1), random_array(n, dtype, seed - 2)
    b = dl.DistributedArray.to_dist(bg, local_shapes=shapes)
    x0 = dl.DistributedArray.to_dist(x0g, local_shapes=shapes)
    return Op, dense, b, bg, x0, x0g
