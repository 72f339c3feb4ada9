# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The post-stack test problem of docs/porting.md in NumPy alone: the impedance cube and the
smoothing of the starting model, shared by the PyLops-MPI script (poststack_pylops_mpi.py) and
its distlops translation (examples/python/poststack_inversion.py), so that the latter needs no
PyLops-MPI. examples/porting/poststack_port.cpp computes the same arrays in C++."""
import numpy as np


def impedance(ny, nx, nz):
    """Acoustic impedance: three dipping interfaces, a lens and a trend with depth."""
    y = np.arange(ny)[:, None, None] / max(ny - 1, 1)
    x = np.arange(nx)[None, :, None] / max(nx - 1, 1)
    z = np.arange(nz)[None, None, :] / max(nz - 1, 1)
    z1 = 0.2513 + 0.1037 * x + 0.0519 * y
    z2 = 0.5521 - 0.0813 * x
    z3 = 0.8017 + 0.0307 * y
    ai = np.where(z < z1, 3000.0, np.where(z < z2, 4200.0, np.where(z < z3, 3600.0, 5000.0)))
    lens = (x - 0.61) ** 2 / 0.041 + (z - 0.43) ** 2 / 0.0053 + (y - 0.47) ** 2 / 0.53 < 1.0
    ai = np.where(lens, 4800.0, ai)
    return ai * (1.0 + 0.1 * z)


def smooth(field, radii):
    """Running means of half-widths `radii` along each axis (windows cut at the edges)."""
    for axis, radius in enumerate(radii):
        n = field.shape[axis]
        total = np.zeros_like(field)
        count = np.zeros(n)
        for shift in range(-radius, radius + 1):
            lo, hi = max(0, -shift), min(n, n - shift)
            dst = [slice(None)] * field.ndim
            src = [slice(None)] * field.ndim
            dst[axis], src[axis] = slice(lo, hi), slice(lo + shift, hi + shift)
            total[tuple(dst)] += field[tuple(src)]
            count[lo:hi] += 1
        shape = [1] * field.ndim
        shape[axis] = n
        field = total / count.reshape(shape)
    return field
