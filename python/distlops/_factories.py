# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The Python functions of the operator factories the extension binds.

Every factory bound by python/src/factory_binding.hpp is listed in ``_distlops.factories`` as
(group, name, form, layout_first). The module of its group (``_<group>.py``) either writes its
function by hand, marked ``@wraps(form, name)``, where PyLops' signature needs translating, or
lets ``export`` make one:

- a local factory ``local::NAME(args...)`` becomes ``NAME(*args, dtype=None, **kwargs)``, a
  LocalOperator;
- a distributed factory on a layout, ``NAME(layout, args...)``, becomes
  ``MPINAME(dims, *args, base_comm=MPI.COMM_WORLD, dtype=None, engine="numpy", **kwargs)`` on
  arrays of shape ``dims`` split along axis 0 (PyLops-MPI's convention), a LinearOperator;
  ``engine="cupy"`` makes it in the CUDA space where the factory is bound there
  (``NAME_<dtype>_cuda``).

Their arguments are the C++ factory's, in order: NumPy arrays of floating or complex values are
converted to ``dtype``, which is by default the type that those arrays and the Python numbers
among the arguments make together (float64 when there are none); mpi4py communicators are
accepted where the factory takes a Communicator."""
import numpy as np
from mpi4py import MPI

from . import _distlops as _ext
from ._arrays import (ENGINES, Partition, agree_on_engine, communicator, dtype_suffix,
                      engine_suffix, make_layout)


def wraps(form, name):
    """Marks a function as the hand-written Python form of the bound factory ``name`` (form
    "local" or "distributed"), which ``export`` then leaves alone."""

    def mark(function):
        function._distlops_factory = (form, name)
        return function

    return mark


def python_name(name, form):
    """The Python name ``export`` gives a factory: PyLops' for local ones, PyLops-MPI's (MPI
    and the name) for distributed ones."""
    return name if form == "local" else "MPI" + name


def _dtype(args, kwargs, dtype):
    if dtype is not None:
        return np.dtype(dtype)
    values = [v for v in (*args, *kwargs.values())
              if (isinstance(v, np.ndarray) and np.issubdtype(v.dtype, np.inexact))
              or (isinstance(v, (float, complex)) and not isinstance(v, bool))]
    return np.result_type(*values) if values else np.dtype(np.float64)


def _converted(value, dtype):
    if isinstance(value, np.ndarray) and np.issubdtype(value.dtype, np.inexact):
        return np.ascontiguousarray(value, dtype=dtype)
    if isinstance(value, np.ndarray):
        return np.ascontiguousarray(value)
    if isinstance(value, MPI.Comm):
        return communicator(value)
    return value


def ext_function(name, dtype, engine="numpy", comm=None):
    """The extension's factory ``name`` for ``dtype`` in the memory space of ``engine``
    (ValueError naming the engines it has where it has not that one). With ``comm``, the ranks
    of a distributed factory first agree that they can make it (agree_on_engine)."""
    if comm is not None:
        agree_on_engine(engine, comm)
    function = getattr(_ext, f"{name}_{dtype_suffix(dtype)}{engine_suffix(engine)}", None)
    if function is None:
        have = [e for e, suffix in ENGINES.items()
                if hasattr(_ext, f"{name}_{dtype_suffix(dtype)}{suffix}")]
        raise ValueError(f"{name}: no {engine!r} engine in this build (it has "
                         f"{' and '.join(repr(e) for e in have)})")
    return function


def _call(ext_name, dtype, args, kwargs, engine="numpy", comm=None):
    function = ext_function(ext_name, dtype, engine, comm)
    return function(*(_converted(v, dtype) for v in args),
                    **{k: _converted(v, dtype) for k, v in kwargs.items()})


def _local(name):
    from ._operators import LocalOperator

    def factory(*args, dtype=None, **kwargs):
        dtype = _dtype(args, kwargs, dtype)
        return LocalOperator(_call("local_" + name, dtype, args, kwargs), dtype)

    factory.__doc__ = (f"local::{name} on one rank's NumPy arrays: the C++ factory's arguments "
                       f"after the scalar type (docs/operators.md), and dtype.")
    return factory


def _distributed(name):
    from ._operators import LinearOperator

    def factory(dims, *args, base_comm=MPI.COMM_WORLD, dtype=None, engine="numpy", **kwargs):
        dtype = _dtype(args, kwargs, dtype)
        dims = [int(dims)] if np.isscalar(dims) else [int(n) for n in dims]
        layout = make_layout(dims, base_comm, Partition.SCATTER, 0)
        return LinearOperator(_call(name, dtype, (layout, *args), kwargs, engine, base_comm),
                              dtype, base_comm)

    factory.__doc__ = (f"The distributed {name} on arrays of shape dims split along axis 0 over "
                       f"base_comm: the C++ factory's arguments after the layout "
                       f"(docs/operators.md), dtype and engine.")
    return factory


def export(namespace, group):
    """Adds to a group module's ``namespace`` (its ``globals()``) the function of every factory
    of ``group`` that none of its functions wraps by hand."""
    wrapped = {getattr(value, "_distlops_factory", None) for value in namespace.values()}
    for factory_group, name, form, layout_first in _ext.factories:
        if factory_group != group or (form, name) in wrapped:
            continue
        if form == "distributed" and not layout_first:
            raise ImportError(f"distlops: the distributed factory {name} of group {group} does "
                              f"not take a layout first: distlops/_{group}.py must wrap it")
        function = _local(name) if form == "local" else _distributed(name)
        function.__name__ = function.__qualname__ = python_name(name, form)
        function.__module__ = namespace["__name__"]
        namespace[function.__name__] = function
