"""Where the template's own files are: the single place that knows the repository's layout."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SCHEMA_PATH = ROOT / "schema" / "stackwright.schema.json"
VERSIONS_PATH = ROOT / "extensions" / "versions.json"
LAYERS_DIR = ROOT / "template" / "layers"
