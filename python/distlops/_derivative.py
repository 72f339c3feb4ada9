# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The operators of the derivative group (``include/distlops/operators/derivative/``): the first
and second derivatives on one rank's NumPy arrays, and PyLops-MPI's distributed derivatives,
Laplacian and gradient (``engine="cupy"``: on CuPy-engine arrays)."""
from numbers import Number

import numpy as np
from mpi4py import MPI

from ._factories import export, wraps
from ._operators import LinearOperator, LocalOperator, _as_dims, _ext_function, _layout

@wraps("local", "FirstDerivative")
def LocalFirstDerivative(dims, axis=-1, sampling=1.0, kind="centered", edge=False,
                         dtype=np.float64):
    """d/d(axis) on one rank's NumPy arrays of shape ``dims`` (PyLops' FirstDerivative): ``kind``
    "centered", "forward" or "backward" differences with step ``sampling``; ``edge`` uses
    reduced-order differences at the ends instead of zeros."""
    return LocalOperator(_ext_function("local_FirstDerivative", dtype)(
        _as_dims(dims), axis, sampling, kind, edge), dtype)


@wraps("local", "SecondDerivative")
def LocalSecondDerivative(dims, axis=-1, sampling=1.0, kind="centered", edge=False,
                          dtype=np.float64):
    """d²/d(axis)² on one rank's NumPy arrays of shape ``dims`` (PyLops' SecondDerivative):
    three-point differences of ``kind`` "centered", "forward" or "backward" with step
    ``sampling``; ``edge`` uses reduced-order differences at the ends instead of zeros."""
    return LocalOperator(_ext_function("local_SecondDerivative", dtype)(
        _as_dims(dims), axis, sampling, kind, edge), dtype)


@wraps("distributed", "FirstDerivative")
def MPIFirstDerivative(dims, sampling=1.0, kind="centered", edge=False, order=3,
                       base_comm=MPI.COMM_WORLD, dtype=np.float64, axis=0, engine="numpy"):
    """d/d(axis) on arrays of shape ``dims`` split along axis 0 (PyLops-MPI differentiates
    along axis 0; ``axis`` chooses another)."""
    return LinearOperator(_ext_function("FirstDerivative", dtype, engine, base_comm)(
        _layout(dims, base_comm), axis, sampling, kind, edge, order), dtype, base_comm)


@wraps("distributed", "SecondDerivative")
def MPISecondDerivative(dims, sampling=1.0, kind="centered", edge=False,
                        base_comm=MPI.COMM_WORLD, dtype=np.float64, axis=0, engine="numpy"):
    """d²/d(axis)² on arrays of shape ``dims`` split along axis 0 (PyLops-MPI's
    MPISecondDerivative, along axis 0; ``axis`` chooses another): neighbouring ranks exchange
    one plane each."""
    return LinearOperator(_ext_function("SecondDerivative", dtype, engine, base_comm)(
        _layout(dims, base_comm), axis, sampling, kind, edge), dtype, base_comm)


@wraps("distributed", "Laplacian")
def MPILaplacian(dims, axes=(-2, -1), weights=(1, 1), sampling=(1, 1), edge=False,
                 kind="centered", base_comm=MPI.COMM_WORLD, dtype=np.float64, engine="numpy"):
    """The weighted sum of second derivatives along ``axes`` (``weights``, ``sampling`` per axis) on
    arrays of shape ``dims`` split along axis 0 (PyLops-MPI's MPILaplacian)."""
    return LinearOperator(_ext_function("Laplacian", dtype, engine, base_comm)(
        _layout(dims, base_comm), list(axes), [float(w) for w in weights],
        [float(s) for s in sampling], edge, kind), dtype, base_comm)


@wraps("distributed", "Gradient")
def MPIGradient(dims, sampling=1, edge=False, kind="centered", base_comm=MPI.COMM_WORLD,
                dtype=np.float64, engine="numpy"):
    """The gradient: a StackedDistributedArray with one first derivative per axis."""
    dims = _as_dims(dims)
    sampling = [float(sampling)] * len(dims) if isinstance(sampling, Number) else \
        [float(s) for s in sampling]
    return LinearOperator(_ext_function("Gradient", dtype, engine, base_comm)(
        _layout(dims, base_comm), sampling, edge, kind), dtype, base_comm)


export(globals(), "derivative")
