# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's ``pylops_mpi.proximal``: MPIProxOperator, the native proximal operators under
PyLops-MPI's names, and the native proximal solvers."""
from .optimization import ADMML2, PrimalDual, ProximalGradient  # noqa: F401
from .ProxOperator import MPIProxOperator
from .proximal import MPIL2, MPIL21  # noqa: F401

__all__ = ["MPIProxOperator"]
