# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's ProximalGradient and ADMML2: the native solvers."""
from distlops import ADMML2, ProximalGradient  # noqa: F401
