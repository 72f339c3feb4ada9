# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's FFTs divide: ``F / y`` is the exact inverse, F^H y over the scale of F^H F."""
import numpy as np

from .._layer import MPILinearOperator

# F^H F = scale * I for PyLops-MPI's norms, N the number of points of the transform.
_SCALES = {"none": lambda n: n, "1/n": lambda n: 1.0 / n}


class FFTOperator(MPILinearOperator):
    """A native FFT seen on flat vectors, with the exact inverse ``F / y``."""

    def __truediv__(self, y):
        return self.rmatvec(y) * (1.0 / self._scale)


def make_fft(factory, dims, axes, sampling, norm, real, ifftshift_before, fftshift_after,
             dtype, base_comm):
    """The compatibility FFT of the native ``factory`` (MPIFFT2D or MPIFFTND). As PyLops-MPI's,
    ``dtype`` may be real: the data's dtype is its complex counterpart."""
    dtype = np.result_type(dtype, np.complex64)
    native = factory(dims, axes=axes, sampling=sampling, norm=norm, real=real,
                     ifftshift_before=ifftshift_before, fftshift_after=fftshift_after,
                     dtype=dtype, base_comm=base_comm)
    dims = (int(dims),) if isinstance(dims, int) else tuple(int(n) for n in dims)
    return adopt_fft(native, dims, [a % len(dims) for a in axes], None, norm)


def adopt_fft(native, dims, axes, nffts, norm):
    if str(norm).lower() not in _SCALES:
        raise ValueError(f"`norm`={norm} is not one of 'none' or '1/n'")
    op = FFTOperator.adopt(native)
    points = [dims[a] for a in axes] if nffts is None else \
        [int(n) for n in np.broadcast_to(nffts, (len(axes),))]
    op._scale = _SCALES[str(norm).lower()](float(np.prod(points)))
    for name in ("f1", "f2", "fs"):
        if hasattr(native, name):
            setattr(op, name, getattr(native, name))
    return op
