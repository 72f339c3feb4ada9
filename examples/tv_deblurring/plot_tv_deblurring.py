#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Draws the picture of the TV deblurring example from the arrays tv_deblurring writes.

    /usr/bin/python3 examples/tv_deblurring/plot_tv_deblurring.py tv-deblurring-output

reads OUTPUT/summary.json and true.npy, blurred.npy, tikhonov.npy, tv.npy beside it (images of
shape (nx, ny)) and writes OUTPUT/deblurring.png (or --images DIR): the true image, the blurred
and noisy data, the Tikhonov and the TV results with their relative errors, and one row of
each. Needs NumPy and matplotlib (Debian: python3-matplotlib, for /usr/bin/python3); exits
with status 77 when they are missing, 3 when an input is missing, 4 when the picture
cannot be written (examples/support/exit_statuses.txt, printed by --help).
"""
import argparse
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "support"))
import exit_statuses  # noqa: E402  the examples' table of exit statuses (standard library only)

try:
    import numpy as np
    import matplotlib

    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt
except ImportError as error:
    print(
        f"plot_tv_deblurring: {error.name} is missing: install python3-matplotlib "
        f"(scripts/setup.sh) and run this script with /usr/bin/python3 (running {sys.executable})",
        file=sys.stderr,
    )
    sys.exit(exit_statuses.UNAVAILABLE)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     epilog=exit_statuses.table(),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output", type=pathlib.Path, help="output directory of tv_deblurring")
    parser.add_argument("--images", type=pathlib.Path, help="where to write (default: OUTPUT)")
    args = parser.parse_args()
    images = args.images or args.output

    def load(name):
        path = args.output / name
        if not path.is_file():
            print(f"plot_tv_deblurring: {path} is missing (run tv_deblurring first)", file=sys.stderr)
            sys.exit(exit_statuses.INPUT)
        return path

    summary_path = load("summary.json")
    # The pictures' directory once the inputs are there, before any drawing.
    problem = exit_statuses.unwritable_directory(images)
    if problem is not None:
        print(f"plot_tv_deblurring: {problem}", file=sys.stderr)
        return exit_statuses.OUTPUT
    summary = json.loads(summary_path.read_text())

    def error(key):
        # summary.json holds null for a figure that is not a number (a diverged solve).
        value = summary[key]
        return "not a number" if value is None else f"{value:.3f}"

    true = np.load(load("true.npy"))
    panels = [
        ("true image", true),
        (f"blurred and noisy (error {error('error_blurred')})", np.load(load("blurred.npy"))),
        (f"Tikhonov, CGLS (error {error('error_tikhonov')})", np.load(load("tikhonov.npy"))),
        (f"TV, PrimalDual (error {error('error_tv')})", np.load(load("tv.npy"))),
    ]
    lo, hi = float(true.min()), float(true.max())
    figure, axes = plt.subplots(1, 5, figsize=(21, 4.4), layout="constrained",
                                gridspec_kw={"width_ratios": [1, 1, 1, 1, 1.3]})
    for ax, (title, image) in zip(axes, panels):
        ax.imshow(image, cmap="gray", vmin=lo, vmax=hi, interpolation="nearest")
        ax.set_title(title)
        ax.set_axis_off()
    # One row through the disc and the rectangle: TV keeps the steps, Tikhonov rounds them.
    row = int(0.3 * true.shape[0])
    for (title, image), style in zip(panels, ("k-", "c:", "b--", "r-")):
        axes[4].plot(image[row], style, linewidth=1.2, label=title.split(" (")[0])
    axes[4].set_title(f"row {row}")
    axes[4].set_xlabel("column")
    axes[4].grid(alpha=0.3)
    axes[4].legend(loc="upper right", fontsize="small")
    figure.suptitle(
        f"{summary['nx']} x {summary['ny']} image on {summary['ranks']} rank(s): Gaussian blur "
        f"{summary['blur']:g} px, noise {summary['noise']:g}")
    figure.savefig(images / "deblurring.png", dpi=90)
    plt.close(figure)
    print(f"plot_tv_deblurring: wrote deblurring.png into {images}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
