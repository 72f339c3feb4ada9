#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Every relative link of a folder of HTML pages resolved against the files there.

    scripts/html_links.py SITE [--skip FOLDER ...]
    scripts/html_links.py --selftest

Each href and src of a page that names no scheme or host (http, https, mailto, javascript are
left alone: CI reaches no web site) must lead to a file of SITE, a folder leading to its
index.html, and its #anchor to an id (or an <a name>) of the page it leads to. Prints each
broken link as `PAGE: LINK (why)`, then the count; exit status 1 when one is broken. The `docs`
target (Doxygen's reference) and scripts/docs_site.py (the documentation site) run it over their
output. --selftest checks the checker on pages it writes, with links of every kind."""
import argparse
import html.parser
import os
import sys
import tempfile
import urllib.parse


class Links(html.parser.HTMLParser):
    """The hrefs and srcs of a page, and the ids it defines."""

    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id" or (tag == "a" and name == "name"):
                self.ids.add(value)
            elif name in ("href", "src") and value and tag != "link":
                self.links.append(value)


def broken_links(site, skip=()):
    """Every relative link of the pages of `site` (not under a folder named in `skip`) whose
    file or anchor does not exist, as `PAGE: LINK (why)`; and the number of pages read."""
    pages = {}
    for folder, folders, files in os.walk(site):
        folders[:] = sorted(f for f in folders if f not in skip)
        for name in files:
            if name.endswith(".html"):
                path = os.path.join(folder, name)
                parser = Links()
                with open(path, encoding="utf-8") as f:
                    parser.feed(f.read())
                pages[os.path.normpath(path)] = parser
    broken = []
    for path, parser in sorted(pages.items()):
        for link in parser.links:
            parts = urllib.parse.urlsplit(link)
            if parts.scheme or parts.netloc:
                continue
            target = path if not parts.path else os.path.normpath(
                os.path.join(os.path.dirname(path), urllib.parse.unquote(parts.path)))
            if os.path.isdir(target):
                target = os.path.join(target, "index.html")
            where = os.path.relpath(path, site)
            if not os.path.exists(target):
                broken.append(f"{where}: {link} (no such file)")
            elif parts.fragment and target.endswith(".html") and \
                    urllib.parse.unquote(parts.fragment) not in pages[target].ids:
                broken.append(f"{where}: {link} (no such anchor)")
    return broken, len(pages)


def report(site, skip=(), prefix=""):
    """Prints the broken links of `site` and their count; True when there is none."""
    broken, count = broken_links(site, skip)
    for link in broken:
        print(f"{prefix}broken link: {link}", flush=True)
    print(f"{prefix}{count} pages, {len(broken)} broken links", flush=True)
    return not broken


def selftest():
    pages = {
        "index.html": '<a href="guide/page.html#usage">g</a> <a href="#top">t</a> <p id="top"/>'
                      '<img src="images/plot.png"> <a href="guide/">folder</a>'
                      '<a href="https://example.org/missing.html">web</a>'
                      '<a href="mailto:someone@example.org">mail</a>'
                      '<a href="guide/page.html#missing">bad anchor</a>'
                      '<a href="gone.html">bad file</a> <img src="images/gone.png">'
                      '<a href="empty/">folder without index</a>',
        "guide/index.html": '<a href="../index.html#top">up</a>',
        "guide/page.html": '<h2><a name="usage"></a>Usage</h2><a href="#nowhere">self</a>',
        "_static/theme.html": '<a href="unchecked.html">skipped folder</a>',
    }
    expected = ["guide/page.html: #nowhere (no such anchor)",
                "index.html: guide/page.html#missing (no such anchor)",
                "index.html: gone.html (no such file)",
                "index.html: images/gone.png (no such file)",
                "index.html: empty/ (no such file)"]
    with tempfile.TemporaryDirectory() as site:
        for name, text in pages.items():
            os.makedirs(os.path.dirname(os.path.join(site, name)), exist_ok=True)
            with open(os.path.join(site, name), "w", encoding="utf-8") as f:
                f.write(text)
        os.makedirs(os.path.join(site, "images"))
        os.makedirs(os.path.join(site, "empty"))
        open(os.path.join(site, "images", "plot.png"), "wb").close()
        broken, count = broken_links(site, skip=("_static",))
    if broken != expected or count != 3:
        print(f"html_links selftest: found {broken} in {count} pages, expected {expected} in 3")
        return 1
    print("html_links selftest: every broken link of the sample found, and no other")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", nargs="?", help="the folder of the pages")
    parser.add_argument("--skip", action="append", default=[],
                        help="a folder name whose pages are not read (a theme's templates)")
    parser.add_argument("--selftest", action="store_true")
    args = parser.parse_args()
    if args.selftest:
        return selftest()
    if not args.site:
        parser.error("SITE is required")
    return 0 if report(args.site, args.skip) else 1


if __name__ == "__main__":
    sys.exit(main())
