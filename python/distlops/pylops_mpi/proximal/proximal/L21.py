# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's MPIL21: the native L21."""
import distlops as _dl


class MPIL21(_dl.L21):
    """f(x) = sigma sum_i ||(x_1[i], ..., x_ndim[i])||_2 on a StackedDistributedArray of
    ``ndim`` arrays."""
