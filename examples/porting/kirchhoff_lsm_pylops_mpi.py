# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Kirchhoff least-squares migration with PyLops-MPI: the problem of examples/kirchhoff_lsm.cpp.

    mpiexec -n 2 python kirchhoff_lsm_pylops_mpi.py OUTPUT_DIR [--niter 20] [--engine numba]

Each rank builds PyLops' Kirchhoff for its shots (PyLops-MPI's default split), MPIVStack stacks
them (model BROADCAST, data split by shot); the data are modelled from the true reflectivity, the
image migrated with the adjoint and inverted with PyLops-MPI's CGLS from zero. Rank 0 writes
reflectivity.npy, data.npy, migrated.npy, lsm.npy and cost.npy, which
tests/porting/compare_poststack.py compares with the distlops program's.
"""
import argparse
import os
import warnings

import numpy as np
from mpi4py import MPI

import pylops_mpi
from pylops.waveeqprocessing import Kirchhoff

from kirchhoff_lsm_model import problem, true_reflectivity

warnings.simplefilter("ignore", FutureWarning)  # PyLops' notice about its table format


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output")
    parser.add_argument("--niter", type=int, default=20)
    parser.add_argument("--engine", default="numpy", choices=("numpy", "numba"))
    args = parser.parse_args()
    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    arguments, sizes = problem(rank, size)
    nx, nz, ns, nr, nt = (sizes[key] for key in ("nx", "nz", "ns", "nr", "nt"))
    local = Kirchhoff(*arguments, mode="analytic", engine=args.engine, dtype="float64")
    K = pylops_mpi.MPIVStack(ops=[local])

    r = true_reflectivity(nx, nz)
    r_dist = pylops_mpi.DistributedArray.to_dist(r.ravel(), partition=pylops_mpi.Partition.BROADCAST)
    d = K @ r_dist
    migrated = K.H @ d
    x0 = pylops_mpi.DistributedArray(global_shape=nx * nz, partition=pylops_mpi.Partition.BROADCAST)
    x0[:] = 0
    lsm, _, _, _, _, cost = pylops_mpi.cgls(K, d, x0=x0, niter=args.niter, tol=0, show=False)

    data = d.asarray()
    if rank == 0:
        os.makedirs(args.output, exist_ok=True)
        np.save(os.path.join(args.output, "reflectivity.npy"), r)
        np.save(os.path.join(args.output, "data.npy"), data.reshape(ns, nr, nt))
        np.save(os.path.join(args.output, "migrated.npy"), migrated.asarray().reshape(nx, nz))
        np.save(os.path.join(args.output, "lsm.npy"), lsm.asarray().reshape(nx, nz))
        np.save(os.path.join(args.output, "cost.npy"), np.asarray(cost))


if __name__ == "__main__":
    main()
