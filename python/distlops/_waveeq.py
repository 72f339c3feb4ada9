# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The operators of the waveeq group (``include/distlops/operators/waveeq/``): PyLops-MPI's
multi-dimensional convolution, MPIMDC, and PyLops' Kirchhoff demigration, on one rank
(Kirchhoff) and with the sources split over the ranks (MPIKirchhoff)."""
from numbers import Number

import numpy as np
from mpi4py import MPI

from ._arrays import Partition, communicator
from ._factories import export, wraps
from ._operators import LinearOperator, LocalOperator, _ext_function

@wraps("distributed", "MDC")
def MPIMDC(G, nt, nv, nfreq, dt=1.0, dr=1.0, twosided=True, fftengine="numpy", saveGt=True,
           conj=False, usematmul=False, prescaled=False, base_comm=MPI.COMM_WORLD,
           partition=Partition.BROADCAST):
    """PyLops-MPI's MDC: ``G`` holds this rank's frequencies (nf_r, ns, nr), complex; real
    models (nt, nr, nv) and data (nt, ns, nv), replicated (BROADCAST, as PyLops-MPI) or split
    along their spatial axis (SCATTER). ``nfreq`` must be the sum of the ranks' nf_r;
    ``fftengine`` and ``usematmul`` have no effect (FFTW and a batched product)."""
    G = np.asarray(G)
    if G.ndim != 3 or not np.issubdtype(G.dtype, np.complexfloating):
        raise ValueError(f"MPIMDC: G must be a complex 3-d array (nf, ns, nr), got {G.dtype} "
                         f"of shape {G.shape}")
    total = sum(base_comm.allgather(G.shape[0]))
    if total != int(nfreq):
        raise ValueError(f"MPIMDC: the ranks hold {total} frequencies of G, nfreq is {nfreq}")
    real = np.empty(0, G.dtype).real.dtype
    G = np.ascontiguousarray(G)
    return LinearOperator(_ext_function("MDC", real)(
        G, int(nt), int(nv), float(dt), float(dr), bool(twosided), bool(conj), bool(prescaled),
        bool(saveGt), partition, communicator(base_comm)), real, base_comm)



def _regular_axis(values, name):
    """(n, origin, step) of a regular increasing axis given as its points (PyLops' z, x, y, t)."""
    values = np.asarray(values, dtype=np.float64).ravel()
    if values.size < 2:
        raise ValueError(f"Kirchhoff: {name} needs at least 2 points, got {values.size}")
    step = values[1] - values[0]
    if not step > 0 or not np.allclose(np.diff(values), step, rtol=1e-6, atol=0):
        raise ValueError(f"Kirchhoff: {name} must be regularly spaced and increasing")
    return (float(values.size), float(values[0]), float(step))


def _points(points, dimension, name):
    """PyLops' (dimension, n) coordinates as distlops' point-major list."""
    points = np.asarray(points, dtype=np.float64)
    if points.ndim == 1 and points.size == 0:
        points = points.reshape(dimension, 0)
    if points.ndim != 2 or points.shape[0] != dimension:
        raise ValueError(f"Kirchhoff: {name} must have shape ({dimension}, n) in "
                         f"{dimension}-d, got {points.shape}")
    return np.ascontiguousarray(points.T).ravel()


def _taper_bounds(aperture, name):
    """PyLops' aperture: a scalar a tapers from 0.8 a to a, a pair gives both bounds."""
    if isinstance(aperture, Number):
        return (0.8 * float(aperture), float(aperture))
    bounds = tuple(float(v) for v in aperture)
    if len(bounds) != 2:
        raise ValueError(f"Kirchhoff: {name} must be a number or a pair, got {aperture!r}")
    return bounds


def _point_tables(pair, npoints, name):
    """PyLops' pair of tables, (n image points, n sources) and (n image points, n receivers),
    as distlops' point-major rows."""
    if pair is None:
        return np.empty(0), np.empty(0)
    if not isinstance(pair, (tuple, list)) or len(pair) != 2:
        raise ValueError(f"Kirchhoff: {name} must be a pair (sources, receivers) of tables; "
                         "a single table of summed traveltimes is not supported")
    tables = []
    for table in pair:
        table = np.asarray(table, dtype=np.float64)
        table = table.reshape(npoints, -1) if table.size else table.reshape(npoints, 0)
        tables.append(np.ascontiguousarray(table.T).ravel())
    return tables[0], tables[1]


def _kirchhoff_arguments(z, x, t, srcs, recs, vel, wav, wavcenter, y, mode, wavfilter, trav, amp,
                         aperture, angleaperture, anglerefl, snell, dynamic):
    """The extension's arguments of Kirchhoff from PyLops' (every check PyLops makes, and
    those of what distlops does not offer)."""
    if mode not in ("analytic", "byot"):
        raise ValueError(f"Kirchhoff: mode must be 'analytic' or 'byot' (traveltime tables "
                         f"from any solver), got {mode!r}")
    if anglerefl is not None or snell is not None:
        raise ValueError("Kirchhoff: anglerefl and snell are not supported")
    dimension = 2 if y is None else 3
    yaxis = (0.0, 0.0, 1.0) if y is None else _regular_axis(y, "y")
    xaxis, zaxis = _regular_axis(x, "x"), _regular_axis(z, "z")
    taxis = _regular_axis(t, "t")
    npoints = int(xaxis[0] * zaxis[0] * (1 if y is None else yaxis[0]))
    velocity, velocity_model = 0.0, np.empty(0)
    if isinstance(vel, Number):
        velocity = float(vel)
    else:
        velocity_model = np.ascontiguousarray(vel, dtype=np.float64).ravel()
        if mode == "analytic":
            raise ValueError("Kirchhoff: mode 'analytic' needs a constant velocity (a number)")
    tables = mode == "byot"
    if tables and trav is None:
        raise ValueError("Kirchhoff: mode 'byot' needs trav, a pair of traveltime tables")
    source_traveltimes, receiver_traveltimes = _point_tables(trav if tables else None, npoints,
                                                             "trav")
    source_amplitudes, receiver_amplitudes = _point_tables(amp if tables and dynamic else None,
                                                           npoints, "amp")
    return (yaxis, xaxis, zaxis, int(taxis[0]), taxis[2], _points(srcs, dimension, "srcs"),
            _points(recs, dimension, "recs"), np.ascontiguousarray(wav, dtype=np.float64).ravel(),
            int(wavcenter), tables, velocity, velocity_model, source_traveltimes,
            receiver_traveltimes, source_amplitudes, receiver_amplitudes, bool(wavfilter),
            bool(dynamic), aperture is not None,
            (0.0, 0.0) if aperture is None else _taper_bounds(aperture, "aperture"),
            _taper_bounds(angleaperture, "angleaperture"))


@wraps("local", "Kirchhoff")
def Kirchhoff(z, x, t, srcs, recs, vel, wav, wavcenter, y=None, mode="analytic", wavfilter=False,
              trav=None, amp=None, aperture=None, angleaperture=90, anglerefl=None, snell=None,
              engine="numpy", dynamic=False, dtype="float64", name="K"):
    """PyLops' Kirchhoff demigration (modes 'analytic' and 'byot' with a pair of tables):
    models (nx, nz) or (ny, nx, nz), data (ns, nr, nt); ``engine`` has no effect (compiled
    kernels). The exact adjoint is migration."""
    dtype = np.dtype(dtype)
    return LocalOperator(_ext_function("local_Kirchhoff", dtype)(*_kirchhoff_arguments(
        z, x, t, srcs, recs, vel, wav, wavcenter, y, mode, wavfilter, trav, amp, aperture,
        angleaperture, anglerefl, snell, dynamic)), dtype)


@wraps("distributed", "Kirchhoff")
def MPIKirchhoff(z, x, t, srcs, recs, vel, wav, wavcenter, y=None, mode="analytic",
                 wavfilter=False, trav=None, amp=None, aperture=None, angleaperture=90,
                 anglerefl=None, snell=None, dynamic=False, dtype="float64",
                 model_partition=Partition.BROADCAST, base_comm=MPI.COMM_WORLD):
    """Kirchhoff demigration with the sources split over the ranks (PyLops-MPI's VStack of one
    PyLops Kirchhoff per rank, as one operator): ``srcs`` (and the source tables of ``trav``
    and ``amp``) are this rank's, any number of them, none included; the rest is the same on
    every rank. Data (ns, nr, nt) split along the sources in rank order; the model replicated
    (BROADCAST) or split along its first axis (SCATTER). Collective."""
    dtype = np.dtype(dtype)
    return LinearOperator(_ext_function("Kirchhoff", dtype)(*_kirchhoff_arguments(
        z, x, t, srcs, recs, vel, wav, wavcenter, y, mode, wavfilter, trav, amp, aperture,
        angleaperture, anglerefl, snell, dynamic), model_partition, communicator(base_comm)),
        dtype, base_comm)


export(globals(), "waveeq")
