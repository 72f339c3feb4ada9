# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's MPIMatrixMult and its helpers: the square grid of active ranks, each rank's
block of a matrix, and the gather of the blocks."""
import math

import numpy as np
from mpi4py import MPI

import distlops as _dl
from distlops import _distlops as _ext
from distlops._arrays import is_cupy_array

from .._layer import MPILinearOperator, flat_layout, native_dtype

__all__ = ["active_grid_comm", "block_gather", "local_block_split", "MPIMatrixMult"]


def _grid_side(size, what):
    side = math.isqrt(size)
    if side * side != size:
        raise RuntimeError(f"{what} must be a square number, provided {size} instead...")
    return side


def active_grid_comm(base_comm, N, M):
    """The ranks of the largest square grid that a matrix of N x M blocks can keep busy.

    The ranks of ``base_comm`` are laid row by row on a grid of isqrt(P) columns; the ranks in
    its first min(N, M, isqrt(P)) rows and columns are active. Returns (comm, rank, row, col,
    is_active): the communicator of the active ranks and this rank's place in their grid, or
    (None, rank, row, col, False) on an inactive rank (base_comm's rank and grid place)."""
    rank, size = base_comm.Get_rank(), base_comm.Get_size()
    columns = math.isqrt(size)
    row, col = divmod(rank, columns)
    side = min(N, M, columns)
    members = [r for r in range(size) if r // columns < side and r % columns < side]
    # Create_group is collective over the members only: inactive ranks leave at once.
    if rank not in members:
        return None, rank, row, col, False
    comm = base_comm.Create_group(base_comm.Get_group().Incl(members))
    new_rank = comm.Get_rank()
    new_row, new_col = divmod(new_rank, math.isqrt(len(members)))
    return comm, new_rank, new_row, new_col, True


def _block_bounds(extent, parts, index):
    block = -(-extent // parts)
    first = index * block
    return first, min(first + block, extent)


def local_block_split(global_shape, rank, comm):
    """(row slice, column slice) of the block of a matrix of ``global_shape`` that ``rank``
    holds on the square grid of ``comm``'s ranks: blocks of ceil(n / sqrt(P)) rows and
    columns, row by row over the grid. RuntimeError when P is not a square, ValueError for a
    rank outside the communicator."""
    size = comm.Get_size()
    side = _grid_side(size, "Number of processes")
    if not (isinstance(rank, int) and 0 <= rank < size):
        raise ValueError(f"rank must be an integer in [0, {size}), got {rank!r}")
    grid_row, grid_col = divmod(rank, side)
    rows = _block_bounds(global_shape[0], side, grid_row)
    cols = _block_bounds(global_shape[1], side, grid_col)
    return slice(*rows), slice(*cols)


def block_gather(x, orig_shape, comm):
    """The matrix of shape ``orig_shape`` from the blocks the ranks of the square grid of
    ``comm`` hold in ``x`` (local_block_split's blocks, flattened), on every rank."""
    side = _grid_side(comm.Get_size(), "Communicator size")
    blocks = comm.allgather(np.asarray(x.local_array))
    rows, cols = orig_shape
    matrix = np.zeros((rows, cols), dtype=blocks[0].dtype)
    for rank, block in enumerate(blocks):
        if block.size == 0:
            continue
        grid_row, grid_col = divmod(rank, side)
        r0, r1 = _block_bounds(rows, side, grid_row)
        c0, c1 = _block_bounds(cols, side, grid_col)
        matrix[r0:r1, c0:c1] = block.reshape(r1 - r0, c1 - c0)
    return matrix


def MPIMatrixMult(A, M, saveAt=False, base_comm=MPI.COMM_WORLD, kind="summa",
                  dtype="float64", base_comm_nccl=None):
    """Y = A X on a square grid of ranks (PyLops-MPI's argument order): ``A`` is this rank's
    tile ("summa") or row block ("block"); model and data are flat vectors of the ranks' tiles.
    """
    dtype = native_dtype(dtype)
    A = A if is_cupy_array(A) else np.asarray(A)  # a CuPy tile: the CuPy engine
    A = A.astype(native_dtype(A.dtype), copy=False)
    native = _dl.MPIMatrixMult(A, M, saveAt=saveAt, base_comm=base_comm, dtype=dtype,
                               base_comm_nccl=base_comm_nccl, kind=kind)
    # PyLops-MPI's flat vectors are the ranks' blocks one after the other (each in C order),
    # not the C order of the whole matrix: the native operator is seen on flat layouts with
    # the same blocks (a view, no copy).
    op = native._op
    domain, range_ = op.domain_zeros().layout, op.range_zeros().layout
    flat = _ext.reshape(op, flat_layout(domain), flat_layout(range_))
    return MPILinearOperator.adopt(_dl.LinearOperator(flat, native.dtype, native._comm))
