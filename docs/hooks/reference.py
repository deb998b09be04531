"""MkDocs hook: the reference pages that are made from the code at build time, so they cannot drift.

- ``reference/api.md``: a mkdocstrings block for every name of ``slidelab.__all__``, in the
  groups of ``slidelab._EXPORTS`` (``<!-- api -->``);
- ``reference/web-api.md``: the web API's OpenAPI schema, from ``create_app().openapi()``,
  rendered as Markdown (no script, no CDN) (``<!-- openapi -->``);
- ``reference/openapi.json``: that schema as a file of the site;
- ``changelog.md``: the repository's ``CHANGELOG.md`` (``<!-- changelog -->``).

The command line reference is made by the ``mkdocs-click`` extension from the Click commands;
this hook blanks the default it shows as ``Sentinel.UNSET`` for an option without one (click
8.3 and later say so with a sentinel that mkdocs-click 0.9 prints as it is).
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


def _anchor(name: str) -> str:
    return f"schema-{name.lower()}"


def _schema_type(prop: dict) -> str:
    """A property's type as Markdown, with links to the schemas it names."""
    if "$ref" in prop:
        name = prop["$ref"].rsplit("/", 1)[-1]
        return f"[`{name}`](#{_anchor(name)})"
    if "anyOf" in prop:
        return " or ".join(_schema_type(p) for p in prop["anyOf"])
    if "enum" in prop:
        return " / ".join(f"`{json.dumps(v)}`" for v in prop["enum"])
    kind = prop.get("type", "any")
    if kind == "array":
        return f"list of {_schema_type(prop.get('items', {}))}"
    if kind == "object" and isinstance(prop.get("additionalProperties"), dict):
        return f"object of {_schema_type(prop['additionalProperties'])}"
    return str(kind)


def _limits(prop: dict) -> str:
    """A property's bounds (``minimum``, ``maxLength``...), of it or of its non-null branch."""
    parts = []
    for branch in prop.get("anyOf", [prop]):
        for key, shown in (
            ("minimum", ">= {}"),
            ("exclusiveMinimum", "> {}"),
            ("maximum", "<= {}"),
            ("maxLength", "at most {} characters"),
        ):
            if key in branch:
                value = branch[key]
                if value == 2**63:  # 2**63 - 1 (a 64-bit integer), rounded by JSON's floats
                    text = "2^63 - 1"
                elif float(value).is_integer():
                    text = f"{int(value):,}"
                else:
                    text = str(value)
                parts.append(shown.format(text))
    return ", ".join(parts)


def _cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _answer(code: str, response: dict) -> str:
    if code.startswith(("4", "5")):
        return f"{code} [error](#errors)"
    content = response.get("content", {}).get("application/json")
    if content is None:
        return code
    return f"{code} {_schema_type(content['schema'])}"


_SCHEMA: dict = {}


def openapi_schema() -> dict:
    """The web API's OpenAPI schema, as the server publishes it at ``/openapi.json``."""
    if not _SCHEMA:
        from slidelab.web import create_app

        _SCHEMA.update(create_app().openapi())
    return _SCHEMA


def _openapi_markdown() -> str:
    schema = openapi_schema()
    parts = [
        f"OpenAPI {schema['openapi']}, API version {schema['info']['version']}; the schema "
        "itself: [openapi.json](openapi.json).\n"
    ]
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
                        f"| `{p['name']}` | {p['in']} | {kind} | {'yes' if p.get('required') else ''} |"
                    )
                parts.append("")
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            if body:
                parts.append(f"Request body: {_schema_type(body['schema'])}.\n")
            answers = [_answer(code, r) for code, r in op.get("responses", {}).items()]
            parts.append("Answers: " + ", ".join(answers) + ".\n")
    parts.append("## Schemas\n")
    for name, model in schema["components"]["schemas"].items():
        parts.append(f"### `{name}` {{ #{_anchor(name)} }}\n")
        if model.get("description"):
            parts.append(_cell(model["description"]) + "\n")
        if model.get("additionalProperties") is False:
            parts.append("Fields not listed here are refused (422).\n")
        props = model.get("properties", {})
        if props:
            required = set(model.get("required", []))
            parts.append(
                "| field | type | required | default | limits | description |\n"
                "|---|---|---|---|---|---|"
            )
            for field, prop in props.items():
                default = f"`{json.dumps(prop['default'])}`" if "default" in prop else ""
                parts.append(
                    f"| `{field}` | {_cell(_schema_type(prop))} | {'yes' if field in required else ''}"
                    f" | {_cell(default)} | {_limits(prop)} | {_cell(prop.get('description', ''))} |"
                )
            parts.append("")
    return "\n".join(parts)


def on_files(files, config):
    from mkdocs.structure.files import File

    schema = json.dumps(openapi_schema(), indent=2) + "\n"
    files.append(File.generated(config, "reference/openapi.json", content=schema))
    return files


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


def on_page_content(html, page, config, files):
    if page.file.src_uri == "reference/cli.md":
        return html.replace("<code>Sentinel.UNSET</code>", "")
    return html
