"""The layers of the package: no import points up a layer, no circle, no needless lazy import.

Every module of ``wetland_gis/`` belongs to one layer of :data:`LAYERS` (the table of
CONTRIBUTING.md, "The layers"). A module imports only from its own layer or the layers
below it, and the import graph has no circle, counting every import: at module level, inside
a function and under ``TYPE_CHECKING`` (a type-only import that points up is still a
dependency the next reader must hold in their head, and it is how circles hide).

An import inside a function is kept only for what it is for: to load a third-party library
(geopandas, pandas, folium, ...) the module does not load otherwise, so that ``wetland-gis
--help`` and ``import wetland_gis.rules`` stay fast (tests/test_imports.py). An import inside
a function of a module that loads no such library is an import that dodged a circle: it goes
to the top of the module.

The imports are read with :mod:`ast` (nothing is imported), so a failure names the file, the
line and the fix.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "wetland_gis"

#: The layers, lowest first: (name, the modules and packages in it, what it is). A module is
#: in the layer of the longest entry that names it or a package holding it (dotted, below
#: ``wetland_gis``); ``""`` is the package's own ``__init__``, the public facade.
LAYERS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    (
        "base",
        (
            "_version",
            "_gc",
            "_lazy",
            "errors",
            "enums",
            "units",
            "palette",
            "decision",
            "parameters",
            "memory",
            "progress",
            "notebook",
            "tally",
            "names",
            "context_layers",
            "qgis_provider.events",
        ),
        "plain values every layer shares: errors, enums, units, colours, the parameter tree, "
        "the context layer registry, how names and keys are matched, a command's tally and its "
        "run events",
    ),
    (
        "rules",
        ("rules", "labels", "exemption_catalog"),
        "the rules core: pure functions on plain values, the rule spec and how its ids read",
    ),
    (
        "geometry primitives",
        ("geometry.crs", "geometry.polygons"),
        "the working CRS and what a polygon layer can hold: the readers and writers use them",
    ),
    (
        "io",
        ("io", "manifest"),
        "reading and writing files, parsing a user's text, field mapping, the manifest",
    ),
    (
        "geometry",
        ("geometry",),
        "cleaning, overlays, shoreland zones, classification: frames in, columns out",
    ),
    ("context", ("context",), "the context layers of a run, loaded and checked"),
    (
        "stages",
        ("siting", "mapping", "register", "water_use"),
        "what runs on an assessment or beside it: siting, the map and report, the "
        "register, water use",
    ),
    (
        "entry points",
        ("impacts", "assessment", "assess", "compare", "screen", "partitioned"),
        "the library's entry points: one call each",
    ),
    ("commands", ("commands",), "the command runners: paths in, files out"),
    (
        "front ends",
        ("cli", "demo", "qgis_provider", ""),
        "the command line, the demo, the QGIS provider and the package facade",
    ),
)

_STDLIB = frozenset(sys.stdlib_module_names) | {"__future__"}


@dataclass(frozen=True)
class Import:
    """One import of a package module: where it is, what it names, and how it runs."""

    source: str  # the importing module, dotted
    path: str  # its file, relative to the repository
    line: int
    target: str  # the package module imported (the longest existing module of the name)
    kind: str  # "module", "function" or "type checking"


def modules(root: Path) -> dict[str, Path]:
    """Return every module of the package below ``root``, dotted name -> file."""
    found = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _existing(name: str, known: Mapping[str, Path]) -> str | None:
    """Return ``name`` or the longest package module that holds it."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _lazy_names(known: Mapping[str, Path]) -> dict[str, dict[str, str]]:
    """Return, per package, the names its ``__init__`` imports only under ``TYPE_CHECKING``.

    Such a package is a lazy facade (a module ``__getattr__`` imports the name's module on
    first use), so ``from package import Name`` loads the module that defines ``Name``.
    """
    out: dict[str, dict[str, str]] = {}
    for name, path in known.items():
        if path.name != "__init__.py":
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.If) and _is_type_checking(node.test):
                for stmt in node.body:
                    if isinstance(stmt, ast.ImportFrom) and stmt.module and not stmt.level:
                        for alias in stmt.names:
                            out.setdefault(name, {})[alias.asname or alias.name] = stmt.module
    return out


def imports(root: Path) -> tuple[list[Import], dict[str, set[str]]]:
    """Return every import of a package module, and each module's third-party imports.

    The third-party imports are those run when the module is imported (module level,
    not under ``TYPE_CHECKING``).
    """
    known = modules(root)
    lazy = _lazy_names(known)
    found: list[Import] = []
    third_party: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        rel = path.relative_to(root).as_posix()

        def add(target: str, node: ast.AST, kind: str, name: str = name, rel: str = rel) -> None:
            top = target.split(".")[0]
            if top == PACKAGE:
                resolved = _existing(target, known)
                if resolved is not None and resolved != name:
                    found.append(Import(name, rel, getattr(node, "lineno", 0), resolved, kind))
            elif top and top not in _STDLIB and kind == "module":
                third_party[name].add(top)

        def visit(node: ast.AST, kind: str, package: str = package) -> None:
            for child in ast.iter_child_nodes(node):
                inner = kind
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                    inner = "function" if kind == "module" else kind
                if isinstance(child, ast.If) and _is_type_checking(child.test):
                    for stmt in child.body:
                        visit(ast.Module(body=[stmt], type_ignores=[]), "type checking")
                    for stmt in child.orelse:
                        visit(ast.Module(body=[stmt], type_ignores=[]), kind)
                    continue
                if isinstance(child, ast.Import):
                    for alias in child.names:
                        add(alias.name, child, inner)
                elif isinstance(child, ast.ImportFrom):
                    base = child.module or ""
                    if child.level:
                        up = package.split(".")[: len(package.split(".")) - child.level + 1]
                        base = ".".join(up + ([child.module] if child.module else []))
                    for alias in child.names:
                        full = f"{base}.{alias.name}"
                        # a lazy facade imports the name's module when the name is asked for
                        add(
                            full if full in known else lazy.get(base, {}).get(alias.name, base),
                            child,
                            inner,
                        )
                elif (
                    isinstance(child, ast.Call)
                    and isinstance(child.func, ast.Attribute)
                    and child.func.attr == "import_module"
                    and child.args
                    and isinstance(child.args[0], ast.Constant)
                    and isinstance(child.args[0].value, str)
                ):
                    add(child.args[0].value, child, inner)
                visit(child, inner)

        visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)), "module")
    return found, third_party


def layer_of(module: str, layers: Iterable[tuple[str, tuple[str, ...], str]] = LAYERS) -> int:
    """Return the index of the layer of ``module`` (dotted, with the package prefix)."""
    inner = module.removeprefix(PACKAGE).removeprefix(".")
    best, best_len = -1, -1
    for index, (_, members, _) in enumerate(layers):
        for member in members:
            if member == "" and inner == "":
                return index
            if member and (inner == member or inner.startswith(member + ".")):
                if len(member) > best_len:
                    best, best_len = index, len(member)
    return best


def against_layering(
    found: Iterable[Import], layers: tuple[tuple[str, tuple[str, ...], str], ...] = LAYERS
) -> list[str]:
    """Return one line per import that points to a higher layer."""
    out = []
    for imp in found:
        low, high = layer_of(imp.source, layers), layer_of(imp.target, layers)
        if high > low:
            out.append(
                f"{imp.path}:{imp.line}: {imp.source} (layer {layers[low][0]!r}) imports "
                f"{imp.target} (layer {layers[high][0]!r}, above it) [{imp.kind}]; fix: move "
                f"what it uses down to layer {layers[low][0]!r} or lower, or have the caller "
                "pass the value in"
            )
    return out


def circles(found: Iterable[Import]) -> list[list[str]]:
    """Return the circles of the import graph (strongly connected components, Tarjan)."""
    graph: dict[str, set[str]] = {}
    for imp in found:
        graph.setdefault(imp.source, set()).add(imp.target)
        graph.setdefault(imp.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return sorted(out)


def describe_circle(component: list[str], found: Iterable[Import]) -> str:
    """Name a circle by the imports that close it (file and line of each)."""
    members = set(component)
    arrows = sorted(
        {
            f"{imp.path}:{imp.line} ({imp.source} -> {imp.target}) [{imp.kind}]"
            for imp in found
            if imp.source in members and imp.target in members
        }
    )
    return (
        f"a circle of {len(component)} modules: {', '.join(component)}; its imports:\n    "
        + "\n    ".join(arrows)
        + "\n  fix: move the names one side takes from the other to a module below both"
    )


def loads(module: str, found: Iterable[Import], third_party: Mapping[str, set[str]]) -> set[str]:
    """Return the third-party libraries importing ``module`` loads (its import closure)."""
    runtime: dict[str, set[str]] = {}
    for imp in found:
        if imp.kind == "module":
            runtime.setdefault(imp.source, set()).add(imp.target)
    seen, todo = set(), [module]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        # importing a.b.c runs the __init__ of a and a.b first
        parts = name.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))
        todo.extend(runtime.get(name, ()))
    return set().union(*(third_party.get(name, set()) for name in seen))


def needless_lazy_imports(found: list[Import], third_party: Mapping[str, set[str]]) -> list[str]:
    """Return one line per import inside a function that loads no library lazily."""
    out = []
    cache: dict[str, set[str]] = {}

    def closure(name: str) -> set[str]:
        if name not in cache:
            cache[name] = loads(name, found, third_party)
        return cache[name]

    front_ends = next(i for i, (name, _, _) in enumerate(LAYERS) if name == "front ends")
    for imp in found:
        if imp.kind != "function" or layer_of(imp.source) == front_ends:
            continue  # the command line loads a command's code when it runs (fast --help)
        if closure(imp.target) - closure(imp.source):
            continue  # it keeps a library out of the importer until the function runs
        out.append(
            f"{imp.path}:{imp.line}: {imp.source} imports {imp.target} inside a function, "
            "though importing it loads no library the module does not load already; fix: "
            "import it at the top of the module"
        )
    return out


@pytest.fixture(scope="module")
def graph() -> tuple[list[Import], dict[str, set[str]]]:
    return imports(ROOT)


def test_every_module_is_in_a_layer_and_every_layer_entry_names_modules():
    known = modules(ROOT)
    assert not [m for m in known if layer_of(m) < 0], "add these modules to LAYERS"
    for name, members, _ in LAYERS:
        for member in members:
            assert f"{PACKAGE}.{member}".rstrip(".") in known, (name, member)


def test_no_import_points_up_a_layer(graph):
    found, _ = graph
    wrong = against_layering(found)
    assert not wrong, "imports against the layering:\n" + "\n".join(wrong)


def test_the_import_graph_has_no_circle(graph):
    found, _ = graph
    found_circles = circles(found)
    assert not found_circles, "\n".join(describe_circle(c, found) for c in found_circles)


def test_an_import_inside_a_function_only_defers_a_library(graph):
    found, third_party = graph
    needless = needless_lazy_imports(found, third_party)
    assert not needless, "\n".join(needless)


def test_the_layer_table_of_contributing_is_this_one():
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \| ([^|]+) \| ([^|]+) \|", text, flags=re.MULTILINE)
    documented = [(int(n), name.strip(), members.strip()) for n, name, members in rows]
    expected = [
        (i, name, ", ".join(f"`{m}`" if m else "`__init__`" for m in members))
        for i, (name, members, _) in enumerate(LAYERS)
    ]
    assert documented == expected


# -- the checker itself, on a small made-up package --------------------------------------


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in {"__init__.py": "", **files}.items():
        path = tmp_path / PACKAGE / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


_TOY_LAYERS = (("low", ("low",), ""), ("high", ("high",), ""), ("top", ("",), ""))


def test_the_checker_finds_an_up_import_inside_a_function_and_under_type_checking(tmp_path):
    root = _tree(
        tmp_path,
        {
            "low.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from wetland_gis.high import A\n"
                "def f():\n    from . import high\n"
            ),
            "high.py": "import wetland_gis.low\n",
        },
    )
    found, _ = imports(root)
    wrong = against_layering(found, _TOY_LAYERS)
    assert [w.split(" (")[0] for w in wrong] == ["wetland_gis/low.py:3: wetland_gis.low"] + [
        "wetland_gis/low.py:5: wetland_gis.low"
    ]
    assert "[type checking]" in wrong[0] and "[function]" in wrong[1]
    assert "fix: move what it uses down" in wrong[0]
    assert circles(found) == [["wetland_gis.high", "wetland_gis.low"]]


def test_the_checker_finds_a_long_circle_and_keeps_a_lazy_library_import(tmp_path):
    root = _tree(
        tmp_path,
        {
            "a.py": "from wetland_gis.b import x\n",
            "b.py": "import pandas\nfrom wetland_gis import c\n",
            "c.py": "def f():\n    from wetland_gis.a import y\n    from wetland_gis.b import z\n",
            "d.py": "def g():\n    import importlib\n"
            "    importlib.import_module('wetland_gis.b')\n",
        },
    )
    found, third_party = imports(root)
    assert third_party["wetland_gis.b"] == {"pandas"}
    (component,) = circles(found)
    assert component == ["wetland_gis.a", "wetland_gis.b", "wetland_gis.c"]
    assert "wetland_gis/c.py:2 (wetland_gis.c -> wetland_gis.a) [function]" in describe_circle(
        component, found
    )
    needless = needless_lazy_imports(found, third_party)
    # c -> a and c -> b load pandas (c does not): deferred; d -> b too
    assert needless == []
    root = _tree(tmp_path, {"c.py": "import pandas\ndef f():\n    from wetland_gis.a import y\n"})
    found, third_party = imports(root)
    assert [n.split(" imports")[0] for n in needless_lazy_imports(found, third_party)] == [
        "wetland_gis/c.py:3: wetland_gis.c"
    ]


def test_a_name_of_a_lazy_facade_counts_as_an_import_of_its_module(tmp_path):
    """``from package import Name`` of a lazy package loads the module defining ``Name``."""
    root = _tree(
        tmp_path,
        {
            "reg/__init__.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from wetland_gis.reg.store import Register\n"
            ),
            "reg/store.py": "import sqlalchemy\n",
            "user.py": "from wetland_gis.reg import Register\n",
            "lazy.py": "def f():\n    from wetland_gis.reg import Register\n",
        },
    )
    found, third_party = imports(root)
    targets = {(i.source, i.target) for i in found if i.kind != "type checking"}
    assert ("wetland_gis.user", "wetland_gis.reg.store") in targets
    assert loads("wetland_gis.user", found, third_party) == {"sqlalchemy"}
    assert needless_lazy_imports(found, third_party) == []  # lazy.py defers sqlalchemy
