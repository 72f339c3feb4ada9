# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The operators of the local group (``include/distlops/operators/local/``): PyLops' basic
operators on one rank's arrays, and FunctionOperator of Python functions. ``engine="cupy"`` makes
a basic operator in the CUDA space, a block of the distributed operators on CuPy-engine arrays
(MPIBlockDiag, ...); FunctionOperator computes on NumPy arrays only."""
from numbers import Number

import numpy as np

from ._factories import export, wraps
from ._operators import LocalOperator, _as_dims, _ext_function

@wraps("local", "Diagonal")
def Diagonal(diag, dims=None, axis=-1, dtype=None, engine="numpy"):
    """Element-wise multiplication by ``diag`` (PyLops' Diagonal): a flat vector of the operator's
    size, or with ``dims`` a vector along ``axis`` broadcast over the other axes; dtype by default
    ``diag``'s."""
    dtype = np.dtype(dtype or np.asarray(diag).dtype)
    diag = np.ascontiguousarray(diag, dtype=dtype).ravel()
    return LocalOperator(
        _ext_function("local_Diagonal", dtype, engine)(diag, list(dims or []), axis), dtype)


@wraps("local", "Identity")
def Identity(N, M=None, dtype=np.float64, engine="numpy"):
    """PyLops' Identity(N, M): from arrays of M elements to arrays of N (M = N by default)."""
    M = N if M is None else M
    return LocalOperator(_ext_function("local_Identity", dtype, engine)([int(N)], [int(M)]), dtype)


@wraps("local", "Zero")
def Zero(N, M=None, dtype=np.float64, engine="numpy"):
    """PyLops' Zero(N, M): from arrays of M elements to N zeros (M = N by default)."""
    M = N if M is None else M
    return LocalOperator(
        _ext_function("local_Zero", dtype, engine)(_as_dims(N), _as_dims(M)), dtype)


@wraps("local", "Scaling")
def Scaling(dims, scale, dtype=np.float64, engine="numpy"):
    """y = scale x on arrays of shape ``dims``."""
    return LocalOperator(
        _ext_function("local_Scaling", dtype, engine)(_as_dims(dims), scale), dtype)


@wraps("local", "Transpose")
def Transpose(dims, axes, dtype=np.float64, engine="numpy"):
    """PyLops' Transpose: arrays of shape ``dims`` with their axes permuted by ``axes``."""
    return LocalOperator(_ext_function("local_Transpose", dtype, engine)(
        _as_dims(dims), [int(a) for a in axes]), dtype)


@wraps("local", "Pad")
def Pad(dims, pad, dtype=np.float64, engine="numpy"):
    """PyLops' Pad: zero padding of arrays of shape ``dims`` by ``pad`` = ((before, after), ...)
    per axis (a single pair for 1-d arrays)."""
    dims = _as_dims(dims)
    pad = [pad] if len(dims) == 1 and isinstance(pad[0], Number) else pad
    return LocalOperator(_ext_function("local_Pad", dtype, engine)(
        dims, [(int(b), int(a)) for b, a in pad]), dtype)


@wraps("local", "Restriction")
def Restriction(dims, iava, axis=-1, dtype=np.float64, engine="numpy"):
    """PyLops' Restriction: the samples ``iava`` along ``axis`` (non-negative indices)."""
    iava = np.ascontiguousarray(iava, dtype=np.int64).ravel()
    return LocalOperator(
        _ext_function("local_Restriction", dtype, engine)(_as_dims(dims), iava, axis), dtype)


@wraps("local", "FunctionOperator")
def FunctionOperator(f, fc, model_shape, data_shape=None, dtype=np.float64,
                     name="FunctionOperator"):
    """A local operator from two Python functions: y = f(x) and x = fc(y) (the adjoint), on
    NumPy arrays of ``model_shape`` and ``data_shape``. The input is a read-only view valid
    during the call; the result may be any array-like of the output's size."""
    dtype = np.dtype(dtype)
    model = _as_dims(model_shape)
    data = model if data_shape is None else _as_dims(data_shape)

    def forward(x):
        return np.ascontiguousarray(f(x), dtype=dtype)

    def adjoint(y):
        return np.ascontiguousarray(fc(y), dtype=dtype)

    return LocalOperator(_ext_function("local_FunctionOperator", dtype)(
        forward, adjoint, model, data, name), dtype)


export(globals(), "local")
