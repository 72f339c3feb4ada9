# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""
Stacking and derivatives
========================

Distributed derivatives, and operators stacked into one: a smooth 2-d field is recovered from
noisy measurements of its two partial derivatives (a gradient-domain integration, as in
photometric stereo or the integration of slopes). ``MPIGradient`` maps the field to a
``StackedDistributedArray`` of its derivatives; ``MPIStackedVStack`` stacks it with a small
identity weight, which fixes the constant the derivatives cannot see; CGLS solves the least
squares problem. Every operator passes the dot test first.
"""
import matplotlib.pyplot as plt
import numpy as np
from mpi4py import MPI

import distlops as dl

comm = MPI.COMM_WORLD
say = print if comm.rank == 0 else (lambda *args: None)  # every rank computes, rank 0 speaks

# %%
# The field and its exact derivatives, on a grid whose rows are split over the ranks.
ny, nx = 50, 80
y, x = np.mgrid[:ny, :nx] / 10.0
field = np.sin(x) * np.cos(0.7 * y) + 0.3 * y
f_dist = dl.DistributedArray.to_dist(field, base_comm=comm)

# %%
# The operators: the first derivative along each axis (the ranks exchange one row with their
# neighbours for the split axis), the gradient that holds both, and the stack with the identity
# (as a diagonal of ones). Dot tests: <A x, y> = <x, A^H y> for random x and y.
Dy = dl.MPIFirstDerivative((ny, nx), sampling=0.1, axis=0, base_comm=comm)
Dx = dl.MPIFirstDerivative((ny, nx), sampling=0.1, axis=1, base_comm=comm)
grad = dl.MPIGradient((ny, nx), sampling=(0.1, 0.1), base_comm=comm)
weight = 0.05
I = dl.MPIBlockDiag([dl.Diagonal(np.ones(f_dist.local_shape[0] * nx), dims=f_dist.local_shape,
                                 axis=0)], base_comm=comm)
A = dl.MPIStackedVStack([grad, weight * I])
for name, op in (("Dy", Dy), ("Dx", Dx), ("gradient", grad), ("stack", A)):
    say(f"dot test of {name:8s} {op.shape}: {dl.dottest(op)}")

# %%
# The gradient's items are the two derivatives.
g = grad @ f_dist
say("gradient = [Dy f, Dx f]:",
    np.allclose(g[0].asarray(), (Dy @ f_dist).asarray()),
    np.allclose(g[1].asarray(), (Dx @ f_dist).asarray()))

# %%
# Noisy slopes (seeded), and a weak pull towards zero: the data are the stack
# [noisy gradient; 0].
rng = np.random.default_rng(11)
noisy = [dl.DistributedArray.to_dist(item.asarray() + rng.normal(0, 0.2, (ny, nx)),
                                     base_comm=comm) for item in g.distarrays]
data = dl.StackedDistributedArray([dl.StackedDistributedArray(noisy), f_dist.zeros_like()])
estimate, _, iterations, _, _, cost = dl.cgls(A, data, niter=200, tol=1e-10)
misfit = estimate.asarray() - field
misfit -= misfit.mean()  # the constant is the regulariser's choice, not the data's
say(f"CGLS: {iterations} iterations; error without the mean "
    f"{np.linalg.norm(misfit) / np.linalg.norm(field - field.mean()):.3f}")

# %%
# ``asarray`` gathers the global array on every rank (a collective): all ranks call it, rank 0
# draws.
shown = [(field, "field"), (noisy[0].asarray(), "noisy d/dy"),
         (noisy[1].asarray(), "noisy d/dx"), (estimate.asarray(), "integrated (CGLS)")]
if comm.rank == 0:
    fig, axes = plt.subplots(1, 4, figsize=(15, 3))
    for ax, (picture, title) in zip(axes, shown):
        shown = ax.imshow(picture, cmap="RdBu_r", aspect="auto")
        fig.colorbar(shown, ax=ax)
        ax.set_title(title)
    fig.tight_layout()
    plt.show()
