#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Kirchhoff least-squares migration with distlops from Python: the problem of
examples/kirchhoff_lsm.cpp and of examples/porting/kirchhoff_lsm_pylops_mpi.py.

    mpiexec -n 2 python kirchhoff_lsm.py OUTPUT_DIR [--niter 20] [--plot]

The shots are split over the ranks as PyLops-MPI splits them; MPIKirchhoff is the VStack of one
Kirchhoff per rank that the PyLops-MPI script builds by hand, as one operator (compiled kernels,
no PyLops inside). The data are modelled from the true reflectivity (a layered model with three
point scatterers), the image migrated with the adjoint and inverted with CGLS from zero. Rank 0
writes reflectivity.npy, data.npy, migrated.npy, lsm.npy and cost.npy, and with --plot draws them
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
from kirchhoff_lsm_model import problem, true_reflectivity  # noqa: E402

import distlops as dl  # noqa: E402

EXIT_OUTPUT, EXIT_UNAVAILABLE = exit_statuses.OUTPUT, exit_statuses.UNAVAILABLE


def migrate(niter=20, comm=MPI.COMM_WORLD):
    """Every rank's results: the true reflectivity, the data, the migrated and LSM images and
    the cost history of CGLS."""
    arguments, sizes = problem(comm.Get_rank(), comm.Get_size())
    nx, nz, ns, nr, nt = (sizes[key] for key in ("nx", "nz", "ns", "nr", "nt"))
    K = dl.MPIKirchhoff(*arguments, mode="analytic", base_comm=comm)

    r = true_reflectivity(nx, nz)
    r_dist = dl.DistributedArray.to_dist(r, partition=dl.Partition.BROADCAST, base_comm=comm)
    d = K @ r_dist
    migrated = K.H @ d
    x0 = migrated.zeros_like()
    lsm, _, _, _, _, cost = dl.cgls(K, d, x0=x0, niter=niter, tol=0.0)
    return {"reflectivity": r, "data": d.asarray().reshape(ns, nr, nt),
            "migrated": migrated.asarray().reshape(nx, nz),
            "lsm": lsm.asarray().reshape(nx, nz), "cost": np.asarray(cost)}


def plot(results, path):
    """Reflectivity, migrated and LSM images, the middle shot gather and the cost history."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 5, figsize=(20, 4))
    for ax, (title, name) in zip(axes, [("reflectivity", "reflectivity"),
                                        ("migrated (adjoint)", "migrated"), ("LSM (CGLS)", "lsm")]):
        image = results[name]
        clip = np.abs(image).max() or 1.0
        ax.imshow(image.T, aspect="auto", cmap="gray", vmin=-clip, vmax=clip)
        ax.set_title(title)
        ax.set_xlabel("x index")
        ax.set_ylabel("z index")
    gather = results["data"][results["data"].shape[0] // 2]
    clip = np.abs(gather).max() or 1.0
    axes[3].imshow(gather.T, aspect="auto", cmap="gray", vmin=-clip, vmax=clip)
    axes[3].set_title("middle shot gather")
    axes[3].set_xlabel("receiver")
    axes[3].set_ylabel("time sample")
    axes[4].semilogy(results["cost"] / results["cost"][0])
    axes[4].set_title("cost / initial cost")
    axes[4].set_xlabel("iteration")
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


def check_before_the_work(output, plot, comm):
    """Every rank exits alike, before the work, when OUTPUT cannot be written or --plot has no
    matplotlib (exit_statuses.check_before_the_work)."""
    exit_statuses.check_before_the_work("kirchhoff_lsm.py", output, plot, comm)


def command_line():
    """The options, and the examples' table of exit statuses after them in --help."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     epilog=exit_statuses.table(),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output")
    parser.add_argument("--niter", type=int, default=20)
    parser.add_argument("--plot", action="store_true", help="draw OUTPUT/kirchhoff_lsm.png")
    return parser


def main():
    args = command_line().parse_args()
    check_before_the_work(args.output, args.plot, MPI.COMM_WORLD)
    results = migrate(args.niter)
    if MPI.COMM_WORLD.Get_rank() == 0:
        os.makedirs(args.output, exist_ok=True)
        for name, value in results.items():
            np.save(os.path.join(args.output, name + ".npy"), np.asarray(value, dtype=np.float64))
        r = results["reflectivity"]
        for name in ("migrated", "lsm"):
            image = results[name]
            scale = np.vdot(image, r) / max(np.vdot(image, image), np.finfo(float).tiny)
            error = np.linalg.norm(scale * image - r) / np.linalg.norm(r)
            print(f"{name}: relative error of the best-scaled image {error:.3e}")
        if args.plot:
            plot(results, os.path.join(args.output, "kirchhoff_lsm.png"))


if __name__ == "__main__":
    main()
