#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Post-stack inversion with distlops from Python: examples/porting/poststack_pylops_mpi.py
with `import distlops as dl` in place of PyLops-MPI.

    pip install pylops matplotlib      # besides distlops: serial PyLops, and --plot's pictures
    mpiexec -n 2 python poststack_inversion.py OUTPUT_DIR [--ny 8 --nx 24 --nz 80 --niter 20]

The same problem as the PyLops-MPI script (whose model and smoothing it reuses): each rank models
its traces with serial PyLops' PoststackLinearModelling, which distlops' MPIBlockDiag takes as a
local operator (its matvec and rmatvec called from the C++ apply); a 3-D Laplacian regularises
it. Three inversions start from a smooth background: CGLS on the modelling alone, CG on the
regularised normal equations, CGLS on the stacked operator [G; sqrt(eps) L]. Rank 0 writes the
results as .npy files, and with --plot draws the true and inverted models and the cost histories
with matplotlib. The output directory is checked before the work; the exit statuses are the C++
examples' (examples/support/exit_statuses.txt).
"""
import argparse
import os
import sys

import numpy as np
from mpi4py import MPI

_examples = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path[:0] = [os.path.join(_examples, "porting"), os.path.join(_examples, "support")]
import exit_statuses  # noqa: E402  the examples' table of exit statuses
from poststack_model import impedance, smooth  # noqa: E402  the shared test problem (NumPy only)

try:
    import pylops
    from pylops.avo.poststack import PoststackLinearModelling
    from pylops.utils.wavelets import ricker
except ImportError as error:
    print(f"poststack_inversion.py: {error.name} is missing: this example models each rank's "
          "traces with serial PyLops (pip install pylops, or pip install \".[examples]\" from the "
          "repository's root)", file=sys.stderr)
    sys.exit(exit_statuses.UNAVAILABLE)

import distlops as dl  # noqa: E402

EXIT_OUTPUT, EXIT_UNAVAILABLE = exit_statuses.OUTPUT, exit_statuses.UNAVAILABLE


def invert(ny=8, nx=24, nz=80, niter=20, eps=0.5, comm=MPI.COMM_WORLD):
    """Every rank's results: the global inputs, inverted models and cost histories."""
    rank, size = comm.Get_rank(), comm.Get_size()
    m = np.log(impedance(ny, nx, nz))
    mback = smooth(m, (2, 6, 10))
    dt, f0, ntwav = 0.004, 20.0, 41
    wav = ricker(np.arange(ntwav // 2 + 1) * dt, f0)[0]

    ny_ranks = [ny // size + (1 if r < ny % size else 0) for r in range(size)]
    ny_r = ny_ranks[rank]
    # N-d arrays split along y: distlops' operators take them directly (no flattening).
    m_dist = dl.DistributedArray.to_dist(m, base_comm=comm)
    mback_dist = dl.DistributedArray.to_dist(mback, base_comm=comm)

    PPop = PoststackLinearModelling(wav, nt0=nz, spatdims=(ny_r, nx))
    Top = pylops.Transpose((ny_r, nx, nz), axes=(2, 0, 1))
    G = dl.MPIBlockDiag([Top.H @ PPop @ Top], base_comm=comm)  # serial PyLops inside
    d_dist = G @ m_dist

    x_cgls, _, _, _, _, cost_cgls = dl.cgls(G, d_dist, x0=mback_dist, niter=niter, tol=0.0)

    L = dl.MPILaplacian((ny, nx, nz), axes=(0, 1, 2), weights=(1, 1, 1), sampling=(1, 1, 1),
                        base_comm=comm)
    N = G.H @ G + eps * L.H @ L
    x_cg, _, cost_cg = dl.cg(N, G.H @ d_dist, x0=mback_dist, niter=niter, tol=0.0)

    A = dl.MPIStackedVStack([G, np.sqrt(eps) * L])
    rhs = dl.StackedDistributedArray([d_dist, d_dist.zeros_like()])
    x_reg, _, _, _, _, cost_reg = dl.cgls(A, rhs, x0=mback_dist, niter=niter, tol=0.0)

    return {
        "model": m, "background": mback, "wavelet": wav,
        "data": d_dist.asarray().reshape(ny, nx, nz),
        "x_cgls": x_cgls.asarray(), "cost_cgls": cost_cgls,
        "x_cg": x_cg.asarray(), "cost_cg": cost_cg,
        "x_reg": x_reg.asarray(), "cost_reg": cost_reg,
    }


def plot(results, path):
    """The true, starting and inverted models (a section at the middle y) and the costs."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    iy = results["model"].shape[0] // 2
    panels = [("true model", "model"), ("starting model", "background"),
              ("CGLS", "x_cgls"), ("CGLS, Laplacian-regularised", "x_reg")]
    fig, axes = plt.subplots(1, len(panels) + 1, figsize=(18, 4))
    vmin, vmax = results["model"].min(), results["model"].max()
    for ax, (title, name) in zip(axes, panels):
        ax.imshow(results[name][iy].T, aspect="auto", cmap="gist_rainbow", vmin=vmin, vmax=vmax)
        ax.set_title(title)
        ax.set_xlabel("x")
        ax.set_ylabel("t")
    for name, label in [("cost_cgls", "CGLS"), ("cost_cg", "CG, normal equations"),
                        ("cost_reg", "CGLS, regularised")]:
        axes[-1].semilogy(results[name] / results[name][0], label=label)
    axes[-1].set_title("cost / initial cost")
    axes[-1].set_xlabel("iteration")
    axes[-1].legend()
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


def check_before_the_work(output, plot, comm):
    """Every rank exits alike, before the work, when OUTPUT cannot be written or --plot has no
    matplotlib (exit_statuses.check_before_the_work)."""
    exit_statuses.check_before_the_work("poststack_inversion.py", output, plot, comm)


def command_line():
    """The options, and the examples' table of exit statuses after them in --help."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     epilog=exit_statuses.table(),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output")
    parser.add_argument("--ny", type=int, default=8)
    parser.add_argument("--nx", type=int, default=24)
    parser.add_argument("--nz", type=int, default=80)
    parser.add_argument("--niter", type=int, default=20)
    parser.add_argument("--eps", type=float, default=0.5)
    parser.add_argument("--plot", action="store_true", help="draw OUTPUT/poststack.png")
    return parser


def main():
    args = command_line().parse_args()
    check_before_the_work(args.output, args.plot, MPI.COMM_WORLD)
    results = invert(args.ny, args.nx, args.nz, args.niter, args.eps)
    if MPI.COMM_WORLD.Get_rank() == 0:
        os.makedirs(args.output, exist_ok=True)
        for name, value in results.items():
            np.save(os.path.join(args.output, name + ".npy"), np.asarray(value, dtype=np.float64))
        m = results["model"]
        for name in ("x_cgls", "x_cg", "x_reg"):
            error = np.linalg.norm(results[name] - m) / np.linalg.norm(m)
            print(f"{name}: relative model error {error:.3e}")
        if args.plot:
            plot(results, os.path.join(args.output, "poststack.png"))


if __name__ == "__main__":
    main()
