# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's ``pylops_mpi.signalprocessing``."""
from .FFT2D import MPIFFT2D
from .FFTND import MPIFFTND
from .Fredholm1 import MPIFredholm1
from .NonStatConvolve1d import MPINonStationaryConvolve1D

__all__ = ["MPIFredholm1", "MPINonStationaryConvolve1D", "MPIFFT2D", "MPIFFTND"]
