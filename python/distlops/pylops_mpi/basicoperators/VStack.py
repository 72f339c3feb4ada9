# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's MPIVStack and MPIStackedVStack."""
import distlops as _dl

from .._layer import MPIStackedLinearOperator, compat

MPIVStack = compat(_dl.MPIVStack)


def MPIStackedVStack(ops, base_comm=None, dtype=None):
    """The vertical stack of distributed operators: a StackedDistributedArray of their data."""
    return MPIStackedLinearOperator.adopt(_dl.MPIStackedVStack(list(ops)))
