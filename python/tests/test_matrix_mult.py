# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The SUMMA MPIMatrixMult against the dense product of the global matrices on a square grid
(1 and 4 ranks, edge tiles smaller), and its refusal of other rank counts on every rank."""
import math

import numpy as np
import pytest
from conftest import DTYPES, random_array, tolerance

import distlops as dl


def tile(matrix, g, c, p):
    """Tile (g, c) of a matrix cut into ceil(n / p) rows and columns."""
    rows, cols = math.ceil(matrix.shape[0] / p), math.ceil(matrix.shape[1] / p)
    return matrix[g * rows:(g + 1) * rows, c * cols:(c + 1) * cols]


def flat_tiles(matrix, p):
    return np.concatenate([tile(matrix, r // p, r % p, p).ravel() for r in range(p * p)])


@pytest.mark.parametrize("dtype", DTYPES)
def test_summa_matches_the_dense_product(comm, dtype):
    p = math.isqrt(comm.size)
    N, K, M = 7, 5, 3
    A = random_array((N, K), dtype, 150)
    if p * p != comm.size:
        with pytest.raises(ValueError, match="square"):
            dl.MPIMatrixMult(tile(A, 0, 0, 1), M, dtype=dtype)
        return
    X = random_array((K, M), dtype, 151)
    g, c = comm.rank // p, comm.rank % p
    Op = dl.MPIMatrixMult(tile(A, g, c, p), M, dtype=dtype)
    sizes = [tile(X, r // p, r % p, p).size for r in range(comm.size)]
    x = dl.DistributedArray.to_dist(flat_tiles(X, p), local_shapes=[(s,) for s in sizes])
    y = Op.matvec(x).asarray()
    rtol = tolerance(dtype) * 10
    np.testing.assert_allclose(y, flat_tiles(A @ X, p), rtol=rtol, atol=rtol)
    assert dl.dottest(Op)
