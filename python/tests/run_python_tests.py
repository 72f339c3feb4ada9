#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The CTest entries of the Python package.

    run_python_tests.py install --venv DIR --source DIR --build-dir DIR --distlops-dir DIR
                                [--optimization=FLAG] [--define NAME=VALUE]...
    run_python_tests.py pytest --venv DIR --source DIR -- COMMAND...

install: makes (or reuses) the virtual environment of the PyLops-MPI comparison
(tests/porting/compare_poststack.py, which pins NumPy, PyLops-MPI, mpi4py, nanobind,
scikit-build-core and pytest) and installs the package in it with pip from the checkout,
building the extension against the build tree in DISTLOPS_DIR (scikit-build-core, no build
isolation: the pinned nanobind and scikit-build-core of the environment are used, and the build
directory is kept so that later runs recompile only what changed). With --optimization=FLAG
(the test programs' DISTLOPS_TEST_OPTIMIZATION) the extension is compiled with that flag alone
instead of the package's Release flags (-Os for nanobind's bindings). It then writes a stamp next
to the environment. Exit status 77 (Skipped) when the package index cannot be reached.

pytest: runs the package's tests with COMMAND, the line that starts the environment's Python
under mpiexec (mpiexec -n N ... VENV/bin/python POSTFLAGS..., from distlops_mpi_command), followed
by `-m pytest ...`; 77 when the install step did not complete (the index was unreachable), with
the reason.
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "porting"))
from compare_poststack import SKIP, ensure_venv  # noqa: E402

STAMP = ".distlops-python-installed"


def log(message):
    print(f"run_python_tests: {message}", flush=True)


def install(args):
    python = ensure_venv(args.venv)  # exits with SKIP when the index is unreachable
    stamp = os.path.join(args.venv, STAMP)
    if os.path.exists(stamp):
        os.remove(stamp)
    env = dict(os.environ, CMAKE_BUILD_PARALLEL_LEVEL=os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL",
                                                                     "2"))
    command = [python, "-m", "pip", "install", "--disable-pip-version-check", "--no-input",
               "--no-build-isolation", "--no-deps", "--force-reinstall",
               f"--config-settings=build-dir={args.build_dir}",
               f"--config-settings=cmake.define.distlops_DIR={args.distlops_dir}"]
    if args.optimization:
        # The tests' extension, like the C++ test programs: the binding units and
        # nanobind's library take about 113 s of one core at the package's flags (-Os) and 87 s
        # at -O0, and the tests run as fast (pytest at 1 rank: 8.1 s and 8.3 s), spending their
        # time in NumPy and the library, which keeps its -O3. Debug is the build type whose
        # flags get no -Os from nanobind; the flag replaces its -g.
        command += ["--config-settings=cmake.build-type=Debug",
                    f"--config-settings=cmake.define.CMAKE_CXX_FLAGS_DEBUG={args.optimization}"]
    for define in args.define:
        command.append(f"--config-settings=cmake.define.{define}")
    command.append(args.source)
    log(" ".join(command))
    if subprocess.run(command, env=env).returncode != 0:
        log("pip install of the Python package failed")
        return 1
    with open(stamp, "w") as f:
        f.write("installed\n")
    return 0


def pytest(args):
    python = os.path.join(args.venv, "bin", "python")
    if not os.path.exists(os.path.join(args.venv, STAMP)):
        log("SKIPPED: the Python package is not installed (python.install was skipped because "
            "the Python package index cannot be reached, or it failed)")
        return SKIP
    tests = os.path.join(args.source, "tests")
    # Run from the tests' directory so that the checkout's python/distlops (without the
    # extension) does not shadow the installed package.
    if os.path.abspath(python) not in [os.path.abspath(a) for a in args.launcher]:
        log(f"the command after -- must start {python}, got {' '.join(args.launcher)}")
        return 1
    command = [*args.launcher, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--color=no",
               tests]
    log(" ".join(command))
    return subprocess.run(command, cwd=tests).returncode


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["install", "pytest"])
    parser.add_argument("--venv", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--build-dir")
    parser.add_argument("--distlops-dir")
    parser.add_argument("--optimization", default="",
                        help="compile the extension with this flag alone (e.g. -O0)")
    parser.add_argument("--define", action="append", default=[],
                        help="NAME=VALUE, a CMake definition for the extension's build")
    argv = sys.argv[1:]
    launcher = argv[argv.index("--") + 1:] if "--" in argv else []
    args = parser.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    args.launcher = launcher
    return install(args) if args.mode == "install" else pytest(args)


if __name__ == "__main__":
    sys.exit(main())
