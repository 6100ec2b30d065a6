"""The Python text of the types :mod:`client_sdk.typegen` makes of the spec.

A type is a tuple (:data:`T`); a definition (:class:`Def`) a ``TypedDict`` (its
:class:`Key` s) or an alias. :class:`Writer` writes each definition after those it
uses (a cycle's back-reference quoted), since the module cannot postpone its
annotations, and splits a line the way ``ruff format`` would (a union a member a line,
a ``Literal`` a value a line); the spec's descriptions become docstrings as written.
"""

from __future__ import annotations

import json
import keyword
from dataclasses import dataclass, field
from typing import Any

LINE = 100  # the project's line length (ruff)

SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}

# A type: ("name", "str") | ("lit", (values,)) | ("list", T) | ("dict", T) | ("union", (T,))
T = tuple[Any, ...]
ANY: T = ("name", "Any")
NONE: T = ("name", "None")


@dataclass
class Key:
    name: str
    type: T
    required: bool
    doc: str = ""


@dataclass
class Def:
    name: str
    doc: str = ""
    keys: list[Key] | None = None  # a TypedDict's; None: an alias of `alias`
    alias: T = ANY
    deps: set[str] = field(default_factory=set)


def union(parts: list[T]) -> T:
    """The union of ``parts``, nested unions flattened, duplicates dropped, ``None`` last."""
    flat: list[T] = []
    for part in parts:
        for p in part[1] if part[0] == "union" else (part,):
            if p not in flat:
                flat.append(p)
    if ANY in flat:
        return ANY
    flat.sort(key=lambda p: p == NONE)
    return flat[0] if len(flat) == 1 else ("union", tuple(flat))


def names_in(t: T) -> set[str]:
    if t[0] == "name":
        return {t[1]}
    if t[0] in ("list", "dict"):
        return names_in(t[1])
    return set().union(*map(names_in, t[1])) if t[0] == "union" else set()


class Writer:
    """The module's text for ``defs``: :meth:`text`."""

    def __init__(self, defs: dict[str, Def]) -> None:
        self.defs = defs
        self.done: set[str] = set()
        self.body: list[str] = []
        self.used = {"TypedDict"} if any(d.keys is not None for d in self.defs.values()) else set()
        for name in self.defs:
            self._emit(name, set())

    def _emit(self, name: str, stack: set[str]) -> None:
        if name in self.done or name in stack or name not in self.defs:
            return
        d = self.defs[name]
        for dep in sorted(d.deps):
            self._emit(dep, stack | {name})
        self.body += ["", ""] + (self._typeddict(d) if d.keys is not None else self._alias(d))
        self.done.add(name)

    def ann(self, t: T) -> str:
        if t[0] == "name":
            if t[1] == "Any":
                self.used.add("Any")
            return str(t[1])
        if t[0] == "lit":
            self.used.add("Literal")
            values = (json.dumps(v) if isinstance(v, str) else repr(v) for v in t[1])
            return f"Literal[{', '.join(values)}]"
        if t[0] in ("list", "dict"):
            return f"list[{self.ann(t[1])}]" if t[0] == "list" else f"dict[str, {self.ann(t[1])}]"
        return " | ".join(self.ann(p) for p in t[1])

    def _annotation(self, t: T, lead: str, required: bool = True, close: str = "") -> str:
        """``t`` as written after ``lead`` (the line so far; ``close`` ends it), split over
        lines when too long: a union one member a line, a ``Literal`` one value a line."""
        text = self.ann(t)
        if names_in(t) - self.done - {"Any", "None", *SCALARS.values()}:
            text = json.dumps(text)  # a name defined further down (a cycle): quoted
        elif len(lead) + len(text) + len(close) + (0 if required else 13) > LINE:
            indent = " " * (len(lead) - len(lead.lstrip()) + 4)
            if t[0] == "union":
                text = f"\n{indent}| ".join(self.ann(p) for p in t[1])
                text = f"\n{indent}{text}\n{indent[4:]}"
                text = text if not required else f"({text})"
            elif t[0] == "lit":
                values = "".join(f"{indent}{v},\n" for v in self.ann(t)[8:-1].split(", "))
                text = f"Literal[\n{values}{indent[4:]}]"
        if not required:
            self.used.add("NotRequired")
            return f"NotRequired[{text}]"
        return text

    def _alias(self, d: Def) -> list[str]:
        text = self._annotation(d.alias, f"{d.name} = ")
        if text.startswith('"'):
            self.used.add("TypeAlias")
            return [f"{d.name}: TypeAlias = {text}", *docstring(d.doc, "")]
        return [f"{d.name} = {text}", *docstring(d.doc, "")]

    def _typeddict(self, d: Def) -> list[str]:
        keys = d.keys or []
        if all(k.name.isidentifier() and not keyword.iskeyword(k.name) for k in keys):
            lines = [f"class {d.name}(TypedDict):", *docstring(d.doc, "    ")]
            lines += [""] if d.doc and keys else []
            for k in keys:
                lead = f"    {k.name}: "
                lines += [lead + self._annotation(k.type, lead, k.required),
                          *docstring(k.doc, "    ")]  # fmt: skip
            return lines if keys or d.doc else [*lines, "    pass"]
        items = []
        for k in keys:
            lead = f"        {json.dumps(k.name)}: "
            items.append(lead + self._annotation(k.type, lead, k.required, ",") + ",")
        notes = [f"``{k.name}``: {k.doc.strip()}" for k in keys if k.doc]
        doc = "\n\n".join(p for p in [d.doc.strip(), "\n".join(notes)] if p)
        return [f"{d.name} = TypedDict(", f'    "{d.name}",', "    {", *items, "    },", ")",
                *docstring(doc, "")]  # fmt: skip

    def text(self, header: str) -> str:
        """``header`` (comments, the docstring), the imports, ``__all__``, the types."""
        typing = ", ".join(sorted(self.used))
        names = "".join(f'    "{n}",\n' for n in sorted(self.done))
        body = "\n".join(self.body)
        return f"{header}from typing import {typing}\n\n__all__ = [\n{names}]\n{body}\n"


def docstring(text: str, indent: str) -> list[str]:
    text = text.strip().replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    if not text:
        return []
    lines = [line.rstrip() for line in text.splitlines()]
    if len(lines) == 1:
        return [f'{indent}"""{lines[0]}"""']
    body = [f"{indent}{line}" if line else "" for line in lines[1:]]
    return [f'{indent}"""{lines[0]}', *body, f'{indent}"""']
