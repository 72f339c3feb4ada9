# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's ``pylops_mpi.DistributedArray`` module: the native arrays, and PyLops-MPI's split
helpers with its rules."""
import numpy as np
from mpi4py import MPI

import distlops as _dl
from distlops import Partition
from distlops._arrays import is_cupy_array

from ._layer import _REPLICATED, native_dtype


class _NativeArrays(type):
    """Every native DistributedArray counts as one of PyLops-MPI's: operators and arithmetic
    return the native class."""

    def __instancecheck__(cls, value):
        return isinstance(value, _dl.DistributedArray)

    def __subclasscheck__(cls, subclass):
        return issubclass(subclass, _dl.DistributedArray)


class DistributedArray(_dl.DistributedArray, metaclass=_NativeArrays):
    """The native array with PyLops-MPI's dtypes: one the library has no scalar type for is
    held in the nearest it has (native_dtype: float128 and integers in float64)."""

    __slots__ = ()

    def __init__(self, global_shape, base_comm=MPI.COMM_WORLD, base_comm_nccl=None,
                 partition=Partition.SCATTER, axis=0, local_shapes=None, mask=None,
                 engine="numpy", dtype=np.float64, grid=None):
        super().__init__(global_shape, base_comm, base_comm_nccl, partition, axis, local_shapes,
                         mask, engine, native_dtype(dtype), grid)

    @classmethod
    def to_dist(cls, x, *args, **kwargs):
        # A CuPy array stays one: it makes a CuPy-engine array.
        x = x if is_cupy_array(x) else np.asarray(x)
        return super().to_dist(x.astype(native_dtype(x.dtype), copy=False), *args, **kwargs)

    def dot(self, dist_array, vdot=False):
        """The native dot, but for replicated arrays with a mask, PyLops-MPI's: every rank's
        replica cut along its first axis over all the ranks (PyLops-MPI's ``to_dist``), and
        the products of this rank's pieces summed within its mask group, which gives the dot
        of the replicas divided among the groups. The native dot of a replicated array is the
        whole array's (DESIGN.md section 4)."""
        if (self.mask is None or self.partition not in _REPLICATED
                or not isinstance(dist_array, _dl.DistributedArray)
                or dist_array.partition != self.partition or dist_array.mask != self.mask
                or dist_array.global_shape != self.global_shape):
            return super().dot(dist_array, vdot)
        n, size, rank = self.global_shape[0], self.base_comm.Get_size(), self.base_comm.Get_rank()
        start = sum(_block_length(n, size, r) for r in range(rank))
        rows = slice(start, start + _block_length(n, size, rank))
        mine = np.asarray(self.local_array)[rows].ravel()
        theirs = np.asarray(dist_array.local_array)[rows].ravel()
        local = np.vdot(mine, theirs) if vdot else np.dot(mine, theirs)
        return to_scalar(self.sub_comm.allreduce(local))


class StackedDistributedArray(_dl.StackedDistributedArray):
    """The native stack with PyLops-MPI's ``global_shape`` (the items' shapes added axis by
    axis), its check that the items share one engine, and its items shared with the arrays it
    was made of."""

    def __init__(self, distarrays, base_comm=MPI.COMM_WORLD):
        distarrays = list(distarrays)
        engines = [getattr(item, "engine", "numpy") for item in distarrays]
        if any(engine != engines[0] for engine in engines[1:]):
            raise ValueError(f"Stacked arrays have mismatching engines: {engines}")
        super().__init__(distarrays, base_comm)
        self._alias(distarrays)

    def _alias(self, items):
        """Makes the given arrays views of the stack's items (PyLops-MPI's stack holds the
        arrays themselves, so that writing into one shows in the stack and back); nested
        stacks and their own items likewise."""
        self._items = items
        for i, item in enumerate(items):
            if isinstance(item, _dl.StackedDistributedArray):
                item._a = self._a.get_nested(i)
                if getattr(item, "_items", None) is not None:
                    item._alias(item._items)
            else:
                item._a = self._a.get(i)

    @property
    def engine(self):
        return self.distarrays[0].engine

    def asarray(self):
        """The items gathered, flattened and concatenated (PyLops-MPI's flat vector; the native
        items of an operator's side may be N-d)."""
        return np.hstack([np.ravel(item.asarray()) for item in self.distarrays])

    @property
    def global_shape(self):
        shapes = [item.global_shape for item in self.distarrays]
        return tuple(sum(axis) for axis in zip(*shapes))


def local_split(global_shape, base_comm, partition, axis):
    """This rank's local shape of an array of ``global_shape``: the whole shape for a replicated
    partition, otherwise ``global_shape[axis]`` cut into nearly equal blocks, the first
    ``global_shape[axis] % size`` ranks holding one item more (the native default split)."""
    shape = tuple(global_shape)
    if partition in (Partition.BROADCAST, Partition.UNSAFE_BROADCAST):
        return shape
    local = list(shape)
    local[axis] = _block_length(shape[axis], base_comm.Get_size(), base_comm.Get_rank())
    return tuple(local)


def _block_length(n, size, rank):
    """The length of ``rank``'s block of ``n`` items cut into ``size`` nearly equal blocks, the
    first ``n % size`` one item longer."""
    quotient, remainder = divmod(n, size)
    return quotient + (1 if rank < remainder else 0)


def subcomm_split(mask, comm=MPI.COMM_WORLD):
    """The communicator of the ranks whose ``mask`` entry equals this rank's (rank order
    kept)."""
    rank = comm.Get_rank()
    return comm.Split(color=mask[rank], key=rank)


def to_scalar(x):
    """A Python scalar of a 0-d (or one-element) NumPy value; other values unchanged."""
    item = getattr(x, "item", None)
    return item() if item is not None else x
