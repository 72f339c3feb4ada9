# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""distlops from Python: distributed arrays, operators and solvers with PyLops-MPI's names.

Import mpi4py (which initialises MPI) before or through this package; distlops borrows its
communicators and never finalises MPI.
"""
from mpi4py import MPI

from . import _distlops
from ._distlops import (CommunicationError, Error, InvalidArgument, IoError, Partition,
                        ReplicaMismatch, ShapeMismatch)


def _check_same_mpi():
    # mpi4py and libdistlops must run on one MPI library: a handle of one means nothing to
    # another.
    ours = _distlops.mpi_library_version().split("\n")[0].strip()
    theirs = MPI.Get_library_version().split("\n")[0].strip()
    if ours != theirs:
        raise ImportError(f"distlops was built with another MPI than mpi4py runs on: distlops "
                          f"'{ours}', mpi4py '{theirs}'")


_check_same_mpi()

from ._arrays import DistributedArray, StackedDistributedArray, default_grid  # noqa: E402
from ._operators import (Diagonal, FunctionOperator, Identity, LinearOperator,  # noqa: E402
                         LocalFirstDerivative, LocalOperator, LocalSecondDerivative, MatrixMult,
                         MPIBlockDiag, MPIFirstDerivative, MPIGradient, MPIHStack, MPILaplacian,
                         MPISecondDerivative, MPIStackedBlockDiag, MPIStackedHStack,
                         MPIStackedVStack, MPIVStack, aslocal, Convolve1D, FFT, FFT2D, FFTND,
                         MPIConvolve1D, MPIConvolve2D, MPIConvolveND, MPIFFT2D, MPIFFTND,
                         MPIFredholm1, MPIHalo,
                         MPIMatrixMult, MPIMDC, MPIPatch2D, MPISliding1D, MPISliding2D,
                         MPIPoststackLinearModelling, Pad, PoststackLinearModelling, Reshape,
                         Replicated, Restriction, Scaling, Transpose, Zero, asmpilinearoperator)
from ._proximal import (ADMML2, L1, L2, L21, MPIL2, AcceleratedProximalGradient,  # noqa: E402
                        Box, EuclideanBall, LinearizedADMM, PrimalDual, ProximalGradient,
                        ProxOperator)
from ._solvers import cg, cgls, fista, ista, lsqr, power_iteration  # noqa: E402
from ._dottest import dottest  # noqa: E402

__version__ = _distlops.version()

# PyLops-MPI's short names.
BlockDiag = MPIBlockDiag
VStack = MPIVStack
HStack = MPIHStack
MPILinearOperator = LinearOperator
