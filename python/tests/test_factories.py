# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The package's operator functions against the extension's list of bound factories: every
factory has its function, under the name the group's module gives it by hand or under the one
the package makes; the functions the package makes apply the C++ factory's arguments and give
the hand-written functions' results on the same problems."""
import numpy as np
import pytest
from conftest import DTYPES, random_array, tolerance

import distlops as dl
from distlops import _distlops as ext
from distlops import _factories


def test_every_bound_factory_has_its_function():
    modules = {group: __import__(f"distlops._{group}", fromlist=["_"])
               for group, *_ in ext.factories}
    for group, name, form, _ in ext.factories:
        module = modules[group]
        wrapping = list({id(value): value for value in vars(module).values()
                         if getattr(value, "_distlops_factory", None) == (form, name)}.values())
        if wrapping:
            assert len(wrapping) == 1, f"{form} {name}: wrapped {len(wrapping)} times"
            function = wrapping[0]
        else:
            function = getattr(module, _factories.python_name(name, form))
        assert getattr(dl, function.__name__) is function


@pytest.mark.parametrize("dtype", DTYPES)
def test_made_local_function_applies_the_factory(dtype):
    # local::Restriction(dims, iava, axis), wrapped by hand as Restriction(dims, iava, axis).
    made = _factories._local("Restriction")
    iava = np.array([4, 0, 2], dtype=np.int64)
    x = random_array((5, 3), dtype, 1)
    op = made([5, 3], iava, 0, dtype=dtype)
    assert op.dtype == np.dtype(dtype)
    expected = dl.Restriction((5, 3), iava, axis=0, dtype=dtype) @ x
    np.testing.assert_allclose(op @ x, expected, rtol=tolerance(dtype))
    np.testing.assert_allclose(op @ x, x[iava], rtol=tolerance(dtype))
    # The dtype follows the arrays and Python numbers among the arguments.
    h = random_array(3, dtype, 2)
    assert _factories._local("Convolve1D")([7], h, 1, -1).dtype == np.dtype(dtype)
    assert _factories._local("Scaling")([4], 2.0).dtype == np.float64
    assert _factories._local("Scaling")([4], 2.0j).dtype == np.complex128


@pytest.mark.parametrize("dtype", DTYPES)
def test_made_distributed_function_applies_the_factory(comm, dtype):
    # FirstDerivative(layout, axis, sampling, kind, edge, order) as
    # MPIFirstDerivative(dims, axis, sampling, kind, edge, order, base_comm=, dtype=).
    made = _factories._distributed("FirstDerivative")
    dims = (7, 4)
    op = made(dims, 1, 0.5, "centered", True, 3, base_comm=comm, dtype=dtype)
    reference = dl.MPIFirstDerivative(dims, sampling=0.5, edge=True, axis=1, base_comm=comm,
                                      dtype=dtype)
    assert op.shape == reference.shape and op.dtype == np.dtype(dtype)
    x = dl.DistributedArray.to_dist(random_array(dims, dtype, 3))
    np.testing.assert_allclose(op.matvec(x).asarray(), reference.matvec(x).asarray(),
                               rtol=tolerance(dtype))
    assert dl.dottest(op)
