# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's MPISecondDerivative."""
import distlops as _dl

from .._layer import compat

MPISecondDerivative = compat(_dl.MPISecondDerivative)
