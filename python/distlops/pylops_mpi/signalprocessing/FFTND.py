# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's MPIFFTND: the native transform, with the exact inverse ``F / y``."""
from mpi4py import MPI

import distlops as _dl

from ._inverse import adopt_fft


def MPIFFTND(dims, axes=(0, 1, 2), sampling=1.0, norm="none", real=False,
             ifftshift_before=False, fftshift_after=False, dtype="complex128",
             base_comm=MPI.COMM_WORLD):
    native = _dl.MPIFFTND(dims, axes=axes, sampling=sampling, norm=norm, real=real,
                          ifftshift_before=ifftshift_before, fftshift_after=fftshift_after,
                          dtype=dtype, base_comm=base_comm)
    dims = (int(dims),) if isinstance(dims, int) else tuple(int(n) for n in dims)
    return adopt_fft(native, dims, [a % len(dims) for a in axes], None, norm)
