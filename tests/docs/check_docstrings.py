#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Every public name of the distlops package has a docstring, and so has every public method and
property of its classes: the site's API pages (docs/conf.py) are made of them.

The public names are those `import distlops` defines without a leading underscore, modules
aside (docs/conf.py lists the same); a class's members are those it defines itself, attributes
without code (slots, enumeration values) aside, which its own docstring describes. Needs the
package installed: scripts/docs_site.py runs it in the site's environment. Prints what lacks a
docstring and exits 1, or exits 0."""
import inspect
import sys

import distlops


def documented(value):
    doc = inspect.getdoc(value) if not isinstance(value, (staticmethod, classmethod)) \
        else inspect.getdoc(value.__func__)
    return bool(doc and doc.strip())


def members(cls):
    """The public methods and properties a class defines itself."""
    for name, value in vars(cls).items():
        if not name.startswith("_") and (isinstance(value, (property, staticmethod, classmethod))
                                         or inspect.isfunction(value)):
            yield name, value


def main():
    names = sorted(name for name, value in vars(distlops).items()
                   if not name.startswith("_") and not inspect.ismodule(value))
    missing, count = [], 0
    for name in names:
        value = getattr(distlops, name)
        count += 1
        # A class's docstring must be its own, not one it inherits (Exception's, Enum's).
        own = value.__dict__.get("__doc__") if inspect.isclass(value) else value.__doc__
        if not (own and own.strip()):
            missing.append(name)
        if inspect.isclass(value):
            for member, attribute in members(value):
                count += 1
                if not documented(attribute):
                    missing.append(f"{name}.{member}")
    for name in missing:
        print(f"distlops.{name} has no docstring")
    print(f"{count - len(missing)} of {count} public names and members have a docstring")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
