# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's MPIHalo and halo_block_split."""
import math

import numpy as np
from mpi4py import MPI

import distlops as _dl

from .._layer import MPILinearOperator


def halo_block_split(global_shape, comm, grid_shape=None):
    """The slices of the block of an array of ``global_shape`` that this rank owns on the
    Cartesian grid ``grid_shape`` of ``comm``'s ranks (every rank along the last axis by
    default): PyLops-MPI's rule, blocks of ceil(n / ranks) along each axis, the last rank of an
    axis taking the rest. ValueError when the grid does not hold ``comm.Get_size()`` ranks."""
    shape = tuple(int(n) for n in global_shape)
    size = comm.Get_size()
    grid = (1,) * (len(shape) - 1) + (size,) if grid_shape is None else tuple(grid_shape)
    if math.prod(grid) != size:
        raise ValueError(f"grid_shape {grid} does not match comm size {size}")
    cartesian = comm.Create_cart(grid, periods=[False] * len(shape), reorder=True)
    position = cartesian.Get_coords(cartesian.Get_rank())
    cartesian.Free()
    slices = []
    for extent, parts, index in zip(shape, grid, position):
        block = -(-extent // parts)
        first = index * block
        slices.append(slice(first, None) if index == parts - 1 else
                      slice(first, min(first + block, extent)))
    return tuple(slices)


def MPIHalo(dims, halo, proc_grid_shape=None, comm=MPI.COMM_WORLD, dtype=np.float64):
    return MPILinearOperator.adopt(_dl.MPIHalo(dims, halo, proc_grid_shape=proc_grid_shape,
                                               comm=comm, dtype=dtype))
