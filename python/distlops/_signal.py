# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The operators of the signal group (``include/distlops/operators/signal/``): convolutions,
post-stack modelling, Fredholm1, the windowed operators and the FFTs, on one rank's NumPy
arrays (PyLops' names) and distributed (PyLops-MPI's)."""
from numbers import Number

import numpy as np
from mpi4py import MPI

from . import _distlops as _ext
from ._arrays import Partition, communicator, make_layout
from ._factories import export, wraps
from ._operators import (LinearOperator, LocalOperator, _as_dims, _complex_of, _ext_function,
                         _layout, aslocal)

@wraps("local", "Convolve1D")
def Convolve1D(dims, h, offset=0, axis=-1, dtype=None):
    """PyLops' Convolve1D: convolution with the 1-d filter ``h`` (centre ``offset``) along
    ``axis`` of arrays of shape ``dims``."""
    dtype = np.dtype(dtype or np.asarray(h).dtype)
    h = np.ascontiguousarray(h, dtype=dtype).ravel()
    return LocalOperator(_ext_function("local_Convolve1D", dtype)(
        _as_dims(dims), h, int(offset), int(axis)), dtype)


@wraps("local", "PoststackLinearModelling")
def PoststackLinearModelling(wav, nt0, spatdims=None, explicit=False, kind="centered",
                             dtype=None):
    """PyLops' post-stack modelling d = W D m on one rank's ``(nt0, *spatdims)`` models."""
    dtype = np.dtype(dtype or np.asarray(wav).dtype)
    wav = np.ascontiguousarray(wav, dtype=dtype).ravel()
    return LocalOperator(_ext_function("local_PoststackLinearModelling", dtype)(
        wav, int(nt0), [] if spatdims is None else _as_dims(spatdims), kind, bool(explicit)),
        dtype)


@wraps("distributed", "PoststackLinearModelling")
def MPIPoststackLinearModelling(wav, dims, explicit=False, kind="centered", axis=1,
                                base_comm=MPI.COMM_WORLD, dtype=None):
    """Post-stack modelling of models of shape ``dims`` = (nt0, spatial...) split along
    ``axis`` (a spatial axis): each rank models its own traces."""
    dtype = np.dtype(dtype or np.asarray(wav).dtype)
    wav = np.ascontiguousarray(wav, dtype=dtype).ravel()
    layout = make_layout(_as_dims(dims), base_comm, Partition.SCATTER, axis)
    return LinearOperator(_ext_function("PoststackLinearModelling", dtype)(
        wav, layout, kind, bool(explicit), 0), dtype, base_comm)


@wraps("distributed", "Convolve2D")
def MPIConvolve2D(dims, h, offset=(0, 0), axes=(-2, -1), base_comm=MPI.COMM_WORLD, dtype=None):
    """PyLops' Convolve2D (same-size output, filter centred at ``offset``) on arrays of shape
    ``dims`` split along axis 0; the ranks exchange the ghost rows the filter needs."""
    dtype = np.dtype(dtype or np.asarray(h).dtype)
    h = np.ascontiguousarray(h, dtype=dtype)
    return LinearOperator(_ext_function("Convolve2D", dtype)(
        _layout(dims, base_comm), h, [int(o) for o in offset], [int(a) for a in axes]), dtype,
        base_comm)


def MPIConvolve1D(dims, h, offset=0, axis=-1, base_comm=MPI.COMM_WORLD, dtype=None):
    """PyLops' Convolve1D along ``axis`` of arrays of shape ``dims`` split along axis 0 (the
    split axis included: the ranks exchange the ghost rows the filter needs); the N-d
    convolution with a 1-d filter."""
    h = np.asarray(h)
    if h.ndim != 1:
        raise ValueError(f"MPIConvolve1D: h must be 1-d, got shape {h.shape}")
    return MPIConvolveND(dims, h, offset=[offset], axes=[axis], base_comm=base_comm,
                         dtype=dtype)


@wraps("distributed", "ConvolveND")
def MPIConvolveND(dims, h, offset=None, axes=None, base_comm=MPI.COMM_WORLD, dtype=None):
    """PyLops' ConvolveND on arrays of shape ``dims`` split along axis 0."""
    dtype = np.dtype(dtype or np.asarray(h).dtype)
    h = np.ascontiguousarray(h, dtype=dtype)
    return LinearOperator(_ext_function("ConvolveND", dtype)(
        _layout(dims, base_comm), h, [] if offset is None else [int(o) for o in offset],
        [] if axes is None else [int(a) for a in axes]), dtype, base_comm)


@wraps("distributed", "Fredholm1")
def MPIFredholm1(G, nz=1, saveGt=False, usematmul=True, base_comm=MPI.COMM_WORLD,
                 dtype="float64", partition=Partition.BROADCAST):
    """PyLops-MPI's Fredholm1: ``G`` holds this rank's slices (nsl_r, nx, ny); models of shape
    (nsl, ny, nz) and data (nsl, nx, nz), replicated (BROADCAST, as PyLops-MPI) or split along
    axis 0 like G (SCATTER). ``usematmul`` has no effect (always a batched product)."""
    dtype = np.dtype(dtype)
    G = np.ascontiguousarray(G, dtype=dtype)
    if G.ndim != 3:
        raise ValueError(f"MPIFredholm1: G must be 3-d (nsl, nx, ny), got shape {G.shape}")
    return LinearOperator(_ext_function("Fredholm1", dtype)(
        G, int(nz), partition, bool(saveGt), communicator(base_comm)), dtype, base_comm)


@wraps("distributed", "NonStationaryConvolve1D")
def MPINonStationaryConvolve1D(dims, hs, ih, axis=-1, base_comm=MPI.COMM_WORLD, dtype="float64"):
    """PyLops' NonStationaryConvolve1D of an array of shape ``dims`` split along ``axis`` over
    the ranks (the default split): the filters ``hs`` (one row each, odd length) at the
    regularly spaced positions ``ih`` along ``axis``, interpolated in between. Model and data
    are flat (N-d arrays split along ``axis`` are accepted); the adjoint is exact."""
    dtype = np.dtype(dtype)
    dims = [int(dims)] if np.isscalar(dims) else [int(n) for n in dims]
    filters = [list(row) for row in np.asarray(hs, dtype=dtype).reshape(len(hs), -1)]
    return LinearOperator(_ext_function("NonStationaryConvolve1D", dtype)(
        communicator(base_comm), dims, filters, [int(i) for i in ih], int(axis)), dtype,
        base_comm)


def _fft(name, dims, axes, nffts, norm, real, ifftshift_before, fftshift_after, dtype,
         base_comm, output, grid):
    dtype = np.dtype(dtype)
    if not np.issubdtype(dtype, np.complexfloating):
        raise ValueError(f"MPI{name}: dtype is the data's (complex) dtype, got {dtype}")
    model_dtype = np.empty(0, dtype).real.dtype if real else dtype
    axes = [int(a) for a in axes]

    def per_axis(flag):
        return [bool(flag)] * len(axes) if isinstance(flag, (bool, np.bool_)) else \
            [bool(f) for f in flag]

    if output not in ("transposed", "same_as_input"):
        raise ValueError(f"MPI{name}: output must be 'transposed' or 'same_as_input', got "
                         f"{output!r}")
    op = _ext_function(name, model_dtype)(
        make_layout(_as_dims(dims), base_comm, grid=grid), axes,
        [] if nffts is None else [int(n) for n in nffts], norm,
        bool(real), per_axis(ifftshift_before), per_axis(fftshift_after),
        output == "same_as_input")
    return LinearOperator(op, dtype, base_comm)


@wraps("distributed", "FFT2D")
def MPIFFT2D(dims, axes=(0, 1), nffts=None, sampling=1.0, norm="none", real=False,
             ifftshift_before=False, fftshift_after=False, dtype="complex128",
             base_comm=MPI.COMM_WORLD, output="transposed", grid=None):
    """PyLops-MPI's FFT2D of arrays of shape ``dims`` split along axis 0 (norm "none" by
    default, as PyLops-MPI), or cut over the process grid ``grid`` (distlops' extension, as
    DistributedArray's ``grid``: pencils, one entry per axis). ``dtype`` is the data's complex
    dtype; with ``real`` the model is real (half spectrum along the last axis, PyLops'
    weights). The data are laid out as the last all-to-all leaves them
    (``output="transposed"``) or like the model (``"same_as_input"``, one more all-to-all when
    the cut moved). ``sampling`` only sets PyLops' frequency axes there and is not used
    here."""
    return _fft("FFT2D", dims, axes, nffts, norm, real, ifftshift_before, fftshift_after, dtype,
                base_comm, output, grid)


@wraps("distributed", "FFTND")
def MPIFFTND(dims, axes=(0, 1, 2), nffts=None, sampling=1.0, norm="none", real=False,
             ifftshift_before=False, fftshift_after=False, dtype="complex128",
             base_comm=MPI.COMM_WORLD, output="transposed", grid=None):
    """PyLops-MPI's FFTND; as MPIFFT2D over any number of axes."""
    return _fft("FFTND", dims, axes, nffts, norm, real, ifftshift_before, fftshift_after, dtype,
                base_comm, output, grid)


_FFT_ENGINES = ("numpy", "fftw", "scipy", "mkl_fft")


_FFTW_FLAGS = {"FFTW_ESTIMATE": "estimate", "FFTW_MEASURE": "measure",
               "FFTW_PATIENT": "patient"}


def _local_fft(name, dims, axes, nffts, sampling, norm, real, ifftshift_before, fftshift_after,
               engine, dtype, kwargs_fftw):
    """PyLops' FFT, FFT2D and FFTND on one rank's arrays, computed with FFTW whatever the
    engine."""
    if engine not in _FFT_ENGINES:
        raise ValueError(f"{name}: engine must be one of {', '.join(_FFT_ENGINES)}, got "
                         f"{engine!r} (the transform is computed with FFTW for all of them)")
    unknown = set(kwargs_fftw) - {"flags"}
    if unknown:
        raise ValueError(f"{name}: of PyLops' FFTW keyword arguments only flags is taken, got "
                         f"{sorted(unknown)}")
    flags = [f for f in kwargs_fftw.get("flags", ()) if f in _FFTW_FLAGS]
    planning = _FFTW_FLAGS[flags[-1]] if flags else "estimate"
    dtype = np.dtype(dtype)
    # PyLops' rdtype: the model is real for real=True or a real dtype.
    model_dtype = np.empty(0, dtype).real.dtype if real else dtype
    dims = _as_dims(dims)
    axes = [int(a) for a in axes]
    nffts = [] if nffts is None else [0 if n is None else int(n) for n in nffts]

    def per_axis(flag):
        return [bool(flag)] * len(axes) if isinstance(flag, (bool, np.bool_)) else \
            [bool(f) for f in flag]

    op = LocalOperator(_ext_function("local_" + name, model_dtype)(
        dims, axes, nffts, norm, bool(real), per_axis(ifftshift_before),
        per_axis(fftshift_after), planning), _complex_of(dtype))
    # PyLops' sample frequencies (f for FFT, f1 and f2 for FFT2D, fs for all).
    nfft_of = nffts or [0] * len(axes)
    nfft_of = nfft_of * len(axes) if len(nfft_of) == 1 else nfft_of
    sampling = [float(sampling)] * len(axes) if isinstance(sampling, Number) else \
        [float(d) for d in sampling]
    shifts = per_axis(fftshift_after)
    fs = []
    for i, (axis, n, d) in enumerate(zip(axes, nfft_of, sampling)):
        n = n or dims[axis]
        last = i == len(axes) - 1
        f = np.fft.rfftfreq(n, d) if real and last else np.fft.fftfreq(n, d)
        fs.append(np.fft.fftshift(f) if shifts[i] else f)
    return _FFTOperator(op._op, op.dtype, fs)


class _FFTOperator(LocalOperator):
    """A local FFT with PyLops' frequency attributes."""

    __slots__ = ("fs",)

    def __init__(self, op, dtype, fs):
        super().__init__(op, dtype)
        self.fs = fs

    @property
    def f(self):
        return self.fs[0]

    @property
    def f1(self):
        return self.fs[0]

    @property
    def f2(self):
        return self.fs[1]


@wraps("local", "FFT")
def FFT(dims, axis=-1, nfft=None, sampling=1.0, norm="ortho", real=False,
        ifftshift_before=False, fftshift_after=False, engine="numpy", dtype="complex128",
        name="F", **kwargs_fftw):
    """PyLops' FFT along ``axis`` of one rank's arrays of shape ``dims``: a local operator
    (FFTW for every ``engine``; ``kwargs_fftw``: only ``flags``, FFTW's planning effort).
    The model is real for ``real=True`` or a real ``dtype`` (PyLops' rdtype), the data complex;
    such an operator applies to NumPy arrays and composes with local operators, and
    BlockDiag, VStack, HStack and asmpilinearoperator take the complex ones."""
    return _local_fft("FFT", dims, [axis], None if nfft is None else [nfft], sampling, norm,
                      real, ifftshift_before, fftshift_after, engine, dtype, kwargs_fftw)


@wraps("local", "FFT2D")
def FFT2D(dims, axes=(-2, -1), nffts=None, sampling=1.0, norm="ortho", real=False,
          ifftshift_before=False, fftshift_after=False, engine="numpy", dtype="complex128",
          name="F", **kwargs_fftw):
    """PyLops' FFT2D of one rank's arrays (see FFT)."""
    return _local_fft("FFT2D", dims, axes, nffts, sampling, norm, real, ifftshift_before,
                      fftshift_after, engine, dtype, kwargs_fftw)


@wraps("local", "FFTND")
def FFTND(dims, axes=(-3, -2, -1), nffts=None, sampling=1.0, norm="ortho", real=False,
          ifftshift_before=False, fftshift_after=False, engine="numpy", dtype="complex128",
          name="F", **kwargs_fftw):
    """PyLops' FFTND of one rank's arrays (see FFT)."""
    return _local_fft("FFTND", dims, axes, nffts, sampling, norm, real, ifftshift_before,
                      fftshift_after, engine, dtype, kwargs_fftw)


def _taper(tapertype):
    name = "none" if tapertype is None else str(tapertype)
    if name not in _ext.Taper.__members__:
        raise ValueError(f"Sliding: tapertype must be 'hanning', 'cosine', 'cosinesquare' or "
                         f"None, got {name!r}")
    return _ext.Taper[name]


def _windows(windows_per_rank):
    return [] if windows_per_rank is None else [int(n) for n in windows_per_rank]


@wraps("distributed", "Sliding1D")
def MPISliding1D(Op, dim, dimd, nwin, nover, tapertype="hanning", base_comm=MPI.COMM_WORLD,
                 windows_per_rank=None, dtype=None):
    """PyLops' Sliding1D with the windows split over the ranks: ``Op`` is the local operator
    of ONE window (PyLops takes the operator of all windows), from nop model samples to nwin
    data samples; model (nwins, nop), data (dimd,). Collective."""
    op = aslocal(Op, dtype)
    return LinearOperator(_ext_function("Sliding1D", op.dtype)(
        op._op, communicator(base_comm), int(np.prod(_as_dims(dim))), int(dimd), int(nwin),
        int(nover), _taper(tapertype), _windows(windows_per_rank)), op.dtype, base_comm)


@wraps("distributed", "Sliding2D")
def MPISliding2D(Op, dims, dimsd, nwin, nover, tapertype="hanning", base_comm=MPI.COMM_WORLD,
                 windows_per_rank=None, dtype=None):
    """PyLops' Sliding2D (windows of nwin rows of full width) with the windows split over the
    ranks; ``Op`` maps one window. Model (nwins, nop0, nop1), data ``dimsd``. Collective."""
    op = aslocal(Op, dtype)
    return LinearOperator(_ext_function("Sliding2D", op.dtype)(
        op._op, communicator(base_comm), _as_dims(dims), _as_dims(dimsd), int(nwin), int(nover),
        _taper(tapertype), _windows(windows_per_rank)), op.dtype, base_comm)


@wraps("distributed", "Patch2D")
def MPIPatch2D(Op, dims, dimsd, nwin, nover, nop, tapertype="hanning",
               base_comm=MPI.COMM_WORLD, windows_per_rank=None, dtype=None):
    """PyLops' Patch2D with the rows of patches split over the ranks; ``Op`` maps one patch.
    Model (nwins0, nwins1, nop0, nop1), data ``dimsd``. Collective."""
    op = aslocal(Op, dtype)
    return LinearOperator(_ext_function("Patch2D", op.dtype)(
        op._op, communicator(base_comm), _as_dims(dims), _as_dims(dimsd), _as_dims(nwin),
        _as_dims(nover), _as_dims(nop), _taper(tapertype), _windows(windows_per_rank)),
        op.dtype, base_comm)


export(globals(), "signal")
