# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's distributed proximal operators."""
from .L2 import MPIL2
from .L21 import MPIL21

__all__ = ["MPIL2", "MPIL21"]
