#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Builds the documentation site (docs/conf.py) and checks it.

    scripts/docs_site.py --wheel-dir DIR [--venv DIR] [--out DIR]
    scripts/docs_site.py --wheel FILE [--venv DIR] [--out DIR]

1. a virtual environment VENV (default OUT/venv; OUT: build/docs-site) with
   docs/requirements.txt from the package index, and the distlops wheel (python.install's, or
   any `pip wheel .`) installed over it;
2. Doxygen's XML of the public headers (docs/Doxyfile.in read as the `docs` target reads it,
   with XML instead of HTML), for Breathe;
3. tests/docs/check_docstrings.py: every public name of the package has a docstring;
4. sphinx-build -W --keep-going (any warning fails): the MyST pages, the API pages and the
   gallery, whose scripts run now at one rank, into OUT/html;
5. every relative link and anchor of the written HTML resolved against the written files
   (scripts/html_links.py). Sphinx's linkcheck builder is not run: it visits no web site here
   and reports the site's own links as "unchecked" (86 of its 90 entries; the other 4 are web
   addresses), so it checked nothing while it cost 8 s of the 27.

Sphinx writes the sources it generates into docs/ (api/python.rst, api/generated/,
auto_examples/, sg_execution_times.rst; git ignores them). Exit status 0 when all pass, 1 when
one fails, 77 (Skipped) when Doxygen, the package index or the wheel is missing; the reason is
printed."""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "porting"))
from compare_poststack import NETWORK_ERRORS, SKIP  # noqa: E402  pip's words for no network
import html_links  # noqa: E402  (beside this script)

REQUIREMENTS = os.path.join(ROOT, "docs", "requirements.txt")
MARKER = ".distlops-docs-requirements"


def log(message):
    print(f"docs_site: {message}", flush=True)


def skip(reason):
    log(f"SKIPPED: {reason}")
    sys.exit(SKIP)


def run(command, what, **kwargs):
    log(f"{what}: {' '.join(command)}")
    start = time.monotonic()
    done = subprocess.run(command, **kwargs)
    log(f"{what}: {time.monotonic() - start:.1f} s")
    return done


def pip_install(python, arguments, what):
    done = run([python, "-m", "pip", "install", "--disable-pip-version-check", "--no-input",
                "--no-compile", "--retries", "1", "--timeout", "20", *arguments], what,
               capture_output=True, text=True)
    if done.returncode != 0:
        output = done.stdout + done.stderr
        if any(error in output.lower() for error in NETWORK_ERRORS):
            tail = "\n".join(output.strip().splitlines()[-6:])
            skip(f"the Python package index cannot be reached, so the site's tools cannot be "
                 f"installed; pip said:\n{tail}")
        log(f"pip install failed:\n{output}")
        sys.exit(1)


def ensure_venv(venv, wheel):
    """The environment's Python, with the pinned tools and this wheel of distlops."""
    python = os.path.join(venv, "bin", "python")
    with open(REQUIREMENTS) as f:
        wanted = f.read()
    marker = os.path.join(venv, MARKER)
    current = None
    if os.path.exists(marker) and os.path.exists(python):
        with open(marker) as f:
            current = f.read()
    if current != wanted:
        log(f"making the virtual environment {venv}")
        shutil.rmtree(venv, ignore_errors=True)
        if run([sys.executable, "-m", "venv", venv], "venv").returncode != 0:
            sys.exit(1)
        pip_install(python, ["-r", REQUIREMENTS], "the site's tools")
        with open(marker, "w") as f:
            f.write(wanted)
    # The wheel's dependencies are among the pinned tools; the wheel itself changes with every
    # build, so it is always installed again (about a second).
    pip_install(python, ["--force-reinstall", "--no-deps", wheel], "the distlops wheel")
    return python


def the_wheel(args):
    if args.wheel:
        return args.wheel
    wheels = sorted(glob.glob(os.path.join(args.wheel_dir, "distlops-*.whl")),
                    key=os.path.getmtime)
    if not wheels:
        # python.install reports its own failure; skipped, it left no wheel for lack of the index.
        skip(f"no distlops wheel in {args.wheel_dir}: python.install makes it (pip wheel . "
             f"elsewhere)")
    return wheels[-1]


def doxygen_xml(out):
    """Doxygen's XML of include/ into OUT/doxygen/xml; its path."""
    doxygen = shutil.which("doxygen")
    if not doxygen:
        skip("Doxygen is not installed (scripts/setup.sh installs it): the C++ reference of the "
             "site is made from its XML")
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        project = re.search(r'project\(distlops VERSION (\S+) DESCRIPTION "([^"]*)"', f.read())
    target = os.path.join(out, "doxygen")
    shutil.rmtree(target, ignore_errors=True)
    os.makedirs(target)
    values = {"PROJECT_VERSION": project.group(1), "PROJECT_DESCRIPTION": project.group(2),
              "DISTLOPS_DOCS_OUTPUT_DIR": target, "PROJECT_SOURCE_DIR": ROOT,
              "PROJECT_BINARY_DIR": target, "DISTLOPS_DOCS_INPUT": f'"{ROOT}/include"',
              "DISTLOPS_DOCS_WARN_AS_ERROR": "NO"}
    with open(os.path.join(ROOT, "docs", "Doxyfile.in")) as f:
        config = re.sub(r"@(\w+)@", lambda m: values.get(m.group(1), m.group(0)), f.read())
    # The headers only (the pages are the site's own), as XML. Undocumented entities are the
    # `docs` test's concern; here they would only be left out of the reference.
    config += ("\nFILE_PATTERNS = *.hpp *.cuh\nUSE_MDFILE_AS_MAINPAGE =\nFILTER_PATTERNS =\n"
               "GENERATE_HTML = NO\n"
               "GENERATE_XML = YES\nXML_OUTPUT = xml\nXML_PROGRAMLISTING = NO\n"
               "AUTOLINK_SUPPORT = NO\n")
    with open(os.path.join(target, "Doxyfile"), "w") as f:
        f.write(config)
    if run([doxygen, "Doxyfile"], "doxygen", cwd=target).returncode != 0:
        sys.exit(1)
    return os.path.join(target, "xml")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    wheel = parser.add_mutually_exclusive_group(required=True)
    wheel.add_argument("--wheel", help="the distlops wheel to document")
    wheel.add_argument("--wheel-dir", help="a folder holding it (the newest is taken)")
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "docs-site"))
    parser.add_argument("--venv", help="the tools' environment (default OUT/venv)")
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    start, cpu = time.monotonic(), os.times()

    xml = doxygen_xml(out)
    python = ensure_venv(os.path.abspath(args.venv or os.path.join(out, "venv")), the_wheel(args))
    environment = dict(os.environ, DISTLOPS_DOXYGEN_XML=xml, MPLBACKEND="Agg",
                       OMPI_MCA_rmaps_base_oversubscribe="1")
    if run([python, os.path.join(ROOT, "tests", "docs", "check_docstrings.py")], "docstrings",
           env=environment).returncode != 0:
        return 1
    sphinx = [python, "-m", "sphinx", "-W", "--keep-going", "-q", "-d",
              os.path.join(out, "doctrees")]
    docs = os.path.join(ROOT, "docs")
    site = os.path.join(out, "html")
    if run(sphinx + ["-b", "html", docs, site], "sphinx html", env=environment).returncode != 0:
        return 1
    # The theme's templates (_static) are copied as they are; their links are filled in on the
    # pages.
    links_resolve = html_links.report(site, skip=("_static",), prefix="docs_site: ")
    used = os.times()
    seconds = (used.children_user - cpu.children_user + used.children_system
               - cpu.children_system + used.user - cpu.user + used.system - cpu.system)
    log(f"wall {time.monotonic() - start:.0f} s, CPU {seconds:.0f} s; the site: "
        f"{site}/index.html")
    return 0 if links_resolve else 1


if __name__ == "__main__":
    sys.exit(main())
