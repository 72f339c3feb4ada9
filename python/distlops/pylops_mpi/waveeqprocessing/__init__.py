# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's ``pylops_mpi.waveeqprocessing``."""
from .MDC import MPIMDC

__all__ = ["MPIMDC"]
