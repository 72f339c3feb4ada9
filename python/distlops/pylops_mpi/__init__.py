# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI 0.8's API over the native package: ``import distlops.pylops_mpi as pylops_mpi``
is the only change a PyLops-MPI script needs.

The module tree, names, signatures and defaults are PyLops-MPI's, and so are its vector
conventions: operators take and return flat DistributedArrays in any split (moved to the
operator's split where they differ, a planned redistribution), BROADCAST inputs included, and
cg/cgls compare ``tol`` with squared residual norms. The arrays, operators and solvers are the
native package's objects (docs/porting.md says when to use which).
"""
from . import (basicoperators, optimization, plotting, proximal,  # noqa: F401
               signalprocessing, utils, waveeqprocessing)
from .basicoperators import *  # noqa: F401,F403
from .DistributedArray import DistributedArray, Partition, StackedDistributedArray  # noqa: F401
from .LinearOperator import MPILinearOperator, asmpilinearoperator  # noqa: F401
from .optimization.basic import CG, CGLS, cg, cgls  # noqa: F401
from .optimization.sparsity import FISTA, ISTA, fista, ista  # noqa: F401
from .plotting.plotting import plot_distributed_array, plot_local_arrays  # noqa: F401
from .proximal.ProxOperator import MPIProxOperator  # noqa: F401
from .StackedLinearOperator import MPIStackedLinearOperator  # noqa: F401

__version__ = "0.8.0"
