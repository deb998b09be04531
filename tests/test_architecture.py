"""The package's import graph: no cycles between modules, no import upwards between layers, and
no private name taken from another module.

The graph is computed statically: every ``slidelab/**/*.py`` is parsed with :mod:`ast`, and
every ``import``/``from ... import`` anywhere in a module (functions included) is an edge,
except those under ``if TYPE_CHECKING:``.  A lazy re-export through a package's
``__getattr__`` (``importlib.import_module``) is not an import statement, hence not an edge;
nor are the ``"module:function"`` strings of the registries.

Layers, lowest first (a module may import its own layer or lower ones):

model
    the board, its parsing, moves, puzzles, solutions, ranking, the cache, generation and the
    shared helpers (:data:`MODEL`)
tables
    ``slidelab.tables.*``: every table made by breadth-first search (the layered driver, the
    whole-space index and search, distance tables, pattern-database and abstraction tables)
heuristics
    ``slidelab.heuristics.*``
engines
    ``slidelab.search.*`` and ``slidelab.analysis.*`` (and ``analysis`` never imports ``search``)
runners
    ``slidelab.batch.*``, ``slidelab.workers``
front ends
    ``slidelab.cli`` (``slidelab.cli.*``), ``slidelab.web.*``

``slidelab/__init__.py`` and ``slidelab/__main__.py`` are exempt: the top package re-exports
every layer lazily, and ``__main__`` runs the command line.

No module takes a private name (``_name``) from another, by ``from .x import _name`` or as
``x._name``: a name another module needs is its own module's interface, public; a private
module imported whole (``from . import _args``) is fine, its plain names being its interface.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "slidelab"
PACKAGE = "slidelab"

#: the model layer's modules (below the package)
MODEL = (
    "_jit",
    "_compile_lock",
    "_clock",
    "_bits",
    "_slide",
    "_args",
    "_lazy",
    "errors",
    "units",
    "memory",
    "calibration",
    "geometry",
    "parse",
    "draw",
    "board",
    "moves",
    "puzzle",
    "solvability",
    "ranking",
    "solution",
    "cache",
    "generate",
    "cluster",
)

#: the layers, lowest first: name -> the module prefixes below ``slidelab.`` it holds
LAYERS = {
    "model": MODEL,
    "tables": ("tables",),
    "heuristics": ("heuristics",),
    "engines": ("search", "analysis"),
    "runners": ("batch", "workers"),
    "front ends": ("cli", "web"),
}
RANK = {layer: i for i, layer in enumerate(LAYERS)}

#: modules outside the layers
EXEMPT = {PACKAGE, f"{PACKAGE}.__main__"}

#: (importer prefix, imported prefix) pairs forbidden even within a layer
FORBIDDEN = [(f"{PACKAGE}.analysis", f"{PACKAGE}.search")]

#: private names one module may take from another: ``{(importer, "slidelab.x._name"): why}``.
#: Empty: a name another module needs is that module's interface, and public; one that stays
#: inside keeps its underscore.  An entry here needs a reason that says why neither holds.
PRIVATE_ALLOWED: dict[tuple[str, str], str] = {}


# ---------------------------------------------------------------------------- the graph


def module_files() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    modules = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST):
    """The import statements of ``tree`` anywhere in it, less those under ``if TYPE_CHECKING:``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
            continue
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)  # the ``else:`` branch runs
            continue
        stack.extend(ast.iter_child_nodes(node))


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The package's module ``name`` is, or lives in (``slidelab.x.f`` -> ``slidelab.x``);
    None outside the package."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def _origin(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The dotted name ``from ORIGIN import ...`` reads from, relative imports resolved."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    up = node.level - 1
    if up > len(base) - 1:
        raise AssertionError(f"{module}: relative import beyond the package")
    base = base[: len(base) - up] if up else base
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(module: str, source: str, modules, is_package: bool = False) -> set[str]:
    """The package's modules (names in ``modules``) that ``module`` imports (its text
    ``source``; ``is_package``: it is a package's ``__init__``)."""
    tree = ast.parse(source, module)
    found = set()
    for node in _import_nodes(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            origin = _origin(node, module, is_package)
            # ``from pkg import sub`` imports the submodule; ``from mod import name`` the module
            targets = [
                f"{origin}.{alias.name}" if f"{origin}.{alias.name}" in modules else origin
                for alias in node.names
            ]
        for target in targets:
            resolved = _resolve(target, modules)
            if resolved is not None and resolved != module:
                found.add(resolved)
    return found


def is_private(name: str) -> bool:
    """``_name``: a module's own, not its interface (``__dunder__`` names are neither)."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _dotted(node: ast.expr) -> list[str] | None:
    """``["a", "b", "c"]`` of the expression ``a.b.c``; None for anything else."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def private_names_taken(
    module: str, source: str, modules, is_package: bool = False
) -> set[tuple[str, int]]:
    """The private names that ``module`` takes from other modules of the package (names in
    ``modules``), as ``("slidelab.x._name", line)``: ``from .x import _name`` anywhere in it
    (functions included), or ``x._name`` on a module it imported (``from . import x``,
    ``import slidelab.x as x``, ``slidelab.x._name``).  A private *module* imported whole
    (``from . import _args``) is the package's own, and its plain names are its interface: no
    private name is taken; nor where a public name is imported under a private alias.  The check
    reads names, not types: an object's private attribute (``space._board``) is not seen."""
    tree = ast.parse(source, module)
    bound: dict[str, str] = {}  # a local name -> the package's module it is
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    local = alias.asname or alias.name.partition(".")[0]
                    bound[local] = alias.name if alias.asname else local
        elif isinstance(node, ast.ImportFrom):
            origin = _origin(node, module, is_package)
            for alias in node.names:
                full = f"{origin}.{alias.name}"
                if full in modules:
                    bound[alias.asname or alias.name] = full
                elif is_private(alias.name) and origin in modules and origin != module:
                    found.add((full, node.lineno))
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and is_private(node.attr)):
            continue
        parts = _dotted(node.value)
        if parts is None or parts[0] not in bound:
            continue
        owner = ".".join([bound[parts[0]], *parts[1:]])
        if owner in modules and owner != module:
            found.add((f"{owner}.{node.attr}", node.lineno))
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports."""
    modules = module_files()
    return {
        name: imports_of(
            name, path.read_text(encoding="utf-8"), modules, is_package=path.name == "__init__.py"
        )
        for name, path in modules.items()
    }


def layer_of(module: str) -> str | None:
    """The layer of ``module``; None for the exempt top package and ``__main__``, and for a
    module in no layer (:func:`test_every_module_has_a_layer` names those)."""
    if module in EXEMPT:
        return None
    rest = module[len(PACKAGE) + 1 :]
    for layer, prefixes in LAYERS.items():
        for prefix in prefixes:
            if rest == prefix or rest.startswith(prefix + "."):
                return layer
    return None


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of ``graph`` (iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    components.append(sorted(component))
    return components


# ---------------------------------------------------------------------------- the checks


@pytest.fixture(scope="module")
def graph():
    return import_graph()


def test_the_parser():
    """Imports are found anywhere, relative ones resolved; TYPE_CHECKING and lazy ones are not."""
    p = PACKAGE
    modules = {f"{p}.{m}" for m in ("a", "a.b", "a.c", "d", "e", "f", "g", "h", "i")} | {p}
    source = """
import os
import slidelab.d
from slidelab.e import name
from .. import f, __version__
from ..g import thing
from . import c
from .c import other
import importlib
from typing import TYPE_CHECKING

def later():
    from ..h import x
    importlib.import_module("slidelab.i")

if TYPE_CHECKING:
    from ..i import y
"""
    found = imports_of(f"{p}.a.b", source, modules)
    assert found == {f"{p}.d", f"{p}.e", f"{p}.f", p, f"{p}.g", f"{p}.a.c", f"{p}.h"}
    # in a package's __init__, ``.`` is the package itself
    assert imports_of(f"{p}.a", "from . import b\nfrom .c import z", modules, is_package=True) == {
        f"{p}.a.b",
        f"{p}.a.c",
    }


def test_the_graph_is_seen(graph):
    """Known edges of the package are found, its lazy re-exports are not."""
    assert f"{PACKAGE}._args" in graph[f"{PACKAGE}.search.registry"]
    assert f"{PACKAGE}.heuristics.registry" in graph[f"{PACKAGE}.search.options"]
    # the lazy packages import only the mechanism, not what they re-export
    assert graph[f"{PACKAGE}.search"] <= {f"{PACKAGE}._lazy"}
    assert graph[f"{PACKAGE}.heuristics"] <= {f"{PACKAGE}._lazy"}
    assert not graph[PACKAGE]


def test_every_module_has_a_layer(graph):
    unplaced = sorted(m for m in graph if m not in EXEMPT and layer_of(m) is None)
    assert not unplaced, (
        f"modules in no layer (add them to LAYERS in {__file__}):\n  " + "\n  ".join(unplaced)
    )


def cycles(graph: dict[str, set[str]]) -> list[str]:
    """One line per import cycle (a strongly connected component of more than one module),
    with its edges.  The exempt modules are left out: the top package imports nothing eagerly
    (``from . import __version__`` in a front end is no cycle)."""
    graph = {m: targets - EXEMPT for m, targets in graph.items() if m not in EXEMPT}
    lines = []
    for component in strongly_connected(graph):
        if len(component) > 1:
            members = set(component)
            edges = [f"    {a} -> {b}" for a in component for b in sorted(graph[a]) if b in members]
            lines.append("  cycle among " + ", ".join(component) + ":\n" + "\n".join(edges))
    return lines


def upward_edges(graph: dict[str, set[str]]) -> list[str]:
    """One line per import upwards between layers (or forbidden within one)."""
    offending = []
    for module in sorted(graph):
        source = layer_of(module)
        if source is None:
            continue
        for target in sorted(graph[module]):
            dest = layer_of(target)
            if dest is None:
                continue
            if RANK[dest] > RANK[source]:
                offending.append(f"  {module} -> {target} (layer {source} -> {dest})")
            for low, high in FORBIDDEN:
                if (module == low or module.startswith(low + ".")) and (
                    target == high or target.startswith(high + ".")
                ):
                    offending.append(f"  {module} -> {target} ({low} never imports {high})")
    return offending


def test_the_checks_catch_what_they_should():
    """The checks themselves, on a made-up graph."""
    p = PACKAGE
    made_up = {
        f"{p}.board": {f"{p}.moves"},
        f"{p}.moves": {f"{p}.board"},
        f"{p}.puzzle": {f"{p}.heuristics.base"},
        f"{p}.heuristics.base": set(),
        f"{p}.analysis.table": {f"{p}.search.bfs", f"{p}.heuristics.base"},
        f"{p}.search.bfs": set(),
        f"{p}.cli": {f"{p}.web.app", p},
        f"{p}.web.app": set(),
        p: {f"{p}.cli"},
    }
    assert cycles(made_up) == [
        f"  cycle among {p}.board, {p}.moves:\n"
        f"    {p}.board -> {p}.moves\n    {p}.moves -> {p}.board"
    ]
    assert upward_edges(made_up) == [
        f"  {p}.analysis.table -> {p}.search.bfs ({p}.analysis never imports {p}.search)",
        f"  {p}.puzzle -> {p}.heuristics.base (layer model -> heuristics)",
    ]


def test_no_import_cycles(graph):
    found = cycles(graph)
    assert not found, "import cycles between modules:\n" + "\n".join(found)


def test_no_upward_imports(graph):
    found = upward_edges(graph)
    assert not found, "imports upwards between layers:\n" + "\n".join(found)


def private_crossings() -> list[str]:
    """One line per private name a module of the package takes from another, less
    :data:`PRIVATE_ALLOWED`."""
    modules = module_files()
    lines = []
    for module, path in modules.items():
        source = path.read_text(encoding="utf-8")
        taken = private_names_taken(module, source, modules, path.name == "__init__.py")
        for name, line in sorted(taken, key=lambda item: (item[1], item[0])):
            if (module, name) not in PRIVATE_ALLOWED:
                lines.append(f"  {path.relative_to(ROOT.parent)}:{line}: {name}")
    return lines


def test_the_private_name_check_catches_what_it_should():
    """Both forms are found, in functions too; private modules, aliases, dunders and a
    module's own names are not."""
    p = PACKAGE
    modules = {f"{p}.{m}" for m in ("a", "a.b", "a.c", "a._m", "d", "e", "_f")} | {p}
    source = """
import slidelab.d
import slidelab.e as e
from .. import d as dee, __version__
from . import c, _m
from .c import public, _private
from .._f import name as _alias, _hidden
from ..d import _ok as ok

def later(self):
    from ..e import _late
    self._mine, _m.plain, c.public
    return c._thing + dee._other + e._more + slidelab.d._deep + _m._inner

_own = 1
print(_own, slidelab._top)
"""
    found = private_names_taken(f"{p}.a.b", source, modules)
    assert found == {
        (f"{p}.a.c._private", 6),
        (f"{p}._f._hidden", 7),
        (f"{p}.d._ok", 8),
        (f"{p}.e._late", 11),
        (f"{p}.a.c._thing", 13),
        (f"{p}.d._other", 13),
        (f"{p}.e._more", 13),
        (f"{p}.d._deep", 13),
        (f"{p}.a._m._inner", 13),
        (f"{p}._top", 16),
    }
    # a package's ``__init__`` taking its own names is no crossing
    assert not private_names_taken(f"{p}.a", "from . import _x\nfrom .c import y", modules, True)


def test_no_private_name_crosses_modules():
    """A module takes only public names from another: a name another module needs is part of
    its interface (and documented as such), one that stays inside keeps its underscore.  A
    private module (``_args``, ``search/_bestfirst``) imported whole is fine: its plain names
    are its interface."""
    found = private_crossings()
    assert not found, (
        "private names taken from another module (make the name public, move it where it\n"
        "belongs, or keep it inside):\n" + "\n".join(found)
    )


def test_the_kernel_stamp_covers_every_file_with_compiled_code():
    """A kernel inlines code from other files; its cache is checked against a stamp of the files
    KERNEL_SOURCES lists (slidelab._jit), so the list must hold every module that uses numba."""
    from slidelab._jit import KERNEL_SOURCES

    uses_numba = set()
    for path in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                name = node.module or ""
                jit = name.endswith("_jit") and any(a.name == "njit" for a in node.names)
                if name.startswith("numba") or jit or name.endswith("_bits"):
                    uses_numba.add(path.relative_to(ROOT).as_posix())
            elif isinstance(node, ast.Import) and any(
                a.name.startswith("numba") for a in node.names
            ):
                uses_numba.add(path.relative_to(ROOT).as_posix())
    assert uses_numba == set(KERNEL_SOURCES)


# ---------------------------------------------------------------------------- the tables' home

#: the modules that may say a heuristic's name: the registries that declare them, and the
#: policy that declares ``auto``'s ladders by name
NAMES_DECLARED = {
    f"{PACKAGE}.heuristics.registry",
    f"{PACKAGE}.tables.registry",
    f"{PACKAGE}.search.policy",
}


def _strings(node: ast.expr) -> list[str]:
    """The string constants ``node`` is (a constant) or holds (a tuple, list or set of them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [s for item in node.elts for s in _strings(item)]
    return []


def test_no_function_compares_a_heuristic_name_to_a_string():
    """What a heuristic is (needs tables, of which family; fits which boards; estimates by a
    per-tile table) is declared in its registry entry and read from there: no code outside
    the registries tests a heuristic's name (``if heuristic == "pdb":``)."""
    from slidelab.heuristics.registry import HEURISTICS

    names = set(HEURISTICS)
    found = []
    for module, path in module_files().items():
        if module in NAMES_DECLARED:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Compare):
                continue
            for operand in (node.left, *node.comparators):
                hits = [s for s in _strings(operand) if s in names]
                if hits:
                    found.append(f"{path.relative_to(ROOT.parent)}:{node.lineno}: {hits}")
    assert not found, "heuristic names compared outside the registries:\n" + "\n".join(found)


def test_tables_have_one_home():
    """Every table slidelab builds is the tables' layer's: only ``slidelab.tables`` runs the
    breadth-first layer driver (``tables/driver.py``) and reads or writes the table cache
    (``slidelab.cache.load_or_build``)."""
    found = []
    for module, path in module_files().items():
        if module.startswith(f"{PACKAGE}.tables") or module.startswith(f"{PACKAGE}.cache"):
            continue
        source = path.read_text()
        for word in ("load_or_build", "breadth_first", "tables.driver"):
            if word in source:
                found.append(f"{path.relative_to(ROOT.parent)}: {word}")
    assert not found, "tables made or cached outside slidelab.tables:\n" + "\n".join(found)


def test_the_web_server_and_its_page_are_small_pieces():
    """``create_app`` was 297 lines with every route inside it, and the page's script was one
    2,063-line ``app.js`` with functions of 100 lines and one 30-field global state object
    that every function read and wrote: the application is put together in at most 100 lines
    (its routes are modules of their own); the page is ES modules (``main.js`` starts it), each
    under 500 lines, with no function over 80 lines, no large shared state object (a module
    keeps its own state: module-level variables, or a small object of at most 12 lines), and
    imports that point one way (no cycles)."""
    import re

    app = ast.parse((ROOT / "web" / "app.py").read_text())
    (create,) = [n for n in app.body if isinstance(n, ast.FunctionDef) and n.name == "create_app"]
    assert create.end_lineno - create.lineno + 1 <= 100
    static = ROOT / "web" / "static"
    scripts = sorted(static.glob("*.js"))
    assert len(scripts) >= 8 and not (static / "app.js").exists()
    html = (static / "index.html").read_text()
    assert re.findall(r"<script[^>]*>", html) == ['<script type="module" src="/static/main.js">']
    long, big, state, imports = [], [], [], {}
    for path in scripts:
        lines = path.read_text().splitlines()
        if len(lines) > 500:
            big.append(f"{path.name}: {len(lines)} lines")
        for i, line in enumerate(lines):
            if re.match(r"(export )?(async )?function \w+", line):
                end = next(j for j in range(i, len(lines)) if lines[j] == "}")  # its closing brace
                if end - i + 1 > 80:
                    long.append(f"{path.name}: {line} ({end - i + 1} lines)")
            elif re.match(r"(export )?(const|let|var) \w+ = \{$", line):  # a state object
                end = next(j for j in range(i, len(lines)) if lines[j] == "};")
                if end - i + 1 > 12 or re.match(r"(export )?(const|let|var) S = ", line):
                    state.append(f"{path.name}: {line} ({end - i + 1} lines)")
        imports[path.name] = re.findall(
            r'^import [^;]*? from "\./([\w-]+\.js)";', path.read_text(), re.M | re.S
        )
    assert not long, long
    assert not big, big
    assert not state, state
    assert {m for found in imports.values() for m in found} <= set(imports), imports

    def cycle(name: str, path: tuple[str, ...]) -> tuple[str, ...] | None:
        if name in path:
            return (*path, name)
        return next((c for m in imports[name] if (c := cycle(m, (*path, name)))), None)

    cycles = [c for name in imports if (c := cycle(name, ()))]
    assert not cycles, cycles
    reached, todo = set(), ["main.js"]  # every module is the page's: main.js reaches it
    while todo:
        if (name := todo.pop()) not in reached:
            reached.add(name)
            todo.extend(imports[name])
    assert reached == set(imports), set(imports) - reached
