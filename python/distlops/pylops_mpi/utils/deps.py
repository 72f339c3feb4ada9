# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's optional-dependency flags: the native package works without NCCL and
mpi4py-fft."""
nccl_enabled = False
cupy_enabled = False
mpi4py_fft_enabled = False

__all__ = ["nccl_enabled"]
