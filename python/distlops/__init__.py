# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""distlops from Python: distributed arrays, operators and solvers with PyLops-MPI's names.

Import mpi4py (which initialises MPI) before or through this package; distlops borrows its
communicators and never finalises MPI.
"""
import importlib

from mpi4py import MPI

from . import _distlops
from ._distlops import (CommunicationError, DeviceError, Error, InvalidArgument,  # noqa: F401
                        IoError, Partition, ReplicaMismatch, ShapeMismatch)


def _check_same_mpi():
    # mpi4py and libdistlops must run on one MPI library: a handle of one means nothing to
    # another.
    ours = _distlops.mpi_library_version().split("\n")[0].strip()
    theirs = MPI.Get_library_version().split("\n")[0].strip()
    if ours != theirs:
        raise ImportError(f"distlops was built with another MPI than mpi4py runs on: distlops "
                          f"'{ours}', mpi4py '{theirs}'")


_check_same_mpi()

# The extension's classes, described here (the C++ classes' documentation, errors.hpp and
# layout.hpp). The errors are raised on every rank alike (a bad input never leaves a rank waiting).
Error.__doc__ = "Base of every exception raised by distlops (a RuntimeError)."
InvalidArgument.__doc__ = ("A parameter outside its valid range: an axis out of bounds, a negative "
                           "size, an unknown option, local shapes that do not sum up to the global "
                           "shape (a ValueError).")
ShapeMismatch.__doc__ = ("Operands that do not fit together: different shapes, layouts, "
                         "partitions or masks (a ValueError).")
CommunicationError.__doc__ = "A failed MPI or NCCL call; the message names the call."
DeviceError.__doc__ = ("A CUDA device that cannot be used: none visible, a build without the CUDA "
                       "backend, or a failed CUDA, cuBLAS or cuFFT call (the message names it).")
IoError.__doc__ = "A file that cannot be read or written, or whose content is malformed."
ReplicaMismatch.__doc__ = ("Replicas of a BROADCAST array that were found to differ between ranks "
                           "(DistributedArray.check_replicas).")
Partition.__doc__ = """How a DistributedArray is held over the ranks (PyLops-MPI's Partition).

SCATTER: split along the distribution axis (or cut over a process grid), each rank its block;
BROADCAST: every rank holds the whole array, data entering from one rank broadcast once;
UNSAFE_BROADCAST: as BROADCAST but never broadcast (the caller keeps the replicas equal)."""

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
