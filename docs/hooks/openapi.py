"""MkDocs hook: render openapi.yaml into docs/reference.md at build time.

The page holds the marker ``<!-- openapi -->``; this hook replaces it with the
operations (grouped by tag) and the schemas, as plain Markdown, so the
reference needs no JavaScript and no network and cannot drift from the
contract the tests validate responses against.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

MARKER = "<!-- openapi -->"
SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"
METHODS = ("get", "post", "put", "patch", "delete")


def on_config(config: Any) -> Any:
    config.watch.append(str(SPEC))  # `mkdocs serve` rebuilds when the contract changes
    return config


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    if MARKER not in markdown:
        return markdown
    spec = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
    return markdown.replace(MARKER, render(spec))


def render(spec: dict[str, Any]) -> str:
    out = [f"Version {spec['info']['version']} of the contract.", ""]
    by_tag: dict[str, list[tuple[str, str, dict[str, Any]]]] = {}
    for path, item in spec.get("paths", {}).items():
        for method in METHODS:
            if method in item:
                op = item[method]
                by_tag.setdefault((op.get("tags") or ["other"])[0], []).append((path, method, op))
    out.append("## Operations")
    for tag in [t["name"] for t in spec.get("tags", [])] + sorted(by_tag):
        ops = by_tag.pop(tag, None)
        if not ops:
            continue
        out += ["", f"### {tag}"]
        for path, method, op in ops:
            out += _operation(path, method, op, spec)
    out += ["", "## Schemas"]
    for name, schema in spec.get("components", {}).get("schemas", {}).items():
        out += _schema(name, schema)
    return "\n".join(out) + "\n"


def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def _type(schema: Any) -> str:
    """A short type for a table cell, schema references linked to their section."""
    if not isinstance(schema, dict):
        return ""
    if "$ref" in schema:
        name = _ref_name(schema["$ref"])
        return f"[{name}](#schema-{name.lower()})"
    for key in ("oneOf", "anyOf", "allOf"):
        if key in schema:
            return " or ".join(t for t in (_type(s) for s in schema[key]) if t)
    kind = schema.get("type", "")
    if isinstance(kind, list):
        kind = " or ".join(kind)
    if kind == "array":
        return f"array of {_type(schema.get('items', {})) or 'any'}"
    if "enum" in schema:
        return f"{kind} ({', '.join(f'`{v}`' for v in schema['enum'])})"
    if "const" in schema:
        return f"`{schema['const']}`"
    return kind or "object"


def _cell(text: Any) -> str:
    return " ".join(str(text or "").split()).replace("|", "\\|")


def _operation(path: str, method: str, op: dict[str, Any], spec: dict[str, Any]) -> list[str]:
    out = ["", f"#### `{method.upper()} {path}`", ""]
    if op.get("summary"):
        out.append(f"**{op['summary'].strip()}**")
        out.append("")
    if op.get("description"):
        out += [op["description"].strip(), ""]
    if op.get("security") == [{}]:
        out += ["No token needed.", ""]
    params = [_resolve(p, spec) for p in op.get("parameters", [])]
    if params:
        out += ["| parameter | in | type | description |", "|---|---|---|---|"]
        for p in params:
            req = " (required)" if p.get("required") else ""
            row = [f"`{p['name']}`{req}", p.get("in", ""), _type(p.get("schema", {})),
                   _cell(p.get("description"))]  # fmt: skip
            out.append("| " + " | ".join(row) + " |")
        out.append("")
    body = op.get("requestBody")
    if body:
        for media, content in _resolve(body, spec).get("content", {}).items():
            out += [f"Request body ({media}): {_type(content.get('schema', {}))}", ""]
    out += ["| status | meaning | body |", "|---|---|---|"]
    for status, response in op.get("responses", {}).items():
        response = _resolve(response, spec)
        shape = ", ".join(
            _type(c.get("schema", {})) or media for media, c in response.get("content", {}).items()
        )
        out.append(f"| {status} | {_cell(response.get('description'))} | {shape} |")
    return out


def _resolve(obj: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    """Follow a local ``$ref`` (``#/components/…``) to its object."""
    while "$ref" in obj:
        node: Any = spec
        for part in obj["$ref"].lstrip("#/").split("/"):
            node = node[part]
        obj = node
    return obj


def _schema(name: str, schema: dict[str, Any]) -> list[str]:
    out = ["", f"### {name} {{#schema-{name.lower()}}}", ""]
    if schema.get("description"):
        out += [_cell(schema["description"]), ""]
    props = schema.get("properties")
    if not props:
        out.append(f"Type: {_type(schema)}")
        return out
    required = set(schema.get("required", []))
    out += ["| field | type | description |", "|---|---|---|"]
    for field, sub in props.items():
        mark = " (required)" if field in required else ""
        desc = sub.get("description", "") if isinstance(sub, dict) else ""
        out.append(f"| `{field}`{mark} | {_type(sub)} | {_cell(desc)} |")
    return out
