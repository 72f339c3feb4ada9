# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's proximal solvers: the native ones."""
from .primal import ADMML2, ProximalGradient
from .primaldual import PrimalDual

__all__ = ["ProximalGradient", "ADMML2", "PrimalDual"]
