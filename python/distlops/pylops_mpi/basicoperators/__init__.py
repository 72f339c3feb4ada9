# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's ``pylops_mpi.basicoperators``: the native operators seen on flat vectors."""
from .BlockDiag import MPIBlockDiag, MPIStackedBlockDiag
from .FirstDerivative import MPIFirstDerivative
from .Gradient import MPIGradient
from .Halo import MPIHalo, halo_block_split  # noqa: F401
from .HStack import MPIHStack
from .Laplacian import MPILaplacian
from .MatrixMult import (MPIMatrixMult, active_grid_comm, block_gather,  # noqa: F401
                         local_block_split)
from .SecondDerivative import MPISecondDerivative
from .VStack import MPIStackedVStack, MPIVStack

__all__ = ["MPIMatrixMult", "MPIBlockDiag", "MPIStackedBlockDiag", "MPIVStack",
           "MPIStackedVStack", "MPIHStack", "MPIFirstDerivative", "MPISecondDerivative",
           "MPILaplacian", "MPIGradient", "MPIHalo"]
