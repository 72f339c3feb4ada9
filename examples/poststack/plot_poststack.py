#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Draws the pictures of the post-stack demo from the arrays poststack_inversion writes.

    /usr/bin/python3 examples/poststack/plot_poststack.py poststack-output

reads OUTPUT/summary.json and the .npy arrays beside it (shape (nx, nz): nx traces of nz time
samples, log-impedance m = ln AI for the models) and writes into OUTPUT (or --images DIR, with
file names prefixed by --prefix):

    model.png       true acoustic impedance            background.png  starting model
    data.png        the inverted (noisy) data          inverted.png    inverted impedance
    traces.png      three traces: true, starting and inverted impedance
    residual.png    data residual d - W D m and impedance error AI - AI_true
    convergence.png CGLS cost (PrimalDual objective with --regularisation tv) and model error
                    per iteration (linear axes)

With --beside OTHER (the output directory of a run with the other regularisation on the same
problem) it also draws comparison.png: the true impedance and both inversions side by side,
with their impedance errors.

Without a true model (a data file alone) only data, inverted, residual (data part) and
convergence (cost) are drawn. Needs NumPy and matplotlib (Debian: python3-matplotlib, for
/usr/bin/python3); exits with status 77 when they are missing, 3 when an input is missing, 4
when the pictures cannot be written (examples/support/exit_statuses.txt, printed by --help).
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
        f"plot_poststack: {error.name} is missing: install python3-matplotlib "
        f"(scripts/setup.sh) and run this script with /usr/bin/python3 (running {sys.executable})",
        file=sys.stderr,
    )
    sys.exit(exit_statuses.UNAVAILABLE)

IMPEDANCE_LABEL = "acoustic impedance (m/s $\\times$ g/cm$^3$)"


def section(ax, values, summary, title, cmap, vmin, vmax, colour_label):
    """An (nx, nz) array as a section: traces across, time down, with a colour bar."""
    nx, nz = values.shape
    dt = summary["dt"]
    image = ax.imshow(
        values.T,
        cmap=cmap,
        vmin=vmin,
        vmax=vmax,
        aspect="auto",
        interpolation="nearest",
        # Pixel edges: trace i spans [i - 1/2, i + 1/2], sample k spans [(k - 1/2) dt, ...].
        extent=(-0.5, nx - 0.5, (nz - 0.5) * dt, -0.5 * dt),
    )
    ax.set_xlabel("trace")
    ax.set_ylabel("time (s)")
    ax.set_title(title)
    colour_bar = ax.figure.colorbar(image, ax=ax)
    colour_bar.set_label(colour_label)
    return image


def single_section(path, values, summary, title, cmap, vmin, vmax, colour_label):
    figure, ax = plt.subplots(figsize=(5.6, 4.4), layout="constrained")
    section(ax, values, summary, title, cmap, vmin, vmax, colour_label)
    figure.savefig(path, dpi=110)
    plt.close(figure)


def symmetric_limit(values):
    """A colour range symmetric about zero that clips the 0.5 % largest magnitudes."""
    limit = float(np.percentile(np.abs(values), 99.5)) if values.size else 1.0
    return limit if limit > 0 else 1.0


def shown_traces(nx):
    """Three traces spread over the section (fewer on narrow sections)."""
    return sorted({min(nx - 1, max(0, round(nx * f))) for f in (0.2, 0.5, 0.8)})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     epilog=exit_statuses.table(),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output", type=pathlib.Path, help="output directory of poststack_inversion")
    parser.add_argument("--images", type=pathlib.Path, help="where to write (default: OUTPUT)")
    parser.add_argument("--prefix", default="", help="prefix of the picture file names")
    parser.add_argument("--beside", type=pathlib.Path,
                        help="output directory of a run with the other regularisation: draws "
                        "comparison.png")
    args = parser.parse_args()
    images = args.images or args.output

    def load(name):
        path = args.output / name
        if not path.is_file():
            print(f"plot_poststack: {path} is missing (run poststack_inversion first)", file=sys.stderr)
            sys.exit(exit_statuses.INPUT)
        return np.load(path)

    summary_path = args.output / "summary.json"
    if not summary_path.is_file():
        print(f"plot_poststack: {summary_path} is missing (run poststack_inversion first)", file=sys.stderr)
        return exit_statuses.INPUT
    # --beside's run before any picture is drawn.
    other_summary_path = args.beside / "summary.json" if args.beside else None
    other_inverted_path = args.beside / "inverted_log_impedance.npy" if args.beside else None
    if args.beside and not (other_summary_path.is_file() and other_inverted_path.is_file()):
        print(f"plot_poststack: {args.beside} holds no run to compare with", file=sys.stderr)
        return exit_statuses.INPUT
    # The pictures' directory once the inputs are there, before any drawing.
    problem = exit_statuses.unwritable_directory(images)
    if problem is not None:
        print(f"plot_poststack: {problem}", file=sys.stderr)
        return exit_statuses.OUTPUT
    summary = json.loads(summary_path.read_text())
    has_model = summary["true_model"]
    dt = summary["dt"]
    tv = summary.get("regularisation", "laplacian") == "tv"
    solver = "PrimalDual" if tv else "CGLS"

    def out(name):
        return images / (args.prefix + name)

    written = []
    data = load("data.npy")
    inverted = np.exp(load("inverted_log_impedance.npy"))
    modelled = load("inverted_data.npy")
    cost = load("cost.npy")

    clip = symmetric_limit(data)
    single_section(out("data.png"), data, summary,
                   f"noisy data ({summary['f0']:g} Hz Ricker)" if summary["modelled_data"] else "data",
                   "seismic", -clip, clip, "amplitude")
    written.append("data.png")

    if has_model:
        true = np.exp(load("true_log_impedance.npy"))
        start = np.exp(load("background_log_impedance.npy"))
        lo, hi = float(true.min()), float(true.max())
    else:
        lo, hi = float(np.percentile(inverted, 0.5)), float(np.percentile(inverted, 99.5))
    inverted_title = "inverted impedance" if has_model else "inverted relative impedance"
    if tv:
        inverted_title += " (TV)"
    single_section(out("inverted.png"), inverted, summary, inverted_title, "viridis", lo, hi,
                   IMPEDANCE_LABEL)
    written.append("inverted.png")

    if has_model:
        single_section(out("model.png"), true, summary, "true impedance", "viridis", lo, hi,
                       IMPEDANCE_LABEL)
        single_section(out("background.png"), start, summary, "starting model (smoothed)",
                       "viridis", lo, hi, IMPEDANCE_LABEL)
        written += ["model.png", "background.png"]

        # Trace comparison: impedance against time, time down as on the sections.
        traces = shown_traces(true.shape[0])
        time = np.arange(true.shape[1]) * dt
        figure, axes = plt.subplots(1, len(traces), figsize=(3.0 * len(traces) + 0.6, 4.8),
                                    sharey=True, layout="constrained", squeeze=False)
        for ax, trace in zip(axes[0], traces):
            ax.plot(true[trace], time, color="black", linewidth=1.6, label="true")
            ax.plot(start[trace], time, color="tab:blue", linestyle="--", linewidth=1.2,
                    label="starting")
            ax.plot(inverted[trace], time, color="tab:red", linewidth=1.0, label="inverted")
            ax.set_title(f"trace {trace}")
            ax.set_xlabel("impedance (m/s $\\times$ g/cm$^3$)")
            ax.grid(alpha=0.3)
        axes[0][0].set_ylabel("time (s)")
        axes[0][0].set_ylim(time[-1] if time.size else 0, 0)
        axes[0][-1].legend(loc="lower right")
        figure.savefig(out("traces.png"), dpi=110)
        plt.close(figure)
        written.append("traces.png")

    # Residuals: what the inverted model leaves of the data, and how far it is from the truth.
    residual = data - modelled
    panels = 2 if has_model else 1
    figure, axes = plt.subplots(1, panels, figsize=(5.6 * panels, 4.4), layout="constrained",
                                squeeze=False)
    section(axes[0][0], residual, summary, "data residual d - W D m", "seismic", -clip, clip,
            "amplitude (colour scale of the data)")
    if has_model:
        error = inverted - true
        limit = symmetric_limit(error)
        section(axes[0][1], error, summary, "impedance error AI - AI$_{true}$", "seismic",
                -limit, limit, IMPEDANCE_LABEL)
    figure.savefig(out("residual.png"), dpi=110)
    plt.close(figure)
    written.append("residual.png")

    # Convergence, on linear axes: the cost, and the error relative to what the inversion must
    # recover (m_true - m_start), 100 % at the starting model.
    figure, axes = plt.subplots(1, panels, figsize=(5.0 * panels, 3.8), layout="constrained",
                                squeeze=False)
    iterations = np.arange(cost.size)
    axes[0][0].plot(iterations, cost, color="tab:blue")
    axes[0][0].set_xlabel(f"{solver} iteration")
    if tv:
        axes[0][0].set_ylabel("objective $\\frac{1}{2}||d - W D m||^2 + w\\, TV(m)$")
        axes[0][0].set_title("objective")
    else:
        axes[0][0].set_ylabel("cost $\\sqrt{||d - W D m||^2 + \\epsilon^2 ||L m||^2}$")
        axes[0][0].set_title("cost")
    axes[0][0].set_ylim(bottom=0)
    axes[0][0].grid(alpha=0.3)
    if has_model:
        update_error = load("update_error.npy")
        axes[0][1].plot(np.arange(update_error.size), 100 * update_error, color="tab:red")
        axes[0][1].set_xlabel(f"{solver} iteration")
        axes[0][1].set_ylabel("$||m - m_{true}|| \\,/\\, ||m_{true} - m_{start}||$ (%)")
        axes[0][1].set_title("model error")
        axes[0][1].set_ylim(bottom=0)
        axes[0][1].grid(alpha=0.3)
    figure.savefig(out("convergence.png"), dpi=110)
    plt.close(figure)
    written.append("convergence.png")

    if args.beside and has_model:
        other_summary = json.loads(other_summary_path.read_text())
        other = np.exp(np.load(other_inverted_path))
        if other.shape != true.shape:
            print(f"plot_poststack: {args.beside} holds a run of another grid", file=sys.stderr)
            return exit_statuses.INPUT

        def label(run_summary):
            if run_summary.get("regularisation", "laplacian") == "tv":
                return f"TV (weight {run_summary['weight']:g}), PrimalDual"
            return f"Laplacian (eps {run_summary['eps']:g}), CGLS"

        panels = [("true impedance", true, None), (label(summary), inverted, summary),
                  (label(other_summary), other, other_summary)]
        if tv:  # least squares first
            panels[1], panels[2] = panels[2], panels[1]
        figure, axes = plt.subplots(1, 3, figsize=(16, 4.4), layout="constrained")
        for ax, (title, values, run_summary) in zip(axes, panels):
            if run_summary is not None:
                error = run_summary["error_impedance"][1]  # null: not a number
                title += "\nimpedance error " + ("not a number" if error is None else f"{error:.2e}")
            section(ax, values, summary, title, "viridis", lo, hi, IMPEDANCE_LABEL)
        figure.savefig(out("comparison.png"), dpi=110)
        plt.close(figure)
        written.append("comparison.png")

    print(f"plot_poststack: wrote {' '.join(args.prefix + name for name in written)} in {images}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
