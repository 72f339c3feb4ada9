# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's MPIHalo and halo_block_split.

PyLops-MPI's MPIHalo works on each rank's block: the model is a flat SCATTER array whose rank-r
part is r's block of a Cartesian grid of ceil-sized blocks, the data the blocks extended by the
ghost cells, each rank with its own widths (a scalar halo has none at the array's ends; the
widths facing each other must agree), and its adjoint drops the ghost cells. Here the ghost
cells come from the native Halo on the layout of those blocks (``MPIHaloOfLayout``, the widest
width of each side on every rank) and each rank keeps its own widths of the extended block; the
adjoint is PyLops-MPI's crop. Every check is made on what every rank gathered, so a bad halo
raises on every rank.
"""
import math
from numbers import Integral

import numpy as np
from mpi4py import MPI

import distlops as _dl
from distlops._arrays import communicator

from .._layer import CallableOperator, DistributedArray, Partition, _ext


def _ceil_parts(extent, parts):
    """PyLops-MPI's split of ``extent`` planes over ``parts`` ranks: ceil-sized blocks, the last
    rank the rest."""
    block = -(-extent // parts)
    return [min((c + 1) * block, extent) - c * block if c < parts - 1 else extent - c * block
            for c in range(parts)]


def _grid_position(comm, grid):
    """This rank's coordinates on the Cartesian grid of ``comm``'s ranks (MPI's, as PyLops-MPI
    places them)."""
    cartesian = comm.Create_cart(grid, periods=[False] * len(grid), reorder=True)
    position = tuple(cartesian.Get_coords(cartesian.Get_rank()))
    cartesian.Free()
    return position


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
    slices = []
    for extent, parts, index in zip(shape, grid, _grid_position(comm, grid)):
        block = -(-extent // parts)
        first = index * block
        slices.append(slice(first, None) if index == parts - 1 else
                      slice(first, min(first + block, extent)))
    return tuple(slices)


def _side_widths(halo, ndim, position, grid):
    """PyLops-MPI's (minus_0, plus_0, minus_1, ...) of one rank's ``halo``: a number on every side
    but the array's ends, one per axis, or one per side. ValueError for another length or a
    negative width."""
    if isinstance(halo, Integral):
        widths = []
        for k in range(ndim):
            widths += [0 if position[k] == 0 else int(halo),
                       0 if position[k] == grid[k] - 1 else int(halo)]
        if int(halo) < 0:
            raise ValueError(f"MPIHalo: halo widths must be non-negative, got {halo}")
        return tuple(widths)
    halo = tuple(int(h) for h in halo)
    if len(halo) == 1:
        widths = halo * (2 * ndim)
    elif len(halo) == ndim:
        widths = tuple(h for h in halo for _ in range(2))
    elif len(halo) == 2 * ndim:
        widths = halo
    else:
        raise ValueError(f"MPIHalo: Invalid halo length {len(halo)} for an array of {ndim} axes "
                         f"(one width, one per axis or one per side)")
    if any(h < 0 for h in widths):
        raise ValueError(f"MPIHalo: halo widths must be non-negative, got {halo}")
    return widths


class MPIHalo(CallableOperator):
    """PyLops-MPI's MPIHalo: ``dims`` cut over the process grid ``proc_grid_shape`` (every rank
    along the last axis by default) in PyLops-MPI's blocks; ``halo`` one width (none at the
    array's ends), one per axis or one per side (both kept at the array's ends, as zeros), and
    it may differ between ranks where the widths that face each other agree. ``local_dims`` and
    ``local_extent`` are this rank's block and extended block. Collective."""

    def __init__(self, dims, halo, proc_grid_shape=None, comm=MPI.COMM_WORLD, dtype=np.float64):
        dims = (int(dims),) if isinstance(dims, Integral) else tuple(int(n) for n in dims)
        ndim, size, rank = len(dims), comm.Get_size(), comm.Get_rank()
        grid = (1,) * (ndim - 1) + (size,) if proc_grid_shape is None else \
            tuple(int(p) for p in proc_grid_shape)
        # Every rank's arguments, so that every check below has one verdict everywhere.
        halo_argument = int(halo) if isinstance(halo, Integral) else tuple(halo)
        grids = comm.allgather(grid)
        if any(other != grid for other in grids):
            raise ValueError(f"MPIHalo: proc_grid_shape differs between ranks: {grids}")
        if math.prod(grid) != size or len(grid) != ndim:
            raise ValueError(f"MPIHalo: grid_shape {grid} does not match comm size {size} "
                             f"(or the {ndim} axes of dims {dims})")
        positions = comm.allgather(_grid_position(comm, grid))
        if any(positions[r] != np.unravel_index(r, grid) for r in range(size)):
            raise ValueError(f"MPIHalo: MPI placed the ranks on the grid {grid} out of row-major "
                             f"order ({positions}), which the blocks' layout needs")
        halos = comm.allgather(halo_argument)
        widths = [_side_widths(h, ndim, positions[r], grid) for r, h in enumerate(halos)]
        parts = [_ceil_parts(dims[k], grid[k]) for k in range(ndim)]
        if any(p < 0 for axis in parts for p in axis):
            raise ValueError(f"MPIHalo: blocks of ceil(n / ranks) leave a rank of the grid {grid} "
                             f"without its block of dims {dims}: {parts}")
        blocks = [tuple(parts[k][positions[r][k]] for k in range(ndim)) for r in range(size)]
        self._check_exchange(widths, blocks, positions, grid)

        self.global_dims, self.ndim, self.comm = dims, ndim, comm
        self.proc_grid_shape = grid
        self.halo = widths[rank]
        self.local_dims = blocks[rank]
        self.local_extent = tuple(self.local_dims[k] + self.halo[2 * k] + self.halo[2 * k + 1]
                                  for k in range(ndim))
        self._block_sizes = [math.prod(block) for block in blocks]
        self._extended_sizes = [
            math.prod(blocks[r][k] + widths[r][2 * k] + widths[r][2 * k + 1]
                      for k in range(ndim)) for r in range(size)]
        # The native halo with the widest width of each side, from which each rank keeps its own.
        widest = [max(w[side] for w in widths) for side in range(2 * ndim)]
        self._layout = _ext.Layout(communicator(comm), list(dims), Partition.SCATTER, 0, [], [],
                                   list(grid), [list(axis) for axis in parts])
        self._native = _dl.MPIHaloOfLayout(self._layout, widest, dtype=dtype)
        self._kept = tuple(slice(widest[2 * k] - self.halo[2 * k],
                                 widest[2 * k] + self.local_dims[k] + self.halo[2 * k + 1])
                           for k in range(ndim))
        self._widest_extent = tuple(self.local_dims[k] + widest[2 * k] + widest[2 * k + 1]
                                    for k in range(ndim))
        self._core = tuple(slice(self.halo[2 * k], self.halo[2 * k] + self.local_dims[k])
                           for k in range(ndim))
        super().__init__(self._forward_halo, self._crop, (sum(self._extended_sizes), 
                         math.prod(dims)), np.dtype(dtype), comm, dims=dims,
                         dimsd=(sum(self._extended_sizes),))

    @staticmethod
    def _check_exchange(widths, blocks, positions, grid):
        """PyLops-MPI's one-hop exchange: a rank sends the planes its neighbour's ghost cells
        hold from its own block, and the widths facing each other agree."""
        ranks = {position: r for r, position in enumerate(positions)}
        for r, position in enumerate(positions):
            for k in range(len(grid)):
                minus, plus = widths[r][2 * k], widths[r][2 * k + 1]
                below = position[:k] + (position[k] - 1,) + position[k + 1:]
                above = position[:k] + (position[k] + 1,) + position[k + 1:]
                for width, neighbour in ((minus, below), (plus, above)):
                    if neighbour in ranks and width > blocks[r][k]:
                        raise ValueError(
                            f"MPIHalo: a halo width exceeds local block size: {width} ghost "
                            f"planes along axis {k} at rank {r}, whose block has {blocks[r][k]}")
                if above in ranks and plus != widths[ranks[above]][2 * k]:
                    raise ValueError(
                        f"MPIHalo: the halo width {plus} after rank {r}'s block along axis {k} "
                        f"does not match neighbor rank {ranks[above]}'s width "
                        f"{widths[ranks[above]][2 * k]} before its block")

    def _scatter_input(self, x, sizes, what):
        if x.partition != Partition.SCATTER:
            raise ValueError(f"MPIHalo: the {what} should have partition={Partition.SCATTER}, "
                             f"got {x.partition}")
        given = [math.prod(shape) for shape in x.local_shapes]
        if given != sizes:
            raise ValueError(f"MPIHalo: the {what}'s local sizes {given} are not the ranks' "
                             f"{'extended ' if what == 'data' else ''}blocks {sizes}")
        return np.asarray(x.local_array, dtype=self.dtype)

    def _flat(self, values, sizes):
        y = DistributedArray(global_shape=sum(sizes), base_comm=self.comm, local_shapes=sizes,
                             dtype=self.dtype)
        y.local_array[:] = values.ravel()
        return y

    def _forward_halo(self, x):
        block = np.ascontiguousarray(self._scatter_input(x, self._block_sizes, "model"))
        native = _ext.__dict__[f"DistributedArray_{self.dtype.name}"].wrap(
            self._layout, block.reshape(self.local_dims))
        extended = self._native._op.apply(native).local_array.reshape(self._widest_extent)
        return self._flat(extended[self._kept], self._extended_sizes)

    def _crop(self, y):
        extended = self._scatter_input(y, self._extended_sizes, "data")
        return self._flat(extended.reshape(self.local_extent)[self._core], self._block_sizes)
