"""Source laid out as the generated project's formatters would lay it out.

Paths differ between layouts, so import order and line lengths do too: these helpers
let one fragment render what Biome and `prisma format` would leave unchanged.
"""

from __future__ import annotations

import json
import re


def prisma_format(text: str) -> str:
    """Lay out a Prisma schema as `prisma format` does: in each block, the field lines between
    blank lines (comments aside) put names, then types, then attributes in columns; a
    generator's or datasource's keys line up their `=`."""
    out: list[str] = []
    run: list[tuple[int, list[str]]] = []  # (index in out, cells) of the current group

    def flush() -> None:
        if run and all(cells[1:2] == ["="] for _, cells in run):
            width = max(len(cells[0]) for _, cells in run)
            for index, cells in run:
                out[index] = f"  {cells[0].ljust(width)} = {cells[2]}"
        elif run:
            widths = [max((len(c[i]) for _, c in run if len(c) > i), default=0) for i in range(2)]
            for index, cells in run:
                padded = [cell.ljust(widths[i]) if i < len(cells) - 1 else cell for i, cell in enumerate(cells)]
                out[index] = "  " + " ".join(padded)
        run.clear()

    for line in text.strip("\n").split("\n"):
        body = line.strip()
        if not line.startswith("  ") or not body or body.startswith("@@"):
            flush()
        elif not body.startswith("//"):
            if " = " in body:
                key, _, value = body.partition(" = ")
                cells = [key, "=", value]
            else:
                name, _, rest = body.partition(" ")
                kind, _, attributes = rest.partition(" ")
                cells = [cell for cell in (name, kind, attributes) if cell]
            run.append((len(out), cells))
        out.append(line.rstrip())
    flush()
    return "\n".join(out)


def _import_order(line: str) -> tuple[int, int, str]:
    """Biome's import order: a protocol's modules (bun:, node:), packages, aliases, then paths, farthest first."""
    source = re.search(r'from "([^"]+)"', line)
    spec = source.group(1) if source else line
    if re.match(r"[a-z]+:", spec):
        return (0, 0, spec)
    if spec.startswith("@/"):
        return (2, 0, spec.translate(_BIOME_RANK))  # an alias (tsconfig's paths): after packages
    if not spec.startswith("."):
        return (1, 0, spec.replace("/", " "))  # a package's own paths first: "ajv/dist" < "ajv-formats"
    return (3, -spec.count("../"), spec.translate(_BIOME_RANK))


# Biome orders '.' before '_' before '-' before letters ('./comment.js' < './comment-like.js').
_BIOME_RANK = str.maketrans({".": " ", "_": "!", "-": "#"})


def sort_imports(block: str) -> str:
    """Sort import statements the way Biome's organizeImports does.

    Relative paths differ between layouts, so their order does too. A statement may span
    lines (`import {` ... `} from "x";`): it ends at the line that ends with ';'.
    """
    statements: list[str] = []
    current: list[str] = []
    for line in block.strip("\n").split("\n"):
        if line.strip():
            current.append(line)
            if line.rstrip().endswith(";"):
                statements.append("\n".join(current))
                current = []
    statements += ["\n".join(current)] if current else []
    return "\n".join(sorted(statements, key=_import_order))


def named_import(names: list[str], source: str, type_only: bool = False) -> str:
    """`import { a, b } from "source";` (`import type` with `type_only`) as Biome formats it: on
    one line when it fits in biome.json's 100 columns, else one name per line. Paths differ
    between layouts, so the length does too."""
    keyword = "import type" if type_only else "import"
    line = f'{keyword} {{ {", ".join(names)} }} from "{source}";'
    if len(line) <= 100:
        return line
    return f"{keyword} {{\n" + "".join(f"  {name},\n" for name in names) + f'}} from "{source}";'


def json_string(text: str) -> str:
    """A JSON string literal as a JSON file writes it: Jinja's `tojson` escapes `&`, `<`, `>` and
    `'` for HTML, which package.json's scripts (`a && b`) must not show."""
    return json.dumps(text, ensure_ascii=False)


def json_array_member(items: list[str], key: str, indent: int = 2, comma: bool = False) -> str:
    """`"key": [items]` as Biome and deno fmt write it at their width of 100: on one line where
    it fits, else one item a line. `comma`: another member follows."""
    pad, end = " " * indent, "," if comma else ""
    line = f"{pad}{json.dumps(key)}: {json.dumps(list(items))}{end}"
    if len(line) <= 100:
        return line
    inner = ",\n".join(f"{pad}  {json.dumps(item)}" for item in items)
    return f"{pad}{json.dumps(key)}: [\n{inner}\n{pad}]{end}"
