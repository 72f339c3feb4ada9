# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's power_iteration."""
import distlops as _dl

from .._layer import operand


def power_iteration(Op, b_k, niter=10, tol=1e-5, dtype="float64", backend="numpy"):
    """The eigenvalue of largest modulus of a square Op: (maxeig, b_k, iiter)."""
    return _dl.power_iteration(Op, operand(Op, b_k), niter=niter, tol=tol, dtype=dtype,
                               backend=backend)
