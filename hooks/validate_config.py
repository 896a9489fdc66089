r"""Validate a stackwright.json against schema/stackwright.schema.json.

Copier runs this after generating or updating a project (see `_tasks` in
copier.yml). It only reads, so running it several times is harmless.

    python hooks/validate_config.py PATH

Prints one line per error ("<JSON pointer>: <message>") and exits 1 when the
file is invalid, 2 when it cannot be read; prints nothing and exits 0 when valid.

A schema's `pattern` is an ECMA-262 regular expression, which editors (VS Code, ajv)
run as such. Python's `re` reads some of it differently (`$` also matches before a
final newline, `\d` and `\w` match any Unicode digit or letter), so the hook
translates each pattern to Python with ECMA-262's meaning and gives the editors' verdict.
"""

from __future__ import annotations

# Only what a remembered verdict needs is imported up front (json, re and jsonschema when
# validating): Copier runs this hook after every copy and several times per update, and
# importing modules was most of its time.
import hashlib
import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    import re

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMA_PATH = os.path.join(REPOSITORY, "schema", "stackwright.schema.json")
# Configs found valid, by a hash of this hook, the schema and the config: mostly Copier
# runs the hook on a config it has validated before.
VERDICTS = os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "stackwright", "valid-configs"
)

# ECMA-262's WhiteSpace and LineTerminator code points: what its \s matches.
_ECMA_SPACE = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
# Class escapes, as the contents of a character class.
_ECMA_CLASSES = {"d": "0-9", "w": "A-Za-z0-9_", "s": _ECMA_SPACE}
# Escapes both dialects read alike (\b, \B: ASCII word boundaries, given re.ASCII).
_SAME_ESCAPES = set("bBfnrtv0123456789xu")


def ecma_regex(pattern: str) -> re.Pattern[str]:
    """Compile an ECMA-262 pattern (no flags) into a Python regex that matches the same strings.

    Raises ValueError, naming the construct, for the few the two dialects disagree on
    that have no translation here.
    """
    import re

    out, i, in_class = [], 0, False
    while i < len(pattern):
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            escaped = pattern[i + 1]
            i += 2
            if escaped.lower() in _ECMA_CLASSES:
                members = _ECMA_CLASSES[escaped.lower()]
                if escaped.islower():
                    out.append(members if in_class else f"[{members}]")
                elif not in_class:
                    out.append(f"[^{members}]")
                else:
                    raise ValueError(f"pattern {pattern!r}: \\{escaped} inside [...] is not supported")
            elif escaped in _SAME_ESCAPES or not escaped.isalnum():
                out.append("\\" + escaped)
            else:
                raise ValueError(f"pattern {pattern!r}: \\{escaped} means something else in Python's re")
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
            if pattern.startswith("[^]", i) or pattern.startswith("[]", i):
                raise ValueError(f"pattern {pattern!r}: [] and [^] are not supported")
        elif char == "$":
            char = r"\Z"  # ECMA's $ (no m flag) is the end of the input, never before a final newline
        elif char == ".":
            char = r"[^\n\r\u2028\u2029]"  # ECMA's . stops at every line terminator
        elif pattern.startswith("(?<", i) and pattern[i + 3 : i + 4] not in ("=", "!"):
            out.append("(?P")  # a named group: (?<name>...) in ECMA, (?P<name>...) in Python
            i += 2
            continue
        out.append(char)
        i += 1
    return re.compile("".join(out), re.ASCII)


# The validator class, built on first use (functools.cache would cost the fast path its import).
_ECMA_DRAFT7: list[type] = []


def ecma_draft7_validator() -> type:
    """Draft 7 with the `pattern` keyword read as ECMA-262 (jsonschema's own uses Python's re)."""
    if _ECMA_DRAFT7:
        return _ECMA_DRAFT7[0]
    from jsonschema import Draft7Validator, validators
    from jsonschema.exceptions import ValidationError

    def ecma_pattern(validator, pattern, instance, schema):
        if validator.is_type(instance, "string") and not ecma_regex(pattern).search(instance):
            yield ValidationError(f"{instance!r} does not match {pattern!r}")

    _ECMA_DRAFT7.append(validators.extend(Draft7Validator, {"pattern": ecma_pattern}))
    return _ECMA_DRAFT7[0]


def pointer(path: list[object]) -> str:
    """RFC 6901 JSON pointer of a location in the config ('' is the whole document)."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def config_errors(config: object, schema_path: str | os.PathLike[str] = SCHEMA_PATH) -> list[str]:
    """One '<pointer>: <message>' line per schema violation, in document order."""
    import json

    with open(schema_path, encoding="utf-8") as schema:
        validator = ecma_draft7_validator()(json.load(schema))
    errors = sorted(validator.iter_errors(config), key=lambda e: [str(p) for p in e.absolute_path])
    return [f"{pointer(list(e.absolute_path)) or '/'}: {e.message}" for e in errors]


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: validate_config.py PATH/TO/stackwright.json", file=sys.stderr)
        return 2
    path = argv[0]
    try:
        with open(path, "rb") as file:
            text = file.read()
    except OSError as error:
        print(f"{path}: cannot read a JSON config: {error}", file=sys.stderr)
        return 2
    verdict = os.path.join(VERDICTS, verdict_key(text))
    if os.path.exists(verdict):
        return 0
    import json

    try:
        config = json.loads(text)
    except ValueError as error:
        print(f"{path}: cannot read a JSON config: {error}", file=sys.stderr)
        return 2
    errors = config_errors(config)
    for line in errors:
        print(f"{path}: {line}", file=sys.stderr)
    if not errors:
        remember(verdict)
    return 1 if errors else 0


def verdict_key(config: bytes) -> str:
    """What a verdict depends on: this hook's code, the schema and the config."""
    digest = hashlib.sha256()
    for source in (__file__, SCHEMA_PATH):
        with open(source, "rb") as file:
            digest.update(file.read())
    digest.update(config)
    return digest.hexdigest()


def remember(verdict: str) -> None:
    """Record a valid config; a cache that cannot be written is no error."""
    try:
        os.makedirs(os.path.dirname(verdict), exist_ok=True)
        open(verdict, "a").close()
    except OSError:
        pass


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
