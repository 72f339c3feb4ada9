# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's MPIFredholm1."""
import distlops as _dl

from .._layer import compat

MPIFredholm1 = compat(_dl.MPIFredholm1)
