# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's MPIFirstDerivative, with its arithmetic (_stencils.py)."""
import numpy as np
from mpi4py import MPI

from distlops._operators import _as_dims

from .._layer import MPILinearOperator, native_dtype
from ._stencils import Blocks, first_stencil


def MPIFirstDerivative(dims, sampling=1.0, kind="centered", edge=False, order=3,
                       base_comm=MPI.COMM_WORLD, dtype=np.float64):
    """d/dx along axis 0 of arrays of shape ``dims`` on PyLops-MPI's flat vectors: ``kind``
    "forward", "backward" or "centered" (of ``order`` 3 or 5, with one-sided differences at the
    ends where ``edge``) with step ``sampling``, in PyLops-MPI's order of operations, so that
    its results are PyLops-MPI's to the bit. Collective."""
    stencil = first_stencil(kind, order)
    blocks = Blocks(_as_dims(dims), base_comm, native_dtype(dtype))
    return MPILinearOperator.adopt(
        blocks.derivative(stencil, 0, sampling, edge, "MPIFirstDerivative"))
