#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Writes kirchhoff_pylops.npz: PyLops' own Kirchhoff applied to fixed models and data on small
geometries, for test_kirchhoff.cpp (which reads the inputs and the outputs from the archive).

    python3 make_kirchhoff_reference.py [OUT.npz]        (needs pylops and numpy)

Each case <c> stores: grid (ny, y0, dy, nx, x0, dx, nz, z0, dz, nt, dt; ny = 0 in 2-D), sources
and receivers (points x dims, point-major), wavelet, centre, options (velocity, dynamic,
wavelet filter, tables), the model m and data d, and PyLops' K m and K^H d. With tables, the
traveltime and amplitude tables (point-major) are stored too.
"""
import sys
import warnings

import numpy as np
import pylops
from pylops.waveeqprocessing import Kirchhoff

warnings.simplefilter("ignore")


def ricker(nt, dt, f0):
    t = np.arange(nt) * dt
    t = t - t[nt // 2]
    a = (np.pi * f0 * t) ** 2
    return (1 - 2 * a) * np.exp(-a)


def run(out, name, y, x, z, nt, dt, srcs, recs, wav, wavc, vel, *, dynamic, wavfilter,
        tables=False, rng):
    t = np.arange(nt) * dt
    kwargs = dict(y=y, wavfilter=wavfilter, dynamic=dynamic, engine="numpy", dtype="float64")
    ni = (1 if y is None else len(y)) * len(x) * len(z)
    if tables:
        # Tables from a constant velocity plus a smooth perturbation, amplitudes of their own.
        grid = np.meshgrid(*([y] if y is not None else []), x, z, indexing="ij")
        pts = np.stack([g.ravel() for g in grid])
        def table(points):
            d = np.sqrt(((pts[:, :, None] - points[:, None, :]) ** 2).sum(0))
            return d / vel * (1 + 0.05 * np.sin(pts[-1][:, None] / 7.0)), 1 / np.sqrt(d + 3.0)
        ts, as_ = table(srcs)
        tr, ar = table(recs)
        op = Kirchhoff(z, x, t, srcs, recs, vel * np.ones(ni), wav, wavc, mode="byot",
                       trav=(ts, tr), amp=(as_, ar) if dynamic else None, **kwargs)
        out[name + "_trav_srcs"] = ts.T.copy()
        out[name + "_trav_recs"] = tr.T.copy()
        out[name + "_amp_srcs"] = as_.T.copy()
        out[name + "_amp_recs"] = ar.T.copy()
    else:
        op = Kirchhoff(z, x, t, srcs, recs, float(vel), wav, wavc, mode="analytic", **kwargs)
    m = rng.standard_normal(op.shape[1])
    d = rng.standard_normal(op.shape[0])
    axis = lambda a: [len(a), a[0], a[1] - a[0]]
    out[name + "_grid"] = np.array(([0, 0, 1] if y is None else axis(y)) + axis(x) + axis(z)
                                   + [nt, dt], dtype=float)
    out[name + "_sources"] = srcs.T.copy()
    out[name + "_receivers"] = recs.T.copy()
    out[name + "_wavelet"] = wav
    out[name + "_options"] = np.array([wavc, vel, dynamic, wavfilter, tables], dtype=float)
    out[name + "_model"] = m
    out[name + "_data"] = d
    out[name + "_forward"] = op @ m
    out[name + "_adjoint"] = op.H @ d


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "kirchhoff_pylops.npz"
    rng = np.random.default_rng(40)
    out = {}
    nt, dt = 60, 0.0037
    wav = ricker(15, dt, 25.0)
    x = np.arange(9) * 10.0 + 3.0
    z = np.arange(7) * 10.0 + 15.0
    srcs = np.array([[11.0, 47.5, 80.0], [0.0, 31.0, 15.0]])
    recs = np.array([[3.0, 24.2, 41.0, 66.6, 83.0], [0.0, 0.0, 22.0, 5.0, 0.0]])
    run(out, "kinematic2d", None, x, z, nt, dt, srcs, recs, wav, 7, 1500.0, dynamic=False,
        wavfilter=False, rng=rng)
    run(out, "dynamic2d", None, x, z, nt, dt, srcs, recs, wav, 7, 1500.0, dynamic=True,
        wavfilter=True, rng=rng)
    run(out, "tables2d", None, x, z, nt, dt, srcs, recs, wav, 7, 1500.0, dynamic=True,
        wavfilter=False, tables=True, rng=rng)
    y = np.arange(3) * 10.0 - 5.0
    x3 = np.arange(4) * 10.0
    z3 = np.arange(5) * 10.0 + 10.0
    srcs3 = np.array([[0.0, 12.0], [5.0, 21.0], [0.0, 33.0]])
    recs3 = np.array([[-5.0, 2.5, 15.0], [0.0, 17.0, 30.0], [0.0, 4.0, 10.0]])
    run(out, "kinematic3d", y, x3, z3, nt, dt, srcs3, recs3, wav, 7, 1500.0, dynamic=False,
        wavfilter=True, rng=rng)
    out["pylops_version"] = np.array([float(v) for v in pylops.__version__.split(".")[:3]])
    np.savez(path, **out)


if __name__ == "__main__":
    main()
