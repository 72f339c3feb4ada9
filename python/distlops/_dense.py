# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The operators of the dense group (``include/distlops/operators/dense/``): MatrixMult on one
rank's arrays and PyLops-MPI's MPIMatrixMult on a square grid of ranks. A CuPy matrix makes them
in the CUDA space (``engine="cupy"``), as does PyLops-MPI's ``base_comm_nccl``."""
import numpy as np
from mpi4py import MPI

from ._arrays import communicator, is_cupy_array
from ._factories import export, wraps
from ._operators import LinearOperator, LocalOperator, _ext_function

def _host_matrix(A, dtype, engine):
    """A as a C-contiguous NumPy matrix of ``dtype`` (the factories copy it into the operator's
    space), and the engine: ``engine``, else "cupy" for a CuPy A."""
    if engine is None:
        engine = "cupy" if is_cupy_array(A) else "numpy"
    if is_cupy_array(A):
        A = A.get()
    dtype = np.dtype(dtype or np.asarray(A).dtype)
    return np.ascontiguousarray(A, dtype=dtype), dtype, engine


@wraps("local", "MatrixMult")
def MatrixMult(A, otherdims=None, dtype=None, engine=None):
    """y = A x for a dense NumPy or CuPy matrix A (copied), on x of shape
    ``(A.shape[1], *otherdims)``."""
    A, dtype, engine = _host_matrix(A, dtype, engine)
    return LocalOperator(
        _ext_function("local_MatrixMult", dtype, engine)(A, list(otherdims or [])), dtype)


@wraps("distributed", "MatrixMult")
def MPIMatrixMult(A, M, saveAt=False, base_comm=MPI.COMM_WORLD, dtype="float64",
                  base_comm_nccl=None, kind="summa", engine=None):
    """PyLops-MPI's MPIMatrixMult, Y = A X on a square grid of ranks: ``A`` is this rank's
    tile (kind "summa") or row block (kind "block") of the global matrix, ``M`` the number of
    columns of X. Model and data as in the library (docs/operators.md). ``saveAt`` has no
    effect (A^H is applied from A's tiles). A CuPy ``A`` or a ``base_comm_nccl`` (not used:
    the library chooses how device data cross ranks) makes it on CuPy-engine arrays."""
    if engine is None and base_comm_nccl is not None:
        engine = "cupy"
    A, dtype, engine = _host_matrix(A, dtype, engine)
    return LinearOperator(_ext_function("MatrixMult", dtype, engine, base_comm)(
        A, int(M), kind, communicator(base_comm)), dtype, base_comm)


export(globals(), "dense")
