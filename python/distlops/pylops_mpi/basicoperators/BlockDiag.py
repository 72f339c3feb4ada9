# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's MPIBlockDiag and MPIStackedBlockDiag (the native stack operators)."""
import distlops as _dl

from .._layer import MPIStackedLinearOperator, compat

MPIBlockDiag = compat(_dl.MPIBlockDiag)


def MPIStackedBlockDiag(ops, base_comm=None, dtype=None):
    """The block-diagonal operator of distributed operators, on StackedDistributedArrays.
    ``dtype`` (PyLops-MPI's argument) is the operators' own; ``base_comm`` is theirs too."""
    return MPIStackedLinearOperator.adopt(_dl.MPIStackedBlockDiag(list(ops)))
