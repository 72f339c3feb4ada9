#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""What the Python package adds to distlops, and PyLops-MPI on the same problems.

    mpiexec -n P python benchmarks/python_overhead.py [--tiny-n 10] [--n 2000] [--niter 50]

Cases (the problems of distlops_bench's tiny-cgls and blockdiag-cgls: one dense n x n block per
rank in a BlockDiag, CGLS from zero with tol = 0):

- apply: one `matvec_into` (no allocation) and one `matvec` (allocates the result) from Python
  on the tiny operator, against the same apply called on the extension object directly;
- solve: the time per CGLS iteration of dl.cgls (the iterations run in C++): for tiny-cgls
  from the difference of solves of niter and niter / 2 iterations, so that the fixed cost of a
  call (argument conversion, setup, the result's tuple) is separated and reported per call;
  for blockdiag-cgls the whole solve divided by niter, as distlops_bench reports it;
- pylops_mpi: pylops_mpi.cgls per iteration on the same blocks.

Times are medians over repeats (max over ranks), in microseconds. Run distlops_bench --cases
tiny-cgls,blockdiag-cgls in the same session for the C++ figures (docs/benchmarks.md).
"""
import argparse
import time

import numpy as np
from mpi4py import MPI

import distlops as dl

comm = MPI.COMM_WORLD


def timed(function, repeats):
    samples = []
    for _ in range(repeats):
        comm.Barrier()
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return max(comm.allgather(float(np.median(samples))))


def block(n, seed):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, n)) / np.sqrt(n) + 2 * np.eye(n)


def per_iteration(solve, niter, repeats, split_fixed_cost):
    """Seconds per iteration and per call. With split_fixed_cost the fixed cost of a call is
    separated by a second timing at niter / 2 (for tiny problems, where it matters); otherwise
    the whole solve is divided by niter, as distlops_bench does."""
    full = timed(lambda: solve(niter), repeats)
    if not split_fixed_cost:
        return full / niter, None
    half = timed(lambda: solve(niter // 2), repeats)
    per = (full - half) / (niter - niter // 2)
    return per, full - niter * per


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiny-n", type=int, default=10)
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--niter", type=int, default=50)
    parser.add_argument("--no-pylops-mpi", action="store_true")
    args = parser.parse_args()
    rows = []

    tiny = dl.MPIBlockDiag([dl.MatrixMult(block(args.tiny_n, 7000 + comm.rank))])
    x = tiny.domain_zeros()
    x.local_array[:] = 1.0
    y = tiny.range_zeros()
    loops = 2000
    python_into = timed(lambda: [tiny.matvec_into(x, y) for _ in range(loops)], 7) / loops
    python_new = timed(lambda: [tiny.matvec(x) for _ in range(loops)], 7) / loops
    ext, xa, ya = tiny._op, x._a, y._a
    extension = timed(lambda: [ext.apply_into(xa, ya) for _ in range(loops)], 7) / loops
    rows += [("apply tiny, extension object", extension),
             ("apply tiny, matvec_into", python_into), ("apply tiny, matvec", python_new)]

    for name, n, seed, repeats in [("tiny-cgls", args.tiny_n, 7000, 40),
                                   ("blockdiag-cgls", args.n, 1000, 3)]:
        op = tiny if n == args.tiny_n else dl.MPIBlockDiag([dl.MatrixMult(block(n, seed + comm.rank))])
        xt = op.domain_zeros()
        xt.local_array[:] = np.random.default_rng(11 + comm.rank).standard_normal(xt.local_shape)
        data = op.matvec(xt)
        tiny_case = n == args.tiny_n
        per, fixed = per_iteration(lambda k: dl.cgls(op, data, niter=k, tol=0), args.niter,
                                   repeats, tiny_case)
        rows.append((f"{name}: dl.cgls per iteration", per))
        if fixed is not None:
            rows.append((f"{name}: dl.cgls fixed cost per call", fixed))
        if not args.no_pylops_mpi:
            import pylops
            import pylops_mpi
            theirs = pylops_mpi.MPIBlockDiag([pylops.MatrixMult(block(n, seed + comm.rank))])
            d = pylops_mpi.DistributedArray(global_shape=n * comm.size)
            d[:] = data.local_array
            x0 = d.zeros_like()
            per, _ = per_iteration(
                lambda k: pylops_mpi.cgls(theirs, d, x0=x0.copy(), niter=k, tol=0), args.niter,
                max(repeats // 4, 3), False)
            rows.append((f"{name}: pylops_mpi.cgls per iteration", per))
    if comm.rank == 0:
        print(f"{comm.size} rank(s); microseconds, median over repeats, max over ranks")
        for label, seconds in rows:
            print(f"{label:45s} {seconds * 1e6:12.2f}")


if __name__ == "__main__":
    main()
