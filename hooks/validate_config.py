"""Validate a stackwright.json against schema/stackwright.schema.json.

Copier runs this after generating or updating a project (see `_tasks` in
copier.yml). It only reads, so running it several times is harmless.

    python hooks/validate_config.py PATH

Prints one line per error ("<JSON pointer>: <message>") and exits 1 when the
file is invalid, 2 when it cannot be read; prints nothing and exits 0 when valid.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from jsonschema import Draft7Validator

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "schema" / "stackwright.schema.json"


def pointer(path: list[object]) -> str:
    """RFC 6901 JSON pointer of a location in the config ('' is the whole document)."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def config_errors(config: object, schema_path: Path = SCHEMA_PATH) -> list[str]:
    """One '<pointer>: <message>' line per schema violation, in document order."""
    validator = Draft7Validator(json.loads(schema_path.read_text()))
    errors = sorted(validator.iter_errors(config), key=lambda e: [str(p) for p in e.absolute_path])
    return [f"{pointer(list(e.absolute_path)) or '/'}: {e.message}" for e in errors]


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: validate_config.py PATH/TO/stackwright.json", file=sys.stderr)
        return 2
    path = Path(argv[0])
    try:
        config = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        print(f"{path}: cannot read a JSON config: {error}", file=sys.stderr)
        return 2
    errors = config_errors(config)
    for line in errors:
        print(f"{path}: {line}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
