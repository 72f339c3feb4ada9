# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The dot test <Op u, v> = <u, Op^H v> (PyLops-MPI's utils.dottest)."""
import numpy as np

from ._arrays import Partition, array_module


def _leaves(x):
    """The plain arrays of a vector, depth first through nested stacks."""
    if hasattr(x, "distarrays"):
        return [leaf for item in x.distarrays for leaf in _leaves(item)]
    return [x]


def _fill_random(x, seed):
    """Random values, the same on every rank for replicated arrays (their replicas must agree)
    and different per rank for split ones."""
    for i, a in enumerate(_leaves(x)):
        local = a.local_array
        split = a.partition == Partition.SCATTER
        rng = np.random.default_rng([seed, i, a.rank if split else 2**31])
        values = rng.standard_normal(local.shape)
        if np.iscomplexobj(local):
            values = values + 1j * rng.standard_normal(local.shape)
        local[...] = array_module(a.engine).asarray(values)


def _first(x):
    return _leaves(x)[0]


def dottest(Op, u=None, v=None, nr=None, nc=None, rtol=None, atol=1e-21, raiseerror=True,
            verb=False, seed=None):
    """Returns True when ``|<Op u, v> - <u, Op^H v>| <= rtol * max(|.|) + atol``; u and v default
    to random arrays of Op's domain and range. Raises ValueError when
    it fails and ``raiseerror``, on every rank alike (both sides are reductions)."""
    seed = 1234 if seed is None else seed
    if u is None:
        u = Op.domain_zeros()
        _fill_random(u, seed)
    if v is None:
        v = Op.range_zeros()
        _fill_random(v, seed + 1)
    if rtol is None:
        rtol = 1e-4 if np.dtype(Op.dtype) in (np.float32, np.complex64) else 1e-10
    forward = Op.matvec(u).dot(v, vdot=True)
    adjoint = u.dot(Op.rmatvec(v), vdot=True)
    if not np.iscomplexobj(_first(u).local_array) and np.iscomplexobj(_first(v).local_array):
        # Real models, complex data (real FFTs): the adjoint is that of the real-linear map,
        # exact for Re <v, Op u> (PyLops' dottest for operators that are not complex-linear).
        forward = forward.real
    error = abs(forward - adjoint)
    passed = error <= rtol * max(abs(forward), abs(adjoint)) + atol
    if verb and Op.base_comm.Get_rank() == 0:
        print(f"Dot test {'passed' if passed else 'failed'}, v^H(Opu)={forward} - "
              f"u^H(Op^Hv)={adjoint}")
    if not passed and raiseerror:
        raise ValueError(f"Dot test failed, v^H(Opu)={forward} - u^H(Op^Hv)={adjoint}")
    return passed
