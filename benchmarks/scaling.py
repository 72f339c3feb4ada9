# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Scaling beyond this machine: the parallel efficiency of benchmark cases measured here (1 to 4
ranks), simulated on a described cluster by SimGrid's SMPI (1 to 1,024 ranks) and given by a
latency-bandwidth model fed with the messages, bytes and collectives the driver counts
(docs/benchmarks.md, "Scaling beyond this machine").

    python3 benchmarks/scaling.py calibrate --bench build/benchmarks/distlops_bench --out OUT
    python3 benchmarks/scaling.py measure   --bench build/benchmarks/distlops_bench --out OUT
    python3 benchmarks/scaling.py simulate  --bench build-smpi/benchmarks/distlops_bench --out OUT
    /usr/bin/python3 benchmarks/scaling.py report --out OUT --figure docs/images/scaling.png \
        --studies laplacian-cg fft2d blockdiag-cgls tiny-cgls
    /usr/bin/python3 benchmarks/scaling.py report --out OUT --studies laplacian3d-cg fft3d \
        --figure docs/images/scaling_box.png --summary summary-box.json

calibrate measures this machine (the triad at 1 and 2 ranks; a ping-pong of 8 bytes and of
4 MB between 2 ranks) and writes OUT/calibration.json, OUT/platform.xml and OUT/hostfile.
measure runs every study at 1 to 4 ranks with mpiexec; simulate runs it at --ranks under
smpirun (scripts/smpi_build.sh builds the driver for it), --mode online (every rank's
computation timed as it runs here and injected: SMPI's default) or --mode communication
(smpi/simulate-computation:no: the simulated time is the communication and the waits alone).
Each run's JSON line goes to OUT/measured/, OUT/online/ or OUT/communication/. report draws
the efficiencies (matplotlib), one panel per case and scaling with its cuts (slab, box,
pencil) side by side, and prints the table of docs/benchmarks.md. A study is one line of
STUDIES.
"""
import argparse
import json
import math
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable


def rows(n, p):
    """The busiest rank's share of n rows split over p ranks (PyLops-MPI's split)."""
    return math.ceil(n / p) / n


def slab_fft_counts(nx, ny, p):
    """What the driver counts per apply of fft2d on p ranks (the busiest rank): one all-to-all
    with a block for every other rank, its rows in their columns, and the apply's agreement on
    its operands."""
    return {"messages_max": 0, "bytes_max": 0,
            "events": [{"name": "MPI_Alltoallw", "kind": "collective", "calls_max": 1,
                        "messages_max": p - 1, "bytes_max": 16 * math.ceil(nx / p) * (ny - ny // p)},
                       {"name": "MPI_Allreduce", "kind": "collective", "calls_max": 1,
                        "bytes_max": 32, "messages_max": 0}]}


def default_split(n, parts):
    """PyLops-MPI's split of n items over parts ranks (distlops::default_split)."""
    return [n // parts + (1 if r < n % parts else 0) for r in range(parts)]


def default_grid(shape, p, axes):
    """distlops::default_grid: p's prime factors, largest first, each cutting the axis among
    `axes` whose parts are the longest, preferring axes still longer than their parts, the
    earlier axis on ties."""
    primes, left, f = [], p, 2
    while left > 1:
        if f * f > left:
            primes.append(left)
            break
        if left % f == 0:
            primes.append(f)
            left //= f
        else:
            f += 1
    grid = [1] * len(shape)
    for f in sorted(primes, reverse=True):
        best, best_fits = -1, False
        for k in sorted(axes):
            fits = grid[k] * f <= shape[k]
            if best < 0 or (fits and not best_fits):
                best, best_fits = k, fits
            elif fits == best_fits and shape[k] / grid[k] > shape[best] / grid[best]:
                best = k
        grid[best] *= f
    return grid


def grid_boxes(shape, grid):
    """Every rank's box (lower, upper per axis) of `shape` cut by `grid` (default splits), the
    ranks in C order of their grid coordinates."""
    cuts = []
    for n, g in zip(shape, grid):
        extents = default_split(n, g)
        cuts.append([sum(extents[:i]) for i in range(g + 1)])
    boxes = [[]]
    for k in range(len(shape)):
        boxes = [b + [(cuts[k][i], cuts[k][i + 1])] for b in boxes for i in range(grid[k])]
    return boxes


def cg_reductions(niter):
    """CG's reductions per iteration as the driver counts them over niter iterations: two dot
    products of 8 bytes per iteration and the solve's set-up (three reductions, 80 bytes)."""
    return {"name": "MPI_Allreduce", "kind": "collective", "calls_max": 2 + 3 / niter,
            "bytes_max": 16 + 80 / niter, "messages_max": 0}


def box_ghost_counts(shape, grid, niter, word=8):
    """What the driver counts per CG iteration of laplacian3d-cg on `grid` (the busiest rank):
    one apply, whose ghost exchange sends to every neighbouring rank that owns data the face
    of depth 1 it shares with it, one message each; and CG's reductions."""
    boxes = grid_boxes(shape, grid)
    strides = [math.prod(grid[k + 1:]) for k in range(len(grid))]
    messages_max = bytes_max = 0
    for r, box in enumerate(boxes):
        extents = [u - l for l, u in box]
        if min(extents) == 0:
            continue
        messages = sent = 0
        coordinates = [(r // strides[k]) % grid[k] for k in range(len(grid))]
        for k in range(len(grid)):
            face = word * math.prod(e for j, e in enumerate(extents) if j != k)
            for side in (-1, 1):
                c = coordinates[k] + side
                if 0 <= c < grid[k]:
                    neighbour = boxes[r + side * strides[k]]
                    if neighbour[k][1] > neighbour[k][0]:
                        messages, sent = messages + 1, sent + face
        messages_max, bytes_max = max(messages_max, messages), max(bytes_max, sent)
    exchange = {"name": "ghost cells", "kind": "exchange", "calls_max": 1, "messages_max": 0,
                "bytes_max": 0}
    return {"messages_max": messages_max, "bytes_max": bytes_max,
            "events": [exchange, cg_reductions(niter)] if len(boxes) > 1 else []}


def alltoall_counts(shape, moves, word=16):
    """What the driver counts per apply of an FFT that moves its array through `moves` (pairs
    of grids, the forward's all-to-alls; the adjoint makes them backwards): for the busiest
    rank, the boxes it sends to other ranks (one message each) per apply, forward and adjoint
    averaged, and the apply's agreement on its operands."""
    if not moves:  # one rank: nothing is counted, not even the agreement
        return {"messages_max": 0, "bytes_max": 0, "events": []}
    p = math.prod(moves[0][0])
    messages, sent, calls = [0] * p, [0] * p, 0
    for source, target in moves:
        a, b = grid_boxes(shape, source), grid_boxes(shape, target)
        calls += 1
        for r in range(p):
            for s in range(p):
                if s == r:
                    continue
                # Forward: r's box of the source to s's box of the target; adjoint: back.
                for x, y in ((a[r], b[s]), (b[r], a[s])):
                    cells = math.prod(max(0, min(u1, u2) - max(l1, l2))
                                      for (l1, u1), (l2, u2) in zip(x, y))
                    if cells:
                        messages[r] += 0.5
                        sent[r] += 0.5 * word * cells
    return {"messages_max": 0, "bytes_max": 0,
            "events": [{"name": "MPI_Alltoallw", "kind": "collective", "calls_max": calls,
                        "messages_max": max(messages), "bytes_max": max(sent)},
                       {"name": "MPI_Allreduce", "kind": "collective", "calls_max": 1,
                        "bytes_max": 32, "messages_max": 0}]}


def fft3d_moves(shape, p, cut):
    """The grids fft3d moves through per forward apply (operators/signal/fft.cpp): a slab
    (p, 1, 1) goes to a split of the longer other axis, the earlier on ties, (1, p, 1); pencils
    (gx, gy, 1) give their parts to the last axis, (1, 1, gx gy), where it has an index for each,
    and otherwise in two moves, axis 1 first."""
    if p == 1:
        return []
    if cut == "slab":
        return [([p, 1, 1], [1, p, 1] if shape[1] >= shape[2] else [1, 1, p])]
    gx, gy, _ = default_grid(shape, p, [0, 1])
    if gx * gy <= shape[2]:
        return [([gx, gy, 1], [1, 1, p])]
    return [([gx, gy, 1], [gx, 1, gy]), ([gx, 1, gy], [1, gx, gy])]


@dataclass
class Study:
    case: str
    scaling: str  # "strong": the same global problem at every rank count; "weak": per rank
    sizes: Callable[[int], dict]  # the driver's --set values at p ranks
    work: Callable[[int], float]  # the busiest rank's computation at p ranks, 1 at 1 rank
    label: str
    # Above this, the model alone. fft2d's transposes send p (p - 1) messages per apply: at 256
    # ranks SimGrid 3.32's bandwidth sharing aborts on a rounding check (maxmin/precision at its
    # default, 1e-5, and at 1e-9), and at 1e-3 one point ran past 15 minutes of this machine.
    max_simulated: int = 1024
    # Above max_simulated: the communication per unit the model reads, as the driver would count
    # it (checked against the simulated counts below max_simulated by report).
    counts: Callable[[int], dict] = None
    # The cut, for cases that take --set grid= (slab, box, pencil): part of the study's name.
    grid: str = ""


# One line per study. Strong: the global problem is fixed. Weak: each rank keeps its share, so
# the global problem grows with p (fft2d's cost per rank grows with log2 of the global size).
STUDIES = [
    Study("laplacian-cg", "strong", lambda p: {"nx": 2048, "ny": 2048, "niter": 20},
          lambda p: rows(2048, p), "2048 x 2048, split along axis 0"),
    Study("laplacian-cg", "weak", lambda p: {"nx": 16 * p, "ny": 2048, "niter": 20},
          lambda p: 1.0, "16 x 2048 per rank"),
    Study("fft2d", "strong", lambda p: {"nx": 2048, "ny": 2048},
          lambda p: rows(2048, p), "2048 x 2048 complex128, slabs", 64,
          lambda p: slab_fft_counts(2048, 2048, p)),
    Study("fft2d", "weak", lambda p: {"nx": 4 * p, "ny": 4096},
          lambda p: math.log2(4 * p * 4096) / math.log2(4 * 4096), "4 x 4096 per rank, slabs",
          64, lambda p: slab_fft_counts(4 * p, 4096, p)),
    Study("blockdiag-cgls", "weak", lambda p: {"n": 256, "niter": 20},
          lambda p: 1.0, "one 256 x 256 block per rank"),
    Study("tiny-cgls", "weak", lambda p: {"niter": 50}, lambda p: 1.0, "one 10 x 10 block per rank"),
    # Slabs against boxes and pencils. laplacian3d-cg: 10 iterations (CG's set-up spread over
    # them); strong on 256^3, weak on 32^3 points per rank: a box of 32^3 on the balanced grid,
    # or a slab of 2 planes of 128 x 128.
    *[Study("laplacian3d-cg", "strong",
            lambda p, cut=cut: {"n": 256, "niter": 10, "grid": cut},
            lambda p, cut=cut: box_share([256] * 3, p, AXES[cut]),
            f"256^3, {cut} {'(P, 1, 1)' if cut == 'slab' else 'grid'}", 1024,
            lambda p, cut=cut: box_ghost_counts([256] * 3, default_grid([256] * 3, p, AXES[cut]),
                                                10), cut) for cut in ("slab", "box")],
    Study("laplacian3d-cg", "weak", lambda p: {"nx": 2 * p, "ny": 128, "nz": 128, "niter": 10,
                                               "grid": "slab"},
          lambda p: 1.0, "2 x 128 x 128 per rank, slab", 1024,
          lambda p: box_ghost_counts([2 * p, 128, 128], [p, 1, 1], 10), "slab"),
    Study("laplacian3d-cg", "weak",
          lambda p: dict(zip(("nx", "ny", "nz"), weak_box(32, p)), niter=10, grid="box"),
          lambda p: 1.0, "32^3 per rank, box grid", 1024,
          lambda p: box_ghost_counts(weak_box(32, p), default_grid(weak_box(32, p), p, AXES["box"]),
                                     10), "box"),
    # fft3d: 256^3 complex128, forward + adjoint. Above 64 ranks the model alone: the all-to-all
    # is p (p - 1) messages, as fft2d's.
    *[Study("fft3d", "strong", lambda p, cut=cut: {"n": 256, "grid": cut},
            lambda p, cut=cut: box_share([256] * 3, p, AXES[cut]) * fft_passes([256] * 3, p, cut),
            f"256^3 complex128, {cut}s", 64,
            lambda p, cut=cut: alltoall_counts([256] * 3, fft3d_moves([256] * 3, p, cut)), cut)
      for cut in ("slab", "pencil")],
    # fft3d weak: a 64^3 cube of complex128 per rank on the balanced 3-d grid's global shape; the
    # work per rank grows with log2 of the global size and with the all-to-alls' packing.
    *[Study("fft3d", "weak", lambda p, cut=cut: dict(zip(("nx", "ny", "nz"), weak_box(64, p)),
                                                     grid=cut),
            lambda p, cut=cut: math.log2(math.prod(weak_box(64, p))) / math.log2(64 ** 3)
            * fft_passes(weak_box(64, p), p, cut),
            f"64^3 complex128 per rank, {cut}s", 64,
            lambda p, cut=cut: alltoall_counts(weak_box(64, p),
                                               fft3d_moves(weak_box(64, p), p, cut)), cut)
      for cut in ("slab", "pencil")],
]

AXES = {"slab": [0], "pencil": [0, 1], "box": [0, 1, 2]}


def box_share(shape, p, axes):
    """The busiest rank's share of the cells of `shape` on default_grid(shape, p, axes)."""
    grid = default_grid(shape, p, axes)
    return math.prod(math.ceil(n / g) for n, g in zip(shape, grid)) / math.prod(shape)


def weak_box(block, p):
    """The global shape that gives every rank a block^3 box on the balanced grid of p ranks."""
    return [block * g for g in default_grid([1 << 30] * 3, p, [0, 1, 2])]


def fft_passes(shape, p, cut):
    """fft3d's passes over the data per apply relative to one rank: three axes, and one more
    per all-to-all for its packing and unpacking (the least bytes of docs/benchmarks.md)."""
    return (3 + len(fft3d_moves(shape, p, cut))) / 3


# The simulated cluster: NODES nodes of CORES cores, a two-level fat tree of LINK_BW links with
# LINK_LATENCY each (16 nodes per leaf switch, 2 top switches, 8 parallel links from each leaf
# to each top switch: 16 links down and 16 up, full bisection).
NODES, CORES = 32, 32
LINK_BW, LINK_LATENCY = 100e9 / 8, 1.5e-6
NODES_PER_LEAF = 16


def study_name(study):
    return f"{study.case}-{study.scaling}" + (f"-{study.grid}" if study.grid else "")


def studies(selected):
    chosen = [s for s in STUDIES if not selected or s.case in selected
              or study_name(s) in selected or f"{s.case}-{s.scaling}" in selected]
    if not chosen:
        sys.exit(f"scaling: no study among {selected}")
    return chosen


def driver_arguments(study, p, repeats, warmup):
    arguments = ["--cases", study.case, "--repeats", str(repeats), "--warmup", str(warmup),
                 "--no-triad"]
    for key, value in study.sizes(p).items():
        arguments += ["--set", f"{key}={value}"]
    return arguments


def read_json(path):
    lines = [line for line in Path(path).read_text().splitlines() if line.startswith("{")]
    return json.loads(lines[-1]) if lines else None


def mpiexec(ranks):
    return ["mpiexec", "--allow-run-as-root", "--oversubscribe", "--bind-to", "none", "--mca",
            "btl_vader_single_copy_mechanism", "none", "-n", str(ranks)]


def run(command, log, env, timeout=None):
    """Runs command into log; past timeout seconds its whole process group is ended (smpirun
    leaves the simulation to a child of its own) and the status is "timeout"."""
    start = time.time()
    with open(log, "w") as out:
        child = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env,
                                 start_new_session=True)
        try:
            status = child.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
            status = "timeout"
    return status, time.time() - start


# ---- calibrate -----------------------------------------------------------------------------

def calibrate(args):
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, OMPI_MCA_mpi_yield_when_idle="1", OPENBLAS_NUM_THREADS="1")

    def bench(ranks, extra):
        path = out / "calibration-run.json"
        command = mpiexec(ranks) + [args.bench, "--json", str(path)] + extra
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
        return read_json(path)

    triad = {1: 0.0, 2: 0.0}
    for _ in range(args.tries):  # best of several: the machine is shared
        for ranks in (1, 2):
            record = bench(ranks, ["--cases", "tiny-cgls", "--repeats", "1", "--no-communication"])
            triad[ranks] = max(triad[ranks], record["triad_bytes_per_second"])
    latency, bandwidth = math.inf, 0.0
    for _ in range(args.tries):
        small = bench(2, ["--cases", "pingpong", "--set", "bytes=8", "--set", "count=2000",
                          "--no-triad", "--no-communication"])
        large = bench(2, ["--cases", "pingpong", "--set", "bytes=4000000", "--set", "count=20",
                          "--no-triad", "--no-communication"])
        latency = min(latency, small["min_seconds_per_unit"])
        bandwidth = max(bandwidth, 4e6 / (large["min_seconds_per_unit"] - latency))
    # SMPI runs one rank at a time, each with a whole core and its cache: the simulated cores
    # are slowed to this machine's per-core triad with both cores busy.
    slowdown = max(1.0, triad[1] / (triad[2] / 2)) if args.slowdown is None else args.slowdown
    calibration = {"triad_1": triad[1], "triad_2": triad[2], "compute_slowdown": slowdown,
                   "slowdown_source": "measured" if args.slowdown is None else "given",
                   "latency": latency, "bandwidth": bandwidth,
                   "overhead": latency / 2, "nodes": NODES, "cores": CORES,
                   "link_bandwidth": LINK_BW, "link_latency": LINK_LATENCY}
    (out / "calibration.json").write_text(json.dumps(calibration, indent=1) + "\n")
    write_platform(out, calibration)
    print(json.dumps(calibration, indent=1))


def write_platform(out, c):
    leaves = NODES // NODES_PER_LEAF
    # The simulated core runs at 1 Gflop/s; smpi/host-speed (slowdown Gflop/s) stretches every
    # measured burst by the slowdown. Ranks of one node talk through its loopback link (this
    # machine's shared-memory bandwidth; the latency is in the per-message overheads).
    platform = f"""<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<!-- {NODES} nodes of {CORES} cores; a two-level fat tree of {LINK_BW * 8 / 1e9:g} Gb/s links at
     {LINK_LATENCY * 1e6:g} us: {NODES_PER_LEAF} nodes per leaf switch, {leaves} leaves, 2 top switches,
     8 parallel links from each leaf to each top switch (full bisection). Written by
     benchmarks/scaling.py calibrate from this machine's measurements (calibration.json). -->
<platform version="4.1">
  <cluster id="cluster" prefix="node-" suffix="" radical="0-{NODES - 1}" speed="1Gf"
           core="{CORES}" bw="{LINK_BW * 8 / 1e9:g}Gbps" lat="{LINK_LATENCY * 1e6:g}us"
           topology="FAT_TREE" topo_parameters="2;{NODES_PER_LEAF},{leaves};1,2;1,8"
           loopback_bw="{c['bandwidth'] / 1e9:.4g}GBps" loopback_lat="0us"/>
</platform>
"""
    (out / "platform.xml").write_text(platform)
    # One line per rank: smpirun unrolls "host:n" lines into a file of its own in the working
    # directory, and keeps it when a run fails.
    (out / "hostfile").write_text("".join(f"node-{i}\n" for i in range(NODES) for _ in range(CORES)))


def smpi_options(c, mode):
    o = c["overhead"]
    # mmap privatisation: one copy of the code, each rank's globals remapped at its turn
    # (dlopen loads one copy of the 13 MB program per rank and times bursts colder still).
    return [f"--cfg=smpi/host-speed:{c['compute_slowdown']:.6g}Gf",
            "--cfg=smpi/cpu-threshold:0",
            f"--cfg=smpi/simulate-computation:{'yes' if mode == 'online' else 'no'}",
            "--cfg=smpi/privatization:mmap",
            "--cfg=smpi/coll-selector:ompi",
            "--cfg=smpi/bw-factor:0:1", "--cfg=smpi/lat-factor:0:1",
            f"--cfg=smpi/os:0:{o:.4g}:0", f"--cfg=smpi/or:0:{o:.4g}:0",
            f"--cfg=smpi/ois:0:{o:.4g}:0",
            "--cfg=smpi/display-timing:yes",
            "--log=xbt_cfg.thres:warning", "--log=smpi_config.thres:warning",
            "--log=smpi_coll.thres:warning", "--log=smpi_colls.thres:warning"]


# ---- measure and simulate -------------------------------------------------------------------

def measure(args):
    out = Path(args.out) / "measured"
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, OMPI_MCA_mpi_yield_when_idle="1", OPENBLAS_NUM_THREADS="1")
    for study in studies(args.studies):
        for p in [int(r) for r in args.ranks.split(",")]:
            path = out / f"{study_name(study)}.np{p}.json"
            command = mpiexec(p) + [args.bench, "--json", str(path), "--rounds", str(args.rounds)]
            command += driver_arguments(study, p, args.repeats, 1)
            start = time.time()
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
            record = read_json(path)
            print(f"{study_name(study)} np{p}: {record['seconds_per_unit']:.4g} s per "
                  f"{record['unit']} ({time.time() - start:.1f} s)", flush=True)


def simulate(args):
    base = Path(args.out)
    c = json.loads((base / "calibration.json").read_text())
    out = base / args.mode
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    for study in studies(args.studies):
        for p in [int(r) for r in args.ranks.split(",")]:
            if p > study.max_simulated and not args.past_limit:
                continue
            path = out / f"{study_name(study)}.np{p}.json"
            if path.exists() and not args.again:
                continue
            command = ["smpirun", "-np", str(p), "-platform", str(base / "platform.xml"),
                       "-hostfile", str(base / "hostfile")] + smpi_options(c, args.mode)
            command += [args.bench, "--json", str(path)]
            command += driver_arguments(study, p, args.repeats, args.warmup)
            status, seconds = run(command, out / f"{study_name(study)}.np{p}.log", env,
                                  args.timeout)
            record = read_json(path) if path.exists() else None
            if status != 0 or record is None:
                print(f"{study_name(study)} np{p}: FAILED (status {status}, "
                      f"{out / f'{study_name(study)}.np{p}.log'})", flush=True)
                continue
            record["simulation_wall_seconds"] = seconds
            record["simulation_mode"] = args.mode
            for line in (out / f"{study_name(study)}.np{p}.log").read_text().splitlines():
                if "seconds were actual computation" in line:
                    record["simulation_computation_seconds"] = float(line.split()[0])
            path.write_text(json.dumps(record) + "\n")
            print(f"{study_name(study)} np{p}: {record['seconds_per_unit']:.4g} s per "
                  f"{record['unit']} simulated in {seconds:.1f} s", flush=True)


# ---- model and report -----------------------------------------------------------------------

def levels(p, c, simulated):
    """The latency (s) and inverse bandwidth (s per byte) of one message inside a node and
    between the two farthest nodes of a p-rank job (ranks fill the nodes in order), and the
    number of nodes. On this machine every message is a shared-memory one, measured."""
    if not simulated:
        here = (c["latency"], 1.0 / c["bandwidth"])
        return here, here, 1
    inside = (2 * c["overhead"], 1.0 / c["bandwidth"])
    nodes = math.ceil(p / CORES)
    hops = 2 if nodes <= NODES_PER_LEAF else 4
    between = (2 * c["overhead"] + hops * LINK_LATENCY, 1.0 / LINK_BW)
    return inside, between if nodes > 1 else inside, nodes


def collective_seconds(name, payload, p, c, simulated):
    """One call in the textbook algorithms over ranks placed node by node: recursive doubling
    (reductions, broadcasts, barriers), whose first log2(ranks per node) steps stay inside a
    node; gathers add the (p - 1) blocks they bring in. All-to-alls are counted per message."""
    (a_in, b_in), (a_out, b_out), nodes = levels(p, c, simulated)
    steps_in = math.ceil(math.log2(min(p, CORES if simulated else p))) if p > 1 else 0
    steps_out = math.ceil(math.log2(nodes)) if nodes > 1 else 0
    latency = steps_in * a_in + steps_out * a_out
    if "Allreduce" in name or "Bcast" in name or "Barrier" in name:
        if payload >= 65536:  # reduce-scatter and allgather: 2 m over the slowest link
            return 2 * latency + 2 * payload * (b_out if nodes > 1 else b_in)
        return latency + (steps_in * b_in + steps_out * b_out) * payload
    if "gather" in name.lower() or "Scatter" in name:
        return latency + (p - 1) * payload * (b_out if nodes > 1 else b_in)
    return 0.0


def nic_seconds(counted, p, beta, nodes):
    """The time of a rank's bytes in an all-to-all: at its own pace, or, when it talks to more
    than two peers, at its share of its node's link, which carries the bytes of all the node's
    ranks to the peers on other nodes (spread evenly over the job)."""
    own = counted["bytes_max"] * beta
    if nodes == 1 or counted["messages_max"] <= 2:
        return own
    per_node = min(p, CORES)
    off_node = (p - per_node) / (p - 1)
    return max(own, per_node * off_node * counted["bytes_max"] * beta)


def model_seconds(record, t1, work, c, simulated):
    """The model's time per unit at the record's rank count: the 1-rank time of one unit
    scaled by the busiest rank's share of the work, plus the communication the driver counted:
    its collectives (collective_seconds, and nic_seconds for an all-to-all's bytes), and its
    point-to-point messages, each paying the per-message overhead, their latencies
    overlapping, their bytes at the bandwidth of the farthest peer."""
    p = record["ranks"]
    (a_in, b_in), (a_out, b_out), nodes = levels(p, c, simulated)
    comm = record["communication"]
    seconds = 0.0
    if comm["messages_max"] > 0:
        overhead = c["overhead"] if simulated else c["latency"] / 2
        # A ghost exchange's messages go to neighbours: at the rank's own pace. Other messages
        # to many peers (a transpose that a driver before the all-to-all's own counts counted
        # as messages) share the node's link.
        ghosts = any(e["name"] == "ghost cells" for e in comm["events"])
        seconds += comm["messages_max"] * overhead + a_out + (
            comm["bytes_max"] * b_out if ghosts else nic_seconds(comm, p, b_out, nodes))
    for e in comm["events"]:
        if e["kind"] != "collective" or e["calls_max"] == 0:
            continue
        seconds += e["calls_max"] * collective_seconds(e["name"], e["bytes_max"] / e["calls_max"],
                                                      p, c, simulated)
        if "lltoall" in e["name"]:
            seconds += e["messages_max"] * c["overhead"] + a_out + nic_seconds(e, p, b_out, nodes)
    return t1 * work + seconds


def efficiency(study, p, t1, tp):
    return t1 / (p * tp) if study.scaling == "strong" else t1 / tp


def load(folder, study):
    records = {}
    for path in Path(folder).glob(f"{study_name(study)}.np*.json"):
        record = read_json(path)
        if record:
            records[record["ranks"]] = record
    return records


def check_counts(study, p, formula, counted):
    """The formula's messages and bytes (and those of its collectives, by name) against the
    driver's counts; each difference is printed, and the largest relative one returned."""
    pairs = [("", formula, counted)]
    for event in formula["events"]:
        found = [e for e in counted["events"] if e["name"] == event["name"]]
        pairs.append((event["name"] + " ", event, found[0] if found else None))
    worst = 0.0
    for name, expected, got in pairs:
        for key in ("messages_max", "bytes_max", "calls_max"):
            if key not in expected:
                continue
            value = got.get(key, 0.0) if got else 0.0
            error = abs(expected[key] - value) / max(1.0, abs(value))
            worst = max(worst, error)
            if error > 1e-6:
                print(f"{study_name(study)} np{p}: {name}{key} counted {value}, formula "
                      f"{expected[key]}", file=sys.stderr)
    return worst


def report(args):
    base = Path(args.out)
    c = json.loads((base / "calibration.json").read_text())
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    chosen = studies(args.studies)
    # One panel per case and scaling: its cuts (slab, box, pencil) side by side in colours.
    panels = {}
    for study in chosen:
        panels.setdefault((study.case, study.scaling), []).append(study)
    columns = min(3, len(panels))
    lines = math.ceil(len(panels) / columns)
    figure, axes = plt.subplots(lines, columns, figsize=(4.4 * columns, 3.5 * lines),
                                squeeze=False)
    table = ["| case | scaling | problem | simulated: 64 / 256 / 1,024 ranks | model: 64 / 256 / "
             "1,024 | model against simulated time | SMPI online: 64 / 256 / 1,024 | measured "
             "here: 2 / 3 / 4 ranks (model) |", "|---|---|---|---|---|---|---|---|"]
    summary = []
    marks = (64, 256, 1024)
    for study in chosen:
        group = panels[(study.case, study.scaling)]
        index = list(panels).index((study.case, study.scaling))
        ax = axes[index // columns][index % columns]
        several = len(group) > 1
        colour = f"C{group.index(study)}" if several else None
        cut = f"{study.grid}, " if several else ""
        communication = load(base / "communication", study)
        online = load(base / "online", study)
        measured = load(base / "measured", study)
        row = {"study": study_name(study), "label": study.label}
        # One unit at 1 rank: the less of the time measured here (wall clock, which a loaded
        # machine stretches) and of SMPI's 1-rank run (the rank's CPU time, which SMPI's own
        # switches to its kernel stretch on small units); noise only adds time.
        ones = [r[1]["seconds_per_unit"] for r in (online, measured) if 1 in r]
        # Strong scaling: at 1 rank every cut is the same grid (1, 1, 1), so the cuts of a panel
        # share the least of their 1-rank times (their differences there are the load).
        shared = study.scaling == "strong" and several
        if shared:
            ones = [load(base / folder, other)[1]["seconds_per_unit"] for other in group
                    for folder in ("online", "measured") if 1 in load(base / folder, other)]
        if not ones:
            continue
        t1 = min(ones) * c["compute_slowdown"]
        row["t1"] = t1
        ranks = sorted(set(communication) | {p for p in marks if study.counts})
        hybrid = {p: communication[p]["seconds_per_unit"] + t1 * study.work(p)
                  for p in sorted(communication)}
        counts = {p: communication[p] for p in communication}
        if study.counts:
            row["counts_check"] = {}
            for p, record in communication.items():  # the formula against the driver's counts
                row["counts_check"][p] = check_counts(study, p, study.counts(p),
                                                      record["communication"])
            for p in marks:
                counts.setdefault(p, {"ranks": p, "communication": study.counts(p)})
        model = {p: model_seconds(counts[p], t1, study.work(p), c, True) for p in sorted(counts)}
        if hybrid:
            h1 = hybrid[min(hybrid)]
            ax.plot(sorted(hybrid), [efficiency(study, p, h1, hybrid[p]) for p in sorted(hybrid)],
                    "o-", color=colour or "C0",
                    label=f"{cut}simulated: SMPI communication + computation")
            row["simulated"] = {p: efficiency(study, p, h1, hybrid[p]) for p in hybrid}
            row["error"] = {p: (model[p] - hybrid[p]) / hybrid[p] for p in hybrid if p in model}
            row["simulated_seconds"] = hybrid
        m1 = model[min(model)]
        ax.plot(sorted(model), [efficiency(study, p, m1, model[p]) for p in sorted(model)], "--",
                color=colour or "C1",
                label=f"{cut}modelled: latency-bandwidth, the driver's counts")
        row["model"] = {p: efficiency(study, p, m1, model[p]) for p in model}
        row["model_seconds"] = model
        if 1 in online and len(online) > 1:
            o1 = online[1]["seconds_per_unit"]
            ax.plot(sorted(online), [efficiency(study, p, o1, online[p]["seconds_per_unit"])
                                     for p in sorted(online)], "^:", color=colour or "grey",
                    alpha=0.5 if several else 1, label=f"{cut}SMPI online (bursts timed here)")
            row["online"] = {p: efficiency(study, p, o1, online[p]["seconds_per_unit"])
                             for p in online}
        if 1 in measured:
            # The fastest repeat: on a shared 2-core machine a rank that yields while it waits
            # loses its core to other processes for whole time slices, and that only adds time.
            best = {p: r["min_seconds_per_unit"] for p, r in measured.items()}
            n1 = best[1]
            if shared:
                n1 = min(load(base / "measured", other)[1]["min_seconds_per_unit"]
                         for other in group if 1 in load(base / "measured", other))
            ps = sorted(measured)
            ax.plot(ps, [efficiency(study, p, n1, best[p]) for p in ps],
                    "s", color=colour or "black",
                    label=f"{cut}measured here (2 cores; 3, 4 oversubscribed)")
            # The formula's counts where the study has one (checked against the simulation).
            here = {p: model_seconds({"ranks": p, "communication": study.counts(p)}
                                     if study.counts else measured[p], n1, study.work(p), c,
                                     False) for p in ps}
            row["measured"] = {p: efficiency(study, p, n1, best[p]) for p in ps}
            row["measured_model"] = {p: efficiency(study, p, here[1], here[p]) for p in ps}
        row["simulation_wall_seconds"] = {
            p: r.get("simulation_wall_seconds") for p, r in communication.items()}
        if study.max_simulated < max(marks) and study is group[-1]:
            ax.axvspan(study.max_simulated, max(marks) * 1.2, color="grey", alpha=0.08)
            ax.text(study.max_simulated * 1.1, 1.07, "the model alone\n(SimGrid fails)",
                    fontsize=6.5, va="top")
        ax.set_xscale("log", base=2)
        ax.set_ylim(0, 1.15)
        ax.set_xlabel("ranks")
        ax.set_ylabel("parallel efficiency")
        ax.set_title(f"{study.case}, {study.scaling}: " + " against ".join(s.label for s in group),
                     fontsize=8.5 if not several else 7.5)
        ax.grid(True, alpha=0.3)
        if (index == 0 or several) and study is group[-1]:
            ax.legend(fontsize=6.5 if not several else 5.5, loc="lower left")
        summary.append(row)

        def at(key, ps, signed=False):
            values = row.get(key, {})
            return " / ".join((f"{values[p]:+.0%}" if signed else f"{100 * values[p]:.0f} %")
                              if p in values else "-" for p in ps)
        table.append(f"| {study.case} | {study.scaling} | {study.label} | {at('simulated', marks)}"
                     f" | {at('model', marks)} | {at('error', marks, True)} | "
                     f"{at('online', marks)} | {at('measured', (2, 3, 4))} "
                     f"({at('measured_model', (2, 3, 4))}) |")
    for index in range(len(panels), axes.size):
        axes[index // columns][index % columns].axis("off")
    if args.title:
        figure.suptitle(args.title, fontsize=9)
    figure.tight_layout()
    figure.savefig(args.figure, dpi=110)
    (base / args.summary).write_text(json.dumps(summary, indent=1) + "\n")
    print("\n".join(table))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("calibrate", "measure", "simulate", "report"):
        command = commands.add_parser(name)
        command.add_argument("--out", default="out/scaling")
        command.add_argument("--studies", nargs="*", default=[],
                             help="study names (case-scaling[-cut]), case-scaling or cases; "
                             "default: all")
        if name != "report":
            command.add_argument("--bench", required=True)
    commands.choices["calibrate"].add_argument("--tries", type=int, default=3)
    commands.choices["calibrate"].add_argument(
        "--slowdown", type=float, default=None,
        help="the simulated cores' slowdown against this machine's (default: the 1-rank triad "
        "over the per-core 2-rank triad, at least 1; on a loaded machine that ratio measures "
        "the load, not the memory)")
    commands.choices["measure"].add_argument("--ranks", default="1,2,3,4")
    commands.choices["measure"].add_argument("--repeats", type=int, default=3)
    commands.choices["measure"].add_argument("--rounds", type=int, default=2)
    simulate_command = commands.choices["simulate"]
    simulate_command.add_argument("--ranks", default="1,4,16,64,256,1024")
    simulate_command.add_argument("--mode", choices=["online", "communication"],
                                  default="communication")
    simulate_command.add_argument("--repeats", type=int, default=1)
    simulate_command.add_argument("--warmup", type=int, default=1)
    simulate_command.add_argument("--timeout", type=float, default=None,
                                  help="seconds of this machine per simulated run (default: none)")
    simulate_command.add_argument("--past-limit", action="store_true",
                                  help="also above a study's max_simulated (to retry SimGrid)")
    simulate_command.add_argument("--again", action="store_true",
                                  help="rerun the points whose JSON exists")
    commands.choices["report"].add_argument("--figure", default="docs/images/scaling.png")
    commands.choices["report"].add_argument("--title", default="",
                                            help="a line above the panels")
    commands.choices["report"].add_argument("--summary", default="summary.json",
                                            help="the efficiencies' JSON, in --out")
    args = parser.parse_args()
    {"calibrate": calibrate, "measure": measure, "simulate": simulate, "report": report}[
        args.command](args)


if __name__ == "__main__":
    main()
