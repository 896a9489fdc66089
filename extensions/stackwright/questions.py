"""The questions' allowed values, defaults and refusals, read from the schema itself.

schema/stackwright.schema.json is the single source of the allowed values and of the
cross-field rules (its `allOf` if/then pairs); BUILT says which of them this release
generates, PREFERRED which one `--defaults` picks.
"""

from __future__ import annotations

import json
from typing import Any

from .paths import SCHEMA_PATH

SCHEMA: dict[str, Any] = json.loads(SCHEMA_PATH.read_text())

# Copier question -> where its value lives in stackwright.json.
QUESTION_FIELDS: dict[str, tuple[str, ...]] = {
    "packageManager": ("packageManager",),
    "runtime": ("runtime",),
    "language": ("language",),
    "framework": ("framework",),
    "architecture": ("architecture",),
    "databaseEngine": ("database", "engine"),
    "databaseAdapter": ("database", "adapter"),
}
NO_DATABASE = "none"

# What this release generates. The schema allows more; the rest is refused at
# question time with a "not built yet" message until a later release adds it.
BUILT: dict[str, list[str]] = {
    "packageManager": ["npm", "pnpm", "bun", "yarn"],
    "runtime": ["node", "bun", "deno"],
    "language": ["typescript"],
    "framework": ["express", "hono", "nestjs", "nextjs"],
    "architecture": ["mvc", "feature", "modular", "file-api"],
    "databaseEngine": [NO_DATABASE, "postgresql", "mysql", "mongodb"],
    "databaseAdapter": ["drizzle", "mongoose", "prisma"],
}

# The answer `--defaults` gives when it is allowed for the parent answer.
PREFERRED: dict[str, str] = {
    "packageManager": "npm",
    "runtime": "node",
    "language": "typescript",
    "framework": "express",
    "architecture": "feature",
    "databaseEngine": "postgresql",
    "databaseAdapter": "drizzle",
}


def _const_path(node: dict[str, Any], path: tuple[str, ...] = ()) -> tuple[tuple[str, ...], Any]:
    """Find the single `const` (or `enum`) an if/then branch constrains, and its path."""
    for key, sub in node.get("properties", {}).items():
        if "const" in sub:
            return path + (key,), [sub["const"]]
        if "enum" in sub:
            return path + (key,), sub["enum"]
        found = _const_path(sub, path + (key,))
        if found[0]:
            return found
    return (), None


def schema_rules(schema: dict[str, Any] = SCHEMA) -> dict[str, tuple[str, dict[str, list[str]]]]:
    """{child question: (parent question, {parent value: allowed child values})}."""
    by_field = {field: question for question, field in QUESTION_FIELDS.items()}
    rules: dict[str, tuple[str, dict[str, list[str]]]] = {}
    for rule in schema.get("allOf", []):
        parent_path, parent_values = _const_path(rule["if"])
        child_path, allowed = _const_path(rule["then"])
        parent, child = by_field[parent_path], by_field[child_path]
        rules.setdefault(child, (parent, {}))[1][parent_values[0]] = allowed
    return rules


def schema_enum(question: str, schema: dict[str, Any] = SCHEMA) -> list[str]:
    """Every value the schema allows for a question's field, whatever the parent."""
    node = schema
    for key in QUESTION_FIELDS[question]:
        node = node["properties"][key]
    values = list(node["enum"])
    return [NO_DATABASE, *values] if question == "databaseEngine" else values


RULES = schema_rules()


def allowed(question: str, parent_value: str | None = None) -> list[str]:
    """Values the schema allows for a question, given its parent's answer."""
    if question not in RULES:
        return schema_enum(question)
    _parent, table = RULES[question]
    return list(table.get(parent_value, [])) if parent_value is not None else []


def built_values(question: str, parent_value: str | None = None) -> list[str]:
    """Values the schema allows for a question, given its parent's answer, that this release builds."""
    return [v for v in allowed(question, parent_value) if v in BUILT[question]]


def refusal(question: str, value: str, parent_value: str | None = None) -> str:
    """Why `value` cannot be chosen ("" when it can): names field, value and what is allowed."""
    valid = allowed(question, parent_value)
    offer = built_values(question, parent_value)
    choose = " or ".join(offer) if offer else "another value"
    if value not in valid:
        parent = RULES[question][0] if question in RULES else None
        where = f" on {parent} '{parent_value}'" if parent else ""
        return f"{question} '{value}' is not available{where}; choose {choose}"
    if value not in BUILT[question]:
        return f"{question} '{value}' is not built yet in this release of Stackwright; choose {choose}"
    return ""


def choices(question: str, parent_value: str | None = None) -> str:
    """Copier choices (as JSON, which is YAML): a refused value carries a validator that says why
    (Copier shows it disabled); an allowed one is plain, which Copier renders with less work."""
    offered: dict[str, Any] = {}
    for value in schema_enum(question):
        why = refusal(question, value, parent_value)
        offered[value] = {"value": value, "validator": why} if why else value
    return json.dumps(offered)


def default_for(question: str, parent_value: str | None = None) -> str:
    """A default that is valid and built for every parent answer."""
    offer = built_values(question, parent_value)
    if PREFERRED[question] in offer:
        return PREFERRED[question]
    return offer[0] if offer else ""
