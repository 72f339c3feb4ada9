# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's MPIFirstDerivative."""
import distlops as _dl

from .._layer import compat

MPIFirstDerivative = compat(_dl.MPIFirstDerivative)
