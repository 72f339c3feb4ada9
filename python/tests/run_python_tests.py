#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The CTest entries of the Python package.

    run_python_tests.py install --venv DIR --project DIR --build-dir DIR --wheel-dir DIR
                                --distlops-dir DIR [--optimization=FLAG] [--define NAME=VALUE]...
    run_python_tests.py pytest --venv DIR --source DIR -- COMMAND...
    run_python_tests.py wheel-venv --venv DIR --wheel-dir DIR --source DIR -- COMMAND...
    run_python_tests.py sdist --venv DIR --project DIR --work DIR

install: makes (or reuses) the virtual environment of the PyLops-MPI comparison
(tests/porting/compare_poststack.py, which pins NumPy, PyLops-MPI, mpi4py, nanobind,
scikit-build-core and pytest), builds the wheel of `pip install .` from the checkout PROJECT
into WHEEL_DIR and installs it there. The wheel takes the library of the build tree in
DISTLOPS_DIR instead of compiling it again (its python/ project, DISTLOPS_PYTHON_BUNDLE_LIBRARY:
the same wheel layout, the library beside the extension), and only the extension is compiled
(scikit-build-core, no build isolation: the pinned nanobind and scikit-build-core of the
environment are used, and the build directory is kept so that later runs recompile only what
changed). With --optimization=FLAG (the test programs' DISTLOPS_TEST_OPTIMIZATION) the extension
is compiled with that flag alone instead of the package's Release flags (-Os for nanobind's
bindings). It then writes a stamp next to the environment. Exit status 77 (Skipped) when the
package index cannot be reached.

pytest: runs the package's tests with COMMAND, the line that starts the environment's Python
under mpiexec (mpiexec -n N ... VENV/bin/python POSTFLAGS..., from distlops_mpi_command), followed
by `-m pytest ...`; 77 when the install step did not complete (the index was unreachable), with
the reason.

wheel-venv: what a user of the wheel gets: a fresh virtual environment VENV (made again on
every run), the wheel of WHEEL_DIR installed in it with pip with its declared dependencies
(NumPy, mpi4py) and its test extra (pytest, PyLops) from the index, then the package's tests run
from it with COMMAND (as pytest); the package must come from the environment, with its LICENSE.
77 when the index cannot be reached or install made no wheel.

sdist: the source distributions of `pip install .` (PROJECT) and of `pip install ./python`,
made by scikit-build-core into WORK: each holds LICENSE, the first also what the library and the
extension need to build (CMakeLists.txt, cmake/, include/, src/, operators/, solvers/,
python/src), which a CMake configuration of the unpacked copy proves, and not the C++ tests.
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "porting"))
from compare_poststack import NETWORK_ERRORS, REQUIREMENTS, SKIP, ensure_venv  # noqa: E402

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
    shutil.rmtree(args.wheel_dir, ignore_errors=True)
    command = [python, "-m", "pip", "wheel", "--disable-pip-version-check", "--no-input",
               "--no-build-isolation", "--no-deps", "--wheel-dir", args.wheel_dir,
               f"--config-settings=build-dir={args.build_dir}",
               "--config-settings=cmake.source-dir=python",
               f"--config-settings=cmake.define.distlops_DIR={args.distlops_dir}",
               "--config-settings=cmake.define.DISTLOPS_PYTHON_BUNDLE_LIBRARY=ON"]
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
    command.append(args.project)
    log(" ".join(command))
    if subprocess.run(command, env=env).returncode != 0:
        log("pip wheel of the Python package failed")
        return 1
    wheel = the_wheel(args.wheel_dir)
    command = [python, "-m", "pip", "install", "--disable-pip-version-check", "--no-input",
               "--no-deps", "--force-reinstall", wheel]
    log(" ".join(command))
    if subprocess.run(command).returncode != 0:
        log("pip install of the wheel failed")
        return 1
    with open(stamp, "w") as f:
        f.write("installed\n")
    return 0


def the_wheel(wheel_dir):
    wheels = glob.glob(os.path.join(wheel_dir, "distlops-*.whl"))
    if len(wheels) != 1:
        raise SystemExit(f"run_python_tests: expected one wheel in {wheel_dir}, found {wheels}")
    return wheels[0]


def run_tests(launcher, python, source):
    """The package's tests under `launcher`, which must start `python`, from their directory so
    that the checkout's python/distlops (without the extension) does not shadow the installed
    package."""
    tests = os.path.join(source, "tests")
    if os.path.abspath(python) not in [os.path.abspath(a) for a in launcher]:
        log(f"the command after -- must start {python}, got {' '.join(launcher)}")
        return 1
    # -rs: the reason of every skipped test in the summary (a device test without a device).
    command = [*launcher, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "--color=no",
               tests]
    log(" ".join(command))
    return subprocess.run(command, cwd=tests).returncode


def wheel_venv(args):
    wheels = glob.glob(os.path.join(args.wheel_dir, "distlops-*.whl"))
    if not wheels:
        log("SKIPPED: no wheel to install (python.install was skipped because the Python package "
            "index cannot be reached, or it failed)")
        return SKIP
    shutil.rmtree(args.venv, ignore_errors=True)
    if subprocess.run([sys.executable, "-m", "venv", args.venv]).returncode != 0:
        log("python -m venv failed")
        return 1
    python = os.path.join(args.venv, "bin", "python")
    # The wheel's own dependencies (NumPy, mpi4py) and its test extra (pytest, serial PyLops)
    # from the index, at the versions of the comparison environment, which pip has cached.
    constraints = os.path.join(args.venv, "constraints.txt")
    with open(constraints, "w") as f:
        f.write("\n".join(REQUIREMENTS) + "\n")
    command = [python, "-m", "pip", "install", "--disable-pip-version-check", "--no-input",
               "--no-compile", "--retries", "1", "--timeout", "20", "--constraint", constraints,
               the_wheel(args.wheel_dir) + "[test]"]
    log(" ".join(command))
    pip = subprocess.run(command, capture_output=True, text=True)
    print(pip.stdout + pip.stderr, flush=True)
    if pip.returncode != 0:
        if any(error in (pip.stdout + pip.stderr).lower() for error in NETWORK_ERRORS):
            log("SKIPPED: the Python package index cannot be reached, so the wheel's "
                "dependencies cannot be installed")
            return SKIP
        return 1
    where = subprocess.run(
        [python, "-c", "import importlib.metadata as m, distlops; print(distlops.__file__); "
         "print(any(f.name == 'LICENSE' for f in m.files('distlops')))"],
        capture_output=True, text=True, cwd=args.venv)
    lines = where.stdout.split()
    if where.returncode != 0 or len(lines) != 2 or \
            not os.path.abspath(lines[0]).startswith(os.path.abspath(args.venv)) or \
            lines[1] != "True":
        log(f"the installed package is not the wheel's, or has no LICENSE: {where.stdout}"
            f"{where.stderr}")
        return 1
    log(f"distlops imported from {lines[0]}, with its LICENSE")
    return run_tests(args.launcher, python, args.source)


# Python 3.12 warns about extractall without a filter; 3.11.4 and later know "data".
extract_filter = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}


def installed_python(venv, what):
    """The comparison environment's Python, or None after saying why when python.install did
    not complete."""
    if not os.path.exists(os.path.join(venv, STAMP)):
        log(f"SKIPPED: {what} is not installed (python.install was skipped because the Python "
            "package index cannot be reached, or it failed)")
        return None
    return os.path.join(venv, "bin", "python")


def sdist(args):
    python = installed_python(args.venv, "scikit-build-core")
    if python is None:
        return SKIP
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    needed = {args.project: ["LICENSE", "pyproject.toml", "CMakeLists.txt", "cmake/", "include/",
                             "src/", "operators/", "solvers/", "python/src/", "python/distlops/",
                             "python/CMakeLists.txt"],
              os.path.join(args.project, "python"): ["LICENSE", "pyproject.toml", "src/",
                                                     "distlops/", "CMakeLists.txt"]}
    unpacked = None
    for project, members in needed.items():
        made = subprocess.run(
            [python, "-c", "import sys, scikit_build_core.build as b; "
             "print(b.build_sdist(sys.argv[1]))", args.work],
            cwd=project, capture_output=True, text=True)
        if made.returncode != 0:
            log(f"build_sdist in {project} failed:\n{made.stdout}{made.stderr}")
            return 1
        path = os.path.join(args.work, made.stdout.split()[-1])
        with tarfile.open(path) as archive:
            names = archive.getnames()
            top = names[0].split("/")[0]
            files = [name[len(top) + 1:] for name in names]
            missing = [m for m in members if not any(f == m or f.startswith(m) for f in files)]
            # The C++ tests stay out of the root's (the Python tests are in both).
            tests = [f for f in files if project == args.project and f.startswith("tests/")]
            if missing or tests:
                log(f"{path}: missing {missing}, tests {tests[:5]}")
                return 1
            log(f"{path}: {len(files)} entries with {', '.join(members)}")
            if project == args.project:
                archive.extractall(args.work, **extract_filter)
                unpacked = os.path.join(args.work, top)
        # Both are distlops-<version>.tar.gz: the next one must not find this one there.
        os.rename(path, path + ".checked")
    # The library's configuration from the unpacked copy, as pip install of the sdist runs it.
    configure = subprocess.run(
        ["cmake", "-S", unpacked, "-B", os.path.join(args.work, "configure"),
         "-DDISTLOPS_ENABLE_TESTS=OFF", "-DDISTLOPS_ENABLE_EXAMPLES=OFF",
         "-DDISTLOPS_ENABLE_BENCHMARKS=OFF", "-DDISTLOPS_ENABLE_DOCS=OFF",
         "-DDISTLOPS_ENABLE_CUDA=OFF", "-DSKBUILD=ON", f"-DPython_EXECUTABLE={python}"],
        capture_output=True, text=True)
    if configure.returncode != 0:
        log(f"the unpacked source distribution does not configure:\n{configure.stdout}"
            f"{configure.stderr}")
        return 1
    log("the unpacked source distribution configures")
    shutil.rmtree(args.work, ignore_errors=True)
    return 0


def pytest(args):
    python = installed_python(args.venv, "the Python package")
    if python is None:
        return SKIP
    return run_tests(args.launcher, python, args.source)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["install", "pytest", "wheel-venv", "sdist"])
    parser.add_argument("--venv", required=True)
    parser.add_argument("--source", help="the python/ directory of the checkout")
    parser.add_argument("--project", help="the checkout")
    parser.add_argument("--wheel-dir")
    parser.add_argument("--work")
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
    modes = {"install": install, "pytest": pytest, "wheel-venv": wheel_venv, "sdist": sdist}
    return modes[args.mode](args)


if __name__ == "__main__":
    sys.exit(main())
