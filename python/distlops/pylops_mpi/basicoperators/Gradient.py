# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's MPIGradient: its data are a StackedDistributedArray, one first derivative per
axis with PyLops-MPI's arithmetic (_stencils.py)."""
from numbers import Number

import numpy as np
from mpi4py import MPI

import distlops as _dl
from distlops._operators import _as_dims

from .._layer import MPIStackedLinearOperator, native_dtype
from ._stencils import Blocks, first_stencil


def MPIGradient(dims, sampling=1, edge=False, kind="centered", base_comm=MPI.COMM_WORLD,
                dtype=np.float64):
    """The first derivatives of arrays of shape ``dims`` along every axis (``sampling`` one
    step, or one per axis), stacked; its adjoint adds the derivatives' adjoints in the order of
    the axes, as PyLops-MPI's. Collective."""
    dims = _as_dims(dims)
    steps = (sampling,) * len(dims) if isinstance(sampling, Number) else tuple(sampling)
    stencil = first_stencil(kind)
    blocks = Blocks(dims, base_comm, native_dtype(dtype))
    ops = [blocks.derivative(stencil, axis, steps[axis], edge, f"FirstDerivative(axis={axis})")
           for axis in range(len(dims))]
    return MPIStackedLinearOperator.adopt(_dl.MPIStackedVStack(ops))
