# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Post-stack inversion of a small 3-D cube with PyLops-MPI.

The PyLops-MPI side of docs/porting.md: examples/porting/poststack_port.cpp is its translation
to distlops, step by step, and tests/porting/compare_poststack.py runs both on the same problem
and compares their results.

    mpiexec -n 2 python poststack_pylops_mpi.py OUTPUT_DIR [--ny 8 --nx 24 --nz 80 --niter 20]

The model is the logarithm of an acoustic impedance on a (ny, nx, nz) grid (traces along y and
x, time along z), split over the ranks along y. Each rank models its traces with PyLops'
PoststackLinearModelling (a centred time derivative followed by a convolution with a Ricker
wavelet); MPIBlockDiag assembles the ranks' operators. Three inversions start from a smooth
background model:

1. CGLS on the modelling operator alone;
2. CG on the normal equations regularised with a 3-D Laplacian, (G^H G + eps L^H L) m = G^H d;
3. CGLS on the stacked operator [G; sqrt(eps) L] with data [d; 0] (the same problem).

Rank 0 writes the inputs, the inverted models and the cost histories as .npy files.
"""
import argparse
import os

import numpy as np
from mpi4py import MPI

import pylops
import pylops_mpi
from pylops.avo.poststack import PoststackLinearModelling
from pylops.utils.wavelets import ricker

from poststack_model import impedance, smooth  # the problem, shared with the distlops script


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output")
    parser.add_argument("--ny", type=int, default=8)
    parser.add_argument("--nx", type=int, default=24)
    parser.add_argument("--nz", type=int, default=80)
    parser.add_argument("--niter", type=int, default=20)
    parser.add_argument("--eps", type=float, default=0.5)
    args = parser.parse_args()
    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    ny, nx, nz, niter, eps = args.ny, args.nx, args.nz, args.niter, args.eps

    # Model, background and wavelet: the same global arrays on every rank.
    m = np.log(impedance(ny, nx, nz))
    mback = smooth(m, (2, 6, 10))
    dt, f0, ntwav = 0.004, 20.0, 41
    wav = ricker(np.arange(ntwav // 2 + 1) * dt, f0)[0]

    # Split along y with PyLops-MPI's rule; the flat arrays keep whole traces on every rank.
    ny_ranks = [ny // size + (1 if r < ny % size else 0) for r in range(size)]
    local_shapes = [(n * nx * nz,) for n in ny_ranks]
    ny_r = ny_ranks[rank]
    m_dist = pylops_mpi.DistributedArray.to_dist(m.ravel(), local_shapes=local_shapes)
    mback_dist = pylops_mpi.DistributedArray.to_dist(mback.ravel(), local_shapes=local_shapes)

    # Each rank's modelling operator: time must come first for PoststackLinearModelling.
    PPop = PoststackLinearModelling(wav, nt0=nz, spatdims=(ny_r, nx))
    Top = pylops.Transpose((ny_r, nx, nz), axes=(2, 0, 1))
    G = pylops_mpi.MPIBlockDiag(ops=[Top.H @ PPop @ Top])
    d_dist = G @ m_dist

    # 1. CGLS on the modelling operator (tol = 0: exactly niter iterations).
    x_cgls, _, _, _, _, cost_cgls = pylops_mpi.cgls(G, d_dist, x0=mback_dist, niter=niter, tol=0.0)

    # 2. CG on the regularised normal equations.
    L = pylops_mpi.MPILaplacian(dims=(ny, nx, nz), axes=(0, 1, 2), weights=(1, 1, 1),
                                sampling=(1, 1, 1), dtype="float64")
    N = G.H @ G + eps * L.H @ L
    x_cg, _, cost_cg = pylops_mpi.cg(N, G.H @ d_dist, x0=mback_dist, niter=niter, tol=0.0)

    # 3. CGLS on the stacked operator [G; sqrt(eps) L] with data [d; 0].
    A = pylops_mpi.MPIStackedVStack([G, np.sqrt(eps) * L])
    zero_dist = pylops_mpi.DistributedArray(global_shape=ny * nx * nz, local_shapes=local_shapes)
    zero_dist[:] = 0.0
    rhs = pylops_mpi.StackedDistributedArray([d_dist, zero_dist])
    x_reg, _, _, _, _, cost_reg = pylops_mpi.cgls(A, rhs, x0=mback_dist, niter=niter, tol=0.0)

    # Gather on every rank (asarray is collective); rank 0 writes.
    results = {
        "model": m, "background": mback, "wavelet": wav,
        "data": d_dist.asarray().reshape(ny, nx, nz),
        "x_cgls": x_cgls.asarray().reshape(ny, nx, nz), "cost_cgls": cost_cgls,
        "x_cg": x_cg.asarray().reshape(ny, nx, nz), "cost_cg": cost_cg,
        "x_reg": x_reg.asarray().reshape(ny, nx, nz), "cost_reg": cost_reg,
    }
    if rank == 0:
        os.makedirs(args.output, exist_ok=True)
        for name, value in results.items():
            np.save(os.path.join(args.output, name + ".npy"), np.asarray(value, dtype=np.float64))
        for name in ("x_cgls", "x_cg", "x_reg"):
            error = np.linalg.norm(results[name] - m) / np.linalg.norm(m)
            print(f"{name}: model error {error:.4e}")


if __name__ == "__main__":
    main()
