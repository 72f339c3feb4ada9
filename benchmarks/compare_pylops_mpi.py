#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Runs the benchmark cases of docs/benchmarks.md through PyLops-MPI, PETSc and distlops on the
same number of ranks, with the same deterministic inputs, and prints the time ratio per case.

    python3 benchmarks/compare_pylops_mpi.py --ranks 2 [--bench build/benchmarks/distlops_bench]
                                             [--cases firstderivative,tiny-cgls] [--set nx=1024]
                                             [--petsc build/benchmarks/petsc_laplacian]
                                             [--rounds 3] [--space host|cuda] [--json FILE]

With --space cuda both sides run on the GPU: distlops_bench --space cuda, and PyLops-MPI with
its CuPy engine (arrays made with cupy.asarray from the same inputs, collectives over a CuPy
NCCL communicator where PyLops-MPI can make one, else over MPI through host memory; each timed
repeat ends when the device is idle). --json writes the best record of each side and case, one
JSON object per line ("source": "distlops" or "pylops-mpi"; a peer that failed gives "error").

The runs interleave: in every round each case runs through distlops, then PyLops-MPI, then
PETSc (laplacian-cg as KSPCG, laplacian-apply as MatMult; benchmarks/petsc_laplacian.cpp, built
where PETSc is found), so that a machine whose load changes affects all sides alike; the table
gives the best round of each. Peers that are missing are left out (PyLops-MPI needs mpi4py and
pylops_mpi importable); with none it says so and exits cleanly. The PyLops-MPI side runs this
same file as an MPI program (the `--worker` mode).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

MASK = (1 << 64) - 1
PYLOPS_CASES = ["firstderivative", "laplacian-cg", "blockdiag-cgls", "vstack-cgls", "hstack-cgls",
                "tiny-cgls", "fft2d", "kirchhoff-lsm"]
PETSC_CASES = ["laplacian-cg", "laplacian-apply"]
CASES = PYLOPS_CASES + ["laplacian-apply"]


def uniform(np, key, index):
    """U(key, i) of docs/benchmarks.md for an array of global indices (splitmix64's output)."""
    with np.errstate(over="ignore"):
        s = ((np.uint64(key) << np.uint64(32)) + index.astype(np.uint64) + np.uint64(1)) \
            * np.uint64(0x9E3779B97F4A7C15)
        z = s
        z = z ^ (z >> np.uint64(30))
        z = z * np.uint64(0xBF58476D1CE4E5B9)
        z = z ^ (z >> np.uint64(27))
        z = z * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) * 2.0 ** -53


def signed(np, key, index):
    return 2.0 * uniform(np, key, index) - 1.0


def block_matrix(np, key, nr, nc):
    index = np.arange(nr * nc, dtype=np.uint64)
    a = signed(np, key, index).reshape(nr, nc) / np.sqrt(nc)
    a[np.arange(min(nr, nc)), np.arange(min(nr, nc))] += 1.0
    return a


def solver_body(solver, op, y, like, niter, state, iterations_at):
    """One timed solve from x0 = 0 (shaped like `like`) with tol = 0; the iterate, the
    iteration count (at `iterations_at` of PyLops' result tuple) and the cost go to `state`."""
    def body():
        x0 = like.copy()
        x0[:] = 0
        solution = solver(op, y, x0=x0, niter=niter, tol=0.0)
        state["x"], state["iterations"], state["cost"] = (solution[0], solution[iterations_at],
                                                          solution[-1])
    return body


def worker(args):
    """The PyLops-MPI side: one case, timed like distlops_bench, results as one JSON line."""
    import numpy as np
    from mpi4py import MPI
    import pylops
    import pylops_mpi
    from pylops_mpi.optimization.basic import cg, cgls

    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    params = dict(kv.split("=", 1) for kv in args.set)
    name = args.worker
    checks = {}

    # The engine: NumPy, or CuPy on the GPU of this rank (the inputs are made on the host with
    # NumPy either way, so both engines solve the same problem). `finished` waits until the
    # engine's work is done.
    nccl_comm = None
    if args.engine == "cupy":
        import cupy
        from pylops_mpi.utils import deps

        on_engine = cupy.asarray

        def finished():
            cupy.cuda.Device().synchronize()

        if deps.nccl_enabled:
            try:
                from pylops_mpi.utils._nccl import initialize_nccl_comm
                nccl_comm = initialize_nccl_comm()
            except Exception as error:  # noqa: BLE001 (NCCL refuses ranks sharing a GPU, say)
                checks["nccl_error"] = str(error).splitlines()[0][:120]
        if nccl_comm is None:
            local = MPI.COMM_WORLD.Split_type(MPI.COMM_TYPE_SHARED).Get_rank()
            cupy.cuda.Device(local % cupy.cuda.runtime.getDeviceCount()).use()
        checks["collectives"] = "nccl" if nccl_comm is not None else "mpi"
    else:
        def on_engine(array):
            return array

        def finished():
            pass

    def integer(key, default):
        return int(params.get(key, default))

    def to_dist_global(global_array, partition=pylops_mpi.Partition.SCATTER):
        return pylops_mpi.DistributedArray.to_dist(x=on_engine(global_array), partition=partition,
                                                   base_comm_nccl=nccl_comm)

    def timed(body):
        comm.Barrier()
        start = time.perf_counter()
        body()
        finished()
        return comm.allreduce(time.perf_counter() - start, op=MPI.MAX)

    if name == "firstderivative":
        nx, ny, repeats = integer("nx", 4096), integer("ny", 4096), 20
        x = to_dist_global(signed(np, 31, np.arange(nx * ny)).reshape(nx, ny).ravel())
        op = pylops_mpi.MPIFirstDerivative(dims=(nx, ny), kind="centered", order=3, edge=False)
        state = {}

        def body():
            state["y"] = op @ x
            state["z"] = op.H @ state["y"]
        units = 2
    elif name == "laplacian-cg":
        nx, ny, niter, repeats = integer("nx", 2048), integer("ny", 2048), integer("niter", 100), 3
        xt = to_dist_global(signed(np, 21, np.arange(nx * ny)))
        # Weights (-1, -1) as in distlops_bench: -L is positive semi-definite (distlops' CG stops
        # at negative curvature; PyLops' takes |c^H A c|).
        op = pylops_mpi.MPILaplacian(dims=(nx, ny), axes=(0, 1), weights=(-1, -1), edge=False)
        y = op @ xt
        state = {}
        body = solver_body(cg, op, y, y, niter, state, iterations_at=1)
        units = niter
    elif name in ("blockdiag-cgls", "tiny-cgls"):
        tiny = name == "tiny-cgls"
        n = integer("n", 10 if tiny else 2000)
        niter = integer("niter", 50)  # tiny-cgls: 50, see docs/benchmarks.md
        key, xkey = (7000, 71) if tiny else (1000, 11)
        repeats = 40 if tiny else 3
        op = pylops_mpi.MPIBlockDiag(
            ops=[pylops.MatrixMult(on_engine(block_matrix(np, key + rank, n, n)))])
        xt = to_dist_global(signed(np, xkey, np.arange(n * size)))
        y = op @ xt
        state = {}
        body = solver_body(cgls, op, y, xt, niter, state, iterations_at=2)
        units = niter
    elif name in ("vstack-cgls", "hstack-cgls"):
        vertical = name == "vstack-cgls"
        n, m, niter, repeats = integer("n", 2000), integer("m", 2000), integer("niter", 20), 3
        key, xkey = (5000, 51) if vertical else (6000, 61)
        if vertical:
            op = pylops_mpi.MPIVStack(
                ops=[pylops.MatrixMult(on_engine(block_matrix(np, key + rank, n, m)))])
            xt = to_dist_global(signed(np, xkey, np.arange(m)), pylops_mpi.Partition.BROADCAST)
        else:
            op = pylops_mpi.MPIHStack(
                ops=[pylops.MatrixMult(on_engine(block_matrix(np, key + rank, m, n)))])
            xt = to_dist_global(signed(np, xkey, np.arange(n * size)))
        y = op @ xt
        state = {}
        body = solver_body(cgls, op, y, xt, niter, state, iterations_at=2)
        units = niter
    elif name == "fft2d":
        nx, ny, repeats = integer("nx", 2048), integer("ny", 2048), 5
        index = np.arange(nx * ny)
        x = to_dist_global((signed(np, 41, index) + 1j * signed(np, 42, index)).reshape(nx, ny).ravel())
        op = pylops_mpi.signalprocessing.MPIFFT2D(dims=(nx, ny), norm="none", dtype=np.complex128)
        state = {}

        def body():
            state["y"] = op @ x
            state["z"] = op.H @ state["y"]
        units = 2
    elif name == "kirchhoff-lsm":
        # distlops_bench's geometry (case_kirchhoff.cpp): PyLops' Kirchhoff of each rank's shots
        # (numba engine where numba is installed, one thread: NUMBA_NUM_THREADS unset) stacked
        # by MPIVStack, CGLS from zero on the data of the model U(81, i).
        import importlib.util
        import warnings
        from pylops.waveeqprocessing import Kirchhoff
        warnings.simplefilter("ignore", FutureWarning)
        nx, nz, ns, nr = integer("nx", 101), integer("nz", 61), integer("ns", 8), integer("nr", 51)
        niter, repeats, d, velocity, dt, f0, half = integer("niter", 10), 3, 10.0, 2000.0, 0.004, 15.0, 12
        width, depth = (nx - 1) * d, (nz - 1) * d
        nt = int(np.ceil(2 * np.hypot(width, depth) / velocity / dt) + 2 * half + 2)
        def surface(n):
            return np.vstack([np.arange(n) * (width / (n - 1) if n > 1 else 0.0), np.zeros(n)])
        a = np.pi * f0 * ((np.arange(2 * half + 1) - half) * dt)
        wavelet = (1 - 2 * (a * a)) * np.exp(-(a * a))
        shares = [ns // size + (1 if r < ns % size else 0) for r in range(size)]
        first = sum(shares[:rank])
        engine = "numba" if importlib.util.find_spec("numba") else "numpy"
        checks["engine_numba"] = 1.0 if engine == "numba" else 0.0
        local = Kirchhoff(np.arange(nz) * d, np.arange(nx) * d, np.arange(nt) * dt,
                          surface(ns)[:, first:first + shares[rank]], surface(nr), velocity,
                          wavelet, half, mode="analytic", engine=engine, dtype="float64")
        op = pylops_mpi.MPIVStack(ops=[local])
        xt = to_dist_global(signed(np, 81, np.arange(nx * nz)), pylops_mpi.Partition.BROADCAST)
        y = op @ xt
        state = {}
        body = solver_body(cgls, op, y, xt, niter, state, iterations_at=2)
        units = niter
    else:
        raise SystemExit(f"unknown case {name}")

    body()  # warm-up (CuPy compiles its kernels here)
    finished()
    seconds = sorted(timed(body) for _ in range(repeats))
    median = seconds[len(seconds) // 2] if len(seconds) % 2 else 0.5 * (
        seconds[len(seconds) // 2 - 1] + seconds[len(seconds) // 2])
    # With tol = 0 a solver still stops when its residual is exactly zero (tiny-cgls does):
    # times are per iteration done, as in distlops_bench.
    if "iterations" in state:
        units = state["iterations"]
        checks["iterations"] = units
    if "x" in state:
        checks["model_error"] = float((state["x"] - xt).norm() / xt.norm())
    if "cost" in state:
        checks["cost_last"] = float(state["cost"][-1])
    if "y" in state:
        checks["norm_output"] = float(state["y"].norm())
    if rank == 0:
        print(json.dumps({"case": name, "ranks": size, "median_seconds": median,
                          "seconds_per_unit": median / units, "checks": checks}), flush=True)


def readable(seconds):
    """A time with a unit that keeps it readable (us, ms or s)."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.3f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.3f} ms"
    return f"{seconds:.3f} s"


def mpiexec_command(ranks):
    command = [shutil.which("mpiexec") or "mpiexec", "-n", str(ranks), "--oversubscribe",
               "--bind-to", "none", "--mca", "btl_vader_single_copy_mechanism", "none"]
    if os.geteuid() == 0:
        command.append("--allow-run-as-root")
    return command


def run_json(command, env):
    """Runs a peer that prints JSON lines; the last one, or the error's last line."""
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        lines = (result.stderr.strip() or result.stdout.strip()).splitlines()
        return None, lines[-1] if lines else f"exit status {result.returncode}"
    return json.loads(result.stdout.strip().splitlines()[-1]), None


def petsc_arguments(case, sets):
    """The peer's options from the --set overrides it understands."""
    arguments = ["--case", case]
    for key, value in (kv.split("=", 1) for kv in sets):
        if key in ("nx", "ny", "niter"):
            arguments += [f"--{key}", value]
    return arguments


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--bench", default=os.path.join("build", "benchmarks", "distlops_bench"))
    parser.add_argument("--petsc", default=os.path.join("build", "benchmarks", "petsc_laplacian"))
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--set", action="append", default=[], help="key=value size overrides")
    parser.add_argument("--space", choices=("host", "cuda"), default="host")
    parser.add_argument("--json", help="the best record of each side and case, as JSON lines")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--engine", choices=("numpy", "cupy"), default="numpy",
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return 0
    # Looked up, not imported: importing pylops_mpi initialises MPI in this process, whose
    # environment the mpiexec started below would then inherit (and fail).
    import importlib.util
    device = args.space == "cuda"
    missing = [name for name in ("mpi4py", "pylops_mpi") + (("cupy",) if device else ())
               if importlib.util.find_spec(name) is None]
    have_pylops = not missing
    have_petsc = os.path.exists(args.petsc) and not device
    if not have_pylops:
        print(f"PyLops-MPI is not importable here (missing {', '.join(missing)}); install it "
              "with: pip install pylops-mpi mpi4py")
    if not have_petsc:
        print("PETSc is left out on the GPU" if device else
              f"{args.petsc} does not exist (built where pkg-config finds PETSc)")
    if not have_pylops and not have_petsc:
        print("nothing to compare")
        return 0
    if not os.path.exists(args.bench):
        print(f"{args.bench} does not exist: build distlops first (bash scripts/test.sh or cmake --build build)")
        return 1
    space = ["--space", args.space]
    listed = subprocess.run(mpiexec_command(1) + [args.bench, "--list"] + space, check=True,
                            capture_output=True, text=True).stdout
    # "case: description" lines, each followed by the "    --set key (kind)" lines of its keys:
    # a case gets only the --set overrides it takes (the driver refuses the others).
    takes = {}
    for line in listed.splitlines():
        if line.startswith("    --set "):
            takes[case_of_line].add(line.split()[1])
        elif ":" in line and not line.startswith("every case:"):
            case_of_line = line.split(":", 1)[0]
            takes[case_of_line] = {"label"}
    available = set(takes)
    requested = [c for c in args.cases.split(",") if c]
    cases = [c for c in requested if c in available]
    for case in requested:
        if case not in available:
            print(f"{case}: not a case of {args.bench}, skipped")
    sets = sum([["--set", kv] for kv in args.set], [])

    def sets_of(case):
        return sum([["--set", kv] for kv in args.set if kv.split("=", 1)[0] in takes[case]], [])
    # One thread per rank on all sides (distlops runs one per rank): no BLAS thread pools.
    single_threaded = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1",
                           MKL_NUM_THREADS="1")
    best = {}  # (side, case) -> the record of its fastest round
    failures = {}

    def keep(side, case, record, error):
        if record is None:
            failures[(side, case)] = error
        elif (side, case) not in best or \
                record["seconds_per_unit"] < best[(side, case)]["seconds_per_unit"]:
            best[(side, case)] = record

    with tempfile.TemporaryDirectory() as scratch:
        ours_path = os.path.join(scratch, "distlops.json")
        for _ in range(args.rounds):
            for case in cases:
                subprocess.run(mpiexec_command(args.ranks) + [args.bench, "--cases", case,
                                                              "--json", ours_path] + space +
                               sets_of(case),
                               check=True, stdout=subprocess.DEVNULL, env=single_threaded)
                with open(ours_path) as handle:
                    for line in handle:
                        record = json.loads(line)
                        keep("distlops", record["case"], record, None)
                if have_pylops and case in PYLOPS_CASES:
                    keep("pylops", case, *run_json(
                        mpiexec_command(args.ranks) + [sys.executable, os.path.abspath(__file__),
                                                       "--worker", case, "--engine",
                                                       "cupy" if device else "numpy"] + sets,
                        single_threaded))
                if have_petsc and case in PETSC_CASES:
                    keep("petsc", case, *run_json(
                        mpiexec_command(args.ranks) + [args.petsc] + petsc_arguments(case, args.set),
                        single_threaded))
    print(f"time per iteration (solvers) or per apply, best of {args.rounds} interleaved rounds; "
          "ratio: peer / distlops")
    print(f"{'case':<16}{'ranks':>6}{'distlops':>14}{'PyLops-MPI':>14}{'ratio':>8}{'PETSc':>14}"
          f"{'ratio':>8}  checks (distlops; PyLops-MPI; PETSc)")
    for case in cases:
        ours = best.get(("distlops", case))
        if ours is None:
            print(f"{case:<16}{args.ranks:>6}{'(not run)':>14}")
            continue
        row = f"{case:<16}{args.ranks:>6}{readable(ours['seconds_per_unit']):>14}"
        notes = [", ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                           for k, v in ours["checks"].items() if k in ("model_error", "cost_first",
                                                                       "norm_Lx", "iterations"))]
        for side in ("pylops", "petsc"):
            theirs = best.get((side, case))
            if theirs is None:
                failed = failures.get((side, case))
                row += f"{'failed' if failed else '-':>14}{'':>8}"
                notes.append(f"failed: {failed}" if failed else "-")
                continue
            a = theirs["seconds_per_unit"]
            row += f"{readable(a):>14}{a / ours['seconds_per_unit']:>7.2f}x"
            notes.append(", ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                                   for k, v in theirs["checks"].items()))
        print(row + "  " + "; ".join(notes))
    if args.json:
        with open(args.json, "w") as handle:
            for (side, case), record in best.items():
                if side != "petsc":
                    source = "distlops" if side == "distlops" else "pylops-mpi"
                    handle.write(json.dumps(dict(record, source=source, space=args.space)) + "\n")
            for (side, case), error in failures.items():
                if side == "pylops":
                    handle.write(json.dumps({"source": "pylops-mpi", "case": case,
                                             "ranks": args.ranks, "space": args.space,
                                             "error": error}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
