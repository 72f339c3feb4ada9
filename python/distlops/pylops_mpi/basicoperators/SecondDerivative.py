# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's MPISecondDerivative, with its arithmetic (_stencils.py)."""
import numpy as np
from mpi4py import MPI

from distlops._operators import _as_dims

from .._layer import MPILinearOperator, native_dtype
from ._stencils import Blocks, second_stencil


def MPISecondDerivative(dims, sampling=1.0, kind="centered", edge=False,
                        base_comm=MPI.COMM_WORLD, dtype=np.float64):
    """d²/dx² along axis 0 of arrays of shape ``dims`` on PyLops-MPI's flat vectors: three-point
    differences of ``kind`` "forward", "backward" or "centered" (with one-sided ones at the ends
    where ``edge``) with step ``sampling``, in PyLops-MPI's order of operations. Collective."""
    stencil = second_stencil(kind, edge)
    blocks = Blocks(_as_dims(dims), base_comm, native_dtype(dtype))
    return MPILinearOperator.adopt(
        blocks.derivative(stencil, 0, sampling, edge, "MPISecondDerivative"))
