# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The lists of names in the documentation against the code, so that none can drift:

- every operator factory the headers of include/distlops/operators/ declare is in the catalogue
  (docs/operators.md), and every one of those headers is in distlops.hpp (directly or not);
- the Python names of the operators (the functions the group modules python/distlops/_<group>.py
  define, and those python/distlops/_factories.py makes for the factories python/src/<group>.cpp
  binds without a hand-written function) are exactly the names of the catalogue's Python column;
- every other public name of the package (arrays, solvers, proximal operators, the dot test) is
  in docs/python.md;
- the Python package mirrors the library's groups: a binding unit python/src/<group>.cpp and a
  module python/distlops/_<group>.py for every folder of include/distlops/operators/, and for
  "operators", the folder's top.

Reads the sources as text (no build needed): run as `python3 tests/docs/check_names.py ROOT`.
Prints what differs and exits 1, or exits 0."""
import ast
import os
import re
import sys

# Functions and classes the package takes from modules that are not operator groups.
NON_OPERATOR_MODULES = ("_arrays", "_proximal", "_solvers", "_dottest")
# What __init__.py takes from _arrays and the extension itself.
PACKAGE_EXTRAS = ("DistributedArray", "StackedDistributedArray", "Partition", "Error",
                  "InvalidArgument", "ShapeMismatch", "CommunicationError", "IoError",
                  "ReplicaMismatch")


def read(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return f.read()


def groups(root):
    top = os.path.join(root, "include/distlops/operators")
    return sorted(["operators"] + [d for d in os.listdir(top)
                                   if os.path.isdir(os.path.join(top, d))])


# ---- C++ ---------------------------------------------------------------------------------------
HANDLE = (r"(?:LocalOperator|LinearOperator|StackedLinearOperator|FFTOperator|BasicLinearOperator"
          r"|HaloLinearOperator)")
FACTORY = re.compile(r"^(?:inline\s+)?(?:local::)?" + HANDLE +
                     r"\s*<[^;{]*?>\s+(?:local::)?([A-Z]\w*)\s*\(", re.M)


def cpp_factories(root):
    """The factories (names starting with a capital) declared at namespace scope by the
    operators' headers, with the header that declares them."""
    found = {}
    top = os.path.join(root, "include/distlops/operators")
    for folder, _, files in os.walk(top):
        for name in files:
            if not name.endswith(".hpp"):
                continue
            path = os.path.relpath(os.path.join(folder, name), root)
            text = read(root, path)
            # Declarations and definitions start at column 0, after their template line.
            for match in FACTORY.finditer(text.replace("\\\n", " ")):
                found.setdefault(match.group(1), path)
    return found


# ---- Python ------------------------------------------------------------------------------------
BINDING = re.compile(r'factories\.(local|distributed)\(\s*"(\w+)"')


def python_public(tree):
    """Public functions, classes and names a module defines at its top, with the factory a
    function wraps (@wraps(form, name))."""
    names, wrapped = set(), set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            if not node.name.startswith("_"):
                names.add(node.name)
            for decorator in getattr(node, "decorator_list", []):
                if (isinstance(decorator, ast.Call) and getattr(decorator.func, "id", "") == "wraps"
                        and len(decorator.args) == 2):
                    wrapped.add(tuple(arg.value for arg in decorator.args))
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and not target.id.startswith("_") \
                        and isinstance(node.value, ast.Name):
                    names.add(target.id)  # an alias such as BlockDiag = MPIBlockDiag
    return names, wrapped


def python_operator_names(root, problems):
    names = {}
    for group in groups(root):
        binding = f"python/src/{group}.cpp"
        module = f"python/distlops/_{group}.py"
        for path in (binding, module):
            if not os.path.exists(os.path.join(root, path)):
                problems.append(f"{path} is missing: the Python package mirrors the group {group}")
        if problems and not os.path.exists(os.path.join(root, module)):
            continue
        defined, wrapped = python_public(ast.parse(read(root, module)))
        bound = set()
        if os.path.exists(os.path.join(root, binding)):
            bound = {(form, name) for form, name in BINDING.findall(read(root, binding))}
        for form, name in sorted(wrapped - bound):
            problems.append(f"{module} wraps the {form} factory {name}, which {binding} does "
                            f"not bind")
        generated = {name if form == "local" else "MPI" + name for form, name in bound - wrapped}
        for name in defined | generated:
            names[name] = module
    for path in sorted(os.listdir(os.path.join(root, "python/src"))):
        group = path[:-4]
        if path.endswith(".cpp") and BINDING.search(read(root, f"python/src/{path}")) \
                and group not in groups(root):
            problems.append(f"python/src/{path} binds factories but no folder "
                            f"include/distlops/operators/{group}/ exists")
    return names


def other_python_names(root):
    names = set()
    for module in NON_OPERATOR_MODULES:
        if module == "_arrays":
            continue
        names |= python_public(ast.parse(read(root, f"python/distlops/{module}.py")))[0]
    return names | set(PACKAGE_EXTRAS)


# ---- the documents -------------------------------------------------------------------------------
def table_column(text, column):
    """The cells of `column` in every Markdown table whose header has it."""
    cells = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        header = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or column not in header or i + 1 >= len(lines) \
                or not lines[i + 1].startswith("|---"):
            continue
        index = header.index(column)
        for row in lines[i + 2:]:
            if not row.startswith("|"):
                break
            row_cells = [c.strip() for c in row.strip().strip("|").split("|")]
            if index < len(row_cells):
                cells.append(row_cells[index])
    return cells


INCLUDE = re.compile(r'^#include "(distlops/[^"]+)"', re.M)


def forwarding(root, header):
    """Whether a header only includes others (a forwarding header kept for an old path)."""
    code = [line for line in read(root, os.path.join("include", header)).splitlines()
            if line.strip() and not line.startswith(("//", "#pragma"))]
    return all(INCLUDE.match(line) for line in code)


def unreachable_headers(root):
    """The operators' headers (outside detail/, forwarding headers aside) that distlops.hpp does
    not include, directly or through the headers it includes."""
    seen, pending = set(), ["distlops/distlops.hpp"]
    while pending:
        header = pending.pop()
        path = os.path.join(root, "include", header)
        if header in seen or not os.path.exists(path):
            continue
        seen.add(header)
        pending.extend(INCLUDE.findall(read(root, os.path.join("include", header))))
    headers = set()
    for folder, _, files in os.walk(os.path.join(root, "include/distlops/operators")):
        for name in files:
            path = os.path.relpath(os.path.join(folder, name), os.path.join(root, "include"))
            if name.endswith(".hpp") and "/detail/" not in path and not forwarding(root, path):
                headers.add(path)
    return sorted(headers - seen)


def main(root):
    problems = []
    for header in unreachable_headers(root):
        problems.append(f"include/distlops/distlops.hpp does not include {header}")
    catalogue = read(root, "docs/operators.md")
    for name, header in sorted(cpp_factories(root).items()):
        if not re.search(r"`(local::)?" + name + r"\b", catalogue):
            problems.append(f"docs/operators.md: no row for {name} ({header})")
    documented = set()
    for cell in table_column(catalogue, "Python"):
        documented |= set(re.findall(r"`(\w+)`", cell))
    operators = python_operator_names(root, problems)
    for name in sorted(set(operators) - documented):
        problems.append(f"docs/operators.md: the Python column lacks {name} ({operators[name]})")
    for name in sorted(documented - set(operators)):
        problems.append(f"docs/operators.md: the Python column names {name}, which the package "
                        f"does not define")
    python_doc = read(root, "docs/python.md")
    for name in sorted(other_python_names(root)):
        if not re.search(r"`(dl\.)?" + name + r"\b", python_doc):
            problems.append(f"docs/python.md does not name {name}")
    for problem in problems:
        print(problem)
    print(f"{len(problems)} differences between the documents and the code")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
