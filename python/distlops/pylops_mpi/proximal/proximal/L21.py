# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's MPIL21: the native L21."""
import distlops as _dl
from distlops import StackedDistributedArray

from .L2 import ScalarShift


class MPIL21(ScalarShift, _dl.L21):
    """f(x) = sigma sum_i ||(x_1[i], ..., x_ndim[i])||_2 on a StackedDistributedArray of
    ``ndim`` arrays."""

    def _of(self, x):
        if isinstance(x, StackedDistributedArray) and x.narrays != self.ndim:
            raise ValueError(f"Expected {self.ndim} DistributedArray, got {x.narrays}")
        return super()._of(x)
