# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The operators of the dense group (``include/distlops/operators/dense/``): MatrixMult on one
rank's NumPy arrays and PyLops-MPI's MPIMatrixMult on a square grid of ranks."""
import numpy as np
from mpi4py import MPI

from ._arrays import communicator
from ._factories import export, wraps
from ._operators import LinearOperator, LocalOperator, _ext_function

@wraps("local", "MatrixMult")
def MatrixMult(A, otherdims=None, dtype=None):
    """y = A x for a dense NumPy matrix A (copied), on x of shape ``(A.shape[1], *otherdims)``."""
    dtype = np.dtype(dtype or np.asarray(A).dtype)
    A = np.ascontiguousarray(A, dtype=dtype)
    return LocalOperator(_ext_function("local_MatrixMult", dtype)(A, list(otherdims or [])), dtype)


@wraps("distributed", "MatrixMult")
def MPIMatrixMult(A, M, saveAt=False, base_comm=MPI.COMM_WORLD, dtype="float64",
                  base_comm_nccl=None, kind="summa"):
    """PyLops-MPI's MPIMatrixMult, Y = A X on a square grid of ranks: ``A`` is this rank's
    tile (kind "summa") or row block (kind "block") of the global matrix, ``M`` the number of
    columns of X. Model and data as in the library (docs/operators.md). ``saveAt`` has no
    effect (A^H is applied from A's tiles)."""
    if base_comm_nccl is not None:
        raise ValueError("MPIMatrixMult: base_comm_nccl is not bound (host arrays only)")
    dtype = np.dtype(dtype)
    A = np.ascontiguousarray(A, dtype=dtype)
    return LinearOperator(_ext_function("MatrixMult", dtype)(
        A, int(M), kind, communicator(base_comm)), dtype, base_comm)


export(globals(), "dense")
