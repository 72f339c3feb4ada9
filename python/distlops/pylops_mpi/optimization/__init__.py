# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's ``pylops_mpi.optimization``: the native solvers on flat vectors, with
PyLops-MPI's stopping rules."""
