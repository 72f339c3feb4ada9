# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The documentation site (scripts/docs_site.py builds it): the Markdown pages of docs/ through
MyST, the C++ reference from Doxygen's XML through Breathe, the Python API through autodoc and
the gallery of examples/python/gallery/ run at build time through sphinx-gallery."""
import os
import re

import distlops

DOCS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(DOCS)

project = "distlops"
author = "The distlops authors"
copyright = "2026, The distlops authors"
release = version = distlops.__version__

extensions = [
    "myst_parser",
    "breathe",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx_gallery.gen_gallery",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_templates", "requirements.txt", "Doxyfile.in",
                    "auto_examples/*.ipynb", "auto_examples/*.py", "auto_examples/*.zip",
                    "auto_examples/*.json", "auto_examples/*.md5"]
nitpicky = True
nitpick_ignore_regex = [
    # Breathe refers to every C++ name a declaration spells (template parameters, namespaces,
    # the standard library's and Eigen's types); the reference's own links are Doxygen's.
    ("cpp:identifier", r".*"),
    # Partition's base class, from the standard library (no intersphinx: CI reaches no web site).
    ("py:class", r"enum\.Enum"),
    # Private bases that hold what several public classes share (the class solvers' setup, step,
    # run, finalize and solve): named in "Bases", not pages of their own.
    ("py:class", r"distlops\._\w+\._\w+"),
]

# ---- MyST: the Markdown pages stay readable on GitHub -----------------------------------------
myst_enable_extensions = ["colon_fence", "dollarmath"]
myst_heading_anchors = 3

# ---- Python API --------------------------------------------------------------------------------
autosummary_generate = True
templates_path = ["_templates"]
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": True}
autodoc_typehints = "none"

# ---- C++ API (Doxygen's XML, written by scripts/docs_site.py) ----------------------------------
breathe_projects = {"distlops": os.environ.get(
    "DISTLOPS_DOXYGEN_XML", os.path.join(ROOT, "build", "docs-site", "doxygen", "xml"))}
breathe_default_project = "distlops"
breathe_default_members = ("members",)

# ---- gallery -------------------------------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": os.path.join(ROOT, "examples", "python", "gallery"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "abort_on_example_error": True,
    "image_scrapers": ("matplotlib",),
}

# ---- HTML: PyData's theme, as PyLops ------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"distlops {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
}
html_static_path = []



# ---- the Python API page, written from the package itself so that no name is missed -----------
# Every public name of distlops (tests/docs/check_docstrings.py lists them the same way),
# grouped by the module that defines it.
GROUPS = [
    ("Arrays", ("distlops._arrays",)),
    ("Operator handles", ("distlops._operators",)),
    ("Local operators", ("distlops._local", "distlops._dense")),
    ("Stacks", ("distlops._stack",)),
    ("Derivatives", ("distlops._derivative",)),
    ("Signal processing", ("distlops._signal",)),
    ("Wave-equation processing", ("distlops._waveeq",)),
    ("Solvers", ("distlops._solvers",)),
    ("Proximal operators and solvers", ("distlops._proximal",)),
    ("Dot test", ("distlops._dottest",)),
    ("Partitions and errors", ("distlops._distlops",)),
]


def public_names():
    import inspect
    return sorted(name for name, value in vars(distlops).items()
                  if not name.startswith("_") and not inspect.ismodule(value))


def write_python_api():
    names = public_names()
    # A second name of an object (MPILinearOperator for LinearOperator, HStack for MPIHStack)
    # is listed with it, not documented twice.
    aliases = {name: getattr(distlops, name).__name__ for name in names
               if getattr(getattr(distlops, name), "__name__", name) != name}
    by_module = {}
    for name in names:
        if name not in aliases:
            by_module.setdefault(getattr(getattr(distlops, name), "__module__", ""),
                                 []).append(name)
    lines = [".. This page is written by docs/conf.py at every build.", "",
             "Python API", "==========", "",
             "Every public name of the ``distlops`` package (``import distlops as dl``), by the "
             "group of the library it belongs to; :doc:`../python` explains the package and "
             ":doc:`pylops_mpi` the drop-in ``distlops.pylops_mpi``.", "",
             ".. currentmodule:: distlops", ""]
    listed = set()
    for title, modules in GROUPS:
        group = [n for m in modules for n in by_module.get(m, [])]
        if not group:
            continue
        listed.update(group)
        lines += [title, "-" * len(title), "", ".. autosummary::", "   :toctree: generated",
                  "   :nosignatures:", ""] + [f"   {n}" for n in sorted(group)] + [""]
    title = "Second names"
    lines += [title, "-" * len(title), "",
              "Names kept for PyLops-MPI's and PyLops' spellings; each is the same object as the "
              "one it names.", ""]
    lines += [f"- ``{alias}``: :obj:`{target}`" for alias, target in sorted(aliases.items())]
    lines.append("")
    listed.update(aliases)
    unlisted = sorted(set(names) - listed)
    if unlisted:
        raise RuntimeError(f"docs/conf.py: no group of the API page holds {unlisted}: add their "
                           f"module to GROUPS")
    path = os.path.join(DOCS, "api", "python.rst")
    text = "\n".join(lines)
    if not os.path.exists(path) or open(path, encoding="utf-8").read() != text:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


# Before Sphinx looks for the pages, so that autosummary writes the stubs of this one.
write_python_api()

# ---- links to the repository's files -------------------------------------------------------------
# The Markdown pages link to the repository's files as GitHub shows them. On the site, a link to a
# file outside docs/ becomes a download, and a link to a folder (the site holds no copy of the
# tree) keeps its text only. index.md and changelog.md include README.md and CHANGELOG.md, whose
# links are relative to the repository's root: they are made relative to docs/ as they are read
# (the pages of docs/ stay pages, the root's Markdown files are their pages here).
LINK = re.compile(r"\[([^\]]*)\]\((?!https?:|mailto:|#)([^)#\s]+)(#[^)\s]*)?\)")
ROOT_PAGES = {"CHANGELOG.md": "changelog.md"}


def site_links(text, folder):
    """The Markdown ``text`` of a file in ``folder`` with its links as the site needs them."""

    def site_link(match):
        label, path, anchor = match.group(1), match.group(2), match.group(3) or ""
        if os.path.isdir(os.path.normpath(os.path.join(folder, path))):
            return label
        if folder == ROOT:
            path = path[len("docs/"):] if path.startswith("docs/") else \
                ROOT_PAGES.get(path, "../" + path)
        return f"[{label}]({path}{anchor})"

    return LINK.sub(site_link, text)


def included_links(app, relative_path, parent_docname, content):
    path = os.path.normpath(os.path.join(app.srcdir, relative_path))
    if path.endswith(".md"):
        content[0] = site_links(content[0], os.path.dirname(path))


def page_links(app, docname, content):
    path = str(app.env.doc2path(docname))
    if path.endswith(".md"):
        content[0] = site_links(content[0], os.path.dirname(path))


def setup(app):
    app.connect("include-read", included_links)
    app.connect("source-read", page_links)
