"""Griffe extension: Sphinx roles in docstrings (``:class:`~a.b.Name```) shown as code (``Name``).

slidelab's docstrings are numpydoc, read by Python's ``help`` and by doctest as well as by this
site; their cross-reference roles would otherwise appear as raw text.
"""

from __future__ import annotations

import re

import griffe

_ROLE = re.compile(r":(?:class|func|meth|attr|data|mod|exc|obj|const):`~?([^`]+)`")


def _plain(match: re.Match) -> str:
    target = match.group(1)
    if "<" in target:  # :func:`text <target>`
        return f"`{target.split('<', 1)[0].strip()}`"
    shown = target.rsplit(".", 1)[-1] if match.group(0).count("~") else target
    return f"`{shown}`"


class SphinxRoles(griffe.Extension):
    """Rewrite the roles of every docstring as it is loaded."""

    def on_instance(self, *, obj, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = _ROLE.sub(_plain, obj.docstring.value)
