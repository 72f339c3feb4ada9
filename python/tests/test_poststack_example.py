# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""examples/python/poststack_inversion.py against PyLops-MPI's original
(examples/porting/poststack_pylops_mpi.py) on the same small problem, and its figure."""
import os
import sys

import numpy as np
import pytest

pytest.importorskip("pylops_mpi")
EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples")
sys.path.insert(0, os.path.join(EXAMPLES, "python"))
sys.path.insert(0, os.path.join(EXAMPLES, "porting"))
import poststack_inversion  # noqa: E402
import poststack_pylops_mpi  # noqa: E402


def test_translation_matches_pylops_mpi_and_draws(comm, tmp_path, monkeypatch):
    # ny = 8: PyLops-MPI's Laplacian needs two planes on every rank (its ghost cells), at 4 ranks.
    directory = comm.bcast(str(tmp_path) if comm.rank == 0 else None, root=0)
    monkeypatch.setattr(sys, "argv", ["poststack_pylops_mpi.py", directory, "--ny", "8", "--nx",
                                      "6", "--nz", "60", "--niter", "10"])
    poststack_pylops_mpi.main()  # rank 0 writes its results
    ours = poststack_inversion.invert(ny=8, nx=6, nz=60, niter=10)
    comm.barrier()
    # The same formulas in the same order: rounding differences only (tests/porting explains
    # the tolerances).
    for name, tolerance in [("data", 1e-12), ("x_cgls", 1e-8), ("x_cg", 1e-8), ("x_reg", 1e-8),
                            ("cost_cgls", 1e-8), ("cost_cg", 1e-8), ("cost_reg", 1e-8)]:
        reference = np.load(os.path.join(directory, name + ".npy"))
        np.testing.assert_allclose(np.ravel(ours[name]), np.ravel(reference), rtol=tolerance,
                                   atol=tolerance * np.abs(reference).max())
    if comm.rank == 0:
        pytest.importorskip("matplotlib")
        figure = os.path.join(directory, "poststack.png")
        poststack_inversion.plot(ours, figure)
        assert os.path.getsize(figure) > 10000
