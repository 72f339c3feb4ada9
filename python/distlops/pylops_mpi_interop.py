# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Passing arrays and operators between distlops and PyLops-MPI without copies.

``to_pylops_mpi(Op)`` makes a distlops operator an ``pylops_mpi.MPILinearOperator``, so that
PyLops-MPI's solvers and operator algebra run on it: its matvec and rmatvec read and write the
PyLops-MPI arrays' local blocks in place (distlops views them as flat arrays with the same
split). ``from_pylops_mpi(x)`` views a PyLops-MPI array as a distlops one.
"""
import numpy as np
import pylops_mpi

from . import _distlops as _ext
from ._arrays import DistributedArray, ext_class, make_layout
from ._operators import LinearOperator


def from_pylops_mpi(x):
    """A distlops DistributedArray over the memory of the PyLops-MPI array ``x`` (no copy)."""
    local = x.local_array
    if not local.flags.c_contiguous:
        raise ValueError("from_pylops_mpi: the local array must be C-contiguous")
    layout = make_layout(x.global_shape, x.base_comm, _partition(x.partition), x.axis,
                         x.local_shapes, x.mask)
    return DistributedArray._wrap(ext_class("DistributedArray", local.dtype).wrap(layout, local),
                                  x.base_comm)


def to_pylops_mpi_array(x):
    """A PyLops-MPI DistributedArray holding a copy of the distlops array ``x``."""
    y = pylops_mpi.DistributedArray(global_shape=x.global_shape, base_comm=x.base_comm,
                                    partition=_their_partition(x.partition), axis=x.axis,
                                    local_shapes=x.local_shapes, mask=x.mask, dtype=x.dtype)
    y[:] = x.local_array
    return y


def _partition(theirs):
    return getattr(_ext.Partition, theirs.name)


def _their_partition(ours):
    return getattr(pylops_mpi.Partition, ours.name)


class _DistlopsOperator(pylops_mpi.MPILinearOperator):
    """A distlops LinearOperator between DistributedArrays seen by PyLops-MPI on flat arrays."""

    def __init__(self, op):
        if not isinstance(op, LinearOperator):
            raise TypeError(f"expected a distlops LinearOperator, got {type(op).__name__}")
        super().__init__(shape=op.shape, dtype=op.dtype, base_comm=op.base_comm)
        self.distlops_operator = op
        comm = op.base_comm
        # Every rank's block sizes of the flat domain and range (PyLops-MPI's local_shapes).
        self._domain_sizes = comm.allgather(op.domain_zeros().local_array.size)
        self._range_sizes = comm.allgather(op.range_zeros().local_array.size)

    def _apply(self, x, sizes, rows, adjoint):
        y = pylops_mpi.DistributedArray(global_shape=rows, base_comm=self.base_comm,
                                        local_shapes=[(n,) for n in sizes], dtype=self.dtype)
        op = self.distlops_operator
        xs = from_pylops_mpi(x)
        ys = from_pylops_mpi(y)
        if adjoint:
            op.rmatvec_into(xs, ys)
        else:
            op.matvec_into(xs, ys)
        return y

    def _matvec(self, x):
        return self._apply(x, self._range_sizes, self.shape[0], adjoint=False)

    def _rmatvec(self, x):
        return self._apply(x, self._domain_sizes, self.shape[1], adjoint=True)


def to_pylops_mpi(op):
    """The distlops operator ``op`` as a pylops_mpi.MPILinearOperator (no copies of data)."""
    return _DistlopsOperator(op)
