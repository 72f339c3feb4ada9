# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""distlops from Python: distributed arrays, operators and solvers with PyLops-MPI's names.

Import mpi4py (which initialises MPI) before or through this package; distlops borrows its
communicators and never finalises MPI.
"""
import importlib

from mpi4py import MPI

from . import _distlops
from ._distlops import (CommunicationError, Error, InvalidArgument, IoError,  # noqa: F401
                        Partition, ReplicaMismatch, ShapeMismatch)


def _check_same_mpi():
    # mpi4py and libdistlops must run on one MPI library: a handle of one means nothing to
    # another.
    ours = _distlops.mpi_library_version().split("\n")[0].strip()
    theirs = MPI.Get_library_version().split("\n")[0].strip()
    if ours != theirs:
        raise ImportError(f"distlops was built with another MPI than mpi4py runs on: distlops "
                          f"'{ours}', mpi4py '{theirs}'")


_check_same_mpi()

from ._arrays import DistributedArray, StackedDistributedArray, default_grid  # noqa: E402,F401


def _public(module):
    """The names a module defines (not those it imports) and does not mark private."""
    return {name: value for name, value in vars(module).items()
            if not name.startswith("_") and getattr(value, "__module__", None) == module.__name__}


# The operators, one module per group of the extension's factories (python/src/<group>.cpp,
# include/distlops/operators/<group>/), then the proximal operators and solvers, the solvers and
# the dot test: every public name they define is the package's.
_MODULES = sorted({group for group, *_ in _distlops.factories}) + ["proximal", "solvers", "dottest"]
for _name in _MODULES:
    globals().update(_public(importlib.import_module(f"._{_name}", __name__)))

__version__ = _distlops.version()
