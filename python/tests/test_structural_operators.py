# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Zero, Scaling, Transpose, Pad and Restriction as the blocks of a BlockDiag (one per rank,
each rank its own parameters) against PyLops' serial operators applied block by block, with
dot tests, at any rank count."""
import numpy as np
import pylops
import pytest
from conftest import DTYPES, random_array, tolerance

import distlops as dl

DIMS = (3, 4)


def blocks(comm, dtype):
    """Per rank: (distlops local operator, PyLops operator), with parameters that differ over
    the ranks."""
    r = comm.rank
    iava = np.array([3, 0, 0, 2][: 1 + r % 4])
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
    ]


@pytest.mark.parametrize("dtype", DTYPES)
def test_blocks_match_pylops(comm, dtype):
    for index in range(5):
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
