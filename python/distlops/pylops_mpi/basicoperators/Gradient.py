# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's MPIGradient: its data are a StackedDistributedArray, one item per axis."""
import numpy as np
from mpi4py import MPI

import distlops as _dl

from .._layer import MPIStackedLinearOperator


def MPIGradient(dims, sampling=1, edge=False, kind="centered", base_comm=MPI.COMM_WORLD,
                dtype=np.float64):
    return MPIStackedLinearOperator.adopt(_dl.MPIGradient(dims, sampling=sampling, edge=edge,
                                                          kind=kind, base_comm=base_comm,
                                                          dtype=dtype))
