# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's MPIFFT2D."""
import distlops as _dl

from .._layer import compat

MPIFFT2D = compat(_dl.MPIFFT2D)
