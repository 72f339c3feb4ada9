# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's ProximalGradient and ADMML2: the native solvers."""
import distlops as _dl
from distlops import ProximalGradient  # noqa: F401
from distlops import _distlops as _ext

from ..._layer import DistributedArray, as_flat, stacked_as_theirs, to_side


def ADMML2(proxg, Op, b, A, x0, tau, niter=10, **kwargs):
    """The native ADMML2 (its arguments). PyLops-MPI's operators share flat models; a stacked
    A (MPIGradient) keeps the N-d model layout of its native operator, so that Op is seen on
    that layout (the same elements per rank), x0 is moved there and x is returned flat."""
    domain = A._op.domain_zeros()
    op_domain = Op._op.domain_zeros()
    if type(domain).__name__.startswith("Stacked") or \
            type(op_domain).__name__.startswith("Stacked") or domain.layout == op_domain.layout:
        x, z = _dl.ADMML2(proxg, Op, b, A, x0, tau, niter=niter, **kwargs)
        return stacked_as_theirs(x), stacked_as_theirs(z)
    seen = _dl.LinearOperator(_ext.reshape(Op._op, domain.layout, Op._op.range_zeros().layout),
                              Op.dtype, Op._comm)
    x, z = _dl.ADMML2(proxg, seen, b, A, to_side(x0, domain.layout), tau, niter=niter, **kwargs)
    return DistributedArray._wrap(as_flat(x._a, x.dtype), x._comm), stacked_as_theirs(z)
