# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's MPILaplacian, with its arithmetic (_stencils.py)."""
import numpy as np
from mpi4py import MPI

from distlops._operators import _as_dims

from .._layer import MPILinearOperator, native_dtype
from ._stencils import Blocks, second_stencil


def _normalized_axis(axis, ndim):
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of bounds for an array of dimension {ndim}")
    return axis % ndim


def MPILaplacian(dims, axes=(-2, -1), weights=(1, 1), sampling=(1, 1), edge=False,
                 kind="centered", base_comm=MPI.COMM_WORLD, dtype=np.float64):
    """The weighted sum of second derivatives along ``axes`` (one weight and step per axis) of
    arrays of shape ``dims`` on PyLops-MPI's flat vectors, as PyLops-MPI sums it: each
    derivative scaled by its weight, then added to the sum of the axes before. Collective."""
    dims = _as_dims(dims)
    axes = tuple(_normalized_axis(int(axis), len(dims)) for axis in axes)
    if not len(axes) == len(weights) == len(sampling):
        raise ValueError("axes, weights, and sampling have different size")
    forward, adjoint, reach, adjoint_reach = second_stencil(kind, edge)
    blocks = Blocks(dims, base_comm, native_dtype(dtype))
    terms = list(zip(axes, weights, sampling))

    def weighted_sum(x, stencil, reach, conjugate):
        total = None
        for axis, weight, step in terms:
            term = stencil(blocks.samples(x, axis, reach), step, edge)
            term *= np.conj(weight) if conjugate else weight
            total = term if total is None else total + term
        return total

    return MPILinearOperator.adopt(blocks.operator(
        lambda x: weighted_sum(x, forward, reach, False),
        lambda y: weighted_sum(y, adjoint, adjoint_reach, True), "MPILaplacian"))
