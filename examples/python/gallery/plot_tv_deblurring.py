# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
r"""
Total-variation deblurring
==========================

A piecewise-constant image, blurred by a Gaussian kernel and made noisy, recovered with
the isotropic total variation as regulariser,

.. math::

   \min_x \tfrac{1}{2} \|H x - b\|_2^2 + w \, \|\nabla x\|_{2,1},

by the primal-dual algorithm (``PrimalDual``: f = ``L2(Op=H, b=b)``, g = ``L21``, K =
``MPIGradient``), and, for comparison, with a quadratic regulariser (CGLS on [H; eps L], L the
Laplacian). The image's rows are split over the ranks; the blur and the derivatives exchange
the rows they need with the neighbouring ranks. The C++ program examples/tv_deblurring.cpp is
the same problem at a larger size.
"""
import matplotlib.pyplot as plt
import numpy as np
from mpi4py import MPI

import distlops as dl

comm = MPI.COMM_WORLD
say = print if comm.rank == 0 else (lambda *args: None)  # every rank computes, rank 0 speaks

# %%
# The image (a rectangle, a disc and a thin bar), a 7 x 7 Gaussian blur of standard deviation
# 1.2 pixels and seeded noise.
n = 64
rows, cols = np.mgrid[:n, :n]
image = np.zeros((n, n))
image[10:30, 8:34] = 1.0
image[(rows - 42) ** 2 + (cols - 40) ** 2 < 13 ** 2] = 0.6
image[np.abs(rows - cols + 10) < 2] = 0.3
taps = np.arange(-3, 4)
kernel = np.exp(-(taps[:, None] ** 2 + taps[None, :] ** 2) / (2 * 1.2 ** 2))
kernel /= kernel.sum()

H = dl.MPIConvolve2D((n, n), kernel, offset=(3, 3), base_comm=comm)
x_true = dl.DistributedArray.to_dist(image, base_comm=comm)
noise = np.random.default_rng(7).normal(0.0, 0.02, (n, n))
b = H @ x_true + dl.DistributedArray.to_dist(noise, base_comm=comm)


def error(x):
    return np.linalg.norm(x.asarray() - image) / np.linalg.norm(image)


say(f"blurred and noisy data: relative error {error(b):.3f}")

# %%
# Total variation: 150 primal-dual iterations from zero; the steps default to 0.95 / ||K||.
grad = dl.MPIGradient((n, n), kind="forward", base_comm=comm)
x_tv = dl.PrimalDual(dl.L2(Op=H, b=b), dl.L21(ndim=2, sigma=0.01), grad, x0=b.zeros_like(),
                     niter=150)
say(f"TV (PrimalDual):        relative error {error(x_tv):.3f}")

# %%
# Tikhonov: 60 CGLS iterations on the stacked operator [H; eps L].
eps = 0.1
L = dl.MPILaplacian((n, n), axes=(0, 1), base_comm=comm)
x_tik = dl.cgls(dl.MPIStackedVStack([H, eps * L]), dl.StackedDistributedArray(
    [b, b.zeros_like()]), x0=b.zeros_like(), niter=60, tol=0.0)[0]
say(f"Tikhonov (CGLS):        relative error {error(x_tik):.3f}")

# %%
# The edges survive the total variation; the quadratic regulariser rings around them.
# ``asarray`` gathers the global array on every rank (a collective): all ranks call it, rank 0
# draws.
shown = [(image, "true image"), (b.asarray(), f"data ({error(b):.3f})"),
         (x_tik.asarray(), f"Tikhonov ({error(x_tik):.3f})"),
         (x_tv.asarray(), f"TV ({error(x_tv):.3f})")]
if comm.rank == 0:
    fig, axes = plt.subplots(1, 5, figsize=(15, 3.2))
    for ax, (picture, title) in zip(axes, shown):
        ax.imshow(picture, cmap="gray", vmin=-0.1, vmax=1.1)
        ax.set_title(title)
        ax.axis("off")
    for picture, label, style in ((image, "true", "k"), (shown[2][0], "Tikhonov", "b--"),
                                  (shown[3][0], "TV", "r")):
        axes[4].plot(picture[20], style, label=label)
    axes[4].set_title("row 20")
    axes[4].legend(fontsize=8)
    fig.tight_layout()
    plt.show()
