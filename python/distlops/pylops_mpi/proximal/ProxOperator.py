# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's MPIProxOperator: a separable PyProximal operator applied to each rank's block.

It is a native ProxOperator written in Python, so that the native proximal solvers run it."""
from mpi4py import MPI
import numpy as np

import distlops as _dl
from distlops import DistributedArray, Partition, StackedDistributedArray

# The separable PyProximal operators: how the ranks' values combine (MPI, and over the items of
# a stack).
_SEPARABLE = {"Box": (MPI.LAND, all), "L0": (MPI.SUM, sum), "L1": (MPI.SUM, sum)}


def _scalar(value):
    if isinstance(value, (bool, int, float)):
        return value
    if np.size(value) != 1:
        raise ValueError(f"Expected scalar function evaluation, got object with shape "
                         f"{getattr(value, 'shape', None)}")
    return np.asarray(value).item()


def _blockwise(x, function):
    """A new array of x's layout whose blocks are function(block)."""
    y = x.empty_like() if isinstance(x, DistributedArray) else x.zeros_like()
    items = [(x, y)] if isinstance(x, DistributedArray) else \
        [(x[i], y[i]) for i in range(x.narrays)]
    for given, result in items:
        result.local_array[...] = function(given.local_array)
    return y


class MPIProxOperator(_dl.ProxOperator):
    """``prox`` (a separable PyProximal operator: Box, L0 or L1) on every rank's block of a
    DistributedArray or StackedDistributedArray; its value sums (L0, L1) or ANDs (Box) the
    ranks' values over the array's ranks, a replicated array's being every rank's own."""

    def __init__(self, prox):
        name = type(prox).__name__
        if name not in _SEPARABLE:
            raise NotImplementedError(f"{name} is not a separable proximal operator, must be "
                                      f"implemented directly...")
        super().__init__()
        self.proxop = prox
        self.hasgrad = prox.hasgrad

    def __repr__(self):
        inner = getattr(self, "proxop", None)
        return f"<{type(self).__name__}" + (f" ({type(inner).__name__})>" if inner else ">")

    def __call__(self, x):
        reduce_mpi, reduce_items = _SEPARABLE[type(self.proxop).__name__]
        if isinstance(x, StackedDistributedArray):
            return reduce_items([self(x[i]) for i in range(x.narrays)])
        value = _scalar(self.proxop(x.local_array))
        if x.partition != Partition.SCATTER:
            return value
        return _scalar(x.sub_comm.allreduce(value, op=reduce_mpi))

    def _check(self, tau):
        if np.any(np.asarray(tau) <= 0):
            raise ValueError(f"tau must be positive, got {tau}")

    def prox(self, x, tau, **kwargs):
        self._check(tau)
        return _blockwise(x, lambda block: self.proxop.prox(block, tau))

    def proxdual(self, x, tau, **kwargs):
        self._check(tau)
        return _blockwise(x, lambda block: self.proxop.proxdual(block, tau))

    def postcomposition(self, sigma):
        """g(x) = sigma f(x): prox_{tau g} = prox_{sigma tau f}."""
        if not isinstance(sigma, float):
            raise NotImplementedError("sigma must be of type float")
        return _Postcomposed(self, sigma)

    def precomposition(self, a, b):
        """g(x) = f(a x + b): prox_{tau g}(x) = (prox_{a^2 tau f}(a x + b) - b) / a."""
        if not isinstance(a, float) or \
                not isinstance(b, (float, DistributedArray, StackedDistributedArray)):
            raise NotImplementedError("a must be of type float and b must be of type float, "
                                      "DistributedArray, or StackedDistributedArray")
        return _Precomposed(self, a, b)


class _Postcomposed(MPIProxOperator):
    def __init__(self, f, sigma):
        _dl.ProxOperator.__init__(self)
        self.f, self.sigma, self.hasgrad = f, sigma, f.hasgrad

    def __call__(self, x):
        return self.sigma * self.f(x)

    def prox(self, x, tau, **kwargs):
        self._check(tau)
        return self.f.prox(x, self.sigma * tau)

    def grad(self, x):
        return self.sigma * self.f.grad(x)


class _Precomposed(MPIProxOperator):
    def __init__(self, f, a, b):
        _dl.ProxOperator.__init__(self)
        self.f, self.a, self.b = f, a, b
        self.hasgrad = getattr(f, "hasgrad", True)  # the native operators have grad

    def _shifted(self, x):
        return self.a * x + self.b

    def __call__(self, x):
        return self.f(self._shifted(x))

    def prox(self, x, tau, **kwargs):
        self._check(tau)
        return (1.0 / self.a) * (self.f.prox(self._shifted(x), self.a ** 2 * tau) - self.b)

    def grad(self, x):
        return self.a * self.f.grad(self._shifted(x))
