# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The operators of the waveeq group (``include/distlops/operators/waveeq/``): PyLops-MPI's
multi-dimensional convolution, MPIMDC."""
import numpy as np
from mpi4py import MPI

from ._arrays import Partition, communicator
from ._factories import export, wraps
from ._operators import LinearOperator, _ext_function

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


export(globals(), "waveeq")
