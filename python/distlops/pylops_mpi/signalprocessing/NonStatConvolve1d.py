# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's MPINonStationaryConvolve1D: the native operator, with PyLops-MPI's checks."""
import numpy as np
from mpi4py import MPI

import distlops as _dl

from .._layer import MPILinearOperator


def MPINonStationaryConvolve1D(dims, hs, ih, axis=-1, base_comm=MPI.COMM_WORLD,
                               dtype="float64"):
    """Filters ``hs`` (odd length) at the regularly spaced positions ``ih`` along ``axis``,
    split evenly over the ranks (PyLops-MPI requires dims[axis] to be a multiple of the rank
    count, and a filter on every rank)."""
    dims = (int(dims),) if np.isscalar(dims) else tuple(int(n) for n in dims)
    ih = np.asarray(ih)
    size, rank = base_comm.Get_size(), base_comm.Get_rank()
    if np.shape(hs)[1] % 2 == 0:
        raise ValueError("filters hs must have odd length")
    if len(np.unique(np.diff(ih))) > 1:
        raise ValueError("the indices of filters 'ih' are must be regularly sampled")
    if ih.min() < 0 or ih.max() >= dims[axis]:
        raise ValueError("the indices of filters 'ih' must be larger than 0 and smaller than "
                         "`dims`")
    if dims[axis] % size:
        raise ValueError(f"number of input samples {dims[0]} is not divisible by the number "
                         f"of ranks ({size})")
    per_rank = dims[axis] // size
    if not np.any((ih >= rank * per_rank) & (ih < (rank + 1) * per_rank)):
        raise ValueError(f"rank {rank} has zerof filters!")
    return MPILinearOperator.adopt(_dl.MPINonStationaryConvolve1D(
        dims, hs, ih, axis=axis, base_comm=base_comm, dtype=dtype))
