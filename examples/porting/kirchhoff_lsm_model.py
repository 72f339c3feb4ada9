# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The Kirchhoff LSM problem of examples/kirchhoff_lsm.cpp in NumPy: the same formulas, so that
kirchhoff_lsm_pylops_mpi.py solves the same problem (compared in CI)."""
import numpy as np


def layered_velocity(nx, nz):
    """(nx, nz): 1800 m/s, 300 m/s more below each interface at 30 %, 55 % and 80 % of depth."""
    iz = np.arange(nz)
    v = np.full(nz, 1800.0)
    for fraction in (0.3, 0.55, 0.8):
        v[iz >= int(np.floor(fraction * nz))] += 300
    return np.tile(v, (nx, 1))


def true_reflectivity(nx, nz):
    """Normal-incidence reflection coefficients of the layers and three point scatterers of 0.1
    at 15 % of the depth."""
    v = layered_velocity(nx, nz)
    r = np.zeros((nx, nz))
    r[:, :-1] = (v[:, 1:] - v[:, :-1]) / (v[:, 1:] + v[:, :-1])
    depth = int(np.floor(0.15 * nz))
    for fraction in (0.25, 0.5, 0.75):
        r[int(np.floor(fraction * nx)), depth] += 0.1
    return r


def ricker(half, dt, f0):
    """A Ricker wavelet of 2 half + 1 samples centred at sample `half`."""
    a = np.pi * f0 * ((np.arange(2 * half + 1) - half) * dt)
    return (1 - 2 * (a * a)) * np.exp(-(a * a))


def surface_points(n, extent):
    """n points over [0, extent] at depth 0, shape (2, n) as PyLops takes them."""
    step = extent / (n - 1) if n > 1 else 0.0
    return np.vstack([np.arange(n) * step, np.zeros(n)])


def problem(rank, size):
    """The whole geometry of the LSM problem of examples/kirchhoff_lsm.cpp as PyLops' Kirchhoff
    takes it (z, x, t, this rank's sources, receivers, velocity, wavelet, its centre), with the
    shots split over the ranks as PyLops-MPI splits them, and the grid sizes."""
    nx, nz, ns, nr, nt = 41, 31, 6, 21, 130
    dx, dz, dt, velocity, f0, half = 10.0, 10.0, 0.004, 2000.0, 15.0, 12
    x, z, t = np.arange(nx) * dx, np.arange(nz) * dz, np.arange(nt) * dt
    shares = [ns // size + (1 if r < ns % size else 0) for r in range(size)]
    first = sum(shares[:rank])
    mine = surface_points(ns, x[-1])[:, first:first + shares[rank]]
    arguments = (z, x, t, mine, surface_points(nr, x[-1]), velocity, ricker(half, dt, f0), half)
    return arguments, {"nx": nx, "nz": nz, "ns": ns, "nr": nr, "nt": nt}
