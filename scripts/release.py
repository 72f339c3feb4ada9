#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The version of distlops in every place that states it, and the preparation of a release
(docs/releasing.md).

    python3 scripts/release.py check              # every place agrees with CMakeLists.txt
    python3 scripts/release.py prepare 0.2.0      # bump them, date the CHANGELOG's section
    python3 scripts/release.py selftest           # prepare the next minor release in a copy

The version lives in the CMake project (CMakeLists.txt), from which the library's soname
(libdistlops.so.<major>.<minor> before 1.0, libdistlops.so.<major> from 1.0), config.hpp's
macros, version() and the CMake package's version follow; the other places below repeat it and
`check` (the ctest entry release.versions) proves that they agree, and that python/LICENSE is
LICENSE. `prepare` edits the files
only: committing, tagging and building the artefacts are the release procedure's later steps.
"""
import argparse
import datetime
import pathlib
import re
import shutil
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHANGELOG = "CHANGELOG.md"
PROJECT = ("CMakeLists.txt", r"project\(distlops VERSION (\d+\.\d+\.\d+)")
VERSION = r"(\d+\.\d+\.\d+)"
COMPATIBLE = r"(\d+\.\d+)"

# (file, pattern whose group is the version, which form: "full" x.y.z or "minor" x.y).
SITES = [
    PROJECT + ("full",),
    ("pyproject.toml", r'(?m)^version = "' + VERSION + '"', "full"),
    ("python/pyproject.toml", r'(?m)^version = "' + VERSION + '"', "full"),
    ("python/CMakeLists.txt", r"find_package\(distlops " + COMPATIBLE + r" QUIET", "minor"),
    ("examples/install/CMakeLists.txt", r"find_package\(distlops " + COMPATIBLE + r" REQUIRED",
     "minor"),
    ("tests/consumer/CMakeLists.txt", r"find_package\(distlops " + COMPATIBLE + r" REQUIRED",
     "minor"),
    ("tests/scaffold/CMakeLists.txt", r"find_package\(distlops " + COMPATIBLE + r" REQUIRED",
     "minor"),
    ("README.md", r"find_package\(distlops " + COMPATIBLE + r" REQUIRED", "minor"),
    ("README.md", r"a shared `libdistlops\.so\.(\d+(?:\.\d+)?)`", "soname"),
]


def parse(version):
    match = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)", version)
    if not match:
        sys.exit(f"release.py: {version!r} is not a version major.minor.patch")
    return tuple(int(part) for part in match.groups())


def form(version, kind):
    major, minor, patch = parse(version)
    if kind == "full":
        return f"{major}.{minor}.{patch}"
    if kind == "minor":
        return f"{major}.{minor}"
    # The soname: the ABI may change with a minor release before 1.0, with a major one after.
    return f"{major}.{minor}" if major == 0 else f"{major}"


def project_version(root):
    text = (root / PROJECT[0]).read_text()
    match = re.search(PROJECT[1], text)
    if not match:
        sys.exit(f"release.py: no project version in {root / PROJECT[0]}")
    return match.group(1)


def released_sections(root):
    """The CHANGELOG's released versions, newest first, and whether [Unreleased] is there."""
    text = (root / CHANGELOG).read_text()
    versions = re.findall(r"(?m)^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", text)
    return versions, "\n## [Unreleased]\n" in text


def check(root):
    """Every place states the project version; the CHANGELOG's newest release is it."""
    version = project_version(root)
    problems = []
    for path, pattern, kind in SITES:
        file = root / path
        if not file.exists():
            continue
        found = re.findall(pattern, file.read_text())
        if not found:
            problems.append(f"{path}: no version found (pattern {pattern})")
        for value in found:
            if value != form(version, kind):
                problems.append(f"{path}: {value}, expected {form(version, kind)} ({kind} of "
                                f"{version}, CMakeLists.txt)")
    # pip install ./python's artefacts carry a copy of the licence (a source distribution of
    # python/ holds nothing outside it).
    if (root / "python/LICENSE").exists() and \
            (root / "python/LICENSE").read_bytes() != (root / "LICENSE").read_bytes():
        problems.append("python/LICENSE differs from LICENSE")
    versions, unreleased = released_sections(root)
    if not unreleased:
        problems.append(f"{CHANGELOG}: no '## [Unreleased]' section")
    if not versions or versions[0] != version:
        problems.append(f"{CHANGELOG}: newest release {versions[0] if versions else 'none'}, "
                        f"expected {version}")
    for problem in problems:
        print(f"release.py: {problem}", file=sys.stderr)
    if not problems:
        print(f"release.py: version {version} (soname libdistlops.so.{form(version, 'soname')}) "
              "everywhere")
    return not problems


def prepare(root, version, date):
    """Bumps every place to `version` and turns [Unreleased] into its dated section."""
    current = project_version(root)
    if parse(version) <= parse(current):
        sys.exit(f"release.py: {version} is not newer than {current}")
    changelog = root / CHANGELOG
    text = changelog.read_text()
    match = re.search(r"(?ms)^## \[Unreleased\]\n(.*?)(?=^## \[)", text)
    if not match or not match.group(1).strip():
        sys.exit(f"release.py: {CHANGELOG} has no [Unreleased] changes to release")
    text = text.replace("## [Unreleased]\n", f"## [Unreleased]\n\n## [{version}] - {date}\n", 1)
    changelog.write_text(text)
    for path, pattern, kind in SITES:
        file = root / path
        if not file.exists():
            continue
        new = form(version, kind)
        content = file.read_text()

        def bump(found):
            whole, offset = found.group(0), found.start(0)
            return whole[:found.start(1) - offset] + new + whole[found.end(1) - offset:]

        file.write_text(re.sub(pattern, bump, content))
    print(f"release.py: prepared {version} from {current}: CHANGELOG section dated {date}, "
          f"soname libdistlops.so.{form(version, 'soname')} (was "
          f"libdistlops.so.{form(current, 'soname')}); review with git diff, then follow "
          "docs/releasing.md")
    return check(root)


def selftest():
    """Prepares the next minor release in a copy of the files and checks the result."""
    with tempfile.TemporaryDirectory() as scratch:
        copy = pathlib.Path(scratch)
        for path in {site[0] for site in SITES} | {CHANGELOG, "LICENSE", "python/LICENSE"}:
            if (ROOT / path).exists():
                (copy / path).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(ROOT / path, copy / path)
        major, minor, _ = parse(project_version(copy))
        following = f"{major}.{minor + 1}.0"
        changelog = copy / CHANGELOG
        if re.search(r"(?s)## \[Unreleased\]\s*\n## \[", changelog.read_text()):
            # A release commit: nothing is unreleased yet. The preparation must refuse it; then
            # one change is added so that the rest of the procedure can be tried.
            try:
                prepare(copy, following, "2000-01-01")
                print("release.py: an empty [Unreleased] section was not refused", file=sys.stderr)
                return False
            except SystemExit:
                pass
            changelog.write_text(changelog.read_text().replace(
                "## [Unreleased]\n", "## [Unreleased]\n\n### Fixed\n- A change to release.\n", 1))
        if not prepare(copy, following, "2000-01-01"):
            return False
        versions, unreleased = released_sections(copy)
        text = (copy / CHANGELOG).read_text()
        empty = re.search(r"(?s)## \[Unreleased\]\n\n## \[" + re.escape(following), text)
        if versions[0] != following or not unreleased or not empty:
            print("release.py: the CHANGELOG was not prepared as expected", file=sys.stderr)
            return False
        print(f"release.py: selftest prepared {following} in a copy")
        return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("check", help="every place agrees with CMakeLists.txt")
    preparing = commands.add_parser("prepare", help="bump the version, date the CHANGELOG")
    preparing.add_argument("version", help="major.minor.patch")
    preparing.add_argument("--date", default=datetime.date.today().isoformat(),
                           help="the release date (default: today)")
    commands.add_parser("selftest", help="prepare the next minor release in a copy")
    arguments = parser.parse_args()
    if arguments.command == "check":
        ok = check(ROOT)
    elif arguments.command == "prepare":
        ok = prepare(ROOT, arguments.version, arguments.date)
    else:
        ok = selftest()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
