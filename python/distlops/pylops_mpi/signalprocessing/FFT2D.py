# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's MPIFFT2D: the native transform, with the exact inverse ``F / y``."""
from mpi4py import MPI

import distlops as _dl

from ._inverse import make_fft


def MPIFFT2D(dims, axes=(0, 1), sampling=1.0, norm="none", real=False,
             ifftshift_before=False, fftshift_after=False, dtype="complex128",
             base_comm=MPI.COMM_WORLD):
    return make_fft(_dl.MPIFFT2D, dims, axes, sampling, norm, real, ifftshift_before,
                    fftshift_after, dtype, base_comm)
