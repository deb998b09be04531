"""Importing on first use: the packages' lazy namespaces and the registries' named functions.

``slidelab``, ``slidelab.search`` and ``slidelab.heuristics`` export names that
live in submodules importing numba; :func:`lazy_exports` gives such a package a
PEP 562 ``__getattr__`` and ``__dir__`` that import a submodule only when one of
its names is first looked up.  The registries name their functions as
``"module:function"`` text, loaded by :func:`load` when they run.

Examples
--------
>>> load("slidelab.units:format_bytes")(2048)
'2 KiB'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_exports(package: str, namespace: dict, exports: dict[str, list[str]]):
    """``(__getattr__, __dir__)`` for ``package`` (its ``__name__``), whose ``namespace`` (its
    ``globals()``) gets each name of ``exports`` (submodule -> names) on first look-up."""
    where = {name: module for module, names in exports.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", package), name)
        namespace[name] = value  # later look-ups skip this function
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(namespace.get("__all__", ())))

    return __getattr__, __dir__


def load(path: str) -> Callable:
    """The object named ``"module:attribute"`` (its module is imported now)."""
    module, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)
