"""MkDocs hook: the reference pages that are made from the code at build time, so they cannot drift.

- ``reference/api.md``: a mkdocstrings block for every name of ``slidelab.__all__``, in the
  groups of ``slidelab._EXPORTS`` (``<!-- api -->``);
- ``reference/web-api.md``: the web API's OpenAPI schema, from ``create_app().openapi()``,
  rendered as Markdown (no script, no CDN) (``<!-- openapi -->``);
- ``changelog.md``: the repository's ``CHANGELOG.md`` (``<!-- changelog -->``).

The command line reference is made by the ``mkdocs-click`` extension from the Click commands.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: module of each public name that is not a class or function (a table)
_DEFINED_IN = {
    "METHODS": "slidelab.search.registry",
    "HEURISTICS": "slidelab.heuristics.registry",
}

#: the headings of the API page, by the submodule the names are exported from
_GROUPS = {
    "search": "Solving",
    "solution": "Solutions",
    "board": "Boards",
    "puzzle": "Puzzles",
    "moves": "Moves",
    "generate": "Generating positions",
    "solvability": "Solvability",
    "analysis": "Whole-space analysis",
    "batch": "Batch solving",
    "heuristics": "Heuristics",
    "ranking": "Ranking",
    "errors": "Errors",
}


def api_identifiers() -> dict[str, list[tuple[str, str]]]:
    """``{heading: [(name, dotted path of its definition)]}`` for every name of ``__all__``."""
    import slidelab

    exports = slidelab._EXPORTS
    out: dict[str, list[tuple[str, str]]] = {}
    for module, names in exports.items():
        heading = _GROUPS.get(module, module)
        for name in names:
            obj = getattr(slidelab, name)
            where = _DEFINED_IN.get(name) or getattr(obj, "__module__", None)
            if where is None or not hasattr(importlib.import_module(where), name):
                raise RuntimeError(f"cannot tell where slidelab.{name} is defined")
            out.setdefault(heading, []).append((name, f"{where}.{name}"))
    listed = {name for entries in out.values() for name, _ in entries}
    missing = set(slidelab.__all__) - listed
    if missing:
        raise RuntimeError(f"public names without a module in _EXPORTS: {sorted(missing)}")
    return out


def _api_markdown() -> str:
    parts = []
    for heading, entries in api_identifiers().items():
        parts.append(f"## {heading}\n")
        for _name, path in entries:
            parts.append(f"::: {path}\n")
    return "\n".join(parts)


def _schema_type(prop: dict) -> str:
    if "$ref" in prop:
        return prop["$ref"].rsplit("/", 1)[-1]
    if "anyOf" in prop:
        return " or ".join(_schema_type(p) for p in prop["anyOf"])
    if prop.get("type") == "array":
        return f"list of {_schema_type(prop.get('items', {}))}"
    if "enum" in prop:
        return " / ".join(json.dumps(v) for v in prop["enum"])
    return str(prop.get("type", "any"))


def _cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _openapi_markdown() -> str:
    from slidelab.web import create_app

    schema = create_app().openapi()
    parts = [f"OpenAPI {schema['openapi']}, version {schema['info']['version']}.\n"]
    parts.append("## Endpoints\n")
    for path, operations in schema["paths"].items():
        for verb, op in operations.items():
            parts.append(f"### `{verb.upper()} {path}`\n")
            doc = op.get("description") or op.get("summary") or ""
            if doc:
                parts.append(_cell(doc) + "\n")
            params = op.get("parameters", [])
            if params:
                parts.append("| parameter | in | type | required |\n|---|---|---|---|")
                for p in params:
                    kind = _schema_type(p.get("schema", {}))
                    parts.append(
                        f"| `{p['name']}` | {p['in']} | {kind} | {p.get('required', False)} |"
                    )
                parts.append("")
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            if body:
                parts.append(f"Request body: `{_schema_type(body['schema'])}`.\n")
            answers = [
                f"{code} `{_schema_type(r['content']['application/json']['schema'])}`"
                if "application/json" in r.get("content", {})
                else code
                for code, r in op.get("responses", {}).items()
            ]
            parts.append("Responses: " + ", ".join(answers) + ".\n")
    parts.append("## Schemas\n")
    for name, model in schema["components"]["schemas"].items():
        parts.append(f"### `{name}`\n")
        if model.get("description"):
            parts.append(_cell(model["description"]) + "\n")
        props = model.get("properties", {})
        if props:
            required = set(model.get("required", []))
            parts.append(
                "| field | type | required | default | description |\n|---|---|---|---|---|"
            )
            for field, prop in props.items():
                default = json.dumps(prop["default"]) if "default" in prop else ""
                parts.append(
                    f"| `{field}` | {_cell(_schema_type(prop))} | {field in required}"
                    f" | {_cell(default)} | {_cell(prop.get('description', ''))} |"
                )
            parts.append("")
    return "\n".join(parts)


def on_page_markdown(markdown, page, config, files):
    uri = page.file.src_uri
    if uri == "reference/api.md":
        return markdown.replace("<!-- api -->", _api_markdown())
    if uri == "reference/web-api.md":
        return markdown.replace("<!-- openapi -->", _openapi_markdown())
    if uri == "changelog.md":
        text = (ROOT / "CHANGELOG.md").read_text()
        return markdown.replace("<!-- changelog -->", text.split("\n", 1)[1])
    return markdown
