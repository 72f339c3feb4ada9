#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The links of Doxygen's HTML reference (the `docs` target, cmake/DistlopsDocs.cmake).

    scripts/doxygen_pages.py filter PAGE.md             (Doxygen's FILTER_PATTERNS for *.md)
    scripts/doxygen_pages.py build DOXYGEN DOXYFILE     (the `docs` target)
    scripts/doxygen_pages.py --selftest                 (filter, finish and link check on samples)

filter: the Markdown page on standard output, with its links to the repository's files as the
reference needs them. The pages link to files as GitHub shows them, relative to the page's
folder; Doxygen writes every page into the html folder itself, whatever its folder, and keeps a
link to anything but a Markdown page (which becomes a link to that page) as it is. A link to a
file of examples/ leads to the reference's copy of examples/ (html/examples, made by finish); a
link to a folder or another file (the reference holds no copy of the tree) keeps its text only,
as on the documentation site (docs/conf.py); a link to README.md or to the site's front page
(docs/index.md, which shows it) leads to the main page. Links to other pages, to images, to web
sites and to paths that do not exist are left as they are: Doxygen and the link check report
the last ones.

build: the html folder beside DOXYFILE made again by DOXYGEN, then finished, even when Doxygen
reported warnings (which fail the build), so that one run lists every warning and every broken
link. Exit status 1 when either failed.

finish: examples/ copied into the html folder; the "Classes" link dropped from the summary of a
class page that has no list of classes (Doxygen 1.9 writes it for a class whose nested classes
are all private, and leaves them out of the page); then every relative link and anchor of the
pages checked (scripts/html_links.py): each broken one is printed and the exit status is 1."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import html_links

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")
# [label](target#anchor), not an image; no scheme, no mailto, not an anchor of the same page.
LINK = re.compile(r"(?<!!)\[([^\]]*)\]\((?![a-z]+:|#)([^)#\s]+)(#[^)\s]*)?\)")
# The main page (README.md); the site's front page (docs/index.md) shows it, and is not one of
# Doxygen's pages.
MAIN_PAGE = (os.path.join(ROOT, "README.md"), os.path.join(ROOT, "docs", "index.md"))
FENCE = re.compile(r"^\s*(```|~~~)")
NESTED_CLASSES_LINK = re.compile(r'<a href="#nested-classes">[^<]*</a>(?: &#124;)?\n?')


def reference_links(text, folder):
    """The Markdown `text` of a page in `folder`, its links to repository files rewritten."""

    def reference_link(match):
        label, target, anchor = match.group(1), match.group(2), match.group(3) or ""
        path = os.path.normpath(os.path.join(folder, target))
        if path in MAIN_PAGE:
            return f"[{label}](@ref index)"
        if not os.path.exists(path) or path.endswith(".md") or \
                os.path.commonpath([path, ROOT]) != ROOT:
            return match.group(0)
        if os.path.isfile(path) and os.path.commonpath([path, EXAMPLES]) == EXAMPLES:
            return f"[{label}]({os.path.relpath(path, ROOT)}{anchor})"
        return label

    lines, in_fence = [], False
    for line in text.splitlines(keepends=True):
        if FENCE.match(line):
            in_fence = not in_fence
        lines.append(line if in_fence else LINK.sub(reference_link, line))
    return "".join(lines)


def finish(html):
    shutil.copytree(EXAMPLES, os.path.join(html, "examples"), dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in os.listdir(html):
        if not name.startswith(("class", "struct")) or not name.endswith(".html"):
            continue
        path = os.path.join(html, name)
        with open(path, encoding="utf-8") as f:
            page = f.read()
        if 'href="#nested-classes"' in page and 'id="nested-classes"' not in page:
            with open(path, "w", encoding="utf-8") as f:
                f.write(NESTED_CLASSES_LINK.sub("", page))
    return 0 if html_links.report(html, prefix="docs: ") else 1


def build(doxygen, doxyfile):
    folder = os.path.dirname(os.path.abspath(doxyfile))
    html = os.path.join(folder, "html")
    shutil.rmtree(html, ignore_errors=True)
    status = subprocess.run([doxygen, doxyfile], cwd=folder).returncode
    if not os.path.isdir(html):
        print(f"docs: Doxygen wrote no {html}")
        return 1
    links = finish(html)
    return 1 if status != 0 or links != 0 else 0


def selftest():
    if html_links.selftest() != 0:
        return 1
    page = os.path.join(ROOT, "docs", "programs", "page.md")
    text = ("[`examples/kirchhoff_lsm.cpp`](../../examples/kirchhoff_lsm.cpp), "
            "[examples/python](../../examples/python), [the licence](../../LICENSE),\n"
            "[operators](../operators.md), ![plot](../images/plot.png), [web](https://x.org),\n"
            "[front](../index.md), [nowhere](../../examples/nowhere.cpp), [here](#usage)\n"
            "```sh\n[`examples/kirchhoff_lsm.cpp`](../../examples/kirchhoff_lsm.cpp)\n```\n")
    expected = ("[`examples/kirchhoff_lsm.cpp`](examples/kirchhoff_lsm.cpp), "
                "examples/python, the licence,\n"
                "[operators](../operators.md), ![plot](../images/plot.png), [web](https://x.org),\n"
                "[front](@ref index), [nowhere](../../examples/nowhere.cpp), [here](#usage)\n"
                "```sh\n[`examples/kirchhoff_lsm.cpp`](../../examples/kirchhoff_lsm.cpp)\n```\n")
    got = reference_links(text, os.path.dirname(page))
    if got != expected:
        print(f"doxygen_pages selftest: the filter wrote\n{got}\nexpected\n{expected}")
        return 1
    summary = ('<div class="summary">\n<a href="#nested-classes">Classes</a> &#124;\n'
               '<a href="#pub-methods">Public Member Functions</a></div>'
               '<a id="pub-methods"></a><a href="examples/kirchhoff_lsm.cpp">source</a>')
    with tempfile.TemporaryDirectory() as html:
        with open(os.path.join(html, "classA.html"), "w", encoding="utf-8") as f:
            f.write(summary)
        status = finish(html)
        with open(os.path.join(html, "classA.html"), encoding="utf-8") as f:
            repaired = f.read()
    if status != 0 or "nested-classes" in repaired or "pub-methods" not in repaired:
        print(f"doxygen_pages selftest: finish returned {status} and wrote\n{repaired}")
        return 1
    print("doxygen_pages selftest: links rewritten as expected, the summary repaired")
    return 0


def main(argv):
    if argv[1:] == ["--selftest"]:
        return selftest()
    if len(argv) == 3 and argv[1] == "filter":
        with open(argv[2], encoding="utf-8") as f:
            page = reference_links(f.read(), os.path.dirname(os.path.abspath(argv[2])))
        sys.stdout.buffer.write(page.encode("utf-8"))
        return 0
    if len(argv) == 4 and argv[1] == "build":
        return build(argv[2], argv[3])
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
