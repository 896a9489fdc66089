"""Where the template's own files are: the single place that knows the repository's layout."""

from __future__ import annotations

import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SCHEMA_PATH = ROOT / "schema" / "stackwright.schema.json"
VERSIONS_PATH = ROOT / "extensions" / "versions.json"
LAYERS_DIR = ROOT / "template" / "layers"

# Overlay folders inside a layer folder, applied only where they say: on a runtime
# (frameworks/hono/on-deno) or with a database (frameworks/nestjs/with-database).
OVERLAY_PREFIXES = ("on-", "with-")
# A part of another fragment (runtimes/bun/_readme.md.jinja), included by it: no file of its own.
PARTIAL_PREFIX = "_"


@functools.cache
def layer_fragments(folder: str) -> tuple[str, ...]:
    """Fragment names (paths inside the folder, '.jinja' removed) of one layer folder."""
    root = LAYERS_DIR / folder
    if not root.is_dir():
        return ()
    names = []
    for path in sorted(root.rglob("*.jinja")):
        relative = path.relative_to(root)
        partial = path.name.startswith(PARTIAL_PREFIX)
        if not partial and not any(part.startswith(OVERLAY_PREFIXES) for part in relative.parts[:-1]):
            names.append(relative.as_posix()[: -len(".jinja")])
    return tuple(names)
