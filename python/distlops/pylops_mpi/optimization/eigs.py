# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's power_iteration."""
import numpy as np

import distlops as _dl
from distlops import DistributedArray

from .._layer import operand


def power_iteration(Op, b_k, niter=10, tol=1e-5, dtype="float64", backend="numpy"):
    """The eigenvalue of largest modulus of a square Op: (maxeig, b_k, iiter).

    As PyLops-MPI, ``b_k`` is overwritten with NumPy's random values (np.random.rand on each
    rank, plus an imaginary part for a complex ``dtype``) before the iterations start there."""
    imaginary = 1j if np.issubdtype(np.dtype(dtype), np.complexfloating) else 0
    for block in [b_k] if isinstance(b_k, DistributedArray) else b_k.distarrays:
        n = block.local_shape[0]
        block[:] = np.random.rand(n).astype(dtype) + imaginary * np.random.rand(n).astype(dtype)
    return _dl.power_iteration(Op, operand(Op, b_k), niter=niter, tol=tol, dtype=dtype,
                               backend=backend)
